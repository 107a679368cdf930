//! Header arguments (SEP-2243) in a tool's `inputSchema`: every `x-mcp-header` checked at
//! registration, as the official clients check it, so no tool is listed that a client would drop.
//! (Serving checks each `Mcp-Param-*` header against the body in rmcp's Streamable HTTP service.)

use serde_json::{Map, Value};

use crate::schema::HEADER_KEYWORD;

/// Whether the input schema's header arguments can be served, or why not: each `x-mcp-header`
/// on a property reached from the root through `properties` alone, an RFC 9110 token, used once
/// (ignoring case, as HTTP compares header names), on a property whose `type` is `string`,
/// `integer` or `boolean`.
pub(crate) fn check_header_arguments(schema: &Map<String, Value>) -> Result<(), String> {
    if schema.contains_key(HEADER_KEYWORD) {
        return Err(format!(
            "`{HEADER_KEYWORD}` must be on an argument, not on the schema's root"
        ));
    }
    let mut seen = Vec::new();
    check_properties(schema, &mut Vec::new(), &mut seen)?;
    // Anything left is off the `properties` chain (in `$defs`, `items`, `anyOf`...).
    if off_chain(schema) {
        return Err(format!(
            "`{HEADER_KEYWORD}` must be on a property reached from the root through `properties` only"
        ));
    }
    Ok(())
}

fn check_properties<'a>(
    schema: &'a Map<String, Value>,
    path: &mut Vec<&'a str>,
    seen: &mut Vec<String>,
) -> Result<(), String> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(());
    };
    for (name, property) in properties {
        let Some(property) = property.as_object() else {
            continue;
        };
        path.push(name);
        if let Some(header) = property.get(HEADER_KEYWORD) {
            let argument = path.join(".");
            let Some(header) = header.as_str().filter(|h| is_token(h)) else {
                return Err(format!(
                    "argument `{argument}`'s `{HEADER_KEYWORD}` must be an HTTP header name (RFC 9110 token), got {header}"
                ));
            };
            if !matches!(
                property.get("type").and_then(Value::as_str),
                Some("string" | "integer" | "boolean")
            ) {
                return Err(format!(
                    "argument `{argument}` is sent as header `Mcp-Param-{header}`, so its type must be \
                     `string`, `integer` or `boolean` (one type, not nullable)"
                ));
            }
            if seen.iter().any(|s: &String| s.eq_ignore_ascii_case(header)) {
                return Err(format!(
                    "two arguments are sent as header `Mcp-Param-{header}` (header names ignore case)"
                ));
            }
            seen.push(header.to_owned());
        }
        check_properties(property, path, seen)?;
        path.pop();
    }
    Ok(())
}

/// Whether an `x-mcp-header` sits anywhere but on a `properties`-only path.
fn off_chain(schema: &Map<String, Value>) -> bool {
    schema
        .iter()
        .any(|(key, value)| match (key.as_str(), value) {
            ("properties", Value::Object(properties)) => properties
                .values()
                .any(|property| property.as_object().is_some_and(off_chain)),
            _ => key != HEADER_KEYWORD && mentions_header(value),
        })
}

fn mentions_header(value: &Value) -> bool {
    match value {
        Value::Object(map) => map
            .iter()
            .any(|(key, value)| key == HEADER_KEYWORD || mentions_header(value)),
        Value::Array(items) => items.iter().any(mentions_header),
        _ => false,
    }
}

/// An RFC 9110 token: one or more of letters, digits and `!#$%&'*+-.^_`|~`.
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}
