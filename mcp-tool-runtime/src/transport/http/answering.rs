//! The requests each session is answering now: a request that reuses the id of one is refused,
//! and one whose reply was dropped before its end (its client hung up) is cancelled.
//!
//! JSON-RPC ids must not repeat within a session, and rmcp relies on it: it routes an answer by
//! its id alone, to the last request that came with the id. A second request with the id of one
//! still running left the first unanswered, and could be sent the first one's answer.
//!
//! A 2025 request's reply is a server-sent-events stream; hyper drops it when the connection
//! closes. rmcp alone kept a request whose stream was dropped running, holding its slot of the
//! caller's and the session's, until it ended on its own.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CancelledNotification, CancelledNotificationParam, ClientJsonRpcMessage, ClientNotification,
    ErrorData, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};

use crate::sync::lock;

/// The ids in flight on each session, and the sessions' manager, which abandoned requests are
/// cancelled on. Keyed with Fx by session ids the server made (random; rmcp asks about a
/// request only on a session it knows); a session's own ids, which its client chose, are
/// searched in a list, so no client can slow another's lookups.
///
/// A session's list stays when it empties, so that its next request allocates nothing; the
/// empty lists are dropped whenever there are more lists than `max_sessions`.
pub(super) struct Answering {
    sessions: Mutex<HashMap<SessionId, Vec<RequestId>, rustc_hash::FxBuildHasher>>,
    max_sessions: usize,
    manager: Arc<LocalSessionManager>,
}

impl Answering {
    /// Ids in flight on up to about `max_sessions` sessions of `manager` at once, kept without
    /// reallocating.
    pub(super) fn new(manager: Arc<LocalSessionManager>, max_sessions: usize) -> Answering {
        Answering {
            sessions: Mutex::default(),
            max_sessions,
            manager,
        }
    }

    /// The sessions' manager.
    pub(super) fn manager(&self) -> &LocalSessionManager {
        &self.manager
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
            answered: false,
        })
    }

    /// Frees `id` on `session`.
    fn end(&self, session: &SessionId, id: &RequestId) {
        let mut sessions = lock(&self.sessions);
        if let Some(ids) = sessions.get_mut(session)
            && let Some(at) = ids.iter().position(|kept| kept == id)
        {
            ids.swap_remove(at);
        }
    }
}

/// A request being answered on its session. Dropped once its reply has ended (or it never
/// reached the session), its id may be used again; dropped before, its client hung up, and the
/// request is cancelled on its session: its id is freed only once the session has the
/// cancellation, so that no request reusing the id meanwhile is the one cancelled.
pub(super) struct InFlight {
    answering: Arc<Answering>,
    session: SessionId,
    id: RequestId,
    answered: bool,
}

impl InFlight {
    /// The request's reply has ended, or the request never reached its session: nothing is left
    /// to cancel.
    pub(super) fn settle(&mut self) {
        self.answered = true;
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.answered {
            self.answering.end(&self.session, &self.id);
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            self.answering.end(&self.session, &self.id);
            return;
        };
        // The mark moves to the task that delivers the cancellation, and is freed by it.
        let mut mark = InFlight {
            answering: self.answering.clone(),
            session: self.session.clone(),
            id: self.id.clone(),
            answered: true,
        };
        runtime.spawn(async move {
            let cancel = cancelled(mark.id.clone());
            // A session that has ended has nothing left to cancel.
            let _ = mark
                .answering
                .manager
                .accept_message(&mark.session, cancel)
                .await;
            mark.settle();
        });
    }
}

/// The cancellation of request `id`, as its client would have sent it: for a request whose
/// client closed the connection.
pub(super) fn cancelled(id: RequestId) -> ClientJsonRpcMessage {
    ClientJsonRpcMessage::notification(ClientNotification::CancelledNotification(
        CancelledNotification::new(CancelledNotificationParam::new(
            Some(id),
            Some("the client closed the connection".into()),
        )),
    ))
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
        let answering = Arc::new(Answering::new(Default::default(), 10));
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

    #[tokio::test]
    async fn an_id_whose_reply_was_dropped_before_its_end_is_freed_once_cancelled() {
        let answering = Arc::new(Answering::new(Default::default(), 10));
        let (one, seven): (SessionId, _) = ("one".into(), RequestId::Number(7));
        drop(answering.begin(&one, &seven).expect("a new id"));
        // The cancellation is on its way (to a session the manager does not have, where it is
        // dropped): until then the id is in use.
        assert!(answering.begin(&one, &seven).is_none());
        let mut turns = 0;
        let mut settled = loop {
            if let Some(free) = answering.begin(&one, &seven) {
                break free;
            }
            turns += 1;
            assert!(turns < 100, "the id was never freed");
            tokio::task::yield_now().await;
        };
        // Settled (its reply ended), an id is free at once, with no cancellation to wait for.
        settled.settle();
        drop(settled);
        assert!(answering.begin(&one, &seven).is_some());
    }

    #[test]
    fn the_lists_of_sessions_with_nothing_in_flight_are_dropped_past_the_bound() {
        let answering = Arc::new(Answering::new(Default::default(), 2));
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
