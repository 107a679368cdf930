//! The strict shape of an `inputSchema`: the portable shape, closed the way strict function
//! calling (OpenAI's strict mode, which Structured Outputs shares) requires, so that a framework
//! deciding per tool whether to ask for strict mode (Pydantic AI) asks for it, and one that asks
//! regardless (the OpenAI Agents SDKs, LangChain) sends a schema the API takes as it is:
//!
//! - every object is closed (`"additionalProperties": false`) and lists every property in
//!   `required`. An optional argument (an `Option`) is already `"type": [T, "null"]`, so a model
//!   leaves it out by sending `null`; a defaulted one (`#[serde(default)]`) must be sent;
//! - the keywords strict mode does not take (`minLength`, `maxLength`, `uniqueItems`, the
//!   `*Properties` and `*Contains` families, a `format` outside its list) and `default` move into
//!   the description, where the model still reads them.
//!
//! Two documents come out: the one served, and the one enforced, which is the served one with
//! the moved keywords still in place. The server checks every call against the enforced one, so
//! a rule moved into a description is still a rule, and everything the served schema admits
//! that the enforced one does not is what the description says.
//!
//! An object whose keys are the caller's to choose (a map: `"additionalProperties"` a schema or
//! `true`) cannot be closed, and strict mode refuses it: such a tool is refused at registration
//! under this profile.

use serde_json::{Map, Value};

/// The keywords strict mode refuses, moved into the description (the list Pydantic AI's OpenAI
/// transformer and OpenAI's Structured Outputs guide give).
const MOVED: &[&str] = &[
    "minLength",
    "maxLength",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
];

/// The string formats strict mode takes; any other `format` moves into the description.
const FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// An `inputSchema` in the strict shape: what is served, and what calls are checked against.
pub(crate) struct Strict {
    pub(crate) served: Map<String, Value>,
    pub(crate) enforced: Map<String, Value>,
}

/// `portable` (an `inputSchema` in the portable shape) in the strict shape, or why it has none:
/// the path of an object whose keys are the caller's to choose.
pub(crate) fn strict(portable: Map<String, Value>) -> Result<Strict, String> {
    let mut enforced = Value::Object(portable);
    close(&mut enforced, "$")?;
    let mut served = enforced.clone();
    move_unsupported(&mut served);
    match (enforced, served) {
        (Value::Object(enforced), Value::Object(served)) => Ok(Strict { served, enforced }),
        _ => unreachable!("an object stays an object"),
    }
}

/// Whether `map` is an object schema: it says `"type": "object"` (alone or among others) or has
/// `properties`.
fn is_object(map: &Map<String, Value>) -> bool {
    let typed = match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => false,
    };
    typed || map.contains_key("properties")
}

