//! Tools as tasks (the 2026-07-28 tasks extension, SEP-2663) over Streamable HTTP: the call is
//! answered with a task, which the client polls, answers and cancels; each task is its caller's.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_tool_runtime::context::{ClientRequestError, Elicitation, SamplingRequest};
use mcp_tool_runtime::server::Limits;
use mcp_tool_runtime::{ToolContext, Toolbox, ToolboxServer, mcp_tool};
use serde_json::{Value, json};
use tests::http::HttpServer;
use tests::tasks::{TaskClient, ask_name, task_id};

use super::fixtures::Name;

/// Counts tool futures alive.
#[derive(Default)]
struct Alive(Arc<AtomicUsize>);

struct Guard(Arc<AtomicUsize>);

impl Drop for Guard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Works for `millis`, reporting progress.
#[mcp_tool(task = optional)]
async fn work(ctx: &ToolContext, #[state] alive: &Alive, millis: u64) -> String {
    alive.0.fetch_add(1, Ordering::SeqCst);
    let _guard = Guard(alive.0.clone());
    ctx.progress_with_message(1.0, Some(2.0), "halfway").await;
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("worked {millis} ms")
}

/// Crashes.
#[mcp_tool(task = optional)]
fn crash() -> String {
    panic!("crashed on purpose")
}

async fn served(limits: Limits) -> (HttpServer, Arc<AtomicUsize>) {
    let alive = Alive::default();
    let count = alive.0.clone();
    let mut toolbox = Toolbox::new();
    toolbox.insert_state(alive);
    toolbox
        .register_all(mcp_tool_runtime::tools![work, ask_name, crash])
        .unwrap();
    let server = ToolboxServer::new(toolbox).unwrap();
    server.set_limits(limits).unwrap();
    (HttpServer::start(server).await, count)
}

fn alice(http: &HttpServer) -> TaskClient {
    TaskClient::new(http.addr, "Bearer alice")
}

