use mcp_tool_runtime::mcp_tool;

#[mcp_tool(include_output_schema)]
fn find_total(number: String) -> Result<Option<u64>, String> {
    Ok(number.parse().ok())
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(find_total::tool());
}
