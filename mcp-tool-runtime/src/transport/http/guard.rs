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
use http::{HeaderName, Method, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, Full};
use memchr::memmem::Finder;
use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorData, JsonRpcMessage, RequestId};
use rmcp::service::TxJsonRpcMessage;
use rmcp::transport::StreamableHttpService;

use super::body::{Body, HttpResponse, json_rpc_response, read_body};
use super::gate::Gate;
use super::inflight::{
    DEFAULT_MAX_BODY_BYTES_IN_FLIGHT, DEFAULT_MAX_BODY_BYTES_PER_SENDER, InFlight, OverBudget,
    Sender,
};
use super::refusals::{Counters, HttpRefusals, Refusal};
use super::sessions::{BoundedSessions, BoundedSessionsError};
use super::shared::SharedRmcp;
use crate::server::reached;
use crate::transport::budget::DEFAULT_MAX_ELEMENTS;
use crate::transport::budget::{self, Outline, may_name, outline};
use crate::transport::reply::{find_id, parse, refusal};

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
    sessions: Option<Arc<BoundedSessions>>,
    inflight: Arc<InFlight>,
    refused: Arc<Counters>,
}

/// How long [`HttpGuard`] waits by default for a request body to arrive whole: 30 seconds.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

impl<S> HttpGuard<S> {
    /// A guard in front of `inner`, accepting bodies up to [`DEFAULT_MAX_BODY_BYTES`].
    pub fn new(inner: S) -> Self {
        HttpGuard {
            inner,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_elements: DEFAULT_MAX_ELEMENTS,
            body_timeout: DEFAULT_BODY_TIMEOUT,
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
    /// closed, so a client cannot hold memory and a connection by uploading slowly.
    pub fn body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
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
        let mut inner = std::mem::replace(&mut self.inner, ready);
        let limit = self.max_body_bytes;
        let max_elements = self.max_elements;
        let body_timeout = self.body_timeout;
        let sessions = self.sessions.clone();
        let inflight = self.inflight.clone();
        let refused = self.refused.clone();
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            // A session belongs to the caller who opened it: anyone else is told it does not
            // exist, whatever the method.
            let owner = sessions
                .as_ref()
                .and_then(|_| crate::server::CallerKey::of_parts(&parts));
            // Whose share of sessions a new one counts against: a verified caller's. Without
            // one, nothing tells callers apart (the session is all the identity there is), and
            // the server's bound alone holds.
            let share = sessions
                .as_ref()
                .and_then(|_| {
                    crate::server::Holder::of(
                        parts
                            .extensions
                            .get::<Arc<crate::auth::Caller>>()
                            .map(|c| &**c),
                        false,
                    )
                })
                .filter(|holder| matches!(holder, crate::server::Holder::Verified(_)));
            let session_header = parts.headers.get(&SESSION_ID);
            let has_session_header = session_header.is_some();
            // Read in place, not copied: once the request moves on to rmcp, only whether it
            // came on a session is needed.
            let session = session_header.and_then(|v| v.to_str().ok());
            if let (Some(sessions), Some(id)) = (&sessions, session)
                && !sessions.admits(id, owner.as_ref().map(|k| k.as_bytes()))
            {
                return Ok(session_not_found());
            }
            let on_session = session.is_some();
            if parts.method != Method::POST {
                let ends_session = parts.method == Method::DELETE;
                let empty = Request::from_parts(parts, Full::new(Bytes::new()));
                let mut response = inner.call(empty).await?;
                // rmcp answers a session's end with 202 Accepted; the official SDKs' servers
                // answer 200, and the Python SDK's client (what LangChain, smolagents and
                // LlamaIndex run) logs "Session termination failed: 202" for anything but 200
                // or 204. The session has ended by then: say so.
                if ends_session && response.status() == StatusCode::ACCEPTED {
                    *response.status_mut() = StatusCode::OK;
                }
                return Ok(response);
            }
            // The body's bytes count against its sender's share until its response begins.
            let mut reserved = inflight.reserve(Sender::of(&parts));
            let read =
                tokio::time::timeout(body_timeout, read_body(body, limit, Some(&mut reserved)))
                    .await;
            let body = match read.unwrap_or(Body::TimedOut) {
                Body::Complete(bytes) => bytes,
                Body::TimedOut => {
                    refused.count(Refusal::BodyTimeout);
                    let reply = TxJsonRpcMessage::<RoleServer>::error(
                        ErrorData::invalid_request(
                            format!(
                                "the request body did not arrive within this server's limit of {body_timeout:?}"
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
                    return Ok(response);
                }
                Body::TooLarge(prefix) => {
                    refused.count(Refusal::BodyBytes);
                    let reply = TxJsonRpcMessage::<RoleServer>::error(
                        ErrorData::invalid_request(
                            format!(
                                "the request body is larger than this server's limit of {limit} bytes"
                            ),
                            None,
                        ),
                        find_id(&prefix),
                    );
                    return Ok(json_rpc_response(&reply, StatusCode::PAYLOAD_TOO_LARGE));
                }
                Body::OverBudget(prefix, over) => {
                    refused.count(match over {
                        OverBudget::Sender(_) => Refusal::BodyBytesPerSender,
                        OverBudget::Server(_) => Refusal::BodyBytesInFlight,
                    });
                    let (limit, value, what) = match over {
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
                        reached(limit, value, what),
                        find_id(&prefix),
                    );
                    let mut response = json_rpc_response(&reply, StatusCode::SERVICE_UNAVAILABLE);
                    response
                        .headers_mut()
                        .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
                    return Ok(response);
                }
                Body::Failed => {
                    return Ok(Response::builder()
                        .status(StatusCode::BAD_REQUEST)
                        .body(
                            Full::new(Bytes::from_static(b"the request body could not be read"))
                                .boxed(),
                        )
                        .expect("a valid response"));
                }
            };
            // What the guard acts on: the tool a `tools/call` names, for a layer in front (the
            // resource server's scope check); whether the message is an `initialize`, where
            // sessions are bounded. Only then is the message outlined (a skim, or a count that
            // says why it cannot be read); otherwise it is only held to its element budget, and
            // rmcp alone parses it (a second parse here was a sixth of a call, the skim a
            // fiftieth).
            let gate = parts.extensions.get::<Gate>().cloned();
            let may_open_session =
                sessions.is_some() && !has_session_header && may_name(&body, &INITIALIZE);
            let outline = if gate.is_some() || may_open_session {
                outline_or_reply(&body, max_elements)
            } else {
                match budget::check(&body, max_elements) {
                    Err(unread) => unread_reply(&body, unread, max_elements)
                        .map_or(Ok(Outline::default()), Err),
                    Ok(()) => Ok(Outline::default()),
                }
            };
            let outline = match outline {
                Ok(outline) => outline,
                Err((reply, over_budget)) => {
                    if over_budget {
                        refused.count(Refusal::Elements);
                    }
                    return Ok(json_rpc_response(&reply, StatusCode::BAD_REQUEST));
                }
            };
            // A 2025 call (on a session) is cancelled if its client hangs up; which call it is
            // is read only then.
            let may_be_call = on_session && may_name(&body, &TOOLS_CALL);
            // A layer in front (the resource server's scope check) may refuse the tool.
            if let Some(Gate(gate)) = &gate
                && let Some(tool) = outline.called_tool()
                && let Some(refusal) = gate.refuse(&parts, tool)
            {
                return Ok(refusal);
            }
            if let Some(sessions) = &sessions
                && !has_session_header
                && let Some(id) = outline.initialize_id()
                && let Some(refusal) = sessions.refuse_another_for(share.as_ref()).await
            {
                let (limit, value) = match refusal {
                    BoundedSessionsError::CallerFull(max) => ("max_sessions_per_caller", max),
                    _ => ("max_sessions", sessions.max_sessions()),
                };
                let reply = TxJsonRpcMessage::<RoleServer>::error(
                    reached(limit, value, refusal.to_string()),
                    Some(id.clone()),
                );
                return Ok(json_rpc_response(&reply, StatusCode::SERVICE_UNAVAILABLE));
            }
            let headers = may_be_call.then(|| Kept::of(&parts.headers));
            let response = inner
                .call(Request::from_parts(parts, Full::new(body.clone())))
                .await?;
            // rmcp could not read the message into its model, and answers a bare 415: the
            // message is owed a JSON-RPC error with its id, which only a parse can word.
            if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE
                && let Err(Some(reply)) = parse(&body)
            {
                return Ok(json_rpc_response(&reply, StatusCode::BAD_REQUEST));
            }
            let response = match headers {
                // The service that answered the call sends its cancellation, made ready again
                // first: a clone made for it on every request was about 1% of a call.
                Some(headers) if response.status() == StatusCode::OK => {
                    let call = Abandoned {
                        body,
                        max_elements,
                        headers,
                    };
                    cancel_if_abandoned(response, call, inner)
                }
                _ => response,
            };
            // A new session: its owner is whoever opened it.
            if let Some(sessions) = &sessions
                && !on_session
                && let Some(id) = response
                    .headers()
                    .get(&SESSION_ID)
                    .and_then(|v| v.to_str().ok())
            {
                sessions
                    .bind(id, owner.as_ref().map(|k| k.as_bytes()), share)
                    .await;
            }
            drop(reserved);
            Ok(response)
        })
    }
}

/// A 2025 message on a session that may be a `tools/call`, kept to cancel it by its id if its
/// client hangs up: its body (shared, not copied), and the headers rmcp reads to take the
/// cancellation to the same session.
struct Abandoned {
    body: Bytes,
    max_elements: usize,
    headers: Kept,
}

/// The request headers rmcp reads of a POST on a session, kept (shared, not copied) for the
/// cancellation: whom it is for (`Host`, `Origin`, against its allowed hosts and origins), the
/// session and its protocol version. Whatever else the client sent (an `Mcp-Method` naming
/// the call) says nothing of the cancellation, or would contradict it.
struct Kept([Option<header::HeaderValue>; 4]);

impl Kept {
    const NAMES: [HeaderName; 4] = [
        header::HOST,
        header::ORIGIN,
        SESSION_ID,
        HeaderName::from_static("mcp-protocol-version"),
    ];

    fn of(headers: &http::HeaderMap) -> Kept {
        // One pass over the handful of headers a request has, rather than a hashed lookup of
        // each name; the first value of a name, as `get` would give.
        let mut kept = Kept(Default::default());
        for (name, value) in headers {
            if let Some(slot) = Self::NAMES.iter().position(|kept| kept == name) {
                kept.0[slot].get_or_insert_with(|| value.clone());
            }
        }
        kept
    }

    /// The headers of the cancellation: these, and the JSON body it is.
    fn into_headers(self) -> http::HeaderMap {
        let mut headers = http::HeaderMap::with_capacity(6);
        for (name, value) in Self::NAMES.into_iter().zip(self.0) {
            if let Some(value) = value {
                headers.insert(name, value);
            }
        }
        headers.insert(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("application/json"),
        );
        headers.insert(
            header::ACCEPT,
            header::HeaderValue::from_static("application/json, text/event-stream"),
        );
        headers
    }
}

impl Abandoned {
    /// The id of the call, if the message is a `tools/call` with one.
    fn call_id(&self) -> Option<RequestId> {
        let outline = outline_or_reply(&self.body, self.max_elements).ok()?;
        outline.called_tool()?;
        outline.id
    }
}

/// `response` (the reply to a 2025 message on a session), watched: if its body is dropped before
/// its end, the client hung up, and, if the message was a `tools/call`, the call is cancelled on
/// its session: the tool stops, and gives back its places.
fn cancel_if_abandoned<S>(response: HttpResponse, call: Abandoned, canceller: S) -> HttpResponse
where
    S: tower_service::Service<Request<Full<Bytes>>, Response = HttpResponse, Error = Infallible>
        + Send
        + 'static,
    S::Future: Send,
{
    let (parts, body) = response.into_parts();
    // In a mutex only to be `Sync`, as a boxed body must be.
    let canceller = std::sync::Mutex::new(canceller);
    let on_abandon = move || {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let Some(id) = call.call_id() else {
            return;
        };
        let mut canceller = canceller
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        runtime.spawn(async move {
            let notice = serde_json::json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": id, "reason": "the client closed the connection"},
            });
            let mut request = Request::builder()
                .method(Method::POST)
                .body(Full::new(Bytes::from(notice.to_string())))
                .expect("a valid request");
            *request.headers_mut() = call.headers.into_headers();
            if std::future::poll_fn(|cx| canceller.poll_ready(cx))
                .await
                .is_ok()
            {
                let _ = canceller.call(request).await;
            }
        });
    };
    Response::from_parts(
        parts,
        super::abandon::Watched::new(body, on_abandon).boxed(),
    )
}

