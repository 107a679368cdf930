//! Servers sharing one store, as replicas behind a load balancer do: any of them answers for a
//! task another runs, and a task whose replica died ends `failed`, saying so.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::future::BoxFuture;

use mcp_tool_runtime::context::{ClientRequestError, Elicitation};
use mcp_tool_runtime::rmcp::model::{DetailedTask, TaskPayload};
use mcp_tool_runtime::server::Limits;
use mcp_tool_runtime::server::tasks::{StoreError, StoredTask, TaskBounds, TaskMessage, TaskStore};
use mcp_tool_runtime::{ToolContext, Toolbox, ToolboxServer, mcp_tool};
use serde_json::json;
use tests::http::HttpServer;
use tests::tasks::{AskedName, TaskClient, ask_name, task_id};

use crate::{Stores, for_each_store};

for_each_store!(
    any_replica_reads_a_task_another_runs,
    an_answer_sent_to_another_replica_reaches_the_task,
    a_cancel_sent_to_another_replica_stops_the_task,
    a_task_whose_replica_died_ends_failed_within_the_lease,
    a_result_larger_than_the_store_keeps_fails_the_task_saying_so,
    a_task_ended_elsewhere_stops_its_tool,
    answers_for_a_dead_replicas_task_are_not_sent_to_it,
    an_answered_question_is_gone_from_the_next_read_on_any_replica,
    questions_asked_at_once_are_all_listed_however_slow_the_writes,
    an_update_waits_no_longer_than_the_limit_says,
    an_update_whose_answer_is_asked_again_is_not_held_to_the_limit,
);

/// How many `ticking` tools run.
#[derive(Default, Clone)]
struct Ticking(Arc<AtomicUsize>);

struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Reports progress every 50 ms, for ever.
#[mcp_tool(task = optional)]
async fn ticking(ctx: &ToolContext, #[state] count: &Ticking) -> String {
    count.0.fetch_add(1, Ordering::SeqCst);
    let _running = Running(count.0.clone());
    for tick in 0.. {
        ctx.progress_with_message(f64::from(tick), None, format!("tick {tick}"))
            .await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    unreachable!()
}

/// Works for `millis`, saying so first.
#[mcp_tool(task = optional)]
async fn work(ctx: &ToolContext, millis: u64) -> String {
    ctx.progress_with_message(0.0, None, "started").await;
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("worked {millis} ms")
}

/// Asks two questions at once, `first` and `second`.
#[mcp_tool(task = optional)]
async fn ask_two(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    let (first, second) = tokio::join!(
        ctx.elicit::<AskedName>("first", "Your first name?"),
        ctx.elicit::<AskedName>("second", "Your second name?"),
    );
    let name = |answer: Elicitation<AskedName>| answer.accepted().map(|asked| asked.name);
    Ok(format!("{:?} {:?}", name(first?), name(second?)))
}

/// Asks a name until it is given one that is not empty.
#[mcp_tool(task = optional)]
async fn ask_until_named(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    loop {
        if let Elicitation::Accepted(AskedName { name }) =
            ctx.elicit::<AskedName>("name", "Your name?").await?
            && !name.is_empty()
        {
            return Ok(format!("hello {name}"));
        }
    }
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
    replica_counting(stores, Ticking::default()).await
}

async fn replica_counting(stores: &Stores, ticking: Ticking) -> HttpServer {
    replica_on(stores.open().await, ticking).await
}

async fn replica_on(store: Box<dyn TaskStore>, ticking: Ticking) -> HttpServer {
    replica_with(store, ticking, limits()).await
}

async fn replica_with(store: Box<dyn TaskStore>, ticking: Ticking, limits: Limits) -> HttpServer {
    let mut toolbox = Toolbox::new();
    toolbox.insert_state(ticking);
    toolbox
        .register_all(mcp_tool_runtime::tools![
            work,
            ask_name,
            ask_two,
            ask_until_named,
            big,
            ticking
        ])
        .unwrap();
    let server = ToolboxServer::new(toolbox).unwrap();
    server.set_limits(limits).unwrap();
    server.set_task_store(store);
    HttpServer::start(server).await
}

/// A store whose writes of a task's state take 300 ms to land, as on a slow network.
struct SlowWrites(Box<dyn TaskStore>);

impl TaskStore for SlowWrites {
    fn create<'a>(
        &'a self,
        task: &'a StoredTask,
        bounds: TaskBounds,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.0.create(task, bounds)
    }
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredTask>, StoreError>> {
        self.0.load(id)
    }
    fn save<'a>(&'a self, task: &'a StoredTask) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            self.0.save(task).await
        })
    }
    fn send<'a>(
        &'a self,
        replica: &'a str,
        message: &'a TaskMessage,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.0.send(replica, message)
    }
    fn receive<'a>(
        &'a self,
        replica: &'a str,
        wait: Duration,
    ) -> BoxFuture<'a, Result<Vec<TaskMessage>, StoreError>> {
        self.0.receive(replica, wait)
    }
    fn renew<'a>(
        &'a self,
        replica: &'a str,
        lease: Duration,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.0.renew(replica, lease)
    }
    fn alive<'a>(&'a self, replica: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.0.alive(replica)
    }
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

