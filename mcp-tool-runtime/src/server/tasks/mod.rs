//! Tools as tasks (the 2026-07-28 tasks extension, `io.modelcontextprotocol/tasks`, SEP-2663),
//! kept in a [`TaskStore`].
//!
//! A call of a tool declared `task = optional | required`, from a client that declared the
//! extension, is answered at once with a task the client polls (`tasks/get`), answers questions
//! on (`tasks/update`) and may cancel (`tasks/cancel`), while the same tool body runs on. Each
//! task belongs to the caller that created it; anyone else is told it does not exist.
//!
//! Where tasks live is the server's choice ([`ToolboxServer::set_task_store`]):
//! [`MemoryTaskStore`] by default, or [`RedisTaskStore`] (feature `redis`), shared by every
//! replica of a server. With a shared store (and a shared
//! [`requestState` key](crate::ToolboxServer::set_request_state_key)) replicas behind a load
//! balancer need no session affinity:
//! - any replica answers `tasks/get`, `tasks/update` and `tasks/cancel`; an update or a
//!   cancellation for a task another replica runs is sent to it through the store;
//! - each replica renews a lease in the store while it lives ([`Limits::task_lease`]); a task
//!   whose replica's lease has lapsed is answered `failed`, saying so, never `working` forever;
//! - a task's end is written once: a replica that comes back after its task was failed cannot
//!   overwrite the failure.
//!
//! [`ToolboxServer::set_task_store`]: crate::ToolboxServer::set_task_store
//! [`Limits::task_lease`]: crate::server::Limits::task_lease

mod channel;
mod escalate;
mod memory;
#[cfg(feature = "redis")]
mod redis;
mod store;

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolResponse, ClientCapabilities, CreateTaskResult, DetailedTask, ErrorCode, GetTaskResult,
    JsonObject, Task, TaskPayload, TaskStatus,
};
use rmcp::service::RequestContext;
use rmcp::task_manager::current_timestamp;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;
use tokio::sync::{oneshot, watch};

pub use memory::MemoryTaskStore;
#[cfg(feature = "redis")]
pub use redis::RedisTaskStore;
pub use store::{StoreError, StoredTask, TaskBounds, TaskMessage, TaskMessageKind, TaskStore};

use super::convert::to_rmcp_result;
use super::quota::count;
use super::shared::Shared;
use crate::context::{RequestInfo, ToolContext};
use crate::sync::{lock, read, write};
use crate::tool::TaskSupport;
use channel::InTask;
pub(crate) use escalate::Escalation;
use store::now_ms;

/// The tasks a server runs, and the store they are kept in.
pub(crate) struct Tasks {
    inner: Arc<Inner>,
}

struct Inner {
    store: RwLock<Arc<dyn TaskStore>>,
    /// This server's name in the store: messages for its tasks are sent to it, and its lease
    /// says it lives. Random, so a restarted process is a new replica.
    replica: String,
    /// The tasks running here, by id.
    running: Mutex<HashMap<String, Running>>,
    /// Renews the lease and receives messages while tasks may run here.
    worker: Mutex<Option<tokio::task::JoinHandle<()>>>,
    lease: RwLock<Duration>,
}

/// A task running on this replica: how to reach it.
struct Running {
    cancel: watch::Sender<bool>,
    /// Its questions waiting for an answer, by key.
    waiting: HashMap<String, oneshot::Sender<Value>>,
}

impl Default for Tasks {
    fn default() -> Self {
        Tasks {
            inner: Arc::new(Inner {
                store: RwLock::new(Arc::new(MemoryTaskStore::new())),
                replica: uuid::Uuid::new_v4().to_string(),
                running: Mutex::default(),
                worker: Mutex::default(),
                lease: RwLock::new(super::Limits::default().task_lease),
            }),
        }
    }
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

/// The owner a store keeps for a caller: a digest, so no credential is written to the store.
fn owner_of(caller: Option<&[u8]>) -> Option<String> {
    use sha2::Digest;
    caller.map(|caller| {
        sha2::Sha256::digest(caller)
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect()
    })
}

fn store_failed(error: StoreError) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}

impl Tasks {
    pub(crate) fn set_store(&self, store: Arc<dyn TaskStore>) {
        *write(&self.inner.store) = store;
    }

    pub(crate) fn set_lease(&self, lease: Duration) {
        *write(&self.inner.lease) = lease;
    }

    fn store(&self) -> Arc<dyn TaskStore> {
        read(&self.inner.store).clone()
    }

