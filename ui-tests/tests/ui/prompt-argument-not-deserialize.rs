use mcp_tool_runtime::mcp_prompt;

struct Tone;

/// Writes a reply.
#[mcp_prompt]
fn reply(tone: Tone) -> String {
    let _ = tone;
    "Reply.".into()
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register_prompt(reply::prompt());
}
