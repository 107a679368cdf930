//! What each session and the whole server hold against their [`Limits`](super::Limits): tool
//! calls running, client requests waiting, listen streams open; and the count of what was
//! refused.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use rmcp::model::ErrorCode;
use rmcp::service::Peer;
use rmcp::{ErrorData, RoleServer};
use serde_json::json;

use crate::sync::lock;

/// The JSON-RPC error code of a request refused because a limit is reached: `-32029`. The error's
/// `data` names the limit (`{"limit": "max_calls_per_session", "value": 256}`), and the message
/// says what to do.
///
/// ```
/// assert_eq!(mcp_tool_runtime::server::LIMIT_REACHED, -32029);
/// ```
pub const LIMIT_REACHED: i32 = -32029;

/// How many requests a server refused, by the limit that refused them, since it started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Refusals {
    /// Tool calls refused at `max_calls_per_session`.
    pub calls_per_session: u64,
    /// Tool calls refused at `max_calls`.
    pub calls: u64,
    /// Client requests refused at `max_client_requests_per_session`.
    pub client_requests_per_session: u64,
    /// Client requests refused at `max_client_requests`.
    pub client_requests: u64,
    /// Client requests that got no answer within `client_request_timeout`.
    pub client_requests_timed_out: u64,
    /// `subscriptions/listen` streams refused at `max_listen_streams`.
    pub listen_streams: u64,
    /// List-changed notices a client did not accept within `notify_timeout` (the client was
    /// then forgotten).
    pub notices_dropped: u64,
    /// Tasks refused at `max_tasks`.
    pub tasks: u64,
    /// Tasks refused at `max_tasks_per_caller`.
    pub tasks_per_caller: u64,
}

/// What is held now, and what was refused.
#[derive(Default)]
pub(crate) struct Quotas {
    calls: AtomicUsize,
    client_requests: AtomicUsize,
    /// Per session: calls running and client requests waiting, keyed by the session's identity.
    sessions: Mutex<HashMap<usize, Held>>,
    listen_streams: AtomicUsize,
    pub(crate) refused: Counters,
}

#[derive(Default, Clone, Copy)]
struct Held {
    calls: usize,
    client_requests: usize,
}

impl Held {
    fn is_empty(self) -> bool {
        self.calls == 0 && self.client_requests == 0
    }
}

#[derive(Default)]
pub(crate) struct Counters {
    calls_per_session: AtomicU64,
    calls: AtomicU64,
    client_requests_per_session: AtomicU64,
    client_requests: AtomicU64,
    pub(crate) client_requests_timed_out: AtomicU64,
    listen_streams: AtomicU64,
    pub(crate) notices_dropped: AtomicU64,
    pub(crate) tasks: AtomicU64,
    pub(crate) tasks_per_caller: AtomicU64,
}

impl Counters {
    pub(crate) fn snapshot(&self) -> Refusals {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Refusals {
            calls_per_session: get(&self.calls_per_session),
            calls: get(&self.calls),
            client_requests_per_session: get(&self.client_requests_per_session),
            client_requests: get(&self.client_requests),
            client_requests_timed_out: get(&self.client_requests_timed_out),
            listen_streams: get(&self.listen_streams),
            notices_dropped: get(&self.notices_dropped),
            tasks: get(&self.tasks),
            tasks_per_caller: get(&self.tasks_per_caller),
        }
    }
}

