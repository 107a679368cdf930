//! Streamable HTTP sessions: the server keeps a bounded number, and the one past it gets a
//! JSON-RPC error on its `initialize`.

use mcp_tool_runtime::server::Limits;
use serde_json::{Value, json};
use tests::http::{HttpReply, HttpServer, Settings};

use super::fixtures::*;

fn initialize(id: u64) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "hostile", "version": "0"}
        }
    })
}

fn session_id(reply: &HttpReply) -> String {
    reply
        .header("mcp-session-id")
        .unwrap_or_else(|| panic!("no session id: {reply:?}"))
        .to_owned()
}

/// A server of at most `max_sessions` sessions, and the reply that opened its first.
async fn with_one_session_open(max_sessions: usize) -> (HttpServer, HttpReply) {
    let (served, _) = server(Limits::default());
    let http = HttpServer::start_with(
        served,
        Settings {
            max_sessions,
            ..Settings::default()
        },
    )
    .await;
    let first = http.post(&[], &initialize(1)).await;
    assert!(first.message.get("result").is_some(), "{first:?}");
    (http, first)
}

#[tokio::test]
async fn sessions_past_the_servers_limit_are_refused_on_initialize() {
    let (http, first) = with_one_session_open(2).await;
    let second = http.post(&[], &initialize(2)).await;
    assert!(second.message.get("result").is_some(), "{second:?}");

    let refused = http.post(&[], &initialize(3)).await;
    assert_eq!(refused.status, 200, "{refused:?}");
    assert_eq!(refused.message["id"], 3, "{refused:?}");
    assert_limit(&refused.message, "max_sessions", 2);

    // A session that ends makes room. Its end is a 200, as the official SDKs' servers answer
    // (rmcp's 202 made the Python SDK's client log a failure).
    let deleted = http.delete(&session_id(&first)).await;
    assert_eq!(deleted.status, 200, "{deleted:?}");
    let again = http.post(&[], &initialize(4)).await;
    assert!(again.message.get("result").is_some(), "{again:?}");
}

#[tokio::test]
async fn an_idle_session_ends_and_gives_its_place_back() {
    let (served, _) = server(Limits::default());
    let http = HttpServer::start_with(
        served,
        Settings {
            max_sessions: 1,
            keep_alive: Some(std::time::Duration::from_millis(200)),
            ..Settings::default()
        },
    )
    .await;
    let first = http.post(&[], &initialize(1)).await;
    assert!(first.message.get("result").is_some(), "{first:?}");
    let refused = http.post(&[], &initialize(2)).await;
    assert_limit(&refused.message, "max_sessions", 1);
    // Left idle past rmcp's keep-alive, the session ends: its place is free again.
    let mut again = None;
    for id in 3..30 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let reply = http.post(&[], &initialize(id)).await;
        if reply.message.get("result").is_some() {
            again = Some(reply);
            break;
        }
    }
    assert!(again.is_some(), "the idle session kept its place");
}

#[tokio::test]
async fn without_authorization_sessions_are_bounded_by_the_server_alone() {
    // Nothing tells unverified callers apart when they open a session: the per-caller share
    // (16) is not theirs to share, or a server without authorization would serve 16 sessions.
    let (served, _) = server(Limits::default());
    let http = HttpServer::start(served).await;
    let share = mcp_tool_runtime::transport::http::DEFAULT_MAX_SESSIONS_PER_CALLER;
    for id in 0..(share as u64 + 4) {
        let opened = http.post(&[], &initialize(id)).await;
        assert!(
            opened.message.get("result").is_some(),
            "session {id}: {opened:?}"
        );
    }
}

#[tokio::test]
async fn an_initialize_spelled_with_escapes_counts_against_the_bound() {
    // The guard reads a message for `initialize` only where its bytes could name it: the word,
    // or an escape. Written with escapes, it is still read, and still refused past the bound.
    let (http, _) = with_one_session_open(1).await;
    let message = initialize(2);
    let body = serde_json::to_string(&message)
        .unwrap()
        .replace(r#""initialize""#, r#""\u0069nitiali\u007ae""#);
    assert!(!body.contains("initialize"), "{body}");
    let refused = http.post_raw(&[], &message, body.as_bytes()).await;
    assert_eq!(refused.message["id"], 2, "{refused:?}");
    assert_limit(&refused.message, "max_sessions", 1);
}
