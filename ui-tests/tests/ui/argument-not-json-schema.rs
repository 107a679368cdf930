use mcp_tool_runtime::{Toolbox, mcp_tool};

#[derive(serde::Deserialize)]
pub struct Point {
    pub x: i64,
}

#[mcp_tool]
fn norm(point: Point) -> i64 {
    point.x.abs()
}

fn main() {
    let mut toolbox = Toolbox::new();
    let _ = toolbox.register(norm::tool());
}
