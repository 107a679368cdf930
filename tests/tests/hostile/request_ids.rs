//! A client that sends a request with the id of one of its requests still being answered on
//! the same session: the second is refused with a JSON-RPC error carrying the id, and the first
//! is answered as if the second had not come. rmcp alone answered the second and left the first
//! unanswered (it routes an answer to the last request that came with its id).

use std::sync::atomic::Ordering;
use std::time::Duration;

use mcp_tool_runtime::server::Limits;
use serde_json::json;
use tests::http::{HttpServer, OpenStream};

use super::fixtures::*;

#[tokio::test]
async fn a_request_id_still_in_flight_on_the_session_is_refused_and_the_first_is_answered() {
    let (served, running) = server(Limits::default());
    let http = HttpServer::start(served).await;
    let session = open_session(&http, "reuses-ids").await;
    let on = on(&session);

    let mut first = OpenStream::post(
        http.addr,
        &on,
        &json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                "params": {"name": "slow", "arguments": {}}}),
    )
    .await;
    eventually("the first call runs", || {
        running.0.load(Ordering::SeqCst) == 1
    })
    .await;

    let second = tokio::time::timeout(
        Duration::from_secs(5),
        http.post(
            &on,
            &json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                    "params": {"name": "add", "arguments": {"a": 1, "b": 2}}}),
        ),
    )
    .await
    .expect("the second request is answered at once");
    let refusal = &second.message;
    assert_eq!(refusal["id"], 7, "{refusal}");
    assert_eq!(refusal["error"]["code"], -32600, "{refusal}");
    let message = refusal["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("7") && message.contains("already"),
        "{refusal}"
    );

    // The first call is answered, with its own result, on its own stream.
    let answer = first.until(|m| m["id"] == 7).await;
    assert_eq!(
        answer["result"]["structuredContent"]["result"], 42,
        "{answer}"
    );

    // Answered, its id may be used again.
    let again = http
        .post(
            &on,
            &json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                    "params": {"name": "add", "arguments": {"a": 1, "b": 2}}}),
        )
        .await;
    assert_eq!(
        again.message["result"]["structuredContent"]["result"], 3,
        "{}",
        again.message
    );
}
