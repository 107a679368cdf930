use mcp_tool_runtime::mcp_tool;

/// Shows an invoice.
#[mcp_tool(ui = "https://example.com/invoice.html")]
fn show_invoice(number: String) -> String {
    number
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(show_invoice::tool());
}
