//! A cancelled call drops the tool's future and the session goes on.

use serde_json::json;
use tests::wire::call;

use super::fixtures::*;

#[tokio::test]
async fn a_cancelled_call_drops_the_tool_and_the_session_goes_on() {
    use std::sync::atomic::Ordering;
    let mut session = start().await;
    session.send(call(71, "waits_forever", json!({}))).await;
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    assert!(!WAIT_DROPPED.load(Ordering::SeqCst), "the tool is running");
    session
        .send(json!({
            "jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 71, "reason": "the user gave up"}
        }))
        .await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !WAIT_DROPPED.load(Ordering::SeqCst) {
        assert!(
            std::time::Instant::now() < deadline,
            "the tool's future was not dropped"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    // The session goes on, and the cancelled request got no response (MCP: SHOULD NOT).
    session.send(call(72, "add", json!({"a": 1, "b": 1}))).await;
    let answer = session.next().await;
    assert_eq!(answer["id"], 72, "only the next call's answer: {answer}");
    assert_eq!(answer["result"]["structuredContent"], json!({"result": 2}));
}
