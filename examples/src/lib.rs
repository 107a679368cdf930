//! Example MCP servers built with `mcp-tool-runtime`, served through rmcp.
//!
//! - `cargo run -p examples --bin invoices`: the invoices server over stdio;
//!   `-- --http 127.0.0.1:8080` serves Streamable HTTP at `http://127.0.0.1:8080/mcp`;
//!   `-- --demo` prints its `tools/list` and a `tools/call` of each tool.
//! - `cargo run -p examples --bin conformance -- --http 127.0.0.1:8080`: the tools the official
//!   MCP conformance suite calls.
//! - `cargo run -p examples --bin composed`: an rmcp handler of its own (`#[tool_router]` tools,
//!   a prompt, a resource) serving the invoices tools beside its own.
//! - `cargo run -p examples --bin reliability`: a fast tool for load runs and three that
//!   misbehave (panic, never return, return NaN).
//! - `cargo run -p examples --bin plugins`: tools installed and removed while it serves, each
//!   change announced to every client.

pub mod composed;
pub mod conformance;
pub mod demo;
pub mod invoices;
pub mod plugins;
pub mod reliability;
pub mod serve;

/// The README's Rust code, compiled as doctests so it never goes stale.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
