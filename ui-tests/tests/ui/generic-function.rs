use mcp_tool_runtime::mcp_tool;

#[mcp_tool]
fn echo<T: serde::Serialize>(value: String) -> String {
    value
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(echo::tool());
}
