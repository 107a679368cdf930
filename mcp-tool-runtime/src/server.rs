//! Serving a [`Toolbox`] with the official Rust MCP SDK, `rmcp` (feature `rmcp`).
//!
//! [`ToolboxServer`] is an rmcp `ServerHandler`: `tools/list` and `tools/call` are answered from
//! the toolbox, over any rmcp transport (stdio, Streamable HTTP, ...). This crate writes no
//! JSON-RPC or transport of its own.

// rmcp 3.11 marks logging, sampling and roots deprecated (SEP-2577, a proposal): they are in
// every released MCP version, the conformance suite tests them, and tools use them.
#![allow(deprecated)]

use std::sync::{Arc, Mutex, RwLock, Weak};

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ClientInfo, ContentBlock,
    CustomRequest, CustomResult, ErrorCode, Implementation, InputRequest, InputRequests,
    InputRequiredResult, InputResponses, ListToolsResult, LoggingLevel,
    LoggingMessageNotificationParam, MetaObject, PaginatedRequestParams, ProgressNotificationParam,
    ProtocolVersion, RequestStateCodec, ResultType, ServerCapabilities, ServerConfig,
    SetLevelRequestParams, SubscriptionFilter, Tool,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::context::{
    Capability, Channel, ClientRequest, ClientRequestError, LogLevel, RequestInfo, ToolContext,
};
use crate::message::{describe, quote};
use crate::tool::BoxFuture;

use crate::content::{Content, TextContent};
use crate::result::ToolResult;
use crate::toolbox::{Toolbox, UnknownTool};

/// A `tools/list` entry rmcp would not accept (a bug in this crate, reported rather than hidden).
///
/// ```
/// use mcp_tool_runtime::{Toolbox, ToolboxServer};
/// // Every entry this crate builds is accepted.
/// assert!(ToolboxServer::new(Toolbox::new()).is_ok());
/// ```
#[derive(Debug, thiserror::Error)]
#[error("tool `{tool}` cannot be served through rmcp: {source}")]
pub struct ServeError {
    /// The tool.
    pub tool: String,
    /// What rmcp's model refused.
    #[source]
    pub source: serde_json::Error,
}

/// What every session of one server shares: the tools, the server's introduction, the
/// `tools/list` caching hints, the key sealing `requestState`, and who to tell when the tools
/// change: the sessions of 2025 clients, and the `subscriptions/listen` streams of 2026-07-28
/// clients (which wait on `changes`).
struct Shared {
    snapshot: RwLock<Arc<Snapshot>>,
    info: ServerConfig,
    cache: Mutex<CacheHints>,
    codec: RwLock<RequestStateCodec>,
    peers: Mutex<Vec<Peer<RoleServer>>>,
    changes: tokio::sync::watch::Sender<u64>,
    subscribing: Subscribing,
    log_levels: LogLevels,
}

/// The tools' generation (how many changes there have been) when each `subscriptions/listen`
/// request now being acknowledged was accepted. rmcp writes the acknowledgment before it calls
/// `listen`, so a client may already have made a change by then; `listen` announces a change
/// made since the generation [`started`](Self::started) gives.
#[derive(Default)]
struct Subscribing(Mutex<Vec<u64>>);

impl Subscribing {
    fn accepted(&self, generation: u64) {
        lock(&self.0).push(generation);
    }

    /// For a `listen` starting: a generation no later than the one its own request was accepted
    /// at. `listen` cannot tell which entry is its own, so it reads the oldest (generations only
    /// grow) and removes the newest, and every request still pending keeps one no later than its
    /// own. A request whose acknowledgment could not be sent never reaches `listen`: its entry
    /// stays, and later streams may get one needless notice (a client re-lists, nothing is lost).
    fn started(&self) -> Option<u64> {
        let mut pending = lock(&self.0);
        let oldest = pending.first().copied();
        pending.pop();
        oldest
    }
}

/// The toolbox and its `tools/list` entries in rmcp's model, converted once per change.
struct Snapshot {
    toolbox: Arc<Toolbox>,
    tools: Vec<Tool>,
}

