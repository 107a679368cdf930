//! `#[mcp_tool]` end to end through a `Toolbox`: every form, every flag, every bad argument.

use std::sync::Mutex;

use mcp_tool_runtime::{
    RegistrationError, ResourceLink, ServerDefaults, ToolResult, Toolbox, UnknownTool,
    assert_tool_result_conforms, mcp_tool,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Invoice {
    /// The invoice number.
    pub number: String,
    pub total_cents: u64,
}

/// Look up an invoice
/// by its number.
#[mcp_tool(include_output_schema, include_structured_content, allow_none)]
async fn get_invoice(number: String) -> Option<Invoice> {
    if number != "7" {
        return None;
    }
    Some(Invoice {
        number,
        total_cents: 1250,
    })
}

/// Adds two numbers.
#[mcp_tool(
    title = "Add",
    annotations(read_only, idempotent = true, open_world = false)
)]
fn add(a: i64, #[arg(description = "The second number.")] b: i64) -> i64 {
    a + b
}

#[mcp_tool(name = "list.invoices", description = "Every invoice.")]
fn list_invoices(#[arg(rename = "max")] limit: Option<usize>) -> Vec<Invoice> {
    let all = vec![
        Invoice {
            number: "1".into(),
            total_cents: 100,
        },
        Invoice {
            number: "2".into(),
            total_cents: 200,
        },
    ];
    all.into_iter().take(limit.unwrap_or(usize::MAX)).collect()
}

#[derive(Debug)]
pub enum CreateError {
    NegativeTotal(i64),
}

impl std::fmt::Display for CreateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CreateError::NegativeTotal(t) => {
                write!(f, "total {t} is negative; totals are in cents, at least 0")
            }
        }
    }
}

#[derive(Deserialize, JsonSchema)]
pub struct NewInvoice {
    /// Who pays.
    pub customer: String,
    /// In cents.
    pub total: i64,
}

pub struct Store {
    invoices: Mutex<Vec<Invoice>>,
}

/// Creates an invoice.
#[mcp_tool(annotations(destructive = false))]
async fn create_invoice(
    #[state] store: &Store,
    #[args] new: NewInvoice,
) -> Result<Invoice, CreateError> {
    if new.total < 0 {
        return Err(CreateError::NegativeTotal(new.total));
    }
    let mut invoices = store.invoices.lock().unwrap();
    let invoice = Invoice {
        number: format!("{}-{}", new.customer, invoices.len() + 1),
        total_cents: new.total as u64,
    };
    invoices.push(invoice.clone());
    Ok(invoice)
}

/// Counts the invoices in the store.
#[mcp_tool]
fn count_invoices(#[state] store: &Store) -> usize {
    store.invoices.lock().unwrap().len()
}

#[mcp_tool(allow_none)]
fn find_in_store(#[state] store: &Store, number: String) -> Result<Option<Invoice>, String> {
    if number.is_empty() {
        return Err("number must not be empty".into());
    }
    Ok(store
        .invoices
        .lock()
        .unwrap()
        .iter()
        .find(|i| i.number == number)
        .cloned())
}

#[mcp_tool]
fn ping() {}

#[mcp_tool(content = image, mime_type = "image/png")]
fn pixel() -> Vec<u8> {
    vec![0x89, b'P', b'N', b'G']
}

#[mcp_tool(content = resource_link)]
fn attachments() -> Vec<ResourceLink> {
    vec![ResourceLink::new("file:///7.pdf", "7.pdf")]
}

#[mcp_tool(include_structured_content = false, include_output_schema = false)]
fn plain_text() -> Invoice {
    Invoice {
        number: "9".into(),
        total_cents: 9,
    }
}

#[mcp_tool(include_output_schema = false)]
fn maybe_unschema(found: bool) -> Option<u8> {
    found.then_some(1)
}

#[mcp_tool]
fn explode() -> u8 {
    panic!("the tool blew up")
}

