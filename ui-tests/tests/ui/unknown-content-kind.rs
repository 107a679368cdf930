use mcp_tool_runtime::mcp_tool;

#[mcp_tool(content = imagee, mime_type = "image/png")]
fn chart() -> Vec<u8> {
    Vec::new()
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(chart::tool());
}
