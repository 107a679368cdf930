use mcp_tool_runtime::mcp_tool;

/// A name of 128 characters, as SEP-986 allows, is accepted.
#[mcp_tool(name = "count_the_invoices_of_every_customer_the_invoices_of_every_customer_the_invoices_of_every_customer_the_invoices_of_every_custome")]
fn longest() -> i64 {
    1
}

#[mcp_tool(name = "count_the_invoices_of_every_customer_the_invoices_of_every_customer_the_invoices_of_every_customer_the_invoices_of_every_customer")]
fn too_long() -> i64 {
    1
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(longest::tool());
    let _ = toolbox.register(too_long::tool());
}
