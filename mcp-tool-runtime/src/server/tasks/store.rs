//! Where tasks live: the [`TaskStore`] trait a server keeps its tasks in, and what it stores.
//!
//! A store holds each task's state ([`StoredTask`]: its status, status message, result or error,
//! questions, TTL, owner, and the replica running it), the messages other replicas send the
//! replica running a task ([`TaskMessage`]: answers, cancellation), and each replica's lease.
//! [`MemoryTaskStore`](super::MemoryTaskStore) needs nothing; [`RedisTaskStore`](super::RedisTaskStore)
//! (feature `redis`) is shared by every replica of a server.

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use rmcp::model::{DetailedTask, JsonObject};
use serde::{Deserialize, Serialize};

/// One task as a store keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredTask {
    /// The task as `tasks/get` answers it: status, message, and the result, error or questions.
    pub task: DetailedTask,
    /// Who created the task (an opaque digest of the caller's identity), or `None` for a caller
    /// without one. Only the same caller is answered about the task.
    pub owner: Option<String>,
    /// The replica running the task (until it ends): the one its messages go to, and whose
    /// lease says whether it still runs.
    pub replica: String,
    /// When the task is forgotten, in milliseconds since the Unix epoch (its creation plus its
    /// `ttlMs`).
    pub expires_at_ms: u64,
}

impl StoredTask {
    /// The task's id.
    pub fn id(&self) -> &str {
        &self.task.task.task_id
    }

    /// Whether the task has ended (`completed`, `failed` or `cancelled`): its state no longer
    /// changes.
    pub fn is_terminal(&self) -> bool {
        self.task.status().is_terminal()
    }
}

/// A message for the replica running a task, sent by whichever replica a client reached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskMessage {
    /// The task the message is about.
    pub task_id: String,
    /// What it says.
    pub kind: TaskMessageKind,
}

/// What a [`TaskMessage`] says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TaskMessageKind {
    /// A `tasks/update`'s `inputResponses`: answers to the task's questions, by key.
    Answers(JsonObject),
    /// A `tasks/cancel`.
    Cancel,
}

/// The bounds a store checks when a task is created: counted over every task it keeps, running
/// or finished and still readable, so they hold for every replica sharing the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskBounds {
    /// Tasks the store may keep at once.
    pub max_tasks: usize,
    /// Tasks one owner may have kept at once (not checked for tasks without an owner).
    pub max_tasks_per_owner: usize,
}

/// Why a store did not create a task.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The store keeps [`TaskBounds::max_tasks`] tasks already.
    #[error("the task store keeps {0} tasks already, its limit")]
    Full(usize),
    /// The owner has [`TaskBounds::max_tasks_per_owner`] tasks kept already.
    #[error("this caller has {0} tasks kept already, the limit for one caller")]
    OwnerFull(usize),
    /// The store could not be reached or answered something it should not have.
    #[error("the task store failed: {0}")]
    Unavailable(String),
}

/// Where a server's tasks live. Every method is one step a server takes; a store shared by
/// several replicas (each a process serving the same tools) lets any of them answer `tasks/get`,
/// `tasks/update` and `tasks/cancel` for a task another runs.
///
/// The contract, which the toolkit's test suite checks for each store it ships:
/// - a task is readable until its `expires_at_ms`, then unknown;
/// - [`save`](TaskStore::save) never changes a task that has ended, so a task is answered once:
///   a result written after a dead replica's task was failed is dropped, not served;
/// - messages for a replica are received once each, in the order sent, by that replica only;
/// - a replica is alive while its last [`renew`](TaskStore::renew)'s lease runs.
pub trait TaskStore: Send + Sync + 'static {
    /// Keeps a new task, unless that would pass `bounds`.
    fn create<'a>(
        &'a self,
        task: &'a StoredTask,
        bounds: TaskBounds,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// The task `id`, or `None` when it never existed or has expired.
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredTask>, StoreError>>;

    /// Writes a task's new state, keeping its expiry. Answers `false`, writing nothing, when the
    /// stored task has ended or is gone.
    fn save<'a>(&'a self, task: &'a StoredTask) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// Sends `message` to `replica`.
    fn send<'a>(
        &'a self,
        replica: &'a str,
        message: &'a TaskMessage,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// The messages sent to `replica`, waiting up to `wait` for the first when there are none.
    fn receive<'a>(
        &'a self,
        replica: &'a str,
        wait: Duration,
    ) -> BoxFuture<'a, Result<Vec<TaskMessage>, StoreError>>;

    /// Says `replica` is alive for `lease` from now.
    fn renew<'a>(
        &'a self,
        replica: &'a str,
        lease: Duration,
    ) -> BoxFuture<'a, Result<(), StoreError>>;

    /// Whether `replica`'s lease still runs.
    fn alive<'a>(&'a self, replica: &'a str) -> BoxFuture<'a, Result<bool, StoreError>>;
}

/// A store behind a pointer is the store: `Box<dyn TaskStore>` and `Arc<dyn TaskStore>` are stores.
macro_rules! forward {
    ($($pointer:ident),*) => {$(
        impl<S: TaskStore + ?Sized> TaskStore for $pointer<S> {
            fn create<'a>(
                &'a self,
                task: &'a StoredTask,
                bounds: TaskBounds,
            ) -> BoxFuture<'a, Result<(), StoreError>> {
                (**self).create(task, bounds)
            }
            fn load<'a>(
                &'a self,
                id: &'a str,
            ) -> BoxFuture<'a, Result<Option<StoredTask>, StoreError>> {
                (**self).load(id)
            }
            fn save<'a>(&'a self, task: &'a StoredTask) -> BoxFuture<'a, Result<bool, StoreError>> {
                (**self).save(task)
            }
            fn send<'a>(
                &'a self,
                replica: &'a str,
                message: &'a TaskMessage,
            ) -> BoxFuture<'a, Result<(), StoreError>> {
                (**self).send(replica, message)
            }
            fn receive<'a>(
                &'a self,
                replica: &'a str,
                wait: Duration,
            ) -> BoxFuture<'a, Result<Vec<TaskMessage>, StoreError>> {
                (**self).receive(replica, wait)
            }
            fn renew<'a>(
                &'a self,
                replica: &'a str,
                lease: Duration,
            ) -> BoxFuture<'a, Result<(), StoreError>> {
                (**self).renew(replica, lease)
            }
            fn alive<'a>(&'a self, replica: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
                (**self).alive(replica)
            }
        }
    )*};
}
forward!(Box, Arc);

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
