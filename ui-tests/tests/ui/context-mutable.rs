use mcp_tool_runtime::{mcp_tool, ToolContext};

/// Counts.
#[mcp_tool]
async fn count(ctx: &mut ToolContext, n: u32) -> u32 {
    ctx.progress(f64::from(n), None).await;
    n
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(count::tool());
}
