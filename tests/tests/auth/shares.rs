//! Every bound has a per-caller share: with two verified callers on one server, one fills its
//! share of tool calls (task requests count among them), sessions, tasks, listen streams or
//! client requests, the other is still served at once, and the refusal names the limit
//! (`-32029`, or the tool's error for a client request).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_tool_runtime::context::ClientRequestError;
use mcp_tool_runtime::server::Limits;
use mcp_tool_runtime::{ToolContext, mcp_tool};
use serde_json::{Value, json};
use tests::http::{OpenStream, post_to};
use tests::tasks::{TaskClient, task_id};
use tests::wire::meta_2026;
use tokio::sync::Semaphore;

use super::fixtures::*;

/// Holds a tool call open until the test lets it go.
struct Gate {
    started: AtomicUsize,
    open: Semaphore,
}

/// Waits until the gate opens.
#[mcp_tool]
async fn hold(#[state] gate: &Arc<Gate>, ctx: &ToolContext) -> String {
    let _ = ctx;
    gate.started.fetch_add(1, Ordering::SeqCst);
    let _pass = gate.open.acquire().await;
    "released".into()
}

fn bearer_for(server: &Protected, subject: &str) -> String {
    let mut claims = claims(&server.issuer.url, &server.resource, BASE_SCOPE);
    claims["sub"] = json!(subject);
    format!("Bearer {}", sign(&claims, ISSUER_KEY, "k1"))
}

/// Gives each caller a share of `share` calls and serves `hold` (behind the gate returned,
/// closed) and `long_job`.
async fn holding(server: &Protected, share: usize) -> Arc<Gate> {
    let mut limits = Limits::default();
    limits.max_calls_per_caller = share;
    server.server.set_limits(limits).unwrap();
    let gate = Arc::new(Gate {
        started: AtomicUsize::new(0),
        open: Semaphore::new(0),
    });
    let state = gate.clone();
    server
        .server
        .update(move |toolbox| {
            toolbox.insert_state(state);
            toolbox.register(hold::tool())?;
            toolbox.register(long_job::tool()).map(drop)
        })
        .await
        .unwrap();
    gate
}

fn call_of(tool: &str, id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": {}, "_meta": meta_2026(json!({}))}})
}

#[tokio::test]
async fn one_caller_fills_its_share_of_calls_and_another_is_served() {
    let server = Protected::start().await;
    let gate = holding(&server, 3).await;
    let (alice, bob) = (bearer_for(&server, "alice"), bearer_for(&server, "bob"));
    let addr = server.http.addr;
    let held: Vec<_> = (0..3)
        .map(|n| {
            let alice = alice.clone();
            tokio::spawn(async move {
                post_to(addr, &[("Authorization", &alice)], &call_of("hold", 10 + n)).await
            })
        })
        .collect();
    while gate.started.load(Ordering::SeqCst) < 3 {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let refused = post_to(addr, &[("Authorization", &alice)], &call_of("hold", 20)).await;
    assert_eq!(refused.message["error"]["code"], -32029, "{refused:?}");
    assert_eq!(
        refused.message["error"]["data"]["limit"], "max_calls_per_caller",
        "{refused:?}"
    );
    // Another caller is served at once, while the first holds its whole share.
    let served = tokio::time::timeout(
        std::time::Duration::from_secs(2),
        post_to(addr, &[("Authorization", &bob)], &call_of("whoami", 30)),
    )
    .await
    .expect("the other caller was kept waiting");
    assert_eq!(
        served.message["result"]["structuredContent"]["subject"], "bob",
        "{served:?}"
    );
    assert_eq!(server.server.refusals().calls_per_caller, 1);
    gate.open.add_permits(3);
    for call in held {
        let reply = call.await.unwrap();
        assert!(reply.message["result"].is_object(), "{reply:?}");
    }
    // The share is given back: the first caller is served again.
    gate.open.add_permits(1);
    let again = post_to(addr, &[("Authorization", &alice)], &call_of("hold", 40)).await;
    assert!(again.message["result"].is_object(), "{again:?}");
}

#[tokio::test]
async fn task_requests_count_against_the_callers_share_of_calls() {
    let server = Protected::start().await;
    let gate = holding(&server, 1).await;
    let addr = server.http.addr;
    let alice = TaskClient::new(addr, &bearer_for(&server, "alice"));
    let bob = TaskClient::new(addr, &bearer_for(&server, "bob"));
    let (alices, bobs) = (
        task_id(&alice.call("long_job", json!({}), true).await),
        task_id(&bob.call("long_job", json!({}), true).await),
    );
    // Alice's one call holds her whole share.
    let held = {
        let alice = alice.clone();
        tokio::spawn(async move { alice.call("hold", json!({}), false).await })
    };
    while gate.started.load(Ordering::SeqCst) < 1 {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    for (method, params) in [
        ("tasks/get", json!({"taskId": alices})),
        (
            "tasks/update",
            json!({"taskId": alices, "inputResponses": {"name": {"action": "decline"}}}),
        ),
        ("tasks/cancel", json!({"taskId": alices})),
    ] {
        let refused = alice.request(method, params, true).await;
        assert_eq!(
            refused.message["error"]["code"], -32029,
            "{method}: {refused:?}"
        );
        assert_eq!(
            refused.message["error"]["data"]["limit"], "max_calls_per_caller",
            "{method}: {refused:?}"
        );
    }
    // Another caller's task requests are served at once.
    let theirs = tokio::time::timeout(std::time::Duration::from_secs(2), bob.get(&bobs))
        .await
        .expect("the other caller was kept waiting");
    assert_eq!(theirs["result"]["status"], "working", "{theirs}");
    assert_eq!(server.server.refusals().calls_per_caller, 3);
    // Once her call ends, her share is hers again.
    gate.open.add_permits(1);
    let released = held.await.unwrap();
    assert!(released["result"].is_object(), "{released}");
    let hers = alice.get(&alices).await;
    assert_eq!(hers["result"]["status"], "working", "{hers}");
}

fn initialize(id: u64) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "shares", "version": "0"}}
    })
}

