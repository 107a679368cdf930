//! The ids of the requests each session is answering now: a request that reuses one is refused.
//!
//! JSON-RPC ids must not repeat within a session, and rmcp relies on it: it routes an answer by
//! its id alone, to the last request that came with the id. A second request with the id of one
//! still running left the first unanswered, and could be sent the first one's answer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmcp::model::{ErrorData, RequestId, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};

use crate::sync::lock;

/// The ids in flight on each session. Keyed with Fx by session ids the server made (random;
/// rmcp asks about a request only on a session it knows); a session's own ids, which its client
/// chose, are searched in a list, so no client can slow another's lookups.
///
/// A session's list stays when it empties, so that its next request allocates nothing; the
/// empty lists are dropped whenever there are more lists than `max_sessions`.
pub(super) struct Answering {
    sessions: Mutex<HashMap<SessionId, Vec<RequestId>, rustc_hash::FxBuildHasher>>,
    max_sessions: usize,
}

impl Answering {
    /// Ids in flight on up to about `max_sessions` sessions at once, kept without reallocating.
    pub(super) fn new(max_sessions: usize) -> Answering {
        Answering {
            sessions: Mutex::default(),
            max_sessions,
        }
    }

    /// Marks `id` as being answered on `session`, until the returned mark is dropped; `None` if
    /// it already is.
    pub(super) fn begin(self: &Arc<Self>, session: &SessionId, id: &RequestId) -> Option<InFlight> {
        let mut sessions = lock(&self.sessions);
        match sessions.get_mut(session) {
            Some(ids) if ids.contains(id) => return None,
            Some(ids) => ids.push(id.clone()),
            None => {
                if sessions.len() >= self.max_sessions {
                    sessions.retain(|_, ids| !ids.is_empty());
                }
                sessions.insert(session.clone(), vec![id.clone()]);
            }
        }
        Some(InFlight {
            answering: self.clone(),
            session: session.clone(),
            id: id.clone(),
        })
    }
}

/// A request id being answered on its session; dropped (its reply ended, or its client hung
/// up), the id may be used again.
pub(super) struct InFlight {
    answering: Arc<Answering>,
    session: SessionId,
    id: RequestId,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut sessions = lock(&self.answering.sessions);
        if let Some(ids) = sessions.get_mut(&self.session)
            && let Some(at) = ids.iter().position(|id| *id == self.id)
        {
            ids.swap_remove(at);
        }
    }
}

/// The answer to a request whose id is already being answered on its session: a JSON-RPC
/// `-32600` carrying the id.
pub(super) fn id_in_use(id: RequestId) -> ServerSseMessage {
    let error = ErrorData::invalid_request(
        format!(
            "request id {id} is already in use on this session by a request still being answered; a request's id must be unique within its session"
        ),
        None,
    );
    ServerSseMessage::from_message(ServerJsonRpcMessage::error(error, Some(id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_refused_while_in_flight_on_its_session_and_free_after() {
        let answering = Arc::new(Answering::new(10));
        let (one, two): (SessionId, SessionId) = ("one".into(), "two".into());
        let seven = RequestId::Number(7);
        let first = answering.begin(&one, &seven).expect("a new id");
        assert!(answering.begin(&one, &seven).is_none());
        // Another session's ids are its own.
        let other = answering.begin(&two, &seven).expect("another session");
        drop(first);
        let again = answering
            .begin(&one, &seven)
            .expect("answered, the id is free");
        drop((again, other));
        assert!(
            lock(&answering.sessions).values().all(Vec::is_empty),
            "no id is kept"
        );
    }

    #[test]
    fn the_lists_of_sessions_with_nothing_in_flight_are_dropped_past_the_bound() {
        let answering = Arc::new(Answering::new(2));
        let id = RequestId::Number(1);
        let busy = answering.begin(&"busy".into(), &id).unwrap();
        drop(answering.begin(&"idle".into(), &id).unwrap());
        // A third session: the idle one's empty list goes, the busy one's stays.
        let third = answering.begin(&"third".into(), &id).unwrap();
        let mut kept: Vec<String> = lock(&answering.sessions)
            .keys()
            .map(|s| s.to_string())
            .collect();
        kept.sort();
        assert_eq!(kept, ["busy", "third"]);
        drop((busy, third));
    }
}
