//! The tools the hostile clients call, and a server of them with chosen limits.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_tool_runtime::context::ClientRequestError;
use mcp_tool_runtime::server::Limits;
use mcp_tool_runtime::{ToolContext, Toolbox, ToolboxServer, mcp_tool};

/// How many `hold` calls are running now, for one server.
#[derive(Clone, Default)]
pub(crate) struct Running(pub(crate) Arc<AtomicUsize>);

/// Holds its call until the client gives up.
#[mcp_tool]
pub(crate) async fn hold(#[state] running: &Running) -> u8 {
    struct Done<'a>(&'a AtomicUsize);
    impl Drop for Done<'_> {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::SeqCst);
        }
    }
    running.0.fetch_add(1, Ordering::SeqCst);
    let _done = Done(&running.0);
    std::future::pending().await
}

/// Answers 42 after half a second, counted among the running calls meanwhile.
#[mcp_tool]
pub(crate) async fn slow(#[state] running: &Running) -> u8 {
    running.0.fetch_add(1, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(500)).await;
    running.0.fetch_sub(1, Ordering::SeqCst);
    42
}

/// Adds two numbers.
#[mcp_tool]
pub(crate) fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub(crate) struct Name {
    name: String,
}

/// Asks the user's name.
#[mcp_tool]
pub(crate) async fn ask(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    let name = ctx.elicit::<Name>("name", "Who are you?").await?;
    Ok(name.accepted().map_or("nobody".to_owned(), |n| n.name))
}

/// A server of `hold`, `slow`, `add` and `ask` with `limits`, and the count of its running `hold`s.
pub(crate) fn server(limits: Limits) -> (ToolboxServer, Running) {
    let running = Running::default();
    let mut toolbox = Toolbox::new();
    toolbox.insert_state(running.clone());
    toolbox.register(hold::tool()).unwrap();
    toolbox.register(slow::tool()).unwrap();
    toolbox.register(add::tool()).unwrap();
    toolbox.register(ask::tool()).unwrap();
    let server = ToolboxServer::new(toolbox).unwrap();
    server.set_limits(limits).unwrap();
    (server, running)
}

/// Waits, up to five seconds, until `done` holds.
pub(crate) async fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..500 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("not within five seconds: {what}");
}

/// A JSON-RPC error refused at `limit` with `value`.
pub(crate) fn assert_limit(answer: &serde_json::Value, limit: &str, value: usize) {
    assert_eq!(answer["error"]["code"], -32029, "{answer}");
    assert_eq!(answer["error"]["data"]["limit"], limit, "{answer}");
    assert_eq!(answer["error"]["data"]["value"], value, "{answer}");
}

/// Opens a 2025-11-25 session on `http` as the client `name`, and says it is initialized: the
/// session's id.
pub(crate) async fn open_session(http: &tests::http::HttpServer, name: &str) -> String {
    let opened = http
        .post(
            &[],
            &serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                    "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                               "clientInfo": {"name": name, "version": "0"}}}),
        )
        .await;
    let session = opened.header("mcp-session-id").unwrap().to_owned();
    http.send(
        "POST",
        &on(&session),
        &serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    session
}

/// The headers of a message on `session`.
pub(crate) fn on(session: &str) -> [(&str, &str); 2] {
    [
        ("Mcp-Session-Id", session),
        ("MCP-Protocol-Version", "2025-11-25"),
    ]
}
