use mcp_tool_runtime::mcp_tool;

#[mcp_tool]
fn echo<T: serde::Serialize>(value: String) -> String {
    value
}

fn main() {}
