use mcp_tool_runtime::mcp_tool;

#[mcp_tool(descripton = "Adds.")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(add::tool());
}