#[mcp_tool]
fn r#type(r#in: String) -> String {
    r#in
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.insert_state(Store {
        invoices: Mutex::new(Vec::new()),
    });
    toolbox
        .register(get_invoice::tool())
        .unwrap()
        .register(add::tool())
        .unwrap()
        .register(list_invoices::tool())
        .unwrap()
        .register(create_invoice::tool())
        .unwrap()
        .register(count_invoices::tool())
        .unwrap()
        .register(find_in_store::tool())
        .unwrap()
        .register(ping::tool())
        .unwrap()
        .register(pixel::tool())
        .unwrap()
        .register(attachments::tool())
        .unwrap()
        .register(plain_text::tool())
        .unwrap()
        .register(maybe_unschema::tool())
        .unwrap()
        .register(explode::tool())
        .unwrap()
        .register(r#type::tool())
        .unwrap();
    toolbox
}

fn entry(toolbox: &Toolbox, name: &str) -> Value {
    let found = toolbox
        .list_tools()
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tool {name}"));
    serde_json::to_value(found).unwrap()
}

async fn call(toolbox: &Toolbox, name: &str, args: Value) -> ToolResult {
    toolbox.call_tool(name, args).await.unwrap()
}

fn error_text(result: &ToolResult) -> &str {
    assert!(result.is_error, "expected an error, got {result:?}");
    assert!(result.structured_content.is_none());
    result.text().unwrap()
}

