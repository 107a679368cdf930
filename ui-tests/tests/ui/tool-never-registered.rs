//! A tool declared and never registered is found by rustc's `dead_code` lint.
#![deny(dead_code)]

use mcp_tool_runtime::{mcp_tool, tools, Toolbox};

/// Adds two numbers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Subtracts; forgotten below.
#[mcp_tool]
fn subtract(a: i64, b: i64) -> i64 {
    a - b
}

fn main() {
    let mut toolbox = Toolbox::new();
    toolbox.register_all(tools![add]).unwrap();
}
