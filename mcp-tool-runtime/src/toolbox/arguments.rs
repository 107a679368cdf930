//! Arguments held to the `inputSchema` a tool advertises: every rule the schema states beyond
//! what serde checks when it reads the arguments (a bound, a length, a pattern, a format, an
//! `enum` or `const`, ...) is checked before the tool runs, against the very document served,
//! with a validator compiled once at registration. A tool whose schema states nothing beyond
//! serde's checks pays nothing.
//!
//! What serde checks: each argument's JSON type, that required arguments are there, and the
//! range of an integer type (schemars writes it as a `format` such as `uint32`, and `minimum: 0`
//! for an unsigned one). Everything else a schema can state is checked here.

use serde_json::{Map, Value};

/// The keywords that state a rule serde does not check.
const RULES: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "patternProperties",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedItems",
    "unevaluatedProperties",
    "enum",
    "const",
    "not",
    "if",
    "then",
    "else",
    "allOf",
];

/// The formats serde checks itself: the integer and float types schemars names.
const TYPE_FORMATS: &[&str] = &[
    "int8", "int16", "int32", "int64", "int", "uint8", "uint16", "uint32", "uint64", "uint",
    "float", "double",
];

/// The formats the validator checks (JSON Schema 2020-12's).
const CHECKED_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// The check of one tool's arguments against its advertised `inputSchema`.
#[derive(Clone, Default)]
pub(crate) struct ArgumentCheck(
    #[cfg(feature = "self-check")] Option<std::sync::Arc<jsonschema::Validator>>,
);

impl ArgumentCheck {
    /// The check of arguments against `served`, the schema as served, derived as `derived`
    /// (the same rules, in the shape schemars writes): nothing to do when it states no rule
    /// beyond serde's, else a validator compiled now from `served`. Refused (why, naming the
    /// keyword) when the schema states a rule that cannot be checked: a `format` the validator
    /// does not know, or any rule in a build without the validator (feature `self-check`).
    pub(crate) fn new(
        derived: &Map<String, Value>,
        served: &Map<String, Value>,
    ) -> Result<ArgumentCheck, String> {
        let mut rules = Vec::new();
        rules_in(derived, &mut rules)?;
        match rules.first() {
            None => Ok(ArgumentCheck::default()),
            Some(first) => ArgumentCheck::compiled(served, first),
        }
    }

    /// The check of arguments against `enforced`, derived as `derived`, whatever rules it
    /// states: for a schema whose shape adds rules serde does not check (the strict profile's
    /// `required` and closed objects). Refused like [`new`](Self::new)'s.
    pub(crate) fn always(
        derived: &Map<String, Value>,
        enforced: &Map<String, Value>,
    ) -> Result<ArgumentCheck, String> {
        rules_in(derived, &mut Vec::new())?;
        ArgumentCheck::compiled(enforced, "required")
    }

    /// A validator compiled now from `schema`; refused in a build without one, naming `rule`.
    fn compiled(schema: &Map<String, Value>, rule: &str) -> Result<ArgumentCheck, String> {
        #[cfg(feature = "self-check")]
        {
            let _ = rule;
            let validator = crate::conform::compile(&Value::Object(schema.clone()))
                .map_err(|e| format!("its `inputSchema` is not a valid JSON Schema: {e}"))?;
            Ok(ArgumentCheck(Some(std::sync::Arc::new(validator))))
        }
        #[cfg(not(feature = "self-check"))]
        {
            let _ = schema;
            Err(format!(
                "its `inputSchema` states `{rule}`, which this build cannot check: turn on the \
                 `self-check` feature (on by default), which brings the validator"
            ))
        }
    }

    /// The arguments of a call of `tool`, or a message naming the argument and the rule it
    /// breaks (the first by path).
    pub(crate) fn check(
        &self,
        tool: &str,
        arguments: Map<String, Value>,
    ) -> Result<Map<String, Value>, String> {
        #[cfg(feature = "self-check")]
        if let Some(validator) = &self.0 {
            let arguments = Value::Object(arguments);
            if !validator.is_valid(&arguments) {
                let error = validator
                    .iter_errors(&arguments)
                    .min_by(|a, b| a.instance_path().as_str().cmp(b.instance_path().as_str()));
                if let Some(error) = error {
                    return Err(breaks(
                        tool,
                        error.instance_path().as_str(),
                        error.kind().keyword(),
                        &error.masked().to_string(),
                        error.instance(),
                    ));
                }
            }
            return Ok(match arguments {
                Value::Object(arguments) => arguments,
                _ => Map::new(),
            });
        }
        let _ = tool;
        Ok(arguments)
    }
}

