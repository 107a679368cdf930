use mcp_tool_runtime::{Toolbox, mcp_tool};

#[derive(serde::Serialize)]
pub struct Point {
    pub x: i64,
}

#[mcp_tool]
fn origin() -> Point {
    Point { x: 0 }
}

fn main() {
    let mut toolbox = Toolbox::new();
    let _ = toolbox.register(origin::tool());
}
