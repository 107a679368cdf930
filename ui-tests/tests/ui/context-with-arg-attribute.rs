use mcp_tool_runtime::{mcp_tool, ToolContext};

/// Counts.
#[mcp_tool]
fn count(#[arg(description = "The context.")] ctx: ToolContext, n: u32) -> u32 {
    let _ = ctx;
    n
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(count::tool());
}