/// The outline of `body` (skimmed, or counted within `max_elements`), or the reply refusing it.
/// A message whose outline cannot be trusted (a key it reads came twice) is read whole, as rmcp
/// will read it. A notification that cannot be read is owed no reply: rmcp answers it. With the
/// reply, whether it refuses the message for its element budget (rather than as unreadable).
fn outline_or_reply(
    body: &[u8],
    max_elements: usize,
) -> Result<Outline, (Box<TxJsonRpcMessage<RoleServer>>, bool)> {
    match outline(body, max_elements) {
        Err(unread) => unread_reply(body, unread, max_elements).map_or(Ok(Outline::default()), Err),
        Ok(outline) if outline.repeated => match parse(body) {
            Ok(message) => Ok(outline_of(&message)),
            Err(reply) => reply.map_or(Ok(Outline::default()), |reply| Err((reply, false))),
        },
        Ok(outline) => Ok(outline),
    }
}

/// The reply to a body its element budget's pass could not read, if it is owed one, and
/// whether the pass refused it for the budget (rather than as unreadable).
fn unread_reply(
    body: &[u8],
    unread: budget::Refused,
    max_elements: usize,
) -> Option<(Box<TxJsonRpcMessage<RoleServer>>, bool)> {
    let over_budget = matches!(unread, budget::Refused::OverBudget);
    refusal(body, unread, max_elements).map(|reply| (reply, over_budget))
}