#[tokio::test]
async fn one_caller_fills_its_share_of_sessions_and_another_opens_one() {
    let server = Protected::start().await;
    let (alice, bob) = (bearer_for(&server, "alice"), bearer_for(&server, "bob"));
    let share = mcp_tool_runtime::transport::http::DEFAULT_MAX_SESSIONS_PER_CALLER;
    for n in 0..share {
        let opened = server
            .http
            .post(&[("Authorization", &alice)], &initialize(n as u64))
            .await;
        assert!(
            opened.header("mcp-session-id").is_some(),
            "session {n}: {opened:?}"
        );
    }
    let refused = server
        .http
        .post(&[("Authorization", &alice)], &initialize(99))
        .await;
    assert_eq!(refused.message["error"]["code"], -32029, "{refused:?}");
    assert_eq!(
        refused.message["error"]["data"]["limit"], "max_sessions_per_caller",
        "{refused:?}"
    );
    assert_eq!(refused.message["id"], 99);
    let other = server
        .http
        .post(&[("Authorization", &bob)], &initialize(100))
        .await;
    assert!(other.header("mcp-session-id").is_some(), "{other:?}");
}

/// Works for ten seconds, as a task.
#[mcp_tool(task = required)]
async fn long_job() -> String {
    tokio::time::sleep(std::time::Duration::from_secs(10)).await;
    "done".into()
}

#[tokio::test]
async fn one_user_fills_its_share_of_tasks_whatever_its_clients_and_another_gets_one() {
    let server = Protected::start().await;
    let mut limits = Limits::default();
    limits.max_tasks_per_caller = 2;
    server.server.set_limits(limits).unwrap();
    server
        .server
        .update(|toolbox| toolbox.register(long_job::tool()).map(drop))
        .await
        .unwrap();
    let tasks = json!({"io.modelcontextprotocol/clientCapabilities":
        {"extensions": {"io.modelcontextprotocol/tasks": {}}}});
    let token = |subject: &str, client: &str| {
        let mut claims = claims(&server.issuer.url, &server.resource, BASE_SCOPE);
        claims["sub"] = json!(subject);
        claims["client_id"] = json!(client);
        format!("Bearer {}", sign(&claims, ISSUER_KEY, "k1"))
    };
    for client in ["web", "cli"] {
        let started = server
            .call_with_meta(
                Some(&token("alice", client)),
                "long_job",
                json!({}),
                tasks.clone(),
            )
            .await;
        assert_eq!(
            started.message["result"]["resultType"], "task",
            "{started:?}"
        );
    }
    // A third client of the same user is the same share (four client ids filled the store).
    let refused = server
        .call_with_meta(
            Some(&token("alice", "mobile")),
            "long_job",
            json!({}),
            tasks.clone(),
        )
        .await;
    assert_eq!(
        refused.message["error"]["data"]["limit"], "max_tasks_per_caller",
        "{refused:?}"
    );
    let other = server
        .call_with_meta(Some(&token("bob", "web")), "long_job", json!({}), tasks)
        .await;
    assert_eq!(other.message["result"]["resultType"], "task", "{other:?}");
}

