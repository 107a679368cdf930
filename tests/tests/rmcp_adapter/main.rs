//! The rmcp adapter: conversions that lose nothing, and raw JSON-RPC lines through rmcp's own
//! transport, as a client sends them.
//!
//! One test binary, one module per behaviour; the tools the wire tests serve live in `fixtures`.

mod body_budget;
mod cancel;
mod changes;
mod connections;
mod context;
mod convert;
mod fixtures;
mod header_deadline;
mod headers;
mod held;
mod input_required;
mod keep_alive;
mod malformed;
mod shutdown;
mod tasks;
mod version_2026;
