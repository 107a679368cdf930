//! The compile-fail and compile-pass cases of `#[mcp_tool]`, `#[mcp_prompt]` and
//! `#[mcp_resource]`: `tests/ui` and `tests/pass`, run by `tests/ui.rs`.
//!
//! A package of its own so that trybuild, which builds each case against the package's
//! dependencies, builds only the runtime, serde and schemars.
