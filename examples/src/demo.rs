//! The `--demo` transcript: the invoices server's `tools/list` and a `tools/call` of each tool,
//! then its prompts and resources listed, its prompt got and its resources read, as the JSON a
//! client receives. `examples/DEMO.md` shows this text, and a test keeps the two
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
    out.push_str(
        "\n`prompts/list`, `resources/list` and `resources/templates/list` results:\n\n```json\n",
    );
    out.push_str(&encode_json(&json!({
        "prompts": toolbox.list_prompts(),
        "resources": toolbox.list_resources(),
        "resourceTemplates": toolbox.list_resource_templates(),
    }))?);
    out.push_str("\n```\n");
    let arguments = json!({"number": "INV-3", "tone": "firm"});
    let got = toolbox
        .get_prompt("chase_payment", arguments.clone())
        .await?;
    out.push_str(&format!(
        "\n`prompts/get` of `chase_payment` with `{arguments}`:\n\n```json\n{}\n```\n",
        encode_json(&got)?
    ));
    for uri in ["invoices://INV-2", "terms://payment"] {
        let contents = toolbox.read_resource(uri).await?;
        out.push_str(&format!(
            "\n`resources/read` of `{uri}`:\n\n```json\n{}\n```\n",
            encode_json(&json!({ "contents": contents }))?
        ));
    }
    let paid = toolbox
        .get_prompt("chase_payment", json!({"number": "INV-2"}))
        .await
        .unwrap_err();
    out.push_str(&format!(
        "\n`prompts/get` of `chase_payment` for the paid `INV-2`: JSON-RPC error {} `{}`\n",
        paid.code, paid.message
    ));
    let missing = toolbox
        .read_resource("invoices://INV-404")
        .await
        .unwrap_err();
    out.push_str(&format!(
        "\n`resources/read` of `invoices://INV-404`: JSON-RPC error {} `{}`\n",
        missing.code, missing.message
    ));
    Ok(out)
}