impl Snapshot {
    fn new(toolbox: Toolbox) -> Result<Self, ServeError> {
        let tools = toolbox
            .list_tools()
            .iter()
            .map(|definition| {
                serde_json::to_value(definition)
                    .and_then(serde_json::from_value::<Tool>)
                    .map_err(|source| ServeError {
                        tool: definition.name.to_string(),
                        source,
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Snapshot {
            toolbox: Arc::new(toolbox),
            tools,
        })
    }
}

/// The `tools/list` caching hints of MCP 2026-07-28 (`ttlMs`, `cacheScope`).
#[derive(Debug, Clone, Copy)]
struct CacheHints {
    ttl_ms: u64,
    scope: CacheScope,
}

/// The log levels clients set with `logging/setLevel`, one per session. A session is known by
/// the client information rmcp keeps for it (one `Arc` per session, set at `initialize`), held
/// weakly: a level dies with its session, and a new session at a reused address is not mistaken
/// for the old one.
#[derive(Default)]
struct LogLevels(Mutex<Vec<(Weak<ClientInfo>, LogLevel)>>);

impl LogLevels {
    fn set(&self, peer: &Peer<RoleServer>, level: LogLevel) {
        let Some(info) = peer.peer_info() else {
            return;
        };
        let mut levels = lock(&self.0);
        levels.retain(|(session, _)| {
            session.strong_count() > 0 && !session.ptr_eq(&Arc::downgrade(&info))
        });
        levels.push((Arc::downgrade(&info), level));
    }

    fn get(&self, peer: &Peer<RoleServer>) -> Option<LogLevel> {
        let info = Arc::downgrade(&peer.peer_info()?);
        lock(&self.0)
            .iter()
            .find(|(session, _)| session.ptr_eq(&info))
            .map(|(_, level)| *level)
    }
}

/// An rmcp server handler answering `tools/list` and `tools/call` from a [`Toolbox`].
///
/// Entries are converted once, when the tools change; a request does no schema work. An unknown
/// tool is a JSON-RPC error (-32602, invalid params); everything a tool does wrong is an
/// `isError` result. Tools taking a [`ToolContext`] talk to the client through it: progress,
/// cancellation, logging (the `logging` capability is always declared, and `logging/setLevel`
/// honoured), and client requests, sent to the client at protocol 2025-x and returned as
/// input-required results at 2026-07-28.
///
/// Cheap to clone: clones share the tools. rmcp's Streamable HTTP service makes one handler per
/// session from a factory, `move || Ok(server.clone())`; each session keeps its own log level.
///
/// ```no_run
/// use mcp_tool_runtime::{mcp_tool, Toolbox, ToolboxServer};
/// use rmcp::ServiceExt;
///
/// /// Says hello.
/// #[mcp_tool]
/// fn hello(name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     let mut toolbox = Toolbox::new();
///     toolbox.register(hello::tool())?;
///     let server = ToolboxServer::new(toolbox)?;
///     server.serve(rmcp::transport::stdio()).await?.waiting().await?;
///     Ok(())
/// }
/// ```
#[derive(Clone)]
pub struct ToolboxServer {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for ToolboxServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolboxServer")
            .field("toolbox", &self.snapshot().toolbox)
            .finish_non_exhaustive()
    }
}

/// The `tools/list` freshness hint a server gives by default: one minute.
///
/// ```
/// assert_eq!(mcp_tool_runtime::server::DEFAULT_TOOLS_TTL_MS, 60_000);
/// ```
pub const DEFAULT_TOOLS_TTL_MS: u64 = 60_000;

impl ToolboxServer {
    /// A handler serving `toolbox`, introducing itself as this crate.
    ///
    /// # Errors
    /// A tool whose entry rmcp's model refuses.
    pub fn new(toolbox: Toolbox) -> Result<Self, ServeError> {
        Self::with_info(
            toolbox,
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        )
    }

    /// A handler serving `toolbox` under the given server name and version.
    ///
    /// # Errors
    /// A tool whose entry rmcp's model refuses.
    pub fn with_info(toolbox: Toolbox, server: Implementation) -> Result<Self, ServeError> {
        let snapshot = Snapshot::new(toolbox)?;
        let info = ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_logging()
                .build(),
        )
        .with_server_info(server);
        Ok(ToolboxServer {
            shared: Arc::new(Shared {
                snapshot: RwLock::new(Arc::new(snapshot)),
                info,
                cache: Mutex::new(CacheHints {
                    ttl_ms: DEFAULT_TOOLS_TTL_MS,
                    scope: CacheScope::Public,
                }),
                codec: RwLock::new(
                    RequestStateCodec::try_new(random_key()).expect("a 64-byte key is long enough"),
                ),
                peers: Mutex::new(Vec::new()),
                changes: tokio::sync::watch::Sender::new(0),
                subscribing: Subscribing::default(),
                log_levels: LogLevels::default(),
            }),
        })
    }

    /// Sets the `tools/list` caching hints (MCP 2026-07-28): how long a client may treat the list
    /// as fresh, and who may cache it. By default [`DEFAULT_TOOLS_TTL_MS`] and `public` (every
    /// client is served the same list). Clients of 2025 protocol versions are sent no hints.
    ///
    /// ```
    /// use mcp_tool_runtime::{Toolbox, ToolboxServer};
    /// use mcp_tool_runtime::rmcp::model::CacheScope;
    ///
    /// let server = ToolboxServer::new(Toolbox::new()).unwrap();
    /// server.set_cache_hints(0, CacheScope::Private);
    /// ```
    pub fn set_cache_hints(&self, ttl_ms: u64, scope: CacheScope) -> &Self {
        *lock(&self.shared.cache) = CacheHints { ttl_ms, scope };
        self
    }

    /// Uses `key` (at least 32 bytes) to seal the `requestState` of input-required results, so
    /// that servers behind one address accept each other's state. By default each server makes a
    /// random key when it starts. Applies to every clone of this server.
    ///
    /// ```
    /// use mcp_tool_runtime::{Toolbox, ToolboxServer};
    ///
    /// let server = ToolboxServer::new(Toolbox::new()).unwrap();
    /// server.set_request_state_key(b"a key of at least thirty-two bytes, shared by the servers").unwrap();
    /// assert!(server.set_request_state_key(b"short").is_err());
    /// ```
    ///
    /// # Errors
    /// A key shorter than 32 bytes; the key in use is unchanged.
    pub fn set_request_state_key(
        &self,
        key: &[u8],
    ) -> Result<&Self, rmcp::model::RequestStateError> {
        let codec = RequestStateCodec::try_new(key.to_vec())?;
        *self
            .shared
            .codec
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = codec;
        Ok(self)
    }

    /// The toolbox being served now.
    pub fn toolbox(&self) -> Arc<Toolbox> {
        self.snapshot().toolbox.clone()
    }

    fn snapshot(&self) -> Arc<Snapshot> {
        self.shared
            .snapshot
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// Changes the tools while serving: `change` gets a copy of the toolbox to register tools in
    /// or [`remove`](Toolbox::remove) them from; the new list is served from the next request on,
    /// calls already running finish with the tools they started with, and every connected client
    /// is sent `notifications/tools/list_changed` (the server declares `tools.listChanged`): a
    /// 2025 client on its session, a 2026-07-28 client on each `subscriptions/listen` stream that
    /// asked for `toolsListChanged`.
    ///
    /// # Errors
    /// What `change` returns, or a tool rmcp's model refuses; the served tools are then unchanged.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use mcp_tool_runtime::{mcp_tool, Toolbox, ToolboxServer};
    ///
    /// /// Says hello.
    /// #[mcp_tool]
    /// fn hello() -> String { "hello".into() }
    ///
    /// let server = ToolboxServer::new(Toolbox::new()).unwrap();
    /// server.update(|toolbox| toolbox.register(hello::tool()).map(drop)).await.unwrap();
    /// assert_eq!(server.toolbox().list_tools().len(), 1);
    /// # });
    /// ```
    pub async fn update<E>(
        &self,
        change: impl FnOnce(&mut Toolbox) -> Result<(), E>,
    ) -> Result<(), UpdateError<E>> {
        let mut toolbox = Toolbox::clone(&self.snapshot().toolbox);
        change(&mut toolbox).map_err(UpdateError::Change)?;
        let snapshot = Snapshot::new(toolbox).map_err(UpdateError::Serve)?;
        *self
            .shared
            .snapshot
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Arc::new(snapshot);
        self.shared
            .changes
            .send_modify(|generation| *generation += 1);
        let peers: Vec<_> = lock(&self.shared.peers).clone();
        for peer in &peers {
            // A client that left is forgotten below; one that cannot be told now will see the
            // new list at its next `tools/list`.
            let _ = peer.notify_tool_list_changed().await;
        }
        lock(&self.shared.peers).retain(|peer| !peer.is_transport_closed());
        Ok(())
    }

    /// The tools as rmcp routes, to serve beside `#[tool_router]` tools in a handler of your own:
    /// `Self::tool_router() + toolbox_server.router()`. Each route runs the tool exactly as
    /// [`ToolboxServer`] does (context, cancellation, input-required results included); delegate
    /// `set_level` to the `ToolboxServer` for the log level to apply. The routes are the tools of
    /// now: for tools that change while serving ([`update`](Self::update)), delegate `list_tools`
    /// and `call_tool` to the `ToolboxServer` instead.
    ///
    /// ```
    /// use mcp_tool_runtime::{mcp_tool, Toolbox, ToolboxServer};
    /// use mcp_tool_runtime::rmcp::handler::server::router::tool::ToolRouter;
    ///
    /// /// Says hello.
    /// #[mcp_tool]
    /// fn hello() -> String { "hello".into() }
    ///
    /// struct MyServer;
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(hello::tool()).unwrap();
    /// let router: ToolRouter<MyServer> = ToolboxServer::new(toolbox).unwrap().router();
    /// assert!(router.has_route("hello"));
    /// ```
    pub fn router<S: Send + Sync + 'static>(&self) -> ToolRouter<S> {
        let mut router = ToolRouter::new();
        for tool in &self.snapshot().tools {
            let server = self.clone();
            router.add_route(ToolRoute::new_dyn(
                tool.clone(),
                move |call: ToolCallContext<'_, S>| {
                    let server = server.clone();
                    let ToolCallContext {
                        request_context,
                        name,
                        arguments,
                        input_responses,
                        request_state,
                        ..
                    } = call;
                    Box::pin(async move {
                        server
                            .serve_call(
                                &name,
                                arguments,
                                input_responses,
                                request_state,
                                request_context,
                            )
                            .await
                    })
                },
            ));
        }
        router
    }
}

