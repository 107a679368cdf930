use mcp_tool_runtime::mcp_tool;

#[mcp_tool(allow_none)]
fn get_total() -> u64 {
    1
}

fn main() {}
