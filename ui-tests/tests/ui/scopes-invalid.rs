use mcp_tool_runtime::mcp_tool;

// Two scopes in one string: a scope token has no spaces.
#[mcp_tool(scopes("invoices:read invoices:write"))]
fn two_in_one() -> u8 {
    1
}

// The same scope twice.
#[mcp_tool(scopes("invoices:read", "invoices:read"))]
fn twice() -> u8 {
    1
}

// Not a string literal.
#[mcp_tool(scopes(SCOPE))]
fn not_a_string() -> u8 {
    1
}

// No scope at all.
#[mcp_tool(scopes())]
fn empty() -> u8 {
    1
}

// An empty scope.
#[mcp_tool(scopes(""))]
fn empty_scope() -> u8 {
    1
}

// Not a list.
#[mcp_tool(scopes = "invoices:read")]
fn not_a_list() -> u8 {
    1
}

const SCOPE: &str = "invoices:read";

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(two_in_one::tool());
    let _ = toolbox.register(twice::tool());
    let _ = toolbox.register(not_a_string::tool());
    let _ = toolbox.register(empty::tool());
    let _ = toolbox.register(empty_scope::tool());
    let _ = toolbox.register(not_a_list::tool());
    let _ = SCOPE;
}