/// Why [`ToolboxServer::update`] changed nothing.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use mcp_tool_runtime::server::UpdateError;
/// use mcp_tool_runtime::{Toolbox, ToolboxServer};
///
/// let server = ToolboxServer::new(Toolbox::new()).unwrap();
/// let refused = server.update(|_| Err("not now")).await;
/// assert!(matches!(refused, Err(UpdateError::Change("not now"))));
/// # });
/// ```
#[derive(Debug, thiserror::Error)]
pub enum UpdateError<E> {
    /// The change itself failed.
    #[error("the change failed: {0}")]
    Change(E),
    /// A tool's entry rmcp's model refuses.
    #[error(transparent)]
    Serve(ServeError),
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// 64 bytes no one outside this process can guess: SipHash outputs under std's per-process
/// random keys (seeded from the operating system), mixed with the time and the process id.
fn random_key() -> Vec<u8> {
    use std::hash::{BuildHasher, Hasher};
    let mut key = Vec::with_capacity(64);
    for i in 0..8_u64 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(i);
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        hasher.write_u32(std::process::id());
        key.extend_from_slice(&hasher.finish().to_le_bytes());
    }
    key
}

/// Converts a result into rmcp's model by moving what it holds: the `structuredContent` value and
/// plain text blocks (the JSON mirror) move as they are, never re-serialized. Blocks with
/// annotations and media or resource blocks (rare, and small next to the payload) go through
/// the wire JSON they share with rmcp, so no field is dropped on the way.
///
/// ```
/// use mcp_tool_runtime::server::to_rmcp_result;
/// use mcp_tool_runtime::ToolResult;
///
/// let converted = to_rmcp_result(ToolResult::error("boom"));
/// assert_eq!(converted.is_error, Some(true));
/// ```
pub fn to_rmcp_result(result: ToolResult) -> CallToolResult {
    let ToolResult {
        content,
        structured_content,
        is_error,
        meta,
    } = result;
    let content = match content.into_iter().map(to_rmcp_block).collect() {
        Ok(content) => content,
        Err(e) => {
            return CallToolResult::error(vec![ContentBlock::text(format!(
                "the tool's result could not be sent: {e}"
            ))]);
        }
    };
    let mut converted = CallToolResult::success(content);
    converted.structured_content = structured_content;
    converted.is_error = is_error.then_some(true);
    converted.meta = (!meta.is_empty()).then_some(MetaObject(meta));
    converted.result_type = Some(ResultType::COMPLETE);
    converted
}

