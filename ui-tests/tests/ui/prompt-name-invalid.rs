use mcp_tool_runtime::mcp_prompt;

/// Reviews a change.
#[mcp_prompt(name = "review code")]
fn review(diff: String) -> String {
    diff
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register_prompt(review::prompt());
}
