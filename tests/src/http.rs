//! A Streamable HTTP server on a loopback port, started in the test's own process, and a raw
//! HTTP/1.1 client that sends exactly the bytes a test writes.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use mcp_tool_runtime::auth::ResourceServer;
use mcp_tool_runtime::rmcp::ServerHandler;
use mcp_tool_runtime::rmcp::transport::streamable_http_server::session::SessionManager;
use mcp_tool_runtime::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use mcp_tool_runtime::rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use mcp_tool_runtime::transport::HttpGuard;
use mcp_tool_runtime::transport::http::{BoundedSessions, HttpRefusals};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The guard's settings a test chooses.
pub struct Settings {
    /// `HttpGuard::max_elements`.
    pub max_elements: usize,
    /// `HttpGuard::body_timeout`.
    pub body_timeout: Duration,
    /// `HttpGuard::max_body_bytes`.
    pub max_body_bytes: usize,
    /// `BoundedSessions::new`.
    pub max_sessions: usize,
    /// rmcp's idle timeout for a session (`SessionConfig::keep_alive`); rmcp's default if `None`.
    pub keep_alive: Option<Duration>,
    /// `HttpGuard::reply_hold`.
    pub reply_hold: Duration,
    /// rmcp's own `LocalSessionManager` in place of `BoundedSessions`, and a guard that is not
    /// given the sessions (`max_sessions` does not hold).
    pub plain_sessions: bool,
    /// `ResourceServer::layer` in front of the guard, made once the address is known (the resource's URL names it);
    /// its metadata document is served at its well-known path.
    pub auth: Option<Box<dyn FnOnce(SocketAddr) -> ResourceServer + Send>>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_elements: mcp_tool_runtime::transport::DEFAULT_MAX_ELEMENTS,
            body_timeout: mcp_tool_runtime::transport::http::DEFAULT_BODY_TIMEOUT,
            max_body_bytes: mcp_tool_runtime::transport::http::DEFAULT_MAX_BODY_BYTES,
            max_sessions: mcp_tool_runtime::transport::http::DEFAULT_MAX_SESSIONS,
            keep_alive: None,
            reply_hold: mcp_tool_runtime::transport::http::DEFAULT_REPLY_HOLD,
            plain_sessions: false,
            auth: None,
        }
    }
}

/// How long a test waits for one answer.
const WAIT: Duration = Duration::from_secs(10);