    /// Starts the call of `name` (in `toolbox`, the snapshot the call was routed in) as a task
    /// owned by `caller`; its id is answered at once.
    pub(crate) async fn start(
        &self,
        shared: &Arc<Shared>,
        toolbox: Arc<crate::Toolbox>,
        name: &str,
        arguments: Value,
        context: RequestContext<RoleServer>,
        caller: Option<Vec<u8>>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (channel, task) = self
            .create(shared, request_info(&context), caller.as_deref())
            .await?;
        let limits = shared.limits();
        let name = name.to_owned();
        let tool_context = ToolContext::new(Box::new(channel.clone()));
        tokio::spawn(async move {
            let call = toolbox.call_tool_with(&name, arguments, tool_context.clone());
            settle(
                channel,
                tool_context,
                call,
                limits.task_ttl,
                limits.max_task_result_bytes,
            )
            .await;
        });
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }

    /// Makes the escalating call whose body asked for it (`ToolContext::escalate`) a task owned
    /// by `caller`, answered at once; the body goes on as the task. Refused (a limit), the call
    /// is stopped.
    pub(crate) async fn adopt(
        &self,
        shared: &Arc<Shared>,
        escalation: &Escalation,
        info: RequestInfo,
        caller: Option<Vec<u8>>,
    ) -> Result<CallToolResponse, ErrorData> {
        let limits = shared.limits();
        let (channel, task) = self.create(shared, info, caller.as_deref()).await?;
        escalation.adopt(channel, limits.task_ttl, limits.max_task_result_bytes);
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }

    /// Creates a task for `caller` in the store, running here: the channel its tool talks
    /// through, and the task as created.
    async fn create(
        &self,
        shared: &Arc<Shared>,
        info: RequestInfo,
        caller: Option<&[u8]>,
    ) -> Result<(InTask, Task), ErrorData> {
        let limits = shared.limits();
        let store = self.store();
        // Before the task is seen by anyone, this replica's lease runs.
        self.ensure_worker(&store).await?;
        let now = current_timestamp();
        let ttl_ms = u64::try_from(limits.task_ttl.as_millis()).unwrap_or(u64::MAX);
        let task = Task::new(
            uuid::Uuid::new_v4().to_string(),
            TaskStatus::Working,
            now.clone(),
            now,
        )
        .with_ttl_ms(ttl_ms)
        .with_poll_interval_ms(
            u64::try_from(limits.task_poll_interval.as_millis()).unwrap_or(u64::MAX),
        );
        let stored = StoredTask {
            task: DetailedTask::new(task.clone(), TaskPayload::Working),
            owner: owner_of(caller),
            replica: self.inner.replica.clone(),
            expires_at_ms: now_ms().saturating_add(ttl_ms),
        };
        let bounds = TaskBounds {
            max_tasks: limits.max_tasks,
            max_tasks_per_owner: limits.max_tasks_per_caller,
        };
        // Every task kept counts, running or finished and still readable: a client that starts
        // tasks faster than they expire cannot grow the store past the limit.
        match store.create(&stored, bounds).await {
            Ok(()) => {}
            Err(StoreError::Full(limit)) => {
                count(&shared.quotas.refused.tasks);
                return Err(super::quota::reached(
                    "max_tasks",
                    limit,
                    format!(
                        "this server already keeps {limit} tasks, its limit; try again when \
                         some have expired"
                    ),
                ));
            }
            Err(StoreError::OwnerFull(limit)) => {
                count(&shared.quotas.refused.tasks_per_caller);
                return Err(super::quota::reached(
                    "max_tasks_per_caller",
                    limit,
                    format!(
                        "you already have {limit} tasks on this server, the limit for one \
                         caller; try again when some have expired"
                    ),
                ));
            }
            Err(error) => return Err(store_failed(error)),
        }
        let (cancel, cancelled) = watch::channel(false);
        lock(&self.inner.running).insert(
            stored.id().to_owned(),
            Running {
                cancel,
                waiting: HashMap::new(),
            },
        );
        let channel = InTask::new(stored, store, Arc::downgrade(&self.inner), cancelled, info);
        Ok((channel, task))
    }

    /// Starts the worker that renews this replica's lease and receives its messages, unless it
    /// runs; the lease is renewed once before this answers.
    async fn ensure_worker(&self, store: &Arc<dyn TaskStore>) -> Result<(), ErrorData> {
        let running = lock(&self.inner.worker)
            .as_ref()
            .is_some_and(|worker| !worker.is_finished());
        if running {
            return Ok(());
        }
        let lease = *read(&self.inner.lease);
        store
            .renew(&self.inner.replica, lease)
            .await
            .map_err(store_failed)?;
        let mut worker = lock(&self.inner.worker);
        if worker.as_ref().is_none_or(|worker| worker.is_finished()) {
            *worker = Some(tokio::spawn(work(Arc::downgrade(&self.inner))));
        }
        Ok(())
    }

