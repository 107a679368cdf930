//! This replica: its name in the store, the tasks running here and how to reach each, and the
//! worker that renews its lease and hands it the messages other replicas send.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::{Duration, Instant};

use rmcp::ErrorData;
use serde_json::Value;
use tokio::sync::{oneshot, watch};

use super::errors::store_failed;
use super::store::{MemoryTaskStore, TaskMessage, TaskMessageKind, TaskStore};
use crate::sync::{lock, read, write};

/// One replica of a server: the tasks it runs, and the store they are kept in.
pub(super) struct Replica {
    store: RwLock<Arc<dyn TaskStore>>,
    /// This server's name in the store: messages for its tasks are sent to it, and its lease
    /// says it lives. Random, so a restarted process is a new replica.
    pub(super) name: String,
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

impl Replica {
    /// A new replica keeping its tasks in a [`MemoryTaskStore`], with a lease of `lease`.
    pub(super) fn new(lease: Duration) -> Replica {
        Replica {
            store: RwLock::new(Arc::new(MemoryTaskStore::new())),
            name: uuid::Uuid::new_v4().to_string(),
            running: Mutex::default(),
            worker: Mutex::default(),
            lease: RwLock::new(lease),
        }
    }

    pub(super) fn store(&self) -> Arc<dyn TaskStore> {
        read(&self.store).clone()
    }

    pub(super) fn set_store(&self, store: Arc<dyn TaskStore>) {
        *write(&self.store) = store;
    }

    pub(super) fn lease(&self) -> Duration {
        *read(&self.lease)
    }

    pub(super) fn set_lease(&self, lease: Duration) {
        *write(&self.lease) = lease;
    }

    /// Starts reaching the task `id`, which now runs here: the signal that cancels it.
    pub(super) fn run(&self, id: &str) -> watch::Receiver<bool> {
        let (cancel, cancelled) = watch::channel(false);
        lock(&self.running).insert(
            id.to_owned(),
            Running {
                cancel,
                waiting: HashMap::new(),
            },
        );
        cancelled
    }

    /// How many tasks run here now.
    pub(super) fn running(&self) -> usize {
        lock(&self.running).len()
    }

    /// Hands a message to the task it is for, if it still runs here.
    pub(super) fn deliver(&self, message: TaskMessage) {
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
    pub(super) fn wait_for(&self, id: &str, key: &str) -> Option<oneshot::Receiver<Value>> {
        let mut running = lock(&self.running);
        let task = running.get_mut(id)?;
        let (answer, answered) = oneshot::channel();
        task.waiting.insert(key.to_owned(), answer);
        Some(answered)
    }

    /// Stops reaching the task `id` (it ended, or is forgotten).
    pub(super) fn finished(&self, id: &str) {
        lock(&self.running).remove(id);
    }

    /// Starts the worker that renews this replica's lease and receives its messages, unless it
    /// runs; the lease is renewed once before this answers.
    pub(super) async fn ensure_worker(
        self: &Arc<Self>,
        store: &Arc<dyn TaskStore>,
    ) -> Result<(), ErrorData> {
        let running = lock(&self.worker)
            .as_ref()
            .is_some_and(|worker| !worker.is_finished());
        if running {
            return Ok(());
        }
        store
            .renew(&self.name, self.lease())
            .await
            .map_err(store_failed)?;
        let mut worker = lock(&self.worker);
        if worker.as_ref().is_none_or(|worker| worker.is_finished()) {
            *worker = Some(tokio::spawn(work(Arc::downgrade(self))));
        }
        Ok(())
    }
}

/// The replica's worker: renews the lease a third of it before it lapses, and hands the
/// messages sent to this replica to its tasks. Ends when the server is gone.
async fn work(replica: Weak<Replica>) {
    let mut renewed = Instant::now();
    loop {
        let Some(strong) = replica.upgrade() else {
            return;
        };
        let store = strong.store();
        let name = strong.name.clone();
        let lease = strong.lease();
        drop(strong);
        let beat = lease / 3;
        if renewed.elapsed() >= beat {
            // A failed renewal is tried again on the next turn; the lease has two more thirds.
            if store.renew(&name, lease).await.is_ok() {
                renewed = Instant::now();
            }
        }
        let wait = beat
            .saturating_sub(renewed.elapsed())
            .max(Duration::from_millis(10));
        match store.receive(&name, wait.min(Duration::from_secs(1))).await {
            Ok(messages) => {
                let Some(strong) = replica.upgrade() else {
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
