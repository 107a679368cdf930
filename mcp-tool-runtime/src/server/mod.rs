//! Serving a [`Toolbox`](crate::Toolbox) with the official Rust MCP SDK, `rmcp` (feature `rmcp`).
//!
//! [`ToolboxServer`] is an rmcp `ServerHandler`: `tools/list` and `tools/call` are answered from
//! the toolbox, over any rmcp transport (this crate's [`transport`](crate::transport)s, or
//! rmcp's own). [`ToolboxServer::merge`] serves the tools beside an rmcp handler of your own.
//! This crate writes no JSON-RPC of its own.
//!
//! One concept a file:
//! - `handler`: [`ToolboxServer`] and its `ServerHandler` methods;
//! - `settings`: [`ToolboxServer`]'s settings, and what it reports of them;
//! - `compose`: [`Merged`], the tools beside a handler of your own;
//! - `shared`: what every session of one server shares;
//! - `convert`: the toolbox in rmcp's model, and results handed to rmcp by moving them;
//! - `request`: one reading of a request (its version, the verified caller, the key binding
//!   state and tasks to that caller), made once where a call enters;
//! - `call`: serving `tools/call`, a dispatcher to one function per kind of call;
//! - `capabilities`: what the server declares, from its toolbox;
//! - `catalog`: serving prompts, resources, completions and resource subscriptions;
//! - `errors`: the JSON-RPC errors around a call (unknown tool, missing capability, cancelled);
//! - `live`: the call context's channel to the client;
//! - `input`: input-required results and the sealed `requestState` (2026-07-28);
//! - `changes`: telling clients the tools, prompts or resources changed, or a resource was
//!   updated ([`UpdateError`]);
//! - `levels`: log levels per session and per request;
//! - `limits`: the bounds a server keeps ([`Limits`]);
//! - `quota`: what sessions and the server hold against them ([`Refusals`]);
//! - [`tasks`]: tools as tasks, and the [`TaskStore`](tasks::TaskStore) they are kept in;
//! - `telemetry`: each served call's span and metrics.

// rmcp 3.11 marks logging, sampling and roots deprecated (SEP-2577, a proposal): they are in
// every released MCP version, the conformance suite tests them, and tools use them.
#![allow(deprecated)]

mod call;
mod capabilities;
mod catalog;
mod changes;
mod compose;
mod convert;
mod errors;
mod handler;
mod input;
mod levels;
mod limits;
mod live;
mod quota;
mod request;
mod settings;
mod shared;
pub mod tasks;
mod telemetry;

pub use changes::UpdateError;
pub use compose::Merged;
pub use convert::{ServeError, to_rmcp_result};
pub use handler::{DEFAULT_TOOLS_TTL_MS, ToolboxServer};
pub use limits::{DEFAULT_REQUEST_STATE_TTL, Limits, LimitsError, MAX_REQUEST_STATE_TTL};
#[cfg(feature = "http")]
pub(crate) use quota::{Holder, reached};
pub use quota::{LIMIT_REACHED, Refusals};
#[cfg(feature = "http")]
pub(crate) use request::CallerKey;