/// Closes every object schema in `value` and requires all its properties.
fn close(value: &mut Value, path: &str) -> Result<(), String> {
    let Value::Object(map) = value else {
        return Ok(());
    };
    if is_object(map) {
        match map.get("additionalProperties") {
            None | Some(Value::Bool(false)) => {}
            Some(_) => {
                return Err(format!(
                    "its `inputSchema` has an object whose keys are the caller's to choose (a map, at \
                     `{path}`), which the `strict` profile cannot close: strict function calling \
                     refuses it. Serve this tool `schema = portable`, or take a list of entries"
                ));
            }
        }
        map.insert("additionalProperties".to_owned(), Value::Bool(false));
        let properties = map
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        let keys: Vec<Value> = properties
            .as_object()
            .map(|p| p.keys().cloned().map(Value::String).collect())
            .unwrap_or_default();
        map.insert("required".to_owned(), Value::Array(keys));
    }
    for (key, child) in map.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" | "dependentSchemas" => {
                if let Value::Object(children) = child {
                    for (name, child) in children.iter_mut() {
                        close(child, &format!("{path}.{name}"))?;
                    }
                }
            }
            "items" | "not" | "if" | "then" | "else" | "contains" => close(child, path)?,
            "prefixItems" | "anyOf" | "oneOf" | "allOf" => {
                if let Value::Array(children) = child {
                    for child in children {
                        close(child, path)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Moves the keywords strict mode refuses, and `default`, into each schema's description.
fn move_unsupported(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    move_unsupported(child);
                }
            }
            let mut notes = Vec::new();
            for key in MOVED {
                if let Some(rule) = map.remove(*key) {
                    notes.push(format!("`{key}`: {rule}"));
                }
            }
            if let Some(format) = map.get("format").and_then(Value::as_str)
                && !FORMATS.contains(&format)
                && let Some(rule) = map.remove("format")
            {
                notes.push(format!("`format`: {rule}"));
            }
            if let Some(default) = map.remove("default") {
                notes.push(format!("default: {default}"));
            }
            if !notes.is_empty() {
                let notes = notes.join(", ");
                let description = match map.get("description").and_then(Value::as_str) {
                    Some(description) => format!("{description} ({notes})"),
                    None => format!("({notes})"),
                };
                map.insert("description".to_owned(), description.into());
            }
        }
        Value::Array(items) => items.iter_mut().for_each(move_unsupported),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn strict_of(schema: Value) -> Result<Strict, String> {
        let Value::Object(map) = schema else {
            panic!("an object");
        };
        strict(map)
    }

    #[test]
    fn every_object_is_closed_and_requires_every_property() {
        let shaped = strict_of(json!({
            "type": "object",
            "properties": {
                "number": {"type": "string"},
                "limit": {"type": ["integer", "null"]},
                "line": {"type": "object", "properties": {"item": {"type": "string"}}},
                "lines": {"type": "array", "items": {"type": "object", "properties": {"q": {"type": "integer"}}}}
            },
            "required": ["number"]
        }))
        .unwrap();
        let served = Value::Object(shaped.served);
        assert_eq!(served["additionalProperties"], false);
        assert_eq!(
            served["required"],
            json!(["limit", "line", "lines", "number"])
        );
        assert_eq!(served["properties"]["line"]["additionalProperties"], false);
        assert_eq!(served["properties"]["line"]["required"], json!(["item"]));
        assert_eq!(
            served["properties"]["lines"]["items"]["required"],
            json!(["q"])
        );
        assert_eq!(
            served["properties"]["lines"]["items"]["additionalProperties"],
            false
        );
        // Nothing was moved, so the two are the same document.
        assert_eq!(served, Value::Object(shaped.enforced));
    }

    #[test]
    fn unsupported_rules_move_into_the_description_and_stay_enforced() {
        let shaped = strict_of(json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 20, "description": "Who."},
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                "site": {"type": "string", "format": "uri"},
                "day": {"type": "string", "format": "date"},
                "page": {"type": "integer", "default": 1, "minimum": 1}
            }
        }))
        .unwrap();
        let served = Value::Object(shaped.served);
        let name = &served["properties"]["name"];
        assert!(name.get("minLength").is_none() && name.get("maxLength").is_none());
        assert_eq!(
            name["description"],
            "Who. (`minLength`: 1, `maxLength`: 20)"
        );
        assert_eq!(
            served["properties"]["tags"]["description"],
            "(`uniqueItems`: true)"
        );
        assert_eq!(
            served["properties"]["site"]["description"],
            "(`format`: \"uri\")"
        );
        // A format strict mode takes, and the bounds, stay.
        assert_eq!(served["properties"]["day"]["format"], "date");
        assert_eq!(served["properties"]["page"]["minimum"], 1);
        assert_eq!(served["properties"]["page"]["description"], "(default: 1)");
        let enforced = Value::Object(shaped.enforced);
        assert_eq!(enforced["properties"]["name"]["maxLength"], 20);
        assert_eq!(enforced["properties"]["tags"]["uniqueItems"], true);
        assert_eq!(enforced["properties"]["site"]["format"], "uri");
        assert_eq!(enforced["required"], served["required"]);
    }

    #[test]
    fn a_map_is_refused_with_its_path() {
        let refused = strict_of(json!({
            "type": "object",
            "properties": {"counts": {"type": "object", "additionalProperties": {"type": "integer"}}}
        }));
        let reason = refused.err().expect("refused");
        assert!(reason.contains("`$.counts`"), "{reason}");
        assert!(reason.contains("schema = portable"), "{reason}");
    }

    #[test]
    fn definitions_kept_for_recursion_are_closed_too() {
        let shaped = strict_of(json!({
            "type": "object",
            "properties": {"tree": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {"type": "object", "properties": {
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
            }}}
        }))
        .unwrap();
        let served = Value::Object(shaped.served);
        assert_eq!(served["$defs"]["Node"]["additionalProperties"], false);
        assert_eq!(served["$defs"]["Node"]["required"], json!(["children"]));
    }
}
