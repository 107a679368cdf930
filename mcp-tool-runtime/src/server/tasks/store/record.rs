//! What a store keeps and is told: [`StoredTask`], [`TaskMessage`], the [`TaskBounds`] it checks,
//! and the [`StoreError`] it answers.

use rmcp::model::{DetailedTask, JsonObject, TaskPayload};
use rmcp::task_manager::current_timestamp;
use serde::{Deserialize, Serialize};

/// One task as a store keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
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
    /// Whose share of tasks it counts against (`TaskBounds::max_tasks_per_owner`), when that is
    /// not its `owner`: a verified user (a digest of its issuer and subject, all its clients
    /// together), or `unverified` for every caller whose credential the server did not verify,
    /// so a client sending a new credential with each call is not a new share each time. A
    /// store counts tasks by `share`, else by `owner`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<String>,
}

impl StoredTask {
    /// A task as a store keeps it: `task` as `tasks/get` answers it, created by `owner`, run by
    /// `replica`, forgotten at `expires_at_ms` (milliseconds since the Unix epoch).
    pub fn new(
        task: DetailedTask,
        owner: Option<String>,
        replica: impl Into<String>,
        expires_at_ms: u64,
    ) -> Self {
        StoredTask {
            task,
            owner,
            replica: replica.into(),
            expires_at_ms,
            share: None,
        }
    }

    /// This task, counted against `share`'s tasks rather than its owner's.
    pub fn with_share(mut self, share: Option<String>) -> Self {
        self.share = share;
        self
    }

    /// Whose share of tasks this task counts against: its `share`, else its `owner`.
    pub fn counted_as(&self) -> Option<&str> {
        self.share.as_deref().or(self.owner.as_deref())
    }

    /// This task ended with `payload` (its status following), updated now.
    pub(crate) fn ended(mut self, payload: TaskPayload) -> StoredTask {
        let mut base = self.task.task.clone();
        base.last_updated_at = current_timestamp();
        self.task = DetailedTask::new(base, payload);
        self
    }

    /// The task's id.
    pub fn id(&self) -> &str {
        &self.task.task.task_id
    }

    /// Whether the task waits on the question `key` (it is `input_required`, asking it).
    pub(crate) fn asks(&self, key: &str) -> bool {
        matches!(&self.task.payload, TaskPayload::InputRequired { input_requests }
            if input_requests.contains_key(key))
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
#[non_exhaustive]
pub struct TaskMessage {
    /// The task the message is about.
    pub task_id: String,
    /// What it says.
    pub kind: TaskMessageKind,
}

impl TaskMessage {
    /// A message saying `kind` about the task `task_id`.
    pub fn new(task_id: impl Into<String>, kind: TaskMessageKind) -> Self {
        TaskMessage {
            task_id: task_id.into(),
            kind,
        }
    }
}

/// What a [`TaskMessage`] says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum TaskMessageKind {
    /// A `tasks/update`'s `inputResponses`: answers to the task's questions, by key.
    Answers(JsonObject),
    /// A `tasks/cancel`.
    Cancel,
}

/// The bounds a store checks when a task is created: counted over every task it keeps, running
/// or finished and still readable, so they hold for every replica sharing the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TaskBounds {
    /// Tasks the store may keep at once.
    pub max_tasks: usize,
    /// Tasks one owner may have kept at once (not checked for tasks without an owner).
    pub max_tasks_per_owner: usize,
}

impl TaskBounds {
    /// At most `max_tasks` kept, and `max_tasks_per_owner` for one owner.
    pub const fn new(max_tasks: usize, max_tasks_per_owner: usize) -> Self {
        TaskBounds {
            max_tasks,
            max_tasks_per_owner,
        }
    }
}

/// Why a store did not do what it was asked.
///
/// ```
/// use mcp_tool_runtime::server::tasks::StoreError;
///
/// let error = StoreError::unavailable(std::io::Error::other("connection refused"));
/// assert_eq!(error.to_string(), "the task store failed: connection refused");
/// assert!(std::error::Error::source(&error).is_some());
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The store keeps [`TaskBounds::max_tasks`] tasks already.
    #[error("the task store keeps {0} tasks already, its limit")]
    Full(usize),
    /// The owner has [`TaskBounds::max_tasks_per_owner`] tasks kept already.
    #[error("this caller has {0} tasks kept already, the limit for one caller")]
    OwnerFull(usize),
    /// The store could not be reached or answered something it should not have; the error it
    /// gave is kept as the source.
    #[error("the task store failed: {0}")]
    Unavailable(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl StoreError {
    /// A store that failed with `error`.
    pub fn unavailable(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        StoreError::Unavailable(error.into())
    }
}
