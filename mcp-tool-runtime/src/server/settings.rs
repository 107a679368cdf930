//! [`ToolboxServer`]'s settings: its limits, caching hints, `requestState` key, task store and
//! metrics, and what it reports of them (the limits in force, the refusals, the tasks running).

use std::sync::Arc;

use rmcp::model::{CacheScope, RequestStateError};

use super::handler::ToolboxServer;
use super::limits::{Limits, LimitsError};
use super::quota::Refusals;
use super::shared::CacheHints;
use super::tasks::TaskStore;
use crate::sync::{lock, write};

impl ToolboxServer {
    /// Sets the `tools/list` caching hints (MCP 2026-07-28): how long a client may treat the list
    /// as fresh, and who may cache it. By default
    /// [`DEFAULT_TOOLS_TTL_MS`](super::DEFAULT_TOOLS_TTL_MS) and `public` (every client is
    /// served the same list). Clients of 2025 protocol versions are sent no hints.
    ///
    /// ```
    /// use mcp_tool_runtime::{Toolbox, ToolboxServer};
    /// use mcp_tool_runtime::rmcp::model::CacheScope;
    ///
    /// let server = ToolboxServer::new(Toolbox::new()).unwrap();
    /// server.set_cache_hints(0, CacheScope::Private);
    /// ```
    pub fn set_cache_hints(&self, ttl_ms: u64, scope: CacheScope) -> &Self {
        *lock(&self.shared.cache) = CacheHints { ttl_ms, scope };
        self
    }

    /// Uses `key` (at least 32 bytes) to seal the `requestState` of input-required results, so
    /// that servers behind one address accept each other's state. By default each server makes a
    /// random key when it starts. Applies to every clone of this server.
    ///
    /// ```
    /// use mcp_tool_runtime::{Toolbox, ToolboxServer};
    ///
    /// let server = ToolboxServer::new(Toolbox::new()).unwrap();
    /// server.set_request_state_key(b"a key of at least thirty-two bytes, shared by the servers").unwrap();
    /// assert!(server.set_request_state_key(b"short").is_err());
    /// ```
    ///
    /// # Errors
    /// A key shorter than 32 bytes; the key in use is unchanged.
    pub fn set_request_state_key(&self, key: &[u8]) -> Result<&Self, RequestStateError> {
        self.shared.seal.set_key(key)?;
        Ok(self)
    }

    /// Sets the bounds this server keeps (every clone of it): how long a `requestState` may be
    /// answered, how long a tool waits on the client, how many calls and streams a session and
    /// the server may have. Each field of [`Limits`] documents its default; the
    /// [reliability guide](crate::guide::reliability) says what each protects.
    ///
    /// # Errors
    /// A zero count or timeout, or a `requestState` TTL over an hour; the limits in force are
    /// unchanged.
    pub fn set_limits(&self, limits: Limits) -> Result<&Self, LimitsError> {
        limits.check()?;
        self.shared.seal.set_ttl(limits.request_state_ttl);
        self.shared.tasks.set_lease(limits.task_lease);
        *write(&self.shared.limits) = limits;
        Ok(self)
    }

    /// Whether `tools/list` shows a verified caller only the tools its token's scopes allow it to
    /// call (off by default: every caller sees every tool, and a call without the scopes is
    /// refused). When on, the list is private to each caller: at 2026-07-28 its `cacheScope`
    /// says so. Applies to every clone of this server. See [`auth`](crate::auth).
    pub fn set_list_by_scope(&self, on: bool) -> &Self {
        self.shared
            .list_by_scope
            .store(on, std::sync::atomic::Ordering::Relaxed);
        self
    }

    /// Records call metrics with `meter` (feature `otel`): `mcp.tool.calls` (by tool and
    /// outcome), `mcp.tool.errors` and the `mcp.tool.duration` histogram (seconds), each with
    /// the tool's name as `gen_ai.tool.name`; a call that names no registered tool is counted
    /// without one (a made-up name never becomes a label, whose every value is a series the
    /// backend keeps). Without it, the global meter provider's meter is
    /// used, taken when the first call is recorded (so set the provider before serving).
    /// Returns false, changing nothing, once calls have been recorded.
    #[cfg(feature = "otel")]
    #[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
    pub fn set_meter(&self, meter: &opentelemetry::metrics::Meter) -> bool {
        self.shared.metrics.set_meter(meter)
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.shared.limits()
    }

    /// How many requests this server (every clone of it) refused since it started, by the
    /// limit that refused them.
    pub fn refusals(&self) -> Refusals {
        self.shared.quotas.refused.snapshot()
    }

    /// How many tasks (the tasks extension) run on this server now, every clone's.
    pub fn running_tasks(&self) -> usize {
        self.shared.tasks.running()
    }

    /// Waits until no task runs on this server, or `within` has passed; answers how many still
    /// run then. For a graceful shutdown (which
    /// [`ServeOptions::drain_tasks`](crate::transport::http::ServeOptions::drain_tasks) does):
    /// the tasks that end meanwhile are written to the store; those that do not end `failed`
    /// once this replica's lease lapses, as for a replica that died.
    pub async fn wait_for_tasks(&self, within: std::time::Duration) -> usize {
        self.shared.tasks.drain(within).await
    }

    /// Keeps this server's tasks (every clone's) in `store`, rather than in this process's
    /// memory ([`MemoryTaskStore`](crate::server::tasks::MemoryTaskStore), the default). Replicas
    /// given stores on the same backing (one Redis, with
    /// [`RedisTaskStore`](crate::server::tasks::RedisTaskStore)) answer for each other's tasks;
    /// see [`tasks`](crate::server::tasks). Set it before serving: tasks already kept stay in the
    /// store they were created in, unreachable from this server.
    ///
    /// ```
    /// use mcp_tool_runtime::server::tasks::MemoryTaskStore;
    /// use mcp_tool_runtime::{Toolbox, ToolboxServer};
    ///
    /// // Two servers sharing one store: either answers for the other's tasks.
    /// let store = MemoryTaskStore::new();
    /// let one = ToolboxServer::new(Toolbox::new()).unwrap();
    /// let two = ToolboxServer::new(Toolbox::new()).unwrap();
    /// one.set_task_store(store.clone());
    /// two.set_task_store(store);
    /// ```
    pub fn set_task_store(&self, store: impl TaskStore) -> &Self {
        self.shared.tasks.set_store(Arc::new(store));
        self
    }
}
