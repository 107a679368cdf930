use mcp_tool_runtime::mcp_resource;

/// Today's message.
#[mcp_resource(mime_type = "text/plain")]
fn motd() -> String {
    "Closed on Monday.".into()
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register_resource(motd::resource());
}
