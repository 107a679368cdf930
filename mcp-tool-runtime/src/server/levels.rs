//! Log levels: the one a client set for its session with `logging/setLevel` (2025-x), or the
//! one a request carries in `_meta` (2026-07-28).

use std::sync::{Arc, Mutex, Weak};

use rmcp::RoleServer;
use rmcp::model::{ClientInfo, LoggingLevel};
use rmcp::service::Peer;

use crate::context::LogLevel;
use crate::sync::lock;

/// The log levels clients set with `logging/setLevel`, one per session. A session is known by
/// the client information rmcp keeps for it (one `Arc` per session, set at `initialize`), held
/// weakly: a level dies with its session, and a new session at a reused address is not mistaken
/// for the old one.
#[derive(Default)]
pub(crate) struct LogLevels(Mutex<Vec<(Weak<ClientInfo>, LogLevel)>>);

impl LogLevels {
    pub(crate) fn set(&self, peer: &Peer<RoleServer>, level: LoggingLevel) {
        let Some(info) = peer.peer_info() else {
            return;
        };
        let mut levels = lock(&self.0);
        levels.retain(|(session, _)| {
            session.strong_count() > 0 && !session.ptr_eq(&Arc::downgrade(&info))
        });
        levels.push((Arc::downgrade(&info), level_of(level)));
    }

    pub(crate) fn get(&self, peer: &Peer<RoleServer>) -> Option<LogLevel> {
        let info = Arc::downgrade(&peer.peer_info()?);
        lock(&self.0)
            .iter()
            .find(|(session, _)| session.ptr_eq(&info))
            .map(|(_, level)| *level)
    }
}

/// rmcp's level as the context's.
pub(crate) fn level_of(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}
