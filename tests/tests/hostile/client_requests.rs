//! Requests to a client (elicitation here) that the client leaves unanswered: each waits a
//! bounded time, and a session has a bounded number waiting.

use std::time::Duration;

use mcp_tool_runtime::server::Limits;
use serde_json::json;
use tests::wire::{Session, call};

use super::fixtures::*;

fn text(answer: &serde_json::Value) -> &str {
    answer["result"]["content"][0]["text"].as_str().unwrap()
}

#[tokio::test]
async fn an_unanswered_client_request_times_out_and_the_tool_sees_why() {
    let mut limits = Limits::default();
    limits.client_request_timeout = Duration::from_millis(200);
    let (served, _) = server(limits);
    let mut session =
        Session::open(served.clone(), 1 << 20, Some(json!({"elicitation": {}}))).await;
    session.send(call(1, "ask", json!({}))).await;
    let asked = session.next().await;
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    // Never answered.
    let answer = session.next().await;
    assert_eq!(answer["id"], 1, "{answer}");
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    assert!(
        text(&answer).contains("the client did not answer within 200ms"),
        "{answer}"
    );
    assert_eq!(served.refusals().client_requests_timed_out, 1);
}

#[tokio::test]
async fn a_session_has_a_bounded_number_of_client_requests_waiting() {
    let mut limits = Limits::default();
    limits.max_client_requests_per_session = 1;
    let (served, _) = server(limits);
    let mut session =
        Session::open(served.clone(), 1 << 20, Some(json!({"elicitation": {}}))).await;
    session.send(call(1, "ask", json!({}))).await;
    let asked = session.next().await;
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    let refused = session.request(call(2, "ask", json!({}))).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(
        text(&refused).contains(
            "1 requests from this server are already waiting on clients (the server's max_client_requests_per_session)"
        ),
        "{refused}"
    );
    assert_eq!(served.refusals().client_requests_per_session, 1);
    // The first is answered, and the session may ask again.
    session
        .send(json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {"name": "Ada"}}}))
        .await;
    let done = session.next().await;
    assert_eq!(done["id"], 1, "{done}");
    assert_eq!(
        done["result"]["structuredContent"],
        json!({"result": "Ada"})
    );
    session.send(call(3, "ask", json!({}))).await;
    assert_eq!(session.next().await["method"], "elicitation/create");
}

#[tokio::test]
async fn the_server_has_a_bounded_number_of_client_requests_waiting() {
    let mut limits = Limits::default();
    limits.max_client_requests = 1;
    let (served, _) = server(limits);
    let mut first = Session::open(served.clone(), 1 << 20, Some(json!({"elicitation": {}}))).await;
    first.send(call(1, "ask", json!({}))).await;
    assert_eq!(first.next().await["method"], "elicitation/create");
    // Another session's question finds the server's quota used.
    let mut second = Session::open(served.clone(), 1 << 20, Some(json!({"elicitation": {}}))).await;
    let refused = second.request(call(1, "ask", json!({}))).await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    assert!(
        text(&refused).contains(
            "1 requests from this server are already waiting on clients (the server's max_client_requests)"
        ),
        "{refused}"
    );
    assert_eq!(served.refusals().client_requests, 1);
}