/// What rmcp answers for a session it does not know (the MCP spec: 404).
fn session_not_found() -> HttpResponse {
    Response::builder()
        .status(StatusCode::NOT_FOUND)
        .body(Full::new(Bytes::from_static(b"Not Found: Session not found")).boxed())
        .expect("a valid response")
}

/// The methods the guard looks for in a body before it reads it (see [`may_name`]).
static INITIALIZE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("initialize"));
static TOOLS_CALL: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("tools/call"));

/// The header naming a Streamable HTTP session.
const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");

/// The outline of a message rmcp's model holds.
fn outline_of(message: &ClientJsonRpcMessage) -> Outline {
    let JsonRpcMessage::Request(request) = message else {
        return Outline::default();
    };
    let (method, name) = match &request.request {
        ClientRequest::InitializeRequest(_) => ("initialize".to_owned(), None),
        ClientRequest::CallToolRequest(call) => {
            ("tools/call".to_owned(), Some(call.params.name.to_string()))
        }
        ClientRequest::CustomRequest(custom) => (
            custom.method.clone(),
            custom
                .params
                .as_ref()
                .and_then(|p| p.get("name"))
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned),
        ),
        _ => (String::new(), None),
    };
    Outline {
        method: Some(method),
        id: Some(request.id.clone()),
        name,
        repeated: false,
    }
}
