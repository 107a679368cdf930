use mcp_tool_runtime::mcp_tool;

#[derive(schemars::JsonSchema)]
pub struct Point {
    pub x: i64,
}

#[mcp_tool]
fn origin() -> Point {
    Point { x: 0 }
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(origin::tool());
}
