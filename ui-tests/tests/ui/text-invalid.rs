use mcp_tool_runtime::mcp_tool;

fn wrong_signature(total: u64) -> String {
    total.to_string()
}

fn words(total: &u64) -> String {
    format!("{total} cents")
}

// The function takes the returned value by reference: `fn(&u64) -> String`.
#[mcp_tool(text = wrong_signature)]
fn takes_by_value() -> u64 {
    1
}

// A path, not a string.
#[mcp_tool(text = "words")]
fn quoted() -> u64 {
    1
}

// `text` writes the mirror itself; a `mirror` layout has nothing to do.
#[mcp_tool(text = words, mirror = compact)]
fn both() -> u64 {
    1
}

// An image has no text mirror.
#[mcp_tool(content = image, mime_type = "image/png", text = words)]
fn picture() -> Vec<u8> {
    vec![]
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(takes_by_value::tool());
    let _ = toolbox.register(quoted::tool());
    let _ = toolbox.register(both::tool());
    let _ = toolbox.register(picture::tool());
}
