//! A 2025 reply's head is held until its stream ends, up to `HttpGuard::reply_hold`: a call that
//! ends within it leaves whole, in one write, with its length; a longer one streams from the
//! end of the hold, as rmcp streams it.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use mcp_tool_runtime::rmcp::transport::StreamableHttpServerConfig;
use mcp_tool_runtime::{Toolbox, mcp_tool};
use serde_json::json;
use tests::http::{Timed, serve_tools_with, timed_exchange};
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
    let config = StreamableHttpServerConfig::default();
    serve_tools_with(toolbox, config, |guard| guard.reply_hold(hold))
        .await
        .0
}

/// A connection with a 2025-11-25 session opened on it, and that session's id.
async fn session(addr: SocketAddr) -> (TcpStream, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "held", "version": "0"}}});
    let opened = timed_exchange(&mut stream, &[], &initialize).await;
    let session = opened
        .head()
        .lines()
        .find_map(|line| line.strip_prefix("mcp-session-id:").map(str::trim))
        .expect("a session id")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    timed_exchange(&mut stream, &on(&session), &initialized).await;
    (stream, session)
}

/// The headers of a message on `session`.
fn on(session: &str) -> [(&str, &str); 2] {
    [
        ("Mcp-Session-Id", session),
        ("MCP-Protocol-Version", "2025-11-25"),
    ]
}

/// A call of `pause` for `ms` on a new session of `addr`'s, and when it was sent.
async fn call_pause(addr: SocketAddr, ms: u64) -> (Timed, Instant) {
    let (mut stream, session) = session(addr).await;
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "pause", "arguments": {"ms": ms}}});
    let sent = Instant::now();
    (
        timed_exchange(&mut stream, &on(&session), &call).await,
        sent,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_ends_within_the_hold_leaves_whole_with_its_length() {
    let addr = start(Duration::from_secs(2)).await;
    let (reply, _) = call_pause(addr, 100).await;
    // Nothing of the reply, not even its head, left before the call ended; then all of it did.
    assert!(
        reply.first_after >= Duration::from_millis(100),
        "the first bytes came after {:?}",
        reply.first_after
    );
    assert_eq!(reply.first, reply.whole);
    // rmcp's events as it wrote them (the priming event, then the result), with their length.
    let head = reply.head();
    assert!(head.contains("content-type: text/event-stream"), "{head}");
    assert!(!head.contains("transfer-encoding"), "{head}");
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:")?.trim().parse().ok())
        .expect("a length");
    assert_eq!(length, reply.body().len());
    let events: Vec<&str> = reply
        .body()
        .split("\n\n")
        .filter(|e| !e.is_empty())
        .collect();
    assert_eq!(events.len(), 2, "{}", reply.body());
    assert!(
        events[0].contains("id:"),
        "a priming event first: {events:?}"
    );
    assert!(
        events[1].contains(r#""structuredContent":{"result":100}"#),
        "{events:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_longer_than_the_hold_streams_from_its_end() {
    let addr = start(Duration::from_millis(200)).await;
    let (reply, sent) = call_pause(addr, 1500).await;
    // The head and the priming event when the hold ended, well before the result.
    assert!(
        reply.first_after >= Duration::from_millis(200)
            && reply.first_after < Duration::from_millis(1500),
        "the first bytes came after {:?}",
        reply.first_after
    );
    assert!(!reply.first.contains(r#""result""#), "{}", reply.first);
    assert!(sent.elapsed() >= Duration::from_millis(1500));
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
    let (reply, _) = call_pause(addr, 1500).await;
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
