//! The tools the wire tests serve, and the helpers that open sessions and read their answers.

use mcp_tool_runtime::context::{ClientRequestError, LogLevel};
use mcp_tool_runtime::{ToolContext, Toolbox, ToolboxServer, mcp_tool};
use serde_json::{Value, json};
use tests::wire::{Session, meta_2026};

/// Adds two numbers.
#[mcp_tool]
pub(crate) fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub(crate) struct Name {
    pub(crate) name: String,
}

/// Reports progress, logs at three levels, asks the user's name.
#[mcp_tool]
pub(crate) async fn chatty(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    ctx.progress(1.0, Some(2.0)).await;
    ctx.log(LogLevel::Debug, "debug line").await;
    ctx.log(LogLevel::Info, "info line").await;
    ctx.log(LogLevel::Warning, "warning line").await;
    let name = ctx.elicit::<Name>("name", "Who are you?").await?;
    Ok(name.accepted().map_or("nobody".to_owned(), |n| n.name))
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)] // only its schema is used
pub(crate) struct Nested {
    inner: Name,
}

/// Asks for a form MCP cannot show: an object inside an object.
#[mcp_tool]
pub(crate) async fn nested_form(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    ctx.elicit::<Nested>("nested", "Fill this in").await?;
    Ok("asked".into())
}

/// Set when the future of `waits_forever` is dropped.
pub(crate) static WAIT_DROPPED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Waits until the client gives up.
#[mcp_tool]
pub(crate) async fn waits_forever() -> u8 {
    struct OnDrop;
    impl Drop for OnDrop {
        fn drop(&mut self) {
            WAIT_DROPPED.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }
    let _guard = OnDrop;
    std::future::pending().await
}

pub(crate) fn server() -> ToolboxServer {
    let mut toolbox = Toolbox::new();
    toolbox.register(add::tool()).unwrap();
    toolbox.register(waits_forever::tool()).unwrap();
    toolbox.register(chatty::tool()).unwrap();
    toolbox.register(nested_form::tool()).unwrap();
    ToolboxServer::new(toolbox).unwrap()
}

/// An initialized session with the served toolbox.
pub(crate) async fn start() -> Session {
    with_limit(mcp_tool_runtime::transport::DEFAULT_MAX_MESSAGE_BYTES).await
}

/// A session over this crate's `LineTransport`, reading messages up to `limit` bytes.
pub(crate) async fn with_limit(limit: usize) -> Session {
    Session::open(server(), limit, Some(json!({}))).await
}

/// Reads messages until the response with `id`, returning what came before it and it.
pub(crate) async fn until_response(session: &mut Session, id: u64) -> (Vec<Value>, Value) {
    let mut before = Vec::new();
    loop {
        let message = session.next().await;
        if message["id"] == id && message.get("method").is_none() {
            return (before, message);
        }
        before.push(message);
    }
}

pub(crate) fn methods(messages: &[Value]) -> Vec<&str> {
    messages
        .iter()
        .filter_map(|m| m["method"].as_str())
        .collect()
}

/// A JSON-RPC -32602 error whose message contains `naming`.
pub(crate) fn assert_invalid_params(answer: &Value, naming: &str) {
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains(naming), "{message}");
}

pub(crate) fn call_2026(id: u64, name: &str, extra: Value) -> Value {
    let mut params =
        json!({"name": name, "arguments": {}, "_meta": meta_2026(json!({"elicitation": {}}))});
    for (key, value) in extra.as_object().unwrap() {
        params[key] = value.clone();
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}
