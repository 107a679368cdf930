//! A 2025 call whose client hung up stops and gives its places back: its client closes the
//! connection carrying the call's reply, and the call is cancelled on its session (rmcp alone
//! kept it running, holding its slot, until the session idled out five minutes later).

use std::sync::atomic::Ordering;

use mcp_tool_runtime::server::Limits;
use serde_json::json;
use tests::http::HttpServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::fixtures::*;

#[tokio::test]
async fn a_call_whose_client_hung_up_stops_and_gives_its_place_back() {
    let mut limits = Limits::default();
    limits.max_calls_per_session = 1;
    let (served, running) = server(limits);
    let http = HttpServer::start(served).await;
    let opened = http
        .post(
            &[],
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                               "clientInfo": {"name": "hangs-up", "version": "0"}}}),
        )
        .await;
    let session = opened.header("mcp-session-id").unwrap().to_owned();
    let headers = [
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    http.send(
        "POST",
        &headers,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;

    // The call, on a connection of its own, read to its reply's head, then closed.
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "hold", "arguments": {}}})
    .to_string();
    let mut stream = TcpStream::connect(http.addr).await.unwrap();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMcp-Session-Id: {session}\r\n\
         MCP-Protocol-Version: 2025-11-25\r\nContent-Length: {}\r\n\r\n{call}",
        http.addr,
        call.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = [0; 512];
    let n = stream.read(&mut head).await.unwrap();
    assert!(String::from_utf8_lossy(&head[..n]).starts_with("HTTP/1.1 200"));
    eventually("the call runs", || running.0.load(Ordering::SeqCst) == 1).await;
    drop(stream);

    eventually("the abandoned call stops", || {
        running.0.load(Ordering::SeqCst) == 0
    })
    .await;
    // Its place is given back: the session's one call may run again.
    let again = http
        .send(
            "POST",
            &headers,
            &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                    "params": {"name": "add", "arguments": {"a": 1, "b": 2}}}),
        )
        .await;
    assert!(again.message["result"].is_object(), "{again:?}");
}
