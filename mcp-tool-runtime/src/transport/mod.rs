//! Transports that answer every request (feature `rmcp`): rmcp's own drop a message they cannot
//! read, or answer it with a bare HTTP status, and the client waits or reports a generic failure.
//!
//! - [`stdio`] and [`LineTransport`]: newline-delimited JSON-RPC, as rmcp's `stdio()` frames it;
//! - [`HttpGuard`] (feature `http`): in front of rmcp's Streamable HTTP service, with a body
//!   limit; [`http::serve`] serves it until a shutdown signal, gracefully.
//!
//! Both answer what cannot be read as JSON-RPC 2.0 asks, `-32700` (parse error) or `-32600`
//! (invalid request), with the request's `id` whenever one can be found.

mod budget;
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub mod http;
pub mod line;
mod reply;
#[cfg(feature = "http")]
mod skim;

pub use budget::DEFAULT_MAX_ELEMENTS;
#[cfg(feature = "http")]
pub use http::HttpGuard;
pub use line::{DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_QUEUED_MESSAGES, LineTransport, stdio};