async fn a_task_ended_elsewhere_stops_its_tool(stores: Stores) {
    let count = Ticking::default();
    let one = replica_counting(&stores, count.clone()).await;
    let alice = TaskClient::new(one.addr, "Bearer alice");
    let id = task_id(&alice.call("ticking", json!({}), true).await);
    let until = |running: usize| {
        let count = count.0.clone();
        async move {
            for _ in 0..100 {
                if count.load(Ordering::SeqCst) == running {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            panic!("never {running} ticking tools running");
        }
    };
    until(1).await;
    // Another replica failed it, as when this one's lease lapsed in a partition.
    let store = stores.open().await;
    let mut task = store.load(&id).await.unwrap().unwrap();
    let failed = json!({"code": -32603, "message": "failed elsewhere"});
    task.task = DetailedTask::new(
        task.task.task.clone(),
        TaskPayload::Failed {
            error: failed.as_object().unwrap().clone(),
        },
    );
    assert!(store.save(&task).await.unwrap());
    // Its next progress is not written, and the tool is stopped.
    until(0).await;
    let seen = alice.get(&id).await;
    assert_eq!(
        seen["result"]["error"]["message"], "failed elsewhere",
        "{seen}"
    );
}

/// Redis going away: calls that would start a task, and reads of tasks, are answered with a
/// JSON-RPC error within seconds, not held.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server (scripts/e2e-setup.sh installs it; scripts/test.sh runs these)"]
async fn a_store_that_went_away_is_an_error_not_a_hang() {
    let redis = tests::redis::RedisServer::start();
    let stores = Stores::Redis(redis.url());
    let one = replica(&stores).await;
    let alice = TaskClient::new(one.addr, "Bearer alice");
    let id = task_id(&alice.call("work", json!({"millis": 0}), true).await);
    alice.until(&id, "completed").await;
    drop(redis);
    let started = std::time::Instant::now();
    let refused = alice.call("work", json!({"millis": 0}), true).await;
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    let unread = alice.get(&id).await;
    assert_eq!(unread["error"]["code"], -32603, "{unread}");
    println!("two requests refused in {:?}", started.elapsed());
    assert!(
        started.elapsed() < std::time::Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    // Plain calls do not need the store.
    let plain = alice.call("work", json!({"millis": 0}), false).await;
    assert_eq!(
        plain["result"]["structuredContent"], "worked 0 ms",
        "{plain}"
    );
}

async fn answers_for_a_dead_replicas_task_are_not_sent_to_it(stores: Stores) {
    let doomed = Doomed::start(stores.clone());
    let survivor = replica(&stores).await;
    let alice = TaskClient::new(doomed.addr, "Bearer alice");
    let id = task_id(&alice.call("ask_name", json!({}), true).await);
    let on_survivor = alice.at(survivor.addr);
    on_survivor.until(&id, "input_required").await;
    let store = stores.open().await;
    let dead = store.load(&id).await.unwrap().unwrap().replica;
    doomed.kill();
    // Past the 0.9 s lease.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let answer = json!({"name": {"action": "accept", "content": {"name": "Ada"}}});
    assert_eq!(
        on_survivor.update(&id, answer).await["result"]["resultType"],
        "complete"
    );
    assert_eq!(
        on_survivor.cancel(&id).await["result"]["resultType"],
        "complete"
    );
    // The task is failed for its replica, and nothing waits for a replica that will never read it.
    let failed = on_survivor.get(&id).await;
    assert_eq!(failed["result"]["status"], "failed", "{failed}");
    let unread = store
        .receive(&dead, Duration::from_millis(100))
        .await
        .unwrap();
    assert!(unread.is_empty(), "{unread:?}");
}

/// The keys of the task's `inputRequests`, once it asks at least `count` questions.
async fn asking(client: &TaskClient, id: &str, count: usize) -> Vec<String> {
    for _ in 0..250 {
        let task = client.get(id).await;
        let keys: Vec<String> = task["result"]["inputRequests"]
            .as_object()
            .map(|asked| asked.keys().cloned().collect())
            .unwrap_or_default();
        if keys.len() >= count {
            return keys;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "task {id} never asked {count} questions: {}",
        client.get(id).await
    );
}

/// `tasks/update` acks once the answer is taken: the very next `tasks/get`, on the replica
/// answered or on the one running the task, no longer lists the question (SEP-2663 partial
/// fulfillment), and still lists the one unanswered.
///
/// The replica running the task writes slowly, so an ack sent before its write lands is seen.
async fn an_answered_question_is_gone_from_the_next_read_on_any_replica(stores: Stores) {
    let one = replica_on(
        Box::new(SlowWrites(stores.open().await)),
        Ticking::default(),
    )
    .await;
    let two = replica(&stores).await;
    let alice = TaskClient::new(one.addr, "Bearer alice");
    let on_two = alice.at(two.addr);
    let answer = |name: &str| json!({"action": "accept", "content": {"name": name}});
    for (answered, reader) in [(&on_two, &on_two), (&alice, &alice), (&on_two, &alice)] {
        let id = task_id(&alice.call("ask_two", json!({}), true).await);
        assert_eq!(asking(reader, &id, 2).await, ["first", "second"]);
        let ack = answered.update(&id, json!({"first": answer("Ada")})).await;
        assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
        let next = reader.get(&id).await;
        assert_eq!(next["result"]["status"], "input_required", "{next}");
        assert_eq!(
            next["result"]["inputRequests"]
                .as_object()
                .map(|asked| asked.keys().map(String::as_str).collect::<Vec<_>>()),
            Some(vec!["second"]),
            "{next}"
        );
        answered
            .update(&id, json!({"second": answer("Lovelace")}))
            .await;
        let done = reader.until(&id, "completed").await;
        assert_eq!(
            done["result"]["structuredContent"], "Some(\"Ada\") Some(\"Lovelace\")",
            "{done}"
        );
    }
}

/// Two questions asked at once are two writes of the task; however slowly they land, the
/// later state is the one kept (a slow first write once landed last, losing the second
/// question: the client never saw it and the task waited for ever).
async fn questions_asked_at_once_are_all_listed_however_slow_the_writes(stores: Stores) {
    let one = replica_on(
        Box::new(SlowWrites(stores.open().await)),
        Ticking::default(),
    )
    .await;
    let alice = TaskClient::new(one.addr, "Bearer alice");
    let id = task_id(&alice.call("ask_two", json!({}), true).await);
    assert_eq!(asking(&alice, &id, 2).await, ["first", "second"]);
    // And stays so: no write still in flight takes a question away.
    tokio::time::sleep(Duration::from_millis(700)).await;
    assert_eq!(asking(&alice, &id, 2).await, ["first", "second"]);
    assert_eq!(alice.cancel(&id).await["result"]["resultType"], "complete");
}

/// `Limits::task_update_wait` bounds how long `tasks/update` waits for the answer to be taken:
/// at zero it is acknowledged at once, before the running replica's (slow) write lands.
async fn an_update_waits_no_longer_than_the_limit_says(stores: Stores) {
    let mut at_once = limits();
    at_once.task_update_wait = Duration::ZERO;
    let one = replica_with(
        Box::new(SlowWrites(stores.open().await)),
        Ticking::default(),
        at_once,
    )
    .await;
    let alice = TaskClient::new(one.addr, "Bearer alice");
    let id = task_id(&alice.call("ask_two", json!({}), true).await);
    assert_eq!(asking(&alice, &id, 2).await, ["first", "second"]);
    let answer = json!({"action": "accept", "content": {"name": "Ada"}});
    let started = std::time::Instant::now();
    let ack = alice.update(&id, json!({"first": answer})).await;
    let took = started.elapsed();
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    // The default (2 s) waits for the write, which takes 300 ms to land.
    assert!(
        took < Duration::from_millis(250),
        "the update waited {took:?} with task_update_wait zero"
    );
    // The write lands afterwards: the answered question goes.
    let mut left = asking(&alice, &id, 1).await;
    for _ in 0..100 {
        if left != ["first", "second"] {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        left = asking(&alice, &id, 1).await;
    }
    assert_eq!(left, ["second"]);
    assert_eq!(alice.cancel(&id).await["result"]["resultType"], "complete");
}

/// A tool that asks the same question again (the answer would not do) is written asking it
/// again: `tasks/update` is acknowledged once that write lands, not held to
/// `Limits::task_update_wait` because the key is still asked.
async fn an_update_whose_answer_is_asked_again_is_not_held_to_the_limit(stores: Stores) {
    let mut patient = limits();
    patient.task_update_wait = Duration::from_secs(5);
    let one = replica_with(stores.open().await, Ticking::default(), patient).await;
    let alice = TaskClient::new(one.addr, "Bearer alice");
    let id = task_id(&alice.call("ask_until_named", json!({}), true).await);
    assert_eq!(asking(&alice, &id, 1).await, ["name"]);
    let answer = |name: &str| json!({"name": {"action": "accept", "content": {"name": name}}});
    let started = std::time::Instant::now();
    let ack = alice.update(&id, answer("")).await;
    let took = started.elapsed();
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    assert!(
        took < Duration::from_secs(2),
        "the update waited {took:?} for a question asked again"
    );
    // Asked again, and answered this time.
    assert_eq!(asking(&alice, &id, 1).await, ["name"]);
    let ack = alice.update(&id, answer("Ada")).await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    for _ in 0..250 {
        let task = alice.get(&id).await;
        if task["result"]["status"] == "completed" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the task never completed: {}", alice.get(&id).await);
}