#[tokio::test]
async fn one_caller_fills_its_share_of_listen_streams_and_another_listens() {
    let server = Protected::start().await;
    let mut limits = Limits::default();
    limits.max_listen_streams_per_caller = 2;
    server.server.set_limits(limits).unwrap();
    let (alice, bob) = (bearer_for(&server, "alice"), bearer_for(&server, "bob"));
    let addr = server.http.addr;
    let listen = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
               "params": {"notifications": {"toolsListChanged": true},
                          "_meta": meta_2026(json!({}))}})
    };
    let acknowledged = |m: &Value| m["method"] == "notifications/subscriptions/acknowledged";
    let mut held = Vec::new();
    for id in 1..=2 {
        let mut stream = OpenStream::post(addr, &[("Authorization", &alice)], &listen(id)).await;
        stream.until(acknowledged).await;
        held.push(stream);
    }
    let refused = post_to(addr, &[("Authorization", &alice)], &listen(3)).await;
    assert_eq!(refused.message["error"]["code"], -32029, "{refused:?}");
    assert_eq!(
        refused.message["error"]["data"]["limit"], "max_listen_streams_per_caller",
        "{refused:?}"
    );
    assert_eq!(refused.message["id"], 3, "{refused:?}");
    // Another caller listens at once, and both callers hear of a change.
    let mut other = OpenStream::post(addr, &[("Authorization", &bob)], &listen(4)).await;
    other.until(acknowledged).await;
    assert_eq!(server.server.refusals().listen_streams_per_caller, 1);
    server
        .server
        .update(|toolbox| toolbox.register(ask::tool()).map(drop))
        .await
        .unwrap();
    let changed = |m: &Value| m["method"] == "notifications/tools/list_changed";
    other.until(changed).await;
    held[0].until(changed).await;
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

/// Asks the user's name (an elicitation, on a 2025-11-25 session).
#[mcp_tool]
async fn ask(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    let name = ctx.elicit::<Name>("name", "Who are you?").await?;
    Ok(name.accepted().map_or("nobody".to_owned(), |n| n.name))
}

/// Opens a 2025-11-25 session for `bearer` whose client can answer elicitations; its id.
async fn open_session(server: &Protected, bearer: &str) -> String {
    let mut initialize = initialize(0);
    initialize["params"]["capabilities"] = json!({"elicitation": {}});
    let opened = server
        .http
        .post(&[("Authorization", bearer)], &initialize)
        .await;
    let session = opened
        .header("mcp-session-id")
        .unwrap_or_else(|| panic!("{opened:?}"))
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    server
        .http
        .post(&on_session(bearer, &session), &initialized)
        .await;
    session
}

fn on_session<'a>(bearer: &'a str, session: &'a str) -> [(&'static str, &'a str); 3] {
    [
        ("Authorization", bearer),
        ("Mcp-Session-Id", session),
        ("MCP-Protocol-Version", "2025-11-25"),
    ]
}

#[tokio::test]
async fn one_caller_fills_its_share_of_client_requests_and_another_is_asked() {
    let server = Protected::start().await;
    let mut limits = Limits::default();
    limits.max_client_requests_per_caller = 1;
    server.server.set_limits(limits).unwrap();
    server
        .server
        .update(|toolbox| toolbox.register(ask::tool()).map(drop))
        .await
        .unwrap();
    let (alice, bob) = (bearer_for(&server, "alice"), bearer_for(&server, "bob"));
    let addr = server.http.addr;
    let ask = |id: u64| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": "ask", "arguments": {}}})
    };
    let asked = |m: &Value| m["method"] == "elicitation/create";
    // Alice's question waits, unanswered, on her first session.
    let first = open_session(&server, &alice).await;
    let mut waiting = OpenStream::post(addr, &on_session(&alice, &first), &ask(1)).await;
    let question = waiting.until(asked).await;
    // Her second session is a new session but the same caller: its question is refused.
    let second = open_session(&server, &alice).await;
    let refused = post_to(addr, &on_session(&alice, &second), &ask(2)).await;
    assert_eq!(refused.message["result"]["isError"], true, "{refused:?}");
    let text = refused.message["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(
        text.contains("(the server's max_client_requests_per_caller)"),
        "{refused:?}"
    );
    assert_eq!(server.server.refusals().client_requests_per_caller, 1);
    // Another caller is asked at once.
    let theirs = open_session(&server, &bob).await;
    let mut other = OpenStream::post(addr, &on_session(&bob, &theirs), &ask(3)).await;
    other.until(asked).await;
    // Alice answers: her call ends, her share is given back, and she may ask again.
    let answer = json!({"jsonrpc": "2.0", "id": question["id"],
                        "result": {"action": "accept", "content": {"name": "Ada"}}});
    post_to(addr, &on_session(&alice, &first), &answer).await;
    let done = waiting.until(|m| m["id"] == 1).await;
    assert_eq!(
        done["result"]["structuredContent"]["result"], "Ada",
        "{done}"
    );
    let mut again = OpenStream::post(addr, &on_session(&alice, &second), &ask(4)).await;
    again.until(asked).await;
}
