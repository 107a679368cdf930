//! `#[mcp_prompt]` and `#[mcp_resource]` end to end: through a `Toolbox` (declared, got, read,
//! completed, refused, mounted) and served over the wire at both protocol generations.
//!
//! One test binary, one module per behaviour; the shared prompts and resources live in
//! `fixtures`.

mod completions;
mod fixtures;
mod prompts;
mod registration;
mod resources;
mod served;
