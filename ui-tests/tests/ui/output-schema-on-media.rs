use mcp_tool_runtime::mcp_tool;

#[mcp_tool(content = audio, mime_type = "audio/wav", include_output_schema)]
fn say() -> Vec<u8> {
    Vec::new()
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(say::tool());
}