/// A server answering at `http://{addr}/mcp`, stopped when dropped.
pub struct HttpServer {
    /// Where it listens, on 127.0.0.1.
    pub addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
    /// What its guard refused.
    refusals: Box<dyn Fn() -> HttpRefusals + Send + Sync>,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl HttpServer {
    /// Serves `handler` (one clone per session) behind this crate's `HttpGuard`, as the
    /// examples do, on a port the system picks.
    pub async fn start(handler: impl ServerHandler + Clone) -> HttpServer {
        HttpServer::start_with(handler, Settings::default()).await
    }

    /// Like [`start`](Self::start), with these settings.
    pub async fn start_with(handler: impl ServerHandler + Clone, settings: Settings) -> HttpServer {
        let mut manager = LocalSessionManager::default();
        if let Some(keep_alive) = settings.keep_alive {
            manager.session_config.keep_alive = Some(keep_alive);
        }
        if settings.plain_sessions {
            return HttpServer::start_on(handler, settings, Arc::new(manager), None).await;
        }
        let sessions = Arc::new(BoundedSessions::with_manager(
            manager,
            settings.max_sessions,
        ));
        HttpServer::start_on(handler, settings, sessions.clone(), Some(sessions)).await
    }

    /// Serves `handler` with the sessions of `manager`, which the guard is given as `sessions`
    /// if that is `Some`.
    async fn start_on<M: SessionManager>(
        handler: impl ServerHandler + Clone,
        settings: Settings,
        manager: Arc<M>,
        sessions: Option<Arc<BoundedSessions>>,
    ) -> HttpServer {
        let service = StreamableHttpService::new(
            move || Ok(handler.clone()),
            manager,
            // As the serving guide says.
            StreamableHttpServerConfig::default().with_json_response(true),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut guard = HttpGuard::rmcp(service)
            .max_elements(settings.max_elements)
            .body_timeout(settings.body_timeout)
            .max_body_bytes(settings.max_body_bytes)
            .reply_hold(settings.reply_hold);
        if let Some(sessions) = sessions {
            guard = guard.sessions(sessions);
        }
        let counted = guard.clone();
        let refusals = Box::new(move || counted.refusals());
        let router = match settings.auth {
            Some(auth) => {
                let auth = auth(addr);
                axum::Router::new()
                    .route_service(&auth.metadata().well_known_path(), auth.metadata_service())
                    .nest_service("/mcp", auth.layer(guard))
            }
            None => axum::Router::new().nest_service("/mcp", guard),
        };
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        HttpServer {
            addr,
            task,
            refusals,
        }
    }

    /// What its guard refused so far, by limit.
    pub fn refusals(&self) -> HttpRefusals {
        (self.refusals)()
    }

    /// POSTs `message` with these extra headers and returns the answer carrying its id (or,
    /// for a notification, the reply as it came). A 2026-07-28 request (its `_meta` says so)
    /// gets the headers that version requires: `MCP-Protocol-Version`, `Mcp-Method`, and
    /// `Mcp-Name` for a `tools/call` (the tool) or a `tasks/*` request (the task).
    pub async fn post(&self, headers: &[(&str, &str)], message: &Value) -> HttpReply {
        let body = serde_json::to_string(message).unwrap();
        self.post_raw(headers, message, body.as_bytes()).await
    }

    /// Sends `DELETE /mcp` for the session `id`.
    pub async fn delete(&self, id: &str) -> HttpReply {
        send_to(
            self.addr,
            "DELETE",
            "/mcp",
            &[("Mcp-Session-Id", id)],
            &Value::Null,
            b"",
        )
        .await
    }

    /// Sends `GET path`.
    pub async fn get(&self, path: &str) -> HttpReply {
        send_to(self.addr, "GET", path, &[], &Value::Null, b"").await
    }

    /// Sends `method /mcp` with these headers and, unless it is `Null`, `message` as the body.
    pub async fn send(&self, method: &str, headers: &[(&str, &str)], message: &Value) -> HttpReply {
        let body = match message {
            Value::Null => Vec::new(),
            message => serde_json::to_vec(message).unwrap(),
        };
        send_to(self.addr, method, "/mcp", headers, message, &body).await
    }

    /// Like [`post`](Self::post), with the body as these bytes.
    pub async fn post_raw(
        &self,
        headers: &[(&str, &str)],
        message: &Value,
        body: &[u8],
    ) -> HttpReply {
        send_to(self.addr, "POST", "/mcp", headers, message, body).await
    }
}

/// POSTs `message` to `http://{addr}/mcp` (a server this process did not start), as
/// [`HttpServer::post`] does.
pub async fn post_to(addr: SocketAddr, headers: &[(&str, &str)], message: &Value) -> HttpReply {
    let body = serde_json::to_string(message).unwrap();
    send_to(addr, "POST", "/mcp", headers, message, body.as_bytes()).await
}

/// Like [`post_to`], with a refused connection, a connection closed mid-reply or no reply in ten
/// seconds an error rather than a panic (for load runs, where a replica may die).
pub async fn try_post_to(
    addr: SocketAddr,
    headers: &[(&str, &str)],
    message: &Value,
) -> std::io::Result<HttpReply> {
    let body = serde_json::to_string(message).unwrap();
    try_send_to(addr, "POST", "/mcp", headers, message, body.as_bytes()).await
}

async fn send_to(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    message: &Value,
    body: &[u8],
) -> HttpReply {
    try_send_to(addr, method, path, headers, message, body)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

async fn try_send_to(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    message: &Value,
    body: &[u8],
) -> std::io::Result<HttpReply> {
    let mut stream = write_request(addr, method, path, headers, message, body).await?;
    let id = message.get("id").cloned();
    tokio::time::timeout(WAIT, try_read_reply(&mut stream, id.as_ref()))
        .await
        .map_err(|_| std::io::Error::other("no answer from the server"))?
}

/// Connects and writes the request, with the 2026-07-28 headers the message's `_meta` implies.
async fn write_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    message: &Value,
    body: &[u8],
) -> std::io::Result<TcpStream> {
    let mut headers: Vec<(&str, String)> =
        headers.iter().map(|(n, v)| (*n, (*v).to_owned())).collect();
    let version = &message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"];
    if let Some(version) = version.as_str() {
        headers.push(("MCP-Protocol-Version", version.to_owned()));
        if let Some(method) = message["method"].as_str() {
            headers.push(("Mcp-Method", method.to_owned()));
        }
        let params = &message["params"];
        if let Some(name) = params["name"].as_str().or(params["taskId"].as_str()) {
            headers.push(("Mcp-Name", name.to_owned()));
        }
    }
    let mut request = request_head(method, path, &addr.to_string(), body.len());
    request.push_str("Connection: close\r\n");
    end_head(&mut request, headers);
    let mut stream = TcpStream::connect(addr).await?;
    stream.write_all(request.as_bytes()).await?;
    stream.write_all(body).await?;
    Ok(stream)
}

/// The start of a request's head, as an MCP client writes it: its line, `Host`, and the
/// headers of a JSON body of `length` bytes that takes either kind of reply.
pub fn request_head(method: &str, path: &str, host: &str, length: usize) -> String {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {length}\r\n"
    )
}

/// Adds `headers` to a request's head, and ends it.
pub fn end_head<N: std::fmt::Display, V: std::fmt::Display>(
    request: &mut String,
    headers: impl IntoIterator<Item = (N, V)>,
) {
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
}

/// A POST whose reply stream a test keeps open and reads as it comes: a listen stream, or a
/// call whose server asks the client a question the test leaves unanswered.
pub struct OpenStream {
    stream: TcpStream,
    bytes: Vec<u8>,
}

impl OpenStream {
    /// POSTs `message` to `http://{addr}/mcp` with `headers` and keeps the connection.
    pub async fn post(addr: SocketAddr, headers: &[(&str, &str)], message: &Value) -> OpenStream {
        let body = serde_json::to_string(message).unwrap();
        let stream = write_request(addr, "POST", "/mcp", headers, message, body.as_bytes())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        OpenStream {
            stream,
            bytes: Vec::new(),
        }
    }

