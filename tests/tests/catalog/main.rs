//! `#[mcp_prompt]`, `#[mcp_resource]` and MCP Apps views end to end: through a `Toolbox` (declared, got, read,
//! completed, refused, mounted) and served over the wire at both protocol generations.
//!
//! One test binary, one module per behaviour; the shared prompts and resources live in
//! `fixtures`.

mod apps;
mod completions;
mod fixtures;
mod prompts;
mod registration;
mod resources;
mod served;
