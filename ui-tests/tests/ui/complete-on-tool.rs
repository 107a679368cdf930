use mcp_tool_runtime::completion::Complete;
use mcp_tool_runtime::mcp_tool;

fn cities(_: &Complete<'_>) -> Vec<String> {
    Vec::new()
}

/// Looks up the weather.
#[mcp_tool]
fn weather(#[arg(complete = cities)] city: String) -> String {
    city
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(weather::tool());
}
