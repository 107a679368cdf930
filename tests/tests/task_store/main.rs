//! The task store: the same tests for every store the toolkit ships ([`MemoryTaskStore`] and,
//! against a real `redis-server`, [`RedisTaskStore`]), first of the store's contract, then of
//! servers sharing one: replicas answering for each other's tasks, and a replica that dies.
//!
//! The Redis half needs `redis-server` (installed by `scripts/e2e-setup.sh`): it is `#[ignore]`d
//! in a plain `cargo test`, and run by `scripts/test.sh`.

use std::future::Future;

use mcp_tool_runtime::server::tasks::{MemoryTaskStore, RedisTaskStore, TaskStore};
use tests::redis::RedisServer;

mod contract;
mod replicas;

/// Runs `test` with a fresh in-memory store.
async fn with_memory<F, Fut>(test: F)
where
    F: FnOnce(Stores) -> Fut,
    Fut: Future<Output = ()>,
{
    let store = MemoryTaskStore::new();
    test(Stores::Memory(store)).await;
}

/// Runs `test` with stores on a fresh `redis-server`.
async fn with_redis<F, Fut>(test: F)
where
    F: FnOnce(Stores) -> Fut,
    Fut: Future<Output = ()>,
{
    let redis = RedisServer::start();
    test(Stores::Redis(redis.url())).await;
    drop(redis);
}

/// Where a test's stores come from: every store it opens sees the same tasks.
#[derive(Clone)]
enum Stores {
    Memory(MemoryTaskStore),
    Redis(String),
}

impl Stores {
    /// A store (for Redis, on a connection of its own, as a replica has).
    async fn open(&self) -> Box<dyn TaskStore> {
        match self {
            Stores::Memory(store) => Box::new(store.clone()),
            Stores::Redis(url) => Box::new(RedisTaskStore::connect(url).await.unwrap()),
        }
    }
}

/// Declares each test once per store: `memory::name` and `redis::name`.
macro_rules! for_each_store {
    ($($test:ident),* $(,)?) => {
        mod memory {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    crate::with_memory(super::$test).await;
                }
            )*
        }
        mod redis {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[ignore = "needs redis-server (scripts/e2e-setup.sh installs it; scripts/test.sh runs these)"]
                async fn $test() {
                    crate::with_redis(super::$test).await;
                }
            )*
        }
    };
}
pub(crate) use for_each_store;
