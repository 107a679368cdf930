use mcp_tool_runtime::mcp_tool;

// Not a kind of task support.
#[mcp_tool(task = always)]
fn always() -> u8 {
    1
}

// Quoted.
#[mcp_tool(task = "optional")]
fn quoted() -> u8 {
    1
}

// No value.
#[mcp_tool(task)]
fn bare() -> u8 {
    1
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(always::tool());
    let _ = toolbox.register(quoted::tool());
    let _ = toolbox.register(bare::tool());
}
