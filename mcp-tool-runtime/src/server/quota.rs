//! What each caller, each session and the whole server hold against their
//! [`Limits`](super::Limits): tool calls running, client requests waiting, listen streams open;
//! and the count of what was refused.

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
    /// Tool calls (and the requests counted as calls: see
    /// [`Limits::max_calls_per_session`](super::Limits::max_calls_per_session)) refused at
    /// `max_calls_per_session`.
    pub calls_per_session: u64,
    /// Tool calls (and the requests counted as calls) refused at `max_calls`.
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
    /// Tool calls (and the requests counted as calls) refused at `max_calls_per_caller`.
    pub calls_per_caller: u64,
    /// Client requests refused at `max_client_requests_per_caller`.
    pub client_requests_per_caller: u64,
    /// `subscriptions/listen` streams refused at `max_listen_streams_per_caller`.
    pub listen_streams_per_caller: u64,
    /// `resources/subscribe` requests refused at `max_resource_subscriptions_per_session`.
    pub subscriptions: u64,
}

/// What is held now, and what was refused.
#[derive(Default)]
pub(crate) struct Quotas {
    calls: AtomicUsize,
    client_requests: AtomicUsize,
    /// Per session: calls running and client requests waiting, keyed by the session's identity.
    sessions: Mutex<BySession<Held>>,
    listen_streams: AtomicUsize,
    /// Per caller: what each holds now, while it holds anything (so as many entries at most as
    /// things held: the map cannot grow with identities a client makes up).
    callers: Mutex<HashMap<Holder, ByCaller>>,
    pub(crate) refused: Counters,
}

/// Whose share a request is held against: a verified caller, by its issuer and subject (its
/// clients together, so one user's several client ids are one share), or, for requests with no
/// verified caller and no session (stateless HTTP), all of them together: what an unverified
/// client sends names no one the server can tell apart. Requests with no verified caller on a
/// 2025 session are held against the session's limits.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) enum Holder {
    /// A verified caller: its issuer and subject, each length-prefixed.
    Verified(Box<[u8]>),
    /// Every request without a verified caller and without a session.
    Unverified,
}

impl Holder {
    /// The share of a request from `caller` (`on_session`: it came on a 2025 session).
    pub(crate) fn of(caller: Option<&crate::auth::Caller>, on_session: bool) -> Option<Holder> {
        if let Some(caller) = caller
            && let Some(subject) = caller.subject()
        {
            let key = super::request::verified_identity(caller, &[subject]);
            return Some(Holder::Verified(key.into()));
        }
        (!on_session).then_some(Holder::Unverified)
    }
}

#[derive(Default, Clone, Copy)]
struct ByCaller {
    calls: usize,
    client_requests: usize,
    listen_streams: usize,
}

impl ByCaller {
    fn is_empty(self) -> bool {
        self.calls == 0 && self.client_requests == 0 && self.listen_streams == 0
    }
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
    calls_per_caller: AtomicU64,
    client_requests_per_caller: AtomicU64,
    listen_streams_per_caller: AtomicU64,
    pub(crate) subscriptions: AtomicU64,
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
            calls_per_caller: get(&self.calls_per_caller),
            client_requests_per_caller: get(&self.client_requests_per_caller),
            listen_streams_per_caller: get(&self.listen_streams_per_caller),
            subscriptions: get(&self.subscriptions),
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

/// A map keyed by a session's identity ([`session_of`]). The key is an address the server's
/// allocator chose, never a value a client sends, so the map needs no defence against chosen
/// keys: it hashes with Fx (a multiply), not SipHash (about 560 instructions less per 2025
/// call, BENCHMARKS.md).
pub(crate) type BySession<V> = HashMap<usize, V, rustc_hash::FxBuildHasher>;

/// The JSON-RPC error for a request refused at `limit` (`-32029`, `data` naming it).
pub(crate) fn reached(limit: &'static str, value: usize, what: String) -> ErrorData {
    ErrorData::new(
        ErrorCode(LIMIT_REACHED),
        what,
        Some(json!({ "limit": limit, "value": value })),
    )
}

impl Quotas {
    /// Takes one of `pick`'s count in `holder`'s share, unless it already holds `limit`.
    fn take_share(
        &self,
        holder: &Holder,
        limit: usize,
        pick: impl Fn(&mut ByCaller) -> &mut usize,
    ) -> bool {
        let mut callers = lock(&self.callers);
        let held = callers.entry(holder.clone()).or_default();
        if *pick(held) >= limit {
            if held.is_empty() {
                callers.remove(holder);
            }
            return false;
        }
        *pick(held) += 1;
        true
    }

