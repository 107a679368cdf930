use mcp_tool_runtime::{ToolContext, mcp_tool};

// `escalates` on a tool that is never a task.
#[mcp_tool(escalates)]
async fn import(ctx: &ToolContext) -> u8 {
    ctx.escalate().await;
    1
}

// A flag takes no list.
#[mcp_tool(task = optional, escalates(now))]
async fn listed(ctx: &ToolContext) -> u8 {
    ctx.escalate().await;
    1
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(import::tool());
    let _ = toolbox.register(listed::tool());
}