    /// How many tasks run on this server now.
    pub(crate) fn running(&self) -> usize {
        lock(&self.inner.running).len()
    }

    /// Waits until no task runs here, or `within` has passed; how many still run then.
    pub(crate) async fn drain(&self, within: Duration) -> usize {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let running = self.running();
            if running == 0 || tokio::time::Instant::now() >= deadline {
                return running;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The task `id`, for `caller`: an unknown task, an expired one and another caller's are
    /// all "unknown", so no caller learns of another's tasks.
    async fn find(&self, id: &str, caller: Option<&[u8]>) -> Result<StoredTask, ErrorData> {
        match self.store().load(id).await.map_err(store_failed)? {
            Some(task) if task.owner == owner_of(caller) => Ok(task),
            _ => Err(unknown_task(id)),
        }
    }

    /// The task `id` for `caller`, as it stands: an unfinished task whose replica's lease has
    /// lapsed is written `failed` first (it will never end there).
    async fn current(&self, id: &str, caller: Option<&[u8]>) -> Result<StoredTask, ErrorData> {
        let task = self.find(id, caller).await?;
        if task.is_terminal() || task.replica == self.inner.replica {
            return Ok(task);
        }
        let store = self.store();
        if store.alive(&task.replica).await.map_err(store_failed)? {
            return Ok(task);
        }
        let lease = *read(&self.inner.lease);
        let failed = ended(
            task,
            TaskPayload::Failed {
                error: error_object(&ErrorData::internal_error(
                    format!(
                        "the server replica running this task stopped (its lease of {} s lapsed) \
                         before the task ended",
                        lease.as_secs_f64()
                    ),
                    None,
                )),
            },
        );
        if store.save(&failed).await.map_err(store_failed)? {
            return Ok(failed);
        }
        // Written meanwhile (it ended, or another replica failed it first): that is the answer.
        self.find(id, caller).await
    }

    pub(crate) async fn get(
        &self,
        id: &str,
        caller: Option<&[u8]>,
    ) -> Result<GetTaskResult, ErrorData> {
        Ok(GetTaskResult::new(self.current(id, caller).await?.task))
    }

    /// Answers the task's questions. A task that has ended, its replica's included, takes no
    /// answers: none is sent to a replica that will never read it.
    pub(crate) async fn update(
        &self,
        id: &str,
        caller: Option<&[u8]>,
        responses: impl IntoIterator<Item = (String, Value)>,
    ) -> Result<(), ErrorData> {
        let task = self.current(id, caller).await?;
        if task.is_terminal() {
            return Ok(());
        }
        let answers: JsonObject = responses.into_iter().collect();
        self.tell(&task, TaskMessageKind::Answers(answers)).await
    }

    pub(crate) async fn cancel(&self, id: &str, caller: Option<&[u8]>) -> Result<(), ErrorData> {
        let task = self.current(id, caller).await?;
        if task.is_terminal() {
            return Ok(());
        }
        self.tell(&task, TaskMessageKind::Cancel).await
    }

    /// Brings `kind` to the replica running `task`: this one directly, another through the store.
    async fn tell(&self, task: &StoredTask, kind: TaskMessageKind) -> Result<(), ErrorData> {
        let message = TaskMessage {
            task_id: task.id().to_owned(),
            kind,
        };
        if task.replica == self.inner.replica {
            self.inner.deliver(message);
            return Ok(());
        }
        self.store()
            .send(&task.replica, &message)
            .await
            .map_err(store_failed)
    }
}

impl Inner {
    /// Hands a message to the task it is for, if it still runs here.
    fn deliver(&self, message: TaskMessage) {
        let mut running = lock(&self.running);
        let Some(task) = running.get_mut(&message.task_id) else {
            return;
        };
        match message.kind {
            TaskMessageKind::Cancel => {
                task.cancel.send_replace(true);
            }
            TaskMessageKind::Answers(answers) => {
                // Unknown keys, and keys answered already, are ignored (SEP-2663).
                for (key, value) in answers {
                    if let Some(waiting) = task.waiting.remove(&key) {
                        let _ = waiting.send(value);
                    }
                }
            }
        }
    }

    /// Waits for the answer to the question `key` of the task `id`.
    fn wait_for(&self, id: &str, key: &str) -> Option<oneshot::Receiver<Value>> {
        let mut running = lock(&self.running);
        let task = running.get_mut(id)?;
        let (answer, answered) = oneshot::channel();
        task.waiting.insert(key.to_owned(), answer);
        Some(answered)
    }

    fn finished(&self, id: &str) {
        lock(&self.running).remove(id);
    }
}

/// The replica's worker: renews the lease a third of it before it lapses, and hands the
/// messages sent to this replica to its tasks. Ends when the server is gone.
async fn work(inner: Weak<Inner>) {
    let mut renewed = Instant::now();
    loop {
        let Some(strong) = inner.upgrade() else {
            return;
        };
        let store = read(&strong.store).clone();
        let replica = strong.replica.clone();
        let lease = *read(&strong.lease);
        drop(strong);
        let beat = lease / 3;
        if renewed.elapsed() >= beat {
            // A failed renewal is tried again on the next turn; the lease has two more thirds.
            if store.renew(&replica, lease).await.is_ok() {
                renewed = Instant::now();
            }
        }
        let wait = beat
            .saturating_sub(renewed.elapsed())
            .max(Duration::from_millis(10));
        match store
            .receive(&replica, wait.min(Duration::from_secs(1)))
            .await
        {
            Ok(messages) => {
                let Some(strong) = inner.upgrade() else {
                    return;
                };
                for message in messages {
                    strong.deliver(message);
                }
            }
            // The store is unreachable: try again shortly rather than spin.
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

/// Waits for the tool's `call` running as the task `channel` is for, and writes how it ended.
async fn settle(
    channel: InTask,
    tool_context: ToolContext,
    call: impl Future<Output = Result<crate::ToolResult, crate::toolbox::UnknownTool>>,
    ttl: Duration,
    max_result_bytes: usize,
) {
    // Cancelled, the tool's future is dropped, as a cancelled call's is; past its TTL, too (the
    // task is forgotten then, so nothing is written).
    let outcome = tokio::select! {
        outcome = tokio::time::timeout(ttl, call) => outcome,
        () = channel.cancelled_signal() => {
            tool_context.finish();
            channel.end(TaskPayload::Cancelled).await;
            return;
        }
    };
    let payload = match outcome {
        Err(_) => {
            channel.forget();
            return;
        }
        Ok(_) if channel.panicked().is_some() => TaskPayload::Failed {
            error: error_object(&ErrorData::internal_error(
                channel.panicked().unwrap_or_default(),
                None,
            )),
        },
        Ok(Ok(result)) => result_payload(&to_rmcp_result(result), max_result_bytes),
        Ok(Err(unknown)) => TaskPayload::Failed {
            error: error_object(&ErrorData::invalid_params(
                format!("unknown tool `{}`", unknown.name),
                None,
            )),
        },
    };
    channel.end(payload).await;
}

/// A finished call's task payload: the result, or a failure when it is larger than the store
/// may keep.
fn result_payload(result: &rmcp::model::CallToolResult, max_bytes: usize) -> TaskPayload {
    /// Counts the bytes written, keeping none.
    struct Counted(usize);
    impl std::io::Write for Counted {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counted = Counted(0);
    let size = serde_json::to_writer(&mut counted, result).map_or(0, |()| counted.0);
    if size > max_bytes {
        return TaskPayload::Failed {
            error: error_object(&ErrorData::internal_error(
                format!(
                    "the tool's result is {size} bytes, more than a task may keep \
                     (max_task_result_bytes: {max_bytes})"
                ),
                Some(serde_json::json!({ "limit": "max_task_result_bytes", "value": max_bytes })),
            )),
        };
    }
    match serde_json::to_value(result) {
        Ok(Value::Object(result)) => TaskPayload::Completed { result },
        _ => TaskPayload::Failed {
            error: error_object(&ErrorData::internal_error(
                "the tool's result could not be written",
                None,
            )),
        },
    }
}

/// `task` with `payload`, its status following, updated now.
fn ended(mut task: StoredTask, payload: TaskPayload) -> StoredTask {
    let mut base = task.task.task.clone();
    base.last_updated_at = current_timestamp();
    task.task = DetailedTask::new(base, payload);
    task
}

fn error_object(error: &ErrorData) -> JsonObject {
    match serde_json::to_value(error) {
        Ok(Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}

/// Whether `error` is [`unknown_task`]'s: this server's store has no task by that id for the
/// caller (a handler merged beside the tools may have one).
pub(crate) fn is_unknown_task(error: &ErrorData) -> bool {
    error.code == ErrorCode::INVALID_PARAMS
        && error.message.starts_with(UNKNOWN_TASK)
        && error
            .data
            .as_ref()
            .is_some_and(|data| data.get("taskId").is_some())
}

/// How [`unknown_task`]'s message starts.
const UNKNOWN_TASK: &str = "no task `";

/// JSON-RPC -32602 for a task id this caller has no task under.
fn unknown_task(id: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::INVALID_PARAMS,
        format!("{UNKNOWN_TASK}{id}`: it never existed, has expired, or is another caller's"),
        Some(serde_json::json!({ "taskId": id })),
    )
}

/// What the request says about itself, kept for the task's tool.
pub(crate) fn request_info(context: &RequestContext<RoleServer>) -> RequestInfo {
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
