use mcp_tool_runtime::mcp_tool;

#[mcp_tool]
fn shout(text: &str) -> String {
    text.to_uppercase()
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(shout::tool());
}