    /// The first message on the stream (an SSE event, or a JSON body) that `wanted` accepts,
    /// waiting up to ten seconds for it.
    pub async fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let found = tokio::time::timeout(WAIT, async {
            let mut buf = [0; 16 * 1024];
            loop {
                if let Some(message) = self.messages().into_iter().find(|m| wanted(m)) {
                    return message;
                }
                let n = self.stream.read(&mut buf).await.unwrap_or(0);
                assert!(
                    n > 0,
                    "the stream closed: {}",
                    String::from_utf8_lossy(&self.bytes)
                );
                self.bytes.extend_from_slice(&buf[..n]);
            }
        })
        .await;
        found.unwrap_or_else(|_| {
            panic!(
                "not within ten seconds; the stream so far: {}",
                String::from_utf8_lossy(&self.bytes)
            )
        })
    }

    /// The reply's status line and headers, lower-cased, as far as they have arrived.
    pub fn head(&self) -> String {
        let text = String::from_utf8_lossy(&self.bytes);
        let head = text.split_once("\r\n\r\n").map_or(&*text, |(head, _)| head);
        head.to_ascii_lowercase()
    }

    /// Every message that has arrived so far.
    fn messages(&self) -> Vec<Value> {
        let text = String::from_utf8_lossy(&self.bytes);
        let Some((_, body)) = head_and_body(&text) else {
            return Vec::new();
        };
        let whole = serde_json::from_str(&body).ok();
        events(&body).chain(whole).collect()
    }
}

/// The guard in front of [`serve_tools`]'s server.
pub type ToolsGuard = HttpGuard<
    mcp_tool_runtime::transport::http::SharedRmcp<
        mcp_tool_runtime::ToolboxServer,
        LocalSessionManager,
    >,
>;

/// `toolbox`'s tools served as the serving guide says: a `ToolboxServer` behind
/// `HttpGuard::rmcp` (each sender's request bodies held to `body_share` bytes at once) on
/// `transport::http::serve`, rmcp configured with `config`; its address on 127.0.0.1, and a
/// clone of the guard (to read what it refused).
pub async fn serve_tools(
    toolbox: mcp_tool_runtime::Toolbox,
    config: StreamableHttpServerConfig,
    body_share: usize,
) -> (SocketAddr, ToolsGuard) {
    serve_tools_with(toolbox, config, |guard| {
        guard.max_body_bytes_per_sender(body_share)
    })
    .await
}

