//! [`MemoryTaskStore`]: tasks kept in the process's memory, the store a server has unless it is
//! given another.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use tokio::sync::Notify;

use super::contract::{TaskStore, now_ms};
use super::record::{StoreError, StoredTask, TaskBounds, TaskMessage};
use crate::sync::lock;

/// Tasks kept in memory. It needs nothing and is lost with the process; clones share the same
/// tasks, so several servers in one process (replicas in a test, say) can share one.
#[derive(Clone, Default)]
pub struct MemoryTaskStore {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    state: Mutex<State>,
    /// Woken when a message is sent to any replica.
    sent: Notify,
}

#[derive(Default)]
struct State {
    tasks: HashMap<String, StoredTask>,
    inboxes: HashMap<String, VecDeque<TaskMessage>>,
    leases: HashMap<String, Instant>,
}

impl State {
    /// Forgets tasks past their expiry.
    fn sweep(&mut self, now: u64) {
        self.tasks.retain(|_, task| task.expires_at_ms > now);
    }
}

impl MemoryTaskStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for MemoryTaskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryTaskStore")
            .field("tasks", &lock(&self.inner.state).tasks.len())
            .finish()
    }
}

impl TaskStore for MemoryTaskStore {
    fn create<'a>(
        &'a self,
        task: &'a StoredTask,
        bounds: TaskBounds,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        let mut state = lock(&self.inner.state);
        state.sweep(now_ms());
        let result = if state.tasks.len() >= bounds.max_tasks {
            Err(StoreError::Full(bounds.max_tasks))
        } else if task.counted_as().is_some()
            && state
                .tasks
                .values()
                .filter(|t| t.counted_as() == task.counted_as())
                .count()
                >= bounds.max_tasks_per_owner
        {
            Err(StoreError::OwnerFull(bounds.max_tasks_per_owner))
        } else {
            state.tasks.insert(task.id().to_owned(), task.clone());
            Ok(())
        };
        Box::pin(std::future::ready(result))
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredTask>, StoreError>> {
        let state = lock(&self.inner.state);
        let task = state
            .tasks
            .get(id)
            .filter(|task| task.expires_at_ms > now_ms())
            .cloned();
        Box::pin(std::future::ready(Ok(task)))
    }

    fn save<'a>(&'a self, task: &'a StoredTask) -> BoxFuture<'a, Result<bool, StoreError>> {
        let mut state = lock(&self.inner.state);
        let saved = match state.tasks.get_mut(task.id()) {
            Some(stored) if !stored.is_terminal() && stored.expires_at_ms > now_ms() => {
                let expires_at_ms = stored.expires_at_ms;
                *stored = task.clone();
                stored.expires_at_ms = expires_at_ms;
                true
            }
            _ => false,
        };
        Box::pin(std::future::ready(Ok(saved)))
    }

    fn send<'a>(
        &'a self,
        replica: &'a str,
        message: &'a TaskMessage,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        lock(&self.inner.state)
            .inboxes
            .entry(replica.to_owned())
            .or_default()
            .push_back(message.clone());
        self.inner.sent.notify_waiters();
        Box::pin(std::future::ready(Ok(())))
    }

    fn receive<'a>(
        &'a self,
        replica: &'a str,
        wait: Duration,
    ) -> BoxFuture<'a, Result<Vec<TaskMessage>, StoreError>> {
        Box::pin(async move {
            let deadline = tokio::time::Instant::now() + wait;
            loop {
                // Registered before looking, so a message sent in between still wakes us.
                let sent = self.inner.sent.notified();
                let messages: Vec<TaskMessage> = lock(&self.inner.state)
                    .inboxes
                    .get_mut(replica)
                    .map(|inbox| inbox.drain(..).collect())
                    .unwrap_or_default();
                if !messages.is_empty() {
                    return Ok(messages);
                }
                if tokio::time::timeout_at(deadline, sent).await.is_err() {
                    return Ok(Vec::new());
                }
            }
        })
    }

    fn renew<'a>(
        &'a self,
        replica: &'a str,
        lease: Duration,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        lock(&self.inner.state)
            .leases
            .insert(replica.to_owned(), Instant::now() + lease);
        Box::pin(std::future::ready(Ok(())))
    }

    fn alive<'a>(&'a self, replica: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        let alive = lock(&self.inner.state)
            .leases
            .get(replica)
            .is_some_and(|until| *until > Instant::now());
        Box::pin(std::future::ready(Ok(alive)))
    }
}
