//! The portable shape of a schema: the same rules, written the way every mainstream client
//! reads them. Agent frameworks and model APIs convert a tool's schema to their own format, and
//! several of them drop or choke on what schemars writes (issue 25's client table):
//!
//! - a unit enum with documented variants (`oneOf` of `const`, no `type`) becomes
//!   `{"type": "string", "enum": [...]}`, the variants' docs in the description;
//! - a reference to a definition that is not recursive is inlined (`$ref` and `$defs` are refused
//!   or mishandled by several converters); `$defs` stays only for recursive types;
//! - an `Option` of a simple schema (`anyOf: [T, {"type": "null"}]`) becomes `T` with
//!   `"type": [T, "null"]` (and `null` among its `enum`), the form every framework tried reads;
//! - schemars' integer formats (`uint32`, `int64`, `uint`, ...), outside the formats JSON Schema
//!   and OpenAI list, become the bounds they stand for (`minimum`, `maximum`); `float` and
//!   `double` are dropped;
//! - the root object always says `"properties"` and `"required"` (`{}` and `[]` for a tool
//!   without arguments, or none required): smolagents raised `KeyError: 'properties'` without
//!   the first, and Pydantic AI judges a schema without the second not strict-compatible.
//!
//! Every change keeps what the schema admits exactly as it was: a value is valid against the
//! portable schema if and only if it was valid against the derived one.

use serde_json::{Map, Value, json};

/// `schema` in its portable shape.
pub(crate) fn portable(mut schema: Map<String, Value>) -> Map<String, Value> {
    inline_definitions(&mut schema);
    let mut root = Value::Object(schema);
    reshape(&mut root);
    let Value::Object(mut schema) = root else {
        return Map::new();
    };
    if schema.get("type").and_then(Value::as_str) == Some("object") {
        schema
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        schema
            .entry("required")
            .or_insert_with(|| Value::Array(Vec::new()));
    }
    schema
}

/// The definition a `$ref` names, if it is one of the root's `$defs`.
fn def_name(reference: &str) -> Option<&str> {
    reference.strip_prefix("#/$defs/")
}

/// The definitions `value` refers to, directly.
fn refs_in(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                if key == "$ref"
                    && let Some(name) = value.as_str().and_then(def_name)
                {
                    found.push(name.to_owned());
                } else {
                    refs_in(value, found);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| refs_in(item, found)),
        _ => {}
    }
}

/// Whether the definition `name` reaches itself through references.
fn is_recursive(name: &str, defs: &Map<String, Value>) -> bool {
    let mut pending = vec![name.to_owned()];
    let mut seen = Vec::new();
    while let Some(next) = pending.pop() {
        let Some(body) = defs.get(&next) else {
            continue;
        };
        let mut refs = Vec::new();
        refs_in(body, &mut refs);
        for reference in refs {
            if reference == name {
                return true;
            }
            if !seen.contains(&reference) {
                seen.push(reference.clone());
                pending.push(reference);
            }
        }
    }
    false
}

/// Annotations: keywords that say something about a value without constraining it.
fn is_annotation(key: &str) -> bool {
    matches!(
        key,
        "description" | "title" | "default" | "examples" | "deprecated" | "readOnly" | "writeOnly"
    )
}

/// Replaces every reference to a definition that is not recursive by the definition itself,
/// then drops the definitions no longer referred to.
fn inline_definitions(schema: &mut Map<String, Value>) {
    let Some(Value::Object(defs)) = schema.remove("$defs") else {
        return;
    };
    let recursive: Vec<String> = defs
        .keys()
        .filter(|name| is_recursive(name, &defs))
        .cloned()
        .collect();
    let mut root = Value::Object(std::mem::take(schema));
    inline_in(&mut root, &defs, &recursive, 0);
    let mut kept = Map::new();
    // The recursive definitions stay, with the others inlined inside them too.
    for name in &recursive {
        if let Some(body) = defs.get(name) {
            let mut body = body.clone();
            inline_in(&mut body, &defs, &recursive, 0);
            kept.insert(name.clone(), body);
        }
    }
    let mut used = Vec::new();
    refs_in(&root, &mut used);
    for body in kept.values() {
        refs_in(body, &mut used);
    }
    kept.retain(|name, _| used.contains(name));
    if let Value::Object(map) = root {
        *schema = map;
    }
    if !kept.is_empty() {
        schema.insert("$defs".to_owned(), Value::Object(kept));
    }
}

/// The deepest a chain of inlined definitions goes (a definition inlined inside another, ...);
/// deeper, a reference stays as it is.
const MAX_INLINE_DEPTH: usize = 32;

