use mcp_tool_runtime::{Toolbox, mcp_tool};

type Outcome = Result<u64, String>;

#[mcp_tool]
fn get_total(number: String) -> Outcome {
    number.parse().map_err(|_| format!("`{number}` is not a number"))
}

fn main() {
    let mut toolbox = Toolbox::new();
    let _ = toolbox.register(get_total::tool());
}
