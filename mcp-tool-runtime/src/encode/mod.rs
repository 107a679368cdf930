//! `encode_json`: the deterministic JSON text every tool result carries.
//!
//! A payload is first turned into a [`serde_json::Value`] by `to_checked_value`, a serializer of
//! our own that sorts object keys, refuses non-finite floats (naming the JSON path) and refuses
//! nesting deeper than [`MAX_DEPTH`] before it could overflow the stack. The checked value is what
//! `structuredContent` carries; its pretty form is what the text mirror carries.

use serde::Serialize;

mod checked;
mod error;
mod pretty;

pub use checked::MAX_DEPTH;
pub(crate) use checked::{Checked, to_checked_value};
pub use error::EncodeError;
#[cfg(any(feature = "testing", feature = "self-check"))]
pub(crate) use error::Segment;
pub(crate) use pretty::{compact, pretty};

/// Encodes `payload` as stable, pretty JSON: two-space indent, object keys sorted by code point at
/// every depth (struct fields included), non-ASCII written as UTF-8.
///
/// The output is the same bytes on every run and platform. For a payload whose keys are already
/// sorted it equals `serde_json::to_string_pretty`. Map keys that are integers, bools, chars or
/// unit enum variants become key strings, sorted as strings.
///
/// # Errors
/// Refuses, rather than writes something else: a non-finite float (serde_json would write
/// `null`), nesting deeper than [`MAX_DEPTH`], a map key JSON cannot spell. The error names the
/// JSON path of the offending value.
///
/// # Examples
/// ```
/// use mcp_tool_runtime::encode_json;
///
/// #[derive(serde::Serialize)]
/// struct Invoice { total: f64, customer: &'static str }
///
/// let text = encode_json(&Invoice { total: 12.5, customer: "Zoë" }).unwrap();
/// assert_eq!(text, "{\n  \"customer\": \"Zoë\",\n  \"total\": 12.5\n}");
///
/// let err = encode_json(&vec![1.0, f64::NAN]).unwrap_err();
/// assert_eq!(err.path(), "$[1]");
/// ```
pub fn encode_json<T: Serialize + ?Sized>(payload: &T) -> Result<String, EncodeError> {
    let value = to_checked_value(payload)?;
    Ok(pretty(&value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pretty_layout_is_serde_jsons_byte_for_byte() {
        let mut deep = serde_json::json!({"leaf": [1, {}, [], "x"]});
        for i in 0..(MAX_DEPTH + 20) {
            deep = if i % 2 == 0 {
                serde_json::json!([deep, null])
            } else {
                serde_json::json!({"k": deep, "e": {}})
            };
        }
        for value in [
            serde_json::json!({}),
            serde_json::json!([]),
            serde_json::json!({"a": [1, 2, {"b": null, "c": "é\n\"q\""}], "d": {"e": []}}),
            serde_json::json!(["x", 1.5, true]),
            deep,
        ] {
            assert_eq!(
                pretty(&value),
                serde_json::to_string_pretty(&value).unwrap()
            );
        }
    }

    #[test]
    fn paths_name_fields_indices_and_quoted_keys() {
        let mut rows = std::collections::BTreeMap::new();
        rows.insert("odd key", vec![1.0, f64::INFINITY]);
        let err = encode_json(&rows).unwrap_err();
        assert_eq!(err.path(), "$[\"odd key\"][1]");
        assert!(err.to_string().contains("inf"), "{err}");
    }
}
