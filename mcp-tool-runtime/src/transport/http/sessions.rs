//! [`BoundedSessions`]: rmcp's in-memory session manager with a limit on live sessions, each
//! session bound to the caller who opened it (feature `http`).

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};

use futures_util::Stream;
use futures_util::future::Either;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::RestoreOutcome;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, ServerSseMessage, SessionId, SessionManager,
};

use super::answering::{Answering, InFlight, id_in_use};
use crate::server::Holder;

/// The default number of live Streamable HTTP sessions [`BoundedSessions`] allows: 1,000.
pub const DEFAULT_MAX_SESSIONS: usize = 1000;
/// The default number of live sessions one caller may have open: 16.
pub const DEFAULT_MAX_SESSIONS_PER_CALLER: usize = 16;

/// rmcp's [`LocalSessionManager`] with a limit on live sessions: past it, a client's
/// `initialize` is refused. Give the same `Arc` to rmcp's `StreamableHttpService` and to
/// [`HttpGuard::sessions`](super::HttpGuard::sessions), and the refusal is a JSON-RPC error
/// (`-32029`, naming `max_sessions`) on the `initialize` request. A session ends when its client
/// deletes it or after rmcp's idle timeout (`SessionConfig::keep_alive`, 5 minutes by default).
///
/// Each session belongs to the caller who opened it (its verified caller behind an
/// [`auth::ResourceServer`](crate::auth::ResourceServer), else the credential it sent, if any): a
/// request of anyone else naming the session (a call, a notification, a client's answer, the
/// GET stream, its DELETE) is answered 404, as for a session that does not exist. The MCP
/// security best practices say to bind session ids to the user; without it, a second caller
/// with a valid token of its own and the first caller's `Mcp-Session-Id` could call tools on the
/// session, read its stream, answer its consent questions and end it.
///
/// A request whose id the session is still answering (JSON-RPC ids must not repeat within a
/// session) is refused with a JSON-RPC error (`-32600`) carrying that id; the first request is
/// answered as if it had not come. rmcp alone routes an answer to the last request that came
/// with its id: it never answered the first, and could send the second the first one's answer.
/// An id is free again once its reply has ended, or its client has hung up.
///
/// A request whose client hung up before its reply ended (hyper drops the reply's stream when
/// the connection closes) is cancelled on its session, as if its client had sent
/// `notifications/cancelled`: the tool stops, and gives back its places. rmcp alone kept such a
/// request running, holding its slot of the caller's and the session's, until it ended on its
/// own. Its id stays in use until the session has the cancellation.
///
/// ```
/// use std::sync::Arc;
/// use mcp_tool_runtime::transport::http::{BoundedSessions, HttpGuard};
/// use mcp_tool_runtime::{Toolbox, ToolboxServer};
/// use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
///
/// let server = ToolboxServer::new(Toolbox::new()).unwrap();
/// let sessions = Arc::new(BoundedSessions::new(200));
/// let rmcp_service = StreamableHttpService::new(
///     move || Ok(server.clone()),
///     sessions.clone(),
///     StreamableHttpServerConfig::default(),
/// );
/// let service = HttpGuard::rmcp(rmcp_service).sessions(sessions);
/// # drop(service);
/// ```
pub struct BoundedSessions {
    max_sessions: usize,
    max_sessions_per_caller: usize,
    refused: AtomicU64,
    /// Who opened each session. Hashed with Fx: the keys are the ids the server made (random),
    /// so no client chooses them; a client's id is only looked up (on every request).
    owners: Mutex<HashMap<SessionId, Owner, rustc_hash::FxBuildHasher>>,
    /// The requests each session is answering now, and rmcp's manager of the sessions.
    answering: Arc<Answering>,
}

/// Who opened a session: the caller key's bytes (`None` for a caller with none), and whose
/// share of sessions it counts against.
type Owner = (Option<Box<[u8]>>, Option<Holder>);

impl std::fmt::Debug for BoundedSessions {
    // The owners are credentials and identities: never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoundedSessions")
            .field("max_sessions", &self.max_sessions)
            .field("max_sessions_per_caller", &self.max_sessions_per_caller)
            .field("refused", &self.refused)
            .finish_non_exhaustive()
    }
}

impl Default for BoundedSessions {
    fn default() -> Self {
        BoundedSessions::new(DEFAULT_MAX_SESSIONS)
    }
}

/// Why [`BoundedSessions`] did not do what rmcp asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BoundedSessionsError {
    /// The server has as many live sessions as it allows.
    #[error("the server already has {0} sessions (its max_sessions); try again later")]
    Full(usize),
    /// The caller has as many live sessions as one caller may.
    #[error(
        "this caller already has {0} sessions open (the server's max_sessions_per_caller); end one first"
    )]
    CallerFull(usize),
    /// What rmcp's own manager said.
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
}

impl BoundedSessions {
    /// A manager allowing `max_sessions` live sessions, with rmcp's default session settings.
    pub fn new(max_sessions: usize) -> Self {
        BoundedSessions::with_manager(LocalSessionManager::default(), max_sessions)
    }

    /// A manager allowing `max_sessions` live sessions of `inner` (rmcp's manager with the
    /// session settings you chose: idle timeout, channel capacity).
    pub fn with_manager(inner: LocalSessionManager, max_sessions: usize) -> Self {
        BoundedSessions {
            max_sessions,
            max_sessions_per_caller: DEFAULT_MAX_SESSIONS_PER_CALLER,
            refused: AtomicU64::new(0),
            owners: Mutex::default(),
            answering: Arc::new(Answering::new(Arc::new(inner), max_sessions)),
        }
    }

