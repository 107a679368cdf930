//! The flat elicitation form MCP allows, derived from a Rust type through schemars, and the
//! client's answer read back as that type.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::client::{ClientRequestError, Elicitation};

/// `T`'s schema as an elicitation's `requestedSchema`: MCP allows a flat object whose
/// properties are strings, numbers, integers, booleans, enums and arrays of enums, so what
/// schemars writes for them is brought to that form (optional fields lose their `null`, enums
/// are inlined from `$defs`, formats MCP does not list are dropped). An enum is MCP's
/// untitled single-select (`enum`) unless every variant has a title (`#[schemars(title =
/// "...")]`), then the titled one (`oneOf` of `const` and `title`); a `Vec` of an enum is the
/// multi-select (`items` with `enum`, or `anyOf` when titled). Serde defaults become `default`
/// (SEP-1034). A type that is not flat stays as it is, and the client request fails naming
/// why.
pub(crate) fn elicitation_schema<T: JsonSchema>() -> Value {
    let mut schema = (*crate::schema::input_schema_of::<T>()).clone();
    schema.remove("additionalProperties");
    schema.remove("$schema");
    let defs = schema.remove("$defs");
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for property in properties.values_mut() {
            if let Value::Object(property) = property {
                flatten_property(property, defs.as_ref());
            }
        }
    }
    Value::Object(schema)
}

/// One elicitation property, as MCP's primitive schemas allow it.
fn flatten_property(property: &mut Map<String, Value>, defs: Option<&Value>) {
    // `Option<T>`: `anyOf: [T, null]` or `type: [T, "null"]`.
    if let Some(Value::Array(branches)) = property.get("anyOf").cloned() {
        let mut kept = branches
            .into_iter()
            .filter(|b| b.get("type") != Some(&json!("null")));
        if let (Some(Value::Object(only)), None) = (kept.next(), kept.next()) {
            property.remove("anyOf");
            for (key, value) in only {
                property.entry(key).or_insert(value);
            }
        }
    }
    if let Some(Value::Array(types)) = property.get("type").cloned() {
        let mut kept = types.into_iter().filter(|t| t != "null");
        if let (Some(only), None) = (kept.next(), kept.next()) {
            property.insert("type".to_owned(), only);
        }
    }
    // An enum (or any named type) is referenced from `$defs`: inline it.
    if let Some(Value::String(reference)) = property.remove("$ref") {
        let target = reference
            .strip_prefix("#/$defs/")
            .and_then(|name| defs?.get(name));
        if let Some(Value::Object(target)) = target {
            for (key, value) in target {
                property.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
        flatten_property(property, defs);
    }
    let listed = |f: &Value| matches!(f.as_str(), Some("email" | "uri" | "date" | "date-time"));
    if property.get("format").is_some_and(|f| !listed(f)) {
        property.remove("format");
    }
    select_enum(property);
    // A multi-select: an array of an enum, whose items MCP describes by their choices alone.
    if property.get("type") == Some(&json!("array"))
        && let Some(Value::Object(items)) = property.get_mut("items")
    {
        flatten_property(items, defs);
        items.remove("description");
        items.remove("title");
        // MCP writes a titled multi-select's choices as `anyOf`.
        if let Some(choices) = items.remove("oneOf") {
            items.remove("type");
            items.insert("anyOf".to_owned(), choices);
        }
    }
}

/// A `oneOf` of string constants, as schemars writes an enum whose variants carry docs or
/// titles, as MCP's enum schemas: `type: "string"` with `oneOf` of `const` and `title` when
/// every variant has a title, with `enum` otherwise.
fn select_enum(property: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = property.get("oneOf") else {
        return;
    };
    let choices: Option<Vec<(Value, Option<Value>)>> = branches
        .iter()
        .map(|branch| {
            let constant = branch.get("const").filter(|c| c.is_string())?.clone();
            Some((constant, branch.get("title").cloned()))
        })
        .collect();
    let Some(choices) = choices else {
        return;
    };
    property.insert("type".to_owned(), json!("string"));
    if choices.iter().all(|(_, title)| title.is_some()) {
        let titled = choices
            .into_iter()
            .map(|(constant, title)| json!({"const": constant, "title": title}))
            .collect();
        property.insert("oneOf".to_owned(), Value::Array(titled));
    } else {
        property.remove("oneOf");
        let values = choices.into_iter().map(|(constant, _)| constant).collect();
        property.insert("enum".to_owned(), Value::Array(values));
    }
}

pub(crate) fn parse_elicitation<T: DeserializeOwned>(
    answer: Value,
) -> Result<Elicitation<T>, ClientRequestError> {
    let invalid = |e: String| ClientRequestError::InvalidResponse(e);
    let Value::Object(mut answer) = answer else {
        return Err(invalid(format!(
            "an elicitation result is an object, got {answer}"
        )));
    };
    match answer.get("action").and_then(Value::as_str) {
        Some("accept") => {
            let content = answer.remove("content").unwrap_or(Value::Null);
            serde_json::from_value(content)
                .map(Elicitation::Accepted)
                .map_err(|e| invalid(format!("the accepted content does not match the form: {e}")))
        }
        Some("decline") => Ok(Elicitation::Declined),
        Some("cancel") => Ok(Elicitation::Cancelled),
        _ => Err(invalid(
            "an elicitation result's `action` is `accept`, `decline` or `cancel`".into(),
        )),
    }
}
