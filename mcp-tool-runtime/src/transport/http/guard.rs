//! [`HttpGuard`]: the tower service in front of rmcp's Streamable HTTP service that reads each
//! POST body itself, answers what rmcp would not read with JSON-RPC, and refuses an
//! `initialize` past the session bound.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, LazyLock};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures_util::FutureExt as _;
use http::{HeaderName, Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full};
use memchr::memmem::Finder;
use rmcp::RoleServer;
use rmcp::model::{ErrorData, RequestId};
use rmcp::service::TxJsonRpcMessage;
use rmcp::transport::StreamableHttpService;

use super::abandon::{Abandoned, Kept, cancel_if_abandoned};
use super::body::{Body, HttpResponse, json_rpc_response, read_body};
use super::gate::Gate;
use super::held;
use super::inflight::{
    DEFAULT_MAX_BODY_BYTES_IN_FLIGHT, DEFAULT_MAX_BODY_BYTES_PER_SENDER, InFlight, OverBudget,
    Sender,
};
use super::opener::Opener;
use super::outline::{outline_or_reply, unread_outline};
use super::refusals::{Counters, HttpRefusals, Refusal};
use super::sessions::{BoundedSessions, BoundedSessionsError};
use super::shared::SharedRmcp;
use crate::server::reached;
use crate::transport::budget::DEFAULT_MAX_ELEMENTS;
use crate::transport::budget::{self, Outline, may_name};
use crate::transport::reply::{find_id, parse};

/// The default largest request body [`HttpGuard`] accepts: 16 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 16 << 20;

/// A tower service in front of rmcp's `StreamableHttpService` (or any service taking the body
/// as `Full<Bytes>`) that answers every request with JSON-RPC. Put an
/// [`auth::ResourceServer`](crate::auth::ResourceServer)'s layer in front of it to make the
/// endpoint an OAuth 2.1 resource server (feature `auth`).
///
/// ```no_run
/// # use std::sync::Arc;
/// use mcp_tool_runtime::transport::http::HttpGuard;
/// use mcp_tool_runtime::{Toolbox, ToolboxServer};
/// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
/// use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
///
/// # fn serve(toolbox: Toolbox) -> Result<(), Box<dyn std::error::Error>> {
/// let server = ToolboxServer::new(toolbox)?;
/// let rmcp_service = StreamableHttpService::new(
///     move || Ok(server.clone()),
///     Arc::new(LocalSessionManager::default()),
///     StreamableHttpServerConfig::default(),
/// );
/// // Bodies up to 8 MiB; rmcp's own limit must not be lower.
/// let service = HttpGuard::rmcp(rmcp_service).max_body_bytes(8 << 20);
/// // axum: Router::new().nest_service("/mcp", service)
/// # drop(service);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct HttpGuard<S> {
    inner: S,
    max_body_bytes: usize,
    max_elements: usize,
    body_timeout: Duration,
    reply_hold: Duration,
    sessions: Option<Arc<BoundedSessions>>,
    inflight: Arc<InFlight>,
    refused: Arc<Counters>,
}

/// How long [`HttpGuard`] waits by default for a request body to arrive whole: 30 seconds.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long [`HttpGuard`] holds a streamed reply's head by default, waiting for its stream to
/// end: 5 milliseconds. See [`HttpGuard::reply_hold`].
pub const DEFAULT_REPLY_HOLD: Duration = Duration::from_millis(5);

impl<S> HttpGuard<S> {
    /// A guard in front of `inner`, accepting bodies up to [`DEFAULT_MAX_BODY_BYTES`].
    pub fn new(inner: S) -> Self {
        HttpGuard {
            inner,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_elements: DEFAULT_MAX_ELEMENTS,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            reply_hold: DEFAULT_REPLY_HOLD,
            sessions: None,
            inflight: InFlight::new(
                DEFAULT_MAX_BODY_BYTES_IN_FLIGHT,
                DEFAULT_MAX_BODY_BYTES_PER_SENDER,
            ),
            refused: Arc::default(),
        }
    }

