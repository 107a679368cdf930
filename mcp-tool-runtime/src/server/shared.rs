//! What every session of one server shares: the tools, the server's introduction, the
//! `tools/list` caching hints, the seal of `requestState`, who to tell of changes, and the
//! sessions' log levels.

use std::sync::{Arc, Mutex, RwLock};

use rmcp::model::{CacheScope, ServerConfig};

use super::changes::Changes;
use super::convert::Snapshot;
use super::input::Seal;
use super::levels::LogLevels;
use crate::sync::read;

pub(crate) struct Shared {
    pub(crate) snapshot: RwLock<Arc<Snapshot>>,
    pub(crate) info: ServerConfig,
    pub(crate) cache: Mutex<CacheHints>,
    pub(crate) seal: Seal,
    pub(crate) changes: Changes,
    pub(crate) log_levels: Arc<LogLevels>,
}

impl Shared {
    /// The tools being served now.
    pub(crate) fn snapshot(&self) -> Arc<Snapshot> {
        read(&self.snapshot).clone()
    }
}

/// The `tools/list` caching hints of MCP 2026-07-28 (`ttlMs`, `cacheScope`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CacheHints {
    pub(crate) ttl_ms: u64,
    pub(crate) scope: CacheScope,
}
