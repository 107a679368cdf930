use mcp_tool_runtime::mcp_prompt;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Review {
    diff: String,
}

/// Reviews a change.
#[mcp_prompt]
fn review(#[args] review: Review) -> String {
    review.diff
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register_prompt(review::prompt());
}
