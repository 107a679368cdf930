//! Every way to take the call context.
use mcp_tool_runtime::{mcp_tool, ToolContext, Toolbox};

pub struct Db;

/// By reference, first.
#[mcp_tool]
async fn by_reference(ctx: &ToolContext, n: u32) -> u32 {
    ctx.progress(1.0, None).await;
    n
}

/// By value, last, with state.
#[mcp_tool]
fn by_value(#[state] _db: &Db, n: u32, _c: ToolContext) -> u32 {
    n
}

/// Through a full path.
#[mcp_tool]
fn full_path(ctx: mcp_tool_runtime::context::ToolContext) -> bool {
    ctx.is_cancelled()
}

fn main() {
    let mut toolbox = Toolbox::new();
    toolbox.insert_state(Db);
    toolbox
        .register(by_reference::tool())
        .unwrap()
        .register(by_value::tool())
        .unwrap()
        .register(full_path::tool())
        .unwrap();
}