    /// Gives back one of `pick`'s count in `holder`'s share.
    fn give_share(&self, holder: &Holder, pick: impl Fn(&mut ByCaller) -> &mut usize) {
        let mut callers = lock(&self.callers);
        if let Some(held) = callers.get_mut(holder) {
            let count = pick(held);
            *count = count.saturating_sub(1);
            if held.is_empty() {
                callers.remove(holder);
            }
        }
    }

    /// A place among the calls running, for a request from `caller` (its verified caller, if
    /// any) on `peer`'s session: held until the slot drops, or refused when the server, the
    /// caller's share or the session is at its limit. Tool calls, prompt gets, resource reads,
    /// completions and the tasks methods (`tasks/get`, `tasks/update`, `tasks/cancel`, which
    /// read the task store and may wait on it) each hold one while they are served.
    pub(crate) fn acquire_call(
        self: &Arc<Self>,
        peer: &Peer<RoleServer>,
        caller: Option<&crate::auth::Caller>,
        limits: &super::Limits,
    ) -> Result<CallSlot, ErrorData> {
        let session = session_of(peer);
        let holder = Holder::of(caller, session.is_some());
        let holder = holder.as_ref();
        let (per_session, per_caller, total) = (
            limits.max_calls_per_session,
            limits.max_calls_per_caller,
            limits.max_calls,
        );
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
        // From here, dropping the slot gives back what it took.
        let mut slot = CallSlot {
            quotas: self.clone(),
            session: None,
            holder: None,
        };
        if let Some(holder) = holder {
            if !self.take_share(holder, per_caller, |h| &mut h.calls) {
                count(&self.refused.calls_per_caller);
                return Err(reached(
                    "max_calls_per_caller",
                    per_caller,
                    format!(
                        "this caller already has {per_caller} tool calls running (the server's max_calls_per_caller); try again when one finishes"
                    ),
                ));
            }
            slot.holder = Some(holder.clone());
        }
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

    /// A client request waiting on `peer`'s session for `holder`: held until the guard drops,
    /// or the limit that refused it (counted) when the server, the caller's share or the session
    /// is at its limit.
    pub(crate) fn acquire_client_request(
        self: &Arc<Self>,
        peer: &Peer<RoleServer>,
        holder: Option<&Holder>,
        limits: &super::Limits,
    ) -> Result<ClientRequestSlot, (&'static str, usize)> {
        let (per_session, per_caller, total) = (
            limits.max_client_requests_per_session,
            limits.max_client_requests_per_caller,
            limits.max_client_requests,
        );
        if self.client_requests.fetch_add(1, Ordering::AcqRel) >= total {
            self.client_requests.fetch_sub(1, Ordering::AcqRel);
            count(&self.refused.client_requests);
            return Err(("max_client_requests", total));
        }
        let mut slot = ClientRequestSlot {
            quotas: self.clone(),
            session: None,
            holder: None,
        };
        if let Some(holder) = holder {
            if !self.take_share(holder, per_caller, |h| &mut h.client_requests) {
                count(&self.refused.client_requests_per_caller);
                return Err(("max_client_requests_per_caller", per_caller));
            }
            slot.holder = Some(holder.clone());
        }
        let Some(key) = session_of(peer) else {
            return Ok(slot);
        };
        let mut sessions = lock(&self.sessions);
        let held = sessions.entry(key).or_default();
        if held.client_requests >= per_session {
            drop(sessions);
            count(&self.refused.client_requests_per_session);
            return Err(("max_client_requests_per_session", per_session));
        }
        held.client_requests += 1;
        slot.session = Some(key);
        Ok(slot)
    }

    /// A `subscriptions/listen` stream opening for `holder`: held until the guard drops, or
    /// refused at the server's or the caller's limit.
    pub(crate) fn acquire_listen_stream(
        self: &Arc<Self>,
        holder: Option<&Holder>,
        limits: &super::Limits,
    ) -> Result<StreamSlot, ErrorData> {
        let (per_caller, total) = (
            limits.max_listen_streams_per_caller,
            limits.max_listen_streams,
        );
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
        let mut slot = StreamSlot {
            quotas: self.clone(),
            holder: None,
        };
        if let Some(holder) = holder {
            if !self.take_share(holder, per_caller, |h| &mut h.listen_streams) {
                count(&self.refused.listen_streams_per_caller);
                return Err(reached(
                    "max_listen_streams_per_caller",
                    per_caller,
                    format!(
                        "this caller already has {per_caller} subscriptions/listen streams open (the server's max_listen_streams_per_caller); close one first"
                    ),
                ));
            }
            slot.holder = Some(holder.clone());
        }
        Ok(slot)
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
    holder: Option<Holder>,
}

impl Drop for CallSlot {
    fn drop(&mut self) {
        self.quotas.calls.fetch_sub(1, Ordering::AcqRel);
        self.quotas.release(self.session, |held| {
            held.calls = held.calls.saturating_sub(1)
        });
        if let Some(holder) = &self.holder {
            self.quotas.give_share(holder, |h| &mut h.calls);
        }
    }
}

/// A client request waiting on the client, counted until dropped.
pub(crate) struct ClientRequestSlot {
    quotas: Arc<Quotas>,
    session: Option<usize>,
    holder: Option<Holder>,
}

impl Drop for ClientRequestSlot {
    fn drop(&mut self) {
        self.quotas.client_requests.fetch_sub(1, Ordering::AcqRel);
        self.quotas.release(self.session, |held| {
            held.client_requests = held.client_requests.saturating_sub(1);
        });
        if let Some(holder) = &self.holder {
            self.quotas.give_share(holder, |h| &mut h.client_requests);
        }
    }
}

/// An open `subscriptions/listen` stream, counted until dropped.
pub(crate) struct StreamSlot {
    quotas: Arc<Quotas>,
    holder: Option<Holder>,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.quotas.listen_streams.fetch_sub(1, Ordering::AcqRel);
        if let Some(holder) = &self.holder {
            self.quotas.give_share(holder, |h| &mut h.listen_streams);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::{Holder, Quotas};
    use crate::auth::Caller;
    use crate::server::Limits;

    fn caller(issuer: &str, subject: &str, client: &str) -> Caller {
        let mut claims = serde_json::Map::new();
        claims.insert("iss".into(), issuer.into());
        Caller::new(subject).client_id(client).claims(claims)
    }

    #[test]
    fn one_caller_fills_its_listen_streams_and_another_opens_one() {
        let quotas = Arc::new(Quotas::default());
        let limits = Limits::default();
        let alice = Holder::of(Some(&caller("https://i", "alice", "a")), false);
        let bob = Holder::of(Some(&caller("https://i", "bob", "a")), false);
        let held: Vec<_> = (0..limits.max_listen_streams_per_caller)
            .map(|_| {
                quotas
                    .acquire_listen_stream(alice.as_ref(), &limits)
                    .unwrap()
            })
            .collect();
        let refused = quotas
            .acquire_listen_stream(alice.as_ref(), &limits)
            .err()
            .expect("past the share");
        assert_eq!(
            refused.data.unwrap()["limit"],
            "max_listen_streams_per_caller"
        );
        assert!(quotas.acquire_listen_stream(bob.as_ref(), &limits).is_ok());
        assert_eq!(quotas.refused.snapshot().listen_streams_per_caller, 1);
        drop(held);
        assert!(
            quotas
                .acquire_listen_stream(alice.as_ref(), &limits)
                .is_ok()
        );
        // Nothing held, nothing kept: the per-caller map does not grow with identities.
        assert!(super::lock(&quotas.callers).is_empty());
    }

    #[test]
    fn a_users_clients_share_one_share_and_unverified_requests_share_another() {
        let one = Holder::of(Some(&caller("https://i", "alice", "web")), false);
        let two = Holder::of(Some(&caller("https://i", "alice", "cli")), false);
        assert!(one == two, "one user's clients are one share");
        let elsewhere = Holder::of(Some(&caller("https://j", "alice", "web")), false);
        assert!(one != elsewhere, "another issuer's alice is another caller");
        assert!(Holder::of(None, false) == Holder::of(Some(&Caller::anonymous()), false));
        // On a 2025 session, the session's limits hold a request without a verified caller.
        assert!(Holder::of(None, true).is_none());
    }
}
