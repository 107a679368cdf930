//! [`Limits`]: the bounds a server keeps so that one client cannot use up what every client
//! shares, each a setting with its default.

use std::time::Duration;

/// The bounds a [`ToolboxServer`](crate::ToolboxServer) keeps, set with
/// [`set_limits`](crate::ToolboxServer::set_limits). Start from [`Limits::default()`] and change
/// the fields you need; every default is documented on its field and suits a server on a
/// network.
///
/// ```
/// use std::time::Duration;
/// use mcp_tool_runtime::server::Limits;
/// use mcp_tool_runtime::{Toolbox, ToolboxServer};
///
/// let mut limits = Limits::default();
/// limits.request_state_ttl = Duration::from_secs(120);
/// limits.max_calls_per_session = 32;
/// let server = ToolboxServer::new(Toolbox::new()).unwrap();
/// server.set_limits(limits);
/// assert_eq!(server.limits().max_calls_per_session, 32);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// How long a sealed `requestState` (MCP 2026-07-28 input-required results) may be answered:
    /// after it, the client is told to call the tool again. Default [`DEFAULT_REQUEST_STATE_TTL`]
    /// (10 minutes); at most [`MAX_REQUEST_STATE_TTL`] (one hour).
    pub request_state_ttl: Duration,
    /// How long a tool waits for the client to answer a request it sent on a 2025 session
    /// (elicitation, sampling, roots); then the tool's `elicit`/`sample`/`list_roots` returns
    /// [`ClientRequestError::TimedOut`](crate::context::ClientRequestError::TimedOut). Default
    /// 60 seconds, like the official TypeScript SDK's request timeout.
    pub client_request_timeout: Duration,
    /// How long one client may take to accept a `notifications/tools/list_changed` before it is
    /// skipped and forgotten (it sees the new list at its next `tools/list`); every client is
    /// told at once, so a client that stopped reading delays no one. Default 5 seconds.
    pub notify_timeout: Duration,
    /// Tool calls one session (or, without sessions, one connection) may have running at once;
    /// one more is refused with a JSON-RPC error. Default 256.
    ///
    /// Every request that runs the server's code or waits on its stores counts as a call here
    /// and in `max_calls` and `max_calls_per_caller` while it is served: `tools/call`,
    /// `prompts/get`, `resources/read`, `completion/complete`, and the tasks extension's
    /// `tasks/get`, `tasks/update` and `tasks/cancel`. Lists are answered from memory at once
    /// and are not counted.
    pub max_calls_per_session: usize,
    /// Tool calls the whole server may have running at once; one more is refused with a
    /// JSON-RPC error. Default 4,096.
    pub max_calls: usize,
    /// Tool calls one caller may have running at once, whatever its sessions: a verified
    /// caller (its issuer and subject, all its clients together), or every request without one
    /// and without a session, together (stateless HTTP without authorization names no one the
    /// server can tell apart). One more is refused with a JSON-RPC error (`-32029`, naming it).
    /// Default 64: 1/64 of `max_calls`, so one caller holding all of its share leaves the rest
    /// to others.
    pub max_calls_per_caller: usize,
    /// Client requests (elicitation, sampling, roots) one session may have waiting on the
    /// client at once; one more fails in the tool with
    /// [`ClientRequestError::TooMany`](crate::context::ClientRequestError::TooMany). Default 16.
    pub max_client_requests_per_session: usize,
    /// Client requests the whole server may have waiting on clients at once; one more fails in
    /// the tool with [`ClientRequestError::TooMany`](crate::context::ClientRequestError::TooMany).
    /// Default 1,024.
    pub max_client_requests: usize,
    /// Client requests one caller (as for `max_calls_per_caller`) may have waiting at once; one
    /// more fails in the tool with
    /// [`ClientRequestError::TooMany`](crate::context::ClientRequestError::TooMany). Default 32.
    pub max_client_requests_per_caller: usize,
    /// `subscriptions/listen` streams (MCP 2026-07-28) the whole server keeps open at once;
    /// one more is refused with a JSON-RPC error. Default 1,024.
    pub max_listen_streams: usize,
    /// `subscriptions/listen` streams one caller (as for `max_calls_per_caller`) keeps open at
    /// once; one more is refused with a JSON-RPC error (`-32029`, naming it). Default 16.
    pub max_listen_streams_per_caller: usize,
    /// Resources one 2025 session may be subscribed to at once (`resources/subscribe`); one
    /// more is refused with a JSON-RPC error (`-32029`, naming it). At 2026-07-28 a
    /// `subscriptions/listen` stream names its resources, and streams are bounded per caller.
    /// Default 64.
    pub max_resource_subscriptions_per_session: usize,
    /// Tasks (the tasks extension) the server keeps at once, running or finished and readable
    /// until their TTL; one more call that would start one is refused with a JSON-RPC error.
    /// Default 1,024.
    pub max_tasks: usize,
    /// Tasks one caller may have kept at once: a verified user (its issuer and subject, all its
    /// clients together), or every `Authorization` credential the server did not verify,
    /// together (a client sending a new one with each call is not a new caller). One more is
    /// refused with a JSON-RPC error, so no caller takes every place. Callers with no credential
    /// at all (stdio) are bounded by `max_tasks` only. Default 64.
    pub max_tasks_per_caller: usize,
    /// A task's `ttlMs`: how long it may run (then it ends `failed`, saying so), and how long its
    /// result stays readable after it ends (then `tasks/get` answers that it is unknown).
    /// Default 5 minutes.
    pub task_ttl: Duration,
    /// How often a client is told to poll a task (`pollIntervalMs`). Default 1 second.
    pub task_poll_interval: Duration,
    /// How long a replica's claim on the tasks it runs lasts without being renewed (it is
    /// renewed every third of it while the server lives). When it lapses (the process died, or
    /// lost the task store), any replica answers its unfinished tasks `failed`. Default 15
    /// seconds.
    pub task_lease: Duration,
    /// How long `tasks/update` waits for the replica running the task to write that the
    /// answers were taken, so that the next `tasks/get`, on any replica, no longer lists the
    /// questions answered (or lists one the tool asked again); then it is acknowledged anyway
    /// (the store is away). The wait polls the task store, 1 ms apart at first, then up to 50 ms
    /// apart, and ends at the first write of the task after the answers were sent. Zero
    /// acknowledges at once: a `tasks/get` that follows may still list them. Default 2 seconds.
    pub task_update_wait: Duration,
    /// The largest task result (its JSON, in bytes) a task store keeps; a larger one ends the
    /// task `failed`, saying so. Default 4 MiB.
    pub max_task_result_bytes: usize,
}

