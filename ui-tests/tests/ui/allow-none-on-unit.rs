use mcp_tool_runtime::mcp_tool;

#[mcp_tool(allow_none)]
fn ping() {}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(ping::tool());
}
