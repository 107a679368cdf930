use mcp_tool_runtime::mcp_tool;

// Not a URI clients show: an icon is an `https:` URL or a `data:` URI.
#[mcp_tool(icons("http://example.com/icon.png"))]
fn plain_http() -> u8 {
    1
}

// Not a string literal.
#[mcp_tool(icons(ICON))]
fn not_a_string() -> u8 {
    1
}

// No icon at all.
#[mcp_tool(icons())]
fn empty() -> u8 {
    1
}

const ICON: &str = "https://example.com/icon.png";

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(plain_http::tool());
    let _ = toolbox.register(not_a_string::tool());
    let _ = toolbox.register(empty::tool());
    let _ = ICON;
}
