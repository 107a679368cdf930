use mcp_tool_runtime::mcp_tool;

#[mcp_tool(include_output_schema, include_structured_content = false)]
fn get_total() -> u64 {
    1
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(get_total::tool());
}