#[tokio::test]
async fn a_task_is_answered_at_once_and_its_result_read_by_polling() {
    let (http, _) = served(Limits::default()).await;
    let created = alice(&http)
        .call("work", json!({"millis": 300}), true)
        .await;
    let id = task_id(&created);
    assert_eq!(created["result"]["status"], "working");
    assert_eq!(created["result"]["ttlMs"], 300_000);
    assert_eq!(created["result"]["pollIntervalMs"], 1000);
    // Progress is the task's status message.
    let mut message = Value::Null;
    for _ in 0..100 {
        message = alice(&http).get(&id).await["result"]["statusMessage"].clone();
        if !message.is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(message, "halfway");
    let done = alice(&http).until(&id, "completed").await;
    assert_eq!(
        done["result"]["structuredContent"], "worked 300 ms",
        "{done}"
    );
}

#[tokio::test]
async fn without_the_extension_an_optional_task_tool_answers_the_call_and_a_required_one_is_refused()
 {
    let (http, _) = served(Limits::default()).await;
    let plain = alice(&http).call("work", json!({"millis": 0}), false).await;
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    assert_eq!(plain["result"]["structuredContent"], "worked 0 ms");
    let refused = alice(&http).call("ask_name", json!({}), false).await;
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert_eq!(
        refused["error"]["data"]["requiredCapabilities"],
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
    );
}

#[tokio::test]
async fn a_question_waits_in_the_task_until_tasks_update_answers_it() {
    let (http, _) = served(Limits::default()).await;
    let id = task_id(&alice(&http).call("ask_name", json!({}), true).await);
    let waiting = alice(&http).until(&id, "input_required").await;
    assert_eq!(
        waiting["inputRequests"]["name"]["method"], "elicitation/create",
        "{waiting}"
    );
    let ack = alice(&http).request("tasks/update",
        json!({"taskId": id, "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}}}),
        true,
    )
    .await;
    assert_eq!(ack.message["result"]["resultType"], "complete", "{ack:?}");
    let done = alice(&http).until(&id, "completed").await;
    assert_eq!(done["result"]["structuredContent"], "hello Ada");
}

#[tokio::test]
async fn a_cancelled_task_ends_cancelled_and_its_tool_is_dropped() {
    let (http, alive) = served(Limits::default()).await;
    let id = task_id(
        &alice(&http)
            .call("work", json!({"millis": 60_000}), true)
            .await,
    );
    alice(&http).until(&id, "working").await;
    assert_eq!(alive.load(Ordering::SeqCst), 1);
    let ack = alice(&http)
        .request("tasks/cancel", json!({"taskId": id}), true)
        .await;
    assert_eq!(ack.message["result"]["resultType"], "complete", "{ack:?}");
    alice(&http).until(&id, "cancelled").await;
    for _ in 0..50 {
        if alive.load(Ordering::SeqCst) == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the cancelled task's tool is still running");
}

#[tokio::test]
async fn a_tool_that_panics_fails_its_task_with_an_error_and_no_result() {
    let (http, _) = served(Limits::default()).await;
    let id = task_id(&alice(&http).call("crash", json!({}), true).await);
    let failed = alice(&http).until(&id, "failed").await;
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    assert!(
        failed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("crashed on purpose")
    );
    assert!(failed.get("result").is_none(), "{failed}");
}

#[tokio::test]
async fn another_caller_cannot_see_update_or_cancel_a_task() {
    let (http, _) = served(Limits::default()).await;
    let id = task_id(
        &alice(&http)
            .call("work", json!({"millis": 60_000}), true)
            .await,
    );
    for method in ["tasks/get", "tasks/cancel"] {
        let reply = TaskClient::new(http.addr, "Bearer mallory")
            .request(method, json!({"taskId": id}), true)
            .await;
        assert_eq!(
            reply.message["error"]["code"], -32602,
            "{method}: {reply:?}"
        );
    }
    let unknown = alice(&http).get("no-such-task").await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    // Still alice's, still running.
    alice(&http).until(&id, "working").await;
}

#[tokio::test]
async fn finished_tasks_still_readable_count_against_the_limit() {
    let mut limits = Limits::default();
    limits.max_tasks = 2;
    let (http, _) = served(limits).await;
    for _ in 0..2 {
        let id = task_id(&alice(&http).call("work", json!({"millis": 0}), true).await);
        alice(&http).until(&id, "completed").await;
    }
    let refused = alice(&http).call("work", json!({"millis": 0}), true).await;
    assert_eq!(refused["error"]["code"], -32029, "{refused}");
}

/// Starts `n` tasks of a minute each for alice.
async fn start_long_tasks(http: &HttpServer, n: usize) {
    for _ in 0..n {
        task_id(
            &alice(http)
                .call("work", json!({"millis": 60_000}), true)
                .await,
        );
    }
}

#[tokio::test]
async fn tasks_past_the_servers_limit_are_refused_naming_it() {
    let mut limits = Limits::default();
    limits.max_tasks = 2;
    let (http, _) = served(limits).await;
    start_long_tasks(&http, 2).await;
    let refused = alice(&http).call("work", json!({"millis": 0}), true).await;
    assert_eq!(refused["error"]["code"], -32029, "{refused}");
    assert_eq!(refused["error"]["data"]["limit"], "max_tasks");
}

#[tokio::test]
async fn unverified_credentials_share_one_share_of_tasks() {
    let mut limits = Limits::default();
    limits.max_tasks_per_caller = 2;
    let (http, _) = served(limits).await;
    start_long_tasks(&http, 2).await;
    let refused = alice(&http).call("work", json!({"millis": 0}), true).await;
    assert_eq!(
        refused["error"]["data"]["limit"], "max_tasks_per_caller",
        "{refused}"
    );
    // Credentials the server does not verify (no authorization here) are one share: a client
    // sending a new one with each call is not a new caller each time (it filled all 1,024
    // places that way). Verified callers each have their own share (the auth tests).
    let other = TaskClient::new(http.addr, "Bearer bob")
        .request(
            "tools/call",
            json!({"name": "work", "arguments": {"millis": 0}}),
            true,
        )
        .await;
    assert_eq!(
        other.message["error"]["data"]["limit"], "max_tasks_per_caller",
        "{:?}",
        other.message
    );
}

/// Asks a name in the call, then becomes a task that greets.
#[mcp_tool(task = optional, escalates)]
async fn greet_later(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    let name = match ctx.elicit::<Name>("name", "Who are you?").await? {
        Elicitation::Accepted(Name { name }) => name,
        _ => "nobody".to_owned(),
    };
    ctx.escalate().await;
    ctx.progress_with_message(0.0, None, format!("greeting {name}"))
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    Ok(format!("hello {name}, later"))
}

async fn escalating() -> HttpServer {
    let mut toolbox = Toolbox::new();
    toolbox.register(greet_later::tool()).unwrap();
    HttpServer::start(ToolboxServer::new(toolbox).unwrap()).await
}

#[tokio::test]
async fn an_escalating_tool_asks_in_the_call_then_becomes_a_task_where_its_body_says() {
    let http = escalating().await;
    let alice = alice(&http);
    // Round 1: an input-required result, no task.
    let asked = alice.call("greet_later", json!({}), true).await;
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
    assert!(asked["result"].get("taskId").is_none(), "{asked}");
    let state = asked["result"]["requestState"].clone();
    // Round 2, answered: the call becomes a task, with no requestState on it.
    let created = alice
        .request(
            "tools/call",
            json!({"name": "greet_later", "arguments": {},
                   "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}},
                   "requestState": state}),
            true,
        )
        .await
        .message;
    let id = task_id(&created);
    assert!(created["result"].get("requestState").is_none(), "{created}");
    // The body goes on as the task: its progress is the status message, its end the result.
    let working = alice.until(&id, "working").await;
    assert_eq!(working["statusMessage"], "greeting Ada", "{working}");
    let done = alice.until(&id, "completed").await;
    assert_eq!(
        done["result"]["structuredContent"], "hello Ada, later",
        "{done}"
    );
}

#[tokio::test]
async fn an_escalating_tool_without_the_extension_answers_the_call_itself() {
    let http = escalating().await;
    let alice = alice(&http);
    let asked = alice.call("greet_later", json!({}), false).await;
    let state = asked["result"]["requestState"].clone();
    let answered = alice
        .request(
            "tools/call",
            json!({"name": "greet_later", "arguments": {},
                   "inputResponses": {"name": {"action": "accept", "content": {"name": "Ada"}}},
                   "requestState": state}),
            false,
        )
        .await
        .message;
    assert_eq!(answered["result"]["resultType"], "complete", "{answered}");
    assert_eq!(answered["result"]["structuredContent"], "hello Ada, later");
}

/// Asks the model and the client's roots at once, as a task only.
#[mcp_tool(task = required)]
async fn consult(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    let (said, roots) = tokio::join!(
        ctx.sample("model", SamplingRequest::new("Say hi", 20)),
        ctx.list_roots("roots"),
    );
    let said = said?.text().unwrap_or_default().to_owned();
    Ok(format!("{said}, {} roots", roots?.len()))
}

#[tokio::test]
async fn sampling_and_roots_inside_a_task_wait_in_it_until_tasks_update_answers() {
    let mut toolbox = Toolbox::new();
    toolbox.register(consult::tool()).unwrap();
    let http = HttpServer::start(ToolboxServer::new(toolbox).unwrap()).await;
    let capabilities =
        json!({"sampling": {}, "roots": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}});
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "consult", "arguments": {},
                   "_meta": tests::wire::meta_2026(capabilities)}});
    let created = tests::http::post_to(http.addr, &[("Authorization", "Bearer alice")], &message)
        .await
        .message;
    let id = task_id(&created);
    let alice = alice(&http);
    let mut asking = Value::Null;
    for _ in 0..100 {
        asking = alice.get(&id).await["result"].clone();
        if asking["inputRequests"]
            .as_object()
            .is_some_and(|asked| asked.len() == 2)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(asking["status"], "input_required", "{asking}");
    assert_eq!(
        asking["inputRequests"]["model"]["method"], "sampling/createMessage",
        "{asking}"
    );
    assert_eq!(
        asking["inputRequests"]["roots"]["method"], "roots/list",
        "{asking}"
    );
    let ack = alice
        .update(
            &id,
            json!({
                "model": {"role": "assistant", "content": {"type": "text", "text": "hi"},
                          "model": "test-model"},
                "roots": {"roots": [{"uri": "file:///work", "name": "work"}]}
            }),
        )
        .await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    let done = alice.until(&id, "completed").await;
    assert_eq!(done["result"]["structuredContent"], "hi, 1 roots", "{done}");
}

/// A handler of its own that runs one task, `handler-task`, already completed.
#[derive(Clone)]
struct OwnTasks;

impl mcp_tool_runtime::rmcp::ServerHandler for OwnTasks {
    fn get_info(&self) -> mcp_tool_runtime::rmcp::model::ServerConfig {
        mcp_tool_runtime::rmcp::model::ServerConfig::new(Default::default())
    }

    async fn get_task(
        &self,
        request: mcp_tool_runtime::rmcp::model::GetTaskParams,
        _: mcp_tool_runtime::rmcp::service::RequestContext<mcp_tool_runtime::rmcp::RoleServer>,
    ) -> Result<mcp_tool_runtime::rmcp::model::GetTaskResult, mcp_tool_runtime::rmcp::ErrorData>
    {
        use mcp_tool_runtime::rmcp::model::{
            DetailedTask, GetTaskResult, Task, TaskPayload, TaskStatus,
        };
        if request.task_id != "handler-task" {
            return Err(mcp_tool_runtime::rmcp::ErrorData::invalid_params(
                "the handler has no such task",
                None,
            ));
        }
        let task = Task::new(
            "handler-task",
            TaskStatus::Completed,
            "2026-12-01T00:00:00Z",
            "2026-12-01T00:00:00Z",
        );
        let result = json!({"content": [{"type": "text", "text": "from the handler"}]});
        Ok(GetTaskResult::new(DetailedTask::new(
            task,
            TaskPayload::Completed {
                result: result.as_object().unwrap().clone(),
            },
        )))
    }
}

#[tokio::test]
async fn merged_with_a_handler_of_its_own_each_task_is_answered_by_whoever_runs_it() {
    let mut toolbox = Toolbox::new();
    toolbox.insert_state(Alive::default());
    toolbox.register(work::tool()).unwrap();
    let merged = ToolboxServer::new(toolbox).unwrap().merge(OwnTasks);
    let http = HttpServer::start(merged).await;
    let alice = alice(&http);
    let id = task_id(&alice.call("work", json!({"millis": 0}), true).await);
    let ours = alice.until(&id, "completed").await;
    assert_eq!(ours["result"]["structuredContent"], "worked 0 ms", "{ours}");
    let theirs = alice.get("handler-task").await;
    assert_eq!(
        theirs["result"]["result"]["content"][0]["text"], "from the handler",
        "{theirs}"
    );
    // Unknown to both, and another caller's: -32602.
    assert_eq!(alice.get("no-such-task").await["error"]["code"], -32602);
    let mallory = TaskClient::new(http.addr, "Bearer mallory");
    assert_eq!(mallory.get(&id).await["error"]["code"], -32602);
}
