//! What the serving layer does for every tool at 2026-07-28: no log line unless the request
//! names a level, and `-32021` when a tool fails for want of a capability the client did not
//! declare.

use mcp_tool_runtime::context::{ClientRequestError, LogLevel};
use mcp_tool_runtime::{ToolContext, ToolboxServer, mcp_tool};
use serde_json::{Value, json};
use tests::wire::{Session, meta_2026};

use super::fixtures::*;

/// Logs at three levels, asks a name, and says "nobody" if the client cannot be asked.
#[mcp_tool]
async fn polite(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    ctx.log(LogLevel::Debug, "debug line").await;
    ctx.log(LogLevel::Info, "info line").await;
    ctx.log(LogLevel::Warning, "warning line").await;
    match ctx.elicit::<Name>("name", "Who are you?").await {
        Ok(answer) => Ok(answer
            .accepted()
            .map_or("nobody".to_owned(), |_| "someone".to_owned())),
        Err(ClientRequestError::NotSupported(_)) => Ok("nobody".to_owned()),
        Err(other) => Err(other),
    }
}

async fn served() -> ToolboxServer {
    let served = server();
    served
        .update(|toolbox| toolbox.register(polite::tool()).map(drop))
        .await
        .unwrap();
    served
}

/// A 2026-07-28 call of `tool` from a client with `capabilities`, with extra `_meta`.
fn call(id: u64, tool: &str, capabilities: Value, meta: Value) -> Value {
    let mut all = meta_2026(capabilities);
    for (key, value) in meta.as_object().unwrap() {
        all[key] = value.clone();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": {}, "_meta": all}})
}

#[tokio::test]
async fn a_2026_request_without_a_log_level_gets_no_log_lines() {
    let mut session = Session::open(served().await, 1 << 20, None).await;
    session.send(call(1, "polite", json!({}), json!({}))).await;
    let (before, answer) = until_response(&mut session, 1).await;
    assert!(methods(&before).is_empty(), "{before:?}");
    assert_eq!(answer["result"]["structuredContent"], json!("nobody"));

    // Naming a level, the request gets the lines at it and above.
    session
        .send(call(
            2,
            "polite",
            json!({}),
            json!({"io.modelcontextprotocol/logLevel": "info"}),
        ))
        .await;
    let (before, _) = until_response(&mut session, 2).await;
    let levels: Vec<_> = before
        .iter()
        .map(|m| m["params"]["level"].clone())
        .collect();
    assert_eq!(levels, [json!("info"), json!("warning")], "{before:?}");
}

#[tokio::test]
async fn a_2026_tool_failing_for_want_of_a_capability_is_32021_naming_it() {
    let mut session = Session::open(served().await, 1 << 20, None).await;
    // `chatty` propagates the refusal with `?`.
    let answer = session
        .request(call(1, "chatty", json!({}), json!({})))
        .await;
    assert_eq!(answer["error"]["code"], -32021, "{answer}");
    assert_eq!(
        answer["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {}}),
        "{answer}"
    );
    // A tool that handles the refusal succeeds as usual.
    let answer = session
        .request(call(2, "polite", json!({}), json!({})))
        .await;
    assert_eq!(answer["result"]["structuredContent"], json!("nobody"));
}

#[tokio::test]
async fn at_2025_the_refusal_stays_an_is_error_result() {
    let mut session = Session::open(served().await, 1 << 20, Some(json!({}))).await;
    let answer = session
        .request(tests::wire::call(1, "chatty", json!({})))
        .await;
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("did not declare the `elicitation` capability"),
        "{text}"
    );
}

#[tokio::test]
async fn over_http_the_missing_capability_error_is_http_400() {
    let http = tests::http::HttpServer::start(served().await).await;
    let reply = http
        .post(&[], &call(1, "chatty", json!({}), json!({})))
        .await;
    assert_eq!(reply.status, 400, "{reply:?}");
    assert_eq!(reply.message["error"]["code"], -32021, "{reply:?}");
    assert_eq!(
        reply.message["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {}})
    );
}

/// As the serving guide configures rmcp (`with_json_response`): a reply that is one message is
/// one JSON body; a call that sends a notification before its result keeps the stream, and the
/// notification arrives.
#[tokio::test]
async fn a_reply_of_one_message_is_json_and_a_call_that_notifies_streams() {
    let http = tests::http::HttpServer::start(server()).await;
    let add = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 1, "b": 2}, "_meta": meta_2026(json!({}))}});
    let reply = http.post(&[], &add).await;
    assert_eq!(
        reply.header("content-type"),
        Some("application/json"),
        "{reply:?}"
    );
    assert_eq!(reply.message["result"]["structuredContent"], json!(3));

    let mut meta = meta_2026(json!({"elicitation": {}}));
    meta["progressToken"] = json!("p-1");
    let chatty = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "chatty", "arguments": {}, "_meta": meta}});
    let mut stream = tests::http::OpenStream::post(http.addr, &[], &chatty).await;
    let progress = stream
        .until(|m| m["method"] == "notifications/progress")
        .await;
    assert_eq!(progress["params"]["progressToken"], "p-1", "{progress}");
    let answer = stream.until(|m| m["id"] == 2).await;
    assert!(answer["result"].is_object(), "{answer}");
    let head = stream.head();
    assert!(head.contains("text/event-stream"), "{head}");
}
