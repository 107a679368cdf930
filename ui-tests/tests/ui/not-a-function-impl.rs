use mcp_tool_runtime::mcp_tool;

pub struct Calculator;

#[mcp_tool]
impl Calculator {
    pub fn add(a: i64, b: i64) -> i64 {
        a + b
    }
}

fn main() {}
