//! Tools as tasks (the 2026-07-28 tasks extension, `io.modelcontextprotocol/tasks`, SEP-2663):
//! a call of a tool declared `task = optional | required`, from a client that declared the
//! extension, is answered at once with a task the client polls (`tasks/get`), answers questions
//! on (`tasks/update`) and may cancel (`tasks/cancel`), while the same tool body runs on. The
//! tasks live in rmcp's in-memory `TaskManager`, bound to the caller that created them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures_util::future::BoxFuture;
use rmcp::model::{
    CallToolResponse, ClientCapabilities, CreateTaskResult, ErrorCode, GetTaskResult,
};
use rmcp::service::RequestContext;
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;

use super::convert::to_rmcp_result;
use super::input::input_request;
use super::quota::count;
use super::shared::Shared;
use crate::context::{
    Channel, ClientRequest, ClientRequestError, LogLevel, RequestInfo, ToolContext,
};
use crate::sync::lock;
use crate::tool::TaskSupport;

/// The tasks a server runs, and who started each.
#[derive(Default)]
pub(crate) struct Tasks {
    manager: TaskManager,
    /// Task id to the caller that created it (`None`: nobody in particular, over stdio).
    owners: Mutex<HashMap<String, Option<Vec<u8>>>>,
}

/// Whether the request declared the tasks extension (in the session's capabilities or its own
/// `_meta`).
fn client_declares_tasks(context: &RequestContext<RoleServer>) -> bool {
    context
        .client_capabilities()
        .is_some_and(|capabilities| capabilities.supports_tasks())
}

/// What a call of a tool with `support` becomes: `Ok(true)` a task, `Ok(false)` an ordinary call,
/// or the spec's -32021 for a tool that must be a task called by a client that cannot have one.
pub(crate) fn runs_as_task(
    support: TaskSupport,
    context: &RequestContext<RoleServer>,
) -> Result<bool, ErrorData> {
    match (support, client_declares_tasks(context)) {
        (TaskSupport::No, _) => Ok(false),
        (_, true) => Ok(true),
        (TaskSupport::Required, false) => Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        )),
        (_, false) => Ok(false),
    }
}

impl Tasks {
    /// Starts the call of `name` as a task owned by `owner`; its id is answered at once.
    pub(crate) fn start(
        &self,
        shared: &Arc<Shared>,
        name: &str,
        arguments: Value,
        context: RequestContext<RoleServer>,
        owner: Option<Vec<u8>>,
    ) -> Result<CallToolResponse, ErrorData> {
        let limits = shared.limits();
        // Every task kept counts, running or finished and still readable: a client that starts
        // tasks faster than they expire cannot grow the server's memory past the limit.
        let (kept, callers) = self.kept(limits.max_tasks, owner.as_deref());
        if kept >= limits.max_tasks {
            count(&shared.quotas.refused.tasks);
            return Err(super::quota::reached(
                "max_tasks",
                limits.max_tasks,
                format!(
                    "this server already keeps {} tasks, its limit; try again when some have \
                     expired",
                    limits.max_tasks
                ),
            ));
        }
        // One identified caller cannot take every place (callers without an identity are one
        // caller to the server, and share `max_tasks`).
        if owner.is_some() && callers >= limits.max_tasks_per_caller {
            count(&shared.quotas.refused.tasks_per_caller);
            return Err(super::quota::reached(
                "max_tasks_per_caller",
                limits.max_tasks_per_caller,
                format!(
                    "you already have {} tasks on this server, the limit for one caller; try \
                     again when some have expired",
                    limits.max_tasks_per_caller
                ),
            ));
        }
        let toolbox = shared.snapshot().toolbox.clone();
        let name = name.to_owned();
        let info = request_info(&context);
        let options = TaskOptions::new()
            .with_ttl_ms(u64::try_from(limits.task_ttl.as_millis()).unwrap_or(u64::MAX))
            .with_poll_interval_ms(limits.task_poll_interval.as_millis() as u64);
        let task = self.manager.spawn(options, move |task: TaskContext| {
            Box::pin(async move {
                let panicked = Arc::new(Mutex::new(None));
                let channel = InTask {
                    task: task.clone(),
                    info,
                    panicked: panicked.clone(),
                };
                let tool_context = ToolContext::new(Box::new(channel));
                let call = toolbox.call_tool_with(&name, arguments, tool_context.clone());
                // Cancelled, the tool's future is dropped, as a cancelled call's is.
                let outcome = tokio::select! {
                    outcome = call => outcome,
                    () = task.cancelled() => {
                        tool_context.finish();
                        return Err(TaskExit::Cancelled);
                    }
                };
                if let Some(message) = lock(&panicked).take() {
                    return Err(TaskExit::Error(ErrorData::internal_error(message, None)));
                }
                match outcome {
                    Ok(result) => Ok(to_rmcp_result(result)),
                    Err(unknown) => Err(TaskExit::Error(ErrorData::invalid_params(
                        format!("unknown tool `{}`", unknown.name),
                        None,
                    ))),
                }
            })
        });
        lock(&self.owners).insert(task.task_id.clone(), owner);
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }

