//! Where tasks live: the [`TaskStore`] trait a server keeps its tasks in, what it stores, and
//! the stores this crate ships (one file each).
//!
//! A store holds each task's state ([`StoredTask`]: its status, status message, result or error,
//! questions, TTL, owner, and the replica running it), the messages other replicas send the
//! replica running a task ([`TaskMessage`]: answers, cancellation), and each replica's lease.
//! [`MemoryTaskStore`] needs nothing; [`RedisTaskStore`] (feature `redis`) is shared by every
//! replica of a server.
//!
//! The types a store reads and writes are `#[non_exhaustive]`, built with their constructors, so
//! that a field or a kind of message added later breaks no store of a third party.

mod contract;
mod memory;
mod record;
#[cfg(feature = "redis")]
mod redis;

pub use contract::TaskStore;
pub(crate) use contract::now_ms;
pub use memory::MemoryTaskStore;
pub use record::{StoreError, StoredTask, TaskBounds, TaskMessage, TaskMessageKind};
#[cfg(feature = "redis")]
pub use redis::RedisTaskStore;
