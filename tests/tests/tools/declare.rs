//! What the declaration derives: list entries, schemas shaped by serde, hygiene, `Option` by type.

use mcp_tool_runtime::{Toolbox, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use super::fixtures::*;

#[test]
fn functions_stay_ordinary_functions() {
    assert_eq!(add(2, 3), 5);
    assert_eq!(list_invoices(Some(1)).len(), 1);
    assert_eq!(r#type("x".into()), "x");
    ping();
}

#[test]
fn tools_list_entries_are_derived_from_the_declaration() {
    let toolbox = toolbox();
    assert_eq!(
        entry(&toolbox, "add"),
        json!({
            "name": "add",
            "title": "Add",
            "description": "Adds two numbers.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX},
                    "b": {"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX,
                          "description": "The second number."}
                },
                "required": ["a", "b"]
            },
            "outputSchema": {
                "type": "object",
                "properties": {"result": {"type": "integer", "minimum": i64::MIN,
                                          "maximum": i64::MAX, "title": "int64"}},
                "required": ["result"],
                "x-mcp-wrapped": true
            },
            "annotations": {"readOnlyHint": true, "idempotentHint": true, "openWorldHint": false}
        })
    );
    let get = entry(&toolbox, "get_invoice");
    assert_eq!(get["description"], "Look up an invoice by its number.");
    assert_eq!(get["inputSchema"]["required"], json!(["number"]));

    let list = entry(&toolbox, "list.invoices");
    assert_eq!(list["description"], "Every invoice.");
    assert!(list["inputSchema"]["properties"].get("max").is_some());
    assert_eq!(
        list["inputSchema"]["required"],
        json!([]),
        "Option parameters are optional"
    );

    let create = entry(&toolbox, "create_invoice");
    assert_eq!(
        create["inputSchema"]["properties"]["customer"]["description"],
        "Who pays."
    );
    assert!(create["inputSchema"].get("additionalProperties").is_none());
    assert_eq!(
        entry(&toolbox, "type")["inputSchema"]["required"],
        json!(["in"])
    );

    // A tool without arguments lists no properties, as `{}` (smolagents reads `properties`), and
    // requires none, as `[]` (Pydantic AI judges a schema without `required` not strict-ready).
    assert_eq!(
        entry(&toolbox, "ping")["inputSchema"],
        json!({"type": "object", "properties": {}, "required": []})
    );
    assert!(entry(&toolbox, "pixel").get("outputSchema").is_none());
    assert!(entry(&toolbox, "plain_text").get("outputSchema").is_none());
    assert!(
        entry(&toolbox, "maybe_unschema")
            .get("outputSchema")
            .is_none()
    );
}

#[test]
fn tools_are_listed_in_name_order() {
    let names: Vec<String> = toolbox()
        .list_tools()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert_eq!(names.len(), 13);
}

// Hygiene: a user's own `serde`, `schemars`, `core` or `std` modules do not break the expansion.
mod hygiene {
    #[allow(dead_code)]
    mod serde {}
    #[allow(dead_code)]
    mod schemars {}
    #[allow(dead_code)]
    mod core {}
    #[allow(dead_code)]
    mod std {}
    #[allow(dead_code)]
    mod mcp_tool_runtime {}

    #[::mcp_tool_runtime::mcp_tool(allow_none)]
    pub fn echo(text: ::std::string::String) -> ::core::option::Option<::std::string::String> {
        ::core::option::Option::Some(text)
    }
}

// `crate = path`: reach the runtime through a re-export.
mod reexport {
    pub use ::mcp_tool_runtime as runtime;
}

#[mcp_tool(crate = crate::declare::reexport::runtime)]
fn via_reexport() -> u8 {
    1
}

#[tokio::test]
async fn hygiene_and_crate_path() {
    let mut toolbox = Toolbox::new();
    toolbox.register(hygiene::echo::tool()).unwrap();
    toolbox.register(via_reexport::tool()).unwrap();
    let echoed = call(&toolbox, "echo", json!({"text": "hi"})).await;
    assert_eq!(echoed.structured_content, Some(json!({"result": "hi"})));
    assert!(!call(&toolbox, "via_reexport", json!({})).await.is_error);
}

