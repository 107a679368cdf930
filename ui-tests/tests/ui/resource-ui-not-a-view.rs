use mcp_tool_runtime::mcp_resource;

/// An invoice page, not served as a view.
#[mcp_resource(uri = "https://example.com/invoice", ui(prefers_border = true))]
fn page() -> &'static str {
    "<p>Invoice</p>"
}

/// The view, with an origin that is no origin and an unknown key.
#[mcp_resource(uri = "ui://invoices/view", ui(connect_domains("api.example.com"), webcam))]
fn view() -> &'static str {
    "<p>Invoice</p>"
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register_resource(page::resource());
    let _ = toolbox.register_resource(view::resource());
}
