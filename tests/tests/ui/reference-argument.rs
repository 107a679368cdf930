use mcp_tool_runtime::mcp_tool;

#[mcp_tool]
fn shout(text: &str) -> String {
    text.to_uppercase()
}

fn main() {}