/// Calls a tool and checks that what it served conforms to what it advertised.
async fn call_conforming(toolbox: &Toolbox, name: &str, args: Value) -> ToolResult {
    let result = call(toolbox, name, args).await;
    assert_tool_result_conforms(
        &entry(toolbox, name),
        &serde_json::to_value(&result).unwrap(),
    );
    result
}

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
                    "a": {"type": "integer", "format": "int64"},
                    "b": {"type": "integer", "format": "int64", "description": "The second number."}
                },
                "required": ["a", "b"],
                "additionalProperties": false
            },
            "outputSchema": {
                "type": "object",
                "properties": {"result": {"type": "integer", "format": "int64", "title": "int64"}},
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
    assert!(
        list["inputSchema"].get("required").is_none(),
        "Option parameters are optional"
    );

    let create = entry(&toolbox, "create_invoice");
    assert_eq!(
        create["inputSchema"]["properties"]["customer"]["description"],
        "Who pays."
    );
    assert_eq!(create["inputSchema"]["additionalProperties"], false);
    assert_eq!(
        entry(&toolbox, "type")["inputSchema"]["required"],
        json!(["in"])
    );

    assert_eq!(
        entry(&toolbox, "ping")["inputSchema"],
        json!({"type": "object", "additionalProperties": false})
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

#[tokio::test]
async fn sync_and_async_tools_are_called_with_conforming_results() {
    let toolbox = toolbox();
    let sum = call_conforming(&toolbox, "add", json!({"a": 2, "b": 40})).await;
    assert_eq!(sum.structured_content, Some(json!({"result": 42})));

    let found = call_conforming(&toolbox, "get_invoice", json!({"number": "7"})).await;
    assert_eq!(
        found.structured_content,
        Some(json!({"number": "7", "total_cents": 1250}))
    );
    let missing = call_conforming(&toolbox, "get_invoice", json!({"number": "8"})).await;
    assert_eq!(missing.structured_content, Some(json!({})));
    assert_eq!(missing.text(), Some("{}"));

    let list = call_conforming(&toolbox, "list.invoices", json!({"max": 1})).await;
    assert_eq!(
        list.structured_content.unwrap()["result"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let all = call_conforming(&toolbox, "list.invoices", json!({})).await;
    assert_eq!(
        all.structured_content.unwrap()["result"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    let unit = call_conforming(&toolbox, "ping", Value::Null).await;
    assert_eq!(unit.structured_content, Some(json!({})));
    let raw = call_conforming(&toolbox, "type", json!({"in": "x"})).await;
    assert_eq!(raw.structured_content, Some(json!({"result": "x"})));
}

#[tokio::test]
async fn stateful_tools_share_the_toolbox_state() {
    let toolbox = toolbox();
    let created = call_conforming(
        &toolbox,
        "create_invoice",
        json!({"customer": "acme", "total": 500}),
    )
    .await;
    assert_eq!(
        created.structured_content,
        Some(json!({"number": "acme-1", "total_cents": 500}))
    );
    let count = call_conforming(&toolbox, "count_invoices", json!({})).await;
    assert_eq!(count.structured_content, Some(json!({"result": 1})));
    let found = call_conforming(&toolbox, "find_in_store", json!({"number": "acme-1"})).await;
    assert_eq!(found.structured_content.unwrap()["total_cents"], 500);
    let none = call_conforming(&toolbox, "find_in_store", json!({"number": "zzz"})).await;
    assert_eq!(none.structured_content, Some(json!({})));
}

#[tokio::test]
async fn an_err_is_an_error_result_with_its_message() {
    let toolbox = toolbox();
    let failed = call(
        &toolbox,
        "create_invoice",
        json!({"customer": "acme", "total": -5}),
    )
    .await;
    assert_eq!(
        error_text(&failed),
        "total -5 is negative; totals are in cents, at least 0"
    );
    let failed = call(&toolbox, "find_in_store", json!({"number": ""})).await;
    assert_eq!(error_text(&failed), "number must not be empty");
}

#[tokio::test]
async fn media_links_and_unstructured_tools() {
    let toolbox = toolbox();
    let image = call(&toolbox, "pixel", json!({})).await;
    assert_eq!(
        serde_json::to_value(&image).unwrap(),
        json!({"content": [{"type": "image", "data": "iVBORw==", "mimeType": "image/png"}]})
    );
    let links = call_conforming(&toolbox, "attachments", json!({})).await;
    assert_eq!(
        serde_json::to_value(&links.content[0]).unwrap(),
        json!({"type": "resource_link", "uri": "file:///7.pdf", "name": "7.pdf"})
    );
    let plain = call(&toolbox, "plain_text", json!({})).await;
    assert!(plain.structured_content.is_none());
    assert!(plain.text().unwrap().contains("\"number\": \"9\""));
    let maybe = call(&toolbox, "maybe_unschema", json!({"found": false})).await;
    assert_eq!(maybe.structured_content, Some(json!({})));
}

#[tokio::test]
async fn bad_arguments_are_error_results_naming_the_argument() {
    let toolbox = toolbox();
    let missing = call(&toolbox, "add", json!({"a": 1})).await;
    assert_eq!(
        error_text(&missing),
        "missing required argument `b` of tool `add`"
    );

    let wrong = call(&toolbox, "add", json!({"a": 1, "b": "two"})).await;
    let text = error_text(&wrong);
    assert!(
        text.contains("argument `b`") && text.contains("expected i64"),
        "{text}"
    );
    assert!(text.contains("a string `\"two\"`"), "{text}");

    let unknown = call(&toolbox, "add", json!({"a": 1, "b": 2, "c": 3})).await;
    assert_eq!(
        error_text(&unknown),
        "unknown argument `c` for tool `add`; expected one of: `a`, `b`"
    );

    let none_taken = call(&toolbox, "ping", json!({"x": 1})).await;
    assert!(error_text(&none_taken).contains("it takes no arguments"));

    let struct_missing = call(&toolbox, "create_invoice", json!({"customer": "x"})).await;
    assert!(error_text(&struct_missing).contains("missing field `total`"));
    let struct_wrong = call(
        &toolbox,
        "create_invoice",
        json!({"customer": "x", "total": "many"}),
    )
    .await;
    let text = error_text(&struct_wrong);
    assert!(text.contains("at `total`"), "{text}");
    let struct_unknown = call(
        &toolbox,
        "create_invoice",
        json!({"customer": "x", "total": 1, "vat": 2}),
    )
    .await;
    assert!(error_text(&struct_unknown).contains("unknown argument `vat`"));

    let not_object = call(&toolbox, "add", json!([1, 2])).await;
    assert!(error_text(&not_object).contains("must be a JSON object"));
}

#[tokio::test]
async fn a_panicking_tool_is_an_error_result_and_the_toolbox_lives_on() {
    let toolbox = toolbox();
    let result = call(&toolbox, "explode", json!({})).await;
    assert_eq!(
        error_text(&result),
        "tool `explode` panicked: the tool blew up"
    );
    assert!(
        !call(&toolbox, "add", json!({"a": 1, "b": 1}))
            .await
            .is_error
    );
}

#[tokio::test]
async fn an_unknown_tool_is_not_a_result() {
    let err = toolbox().call_tool("nope", json!({})).await.unwrap_err();
    assert_eq!(
        err,
        UnknownTool {
            name: "nope".into()
        }
    );
}

#[test]
fn registering_a_name_twice_is_an_error_naming_it() {
    let mut toolbox = Toolbox::new();
    toolbox.register(add::tool()).unwrap();
    let err = toolbox.register(add::tool()).unwrap_err();
    assert_eq!(err, RegistrationError::DuplicateName("add".into()));
    assert!(err.to_string().contains("`add`"));
}

#[test]
fn a_missing_state_is_refused_at_registration() {
    let err = Toolbox::new().register(count_invoices::tool()).unwrap_err();
    assert!(matches!(err, RegistrationError::MissingState { .. }));
    assert!(err.to_string().contains("Store"), "{err}");
}

#[test]
fn server_defaults_apply_where_the_tool_is_silent() {
    let off = ServerDefaults {
        include_structured_content: true,
        include_output_schema: false,
    };
    let mut toolbox = Toolbox::with_defaults(off);
    toolbox.register(add::tool()).unwrap();
    toolbox.register(get_invoice::tool()).unwrap();
    assert!(entry(&toolbox, "add").get("outputSchema").is_none());
    assert!(
        entry(&toolbox, "get_invoice").get("outputSchema").is_some(),
        "the tool's own flag wins"
    );

    let no_structured = ServerDefaults {
        include_structured_content: false,
        include_output_schema: false,
    };
    let mut toolbox = Toolbox::with_defaults(no_structured);
    toolbox.register(add::tool()).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let result = rt.block_on(call(&toolbox, "add", json!({"a": 1, "b": 2})));
    assert!(result.structured_content.is_none());
    assert_eq!(result.text(), Some("{\n  \"result\": 3\n}"));
}

#[test]
fn a_server_default_that_breaks_the_asymmetric_rule_is_refused_naming_both_origins() {
    let bad = ServerDefaults {
        include_structured_content: false,
        include_output_schema: true,
    };
    let err = Toolbox::with_defaults(bad)
        .register(add::tool())
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, RegistrationError::Settings(_)));
    assert!(text.contains("tool `add`"), "{text}");
    assert!(
        text.contains("(the server default) but omit `structuredContent` (the server default)"),
        "{text}"
    );

    // The tool sets the schema on, the server turns structured content off.
    let bad_for_get = ServerDefaults {
        include_structured_content: false,
        include_output_schema: false,
    };
    let err = Toolbox::with_defaults(bad_for_get)
        .register(maybe_unschema::tool())
        .map(|_| ());
    assert!(err.is_ok(), "schema off by the tool: nothing to violate");
    #[mcp_tool(include_output_schema)]
    fn schema_only() -> u8 {
        1
    }
    let err = Toolbox::with_defaults(bad_for_get)
        .register(schema_only::tool())
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("(set by the tool) but omit `structuredContent` (the server default)"),
        "{err}"
    );
}

#[test]
fn media_tools_never_advertise_an_output_schema_whatever_the_server_says() {
    let mut toolbox = Toolbox::with_defaults(ServerDefaults {
        include_structured_content: false,
        include_output_schema: true,
    });
    toolbox.register(pixel::tool()).unwrap();
    assert!(entry(&toolbox, "pixel").get("outputSchema").is_none());
}

#[tokio::test]
async fn a_result_ceiling_applies_to_registered_tools() {
    let mut toolbox = Toolbox::new();
    toolbox.set_max_result_bytes(100);
    toolbox.register(list_invoices::tool()).unwrap();
    let result = call(&toolbox, "list.invoices", json!({})).await;
    assert!(error_text(&result).contains("over this server's limit of 100 bytes"));
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

#[mcp_tool(crate = crate::reexport::runtime)]
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

/// Adds up amounts.
#[mcp_tool]
fn total(amounts: Vec<Invoice>) -> u64 {
    amounts.iter().map(|i| i.total_cents).sum()
}

#[tokio::test]
async fn an_error_inside_an_argument_names_its_path() {
    let mut toolbox = Toolbox::new();
    toolbox.register(total::tool()).unwrap();
    let bad = json!({"amounts": [{"number": "1", "total_cents": 1}, {"number": "2", "total_cents": "x"}]});
    let result = call(&toolbox, "total", bad).await;
    let text = error_text(&result);
    assert!(
        text.starts_with("invalid argument `amounts` at `amounts[1].total_cents` of tool `total`"),
        "{text}"
    );
}

// `Option` is decided by the type: an alias, a full path and `Option<T>` serve alike.
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

/// Returns a list as long as asked.
#[mcp_tool]
fn numbers(count: u32) -> Vec<u32> {
    (0..count).collect()
}

#[tokio::test]
async fn the_result_ceiling_applies_to_tools_registered_before_it_was_set() {
    let mut toolbox = Toolbox::new();
    toolbox.register(numbers::tool()).unwrap();
    toolbox.set_max_result_bytes(200);
    let small = call(&toolbox, "numbers", json!({"count": 2})).await;
    assert!(!small.is_error, "{small:?}");
    let large = call(&toolbox, "numbers", json!({"count": 500})).await;
    assert!(
        error_text(&large).contains("over this server's limit of 200 bytes"),
        "{large:?}"
    );
}

#[tokio::test]
async fn error_messages_quote_a_bounded_part_of_the_input() {
    let mut toolbox = Toolbox::new();
    toolbox.register(numbers::tool()).unwrap();
    let huge = "9".repeat(10_000_000) + "x";
    let result = call(&toolbox, "numbers", json!({ "count": huge })).await;
    let text = error_text(&result);
    assert!(
        text.len() < 600,
        "{} bytes: {}",
        text.len(),
        &text[..600.min(text.len())]
    );
    assert!(text.contains("invalid argument `count`"), "{text}");
    assert!(text.contains("more bytes)"), "{text}");
    let unknown_key = "k".repeat(1_000_000);
    let result = call(
        &toolbox,
        "numbers",
        json!({ "count": 1, unknown_key.clone(): 1 }),
    )
    .await;
    assert!(error_text(&result).len() < 600);
}

#[test]
fn deeply_nested_arguments_are_refused_without_overflowing_a_2_mib_stack() {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let mut toolbox = Toolbox::new();
            toolbox.register(numbers::tool()).unwrap();
            let runtime = tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap();
            for (depth, wrap) in [(100_000, "array"), (100_000, "object"), (129, "array")] {
                let mut nested = json!(1);
                for _ in 0..depth {
                    // Built by moving (`json!` would serialize its operand, recursively).
                    nested = if wrap == "array" {
                        Value::Array(vec![nested])
                    } else {
                        Value::Object([("a".to_owned(), nested)].into_iter().collect())
                    };
                }
                let result = runtime
                    .block_on(toolbox.call_tool("numbers", count(nested)))
                    .unwrap();
                let text = error_text(&result);
                assert!(
                    text.contains("nested more than 128 levels deep"),
                    "{depth} {wrap}: {text}"
                );
            }
            // A whole-arguments value nested deep is refused the same way.
            let mut nested = json!(1);
            for _ in 0..100_000 {
                nested = Value::Array(vec![nested]);
            }
            let result = runtime
                .block_on(toolbox.call_tool("numbers", nested))
                .unwrap();
            assert!(error_text(&result).contains("levels deep"));
            // At the limit, arguments are read as usual.
            let mut nested = json!(1);
            for _ in 0..126 {
                nested = Value::Array(vec![nested]);
            }
            let result = runtime
                .block_on(toolbox.call_tool("numbers", count(nested)))
                .unwrap();
            assert!(error_text(&result).contains("invalid argument `count`"));
        })
        .unwrap()
        .join()
        .unwrap();
}

/// `{"count": value}`, built by moving `value`.
fn count(value: Value) -> Value {
    Value::Object([("count".to_owned(), value)].into_iter().collect())
}

/// A struct whose flattened map may carry a key that collides with a field: serde lets the map's
/// value win, so no schema derived from the type admits every value it serializes to.
#[derive(Serialize, JsonSchema)]
pub struct Titled {
    pub title: String,
    #[serde(flatten)]
    pub extra: std::collections::BTreeMap<String, i64>,
}

/// Returns a title whose extra fields collide with it.
#[mcp_tool]
fn colliding() -> Titled {
    Titled {
        title: "a title".into(),
        extra: [("title".to_owned(), 1)].into_iter().collect(),
    }
}

#[derive(Serialize, JsonSchema)]
pub struct Dated {
    pub at: chrono::DateTime<chrono::Utc>,
}

/// Returns a date past year 9999, which RFC 3339 (`format: date-time`) cannot write.
#[mcp_tool]
fn far_future() -> Dated {
    Dated {
        at: chrono::NaiveDate::from_ymd_opt(10_000, 1, 1)
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap()
            .and_utc(),
    }
}

#[tokio::test]
async fn the_self_check_refuses_results_that_break_the_advertised_schema() {
    let mut toolbox = Toolbox::new();
    toolbox
        .check_results(true)
        .register(colliding::tool())
        .unwrap()
        .register(far_future::tool())
        .unwrap()
        .register(get_invoice::tool())
        .unwrap();

    let text = error_text(&call(&toolbox, "colliding", json!({})).await).to_owned();
    assert!(
        text.contains("tool `colliding` returned a result that does not conform")
            && text.contains("$.title: advertised type `string`; got a number `1`"),
        "{text}"
    );
    let text = error_text(&call(&toolbox, "far_future", json!({})).await).to_owned();
    assert!(
        text.contains(
            "$.at: advertised format `date-time`; got a string `\"+10000-01-01T00:00:00Z\"`"
        ),
        "{text}"
    );
    // Conforming results pass through untouched.
    let found = call_conforming(&toolbox, "get_invoice", json!({"number": "7"})).await;
    assert!(!found.is_error);

    // With the check off, the broken value goes out: what the check is for.
    let mut unchecked = Toolbox::new();
    unchecked
        .check_results(false)
        .register(colliding::tool())
        .unwrap();
    let served = call(&unchecked, "colliding", json!({})).await;
    assert_eq!(served.structured_content, Some(json!({"title": 1})));
}

#[test]
fn the_self_check_is_on_by_default_in_debug_builds() {
    let mut toolbox = Toolbox::new();
    toolbox.register(colliding::tool()).unwrap();
    let result = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(call(&toolbox, "colliding", json!({})));
    assert_eq!(result.is_error, cfg!(debug_assertions), "{result:?}");
}

/// `register_all` registers in order and stops at the first tool it refuses.
#[test]
fn register_all_stops_at_the_first_refusal() {
    let mut toolbox = Toolbox::new();
    let error = toolbox
        .register_all(mcp_tool_runtime::tools![add, add])
        .unwrap_err();
    assert_eq!(error, RegistrationError::DuplicateName("add".into()));
    let names: Vec<_> = toolbox
        .list_tools()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, ["add"]);
}