fn to_rmcp_block(block: Content) -> Result<ContentBlock, serde_json::Error> {
    match block {
        Content::Text(TextContent {
            text,
            annotations: None,
        }) => Ok(ContentBlock::text(text)),
        other => serde_json::to_value(&other).and_then(serde_json::from_value),
    }
}

/// What the handler returns for a call the client cancelled. MCP says a cancelled request SHOULD
/// get no response, and rmcp sends none (the `over_the_wire` tests check it); this value only
/// ends the handler.
fn cancelled(tool: &str) -> ErrorData {
    ErrorData::new(
        // JSON-RPC reserves no code for it; -32800 is the one LSP uses.
        ErrorCode(-32800),
        format!("the call of tool `{tool}` was cancelled by the client"),
        None,
    )
}

/// An unknown tool: a JSON-RPC error (-32602, invalid params) naming it.
fn unknown_tool(UnknownTool { name }: UnknownTool) -> ErrorData {
    ErrorData::invalid_params(
        format!("unknown tool `{name}`"),
        Some(serde_json::json!({ "tool": name })),
    )
}

/// What an input-required result's `requestState` holds: the tool it is for and the answers the
/// tool has used so far, sealed (HMAC) so that a changed state is refused.
#[derive(Serialize, Deserialize)]
struct SavedState {
    tool: String,
    answers: Map<String, Value>,
}

