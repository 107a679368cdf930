use mcp_tool_runtime::mcp_tool;

pub struct Point {
    pub x: i64,
}

#[mcp_tool]
fn origin() -> Point {
    Point { x: 0 }
}

fn main() {}
