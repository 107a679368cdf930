use mcp_tool_runtime::{Toolbox, mcp_tool};

// One mistake, one error: the wrong value is reported, not also "add `allow_none`".
#[mcp_tool(allow_none = 1)]
fn find_total(number: String) -> Option<u64> {
    number.parse().ok()
}

fn main() {
    let mut toolbox = Toolbox::new();
    let _ = toolbox.register(find_total::tool());
}
