use mcp_tool_runtime::mcp_resource;

/// An invoice.
#[mcp_resource(uri = "invoices://{number}", size = 1024)]
fn invoice(#[arg(description = "The number")] number: String) -> String {
    number
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register_resource(invoice::resource());
}
