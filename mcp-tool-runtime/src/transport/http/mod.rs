//! Streamable HTTP that answers every request (feature `http`): [`HttpGuard`] in front of rmcp's
//! Streamable HTTP service, [`BoundedSessions`] bounding its sessions, and [`serve`], which
//! serves it until a shutdown signal, gracefully.
//!
//! rmcp answers a body it cannot read (malformed, nested past serde_json's limit) with HTTP 415
//! and a plain-text body, and a body over its limit with 413 while the client is still
//! uploading; the official SDKs report both as a generic transport failure. `HttpGuard` wraps
//! rmcp's `StreamableHttpService`: it reads each POST body itself (the whole upload, so the
//! client is never cut off mid-request, keeping no more than the limit), and answers what rmcp
//! would not read with a JSON-RPC error (`-32700` or `-32600`) carrying the request's `id` when
//! one is readable, with HTTP 200, so the client's pending request fails with that error. Every
//! other request goes to rmcp as it came.
//!
//! One concept a file:
//! - `guard`: [`HttpGuard`], its settings, and what it refuses;
//! - `body`: reading a body whole within a limit, and the responses the guard answers with;
//! - `outline`: what the guard reads of a body (method, id, tool), or the reply refusing it;
//! - `inflight`: the request body bytes the guard holds at once, each sender's share and all;
//! - `refusals`: [`HttpRefusals`], what the guard refused, by limit;
//! - `gate`: the hook a layer in front leaves for the guard (the per-tool scope check);
//! - `sessions`: [`BoundedSessions`], rmcp's session manager with a bound;
//! - `shared`: [`SharedRmcp`], rmcp's service shared by the requests rather than cloned;
//! - `answering`: the requests each of [`BoundedSessions`]' sessions is answering: an id in use
//!   refused, a request whose client hung up cancelled;
//! - `abandon`: cancelling a 2025 call whose client hung up, on sessions of another manager;
//! - `held`: a streamed reply's head held until its stream ends, briefly, for one write;
//! - `serve`: [`serve`], connections with deadlines, bounds and a graceful shutdown;
//! - `deadlines`: the coarse clock of `serve`'s header deadlines;
//! - `peers`: each peer's share of `serve`'s connections, and the answer past it;
//! - `proxied`: the PROXY protocol header a trusted proxy starts a connection with;
//! - `connections`: [`ConnectionCounts`], the connections `serve` has open and has refused;
//! - `tally`: what each key holds of a bounded share (peers' connections, senders' bytes).

mod abandon;
mod answering;
pub(crate) mod body;
mod connections;
mod deadlines;
pub(crate) mod gate;
mod guard;
mod held;
mod inflight;
mod opener;
mod outline;
mod peers;
mod proxied;
mod refusals;
mod serve;
mod sessions;
mod shared;
mod tally;

pub use connections::ConnectionCounts;
pub use guard::{DEFAULT_BODY_TIMEOUT, DEFAULT_MAX_BODY_BYTES, DEFAULT_REPLY_HOLD, HttpGuard};
pub use inflight::{DEFAULT_MAX_BODY_BYTES_IN_FLIGHT, DEFAULT_MAX_BODY_BYTES_PER_SENDER};
/// The networks [`ServeOptions::proxies`] trusts (the `ipnet` crate's type): an address
/// (`IpNet::from(addr)`) or a network (`"10.1.0.0/24".parse()`).
pub use ipnet::IpNet;
pub use refusals::HttpRefusals;
pub use serve::{
    DEFAULT_GRACE, DEFAULT_HEADER_READ_TIMEOUT, DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_CONNECTIONS_PER_PEER, ServeOptions, Stopped, serve,
};
pub use sessions::{
    BoundedSessions, BoundedSessionsError, DEFAULT_MAX_SESSIONS, DEFAULT_MAX_SESSIONS_PER_CALLER,
};
pub use shared::SharedRmcp;
