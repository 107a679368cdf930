use mcp_tool_runtime::mcp_resource;

/// An invoice line.
#[mcp_resource(uri = "invoices://{number}/lines/{line}")]
fn line(number: String, index: u32) -> String {
    format!("{number} {index}")
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register_resource(line::resource());
}
