use mcp_tool_runtime::mcp_resource;

/// Today's message.
#[mcp_resource(uri = "motd://today", annotations(audience(user, admin), priority = 1.5))]
fn motd() -> String {
    "Closed on Monday.".into()
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register_resource(motd::resource());
}
