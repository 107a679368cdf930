use mcp_tool_runtime::{Toolbox, mcp_tool};

type MaybeTotal = Option<u64>;

#[mcp_tool]
fn find_total(number: String) -> MaybeTotal {
    number.parse().ok()
}

fn main() {
    let mut toolbox = Toolbox::new();
    let _ = toolbox.register(find_total::tool());
}