/// [`serve_tools`], the guard's settings made by `settings`.
pub async fn serve_tools_with(
    toolbox: mcp_tool_runtime::Toolbox,
    config: StreamableHttpServerConfig,
    settings: impl FnOnce(ToolsGuard) -> ToolsGuard,
) -> (SocketAddr, ToolsGuard) {
    use mcp_tool_runtime::transport::http::{ServeOptions, serve};
    let server = mcp_tool_runtime::ToolboxServer::new(toolbox).unwrap();
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let guard = settings(HttpGuard::rmcp(service));
    let router = axum::Router::new().nest_service("/mcp", guard.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(
        listener,
        router,
        std::future::pending(),
        ServeOptions::default(),
    ));
    (addr, guard)
}

/// A reply read to its last byte (the end of its chunked body, or of its `Content-Length`): the
/// first bytes that came and when, all of it, and when it ended.
pub struct Timed {
    pub first: String,
    pub first_after: Duration,
    pub whole: String,
    pub took: Duration,
}

impl Timed {
    /// The status line and headers, lower-cased.
    pub fn head(&self) -> String {
        self.whole
            .split_once("\r\n\r\n")
            .map_or("", |(head, _)| head)
            .to_ascii_lowercase()
    }

    /// The body as it came (its chunk framing, if chunked).
    pub fn body(&self) -> &str {
        self.whole
            .split_once("\r\n\r\n")
            .map_or("", |(_, body)| body)
    }
}

/// Writes a POST of `message` (with `headers`) on `stream`, a keep-alive connection, and reads
/// its reply to its last byte, timed from the write.
pub async fn timed_exchange(
    stream: &mut TcpStream,
    headers: &[(&str, &str)],
    message: &Value,
) -> Timed {
    let body = message.to_string();
    let mut request = request_head("POST", "/mcp", "127.0.0.1", body.len());
    end_head(&mut request, headers.iter().copied());
    request.push_str(&body);
    let started = std::time::Instant::now();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut first = None;
    let mut reply = Vec::new();
    let mut buf = [0; 8192];
    loop {
        let n = tokio::time::timeout(WAIT, stream.read(&mut buf))
            .await
            .expect("a reply within 10 s")
            .unwrap();
        assert!(n > 0, "the server closed the connection");
        first.get_or_insert_with(|| {
            (
                String::from_utf8_lossy(&buf[..n]).into_owned(),
                started.elapsed(),
            )
        });
        reply.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&reply);
        let Some((head, body)) = text.split_once("\r\n\r\n") else {
            continue;
        };
        let lower = head.to_ascii_lowercase();
        let done = if lower.contains("transfer-encoding: chunked") {
            body.ends_with("0\r\n\r\n")
        } else {
            let length = lower
                .lines()
                .find_map(|l| l.strip_prefix("content-length:")?.trim().parse().ok());
            length.is_some_and(|n: usize| body.len() >= n)
        };
        if done {
            let (first, first_after) = first.expect("bytes came");
            return Timed {
                first,
                first_after,
                whole: text.into_owned(),
                took: started.elapsed(),
            };
        }
    }
}

/// A connection to `addr` from the loopback address `from` (`127.0.0.1`, `127.0.0.2`, ...: the
/// server sees each as a peer of its own).
pub async fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(addr).await.unwrap()
}

/// Reads the reply on a connection a test wrote to itself, within ten seconds.
pub async fn reply_on(stream: &mut TcpStream) -> HttpReply {
    tokio::time::timeout(WAIT, read_reply(stream, None))
        .await
        .expect("no answer from the server")
}

/// An HTTP reply: its status, its head as text, and the JSON-RPC message it carried, if any.
#[derive(Debug)]
pub struct HttpReply {
    /// The status code.
    pub status: u16,
    /// The status line and headers.
    pub head: String,
    /// The JSON-RPC message (a JSON body, or the SSE event carrying the request's id).
    pub message: Value,
}

