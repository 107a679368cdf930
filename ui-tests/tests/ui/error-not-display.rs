use mcp_tool_runtime::{Toolbox, mcp_tool};

pub struct Failure;

#[mcp_tool]
fn divide(a: i64, b: i64) -> Result<i64, Failure> {
    a.checked_div(b).ok_or(Failure)
}

fn main() {
    let mut toolbox = Toolbox::new();
    let _ = toolbox.register(divide::tool());
}
