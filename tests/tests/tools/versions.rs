//! Outputs as the type is (SEP-2106): a client speaking 2026-07-28 is listed each return type's
//! own schema and served the value as it is; a 2025 client gets the object-rooted, wrapped form.
//! Nothing (`None`, `()`) is `{}` at every version. Each result is checked against the schema
//! that version's `tools/list` advertises.

use mcp_tool_runtime::context::Recording;
use mcp_tool_runtime::{Toolbox, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

/// An invoice.
#[derive(Serialize, JsonSchema)]
struct Invoice {
    number: String,
}

/// Where an invoice stands.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    /// Open.
    #[allow(dead_code, reason = "a value the schema lists, never returned here")]
    Open,
    /// Paid.
    Paid,
}

/// Lists invoices.
#[mcp_tool(include_output_schema)]
fn list() -> Vec<Invoice> {
    vec![Invoice {
        number: "INV-1".into(),
    }]
}

/// Counts.
#[mcp_tool(include_output_schema)]
fn count() -> f64 {
    2.5
}

/// A status.
#[mcp_tool(include_output_schema)]
fn status() -> Status {
    Status::Paid
}

/// Maybe an invoice.
#[mcp_tool(include_output_schema, allow_none)]
fn maybe(found: bool) -> Option<Invoice> {
    found.then(|| Invoice {
        number: "INV-2".into(),
    })
}

/// Maybe a number.
#[mcp_tool(include_output_schema, allow_none)]
fn maybe_number(found: bool) -> Option<u32> {
    found.then_some(7)
}

/// Does something.
#[mcp_tool(include_output_schema)]
fn act() {}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.check_results(true);
    toolbox
        .register_all(mcp_tool_runtime::tools![
            list,
            count,
            status,
            maybe,
            maybe_number,
            act
        ])
        .unwrap();
    toolbox
}

const VERSIONS: [&str; 3] = ["2025-06-18", "2025-11-25", "2026-07-28"];

/// Calls `tool` as a client speaking `version`, and checks the result against the schema that
/// version's `tools/list` advertises; returns the `structuredContent`.
async fn served(toolbox: &Toolbox, version: &str, tool: &str, arguments: Value) -> Value {
    let context = Recording::new().protocol_version(version).context();
    let result = toolbox
        .call_tool_with(tool, arguments, context)
        .await
        .unwrap();
    assert!(!result.is_error, "[{version}] {tool}: {:?}", result.text());
    let structured = result.structured_content.clone().unwrap();
    let schema = toolbox
        .list_tools_for(Some(version))
        .iter()
        .find(|d| d.name == tool)
        .and_then(|d| d.output_schema.clone())
        .unwrap();
    let validator = jsonschema::validator_for(&Value::Object((*schema).clone())).unwrap();
    assert!(
        validator.is_valid(&structured),
        "[{version}] {tool}: {structured} does not match {}",
        Value::Object((*schema).clone())
    );
    // The text mirror carries the same value.
    let mirrored: Value = serde_json::from_str(result.text().unwrap()).unwrap();
    assert_eq!(mirrored, structured, "[{version}] {tool}");
    structured
}

#[tokio::test]
async fn each_version_is_served_the_form_it_allows_and_its_own_schema_admits_it() {
    let toolbox = toolbox();
    for version in VERSIONS {
        let raw = version == "2026-07-28";
        let wrap = |value: Value| if raw { value } else { json!({"result": value}) };
        assert_eq!(
            served(&toolbox, version, "list", json!({})).await,
            wrap(json!([{"number": "INV-1"}]))
        );
        assert_eq!(
            served(&toolbox, version, "count", json!({})).await,
            wrap(json!(2.5))
        );
        assert_eq!(
            served(&toolbox, version, "status", json!({})).await,
            wrap(json!("paid"))
        );
        assert_eq!(
            served(&toolbox, version, "maybe", json!({"found": true})).await,
            json!({"number": "INV-2"})
        );
        assert_eq!(
            served(&toolbox, version, "maybe_number", json!({"found": true})).await,
            wrap(json!(7))
        );
        // Nothing is `{}` at every version: never `null`, which an SDK reads as no result.
        assert_eq!(
            served(&toolbox, version, "maybe", json!({"found": false})).await,
            json!({})
        );
        assert_eq!(
            served(&toolbox, version, "maybe_number", json!({"found": false})).await,
            json!({})
        );
        assert_eq!(served(&toolbox, version, "act", json!({})).await, json!({}));
    }
}

#[test]
fn the_2026_schemas_are_the_types_own_and_the_2025_ones_are_object_rooted() {
    let toolbox = toolbox();
    let schema = |version: &str, tool: &str| {
        let definition = toolbox
            .list_tools_for(Some(version))
            .iter()
            .find(|d| d.name == tool)
            .unwrap();
        Value::Object((*definition.output_schema.clone().unwrap()).clone())
    };
    for tool in ["list", "count", "status", "maybe", "maybe_number", "act"] {
        assert_eq!(schema("2025-11-25", tool)["type"], "object", "{tool}");
    }
    assert_eq!(schema("2026-07-28", "list")["type"], "array");
    assert_eq!(schema("2026-07-28", "count")["type"], "number");
    // A unit enum, in the portable shape every client reads.
    assert_eq!(schema("2026-07-28", "status")["type"], "string");
    assert!(schema("2026-07-28", "status")["enum"].is_array());
    assert_eq!(schema("2026-07-28", "maybe")["type"], "object");
    assert!(schema("2026-07-28", "maybe_number").get("type").is_none());
    assert_eq!(
        schema("2026-07-28", "maybe_number")["anyOf"][1]["type"],
        "integer"
    );
    // No version given (a detached call, a hand-built list): the 2025 form.
    assert_eq!(toolbox.list_tools_for(None), toolbox.list_tools());
}

/// Maybe an invoice, declared without `allow_none`, and with no output schema.
#[mcp_tool(include_output_schema = false)]
fn lookup(found: bool) -> Option<Invoice> {
    found.then(|| Invoice {
        number: "INV-3".into(),
    })
}

#[tokio::test]
async fn whether_a_payload_is_wrapped_never_depends_on_allow_none() {
    let mut toolbox = Toolbox::new();
    toolbox.register(lookup::tool()).unwrap();
    // It served `{"result": {...}}` before: an `Option` of an object is the object, or `{}`.
    let found = toolbox
        .call_tool("lookup", json!({"found": true}))
        .await
        .unwrap();
    assert_eq!(found.structured_content, Some(json!({"number": "INV-3"})));
    let missing = toolbox
        .call_tool("lookup", json!({"found": false}))
        .await
        .unwrap();
    assert_eq!(missing.structured_content, Some(json!({})));
}
