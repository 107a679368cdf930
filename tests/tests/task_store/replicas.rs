//! Servers sharing one store, as replicas behind a load balancer do: any of them answers for a
//! task another runs, and a task whose replica died ends `failed`, saying so.

use std::net::SocketAddr;
use std::time::Duration;

use mcp_tool_runtime::server::Limits;
use mcp_tool_runtime::{ToolContext, Toolbox, ToolboxServer, mcp_tool};
use serde_json::json;
use tests::http::HttpServer;
use tests::tasks::{TaskClient, ask_name, task_id};

use crate::{Stores, for_each_store};

for_each_store!(
    any_replica_reads_a_task_another_runs,
    an_answer_sent_to_another_replica_reaches_the_task,
    a_cancel_sent_to_another_replica_stops_the_task,
    a_task_whose_replica_died_ends_failed_within_the_lease,
    a_result_larger_than_the_store_keeps_fails_the_task_saying_so,
);

/// Works for `millis`, saying so first.
#[mcp_tool(task = optional)]
async fn work(ctx: &ToolContext, millis: u64) -> String {
    ctx.progress_with_message(0.0, None, "started").await;
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("worked {millis} ms")
}

/// Answers `bytes` bytes of text.
#[mcp_tool(task = optional)]
fn big(bytes: usize) -> String {
    "x".repeat(bytes)
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.task_lease = Duration::from_millis(900);
    limits.max_task_result_bytes = 64 * 1024;
    limits
}

async fn replica(stores: &Stores) -> HttpServer {
    let mut toolbox = Toolbox::new();
    toolbox
        .register_all(mcp_tool_runtime::tools![work, ask_name, big])
        .unwrap();
    let server = ToolboxServer::new(toolbox).unwrap();
    server.set_limits(limits()).unwrap();
    server.set_task_store(stores.open().await);
    HttpServer::start(server).await
}

/// A replica in a runtime of its own, on a thread of its own: killing it stops everything it
/// runs at once, as a process's death does.
struct Doomed {
    addr: SocketAddr,
    kill: std::sync::mpsc::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

impl Doomed {
    fn start(stores: Stores) -> Doomed {
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (kill, killed) = std::sync::mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap();
            let server = runtime.block_on(replica(&stores));
            addr_tx.send(server.addr).unwrap();
            let _ = killed.recv_timeout(Duration::from_secs(60));
            std::mem::forget(server);
            runtime.shutdown_background();
        });
        let addr = addr_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        Doomed { addr, kill, thread }
    }

    fn kill(self) {
        self.kill.send(()).unwrap();
        self.thread.join().unwrap();
    }
}

async fn any_replica_reads_a_task_another_runs(stores: Stores) {
    let (one, two) = (replica(&stores).await, replica(&stores).await);
    let alice = TaskClient::new(one.addr, "Bearer alice");
    let id = task_id(&alice.call("work", json!({"millis": 400}), true).await);
    let on_two = alice.at(two.addr);
    let working = on_two.until(&id, "working").await;
    assert_eq!(working["taskId"], id.as_str());
    let done = on_two.until(&id, "completed").await;
    assert_eq!(
        done["result"]["structuredContent"], "worked 400 ms",
        "{done}"
    );
    // Still another caller's to nobody, on any replica.
    let mallory = TaskClient::new(two.addr, "Bearer mallory");
    assert_eq!(mallory.get(&id).await["error"]["code"], -32602);
}

async fn an_answer_sent_to_another_replica_reaches_the_task(stores: Stores) {
    let (one, two) = (replica(&stores).await, replica(&stores).await);
    let alice = TaskClient::new(one.addr, "Bearer alice");
    let id = task_id(&alice.call("ask_name", json!({}), true).await);
    let on_two = alice.at(two.addr);
    let asking = on_two.until(&id, "input_required").await;
    assert_eq!(
        asking["inputRequests"]["name"]["method"],
        "elicitation/create"
    );
    let ack = on_two
        .update(
            &id,
            json!({"name": {"action": "accept", "content": {"name": "Ada"}}}),
        )
        .await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    let done = alice.until(&id, "completed").await;
    assert_eq!(done["result"]["structuredContent"], "hello Ada", "{done}");
}

async fn a_cancel_sent_to_another_replica_stops_the_task(stores: Stores) {
    let (one, two) = (replica(&stores).await, replica(&stores).await);
    let alice = TaskClient::new(one.addr, "Bearer alice");
    let id = task_id(&alice.call("work", json!({"millis": 60_000}), true).await);
    let on_two = alice.at(two.addr);
    on_two.until(&id, "working").await;
    let ack = on_two.cancel(&id).await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    alice.until(&id, "cancelled").await;
    // Cancelling an ended task is the same empty ack.
    assert_eq!(on_two.cancel(&id).await["result"]["resultType"], "complete");
}

async fn a_task_whose_replica_died_ends_failed_within_the_lease(stores: Stores) {
    let doomed = Doomed::start(stores.clone());
    let survivor = replica(&stores).await;
    let alice = TaskClient::new(doomed.addr, "Bearer alice");
    let id = task_id(&alice.call("work", json!({"millis": 60_000}), true).await);
    let finished = task_id(&alice.call("work", json!({"millis": 0}), true).await);
    let on_survivor = alice.at(survivor.addr);
    on_survivor.until(&finished, "completed").await;
    on_survivor.until(&id, "working").await;
    doomed.kill();
    let died = std::time::Instant::now();
    let failed = on_survivor
        .until_within(&id, "failed", Duration::from_secs(5))
        .await;
    // The lease is 0.9 s; it was renewed at most 0.3 s before the death.
    assert!(
        died.elapsed() < Duration::from_secs(2),
        "{:?}",
        died.elapsed()
    );
    let message = failed["error"]["message"].as_str().unwrap();
    assert!(message.contains("stopped (its lease"), "{failed}");
    assert!(failed.get("result").is_none(), "{failed}");
    // The result it had finished is still there.
    let done = on_survivor.until(&finished, "completed").await;
    assert_eq!(done["result"]["structuredContent"], "worked 0 ms");
}

async fn a_result_larger_than_the_store_keeps_fails_the_task_saying_so(stores: Stores) {
    let one = replica(&stores).await;
    let alice = TaskClient::new(one.addr, "Bearer alice");
    let small = task_id(&alice.call("big", json!({"bytes": 1000}), true).await);
    alice.until(&small, "completed").await;
    let id = task_id(&alice.call("big", json!({"bytes": 100_000}), true).await);
    let failed = alice.until(&id, "failed").await;
    assert_eq!(
        failed["error"]["data"]["limit"], "max_task_result_bytes",
        "{failed}"
    );
}
