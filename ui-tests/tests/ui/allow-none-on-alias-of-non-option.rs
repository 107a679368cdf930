use mcp_tool_runtime::{Toolbox, mcp_tool};

type Total = u64;

#[mcp_tool(allow_none)]
fn get_total() -> Total {
    1
}

fn main() {
    let mut toolbox = Toolbox::new();
    let _ = toolbox.register(get_total::tool());
}
