//! `HttpGuard`'s bound on the request body bytes held at once: one sender (here, a peer of
//! `transport::http::serve`) holding its share with a slow upload has its next request refused
//! with `-32029` and that request's id, while another sender is served; once the upload ends,
//! the share is given back.

use std::net::SocketAddr;

use mcp_tool_runtime::rmcp::transport::StreamableHttpServerConfig;
use mcp_tool_runtime::transport::http::HttpRefusals;
use mcp_tool_runtime::{Toolbox, mcp_tool};
use serde_json::{Value, json};
use tests::http::{ToolsGuard, connect_from, reply_on, serve_tools};
use tests::wire::meta_2026;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// Says how long the text was.
#[mcp_tool]
fn measure(text: String) -> usize {
    text.len()
}

/// The share of body bytes per sender in this test (past the first 64 KiB of each body, which
/// count toward the server's bound only).
const SHARE: usize = 100 << 10;

const KIB: usize = 1 << 10;

async fn start() -> (SocketAddr, ToolsGuard) {
    let mut toolbox = Toolbox::new();
    toolbox.register(measure::tool()).unwrap();
    let config = StreamableHttpServerConfig::default().with_json_response(true);
    serve_tools(toolbox, config, SHARE).await
}

/// A `tools/call` of `measure` with `id`, exactly `size` bytes long, as the head and body of
/// its HTTP request.
fn call(id: u64, size: usize) -> (String, Vec<u8>) {
    let message = |text: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "measure", "arguments": {"text": text},
                          "_meta": meta_2026(json!({}))}})
        .to_string()
    };
    let padding = size - message("").len();
    let body = message(&"x".repeat(padding)).into_bytes();
    assert_eq!(body.len(), size);
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: measure\r\n\
         Content-Length: {size}\r\n\r\n"
    );
    (head, body)
}

/// What the guard refused: too large, timed out, over the element budget, over the sender's
/// share, over the server's bound.
fn counted(refusals: HttpRefusals) -> [u64; 5] {
    [
        refusals.body_bytes,
        refusals.body_timeout,
        refusals.elements,
        refusals.body_bytes_per_sender,
        refusals.body_bytes_in_flight,
    ]
}

/// Sends a whole call of `size` bytes on `stream`; its reply.
async fn send(stream: &mut TcpStream, id: u64, size: usize) -> Value {
    let (head, body) = call(id, size);
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&body).await.unwrap();
    reply_on(stream).await.message
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sender_holding_its_share_of_body_bytes_is_refused_and_another_is_served() {
    let (addr, guard) = start().await;
    // Alice uploads 160 KiB and stops at 150: her requests hold 86 KiB of her share.
    let mut slow = connect_from("127.0.0.1", addr).await;
    let (head, body) = call(1, 160 * KIB);
    slow.write_all(head.as_bytes()).await.unwrap();
    slow.write_all(&body[..150 * KIB]).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    // 100 KiB more would hold 36 KiB more of it: past her share of 100 KiB.
    let mut other = connect_from("127.0.0.1", addr).await;
    let refused = send(&mut other, 2, 100 * KIB).await;
    assert_eq!(refused["id"], 2, "{refused}");
    assert_eq!(refused["error"]["code"], -32029, "{refused}");
    assert_eq!(
        refused["error"]["data"]["limit"], "max_body_bytes_per_sender",
        "{refused}"
    );
    assert_eq!(refused["error"]["data"]["value"], SHARE, "{refused}");
    // The operator sees it counted under its limit.
    assert_eq!(counted(guard.refusals()), [0, 0, 0, 1, 0]);
    // Bob is served meanwhile.
    let mut bob = connect_from("127.0.0.2", addr).await;
    let served = send(&mut bob, 3, 100 * KIB).await;
    assert!(
        served["result"]["structuredContent"].is_number(),
        "{served}"
    );
    // Alice's upload ends, is answered, and gives her share back.
    slow.write_all(&body[150 * KIB..]).await.unwrap();
    let done = reply_on(&mut slow).await.message;
    assert_eq!(done["id"], 1, "{done}");
    assert!(done["result"]["structuredContent"].is_number(), "{done}");
    let again = send(&mut other, 4, 100 * KIB).await;
    assert!(again["result"]["structuredContent"].is_number(), "{again}");
    assert_eq!(counted(guard.refusals()), [0, 0, 0, 1, 0]);
}
