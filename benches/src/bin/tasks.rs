//! What running a tool as a task costs over a plain call, served through `ToolboxServer` over an
//! in-memory line transport at 2026-07-28:
//!
//! - instructions and heap allocations (both counted by callgrind) per call: a plain `tools/call`, and a
//!   task with the in-memory store (the call answered with a task, then `tasks/get` until it is
//!   completed);
//! - Redis commands per task with `RedisTaskStore`, read from a real `redis-server`'s own
//!   statistics (`INFO stats`), every command the server sent counted: the task's, and the
//!   replica's lease renewals and inbox waits during the run.
//!
//! `cargo run --release -p benches --bin tasks` prints the table BENCHMARKS.md holds; `--quick`
//! measures fewer calls (what CI runs, to prove the harness works).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use futures_util::future::BoxFuture;
use mcp_tool_runtime::server::tasks::{
    RedisTaskStore, StoreError, StoredTask, TaskBounds, TaskMessage, TaskStore,
};
use mcp_tool_runtime::{Toolbox, ToolboxServer, mcp_tool};
use serde_json::{Value, json};

/// Adds two numbers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Adds two numbers, as a task when the client can have one.
#[mcp_tool(task = optional)]
fn add_later(a: i64, b: i64) -> i64 {
    a + b
}

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities":
            {"extensions": {"io.modelcontextprotocol/tasks": {}}},
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"}
    })
}

/// Setup, then `n` plain calls or tasks (`variant`), served with `server`; the `tasks/get`
/// polls it took.
async fn run(server: ToolboxServer, variant: &str, n: usize, on_start: impl FnOnce()) -> usize {
    let mut client = benches::LineClient::serve(server);
    let mut ask = async |id: usize, method: &str, mut params: Value| -> Value {
        params["_meta"] = meta();
        client
            .send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        serde_json::from_str(&client.next().await).unwrap()
    };
    // One of each first: what is built once (the replica's worker, its lease) is not counted.
    let warm = ask(
        0,
        "tools/call",
        json!({"name": "add_later", "arguments": {"a": 1, "b": 2}}),
    )
    .await;
    assert_eq!(warm["result"]["resultType"], "task", "{warm}");
    on_start();
    let mut polls = 0;
    for id in 1..=n {
        match variant {
            "plain" => {
                let answer = ask(
                    id,
                    "tools/call",
                    json!({"name": "add", "arguments": {"a": 1, "b": 2}}),
                )
                .await;
                assert_eq!(answer["result"]["structuredContent"], 3, "{answer}");
            }
            "task" => {
                let created = ask(
                    id,
                    "tools/call",
                    json!({"name": "add_later", "arguments": {"a": 1, "b": 2}}),
                )
                .await;
                let task = created["result"]["taskId"].clone();
                loop {
                    polls += 1;
                    let got = ask(id, "tasks/get", json!({"taskId": task})).await;
                    if got["result"]["status"] == "completed" {
                        assert_eq!(got["result"]["result"]["structuredContent"], 3, "{got}");
                        break;
                    }
                    tokio::task::yield_now().await;
                }
            }
            other => panic!("no variant {other}"),
        }
    }
    polls
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.register(add::tool()).unwrap();
    toolbox.register(add_later::tool()).unwrap();
    toolbox
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A `redis-server` on a free loopback port, keeping nothing on disk.
struct Redis(std::process::Child, u16);

impl Redis {
    fn start() -> Redis {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server is installed (scripts/e2e-setup.sh installs it)");
        let deadline = Instant::now() + Duration::from_secs(5);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Redis(child, port)
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A store that counts the requests made of it: each is one round trip to Redis (a `receive`
/// that gets a message makes two).
struct Counted {
    store: RedisTaskStore,
    requests: Arc<AtomicU64>,
}

impl Counted {
    fn count(&self) {
        self.requests.fetch_add(1, Ordering::Relaxed);
    }
}

impl TaskStore for Counted {
    fn create<'a>(
        &'a self,
        task: &'a StoredTask,
        bounds: TaskBounds,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.count();
        self.store.create(task, bounds)
    }
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredTask>, StoreError>> {
        self.count();
        self.store.load(id)
    }
    fn save<'a>(&'a self, task: &'a StoredTask) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.count();
        self.store.save(task)
    }
    fn send<'a>(
        &'a self,
        replica: &'a str,
        message: &'a TaskMessage,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.count();
        self.store.send(replica, message)
    }
    fn receive<'a>(
        &'a self,
        replica: &'a str,
        wait: Duration,
    ) -> BoxFuture<'a, Result<Vec<TaskMessage>, StoreError>> {
        self.count();
        self.store.receive(replica, wait)
    }
    fn renew<'a>(
        &'a self,
        replica: &'a str,
        lease: Duration,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        self.count();
        self.store.renew(replica, lease)
    }
    fn alive<'a>(&'a self, replica: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        self.count();
        self.store.alive(replica)
    }
}

