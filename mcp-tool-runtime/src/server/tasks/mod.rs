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
//! - `tasks/update` is acknowledged once the replica running the task has written that the
//!   answers were taken (waited for up to [`Limits::task_update_wait`]), so the next
//!   `tasks/get`, on any replica, no longer lists the questions answered;
//! - each replica renews a lease in the store while it lives ([`Limits::task_lease`]); a task
//!   whose replica's lease has lapsed is answered `failed`, saying so, never `working` forever;
//! - a task's end is written once: a replica that comes back after its task was failed cannot
//!   overwrite the failure.
//!
//! One concept a file, each importing leaves, never this face's private parts:
//! - this file: the API the serving layer calls (start, adopt, get, update, cancel, drain);
//! - `replica`: this replica's running tasks, and the worker that renews its lease and hands it
//!   the messages other replicas send;
//! - `channel`: the call context's channel for a tool running as a task;
//! - `escalate`: a call that becomes a task where its body says;
//! - `settle`: how a task's end is written;
//! - `errors`: the JSON-RPC errors of the extension;
//! - `store`: the [`TaskStore`] trait, what it keeps, and the stores this crate ships.
//!
//! [`ToolboxServer::set_task_store`]: crate::ToolboxServer::set_task_store
//! [`Limits::task_lease`]: crate::server::Limits::task_lease
//! [`Limits::task_update_wait`]: crate::server::Limits::task_update_wait

mod channel;
mod errors;
mod escalate;
mod replica;
mod settle;
mod store;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, ClientCapabilities, CreateTaskResult, DetailedTask, GetTaskResult,
    JsonObject, Task, TaskPayload, TaskStatus,
};
use rmcp::task_manager::current_timestamp;
use serde_json::Value;

#[cfg(feature = "redis")]
pub use store::RedisTaskStore;
pub use store::{
    MemoryTaskStore, StoreError, StoredTask, TaskBounds, TaskMessage, TaskMessageKind, TaskStore,
};

use super::limits::Limits;
use super::quota::Counters;
use super::quota::Holder;
use super::request::CallerKey;
use crate::context::{RequestInfo, ToolContext};
use crate::tool::TaskSupport;
use channel::InTask;
pub(crate) use errors::is_unknown_task;
use errors::{error_object, not_created, store_failed, unknown_task};
pub(crate) use escalate::Escalation;
use replica::Replica;
use settle::{Outcome, settle};
use store::now_ms;

/// The tasks a server runs, and the store they are kept in.
pub(crate) struct Tasks {
    replica: Arc<Replica>,
}

impl Default for Tasks {
    fn default() -> Self {
        Tasks {
            replica: Arc::new(Replica::new(Limits::default().task_lease)),
        }
    }
}

/// What a call of a tool with `support` becomes, from a client that `declares_tasks` or not:
/// `Ok(true)` a task, `Ok(false)` an ordinary call, or the spec's -32021 for a tool that must be
/// a task called by a client that cannot have one.
pub(crate) fn runs_as_task(support: TaskSupport, declares_tasks: bool) -> Result<bool, ErrorData> {
    match (support, declares_tasks) {
        (TaskSupport::No, _) => Ok(false),
        (_, true) => Ok(true),
        (TaskSupport::Required, false) => Err(ErrorData::missing_required_client_capability(
            ClientCapabilities::builder().enable_tasks().build(),
        )),
        (_, false) => Ok(false),
    }
}

/// `bytes` as the hex of their SHA-256 digest: what a store keeps of an identity, so no
/// credential is written to it.
fn digest_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The owner a store keeps for a caller: a digest, so no credential is written to the store.
fn owner_of(caller: Option<&CallerKey>) -> Option<String> {
    caller.map(|caller| digest_hex(caller.as_bytes()))
}