/// How long a sealed `requestState` may be answered by default: 10 minutes.
pub const DEFAULT_REQUEST_STATE_TTL: Duration = Duration::from_secs(600);

/// The longest a `requestState` may be answered: one hour. A longer
/// [`Limits::request_state_ttl`] is refused by [`ToolboxServer::set_limits`](crate::ToolboxServer::set_limits).
pub const MAX_REQUEST_STATE_TTL: Duration = Duration::from_secs(3600);

impl Default for Limits {
    fn default() -> Self {
        Limits {
            request_state_ttl: DEFAULT_REQUEST_STATE_TTL,
            client_request_timeout: Duration::from_secs(60),
            notify_timeout: Duration::from_secs(5),
            max_calls_per_session: 256,
            max_calls: 4096,
            max_calls_per_caller: 64,
            max_client_requests_per_session: 16,
            max_client_requests: 1024,
            max_client_requests_per_caller: 32,
            max_listen_streams: 1024,
            max_listen_streams_per_caller: 16,
            max_resource_subscriptions_per_session: 64,
            max_tasks: 1024,
            max_tasks_per_caller: 64,
            task_ttl: Duration::from_secs(300),
            task_poll_interval: Duration::from_secs(1),
            task_lease: Duration::from_secs(15),
            task_update_wait: Duration::from_secs(2),
            max_task_result_bytes: 4 << 20,
        }
    }
}

/// Why [`ToolboxServer::set_limits`](crate::ToolboxServer::set_limits) refused limits; the
/// limits in force are unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LimitsError {
    /// `request_state_ttl` is zero or over [`MAX_REQUEST_STATE_TTL`].
    #[error("request_state_ttl must be over zero and at most one hour; got {0:?}")]
    RequestStateTtl(Duration),
    /// A count or a timeout is zero, which would refuse everything.
    #[error("`{0}` must be over zero")]
    Zero(&'static str),
}

impl Limits {
    pub(crate) fn check(&self) -> Result<(), LimitsError> {
        if self.request_state_ttl.is_zero() || self.request_state_ttl > MAX_REQUEST_STATE_TTL {
            return Err(LimitsError::RequestStateTtl(self.request_state_ttl));
        }
        for (name, zero) in [
            (
                "client_request_timeout",
                self.client_request_timeout.is_zero(),
            ),
            ("notify_timeout", self.notify_timeout.is_zero()),
            ("max_calls_per_session", self.max_calls_per_session == 0),
            ("max_calls", self.max_calls == 0),
            ("max_calls_per_caller", self.max_calls_per_caller == 0),
            (
                "max_client_requests_per_caller",
                self.max_client_requests_per_caller == 0,
            ),
            (
                "max_listen_streams_per_caller",
                self.max_listen_streams_per_caller == 0,
            ),
            (
                "max_client_requests_per_session",
                self.max_client_requests_per_session == 0,
            ),
            ("max_client_requests", self.max_client_requests == 0),
            ("max_listen_streams", self.max_listen_streams == 0),
            (
                "max_resource_subscriptions_per_session",
                self.max_resource_subscriptions_per_session == 0,
            ),
            ("max_tasks", self.max_tasks == 0),
            ("max_tasks_per_caller", self.max_tasks_per_caller == 0),
            ("task_ttl", self.task_ttl.is_zero()),
            ("task_poll_interval", self.task_poll_interval.is_zero()),
            ("task_lease", self.task_lease.is_zero()),
            ("max_task_result_bytes", self.max_task_result_bytes == 0),
        ] {
            if zero {
                return Err(LimitsError::Zero(name));
            }
        }
        Ok(())
    }
}