    /// How many requests this guard (every clone of it) refused since it was built, by the
    /// limit that refused them. Keep a clone of the guard to read them while it serves.
    pub fn refusals(&self) -> HttpRefusals {
        self.refused.snapshot()
    }
}

impl<H, M> HttpGuard<SharedRmcp<H, M>> {
    /// A guard in front of rmcp's `service`, which every request shares (see [`SharedRmcp`])
    /// rather than cloning its settings twice as a tower service's clone would: the way to put
    /// the guard in front of rmcp. Accepts bodies up to [`DEFAULT_MAX_BODY_BYTES`].
    pub fn rmcp(service: StreamableHttpService<H, M>) -> Self {
        HttpGuard::new(SharedRmcp::new(service))
    }
}

impl<S> HttpGuard<S> {
    /// Refuses a client's `initialize` with a JSON-RPC error (`-32029`, naming `max_sessions`)
    /// when `sessions`, the manager given to rmcp's service, has as many live sessions as it
    /// allows; and binds each session to the caller who opened it (see [`BoundedSessions`]).
    ///
    /// A 2025 request whose client hangs up before its reply ends is cancelled on its session
    /// either way: by `sessions` itself when given (it knows each request's id), else by the
    /// guard, which keeps, for each `tools/call` on a session, the headers its cancellation
    /// needs.
    pub fn sessions(mut self, sessions: Arc<BoundedSessions>) -> Self {
        self.sessions = Some(sessions);
        self
    }

    /// The most JSON elements (values and keys) a body may hold
    /// ([`DEFAULT_MAX_ELEMENTS`] unless set): each body is counted,
    /// without being built, before rmcp parses it, and one over the budget is answered with
    /// `-32600` naming the limit. This bounds the memory a body takes once parsed.
    pub fn max_elements(mut self, limit: usize) -> Self {
        self.max_elements = limit;
        self
    }

    /// How long a request body may take to arrive whole ([`DEFAULT_BODY_TIMEOUT`] unless set):
    /// an upload left unfinished is answered with `-32600` naming the limit and its connection
    /// closed, so a client cannot hold memory and a connection by uploading slowly. The time
    /// runs from when the body is first waited for: a body that came with its request's head
    /// (most do) is read with no timer armed.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// How long the head of a streamed reply (rmcp's server-sent events, as it answers every
    /// message on a 2025 session) waits for its stream to end ([`DEFAULT_REPLY_HOLD`] unless
    /// set), so that a quick call's head, priming event and result leave in one write rather
    /// than two, waking the client once. The bytes are the same; only when they leave changes.
    /// The stream is first given a turn of the scheduler, in which a quick call most often
    /// ends, and only one still open after it is held on a timer.
    /// A stream still open when the time is up (a slow call, or one sending progress) goes on
    /// from there as it came, its first events that much later; so does one with 64 KiB
    /// ready. `Duration::ZERO` sends every head as soon as rmcp gives it.
    ///
    /// The hold is a trade. A server with other work spends a write and a wakeup less on each
    /// reply; one waiting on a single client that calls in turn, on a machine whose idle CPUs
    /// halt (a virtual machine's commonly do), gives up the early head's wake-up of that
    /// client, which the call's run would have hidden: measured pinned on such a machine, up to
    /// 28% fewer calls a second for that one client (`BENCHMARKS.md`, "The 2025 reply in one
    /// write"). A JSON reply (rmcp's `with_json_response`) is one write whatever the hold.
    pub fn reply_hold(mut self, hold: Duration) -> Self {
        self.reply_hold = hold;
        self
    }

