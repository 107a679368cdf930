//! The property-tested zoo (`tests/src/zoo.rs`): generated values of every kind of return type,
//! served through `#[mcp_tool]` tools, each result checked against the advertised `outputSchema`.
//!
//! Every result is either a `structuredContent` that conforms (checked here with the `jsonschema`
//! crate, formats on) or an `isError` result naming why the value could not be served (the
//! result self-check, or the encoder refusing a non-finite float or a number JSON cannot carry).
//! Cases per type: `ZOO_CASES` (default 64).

use std::collections::BTreeMap;

use mcp_tool_runtime::check_conforms;
use tests::zoo;

#[test]
fn every_served_result_conforms_or_is_refused_with_a_reason() {
    let cases = std::env::var("ZOO_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64);
    let mut served = 0;
    let mut refused: BTreeMap<&str, (usize, String)> = BTreeMap::new();
    let mut broken = Vec::new();
    zoo::serve(cases, &mut |case| {
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
        "zoo: {types} types, {} cases, {served} served conforming, {} refused",
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
    // The values no derived schema admits are generated, and refused rather than served.
    for tool in ["flattened_map", "chrono_date_time", "float", "wide"] {
        assert!(
            refused.contains_key(tool),
            "no value of `{tool}` was refused: {refused:?}"
        );
    }
}
