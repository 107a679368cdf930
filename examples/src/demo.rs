//! The `--demo` transcript: the invoices server's `tools/list` and a `tools/call` of each tool,
//! as the wire JSON a client receives. `examples/DEMO.md` shows this text, and a test keeps the two
//! equal.

use mcp_tool_runtime::encode_json;
use serde_json::{Value, json};

/// The calls the demo makes, in order: tool name and arguments.
pub fn calls() -> Vec<(&'static str, Value)> {
    vec![
        ("get_invoice", json!({"number": "INV-1"})),
        ("get_invoice", json!({"number": "INV-404"})),
        ("list_invoices", json!({"status": "paid"})),
        (
            "create_invoice",
            json!({"customer": "Globex", "lines": [{"item": "Widget", "quantity": 4, "unit_cents": 250}]}),
        ),
        ("create_invoice", json!({"customer": "Globex", "lines": []})),
        ("mark_paid", json!({"number": "INV-1"})),
        ("invoice_badge", json!({"number": "INV-1"})),
        ("invoice_documents", json!({"number": "INV-2"})),
        ("format_invoice", json!({"number": "INV-2"})),
        ("audit_invoices", json!({"delay_ms": 0})),
        ("send_reminder", json!({"number": "INV-2"})),
        ("get_invoice", json!({"numbr": "INV-1"})),
    ]
}

/// The transcript, as Markdown.
pub async fn transcript() -> Result<String, Box<dyn std::error::Error + Send + Sync>> {
    let toolbox = crate::invoices::toolbox()?;
    let mut out = String::new();
    out.push_str("`tools/list` result:\n\n```json\n");
    out.push_str(&encode_json(&json!({ "tools": toolbox.list_tools() }))?);
    out.push_str("\n```\n");
    for (name, arguments) in calls() {
        let result = toolbox.call_tool(name, arguments.clone()).await?;
        out.push_str(&format!(
            "\n`tools/call` of `{name}` with `{arguments}`:\n\n```json\n{}\n```\n",
            encode_json(&result)?
        ));
    }
    Ok(out)
}