    /// The largest request body accepted, in bytes; a larger one is answered with `-32600`
    /// naming the limit. rmcp's own limit (`StreamableHttpServerConfig::max_request_body_bytes`,
    /// 4 MiB by default) must be at least as large: set it with
    /// `with_max_request_body_bytes`.
    pub fn max_body_bytes(mut self, limit: usize) -> Self {
        self.max_body_bytes = limit;
        self
    }

    /// The request body bytes held at once, every request together
    /// ([`DEFAULT_MAX_BODY_BYTES_IN_FLIGHT`] unless set): a body that would pass it is read to
    /// its end and dropped, and answered with `-32029` naming `max_body_bytes_in_flight`, with
    /// its id (HTTP 503 when it has none) and `Retry-After: 1`. A body's bytes are held from
    /// when they arrive until its response begins.
    pub fn max_body_bytes_in_flight(mut self, limit: usize) -> Self {
        self.inflight = InFlight::new(limit, self.inflight.share());
        self
    }

    /// The request body bytes one sender's requests hold at once, past the first 64 KiB of each
    /// body ([`DEFAULT_MAX_BODY_BYTES_PER_SENDER`] unless set), so no one sender takes the whole
    /// of [`max_body_bytes_in_flight`](Self::max_body_bytes_in_flight); past it, `-32029`
    /// naming `max_body_bytes_per_sender`. (The first 64 KiB of a body count toward the
    /// server's bound only: most requests are smaller, and pass with an atomic count. A sender
    /// holds at most that much more per connection it has open.) A sender is a verified caller
    /// (issuer and subject), else the peer its connection comes from (an IPv4 address, an IPv6
    /// /64) when served by [`serve`](super::serve); requests served by another loop without a
    /// verified caller share one share.
    pub fn max_body_bytes_per_sender(mut self, limit: usize) -> Self {
        self.inflight = InFlight::new(self.inflight.total(), limit);
        self
    }
}

impl<S, B> tower_service::Service<Request<B>> for HttpGuard<S>
where
    S: tower_service::Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send,
    B: http_body::Body + Send + 'static,
    B::Data: Send,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The clone that was made ready answers this call; a fresh clone waits for the next.
        let ready = self.inner.clone();
        let inner = std::mem::replace(&mut self.inner, ready);
        // What can be decided before the body arrives is decided here rather than in the
        // future, and the future holds only what it needs across its waits: it is allocated
        // for every request, and kept within glibc's per-thread cache (1,032 bytes) it sends
        // none of them to the allocator's bins (at 1,536 bytes it sent every one).
        let (parts, body) = request.into_parts();
        let opener = match Opener::of(&parts, self.sessions.as_deref()) {
            Ok(opener) => opener,
            Err(response) => return Box::pin(std::future::ready(Ok(*response))),
        };
        if parts.method != Method::POST {
            return Box::pin(not_post(inner, parts));
        }
        Box::pin(self.post_and_hold(inner, parts, body, opener))
    }
}

/// The service a guard passes requests to, as its futures need it: it takes the body whole,
/// answers with an [`HttpResponse`], and it and its futures can move between threads.
pub(super) trait Guarded:
    tower_service::Service<
        Request<Full<Bytes>>,
        Response = HttpResponse,
        Error = Infallible,
        Future: Send,
    > + Send
    + 'static
{
}

impl<S> Guarded for S where
    S: tower_service::Service<
            Request<Full<Bytes>>,
            Response = HttpResponse,
            Error = Infallible,
            Future: Send,
        > + Send
        + 'static
{
}

impl<S> HttpGuard<S> {
    /// The future of a POST: its body read, screened and passed to `inner`, and a streamed reply
    /// held until its stream ends, briefly (after the POST's own future, not in it, where the
    /// hold's timer would make every request's future larger).
    fn post_and_hold<B>(
        &self,
        inner: S,
        parts: http::request::Parts,
        body: B,
        opener: Opener,
    ) -> impl Future<Output = Result<HttpResponse, Infallible>> + use<S, B>
    where
        S: Guarded,
        B: http_body::Body,
    {
        let hold = self.reply_hold;
        self.settings()
            .post(inner, parts, body, opener)
            .then(move |Ok(response)| held::hold_if_streamed(response, hold))
    }

