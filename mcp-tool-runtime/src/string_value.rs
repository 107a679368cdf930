//! Reading a typed value from a string, as prompt arguments and URI template variables arrive:
//! the string itself when the type takes one (`String`, an enum's variant), else the string
//! read as JSON (`42`, `true`, `[1, 2]`).

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::message::{describe, quote};
use crate::protocol_error::ProtocolError;

/// `raw`, read as `T`, for the argument `name` of `owner` (`prompt \`review\``); a missing
/// value is `null`, which only an `Option` takes. Errors are `-32602`, naming the argument.
pub(crate) fn from_string<T: DeserializeOwned>(
    owner: &dyn std::fmt::Display,
    name: &str,
    raw: Option<&Value>,
) -> Result<T, ProtocolError> {
    let Some(raw) = raw else {
        return T::deserialize(&Value::Null).map_err(|_| {
            ProtocolError::invalid_params(format!("missing required argument `{name}` of {owner}"))
        });
    };
    let first = match T::deserialize(raw) {
        Ok(value) => return Ok(value),
        Err(error) => error,
    };
    if let Value::String(text) = raw
        && let Ok(value) = serde_json::from_str::<T>(text)
    {
        return Ok(value);
    }
    Err(ProtocolError::invalid_params(format!(
        "invalid argument `{name}` of {owner}: {} (got {})",
        quote(&first.to_string()),
        describe(raw)
    )))
}

#[cfg(test)]
mod tests {
    use super::from_string;
    use serde_json::json;

    #[derive(Debug, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Tone {
        Formal,
        Casual,
    }

    #[test]
    fn strings_are_read_as_the_type_takes_them() {
        let owner = "prompt `p`";
        assert_eq!(
            from_string::<String>(&owner, "a", Some(&json!("42"))),
            Ok("42".to_owned())
        );
        assert_eq!(from_string::<u32>(&owner, "a", Some(&json!("42"))), Ok(42));
        assert_eq!(
            from_string::<bool>(&owner, "a", Some(&json!("true"))),
            Ok(true)
        );
        assert_eq!(
            from_string::<Tone>(&owner, "a", Some(&json!("casual"))),
            Ok(Tone::Casual)
        );
        assert_eq!(from_string::<Option<u8>>(&owner, "a", None), Ok(None));
        assert_eq!(
            from_string::<Option<u8>>(&owner, "a", Some(&json!("7"))),
            Ok(Some(7))
        );
        let _ = Tone::Formal;
    }

    #[test]
    fn a_bad_or_missing_value_is_invalid_params_naming_the_argument() {
        let owner = "prompt `p`";
        let error = from_string::<u32>(&owner, "count", Some(&json!("many"))).unwrap_err();
        assert_eq!(error.code, -32602);
        assert!(
            error
                .message
                .contains("invalid argument `count` of prompt `p`"),
            "{}",
            error.message
        );
        let error = from_string::<u32>(&owner, "count", None).unwrap_err();
        assert_eq!(
            error.message,
            "missing required argument `count` of prompt `p`"
        );
    }
}
