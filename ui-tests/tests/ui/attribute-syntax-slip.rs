use mcp_tool_runtime::{Toolbox, mcp_tool};

#[mcp_tool(name = "add", title "Add")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    let mut toolbox = Toolbox::new();
    let _ = toolbox.register(add::tool());
}
