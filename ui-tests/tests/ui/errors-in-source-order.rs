use mcp_tool_runtime::mcp_tool;

// Checks run by stage; errors are reported in the order they appear in the source.
#[mcp_tool(include_output_schema, include_structured_content = false)]
unsafe fn add<T>(a: i64, _b: &str) -> i64 {
    a
}

fn main() {}
