use mcp_tool_runtime::mcp_tool;

#[mcp_tool]
pub struct Add {
    a: i64,
}

fn main() {}