/// Whose share a caller's tasks count against: a verified user (a digest of its issuer and
/// subject: one user's clients together), or, for an owner the server did not verify (a
/// credential over HTTP without authorization), every such owner together. A caller with no
/// owner (stdio, HTTP without credentials) has no share: `max_tasks` bounds it.
fn share_of(caller: Option<&crate::auth::Caller>, owned: bool) -> Option<String> {
    match Holder::of(caller, false)? {
        Holder::Verified(key) => Some(digest_hex(&key)),
        Holder::Unverified => owned.then(|| "unverified".to_owned()),
    }
}

impl Tasks {
    pub(crate) fn set_store(&self, store: Arc<dyn TaskStore>) {
        self.replica.set_store(store);
    }

    pub(crate) fn set_lease(&self, lease: Duration) {
        self.replica.set_lease(lease);
    }

    /// Starts `call` (the tool's call, given its context) as a task owned by `caller`, within
    /// `limits` (a refusal counted in `refused`); its id is answered at once.
    pub(crate) async fn start<F>(
        &self,
        limits: &Limits,
        refused: &Counters,
        info: RequestInfo,
        caller: Option<&CallerKey>,
        call: impl FnOnce(ToolContext) -> F,
    ) -> Result<CallToolResponse, ErrorData>
    where
        F: Future<Output = Outcome> + Send + 'static,
    {
        let (channel, task) = self.create(limits, refused, info, caller).await?;
        let (ttl, max_result_bytes) = (limits.task_ttl, limits.max_task_result_bytes);
        let tool_context = ToolContext::new(channel.clone());
        let call = call(tool_context.clone());
        tokio::spawn(settle(channel, tool_context, call, ttl, max_result_bytes));
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }

    /// Makes the escalating call whose body asked for it (`ToolContext::escalate`) a task owned
    /// by `caller`, answered at once; the body goes on as the task. Refused (a limit), the call
    /// is stopped.
    pub(crate) async fn adopt(
        &self,
        limits: &Limits,
        refused: &Counters,
        escalation: &Escalation,
        info: RequestInfo,
        caller: Option<&CallerKey>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (channel, task) = self.create(limits, refused, info, caller).await?;
        escalation.adopt(channel, limits.task_ttl, limits.max_task_result_bytes);
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }

    /// Creates a task for `caller` in the store, running here: the channel its tool talks
    /// through, and the task as created.
    async fn create(
        &self,
        limits: &Limits,
        refused: &Counters,
        info: RequestInfo,
        caller: Option<&CallerKey>,
    ) -> Result<(InTask, Task), ErrorData> {
        let store = self.replica.store();
        // Before the task is seen by anyone, this replica's lease runs.
        self.replica.ensure_worker(&store).await?;
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
        let owner = owner_of(caller);
        let stored = StoredTask::new(
            DetailedTask::new(task.clone(), TaskPayload::Working),
            owner.clone(),
            self.replica.name.clone(),
            now_ms().saturating_add(ttl_ms),
        )
        .with_share(share_of(info.caller.as_deref(), owner.is_some()));
        let bounds = TaskBounds::new(limits.max_tasks, limits.max_tasks_per_caller);
        // Every task kept counts, running or finished and still readable: a client that starts
        // tasks faster than they expire cannot grow the store past the limit.
        store
            .create(&stored, bounds)
            .await
            .map_err(|error| not_created(error, refused))?;
        let cancelled = self.replica.run(stored.id());
        let channel = InTask::new(
            stored,
            store,
            Arc::downgrade(&self.replica),
            cancelled,
            info,
        );
        Ok((channel, task))
    }

