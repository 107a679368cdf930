use mcp_tool_runtime::mcp_tool;

#[mcp_tool(allow_none)]
fn ping() {}

fn main() {}
