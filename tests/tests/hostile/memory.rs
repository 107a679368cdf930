//! Messages whose parsed values would take many times their bytes: counted before they are
//! built, and refused past the element budget with a JSON-RPC error carrying their id; uploads
//! that never finish are answered and closed.

use std::time::{Duration, Instant};

use mcp_tool_runtime::server::Limits;
use serde_json::{Value, json};
use tests::http::{HttpServer, Settings, reply_on};
use tests::wire::{Session, call};
use tokio::io::AsyncWriteExt;

use super::fixtures::*;

/// `add` with `a` an array of `n` zeros.
fn wide_call(id: u64, n: usize) -> Value {
    call(id, "add", json!({"a": vec![0; n], "b": 1}))
}

fn assert_over_budget(answer: &Value, id: u64, limit: usize) {
    assert_eq!(answer["id"], id, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("limit of {limit} JSON elements")),
        "{message}"
    );
}

#[tokio::test]
async fn over_stdio_a_message_past_the_element_budget_is_refused_with_its_id() {
    let (served, _) = server(Limits::default());
    let mut session =
        Session::open_with(served, Some(json!({})), 1 << 20, |t| t.max_elements(1_000)).await;
    let answer = session.request(wide_call(1, 5_000)).await;
    assert_over_budget(&answer, 1, 1_000);
    // Within the budget, the same call is read (and is a tool error: `a` is not a number).
    let answer = session.request(wide_call(2, 500)).await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
}

#[tokio::test]
async fn over_http_a_body_past_the_element_budget_is_refused_with_its_id() {
    let (served, _) = server(Limits::default());
    let http = HttpServer::start_with(
        served,
        Settings {
            max_elements: 1_000,
            ..Settings::default()
        },
    )
    .await;
    let mut request = wide_call(1, 5_000);
    request["params"]["_meta"] = tests::wire::meta_2026(json!({}));
    let reply = http.post(&[], &request).await;
    assert_over_budget(&reply.message, 1, 1_000);
    // Counted for the operator under its limit, and nothing else.
    let refused = http.refusals();
    assert_eq!(
        (refused.elements, refused.body_bytes),
        (1, 0),
        "{refused:?}"
    );
    // A `tools/call` is outlined for the tool it names only with a layer in front; an
    // `initialize` is, where sessions are bounded: counted the same.
    let mut initialize = json!({"jsonrpc": "2.0", "id": 2, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "0"}, "padding": vec![0; 5_000]}});
    let reply = http.post(&[], &initialize).await;
    assert_over_budget(&reply.message, 2, 1_000);
    assert_eq!(http.refusals().elements, 2);
    // Unreadable is not over the budget.
    initialize["params"]["padding"] = json!([]);
    let reply = http
        .post_raw(&[], &initialize, b"{\"jsonrpc\": \"2.0\", \"id\": 3,")
        .await;
    assert_eq!(reply.message["error"]["code"], -32700, "{:?}", reply);
    assert_eq!(http.refusals().elements, 2);
}

#[tokio::test]
async fn over_http_a_body_past_max_body_bytes_is_refused_with_its_id_and_counted() {
    let (served, _) = server(Limits::default());
    let http = HttpServer::start_with(
        served,
        Settings {
            max_body_bytes: 1_024,
            ..Settings::default()
        },
    )
    .await;
    let mut request = call(
        1,
        "add",
        json!({"a": 1, "b": 2, "padding": "x".repeat(4_096)}),
    );
    request["params"]["_meta"] = tests::wire::meta_2026(json!({}));
    let reply = http.post(&[], &request).await;
    // With its id, so HTTP 200: the client hands the error to the request.
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.message["id"], 1, "{reply:?}");
    assert_eq!(reply.message["error"]["code"], -32600, "{reply:?}");
    let message = reply.message["error"]["message"].as_str().unwrap();
    assert!(message.contains("limit of 1024 bytes"), "{message}");
    let refused = http.refusals();
    assert_eq!(
        (refused.body_bytes, refused.elements),
        (1, 0),
        "{refused:?}"
    );
    // Within the limit, the same server serves.
    let mut small = call(2, "add", json!({"a": 1, "b": 2}));
    small["params"]["_meta"] = tests::wire::meta_2026(json!({}));
    let reply = http.post(&[], &small).await;
    assert_eq!(reply.message["result"]["structuredContent"], 3, "{reply:?}");
}

#[tokio::test]
async fn over_http_an_upload_left_unfinished_is_answered_and_closed() {
    let (served, _) = server(Limits::default());
    let http = HttpServer::start_with(
        served,
        Settings {
            body_timeout: Duration::from_millis(300),
            ..Settings::default()
        },
    )
    .await;
    let mut stream = tokio::net::TcpStream::connect(http.addr).await.unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n",
        http.addr
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(br#"{"jsonrpc": "2.0", "#).await.unwrap();
    let started = Instant::now();
    // Then silence: the server answers once the body timeout passes.
    let reply = reply_on(&mut stream).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(reply.status, 408, "{reply:?}");
    assert!(
        reply
            .head
            .to_ascii_lowercase()
            .contains("connection: close"),
        "{reply:?}"
    );
    let message = reply.message["error"]["message"].as_str().unwrap();
    assert!(message.contains("did not arrive within"), "{message}");
    assert_eq!(http.refusals().body_timeout, 1);
}
