//! [`TaskStore`]: the trait a store implements, and the contract every store keeps.

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;

use super::record::{StoreError, StoredTask, TaskBounds, TaskMessage};

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