// The schema comes from the same type that serializes the payload: serde attributes shape both,
// through the macro, for structs and enums of every tagging.

#[derive(Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Payment {
    Card {
        #[serde(rename = "last4")]
        last_four: String,
        #[serde(skip)]
        #[allow(dead_code)]
        cvv: String,
    },
    Cash,
}

#[derive(Serialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Amount(u64),
    Note(String),
}

#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
enum Untagged {
    Count(u32),
    Named { name: String },
}

#[derive(Serialize, JsonSchema)]
enum External {
    Plain,
    Wrapped(u8),
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Ledger {
    payments: Vec<Payment>,
    adjacent: Vec<Adjacent>,
    untagged: Vec<Untagged>,
    external: Vec<External>,
    #[serde(skip_serializing_if = "Option::is_none")]
    closing_note: Option<String>,
    #[serde(skip)]
    #[allow(dead_code)]
    internal_id: u64,
}

#[mcp_tool]
fn ledger() -> Ledger {
    Ledger {
        payments: vec![
            Payment::Card {
                last_four: "4242".into(),
                cvv: "123".into(),
            },
            Payment::Cash,
        ],
        adjacent: vec![Adjacent::Amount(5), Adjacent::Note("n".into())],
        untagged: vec![Untagged::Count(3), Untagged::Named { name: "x".into() }],
        external: vec![External::Plain, External::Wrapped(1)],
        closing_note: None,
        internal_id: 99,
    }
}

#[mcp_tool]
fn payments() -> Vec<Payment> {
    vec![Payment::Cash]
}

#[tokio::test]
async fn serde_attributes_shape_schema_and_payload_alike_through_the_macro() {
    let mut toolbox = Toolbox::new();
    toolbox.register(ledger::tool()).unwrap();
    toolbox.register(payments::tool()).unwrap();

    let schema = entry(&toolbox, "ledger")["outputSchema"].to_string();
    assert!(schema.contains("\"last4\"") && !schema.contains("last_four"));
    assert!(
        !schema.contains("cvv")
            && !schema.contains("internal_id")
            && !schema.contains("internalId")
    );
    assert!(schema.contains("closingNote"));

    let result = call_conforming(&toolbox, "ledger", json!({})).await;
    let served = result.structured_content.unwrap();
    assert_eq!(
        served["payments"][0],
        json!({"kind": "card", "last4": "4242"})
    );
    assert_eq!(served["adjacent"][1], json!({"t": "Note", "c": "n"}));
    assert_eq!(served["external"], json!(["Plain", {"Wrapped": 1}]));
    assert!(served.get("closingNote").is_none() && served.get("internalId").is_none());

    let list = call_conforming(&toolbox, "payments", json!({})).await;
    assert_eq!(
        list.structured_content,
        Some(json!({"result": [{"kind": "cash"}]}))
    );
}

type MaybeInvoice = Option<Invoice>;
type MaybeLimit = Option<u32>;

/// Looks up an invoice through an alias of `Option`.
#[mcp_tool(allow_none)]
fn get_invoice_by_alias(number: String, limit: MaybeLimit) -> MaybeInvoice {
    let _ = limit;
    if number != "7" {
        return None;
    }
    Some(Invoice {
        number,
        total_cents: 1250,
    })
}

/// Looks up an invoice through `std::option::Option`.
#[mcp_tool(allow_none)]
fn get_invoice_by_path(number: String) -> std::option::Option<Invoice> {
    if number != "7" {
        return None;
    }
    Some(Invoice {
        number,
        total_cents: 1250,
    })
}

#[tokio::test]
async fn option_is_decided_by_type_whatever_its_spelling() {
    let mut toolbox = Toolbox::new();
    toolbox.register(get_invoice::tool()).unwrap();
    toolbox.register(get_invoice_by_alias::tool()).unwrap();
    toolbox.register(get_invoice_by_path::tool()).unwrap();
    let spelled = entry(&toolbox, "get_invoice")["outputSchema"].clone();
    for name in ["get_invoice_by_alias", "get_invoice_by_path"] {
        assert_eq!(entry(&toolbox, name)["outputSchema"], spelled, "{name}");
        let found = call_conforming(&toolbox, name, json!({"number": "7"})).await;
        assert_eq!(
            found.structured_content,
            Some(json!({"number": "7", "total_cents": 1250})),
            "{name}: served unwrapped, like `Option<T>`"
        );
        let missing = call_conforming(&toolbox, name, json!({"number": "8"})).await;
        assert_eq!(missing.structured_content, Some(json!({})), "{name}");
    }
    // An argument whose type is an alias of `Option` is optional, like `Option<T>`.
    let schema = entry(&toolbox, "get_invoice_by_alias")["inputSchema"].clone();
    assert_eq!(schema["required"], json!(["number"]));
}

// `Result` is decided by type: an alias that keeps the name (as `io::Result<T>` does) serves `Ok`
// and sends `Err` as an error result; one under another name is a compile error
// (`ui-tests/tests/ui/result-alias.rs`).
mod fallible {
    pub type Result<T> = std::result::Result<T, String>;
}

/// Parses a number through a crate's own `Result` alias.
#[mcp_tool]
fn parse_number(text: String) -> fallible::Result<u32> {
    text.parse()
        .map_err(|_| format!("`{text}` is not a number"))
}

#[tokio::test]
async fn result_aliases_named_result_serve_ok_and_send_err_as_an_error() {
    let mut toolbox = Toolbox::new();
    toolbox.register(parse_number::tool()).unwrap();
    assert_eq!(
        entry(&toolbox, "parse_number")["outputSchema"]["properties"]["result"]["type"],
        "integer"
    );
    let ok = call_conforming(&toolbox, "parse_number", json!({"text": "12"})).await;
    assert_eq!(ok.structured_content, Some(json!({"result": 12})));
    let err = call(&toolbox, "parse_number", json!({"text": "x"})).await;
    assert_eq!(error_text(&err), "`x` is not a number");
}

/// Counts invoices, with icons for light and dark clients.
#[mcp_tool(icons(
    "https://example.com/invoice.svg",
    "data:image/svg+xml;base64,PHN2Zy8+"
))]
fn with_icons() -> u32 {
    2
}