    /// How many tasks are kept (running, or finished and readable until their TTL), and how
    /// many of them are `caller`'s; when there seem to be `limit` or more, those past their TTL
    /// (gone from the manager) are forgotten first.
    fn kept(&self, limit: usize, caller: Option<&[u8]>) -> (usize, usize) {
        let mut owners = lock(&self.owners);
        if owners.len() >= limit {
            owners.retain(|id, _| self.manager.get_task(id).is_ok());
        }
        let callers = owners.values().filter(|o| o.as_deref() == caller).count();
        (owners.len(), callers)
    }

    /// Whether this server runs the task `id` (for a handler that serves tasks of its own too).
    pub(crate) fn knows(&self, id: &str) -> bool {
        lock(&self.owners).contains_key(id)
    }

    /// The task `id`, for `caller`: an unknown task, an expired one and another caller's are
    /// all "unknown", so no caller learns of another's tasks.
    fn check(&self, id: &str, caller: Option<&[u8]>) -> Result<(), ErrorData> {
        match lock(&self.owners).get(id) {
            Some(owner) if owner.as_deref() == caller => Ok(()),
            _ => Err(unknown_task(id)),
        }
    }

    pub(crate) fn get(&self, id: &str, caller: Option<&[u8]>) -> Result<GetTaskResult, ErrorData> {
        self.check(id, caller)?;
        match self.manager.get_task(id) {
            Ok(task) => Ok(GetTaskResult::new(task)),
            Err(_) => {
                lock(&self.owners).remove(id);
                Err(unknown_task(id))
            }
        }
    }

    pub(crate) fn update(
        &self,
        id: &str,
        caller: Option<&[u8]>,
        responses: impl IntoIterator<Item = (String, Value)>,
    ) -> Result<(), ErrorData> {
        self.check(id, caller)?;
        self.manager
            .update_task(id, responses)
            .map_err(|_| unknown_task(id))
    }

    pub(crate) fn cancel(&self, id: &str, caller: Option<&[u8]>) -> Result<(), ErrorData> {
        self.check(id, caller)?;
        self.manager.cancel_task(id).map_err(|_| unknown_task(id))
    }
}

/// JSON-RPC -32602 for a task id this caller has no task under.
fn unknown_task(id: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::INVALID_PARAMS,
        format!("no task `{id}`: it never existed, has expired, or is another caller's"),
        Some(serde_json::json!({ "taskId": id })),
    )
}

/// What the request says about itself, kept for the task's tool.
fn request_info(context: &RequestContext<RoleServer>) -> RequestInfo {
    let object = |value: serde_json::Result<Value>| match value {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    };
    RequestInfo {
        id: serde_json::to_value(&context.id).ok(),
        meta: context.meta.0.0.clone(),
        protocol_version: context.protocol_version().map(|v| v.as_str().to_owned()),
        client_capabilities: context
            .client_capabilities()
            .and_then(|c| object(serde_json::to_value(c))),
        caller: super::call::verified_caller(context),
    }
}

/// The channel of a tool running as a task: progress becomes the task's status message,
/// questions the task's `inputRequests` (answered by `tasks/update`), and `tasks/cancel` its
/// cancellation. Log lines have no stream to go to and are dropped.
struct InTask {
    task: TaskContext,
    info: RequestInfo,
    /// Set when the tool panicked: the task then fails (a protocol-level error, SEP-2663),
    /// where a call would answer an `isError` result.
    panicked: Arc<Mutex<Option<String>>>,
}

impl Channel for InTask {
    fn request_info(&self) -> RequestInfo {
        self.info.clone()
    }
    fn protocol_version(&self) -> Option<&str> {
        self.info.protocol_version.as_deref()
    }
    fn reports_progress_without_token(&self) -> bool {
        true
    }
    fn progress(
        &self,
        _token: Value,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> BoxFuture<'_, ()> {
        let message = message.unwrap_or_else(|| match total {
            Some(total) => format!("{progress} of {total}"),
            None => format!("{progress}"),
        });
        self.task.set_status_message(message);
        Box::pin(std::future::ready(()))
    }
    fn wants_logs(&self) -> bool {
        false
    }
    fn log(&self, _: LogLevel, _: Value) -> BoxFuture<'_, ()> {
        Box::pin(std::future::ready(()))
    }
    fn panicked(&self, message: &str) {
        *lock(&self.panicked) = Some(message.to_owned());
    }
    fn request(
        &self,
        key: String,
        request: ClientRequest,
    ) -> BoxFuture<'_, Result<Value, ClientRequestError>> {
        Box::pin(async move {
            let request = input_request(request).map_err(super::input::invalid_request)?;
            self.task
                .request_input(key, request)
                .await
                .map_err(|exit| match exit {
                    TaskExit::Cancelled => {
                        ClientRequestError::Failed("the task was cancelled".to_owned())
                    }
                    TaskExit::Error(error) => ClientRequestError::Failed(error.message.to_string()),
                })
        })
    }
    fn is_cancelled(&self) -> bool {
        self.task.is_cancel_requested()
    }
    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.task.cancelled())
    }
}