    /// This guard's settings and counters, without the service it guards.
    fn settings(&self) -> HttpGuard<()> {
        HttpGuard {
            inner: (),
            max_body_bytes: self.max_body_bytes,
            max_elements: self.max_elements,
            body_timeout: self.body_timeout,
            reply_hold: self.reply_hold,
            sessions: self.sessions.clone(),
            inflight: self.inflight.clone(),
            refused: self.refused.clone(),
        }
    }
}

/// A request other than a POST (a stream's GET, a session's DELETE), passed on without a body.
async fn not_post<S>(mut inner: S, parts: http::request::Parts) -> Result<HttpResponse, Infallible>
where
    S: tower_service::Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>,
{
    let ends_session = parts.method == Method::DELETE;
    let empty = Request::from_parts(parts, Full::new(Bytes::new()));
    let mut response = inner.call(empty).await?;
    // rmcp answers a session's end with 202 Accepted; the official SDKs' servers answer 200,
    // and the Python SDK's client (what LangChain, smolagents and LlamaIndex run) logs
    // "Session termination failed: 202" for anything but 200 or 204. The session has ended by
    // then: say so.
    if ends_session && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::OK;
    }
    Ok(response)
}

impl HttpGuard<()> {
    /// A POST from `opener`: its body read within the limits, screened, and passed to `inner`.
    ///
    /// Not an `async fn`: one stores each argument twice (as given, and as its local), an
    /// `async` block once.
    #[expect(
        clippy::manual_async_fn,
        reason = "an async fn would store each argument twice in the future"
    )]
    fn post<S, B>(
        self,
        mut inner: S,
        parts: http::request::Parts,
        body: B,
        opener: Opener,
    ) -> impl Future<Output = Result<HttpResponse, Infallible>>
    where
        S: Guarded,
        B: http_body::Body,
    {
        async move {
            // The body's bytes count against its sender's share until its response begins.
            let mut reserved = self.inflight.reserve(Sender::of(&parts));
            let read = read_body(
                body,
                self.max_body_bytes,
                Some(&mut reserved),
                self.body_timeout,
            )
            .await;
            let body = match self.whole(read) {
                Ok(body) => body,
                Err(refusal) => return Ok(*refusal),
            };
            let initialize = match self.screen(&parts, &body, opener.has_session_header) {
                Ok(initialize) => initialize,
                Err(refusal) => return Ok(*refusal),
            };
            // Boxed: only an `initialize` waits here, and every request's future would
            // otherwise hold room for it.
            if let (Some(id), Some(sessions)) = (initialize, &self.sessions)
                && let Some(refusal) =
                    Box::pin(sessions.refuse_another_for(opener.share.as_ref())).await
            {
                let (limit, value) = match refusal {
                    BoundedSessionsError::CallerFull(max) => ("max_sessions_per_caller", max),
                    _ => ("max_sessions", sessions.max_sessions()),
                };
                let reply = TxJsonRpcMessage::<RoleServer>::error(
                    reached(limit, value, refusal.to_string()),
                    Some(id),
                );
                return Ok(json_rpc_response(&reply, StatusCode::SERVICE_UNAVAILABLE));
            }
            // A 2025 call (on a session) is cancelled if its client hangs up; which call it is is
            // read only then. `BoundedSessions` cancels its sessions' requests itself, knowing
            // each one's id.
            let may_be_call =
                self.sessions.is_none() && opener.on_session && may_name(&body, &TOOLS_CALL);
            let headers = may_be_call.then(|| Kept::of(&parts.headers));
            let mut response = inner
                .call(Request::from_parts(parts, Full::new(body.clone())))
                .await?;
            // rmcp could not read the message into its model, and answers a bare 415: the message
            // is owed a JSON-RPC error with its id, which only a parse can word.
            if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE
                && let Err(Some(reply)) = parse(&body)
            {
                return Ok(json_rpc_response(&reply, StatusCode::BAD_REQUEST));
            }
            // The service that answered the call sends its cancellation, made ready again
            // first: a clone made for it on every request was about 1% of a call.
            if let Some(headers) = headers
                && response.status() == StatusCode::OK
            {
                let call = Abandoned {
                    body,
                    max_elements: self.max_elements,
                    headers,
                };
                response = cancel_if_abandoned(response, call, inner);
            }
            // A new session: its owner is whoever opened it.
            if let Some(sessions) = &self.sessions
                && !opener.on_session
                && let Some(id) = response
                    .headers()
                    .get(&SESSION_ID)
                    .and_then(|v| v.to_str().ok())
            {
                // Boxed, as above: only a new session waits here.
                Box::pin(sessions.bind(
                    id,
                    opener.owner.as_ref().map(|k| k.as_bytes()),
                    opener.share,
                ))
                .await;
            }
            drop(reserved);
            Ok(response)
        }
    }

    /// What the guard acts on in a body that arrived whole: the tool a `tools/call` names, for
    /// a layer in front (the resource server's scope check); whether the message is an
    /// `initialize` that would open a session, where sessions are bounded. The id of such an
    /// `initialize`, or the reply refusing the message.
    ///
    /// Only when one of those is asked is the message outlined (a skim, or a count that says
    /// why it cannot be read); otherwise it is only held to its element budget, and rmcp alone
    /// parses it (a second parse here was a sixth of a call, the skim a fiftieth).
    fn screen(
        &self,
        parts: &http::request::Parts,
        body: &[u8],
        has_session_header: bool,
    ) -> Result<Option<RequestId>, Box<HttpResponse>> {
        let gate = parts.extensions.get::<Gate>();
        let opens_session = self.sessions.is_some() && !has_session_header;
        let outline = if gate.is_some() || (opens_session && may_name(body, &INITIALIZE)) {
            outline_or_reply(body, self.max_elements)
        } else {
            match budget::check(body, self.max_elements) {
                Err(unread) => unread_outline(body, unread, self.max_elements),
                Ok(()) => Ok(Outline::default()),
            }
        };
        let outline = match outline {
            Ok(outline) => outline,
            Err((reply, over_budget)) => {
                if over_budget {
                    self.refused.count(Refusal::Elements);
                }
                return Err(Box::new(json_rpc_response(&reply, StatusCode::BAD_REQUEST)));
            }
        };
        // A layer in front (the resource server's scope check) may refuse the tool.
        if let Some(Gate(gate)) = gate
            && let Some(tool) = outline.called_tool()
            && let Some(refusal) = gate.refuse(parts, tool)
        {
            return Err(Box::new(refusal));
        }
        Ok(opens_session
            .then(|| outline.initialize_id().cloned())
            .flatten())
    }

    /// The body `read`, if it arrived whole within the limits, or the reply refusing it.
    fn whole(&self, read: Body) -> Result<Bytes, Box<HttpResponse>> {
        let limit = self.max_body_bytes;
        Err(Box::new(match read {
            Body::Complete(bytes) => return Ok(bytes),
            Body::TimedOut => {
                self.refused.count(Refusal::BodyTimeout);
                let reply = TxJsonRpcMessage::<RoleServer>::error(
                    ErrorData::invalid_request(
                        format!(
                            "the request body did not arrive within this server's limit of {:?}",
                            self.body_timeout
                        ),
                        None,
                    ),
                    None,
                );
                let mut response = json_rpc_response(&reply, StatusCode::REQUEST_TIMEOUT);
                response.headers_mut().insert(
                    header::CONNECTION,
                    header::HeaderValue::from_static("close"),
                );
                response
            }
            Body::TooLarge(prefix) => {
                self.refused.count(Refusal::BodyBytes);
                let reply = TxJsonRpcMessage::<RoleServer>::error(
                    ErrorData::invalid_request(
                        format!(
                            "the request body is larger than this server's limit of {limit} bytes"
                        ),
                        None,
                    ),
                    find_id(&prefix),
                );
                json_rpc_response(&reply, StatusCode::PAYLOAD_TOO_LARGE)
            }
            Body::OverBudget(prefix, over) => {
                self.refused.count(match over {
                    OverBudget::Sender(_) => Refusal::BodyBytesPerSender,
                    OverBudget::Server(_) => Refusal::BodyBytesInFlight,
                });
                let (name, value, what) = match over {
                    OverBudget::Sender(share) => (
                        "max_body_bytes_per_sender",
                        share,
                        format!(
                            "this client's requests already hold {share} bytes of request bodies being read or served (the server's max_body_bytes_per_sender); try again when one is answered"
                        ),
                    ),
                    OverBudget::Server(total) => (
                        "max_body_bytes_in_flight",
                        total,
                        format!(
                            "the server already holds {total} bytes of request bodies (its max_body_bytes_in_flight); try again shortly"
                        ),
                    ),
                };
                let reply = TxJsonRpcMessage::<RoleServer>::error(
                    reached(name, value, what),
                    find_id(&prefix),
                );
                let mut response = json_rpc_response(&reply, StatusCode::SERVICE_UNAVAILABLE);
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
                response
            }
            Body::Failed => Response::builder()
                .status(StatusCode::BAD_REQUEST)
                .body(Full::new(Bytes::from_static(b"the request body could not be read")).boxed())
                .expect("a valid response"),
        }))
    }
}

