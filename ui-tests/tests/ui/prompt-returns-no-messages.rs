use mcp_tool_runtime::mcp_prompt;

/// Reviews a change.
#[mcp_prompt]
fn review(diff: String) -> u32 {
    diff.len() as u32
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register_prompt(review::prompt());
}
