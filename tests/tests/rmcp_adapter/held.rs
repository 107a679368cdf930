//! A 2025 reply's head is held until its stream ends, up to `HttpGuard::reply_hold`: a call that
//! ends within it leaves whole, in one write, with its length; a longer one streams from the
//! end of the hold, as rmcp streams it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_tool_runtime::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use mcp_tool_runtime::rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use mcp_tool_runtime::transport::http::{HttpGuard, ServeOptions, serve};
use mcp_tool_runtime::{Toolbox, ToolboxServer, mcp_tool};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Waits `ms` milliseconds, then says how long it waited.
#[mcp_tool]
async fn pause(ms: u64) -> u64 {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    ms
}

/// A server whose guard holds replies for `hold`.
async fn start(hold: Duration) -> SocketAddr {
    let mut toolbox = Toolbox::new();
    toolbox.register(pause::tool()).unwrap();
    let server = ToolboxServer::new(toolbox).unwrap();
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let guard = HttpGuard::rmcp(service).reply_hold(hold);
    let router = axum::Router::new().nest_service("/mcp", guard);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(
        listener,
        router,
        std::future::pending(),
        ServeOptions::default(),
    ));
    addr
}

/// A reply read off the connection: the first bytes that arrived and when, and the whole of it.
struct Reply {
    first: String,
    first_after: Duration,
    whole: String,
}

impl Reply {
    fn head(&self) -> String {
        self.whole
            .split_once("\r\n\r\n")
            .unwrap()
            .0
            .to_ascii_lowercase()
    }
}

/// Writes `message` on `stream` and reads its reply to its last byte.
async fn exchange(
    stream: &mut TcpStream,
    headers: &[(&str, &str)],
    message: &serde_json::Value,
) -> Reply {
    let body = message.to_string();
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(&body);
    let started = Instant::now();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut first = None;
    let mut reply = Vec::new();
    let mut buf = [0; 8192];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buf))
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
            let (first, first_after) = first.unwrap();
            return Reply {
                first,
                first_after,
                whole: text.into_owned(),
            };
        }
    }
}

/// A connection with a 2025-11-25 session opened on it, and that session's headers.
async fn session(addr: SocketAddr) -> (TcpStream, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "held", "version": "0"}}});
    let opened = exchange(&mut stream, &[], &initialize).await;
    let session = opened
        .head()
        .lines()
        .find_map(|line| line.strip_prefix("mcp-session-id:").map(str::trim))
        .expect("a session id")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    exchange(&mut stream, &headers, &initialized).await;
    (stream, session)
}

fn pause_call(id: u64, ms: u64) -> serde_json::Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "pause", "arguments": {"ms": ms}}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_ends_within_the_hold_leaves_whole_with_its_length() {
    let addr = start(Duration::from_secs(2)).await;
    let (mut stream, session) = session(addr).await;
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let reply = exchange(&mut stream, &headers, &pause_call(1, 100)).await;
    // Nothing of the reply, not even its head, left before the call ended; then all of it did.
    assert!(
        reply.first_after >= Duration::from_millis(100),
        "the first bytes came after {:?}",
        reply.first_after
    );
    assert!(reply.first.contains(r#""result""#), "{}", reply.first);
    assert_eq!(reply.first, reply.whole);
    // rmcp's events as it wrote them (the priming event, then the result), with their length.
    let head = reply.head();
    assert!(head.contains("content-type: text/event-stream"), "{head}");
    assert!(!head.contains("transfer-encoding"), "{head}");
    let body = reply.whole.split_once("\r\n\r\n").unwrap().1;
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:")?.trim().parse().ok())
        .expect("a length");
    assert_eq!(length, body.len());
    let events: Vec<&str> = body.split("\n\n").filter(|e| !e.is_empty()).collect();
    assert_eq!(events.len(), 2, "{body}");
    assert!(events[0].contains("id:"), "a priming event first: {body}");
    assert!(
        events[1].contains(r#""structuredContent":{"result":100}"#),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_longer_than_the_hold_streams_from_its_end() {
    let addr = start(Duration::from_millis(200)).await;
    let (mut stream, session) = session(addr).await;
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let started = Instant::now();
    let reply = exchange(&mut stream, &headers, &pause_call(1, 1500)).await;
    // The head and the priming event when the hold ended, well before the result.
    assert!(
        reply.first_after >= Duration::from_millis(200)
            && reply.first_after < Duration::from_millis(1500),
        "the first bytes came after {:?}",
        reply.first_after
    );
    assert!(!reply.first.contains(r#""result""#), "{}", reply.first);
    assert!(started.elapsed() >= Duration::from_millis(1500));
    assert!(reply.head().contains("transfer-encoding: chunked"));
    assert!(
        reply
            .whole
            .contains(r#""structuredContent":{"result":1500}"#)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_hold_the_head_leaves_at_once() {
    let addr = start(Duration::ZERO).await;
    let (mut stream, session) = session(addr).await;
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let reply = exchange(&mut stream, &headers, &pause_call(1, 1500)).await;
    assert!(
        reply.first_after < Duration::from_millis(1000),
        "the first bytes came after {:?}",
        reply.first_after
    );
    assert!(!reply.first.contains(r#""result""#), "{}", reply.first);
    assert!(
        reply
            .whole
            .contains(r#""structuredContent":{"result":1500}"#)
    );
}