impl HttpReply {
    /// The value of the header `name` (any case), if the reply has it.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name).then(|| value.trim())
        })
    }
}

/// Reads until the reply is complete: the connection closes, or an SSE event answers `id`.
async fn read_reply(stream: &mut TcpStream, id: Option<&Value>) -> HttpReply {
    try_read_reply(stream, id)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

async fn try_read_reply(stream: &mut TcpStream, id: Option<&Value>) -> std::io::Result<HttpReply> {
    let mut bytes = Vec::new();
    let mut buf = [0; 16 * 1024];
    loop {
        let n = stream.read(&mut buf).await.unwrap_or(0);
        bytes.extend_from_slice(&buf[..n]);
        if let Some(reply) = parse(&bytes, id, n == 0) {
            return Ok(reply);
        }
        if n == 0 {
            return Err(std::io::Error::other(
                "the server closed the connection mid-reply",
            ));
        }
    }
}

fn parse(bytes: &[u8], id: Option<&Value>, closed: bool) -> Option<HttpReply> {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = head_and_body(&text)?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    let head_lower = head.to_ascii_lowercase();
    let reply = |message| HttpReply {
        status,
        head: head.to_owned(),
        message,
    };
    if head_lower.contains("content-type: text/event-stream") {
        let answer = events(&body).find(|message| id.is_none() || message.get("id") == id);
        return match answer {
            Some(message) => Some(reply(message)),
            None if closed => Some(reply(Value::Null)),
            None => None,
        };
    }
    let length = head_lower
        .lines()
        .find_map(|line| line.strip_prefix("content-length:"))
        .and_then(|n| n.trim().parse::<usize>().ok());
    if closed || length.is_some_and(|n| body.len() >= n) {
        return Some(reply(serde_json::from_str(&body).unwrap_or(Value::Null)));
    }
    None
}

/// A reply's head (status line and headers, as they came) and its payload as far as it has
/// arrived, dechunked when the reply is chunked; `None` until the whole head has arrived.
fn head_and_body(text: &str) -> Option<(&str, String)> {
    let (head, body) = text.split_once("\r\n\r\n")?;
    let body = match head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        true => dechunk(body),
        false => body.to_owned(),
    };
    Some((head, body))
}

/// The JSON-RPC messages of a server-sent-events payload's `data:` lines.
fn events(body: &str) -> impl Iterator<Item = Value> + '_ {
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str(data.trim()).ok())
}

/// The payload of a chunked body, as far as it has arrived.
fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            out.push_str(&rest[..rest.len().min(size)]);
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// Answers `POST /` with the JSON string `"ok"`: a service for tests of the connections
/// themselves.
pub fn ok_router() -> axum::Router {
    axum::Router::new().route("/", axum::routing::post(|| async { axum::Json("ok") }))
}

/// [`ok_router`] served by `transport::http::serve` with `options` on 127.0.0.1; its address.
pub async fn serve_ok(options: mcp_tool_runtime::transport::http::ServeOptions) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(mcp_tool_runtime::transport::http::serve(
        listener,
        ok_router(),
        std::future::pending(),
        options,
    ));
    addr
}

/// Sends a JSON-RPC `tools/list` with `id` as `POST /` on `stream` and reads one reply: its
/// status line (lower-cased) and body (`"ok"`'s text, or a refusal's JSON).
pub async fn send_ok(stream: &mut TcpStream, id: u64) -> (String, String) {
    let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
    let request = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let reply = reply_on(stream).await;
    let status = reply.head.lines().next().unwrap().to_lowercase();
    let body = match reply.message {
        Value::String(text) => text,
        other => other.to_string(),
    };
    (status, body)
}

/// Reads `body` (as [`send_ok`] gives it) as the refusal of a connection past its peer's share:
/// the JSON-RPC error `-32029` naming `max_connections_per_peer`, carrying `id`; the reply.
pub fn refused_per_peer(body: &str, id: u64) -> Value {
    let reply: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(reply["id"], id, "{reply}");
    assert_eq!(reply["error"]["code"], -32029, "{reply}");
    assert_eq!(
        reply["error"]["data"]["limit"], "max_connections_per_peer",
        "{reply}"
    );
    reply
}
