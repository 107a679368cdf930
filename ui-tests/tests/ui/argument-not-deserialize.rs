use mcp_tool_runtime::mcp_tool;

#[derive(schemars::JsonSchema)]
pub struct Point {
    pub x: i64,
}

#[mcp_tool]
fn norm(point: Point) -> i64 {
    point.x.abs()
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(norm::tool());
}