fn inline_in(value: &mut Value, defs: &Map<String, Value>, recursive: &[String], depth: usize) {
    match value {
        Value::Object(map) => {
            let target = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(def_name)
                .filter(|name| !recursive.iter().any(|r| r == name))
                .map(str::to_owned);
            if let Some(name) = target
                && depth < MAX_INLINE_DEPTH
                && let Some(Value::Object(body)) = defs.get(&name)
            {
                map.remove("$ref");
                let clash = map
                    .iter()
                    .any(|(k, v)| !is_annotation(k) && body.get(k).is_some_and(|b| b != v));
                let mut body = Value::Object(body.clone());
                inline_in(&mut body, defs, recursive, depth + 1);
                if clash {
                    // A constraint beside the reference that the definition states otherwise:
                    // both hold, as they did.
                    map.insert("allOf".to_owned(), json!([body]));
                } else if let Value::Object(body) = body {
                    for (key, value) in body {
                        map.entry(key).or_insert(value);
                    }
                }
                return;
            }
            for child in map.values_mut() {
                inline_in(child, defs, recursive, depth);
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| inline_in(item, defs, recursive, depth)),
        _ => {}
    }
}

/// Rewrites every subschema, innermost first.
fn reshape(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                // Data, not subschemas.
                if matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    continue;
                }
                reshape(child);
            }
            integer_bounds(map);
            constants_as_enum(map);
            nullable_as_type(map);
        }
        Value::Array(items) => items.iter_mut().for_each(reshape),
        _ => {}
    }
}

/// schemars' integer and float formats as the bounds they stand for.
fn integer_bounds(map: &mut Map<String, Value>) {
    let Some(format) = map.get("format").and_then(Value::as_str) else {
        return;
    };
    let (min, max): (Value, Value) = match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "int" => ((isize::MIN as i64).into(), (isize::MAX as i64).into()),
        "uint8" => (0.into(), u8::MAX.into()),
        "uint16" => (0.into(), u16::MAX.into()),
        "uint32" => (0.into(), u32::MAX.into()),
        "uint64" => (0.into(), u64::MAX.into()),
        "uint" => (0.into(), (usize::MAX as u64).into()),
        "float" | "double" => {
            map.remove("format");
            return;
        }
        _ => return,
    };
    map.remove("format");
    // A bound already there (a schemars `range`) is at least as tight as the type's.
    map.entry("minimum").or_insert(min);
    map.entry("maximum").or_insert(max);
}

/// A `oneOf` (or `anyOf`) of constants of one type as an `enum` of that type, the constants'
/// descriptions listed in the schema's.
fn constants_as_enum(map: &mut Map<String, Value>) {
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = map.get(key) else {
            continue;
        };
        let mut values = Vec::new();
        let mut docs = Vec::new();
        let mut kind: Option<&str> = None;
        let all_constants = !branches.is_empty()
            && branches.iter().all(|branch| {
                let Some(branch) = branch.as_object() else {
                    return false;
                };
                if !branch
                    .keys()
                    .all(|k| matches!(k.as_str(), "const" | "type" | "description" | "title"))
                {
                    return false;
                }
                let Some(value) = branch.get("const") else {
                    return false;
                };
                let of = match value {
                    Value::String(_) => "string",
                    Value::Number(n) if n.is_f64() => "number",
                    Value::Number(_) => "integer",
                    Value::Bool(_) => "boolean",
                    _ => return false,
                };
                if kind.is_some_and(|k| k != of) {
                    return false;
                }
                kind = Some(of);
                if let Some(doc) = branch.get("description").and_then(Value::as_str) {
                    let name = match value {
                        Value::String(name) => name.clone(),
                        other => other.to_string(),
                    };
                    docs.push(format!("- `{name}`: {doc}"));
                }
                values.push(value.clone());
                true
            });
        if !all_constants || map.contains_key("type") || map.contains_key("enum") {
            continue;
        }
        map.remove(key);
        map.insert("type".to_owned(), kind.unwrap_or("string").into());
        map.insert("enum".to_owned(), Value::Array(values));
        if !docs.is_empty() {
            let list = docs.join("\n");
            let description = match map.get("description").and_then(Value::as_str) {
                Some(description) => format!("{description}\n\n{list}"),
                None => list,
            };
            map.insert("description".to_owned(), description.into());
        }
        return;
    }
}

/// Keywords that constrain a `null` too, so a schema holding one cannot take `null` into its
/// `type`.
const APPLY_TO_NULL: &[&str] = &[
    "anyOf", "oneOf", "allOf", "not", "$ref", "if", "then", "else", "const",
];

