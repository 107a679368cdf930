use mcp_tool_runtime::mcp_tool;

pub struct Db;

#[mcp_tool]
fn count(#[state] db: Db) -> u64 {
    let _ = db;
    0
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(count::tool());
}