/// The commands Redis has processed (`INFO stats`), the `INFO` itself included.
async fn commands(redis: &mut redis::aio::MultiplexedConnection) -> u64 {
    let info: String = redis::cmd("INFO")
        .arg("stats")
        .query_async(redis)
        .await
        .unwrap();
    info.lines()
        .find_map(|l| l.strip_prefix("total_commands_processed:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap()
}

/// Per task: round trips to Redis, and the commands Redis ran (its scripts' included); and the
/// run's wall time.
fn redis_costs(variant: &str, n: usize) -> (f64, f64, Duration) {
    let redis = Redis::start();
    runtime().block_on(async {
        let url = format!("redis://127.0.0.1:{}/", redis.1);
        let server = ToolboxServer::new(toolbox()).unwrap();
        let requests = Arc::new(AtomicU64::new(0));
        server.set_task_store(Counted {
            store: RedisTaskStore::connect(&url).await.unwrap(),
            requests: requests.clone(),
        });
        let mut stats = redis::Client::open(url)
            .unwrap()
            .get_multiplexed_async_connection()
            .await
            .unwrap();
        let started = Instant::now();
        // The warm-up task too: n + 1 tasks.
        let before = commands(&mut stats).await;
        run(server, variant, n, || ()).await;
        let after = commands(&mut stats).await;
        let tasks = (n + 1) as f64;
        // The two INFO commands are this bench's, not the server's.
        (
            requests.load(Ordering::Relaxed) as f64 / tasks,
            (after - before - 1) as f64 / tasks,
            started.elapsed(),
        )
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, variant, n] = args.as_slice()
        && flag == "--calls"
    {
        let n: usize = n.parse().unwrap();
        runtime().block_on(run(
            ToolboxServer::new(toolbox()).unwrap(),
            variant,
            n,
            || (),
        ));
        return;
    }
    let n = if args.iter().any(|a| a == "--quick") {
        20
    } else {
        200
    };
    let (plain, plain_allocs) = benches::per_call(&["--calls", "plain"], n);
    let (task, task_allocs) = benches::per_call(&["--calls", "task"], n);
    let polls = runtime().block_on(run(
        ToolboxServer::new(toolbox()).unwrap(),
        "task",
        n,
        || (),
    )) as f64
        / n as f64;
    let (round_trips, task_commands, took) = redis_costs("task", n);
    println!("| per call | instructions | x plain | allocations |");
    println!("| --- | --- | --- | --- |");
    println!("| plain `tools/call` | {plain} | 1.00x | {plain_allocs:.0} |");
    println!(
        "| task, memory store (call, then `tasks/get` until completed: {polls:.2} polls) | {task} | {:.2}x | {task_allocs:.0} |",
        task as f64 / plain as f64
    );
    println!(
        "\nRedis store, per task: {round_trips:.2} round trips to Redis, {task_commands:.1} commands run by Redis (its scripts' included); {n} tasks in {took:.2?}, the replica's lease renewals and inbox waits counted"
    );
}
