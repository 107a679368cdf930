use mcp_tool_runtime::mcp_tool;

/// Settles an invoice.
#[mcp_tool(visibility(app, app, agent))]
fn settle(number: String) -> String {
    number
}

/// Voids an invoice.
#[mcp_tool(visibility())]
fn void(number: String) -> String {
    number
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(settle::tool());
    let _ = toolbox.register(void::tool());
}
