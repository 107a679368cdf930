//! What every session of one server shares: the tools, the server's introduction, the
//! `tools/list` caching hints, the seal of `requestState`, who to tell of changes, the
//! sessions' log levels, and the limits.

use std::sync::{Arc, Mutex, RwLock};

use rmcp::model::{CacheScope, ServerConfig};

use super::changes::Changes;
use super::convert::Snapshot;
use super::input::Seal;
use super::levels::LogLevels;
use super::limits::Limits;
use super::quota::Quotas;
use crate::sync::read;

pub(crate) struct Shared {
    pub(crate) snapshot: RwLock<Arc<Snapshot>>,
    pub(crate) info: ServerConfig,
    pub(crate) cache: Mutex<CacheHints>,
    pub(crate) seal: Seal,
    pub(crate) changes: Changes,
    pub(crate) log_levels: Arc<LogLevels>,
    pub(crate) limits: RwLock<Limits>,
    pub(crate) quotas: Arc<Quotas>,
    /// `tools/list` shows a verified caller only the tools its scopes allow.
    pub(crate) list_by_scope: std::sync::atomic::AtomicBool,
    /// Call metrics (feature `otel`).
    pub(crate) metrics: super::telemetry::Metrics,
    /// Tools running as tasks.
    pub(crate) tasks: super::tasks::Tasks,
}

impl Shared {
    /// The tools being served now.
    pub(crate) fn snapshot(&self) -> Arc<Snapshot> {
        read(&self.snapshot).clone()
    }

    /// The limits in force now.
    pub(crate) fn limits(&self) -> Limits {
        read(&self.limits).clone()
    }
}

/// The `tools/list` caching hints of MCP 2026-07-28 (`ttlMs`, `cacheScope`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CacheHints {
    pub(crate) ttl_ms: u64,
    pub(crate) scope: CacheScope,
}