pub(crate) fn count(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// A session's identity: the client information rmcp keeps for it (one `Arc` per session, set at
/// `initialize`, alive while any of its requests is). A request without one (2026-07-28, which
/// has no sessions) is held against the server's limits only.
pub(crate) fn session_of(peer: &Peer<RoleServer>) -> Option<usize> {
    peer.peer_info().map(|info| Arc::as_ptr(&info) as usize)
}

/// The JSON-RPC error for a request refused at `limit` (`-32029`, `data` naming it).
pub(crate) fn reached(limit: &'static str, value: usize, what: String) -> ErrorData {
    ErrorData::new(
        ErrorCode(LIMIT_REACHED),
        what,
        Some(json!({ "limit": limit, "value": value })),
    )
}

impl Quotas {
    /// A tool call starting on `peer`'s session: held until the guard drops, or refused when the
    /// session or the server is at its limit.
    pub(crate) fn acquire_call(
        self: &Arc<Self>,
        peer: &Peer<RoleServer>,
        per_session: usize,
        total: usize,
    ) -> Result<CallSlot, ErrorData> {
        let session = session_of(peer);
        if self.calls.fetch_add(1, Ordering::AcqRel) >= total {
            self.calls.fetch_sub(1, Ordering::AcqRel);
            count(&self.refused.calls);
            return Err(reached(
                "max_calls",
                total,
                format!(
                    "the server already has {total} tool calls running (its max_calls); try again when one finishes"
                ),
            ));
        }
        let mut slot = CallSlot {
            quotas: self.clone(),
            session: None,
        };
        if let Some(key) = session {
            let mut sessions = lock(&self.sessions);
            let held = sessions.entry(key).or_default();
            if held.calls >= per_session {
                drop(sessions);
                count(&self.refused.calls_per_session);
                return Err(reached(
                    "max_calls_per_session",
                    per_session,
                    format!(
                        "this session already has {per_session} tool calls running (the server's max_calls_per_session); try again when one finishes"
                    ),
                ));
            }
            held.calls += 1;
            slot.session = Some(key);
        }
        Ok(slot)
    }

    /// A client request waiting on `peer`'s session: held until the guard drops, or the limit
    /// that refused it (counted) when the session or the server is at its limit.
    pub(crate) fn acquire_client_request(
        self: &Arc<Self>,
        peer: &Peer<RoleServer>,
        per_session: usize,
        total: usize,
    ) -> Result<ClientRequestSlot, usize> {
        if self.client_requests.fetch_add(1, Ordering::AcqRel) >= total {
            self.client_requests.fetch_sub(1, Ordering::AcqRel);
            count(&self.refused.client_requests);
            return Err(total);
        }
        let mut slot = ClientRequestSlot {
            quotas: self.clone(),
            session: None,
        };
        let Some(key) = session_of(peer) else {
            return Ok(slot);
        };
        let mut sessions = lock(&self.sessions);
        let held = sessions.entry(key).or_default();
        if held.client_requests >= per_session {
            drop(sessions);
            count(&self.refused.client_requests_per_session);
            return Err(per_session);
        }
        held.client_requests += 1;
        slot.session = Some(key);
        Ok(slot)
    }

    /// A `subscriptions/listen` stream opening: held until the guard drops, or refused at
    /// `total`.
    pub(crate) fn acquire_listen_stream(
        self: &Arc<Self>,
        total: usize,
    ) -> Result<StreamSlot, ErrorData> {
        if self.listen_streams.fetch_add(1, Ordering::AcqRel) >= total {
            self.listen_streams.fetch_sub(1, Ordering::AcqRel);
            count(&self.refused.listen_streams);
            return Err(reached(
                "max_listen_streams",
                total,
                format!(
                    "the server already has {total} subscriptions/listen streams open (its max_listen_streams); close one first"
                ),
            ));
        }
        Ok(StreamSlot(self.clone()))
    }

    fn release(&self, session: Option<usize>, change: impl FnOnce(&mut Held)) {
        let Some(key) = session else { return };
        let mut sessions = lock(&self.sessions);
        if let Some(held) = sessions.get_mut(&key) {
            change(held);
            if held.is_empty() {
                sessions.remove(&key);
            }
        }
    }
}

/// A running tool call, counted until dropped.
pub(crate) struct CallSlot {
    quotas: Arc<Quotas>,
    session: Option<usize>,
}

impl Drop for CallSlot {
    fn drop(&mut self) {
        self.quotas.calls.fetch_sub(1, Ordering::AcqRel);
        self.quotas.release(self.session, |held| {
            held.calls = held.calls.saturating_sub(1)
        });
    }
}

/// A client request waiting on the client, counted until dropped.
pub(crate) struct ClientRequestSlot {
    quotas: Arc<Quotas>,
    session: Option<usize>,
}

impl Drop for ClientRequestSlot {
    fn drop(&mut self) {
        self.quotas.client_requests.fetch_sub(1, Ordering::AcqRel);
        self.quotas.release(self.session, |held| {
            held.client_requests = held.client_requests.saturating_sub(1);
        });
    }
}

/// An open `subscriptions/listen` stream, counted until dropped.
pub(crate) struct StreamSlot(Arc<Quotas>);

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.0.listen_streams.fetch_sub(1, Ordering::AcqRel);
    }
}
