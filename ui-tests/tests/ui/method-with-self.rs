use mcp_tool_runtime::mcp_tool;

struct Calculator;

impl Calculator {
    #[mcp_tool]
    fn add(&self, a: i64, b: i64) -> i64 {
        a + b
    }
}

fn main() {
    let _ = Calculator.add(1, 2);
}
