//! Stopping a Streamable HTTP server the way a deployed service stops
//! (`transport::http::serve`): no new connection after the signal, calls in flight finish within
//! the grace period, and what is left is closed at its end.

use std::sync::Arc;
use std::time::{Duration, Instant};

use mcp_tool_runtime::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use mcp_tool_runtime::rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use mcp_tool_runtime::server::tasks::{MemoryTaskStore, TaskStore};
use mcp_tool_runtime::transport::HttpGuard;
use mcp_tool_runtime::transport::http::{ServeOptions, Stopped, serve};
use mcp_tool_runtime::{Toolbox, ToolboxServer, mcp_tool};
use serde_json::json;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// Sleeps `millis`, then answers; a task when the client can have one.
#[mcp_tool(task = optional)]
async fn slow(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("slept {millis} ms")
}

struct Running {
    addr: std::net::SocketAddr,
    stop: tokio::sync::oneshot::Sender<()>,
    stopped: tokio::task::JoinHandle<Stopped>,
}

async fn start(grace: Duration) -> Running {
    start_with(grace, MemoryTaskStore::new()).await
}

async fn start_with(grace: Duration, store: MemoryTaskStore) -> Running {
    let mut toolbox = Toolbox::new();
    toolbox.register(slow::tool()).unwrap();
    let server = ToolboxServer::new(toolbox).unwrap();
    server.set_task_store(store);
    let options = ServeOptions::default().grace(grace).drain_tasks(&server);
    let rmcp_service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", HttpGuard::new(rmcp_service));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, signal) = tokio::sync::oneshot::channel::<()>();
    let stopped = tokio::spawn(serve(
        listener,
        router,
        async {
            let _ = signal.await;
        },
        options,
    ));
    Running {
        addr,
        stop,
        stopped,
    }
}

/// Sends a 2026-07-28 call of `slow` on a new connection.
async fn call_slow(addr: std::net::SocketAddr, millis: u64) -> TcpStream {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "slow", "arguments": {"millis": millis},
                   "_meta": tests::wire::meta_2026(json!({}))}})
    .to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: slow\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    stream
}

#[tokio::test]
async fn calls_in_flight_finish_and_no_new_connection_is_accepted() {
    let running = start(Duration::from_secs(5)).await;
    let mut in_flight = call_slow(running.addr, 400).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    running.stop.send(()).unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    // The listener is closed: a new connection is refused.
    assert!(
        TcpStream::connect(running.addr).await.is_err(),
        "a connection was accepted after the signal"
    );
    let reply = tests::http::reply_on(&mut in_flight).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.message["result"]["structuredContent"], "slept 400 ms");
    let stopped = running.stopped.await.unwrap();
    assert_eq!(stopped.cut, 0, "{stopped:?}");
    assert!(stopped.open_at_signal >= 1, "{stopped:?}");
}

#[tokio::test]
async fn a_call_still_running_at_the_end_of_the_grace_period_is_cut() {
    let running = start(Duration::from_millis(200)).await;
    let _in_flight = call_slow(running.addr, 30_000).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let signalled = Instant::now();
    running.stop.send(()).unwrap();
    let stopped = tokio::time::timeout(Duration::from_secs(5), running.stopped)
        .await
        .expect("serve returned within the grace period")
        .unwrap();
    assert!(
        signalled.elapsed() < Duration::from_secs(2),
        "{:?}",
        signalled.elapsed()
    );
    assert_eq!(stopped.cut, 1, "{stopped:?}");
}

#[tokio::test]
async fn running_tasks_finish_within_the_grace_and_their_results_are_kept() {
    let store = MemoryTaskStore::new();
    let running = start_with(Duration::from_secs(5), store.clone()).await;
    let client = tests::tasks::TaskClient::new(running.addr, "Bearer alice");
    let id = tests::tasks::task_id(&client.call("slow", json!({"millis": 400}), true).await);
    let signalled = Instant::now();
    running.stop.send(()).unwrap();
    let stopped = running.stopped.await.unwrap();
    assert_eq!(stopped.tasks_left, 0, "{stopped:?}");
    assert!(
        signalled.elapsed() >= Duration::from_millis(250),
        "{:?}",
        signalled.elapsed()
    );
    let kept = store.load(&id).await.unwrap().expect("the task is kept");
    assert!(kept.is_terminal(), "{kept:?}");
    assert_eq!(
        serde_json::to_value(&kept.task).unwrap()["result"]["structuredContent"],
        "slept 400 ms"
    );
}

#[tokio::test]
async fn a_task_still_running_at_the_end_of_the_grace_is_counted_and_serve_returns() {
    let running = start_with(Duration::from_millis(300), MemoryTaskStore::new()).await;
    let client = tests::tasks::TaskClient::new(running.addr, "Bearer alice");
    tests::tasks::task_id(&client.call("slow", json!({"millis": 60_000}), true).await);
    let signalled = Instant::now();
    running.stop.send(()).unwrap();
    let stopped = running.stopped.await.unwrap();
    assert_eq!(stopped.tasks_left, 1, "{stopped:?}");
    assert!(
        signalled.elapsed() < Duration::from_secs(2),
        "{:?}",
        signalled.elapsed()
    );
}