#[test]
fn icons_are_served_on_the_tools_list_entry() {
    let mut toolbox = Toolbox::new();
    toolbox.register(with_icons::tool()).unwrap();
    assert_eq!(
        entry(&toolbox, "with_icons")["icons"],
        json!([
            {"src": "https://example.com/invoice.svg"},
            {"src": "data:image/svg+xml;base64,PHN2Zy8+"}
        ])
    );
    // Without icons the key is left out.
    toolbox.register(numbers::tool()).unwrap();
    assert!(entry(&toolbox, "numbers").get("icons").is_none());
}

/// Counts invoices, with `_meta` on its entry.
#[mcp_tool(meta("com.example/tier" = "gold", "com.example/weight" = -2, "beta" = true, "ratio" = 0.5))]
fn with_meta() -> u32 {
    3
}

#[test]
fn meta_is_served_on_the_tools_list_entry() {
    let mut toolbox = Toolbox::new();
    toolbox.register(with_meta::tool()).unwrap();
    assert_eq!(
        entry(&toolbox, "with_meta")["_meta"],
        json!({"com.example/tier": "gold", "com.example/weight": -2, "beta": true, "ratio": 0.5})
    );
}

/// Where an invoice stands.
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Standing {
    /// Not paid yet.
    Open,
    /// Paid in full.
    Paid,
}

/// Counts the invoices with a standing, its schema served as schemars derives it.
#[mcp_tool(schema = as_derived)]
fn count_as_derived(standing: Standing, limit: Option<u32>) -> u32 {
    u32::from(matches!(standing, Standing::Open)) + limit.unwrap_or(0)
}

