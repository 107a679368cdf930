//! `#[mcp_tool]` end to end through a `Toolbox`: every form, every flag, every bad argument.
//!
//! One test binary, one module per behaviour; the shared tools live in `fixtures`.

mod arguments;
mod call;
mod ceiling;
mod declare;
mod fixtures;
mod layers;
mod mount;
mod registration;
mod rules;
mod self_check;
mod strict;
mod versions;
