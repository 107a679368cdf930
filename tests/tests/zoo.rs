//! The property-tested zoo (`tests/src/zoo.rs`): generated values of every kind of return type,
//! served through `#[mcp_tool]` tools, each result checked against the advertised `outputSchema`.
//!
//! Every result is either a `structuredContent` that conforms (checked here with the `jsonschema`
//! crate, formats on) or an `isError` result naming why the value could not be served (the
//! result self-check, or the encoder refusing a non-finite float or a number JSON cannot carry).
//! Cases per type: `ZOO_CASES` (default 64). At 2025-11-25 and at 2026-07-28 (where a value that is
//! not an object is served as it is), and every advertised schema is in the portable shape.

use std::collections::BTreeMap;

use mcp_tool_runtime::check_conforms;
use serde_json::Value;
use tests::zoo;

#[test]
fn every_served_result_conforms_or_is_refused_with_a_reason_at_2025_11_25() {
    served_at(zoo::VERSIONS[0]);
}

#[test]
fn every_served_result_conforms_or_is_refused_with_a_reason_at_2026_07_28() {
    let raw = served_at(zoo::VERSIONS[1]);
    assert!(
        raw > 0,
        "no value that is not an object was served as it is"
    );
}

/// Where `schema` is not in the portable shape: a schemars integer format, a `oneOf` of
/// constants, a `$ref` to a definition it does not keep.
fn shape_problems(schema: &Value, defs: &Value, path: &str, found: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(format) = map.get("format").and_then(Value::as_str)
                && [
                    "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float",
                    "double",
                ]
                .contains(&format)
            {
                found.push(format!("{path}: format {format}"));
            }
            if let Some(Value::Array(branches)) = map.get("oneOf")
                && branches.iter().all(|b| b.get("const").is_some())
            {
                found.push(format!("{path}: a oneOf of constants"));
            }
            if let Some(reference) = map.get("$ref").and_then(Value::as_str)
                && defs.get(reference.trim_start_matches("#/$defs/")).is_none()
            {
                found.push(format!("{path}: $ref {reference} to nothing kept"));
            }
            for (key, child) in map {
                if !matches!(key.as_str(), "enum" | "const" | "default" | "examples") {
                    shape_problems(child, defs, &format!("{path}.{key}"), found);
                }
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| shape_problems(item, defs, path, found)),
        _ => {}
    }
}

/// Serves the zoo at `version`, checks every case, and returns how many results were served
/// as a value that is not an object.
fn served_at(version: Option<&'static str>) -> usize {
    let cases = std::env::var("ZOO_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64);
    let mut served = 0;
    let mut refused: BTreeMap<&str, (usize, String)> = BTreeMap::new();
    let mut broken = Vec::new();
    let mut raw = 0;
    let mut shapes = BTreeMap::new();
    zoo::serve(cases, version, &mut |case| {
        for key in ["inputSchema", "outputSchema"] {
            let schema = &case.entry[key];
            let mut found = Vec::new();
            shape_problems(schema, &schema["$defs"], key, &mut found);
            if !found.is_empty() {
                shapes.insert(case.tool, found);
            }
        }
        if !case.result["structuredContent"].is_object()
            && !case.result["structuredContent"].is_null()
        {
            raw += 1;
        }
        if case.result["isError"] == true {
            let text = case.result["content"][0]["text"]
                .as_str()
                .unwrap_or("")
                .to_owned();
            let known = text.contains("does not conform to its advertised `outputSchema`")
                || text.contains("cannot be sent");
            if !known {
                broken.push(format!("{}: unexpected error: {text}", case.tool));
            }
            let entry = refused.entry(case.tool).or_insert((0, text));
            entry.0 += 1;
        } else {
            served += 1;
            if let Err(problem) = check_conforms(&case.entry, &case.result) {
                broken.push(format!("{}: {problem}", case.tool));
            }
        }
    });
    let types = zoo::exhibits().len() + 1;
    eprintln!(
        "zoo at {}: {types} types, {} cases, {served} served conforming ({raw} not objects), {} refused",
        version.unwrap_or("2025-11-25"),
        served + refused.values().map(|(n, _)| n).sum::<usize>(),
        refused.values().map(|(n, _)| n).sum::<usize>()
    );
    for (tool, (count, example)) in &refused {
        eprintln!(
            "  refused {count} of {tool}, e.g. {}",
            example.lines().take(2).collect::<Vec<_>>().join(" | ")
        );
    }
    assert!(types >= 40, "the zoo has {types} types");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
    assert!(
        shapes.is_empty(),
        "schemas not in the portable shape: {shapes:?}"
    );
    // The values no derived schema admits are generated, and refused rather than served.
    for tool in ["flattened_map", "chrono_date_time", "float", "wide"] {
        assert!(
            refused.contains_key(tool),
            "no value of `{tool}` was refused: {refused:?}"
        );
    }
    raw
}
