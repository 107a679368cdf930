//! The call context's channel for a tool running as a task: progress becomes the task's status
//! message, questions its `inputRequests` (answered by `tasks/update`), and `tasks/cancel` its
//! cancellation; each change is written to the task store.

use std::sync::{Arc, Mutex, Weak};

use futures_util::future::BoxFuture;
use rmcp::model::{InputRequests, TaskPayload};
use rmcp::task_manager::current_timestamp;
use serde_json::Value;
use tokio::sync::watch;

use super::replica::Replica;
use super::store::{StoredTask, TaskMessage, TaskMessageKind, TaskStore};
use crate::context::{Channel, ClientRequest, ClientRequestError, LogLevel, RequestInfo};
use crate::server::input::{input_request, invalid_request};
use crate::sync::lock;

/// A task's channel; clones share the task.
#[derive(Clone)]
pub(super) struct InTask(Arc<State>);

struct State {
    /// The task as this replica last changed it.
    task: Mutex<StoredTask>,
    /// Held while a state is written: writes land one at a time, each the latest state, so a
    /// slow write never lands after a newer one and brings back a state already left.
    writing: tokio::sync::Mutex<()>,
    store: Arc<dyn TaskStore>,
    tasks: Weak<Replica>,
    cancelled: watch::Receiver<bool>,
    info: RequestInfo,
    /// Set when the tool panicked: the task then fails (a protocol-level error, SEP-2663),
    /// where a call would answer an `isError` result.
    panicked: Mutex<Option<String>>,
}

impl InTask {
    pub(super) fn new(
        task: StoredTask,
        store: Arc<dyn TaskStore>,
        tasks: Weak<Replica>,
        cancelled: watch::Receiver<bool>,
        info: RequestInfo,
    ) -> Self {
        InTask(Arc::new(State {
            task: Mutex::new(task),
            writing: tokio::sync::Mutex::new(()),
            store,
            tasks,
            cancelled,
            info,
            panicked: Mutex::default(),
        }))
    }

    fn id(&self) -> String {
        lock(&self.0.task).id().to_owned()
    }

    /// Changes the task as `change` says and writes it; a task that ended meanwhile (failed by
    /// another replica, say) is not written.
    async fn write(&self, change: impl FnOnce(&mut StoredTask)) {
        {
            let mut task = lock(&self.0.task);
            change(&mut task);
            task.task.task.last_updated_at = current_timestamp();
        }
        let _writing = self.0.writing.lock().await;
        // The state as it is now, which may include changes made while an earlier write ran.
        let task = lock(&self.0.task).clone();
        // A store that cannot be reached loses a status message, not the task: its end is
        // written again when it comes. A task that ended elsewhere (failed by another replica
        // when this one's lease lapsed) or is gone will never be read again: the tool stops.
        if let Ok(false) = self.0.store.save(&task).await
            && let Some(tasks) = self.0.tasks.upgrade()
        {
            tasks.deliver(TaskMessage::new(task.id(), TaskMessageKind::Cancel));
        }
    }

    /// Writes how the task ended, and stops reaching it.
    pub(super) async fn end(&self, payload: TaskPayload) {
        let task = lock(&self.0.task).clone().ended(payload);
        *lock(&self.0.task) = task.clone();
        let _writing = self.0.writing.lock().await;
        // The end must be written: tried a few times if the store is away.
        for attempt in 0..5_u64 {
            if self.0.store.save(&task).await.is_ok() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(200 * (attempt + 1))).await;
        }
        self.forget();
    }

    /// Stops reaching the task (it is gone).
    pub(super) fn forget(&self) {
        if let Some(tasks) = self.0.tasks.upgrade() {
            tasks.finished(&self.id());
        }
    }

    pub(super) fn panicked(&self) -> Option<String> {
        lock(&self.0.panicked).clone()
    }

    /// Resolves when the task is cancelled.
    pub(super) async fn cancelled_signal(&self) {
        let mut cancelled = self.0.cancelled.clone();
        // An error: the sender is gone, so no cancellation can come.
        if cancelled.wait_for(|cancelled| *cancelled).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Sets the task's questions (`input_required`), or back to `working` when there are none.
fn set_questions(task: &mut StoredTask, questions: InputRequests) {
    let payload = if questions.is_empty() {
        TaskPayload::Working
    } else {
        TaskPayload::InputRequired {
            input_requests: questions,
        }
    };
    let base = task.task.task.clone();
    task.task = rmcp::model::DetailedTask::new(base, payload);
}

fn questions(task: &StoredTask) -> InputRequests {
    match &task.task.payload {
        TaskPayload::InputRequired { input_requests } => input_requests.clone(),
        _ => InputRequests::new(),
    }
}

impl Channel for InTask {
    fn request_info(&self) -> RequestInfo {
        self.0.info.clone()
    }
    fn protocol_version(&self) -> Option<&str> {
        self.0.info.protocol_version.as_deref()
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
        Box::pin(self.write(|task| task.task.task.status_message = Some(message)))
    }
    fn wants_logs(&self) -> bool {
        false
    }
    fn log(&self, _: LogLevel, _: Value) -> BoxFuture<'_, ()> {
        Box::pin(std::future::ready(()))
    }
    fn panicked(&self, message: &str) {
        *lock(&self.0.panicked) = Some(message.to_owned());
    }
    fn request(
        &self,
        key: String,
        request: ClientRequest,
    ) -> BoxFuture<'_, Result<Value, ClientRequestError>> {
        Box::pin(async move {
            let request = input_request(request).map_err(invalid_request)?;
            let id = self.id();
            let answered = self
                .0
                .tasks
                .upgrade()
                .and_then(|tasks| tasks.wait_for(&id, &key))
                .ok_or_else(|| ClientRequestError::Failed("the task has ended".to_owned()))?;
            self.write(|task| {
                let mut asked = questions(task);
                asked.insert(key.clone(), request);
                set_questions(task, asked);
            })
            .await;
            let answer = tokio::select! {
                answer = answered => answer.ok(),
                () = self.cancelled_signal() => None,
            };
            self.write(|task| {
                let mut asked = questions(task);
                asked.remove(&key);
                set_questions(task, asked);
            })
            .await;
            answer.ok_or_else(|| ClientRequestError::Failed("the task was cancelled".to_owned()))
        })
    }
    fn is_cancelled(&self) -> bool {
        *self.0.cancelled.borrow()
    }
    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.cancelled_signal())
    }
}