#[cfg(feature = "self-check")]
/// The message for an argument at `pointer` (`/count`, `/lines/0/quantity`) breaking `keyword`.
fn breaks(tool: &str, pointer: &str, keyword: &str, rule: &str, got: &Value) -> String {
    let argument = pointer.split('/').nth(1);
    let subject = match argument {
        None => "invalid arguments".to_owned(),
        Some(raw) => {
            let name = raw.replace("~1", "/").replace("~0", "~");
            // The path spelled as `encode_json`'s and the result self-check's errors spell it.
            let path = crate::conform::json_path(pointer);
            let at = path.strip_prefix("$.").unwrap_or(&path[1..]);
            if at == name {
                format!("invalid argument `{name}`")
            } else {
                format!("invalid argument `{name}` at `{at}`")
            }
        }
    };
    format!(
        "{subject} of tool `{tool}`: it breaks the `{keyword}` rule of the tool's `inputSchema` \
         ({rule}) (got {})",
        crate::message::describe(got)
    )
}

/// Collects the rules beyond serde's that `schema` states (its subschemas included), refusing a
/// `format` nothing checks.
fn rules_in(schema: &Map<String, Value>, rules: &mut Vec<String>) -> Result<(), String> {
    for (key, value) in schema {
        match key.as_str() {
            "format" => {
                let format = value.as_str().unwrap_or_default();
                if TYPE_FORMATS.contains(&format) {
                    continue;
                }
                if !CHECKED_FORMATS.contains(&format) {
                    return Err(format!(
                        "its `inputSchema` states `\"format\": \"{format}\"`, which no validator \
                         here checks; use one of {}, or a `pattern`",
                        CHECKED_FORMATS.join(", ")
                    ));
                }
                rules.push(key.clone());
            }
            // schemars' `minimum: 0` of an unsigned integer is the type's own range.
            "minimum" if value == &Value::from(0) && has_unsigned_format(schema) => {}
            key if RULES.contains(&key) => rules.push(key.to_owned()),
            _ => {}
        }
        match value {
            Value::Object(sub) if !is_annotation(key) => rules_in(sub, rules)?,
            Value::Array(items) if !is_annotation(key) => {
                for item in items {
                    if let Value::Object(sub) = item {
                        rules_in(sub, rules)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Keywords whose values are data, not subschemas.
fn is_annotation(key: &str) -> bool {
    matches!(
        key,
        "default" | "examples" | "const" | "enum" | "description" | "title"
    ) || key.starts_with("x-")
}

fn has_unsigned_format(schema: &Map<String, Value>) -> bool {
    schema
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| f.starts_with("uint"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rules(schema: Value) -> Result<Vec<String>, String> {
        let mut found = Vec::new();
        rules_in(schema.as_object().unwrap(), &mut found).map(|()| found)
    }

    #[test]
    fn what_serde_checks_is_no_rule() {
        let schema = json!({"type": "object", "properties": {
            "n": {"type": "integer", "format": "uint32", "minimum": 0},
            "name": {"type": ["string", "null"], "description": "x", "default": "a"},
            "ratio": {"type": "number", "format": "double"}
        }, "required": ["n"]});
        assert_eq!(rules(schema), Ok(vec![]));
    }

    #[test]
    fn bounds_lengths_patterns_and_formats_are_rules() {
        let schema = json!({"type": "object", "properties": {
            "n": {"type": "integer", "format": "uint32", "minimum": 1, "maximum": 100},
            "code": {"type": "string", "pattern": "^[A-Z]+$", "maxLength": 8},
            "mail": {"type": "string", "format": "email"},
            "items": {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 1}
        }});
        let mut found = rules(schema).unwrap();
        found.sort();
        assert_eq!(
            found,
            [
                "enum",
                "format",
                "maxLength",
                "maximum",
                "minItems",
                "minimum",
                "pattern"
            ]
        );
    }

    #[test]
    fn a_format_nothing_checks_is_refused() {
        let refused = rules(json!({"properties": {"x": {"type": "string", "format": "zipcode"}}}));
        assert!(refused.unwrap_err().contains("`\"format\": \"zipcode\"`"));
    }

    #[test]
    #[cfg(feature = "self-check")]
    fn the_message_names_the_argument_and_the_rule() {
        let message = breaks(
            "t",
            "/lines/0/quantity",
            "minimum",
            "0 is less than the minimum of 1",
            &json!(0),
        );
        assert_eq!(
            message,
            "invalid argument `lines` at `lines[0].quantity` of tool `t`: it breaks the `minimum` \
             rule of the tool's `inputSchema` (0 is less than the minimum of 1) (got a number `0`)"
        );
    }
}
