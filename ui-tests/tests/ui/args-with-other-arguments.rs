use mcp_tool_runtime::mcp_tool;

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Query {
    pub text: String,
}

#[mcp_tool]
fn search(#[args] query: Query, limit: u32) -> String {
    let _ = limit;
    query.text
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(search::tool());
}
