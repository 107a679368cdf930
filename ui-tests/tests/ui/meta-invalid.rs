use mcp_tool_runtime::mcp_tool;

// A prefix MCP reserves for itself.
#[mcp_tool(meta("io.modelcontextprotocol/ui" = "x"))]
fn reserved() -> u8 {
    1
}

// A key that is not in MCP's format, a key given twice, and a value that is not a literal.
#[mcp_tool(meta("com.example/a b" = 1, "com.example/x" = 1, "com.example/x" = 2, "com.example/y" = X))]
fn malformed() -> u8 {
    1
}

const X: u8 = 1;

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(reserved::tool());
    let _ = toolbox.register(malformed::tool());
    let _ = X;
}
