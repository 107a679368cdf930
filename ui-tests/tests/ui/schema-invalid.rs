use mcp_tool_runtime::mcp_tool;

// Not a profile.
#[mcp_tool(schema = openapi)]
fn unknown() -> u8 {
    1
}

// A profile is written without quotes.
#[mcp_tool(schema = "as_derived")]
fn quoted() -> u8 {
    1
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(unknown::tool());
    let _ = toolbox.register(quoted::tool());
}