/// `anyOf: [T, {"type": "null"}]` as `T` with `"type": [T, "null"]`, when `T` is a simple schema
/// of one type.
fn nullable_as_type(map: &mut Map<String, Value>) {
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = map.get(key) else {
            continue;
        };
        let [first, second] = branches.as_slice() else {
            continue;
        };
        let is_null = |v: &Value| {
            v.as_object()
                .is_some_and(|o| o.len() == 1 && o.get("type") == Some(&json!("null")))
        };
        let other = match (is_null(first), is_null(second)) {
            (false, true) => first,
            (true, false) => second,
            _ => continue,
        };
        let Some(other) = other.as_object() else {
            continue;
        };
        let Some(kind) = other.get("type").and_then(Value::as_str) else {
            continue;
        };
        if other.keys().any(|k| APPLY_TO_NULL.contains(&k.as_str())) {
            continue;
        }
        // The siblings of `anyOf` hold for `null` as they did; none may clash with the branch.
        if map
            .iter()
            .any(|(k, v)| k != key && !is_annotation(k) && other.get(k).is_some_and(|o| o != v))
        {
            continue;
        }
        let mut merged = other.clone();
        let kind = kind.to_owned();
        map.remove(key);
        merged.insert("type".to_owned(), json!([kind, "null"]));
        if let Some(Value::Array(values)) = merged.get_mut("enum")
            && !values.contains(&Value::Null)
        {
            values.push(Value::Null);
        }
        if let (Some(outer), Some(inner)) = (
            map.get("description").and_then(Value::as_str),
            merged.get("description").and_then(Value::as_str),
        ) {
            let both = format!("{outer}\n\n{inner}");
            merged.insert("description".to_owned(), both.into());
            map.remove("description");
        }
        for (key, value) in std::mem::take(map) {
            merged.entry(key).or_insert(value);
        }
        *map = merged;
        return;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shaped(schema: Value) -> Value {
        Value::Object(portable(schema.as_object().unwrap().clone()))
    }

    #[test]
    fn documented_unit_variants_become_a_typed_enum() {
        let schema = shaped(json!({"type": "object", "properties": {"status": {
        "description": "Where it stands.",
        "oneOf": [
            {"const": "open", "type": "string", "description": "Not paid."},
            {"const": "paid", "type": "string", "description": "Paid in full."}
        ]}}}));
        assert_eq!(
            schema["properties"]["status"],
            json!({"type": "string", "enum": ["open", "paid"],
                   "description": "Where it stands.\n\n- `open`: Not paid.\n- `paid`: Paid in full."})
        );
    }

    #[test]
    fn references_are_inlined_unless_recursive() {
        let schema = shaped(json!({
            "type": "object",
            "properties": {
                "line": {"$ref": "#/$defs/Line", "description": "A line."},
                "tree": {"$ref": "#/$defs/Tree"}
            },
            "$defs": {
                "Line": {"type": "object", "properties": {"n": {"type": "integer"}}},
                "Tree": {"type": "object", "properties": {
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
                    "line": {"$ref": "#/$defs/Line"}
                }}
            }
        }));
        assert_eq!(
            schema["properties"]["line"],
            json!({"type": "object", "properties": {"n": {"type": "integer"}}, "description": "A line."})
        );
        assert_eq!(
            schema["properties"]["tree"],
            json!({"$ref": "#/$defs/Tree"})
        );
        assert_eq!(
            schema["$defs"]["Tree"]["properties"]["line"]["properties"]["n"]["type"],
            "integer"
        );
        assert!(schema["$defs"].get("Line").is_none(), "{schema}");
    }

    #[test]
    fn an_option_of_a_simple_schema_takes_null_into_its_type() {
        let schema = shaped(json!({"anyOf": [
            {"type": "string", "enum": ["a", "b"]}, {"type": "null"}
        ], "description": "Maybe."}));
        assert_eq!(
            schema,
            json!({"type": ["string", "null"], "enum": ["a", "b", null], "description": "Maybe."})
        );
        // A branch that also constrains `null` stays a branch.
        let kept = json!({"anyOf": [{"type": "string", "not": {"const": "x"}}, {"type": "null"}]});
        assert_eq!(shaped(kept.clone()), kept);
    }

    #[test]
    fn integer_formats_become_bounds() {
        let schema = shaped(json!({"type": "object", "properties": {
            "n": {"type": "integer", "format": "uint32", "minimum": 0},
            "m": {"type": "integer", "format": "int8"},
            "r": {"type": "integer", "format": "uint8", "minimum": 1, "maximum": 10},
            "x": {"type": "number", "format": "double"},
            "d": {"type": "string", "format": "date"}
        }}));
        let p = &schema["properties"];
        assert_eq!(
            p["n"],
            json!({"type": "integer", "minimum": 0, "maximum": 4294967295_u64})
        );
        assert_eq!(
            p["m"],
            json!({"type": "integer", "minimum": -128, "maximum": 127})
        );
        assert_eq!(
            p["r"],
            json!({"type": "integer", "minimum": 1, "maximum": 10})
        );
        assert_eq!(p["x"], json!({"type": "number"}));
        assert_eq!(p["d"], json!({"type": "string", "format": "date"}));
    }

    #[test]
    fn an_object_without_arguments_lists_no_properties_and_requires_none() {
        assert_eq!(
            shaped(json!({"type": "object", "additionalProperties": false})),
            json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
        );
        // What is required stays as it was.
        assert_eq!(
            shaped(
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
            )["required"],
            json!(["a"])
        );
    }
}