/// The request's level for log lines: its own `io.modelcontextprotocol/logLevel` (2026-07-28),
/// else the session's `logging/setLevel`.
fn level_of(level: LoggingLevel) -> LogLevel {
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

fn request_info(context: &RequestContext<RoleServer>) -> RequestInfo {
    let object = |value: serde_json::Result<Value>| match value {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    };
    RequestInfo {
        id: serde_json::to_value(&context.id).ok(),
        meta: object(serde_json::to_value(&context.meta)).unwrap_or_default(),
        protocol_version: context.protocol_version().map(|v| v.as_str().to_owned()),
        client_capabilities: context
            .client_capabilities()
            .and_then(|c| object(serde_json::to_value(c))),
    }
}

/// Input-required results exist from protocol 2026-07-28 on.
fn uses_input_required(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// Notifications go to the client through rmcp's peer; client requests too (protocol 2025-x) or
/// into an input-required result (2026-07-28).
struct Live {
    context: RequestContext<RoleServer>,
    /// The server's, for the session's log level.
    shared: Arc<Shared>,
    /// `Some` at 2026-07-28: client requests are answered from here or become `inputRequests`.
    input: Option<Arc<Input>>,
}

#[derive(Default)]
struct Input {
    /// The answers this call may use: the sealed state's and the client's `inputResponses`.
    answers: Map<String, Value>,
    /// The answers the tool used, which go into the next `requestState`.
    used: Mutex<Map<String, Value>>,
    /// The requests the tool is waiting on.
    pending: Mutex<Vec<(String, InputRequest)>>,
    waiting: tokio::sync::Notify,
}

fn failed(e: impl std::fmt::Display) -> ClientRequestError {
    ClientRequestError::Failed(e.to_string())
}

/// A request MCP's model refuses (an elicitation schema that is not a flat object of
/// primitives, in practice): the tool gets the error, nothing is sent.
fn invalid_request(e: impl std::fmt::Display) -> ClientRequestError {
    ClientRequestError::InvalidSchema(format!("MCP's model (rmcp's) refuses the request: {e}"))
}

impl Live {
    async fn send(&self, request: ClientRequest) -> Result<Value, ClientRequestError> {
        let peer = &self.context.peer;
        let answer = match request.capability {
            Capability::Elicitation => {
                let params = serde_json::from_value(request.params).map_err(invalid_request)?;
                serde_json::to_value(peer.create_elicitation(params).await.map_err(failed)?)
            }
            Capability::Sampling => {
                let params = serde_json::from_value(request.params).map_err(invalid_request)?;
                let answer = peer.create_message(params).await.map_err(failed)?;
                serde_json::to_value(answer)
            }
            Capability::Roots => serde_json::to_value(peer.list_roots().await.map_err(failed)?),
        };
        answer.map_err(|e| ClientRequestError::InvalidResponse(e.to_string()))
    }
}

impl Channel for Live {
    fn request_info(&self) -> RequestInfo {
        request_info(&self.context)
    }

    fn progress(
        &self,
        token: Value,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> BoxFuture<'_, ()> {
        let params = serde_json::from_value::<ProgressNotificationParam>(
            serde_json::json!({"progressToken": token, "progress": progress, "total": total, "message": message}),
        );
        Box::pin(async move {
            // A notification that cannot be sent (the client left) loses nothing the tool needs.
            if let Ok(params) = params {
                let _ = self.context.peer.notify_progress(params).await;
            }
        })
    }

    fn min_level(&self) -> Option<LogLevel> {
        self.context
            .meta
            .log_level()
            .map(level_of)
            .or_else(|| self.shared.log_levels.get(&self.context.peer))
    }

    fn log(&self, level: LogLevel, data: Value) -> BoxFuture<'_, ()> {
        let params = serde_json::from_value::<LoggingMessageNotificationParam>(
            serde_json::json!({"level": level, "data": data}),
        );
        Box::pin(async move {
            if let Ok(params) = params {
                let _ = self.context.peer.notify_logging_message(params).await;
            }
        })
    }

    fn request(
        &self,
        key: String,
        request: ClientRequest,
    ) -> BoxFuture<'_, Result<Value, ClientRequestError>> {
        let Some(input) = &self.input else {
            return Box::pin(self.send(request));
        };
        if let Some(answer) = input.answers.get(&key) {
            lock(&input.used).insert(key, answer.clone());
            return Box::pin(std::future::ready(Ok(answer.clone())));
        }
        let request = match input_request(request) {
            Ok(request) => request,
            Err(e) => return Box::pin(std::future::ready(Err(invalid_request(e)))),
        };
        lock(&input.pending).push((key, request));
        input.waiting.notify_one();
        // The call ends here: the server answers with the input-required result and drops this
        // future; the tool runs again when the client comes back with the answer.
        Box::pin(std::future::pending())
    }

    fn is_cancelled(&self) -> bool {
        self.context.ct.is_cancelled()
    }

    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.context.ct.cancelled())
    }
}