/// The methods the guard looks for in a body before it reads it (see [`may_name`]).
static INITIALIZE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("initialize"));
static TOOLS_CALL: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("tools/call"));

/// The header naming a Streamable HTTP session.
pub(super) const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest block glibc's allocator serves from its per-thread cache on 64-bit targets;
    /// a larger one goes to its bins, which first merge the freed small blocks
    /// (`malloc_consolidate`).
    const TCACHE_MAX_BYTES: usize = 1032;

    /// The bytes of the future `guard` boxes for a POST whose body is `body`.
    fn post_future_bytes<B: http_body::Body>(
        guard: &HttpGuard<SharedRmcp<crate::ToolboxServer, BoundedSessions>>,
        body: B,
    ) -> usize {
        let (parts, ()) = Request::post("/mcp").body(()).unwrap().into_parts();
        let opener = Opener::of(&parts, guard.sessions.as_deref()).ok().unwrap();
        let future = guard.post_and_hold(guard.inner.clone(), parts, body, opener);
        std::mem::size_of_val(&future)
    }

    #[test]
    fn every_requests_future_is_served_from_the_allocators_per_thread_cache() {
        let server = crate::ToolboxServer::new(crate::Toolbox::new()).unwrap();
        let sessions = Arc::new(BoundedSessions::new(10));
        let rmcp = StreamableHttpService::new(
            move || Ok(server.clone()),
            sessions.clone(),
            rmcp::transport::StreamableHttpServerConfig::default(),
        );
        let guard = HttpGuard::rmcp(rmcp).sessions(sessions);
        // An axum router's body (the serving guide's way), and a body held in place.
        let in_router = post_future_bytes(&guard, axum::body::Body::empty());
        let in_place = post_future_bytes(&guard, Full::new(Bytes::new()));
        // It was 1,536 bytes when the future held the whole request, its parts and the
        // session calls' futures: one trip to glibc's bins a request.
        assert!(
            in_router <= TCACHE_MAX_BYTES && in_place <= TCACHE_MAX_BYTES,
            "a request's future is {in_router} bytes (in a router) and {in_place} (body in place)"
        );
    }
}