/// Counts the invoices with a standing, in the portable shape (the default).
#[mcp_tool]
fn count_portable(standing: Standing, limit: Option<u32>) -> u32 {
    u32::from(matches!(standing, Standing::Paid)) + limit.unwrap_or(0)
}

#[tokio::test]
async fn a_tool_may_keep_its_schemas_as_derived_while_others_are_portable() {
    let mut toolbox = Toolbox::new();
    toolbox.register(count_as_derived::tool()).unwrap();
    toolbox.register(count_portable::tool()).unwrap();
    let derived = entry(&toolbox, "count_as_derived");
    let schema = &derived["inputSchema"];
    assert_eq!(schema["properties"]["standing"]["$ref"], "#/$defs/Standing");
    assert!(schema["$defs"]["Standing"]["oneOf"].is_array(), "{schema}");
    assert_eq!(schema["properties"]["limit"]["format"], "uint32");

    let portable = entry(&toolbox, "count_portable");
    let schema = &portable["inputSchema"];
    assert!(schema.get("$defs").is_none(), "{schema}");
    assert_eq!(
        schema["properties"]["standing"],
        json!({"type": "string", "enum": ["open", "paid"],
               "description": "Where an invoice stands.\n\n- `open`: Not paid yet.\n- `paid`: Paid in full."})
    );
    assert_eq!(
        schema["properties"]["limit"],
        json!({"type": ["integer", "null"], "minimum": 0, "maximum": 4294967295_u64})
    );
    // Both admit the same values, and serve the same results.
    for (name, standing) in [("count_as_derived", "open"), ("count_portable", "paid")] {
        let result = call(&toolbox, name, json!({"standing": standing, "limit": 2})).await;
        assert_eq!(
            result.structured_content,
            Some(json!({"result": 3})),
            "{name}"
        );
        assert!(
            call(&toolbox, name, json!({"standing": "lost"}))
                .await
                .is_error,
            "{name}"
        );
    }
}

/// Each tool's struct is declared in a module of its own, `__mcp_<name>`, and brought back with
/// `use`: rustc compiles a type's methods in the codegen unit of the module that declares the
/// type, so editing one function does not compile every tool beside it again
/// (`scripts/build-cost.sh`). The name users write is unchanged.
#[test]
fn each_tool_is_declared_in_a_module_of_its_own() {
    assert!(
        std::any::type_name::<add>().ends_with("::__mcp_add::add"),
        "{}",
        std::any::type_name::<add>()
    );
    assert!(
        std::any::type_name::<r#type>().ends_with("::__mcp_type::type"),
        "{}",
        std::any::type_name::<r#type>()
    );
    let _: add = add::tool();
}

/// Spells out `::mcp_tool_runtime::Tool` and `"::mcp_tool_runtime"`: a description is the
/// user's text, kept as written even where `crate = ...` respells the runtime's path.
#[mcp_tool(crate = crate::declare::reexport::runtime)]
fn names_the_runtime() -> u8 {
    2
}

/// Eight arguments: the macro's template has holes past `#9` for them.
#[mcp_tool]
#[allow(clippy::too_many_arguments)]
fn eight(a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8, h: u8) -> Vec<u8> {
    vec![a, b, c, d, e, f, g, h]
}

#[tokio::test]
async fn the_macros_text_keeps_the_users_text_and_every_argument_in_place() {
    let mut toolbox = Toolbox::new();
    toolbox.register(names_the_runtime::tool()).unwrap();
    toolbox.register(eight::tool()).unwrap();
    assert_eq!(
        entry(&toolbox, "names_the_runtime")["description"],
        json!(
            "Spells out `::mcp_tool_runtime::Tool` and `\"::mcp_tool_runtime\"`: a description is the \
             user's text, kept as written even where `crate = ...` respells the runtime's path."
        )
    );
    let args = json!({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8});
    let served = call(&toolbox, "eight", args).await;
    assert_eq!(
        served.structured_content,
        Some(json!({"result": [1, 2, 3, 4, 5, 6, 7, 8]}))
    );
}
