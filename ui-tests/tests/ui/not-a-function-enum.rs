use mcp_tool_runtime::mcp_tool;

#[mcp_tool]
pub enum Operation {
    Add,
}

fn main() {}