    /// The live sessions one verified caller (its issuer and subject) may have open
    /// ([`DEFAULT_MAX_SESSIONS_PER_CALLER`] unless set). Past it, the caller's `initialize` is
    /// refused with a JSON-RPC error (`-32029`, naming `max_sessions_per_caller`), and the
    /// sessions left are others'. Without authorization nothing tells callers apart when they
    /// open a session, and only [`max_sessions`](Self::max_sessions) holds.
    pub fn max_sessions_per_caller(mut self, limit: usize) -> Self {
        self.max_sessions_per_caller = limit.max(1);
        self
    }

    /// rmcp's manager of the sessions.
    fn inner(&self) -> &LocalSessionManager {
        self.answering.manager()
    }

    /// The number of live sessions allowed.
    pub fn max_sessions(&self) -> usize {
        self.max_sessions
    }

    /// The number of live sessions now.
    pub async fn live(&self) -> usize {
        self.inner().sessions.read().await.len()
    }

    /// How many sessions were refused since the server started.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// Records `owner` as the caller who opened session `id`. The record of a session that ended
    /// by idling out is dropped once there are more records than sessions allowed.
    pub(crate) async fn bind(&self, id: &str, owner: Option<&[u8]>, share: Option<Holder>) {
        let crowded = crate::sync::lock(&self.owners).len() >= self.max_sessions;
        if crowded {
            let live = self.inner().sessions.read().await;
            crate::sync::lock(&self.owners).retain(|id, _| live.contains_key(id));
        }
        crate::sync::lock(&self.owners).insert(id.into(), (owner.map(Into::into), share));
    }

    /// Whether a request from `owner` may use session `id`: it opened it, or nobody is on record
    /// as having opened it (rmcp answers for a session it does not know).
    pub(crate) fn admits(&self, id: &str, owner: Option<&[u8]>) -> bool {
        match crate::sync::lock(&self.owners).get(id) {
            None => true,
            Some((opened_by, _)) => opened_by.as_deref() == owner,
        }
    }

    /// Whether one more session would be refused now (counted as a refusal if so).
    pub(crate) async fn refuse_another(&self) -> bool {
        let full = self.live().await >= self.max_sessions;
        if full {
            self.refused.fetch_add(1, Ordering::Relaxed);
        }
        full
    }

    /// Why one more session for `share` would be refused now, if it would (counted).
    pub(crate) async fn refuse_another_for(
        &self,
        share: Option<&Holder>,
    ) -> Option<BoundedSessionsError> {
        if self.refuse_another().await {
            return Some(BoundedSessionsError::Full(self.max_sessions));
        }
        let share = share?;
        let live = self.inner().sessions.read().await;
        let held = crate::sync::lock(&self.owners)
            .iter()
            .filter(|(id, (_, of))| of.as_ref() == Some(share) && live.contains_key(*id))
            .count();
        (held >= self.max_sessions_per_caller).then(|| {
            self.refused.fetch_add(1, Ordering::Relaxed);
            BoundedSessionsError::CallerFull(self.max_sessions_per_caller)
        })
    }
}

impl SessionManager for BoundedSessions {
    type Error = BoundedSessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        // The guard refuses first, with a JSON-RPC error; this holds the limit without it.
        if self.refuse_another().await {
            return Err(BoundedSessionsError::Full(self.max_sessions));
        }
        Ok(self.inner().create_session().await?)
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.inner().initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner().has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        crate::sync::lock(&self.owners).remove(id);
        Ok(self.inner().close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        // A request whose id the session is still answering is refused: rmcp would route every
        // answer of the id to it, and leave the first unanswered.
        let mut in_flight = match &message {
            ClientJsonRpcMessage::Request(request) => match self.answering.begin(id, &request.id) {
                Some(in_flight) => Some(in_flight),
                None => {
                    let refusal = id_in_use(request.id.clone());
                    return Ok(Either::Right(futures_util::stream::iter([refusal])));
                }
            },
            _ => None,
        };
        // The request is cancelled if its reply's stream is dropped before its end (its client
        // hung up; also if this future is dropped first), and not if rmcp refuses it.
        let stream = match self.inner().create_stream(id, message).await {
            Ok(stream) => stream,
            Err(error) => {
                if let Some(in_flight) = &mut in_flight {
                    in_flight.settle();
                }
                return Err(error.into());
            }
        };
        Ok(Either::Left(Answer { stream, in_flight }))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        Ok(self.inner().accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner().create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner().resume(id, last_event_id).await?)
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        if !self.inner().has_session(&id).await? && self.refuse_another().await {
            return Err(BoundedSessionsError::Full(self.max_sessions));
        }
        Ok(self.inner().restore_session(id).await?)
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner().event_store()
    }
}

/// The reply stream of a request on a session, with the mark of its id: the mark is settled
/// when the stream ends, and, dropped before, cancels the request.
struct Answer<S> {
    stream: S,
    in_flight: Option<InFlight>,
}

impl<S: Stream + Unpin> Stream for Answer<S> {
    type Item = S::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let next = ready!(Pin::new(&mut self.stream).poll_next(cx));
        if next.is_none()
            && let Some(in_flight) = &mut self.in_flight
        {
            in_flight.settle();
        }
        Poll::Ready(next)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.stream.size_hint()
    }
}