    /// How many tasks run on this server now.
    pub(crate) fn running(&self) -> usize {
        self.replica.running()
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
    async fn find(&self, id: &str, caller: Option<&CallerKey>) -> Result<StoredTask, ErrorData> {
        match self.replica.store().load(id).await.map_err(store_failed)? {
            Some(task) if task.owner == owner_of(caller) => Ok(task),
            _ => Err(unknown_task(id)),
        }
    }

    /// The task `id` for `caller`, as it stands: an unfinished task whose replica's lease has
    /// lapsed is written `failed` first (it will never end there).
    async fn current(&self, id: &str, caller: Option<&CallerKey>) -> Result<StoredTask, ErrorData> {
        let task = self.find(id, caller).await?;
        if task.is_terminal() || task.replica == self.replica.name {
            return Ok(task);
        }
        let store = self.replica.store();
        if store.alive(&task.replica).await.map_err(store_failed)? {
            return Ok(task);
        }
        let failed = task.ended(TaskPayload::Failed {
            error: error_object(&ErrorData::internal_error(
                format!(
                    "the server replica running this task stopped (its lease of {} s lapsed) \
                     before the task ended",
                    self.replica.lease().as_secs_f64()
                ),
                None,
            )),
        });
        if store.save(&failed).await.map_err(store_failed)? {
            return Ok(failed);
        }
        // Written meanwhile (it ended, or another replica failed it first): that is the answer.
        self.find(id, caller).await
    }

    pub(crate) async fn get(
        &self,
        id: &str,
        caller: Option<&CallerKey>,
    ) -> Result<GetTaskResult, ErrorData> {
        Ok(GetTaskResult::new(self.current(id, caller).await?.task))
    }

    /// Answers the task's questions. A task that has ended, its replica's included, takes no
    /// answers: none is sent to a replica that will never read it.
    ///
    /// Answered once the answers are taken: the next `tasks/get`, on any replica, no longer
    /// lists the questions answered (SEP-2663: the task's new state is observed through the
    /// next `tasks/get`). The replica running the task writes that; this waits for the write,
    /// up to `wait` ([`Limits::task_update_wait`]), then acknowledges anyway (the store is
    /// away, or the tool asked the same key again).
    ///
    /// [`Limits::task_update_wait`]: crate::server::Limits::task_update_wait
    pub(crate) async fn update(
        &self,
        id: &str,
        caller: Option<&CallerKey>,
        responses: impl IntoIterator<Item = (String, Value)>,
        wait: Duration,
    ) -> Result<(), ErrorData> {
        let task = self.current(id, caller).await?;
        if task.is_terminal() {
            return Ok(());
        }
        let answers: JsonObject = responses.into_iter().collect();
        let answered: Vec<String> = answers
            .keys()
            .filter(|key| task.asks(key))
            .cloned()
            .collect();
        self.tell(&task, TaskMessageKind::Answers(answers)).await?;
        if !answered.is_empty() && !wait.is_zero() {
            self.taken(&task, &answered, wait).await;
        }
        Ok(())
    }

    /// Waits until the stored task (`asked`, as read before the answers were sent) asks none of
    /// `answered`, or has been written since (the running replica took the answers and asked
    /// one of them again, say), or has ended or gone, for at most `wait`.
    async fn taken(&self, asked: &StoredTask, answered: &[String], wait: Duration) {
        let store = self.replica.store();
        let deadline = tokio::time::Instant::now() + wait;
        let mut pause = Duration::from_millis(1);
        let written_at = &asked.task.task.last_updated_at;
        loop {
            match store.load(asked.id()).await {
                Ok(Some(task))
                    if !task.is_terminal()
                        && task.task.task.last_updated_at == *written_at
                        && answered.iter().any(|key| task.asks(key)) => {}
                // Taken, ended, gone, or a store that cannot say: nothing more to wait for.
                _ => return,
            }
            if tokio::time::Instant::now() + pause > deadline {
                return;
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }

    pub(crate) async fn cancel(
        &self,
        id: &str,
        caller: Option<&CallerKey>,
    ) -> Result<(), ErrorData> {
        let task = self.current(id, caller).await?;
        if task.is_terminal() {
            return Ok(());
        }
        self.tell(&task, TaskMessageKind::Cancel).await
    }

    /// Brings `kind` to the replica running `task`: this one directly, another through the store.
    async fn tell(&self, task: &StoredTask, kind: TaskMessageKind) -> Result<(), ErrorData> {
        let message = TaskMessage::new(task.id(), kind);
        if task.replica == self.replica.name {
            self.replica.deliver(message);
            return Ok(());
        }
        self.replica
            .store()
            .send(&task.replica, &message)
            .await
            .map_err(store_failed)
    }
}
