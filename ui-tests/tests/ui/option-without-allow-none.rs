use mcp_tool_runtime::mcp_tool;

#[mcp_tool]
fn find_total(number: String) -> Option<u64> {
    number.parse().ok()
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(find_total::tool());
}
