//! Calls on one keep-alive connection are answered at once: `transport::http::serve` sets
//! `TCP_NODELAY`, so the last small writes of a reply (rmcp writes a server-sent-events reply in
//! several) do not wait for the client's delayed ACK, about 40 ms on Linux.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_tool_runtime::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use mcp_tool_runtime::rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use mcp_tool_runtime::transport::HttpGuard;
use mcp_tool_runtime::transport::http::{ServeOptions, serve};
use mcp_tool_runtime::{Toolbox, ToolboxServer, mcp_tool};
use serde_json::json;
use tests::wire::meta_2026;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Adds two numbers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Calls made one after another on one connection.
const CALLS: usize = 30;

/// Far above a loopback call (well under a millisecond of work), far below the 40 ms a delayed
/// ACK costs: a stalled reply cannot pass for a slow machine.
const STALL: Duration = Duration::from_millis(20);

async fn start() -> std::net::SocketAddr {
    let mut toolbox = Toolbox::new();
    toolbox.register(add::tool()).unwrap();
    let server = ToolboxServer::new(toolbox).unwrap();
    let rmcp_service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", HttpGuard::new(rmcp_service));
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

/// Writes a 2026-07-28 `tools/call` on `stream` and reads its reply to its last byte (the end of
/// the chunked body): how long that took.
async fn call(stream: &mut TcpStream, id: usize) -> Duration {
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 2, "b": 3}, "_meta": meta_2026(json!({}))}})
    .to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: add\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let started = Instant::now();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut reply = Vec::new();
    let mut buf = [0; 8192];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buf))
            .await
            .expect("a reply within 10 s")
            .unwrap();
        assert!(n > 0, "the server closed the connection");
        reply.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&reply);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let done = if head
                .to_ascii_lowercase()
                .contains("transfer-encoding: chunked")
            {
                body.ends_with("0\r\n\r\n")
            } else {
                let length = head
                    .to_ascii_lowercase()
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:")?.trim().parse().ok());
                length.is_some_and(|n: usize| body.len() >= n)
            };
            if done {
                assert!(text.contains(r#""result""#), "{text}");
                return started.elapsed();
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_on_one_keep_alive_connection_are_answered_without_waiting_on_the_network() {
    let addr = start().await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut times = Vec::with_capacity(CALLS);
    for id in 0..CALLS {
        times.push(call(&mut stream, id).await);
    }
    let stalled: Vec<_> = times.iter().filter(|t| **t >= STALL).collect();
    // One slow call may be the machine; a stall repeats on every call after the first few.
    assert!(
        stalled.len() <= 1,
        "{} of {CALLS} calls on one connection took {STALL:?} or more: {times:?}",
        stalled.len()
    );
}
