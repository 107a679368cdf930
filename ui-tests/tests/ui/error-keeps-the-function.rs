use mcp_tool_runtime::{mcp_tool, Toolbox};

// One mistake, one message: the function and its declaration are still emitted, so the code that
// calls and registers it shows no follow-on errors.
#[mcp_tool(titel = "Add")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    assert_eq!(add(1, 2), 3);
    let mut toolbox = Toolbox::new();
    let _ = toolbox.register(add::tool());
}
