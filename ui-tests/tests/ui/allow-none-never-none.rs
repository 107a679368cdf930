use mcp_tool_runtime::mcp_tool;

#[mcp_tool(allow_none)]
fn get_total() -> u64 {
    1
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(get_total::tool());
}
