//! The port a [`ToolContext`](super::ToolContext) talks through: the rmcp peer of a served call,
//! a [`Recording`](super::Recording) in tests, or nothing (a detached context).

use std::sync::Arc;

use futures_util::future::BoxFuture;
use serde_json::{Map, Value};

use super::client::{Capability, ClientRequest, ClientRequestError};
use super::level::LogLevel;
use crate::auth::Caller;

/// What the request being served says about itself.
#[derive(Debug, Clone, Default)]
pub(crate) struct RequestInfo {
    pub id: Option<Value>,
    pub meta: Map<String, Value>,
    pub protocol_version: Option<String>,
    pub client_capabilities: Option<Map<String, Value>>,
    pub caller: Option<Arc<Caller>>,
}

/// Where a context's notifications and requests go: the rmcp peer, a recording, or nowhere.
pub(crate) trait Channel: Send + Sync {
    /// What the request says about itself, read when a tool first asks.
    fn request_info(&self) -> RequestInfo {
        RequestInfo::default()
    }
    /// The protocol version the client speaks, without reading the whole request (every call
    /// asks, to build its result as that version is served).
    fn protocol_version(&self) -> Option<&str> {
        None
    }
    fn progress(
        &self,
        token: Value,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> BoxFuture<'_, ()>;
    /// The least severe level the client wants, `None` (the default) for every level.
    fn min_level(&self) -> Option<LogLevel> {
        None
    }
    /// Whether the client wants log lines at all (a 2026-07-28 request wants none unless it
    /// names a level).
    fn wants_logs(&self) -> bool {
        true
    }
    /// Whether progress is reported without a `progressToken` (a task's status message is).
    fn reports_progress_without_token(&self) -> bool {
        false
    }
    /// The tool panicked with `message` (its result is an `isError` result saying so).
    fn panicked(&self, message: &str) {
        let _ = message;
    }
    /// The tool was refused a request because the client did not declare `capability`.
    fn not_supported(&self, capability: Capability) {
        let _ = capability;
    }
    fn log(&self, level: LogLevel, data: Value) -> BoxFuture<'_, ()>;
    fn request(
        &self,
        key: String,
        request: ClientRequest,
    ) -> BoxFuture<'_, Result<Value, ClientRequestError>>;
    fn is_cancelled(&self) -> bool;
    fn cancelled(&self) -> BoxFuture<'_, ()>;
    /// The tool asks that its call become a task here (`ToolContext::escalate`): only an
    /// escalating call's channel does anything.
    fn escalate(&self) -> BoxFuture<'_, ()> {
        Box::pin(std::future::ready(()))
    }
}
