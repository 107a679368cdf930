//! Calls on one keep-alive connection are answered at once: `transport::http::serve` sets
//! `TCP_NODELAY`, so the last small writes of a reply (rmcp writes a server-sent-events reply in
//! several) do not wait for the client's delayed ACK, about 40 ms on Linux.

use std::time::Duration;

use mcp_tool_runtime::rmcp::transport::StreamableHttpServerConfig;
use mcp_tool_runtime::transport::http::DEFAULT_MAX_BODY_BYTES_PER_SENDER;
use mcp_tool_runtime::{Toolbox, mcp_tool};
use serde_json::json;
use tests::http::{serve_tools, timed_exchange};
use tests::wire::meta_2026;
use tokio::net::TcpStream;

/// Adds two numbers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Calls made one after another on one connection.
const CALLS: usize = 40;

/// Far above a loopback call (well under a millisecond of work), far below the 40 ms a delayed
/// ACK costs: a stalled reply cannot pass for a slow machine.
const STALL: Duration = Duration::from_millis(20);

async fn start() -> std::net::SocketAddr {
    let mut toolbox = Toolbox::new();
    toolbox.register(add::tool()).unwrap();
    serve_tools(
        toolbox,
        StreamableHttpServerConfig::default(),
        DEFAULT_MAX_BODY_BYTES_PER_SENDER,
    )
    .await
    .0
}

fn add_call(id: usize, meta: Option<serde_json::Value>) -> serde_json::Value {
    let mut call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 2, "b": 3}}});
    if let Some(meta) = meta {
        call["params"]["_meta"] = meta;
    }
    call
}

/// How many of `times` took [`STALL`] or more; fails if more than a tenth did (a slow moment of a
/// loaded machine is one call, a stall repeats on call after call).
fn assert_no_stall(version: &str, times: &[Duration]) {
    let stalled = times.iter().filter(|t| **t >= STALL).count();
    assert!(
        stalled * 10 <= times.len(),
        "at {version}, {stalled} of {} calls on one connection took {STALL:?} or more: {times:?}",
        times.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_on_one_keep_alive_connection_are_answered_without_waiting_on_the_network() {
    let addr = start().await;

    // 2026-07-28: stateless, each call with its own `_meta`.
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let headers = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "add"),
    ];
    let mut times = Vec::with_capacity(CALLS);
    for id in 0..CALLS {
        let call = add_call(id, Some(meta_2026(json!({}))));
        let reply = timed_exchange(&mut stream, &headers, &call).await;
        assert!(reply.body().contains(r#""result""#), "{}", reply.whole);
        times.push(reply.took);
    }
    assert_no_stall("2026-07-28", &times);

    // 2025-11-25: a session opened on the connection, then the calls on it.
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "keep-alive", "version": "0"}}});
    let head = timed_exchange(&mut stream, &[], &initialize).await.head();
    let session = head
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        })
        .expect("a session id");
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    timed_exchange(&mut stream, &headers, &initialized).await;
    let mut times = Vec::with_capacity(CALLS);
    for id in 1..=CALLS {
        let reply = timed_exchange(&mut stream, &headers, &add_call(id, None)).await;
        assert!(reply.body().contains(r#""result""#), "{}", reply.whole);
        times.push(reply.took);
    }
    assert_no_stall("2025-11-25", &times);
}
