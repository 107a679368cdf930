use mcp_tool_runtime::mcp_resource;

struct Invoice;

/// An invoice.
#[mcp_resource(uri = "invoices://{number}", mime_type = "application/json")]
fn invoice(number: String) -> Option<Invoice> {
    let _ = number;
    None
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register_resource(invoice::resource());
}
