use mcp_tool_runtime::mcp_tool;

pub struct Point {
    pub x: i64,
}

#[mcp_tool]
fn norm(point: Point) -> i64 {
    point.x.abs()
}

fn main() {}
