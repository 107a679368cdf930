//! A Streamable HTTP session belongs to the caller who opened it: another caller with a valid
//! token of its own and the session's id is answered 404, as for a session that does not exist,
//! on every method (a call, a notification, a client's answer, the GET stream and DELETE), and
//! the session goes on serving its owner.

use serde_json::{Value, json};

use super::fixtures::*;

fn initialize() -> Value {
    json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "owner", "version": "0"}
        }
    })
}

fn call(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "whoami", "arguments": {}}})
}

#[tokio::test]
async fn another_caller_is_told_the_session_does_not_exist() {
    let server = Protected::start().await;
    let alice = format!("Bearer {}", server.token(BASE_SCOPE));
    let mut bob_claims = claims(&server.issuer.url, &server.resource, BASE_SCOPE);
    bob_claims["sub"] = json!("bob");
    let bob = format!("Bearer {}", sign(&bob_claims, ISSUER_KEY, "k1"));

    let opened = server
        .http
        .post(&[("Authorization", &alice)], &initialize())
        .await;
    let session = opened
        .header("mcp-session-id")
        .unwrap_or_else(|| panic!("no session: {opened:?}"))
        .to_owned();
    let as_alice = [
        ("Authorization", alice.as_str()),
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let as_bob = [
        ("Authorization", bob.as_str()),
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let accepted = server.http.send("POST", &as_alice, &initialized).await;
    assert!(accepted.status < 300, "{accepted:?}");

    let messages = [
        ("a call", "POST", call(2)),
        (
            "a notification",
            "POST",
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}),
        ),
        (
            "a client's answer",
            "POST",
            json!({"jsonrpc": "2.0", "id": 0, "result": {"action": "accept", "content": {"send": true}}}),
        ),
        ("the GET stream", "GET", Value::Null),
        ("its DELETE", "DELETE", Value::Null),
    ];
    for (what, method, message) in &messages {
        let refused = server.http.send(method, &as_bob, message).await;
        assert_eq!(
            refused.status, 404,
            "{what} from another caller: {refused:?}"
        );
        // No credential at all is another caller too.
        let anonymous = [
            ("Mcp-Session-Id", session.as_str()),
            ("MCP-Protocol-Version", "2025-11-25"),
        ];
        let refused = server.http.send(method, &anonymous, message).await;
        assert!(
            refused.status == 401 || refused.status == 404,
            "{what} without a token: {refused:?}"
        );
    }
    assert_eq!(server.tool_runs(), 0, "another caller's call ran");

    // The owner's session is whole: served, then ended by its owner.
    let served = server.http.send("POST", &as_alice, &call(3)).await;
    assert_eq!(
        served.message["result"]["structuredContent"]["subject"], "alice",
        "{served:?}"
    );
    let ended = server.http.send("DELETE", &as_alice, &Value::Null).await;
    assert_eq!(ended.status, 200, "{ended:?}");
    let gone = server.http.send("POST", &as_alice, &call(4)).await;
    assert_eq!(gone.status, 404, "{gone:?}");
}

#[tokio::test]
async fn the_same_caller_with_a_fresh_token_keeps_its_session() {
    let server = Protected::start().await;
    let first = format!("Bearer {}", server.token(BASE_SCOPE));
    let opened = server
        .http
        .post(&[("Authorization", &first)], &initialize())
        .await;
    let session = opened.header("mcp-session-id").unwrap().to_owned();
    let mut refreshed_claims = claims(&server.issuer.url, &server.resource, BASE_SCOPE);
    refreshed_claims["exp"] = json!(now() + 600);
    let refreshed = format!("Bearer {}", sign(&refreshed_claims, ISSUER_KEY, "k1"));
    assert_ne!(first, refreshed);
    let headers = [
        ("Authorization", refreshed.as_str()),
        ("Mcp-Session-Id", session.as_str()),
        ("MCP-Protocol-Version", "2025-11-25"),
    ];
    let _ = server
        .http
        .send(
            "POST",
            &headers,
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .await;
    let served = server.http.send("POST", &headers, &call(2)).await;
    assert_eq!(
        served.message["result"]["structuredContent"]["subject"], "alice",
        "{served:?}"
    );
}