fn input_request(request: ClientRequest) -> Result<InputRequest, serde_json::Error> {
    let ClientRequest { capability, params } = request;
    let wire = serde_json::json!({"method": capability.method(), "params": params});
    Ok(match capability {
        Capability::Elicitation => InputRequest::Elicitation(serde_json::from_value(wire)?),
        Capability::Sampling => InputRequest::CreateMessage(serde_json::from_value(wire)?),
        Capability::Roots => InputRequest::ListRoots(serde_json::from_value(wire)?),
    })
}

impl ToolboxServer {
    /// Serves one `tools/call`: what [`ServerHandler::call_tool`] does, for handlers of your own
    /// that delegate to it.
    async fn serve_call(
        &self,
        name: &str,
        arguments: Option<Map<String, Value>>,
        input_responses: Option<InputResponses>,
        request_state: Option<String>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let snapshot = self.snapshot();
        let input = if uses_input_required(&context) {
            Some(Arc::new(self.answers(
                name,
                input_responses,
                request_state,
            )?))
        } else {
            None
        };
        let ct = context.ct.clone();
        let live = Live {
            context,
            shared: self.shared.clone(),
            input: input.clone(),
        };
        let tool_context = ToolContext::new(Box::new(live));
        let arguments = arguments.map_or(Value::Null, Value::Object);
        let call = snapshot
            .toolbox
            .call_tool_with(name, arguments, tool_context.clone());
        // Completes, with the call's input, when the tool waits on a client request (2026-07-28).
        let waiting = async {
            match &input {
                Some(input) => {
                    input.waiting.notified().await;
                    input
                }
                None => std::future::pending().await,
            }
        };
        let outcome = tokio::select! {
            biased;
            outcome = call => outcome,
            input = waiting => {
                tool_context.finish();
                return self.input_required(name, input);
            }
            () = ct.cancelled() => {
                tool_context.finish();
                return Err(cancelled(name));
            }
        };
        match outcome {
            Ok(result) => Ok(to_rmcp_result(result).into()),
            Err(unknown) => Err(unknown_tool(unknown)),
        }
    }

