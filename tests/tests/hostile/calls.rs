//! Calls in flight: one session cannot hold more than its share, nor the server more than its
//! limit, and a refused call gets a JSON-RPC error at once.

use std::sync::atomic::Ordering;

use mcp_tool_runtime::server::Limits;
use serde_json::json;
use tests::wire::{Session, call};

use super::fixtures::*;

#[tokio::test]
async fn a_session_past_its_calls_in_flight_is_refused_and_others_are_served() {
    let mut limits = Limits::default();
    limits.max_calls_per_session = 3;
    let (served, running) = server(limits);
    let mut greedy = Session::open(served.clone(), 1 << 20, Some(json!({}))).await;
    for id in 1..=3 {
        greedy.send(call(id, "hold", json!({}))).await;
    }
    eventually("three calls running", || {
        running.0.load(Ordering::SeqCst) == 3
    })
    .await;
    let refused = greedy.request(call(4, "hold", json!({}))).await;
    assert_limit(&refused, "max_calls_per_session", 3);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("try again when one finishes"),
        "{refused}"
    );
    assert_eq!(served.refusals().calls_per_session, 1);

    // Another session is served meanwhile.
    let mut other = Session::open(served.clone(), 1 << 20, Some(json!({}))).await;
    let sum = other.request(call(1, "add", json!({"a": 1, "b": 2}))).await;
    assert_eq!(sum["result"]["structuredContent"], json!({"result": 3}));

    // When one call ends, the session has room again.
    greedy
        .send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}))
        .await;
    eventually("the cancelled call dropped", || {
        running.0.load(Ordering::SeqCst) == 2
    })
    .await;
    let sum = greedy
        .request(call(5, "add", json!({"a": 2, "b": 2})))
        .await;
    assert_eq!(sum["result"]["structuredContent"], json!({"result": 4}));
}

#[tokio::test]
async fn the_server_past_its_calls_in_flight_refuses_every_session() {
    let mut limits = Limits::default();
    limits.max_calls = 4;
    let (served, running) = server(limits);
    let mut first = Session::open(served.clone(), 1 << 20, Some(json!({}))).await;
    let mut second = Session::open(served.clone(), 1 << 20, Some(json!({}))).await;
    for id in 1..=2 {
        first.send(call(id, "hold", json!({}))).await;
        second.send(call(id, "hold", json!({}))).await;
    }
    eventually("four calls running", || {
        running.0.load(Ordering::SeqCst) == 4
    })
    .await;
    let refused = second
        .request(call(3, "add", json!({"a": 1, "b": 1})))
        .await;
    assert_limit(&refused, "max_calls", 4);
    assert_eq!(served.refusals().calls, 1);
    // A session that is closed gives its calls back.
    drop(first);
    eventually("the closed session's calls dropped", || {
        running.0.load(Ordering::SeqCst) == 2
    })
    .await;
    let sum = second
        .request(call(4, "add", json!({"a": 1, "b": 1})))
        .await;
    assert_eq!(sum["result"]["structuredContent"], json!({"result": 2}));
}
