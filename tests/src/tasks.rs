//! A client of the tasks extension over Streamable HTTP at 2026-07-28: calls that may become
//! tasks, and `tasks/get`, `tasks/update`, `tasks/cancel`, as one caller.

use std::net::SocketAddr;
use std::time::Duration;

use mcp_tool_runtime::context::{ClientRequestError, Elicitation};
use mcp_tool_runtime::{ToolContext, mcp_tool};
use serde_json::{Value, json};

use crate::http::{HttpReply, post_to};

/// A person's name, asked for by [`ask_name()`].
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct AskedName {
    /// Who they are.
    pub name: String,
}

/// Asks a name, as a task only.
#[mcp_tool(task = required)]
pub async fn ask_name(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    match ctx.elicit::<AskedName>("name", "Who are you?").await? {
        Elicitation::Accepted(AskedName { name }) => Ok(format!("hello {name}")),
        _ => Ok("nobody".to_owned()),
    }
}

/// One caller (its `Authorization` header) of the server at `addr`.
#[derive(Clone, Debug)]
pub struct TaskClient {
    pub addr: SocketAddr,
    pub auth: String,
}

/// The request `_meta` of a 2026-07-28 client, declaring the tasks extension or not.
pub fn meta(tasks: bool) -> Value {
    let mut capabilities = json!({"elicitation": {}});
    if tasks {
        capabilities["extensions"] = json!({"io.modelcontextprotocol/tasks": {}});
    }
    crate::wire::meta_2026(capabilities)
}

/// The id of the task `created` (a `tools/call` reply) is; panics when it is not a task.
pub fn task_id(created: &Value) -> String {
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    created["result"]["taskId"].as_str().unwrap().to_owned()
}

impl TaskClient {
    pub fn new(addr: SocketAddr, auth: &str) -> Self {
        TaskClient {
            addr,
            auth: auth.to_owned(),
        }
    }

    /// The same caller, at another server.
    pub fn at(&self, addr: SocketAddr) -> Self {
        TaskClient {
            addr,
            auth: self.auth.clone(),
        }
    }

    /// Sends `method` with `params` (and the `_meta` of a client declaring tasks or not).
    pub async fn request(&self, method: &str, mut params: Value, tasks: bool) -> HttpReply {
        params["_meta"] = meta(tasks);
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        post_to(self.addr, &[("Authorization", &self.auth)], &message).await
    }

    /// Calls `tool`; the whole JSON-RPC reply.
    pub async fn call(&self, tool: &str, arguments: Value, tasks: bool) -> Value {
        self.request(
            "tools/call",
            json!({"name": tool, "arguments": arguments}),
            tasks,
        )
        .await
        .message
    }

    /// `tasks/get`; the whole JSON-RPC reply.
    pub async fn get(&self, id: &str) -> Value {
        self.request("tasks/get", json!({"taskId": id}), true)
            .await
            .message
    }

    /// `tasks/update` answering `responses`; the whole JSON-RPC reply.
    pub async fn update(&self, id: &str, responses: Value) -> Value {
        self.request(
            "tasks/update",
            json!({"taskId": id, "inputResponses": responses}),
            true,
        )
        .await
        .message
    }

    /// `tasks/cancel`; the whole JSON-RPC reply.
    pub async fn cancel(&self, id: &str) -> Value {
        self.request("tasks/cancel", json!({"taskId": id}), true)
            .await
            .message
    }

    /// Polls the task until its status is `status` (within `within`); the task.
    pub async fn until_within(&self, id: &str, status: &str, within: Duration) -> Value {
        let deadline = tokio::time::Instant::now() + within;
        while tokio::time::Instant::now() < deadline {
            let task = self.get(id).await;
            if task["result"]["status"] == status {
                return task["result"].clone();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("task {id} never became {status}: {}", self.get(id).await);
    }

    /// Polls the task until its status is `status` (within five seconds); the task.
    pub async fn until(&self, id: &str, status: &str) -> Value {
        self.until_within(id, status, Duration::from_secs(5)).await
    }
}