    fn codec(&self) -> std::sync::RwLockReadGuard<'_, RequestStateCodec> {
        self.shared
            .codec
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The answers a 2026-07-28 call may use: those sealed in its `requestState` (refused if the
    /// seal does not hold or is for another tool) and its `inputResponses` (each an object, the
    /// client's result).
    fn answers(
        &self,
        name: &str,
        input_responses: Option<InputResponses>,
        request_state: Option<String>,
    ) -> Result<Input, ErrorData> {
        let mut answers = Map::new();
        if let Some(state) = request_state {
            let saved: SavedState = self.codec().open_json(&state).map_err(|e| {
                ErrorData::invalid_params(
                    format!("the `requestState` failed its integrity check ({e}); call the tool again without it"),
                    None,
                )
            })?;
            if saved.tool != name {
                return Err(ErrorData::invalid_params(
                    format!(
                        "the `requestState` is for tool `{}`, not `{name}`",
                        quote(&saved.tool)
                    ),
                    None,
                ));
            }
            answers = saved.answers;
        }
        for (key, answer) in input_responses.unwrap_or_default() {
            if !answer.is_object() {
                return Err(ErrorData::invalid_params(
                    format!(
                        "`inputResponses.{}` must be the client's result, an object; got {}",
                        quote(&key),
                        describe(&answer)
                    ),
                    None,
                ));
            }
            answers.insert(key, answer);
        }
        Ok(Input {
            answers,
            ..Input::default()
        })
    }

    /// The input-required result for a call waiting on client requests.
    fn input_required(&self, name: &str, input: &Input) -> Result<CallToolResponse, ErrorData> {
        let requests: InputRequests = std::mem::take(&mut *lock(&input.pending))
            .into_iter()
            .collect();
        let state = SavedState {
            tool: name.to_owned(),
            answers: std::mem::take(&mut *lock(&input.used)),
        };
        let sealed = self
            .codec()
            .seal_json(&state)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(InputRequiredResult::new(Some(requests), Some(sealed)).into())
    }
}

impl ServerHandler for ToolboxServer {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut result = ListToolsResult::with_all_items(self.snapshot().tools.clone());
        if context
            .protocol_version()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
        {
            let hints = *lock(&self.shared.cache);
            result.ttl_ms = Some(hints.ttl_ms);
            result.cache_scope = Some(hints.scope);
        }
        Ok(result)
    }

