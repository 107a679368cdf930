//! The hook a layer in front of [`HttpGuard`](super::HttpGuard) leaves in a request, for the
//! guard to run once it has read which tool a `tools/call` names: the resource server's per-tool
//! scope check (feature `auth`), without the guard knowing of authorization.

use std::sync::Arc;

use super::body::HttpResponse;

/// A check of the tool a request's `tools/call` names.
pub(crate) trait ToolGate: Send + Sync {
    /// The response refusing the request `parts` whose `tools/call` names `tool`, if refused.
    fn refuse(&self, parts: &http::request::Parts, tool: &str) -> Option<HttpResponse>;
}

/// A [`ToolGate`] as it rides in a request's extensions.
#[derive(Clone)]
pub(crate) struct Gate(pub(crate) Arc<dyn ToolGate>);
