//! The tools every test here shares, the toolbox that holds them, and the helpers that call them.

use std::sync::Mutex;

use mcp_tool_runtime::{ResourceLink, ToolResult, Toolbox, assert_tool_result_conforms, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Invoice {
    /// The invoice number.
    pub number: String,
    pub total_cents: u64,
}

/// Look up an invoice
/// by its number.
#[mcp_tool(include_output_schema, include_structured_content, allow_none)]
pub(crate) async fn get_invoice(number: String) -> Option<Invoice> {
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
pub(crate) fn add(a: i64, #[arg(description = "The second number.")] b: i64) -> i64 {
    a + b
}

#[mcp_tool(name = "list.invoices", description = "Every invoice.")]
pub(crate) fn list_invoices(#[arg(rename = "max")] limit: Option<usize>) -> Vec<Invoice> {
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
    pub(crate) invoices: Mutex<Vec<Invoice>>,
}

/// Creates an invoice.
#[mcp_tool(annotations(destructive = false))]
pub(crate) async fn create_invoice(
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
pub(crate) fn count_invoices(#[state] store: &Store) -> usize {
    store.invoices.lock().unwrap().len()
}

#[mcp_tool(allow_none)]
pub(crate) fn find_in_store(
    #[state] store: &Store,
    number: String,
) -> Result<Option<Invoice>, String> {
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
pub(crate) fn ping() {}

#[mcp_tool(content = image, mime_type = "image/png")]
pub(crate) fn pixel() -> Vec<u8> {
    vec![0x89, b'P', b'N', b'G']
}

#[mcp_tool(content = resource_link)]
pub(crate) fn attachments() -> Vec<ResourceLink> {
    vec![ResourceLink::new("file:///7.pdf", "7.pdf")]
}

#[mcp_tool(include_structured_content = false, include_output_schema = false)]
pub(crate) fn plain_text() -> Invoice {
    Invoice {
        number: "9".into(),
        total_cents: 9,
    }
}

#[mcp_tool(include_output_schema = false)]
pub(crate) fn maybe_unschema(found: bool) -> Option<u8> {
    found.then_some(1)
}

#[mcp_tool]
pub(crate) fn explode() -> u8 {
    panic!("the tool blew up")
}

#[mcp_tool]
pub(crate) fn r#type(r#in: String) -> String {
    r#in
}

pub(crate) fn toolbox() -> Toolbox {
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

pub(crate) fn entry(toolbox: &Toolbox, name: &str) -> Value {
    let found = toolbox
        .list_tools()
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no tool {name}"));
    serde_json::to_value(found).unwrap()
}

pub(crate) async fn call(toolbox: &Toolbox, name: &str, args: Value) -> ToolResult {
    toolbox.call_tool(name, args).await.unwrap()
}

pub(crate) fn error_text(result: &ToolResult) -> &str {
    assert!(result.is_error, "expected an error, got {result:?}");
    assert!(result.structured_content.is_none());
    result.text().unwrap()
}

/// Calls a tool and checks that what it served conforms to what it advertised.
pub(crate) async fn call_conforming(toolbox: &Toolbox, name: &str, args: Value) -> ToolResult {
    let result = call(toolbox, name, args).await;
    assert_tool_result_conforms(
        &entry(toolbox, name),
        &serde_json::to_value(&result).unwrap(),
    );
    result
}

/// Returns a list as long as asked.
#[mcp_tool]
pub(crate) fn numbers(count: u32) -> Vec<u32> {
    (0..count).collect()
}

/// `{"count": value}`, built by moving `value`.
pub(crate) fn count(value: Value) -> Value {
    Value::Object([("count".to_owned(), value)].into_iter().collect())
}