    /// Runs the tool until it finishes or the client cancels the request
    /// (`notifications/cancelled`): then the tool's future is dropped, so a tool that never
    /// returns holds nothing once its caller gave up.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.serve_call(
            &request.name,
            request.arguments,
            request.input_responses,
            request.request_state,
            context,
        )
        .await
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.shared
            .log_levels
            .set(&context.peer, level_of(request.level));
        Ok(())
    }

    /// Of what a `subscriptions/listen` request (MCP 2026-07-28) asks for, the server accepts
    /// `toolsListChanged`: the one list-changed notification it declares.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        self.shared
            .subscribing
            .accepted(*self.shared.changes.borrow());
        Some(requested.supported_by(&self.shared.info.capabilities))
    }

    /// Sends `notifications/tools/list_changed` on the stream after every
    /// [`update`](Self::update), until the client cancels the subscription or the stream closes.
    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let mut changes = self.shared.changes.subscribe();
        // A change between the acknowledgment and now is announced like a later one.
        if self
            .shared
            .subscribing
            .started()
            .is_some_and(|at| at < *changes.borrow())
        {
            changes.mark_changed();
        }
        if context.accepted().tools_list_changed != Some(true) {
            context.cancelled().await;
            return Ok(());
        }
        loop {
            tokio::select! {
                biased;
                () = context.cancelled() => return Ok(()),
                changed = changes.changed() => {
                    // The sender lives as long as the server; a stream that can no longer be
                    // written to is over.
                    if changed.is_err() || context.sink().notify_tool_list_changed().await.is_err() {
                        return Ok(());
                    }
                }
            }
        }
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let mut peers = lock(&self.shared.peers);
        peers.retain(|peer| !peer.is_transport_closed());
        peers.push(context.peer);
    }

    /// rmcp parses a `tools/call` whose `arguments` is not an object (an array, a string, a
    /// number) as no `tools/call` at all, and hands it here as a custom request; its default is
    /// JSON-RPC -32601 "method not found". Such a call is a tool execution error (MCP
    /// 2025-11-25): it goes to the toolbox, which answers with an `isError` result naming the
    /// problem. Any other unknown method is still -32601.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method != "tools/call" {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        let mut params = match request.params {
            Some(Value::Object(params)) => params,
            _ => {
                return Err(ErrorData::invalid_params(
                    "`tools/call` needs params: an object with the tool's `name`",
                    None,
                ));
            }
        };
        let Some(Value::String(name)) = params.remove("name") else {
            return Err(ErrorData::invalid_params(
                "`tools/call` needs the tool's `name`, a string",
                None,
            ));
        };
        let arguments = params.remove("arguments").unwrap_or(Value::Null);
        match self.snapshot().toolbox.call_tool(&name, arguments).await {
            Ok(result) => serde_json::to_value(to_rmcp_result(result))
                .map(CustomResult)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None)),
            Err(unknown) => Err(unknown_tool(unknown)),
        }
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.snapshot()
            .tools
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::Subscribing;

    /// Every order of three subscriptions (each accepted, then started) and two changes: each
    /// `listen` gets a generation no later than its own request's, so no change made after an
    /// acknowledgment goes unannounced, and nothing is left pending.
    #[test]
    fn every_listen_gets_a_generation_no_later_than_its_own() {
        #[derive(Clone, Copy)]
        enum Step {
            Accept(usize),
            Start(usize),
            Change,
        }
        fn orders(
            accepted: [bool; 3],
            started: [bool; 3],
            changes: u8,
            steps: &mut Vec<Step>,
            out: &mut Vec<Vec<Step>>,
        ) {
            if accepted.iter().all(|&a| a) && started.iter().all(|&s| s) && changes == 0 {
                out.push(steps.clone());
                return;
            }
            let mut next = |step: Step, accepted: [bool; 3], started: [bool; 3], changes: u8| {
                steps.push(step);
                orders(accepted, started, changes, steps, out);
                steps.pop();
            };
            for i in 0..3 {
                if !accepted[i] {
                    let mut a = accepted;
                    a[i] = true;
                    next(Step::Accept(i), a, started, changes);
                } else if !started[i] {
                    let mut s = started;
                    s[i] = true;
                    next(Step::Start(i), accepted, s, changes);
                }
            }
            if changes > 0 {
                next(Step::Change, accepted, started, changes - 1);
            }
        }
        let mut all = Vec::new();
        orders([false; 3], [false; 3], 2, &mut Vec::new(), &mut all);
        assert_eq!(
            all.len(),
            40_320 / (2 * 2 * 2 * 2),
            "8! orders of the steps, over 2 for each subscription's fixed pair and 2! for the changes"
        );
        for order in all {
            let subscribing = Subscribing::default();
            let mut generation = 0;
            let mut own = [0; 3];
            for step in &order {
                match *step {
                    Step::Accept(i) => {
                        own[i] = generation;
                        subscribing.accepted(generation);
                    }
                    Step::Start(i) => {
                        let given = subscribing.started().expect("its own request is pending");
                        assert!(
                            given <= own[i],
                            "listen {i} was given {given}, accepted at {}",
                            own[i]
                        );
                    }
                    Step::Change => generation += 1,
                }
            }
            assert_eq!(subscribing.started(), None, "left pending");
        }
    }
}
