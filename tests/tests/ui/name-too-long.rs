use mcp_tool_runtime::mcp_tool;

#[mcp_tool]
fn add_two_numbers_together_and_return_their_sum_as_a_sixty_four_bit_integer(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(add_two_numbers_together_and_return_their_sum_as_a_sixty_four_bit_integer::tool());
}
