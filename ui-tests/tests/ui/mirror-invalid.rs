use mcp_tool_runtime::mcp_tool;

// Not a layout.
#[mcp_tool(mirror = tight)]
fn unknown() -> u8 {
    1
}

// A layout is written without quotes.
#[mcp_tool(mirror = "compact")]
fn quoted() -> u8 {
    1
}

// An image result has no text mirror.
#[mcp_tool(content = image, mime_type = "image/png", mirror = compact)]
fn picture() -> Vec<u8> {
    vec![]
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(unknown::tool());
    let _ = toolbox.register(quoted::tool());
    let _ = toolbox.register(picture::tool());
}
