use mcp_tool_runtime::{mcp_tool, ToolContext};

/// Reports progress twice over.
#[mcp_tool]
async fn count(ctx: &ToolContext, n: u32, again: ToolContext) -> u32 {
    ctx.progress(f64::from(n), None).await;
    again.progress(f64::from(n), None).await;
    n
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(count::tool());
}
