//! The call context over the wire: progress, logging at the set level, elicitation, refusals.

use serde_json::{Value, json};
use tests::wire::{Session, call};

use super::fixtures::*;

#[tokio::test]
async fn progress_logging_at_the_set_level_and_elicitation_reach_a_2025_client() {
    let mut session = Session::open(server(), 1 << 20, Some(json!({"elicitation": {}}))).await;
    let capabilities = &session.init["result"]["capabilities"];
    assert_eq!(capabilities["tools"]["listChanged"], true, "{capabilities}");
    assert!(capabilities.get("logging").is_some(), "{capabilities}");
    let set = session
        .request(json!({"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "info"}}))
        .await;
    assert!(set.get("result").is_some(), "{set}");
    session
        .send(json!({
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "chatty", "arguments": {}, "_meta": {"progressToken": "p-2"}}
        }))
        .await;
    let mut seen = Vec::new();
    let ask = loop {
        let message = session.next().await;
        if message["method"] == "elicitation/create" {
            break message;
        }
        seen.push(message);
    };
    assert_eq!(
        methods(&seen),
        [
            "notifications/progress",
            "notifications/message",
            "notifications/message"
        ]
    );
    assert_eq!(seen[0]["params"]["progressToken"], "p-2");
    assert_eq!(seen[0]["params"]["progress"], 1.0);
    assert_eq!(seen[0]["params"]["total"], 2.0);
    assert_eq!(
        seen[1]["params"],
        json!({"level": "info", "data": "info line"})
    );
    assert_eq!(
        seen[2]["params"],
        json!({"level": "warning", "data": "warning line"})
    );
    assert_eq!(ask["params"]["message"], "Who are you?");
    assert_eq!(
        ask["params"]["requestedSchema"]["required"],
        json!(["name"])
    );
    session
        .send(json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"name": "Ada"}}}))
        .await;
    let (rest, answer) = until_response(&mut session, 2).await;
    assert_eq!(rest, Vec::<Value>::new());
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({"result": "Ada"}),
        "{answer}"
    );
}

#[tokio::test]
async fn without_a_progress_token_or_the_capability_nothing_is_sent_and_the_error_says_why() {
    let mut session = Session::open(server(), 1 << 20, Some(json!({}))).await;
    session.send(call(3, "chatty", json!({}))).await;
    let (before, answer) = until_response(&mut session, 3).await;
    // No progress without a token; every level before the client sets one.
    assert_eq!(
        methods(&before),
        [
            "notifications/message",
            "notifications/message",
            "notifications/message"
        ]
    );
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("did not declare the `elicitation` capability"),
        "{text}"
    );
}

#[tokio::test]
async fn each_session_keeps_its_own_log_level() {
    let served = server();
    let mut quiet = Session::open(served.clone(), 1 << 20, Some(json!({}))).await;
    let mut chatty_session = Session::open(served.clone(), 1 << 20, Some(json!({}))).await;
    let set = quiet
        .request(json!({"jsonrpc": "2.0", "id": 40, "method": "logging/setLevel", "params": {"level": "error"}}))
        .await;
    assert!(set.get("result").is_some(), "{set}");
    quiet.send(call(41, "chatty", json!({}))).await;
    let (quiet_lines, _) = until_response(&mut quiet, 41).await;
    assert_eq!(methods(&quiet_lines), Vec::<&str>::new());
    chatty_session.send(call(42, "chatty", json!({}))).await;
    let (lines, _) = until_response(&mut chatty_session, 42).await;
    assert_eq!(methods(&lines).len(), 3, "{lines:?}");
}

#[tokio::test]
async fn a_form_mcp_cannot_show_is_refused_before_anything_is_sent_at_every_version() {
    let expect_refusal = |answer: &Value| {
        assert_eq!(answer["result"]["isError"], true, "{answer}");
        let text = answer["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("cannot elicit this type"), "{text}");
    };
    let mut legacy = Session::open(server(), 1 << 20, Some(json!({"elicitation": {}}))).await;
    legacy.send(call(60, "nested_form", json!({}))).await;
    let (before, answer) = until_response(&mut legacy, 60).await;
    assert_eq!(methods(&before), Vec::<&str>::new());
    expect_refusal(&answer);
    let mut modern = Session::open(server(), 1 << 20, None).await;
    expect_refusal(
        &modern
            .request(call_2026(61, "nested_form", json!({})))
            .await,
    );
}
