//! [`RedisTaskStore`] (feature `redis`): tasks kept in Redis, shared by every replica of a server.

use std::time::Duration;

use futures_util::future::BoxFuture;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{AsyncCommands, Script};

use super::contract::{TaskStore, now_ms};
use super::record::{StoreError, StoredTask, TaskBounds, TaskMessage};

/// Tasks kept in Redis, through the `redis` crate. Every replica of a server given a store on
/// the same Redis (and the same prefix) sees every task: any replica answers `tasks/get`,
/// `tasks/update` and `tasks/cancel`, and updates and cancellations reach the replica running
/// the task through a Redis list it waits on.
///
/// What it keeps, under the prefix (`mcp:tasks` unless [`with_prefix`](Self::with_prefix) says):
/// - `{prefix}:task:{id}`: the task (a hash of its status, owner and JSON), expiring with it;
/// - `{prefix}:all` and `{prefix}:owner:{owner}`: sorted sets of the tasks kept, by expiry, that
///   the bounds are counted on;
/// - `{prefix}:inbox:{replica}`: the messages for a replica;
/// - `{prefix}:lease:{replica}`: a replica's lease, expiring with it.
///
/// A task is created, and its state written, by one script each, so two replicas never both
/// write a task's end.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use mcp_tool_runtime::server::tasks::RedisTaskStore;
/// use mcp_tool_runtime::{Toolbox, ToolboxServer};
///
/// let store = RedisTaskStore::connect("redis://127.0.0.1:6379/").await?;
/// let server = ToolboxServer::new(Toolbox::new())?;
/// server.set_task_store(store);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisTaskStore {
    commands: ConnectionManager,
    /// A connection of its own for the blocking wait on an inbox, which would hold up every
    /// command behind it on a shared one.
    waits: ConnectionManager,
    prefix: String,
}

impl std::fmt::Debug for RedisTaskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisTaskStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// The longest one wait on an inbox blocks; longer waits are cut to it.
const MAX_WAIT: Duration = Duration::from_secs(5);

/// Messages kept for a replica that never reads them (it died) are dropped after this long.
const INBOX_TTL_MS: u64 = 600_000;

/// Messages taken from an inbox at once.
const RECEIVE_BATCH: usize = 256;

/// Keeps a task unless the bounds are reached: KEYS task, all, share (its owner's, unless it
/// counts against another share); ARGV json, status, owner, ttl ms, now ms, expires at ms, max
/// tasks, max per owner, id, share. Answers 0, or 1 (store full), or 2 (share full).
const CREATE: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[7]) then return 1 end
if ARGV[10] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[5])
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[8]) then return 2 end
end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'owner', ARGV[3], 'json', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[9])
redis.call('PEXPIRE', KEYS[2], ARGV[4], 'GT')
if redis.call('TTL', KEYS[2]) < 0 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
if ARGV[10] ~= '' then
  redis.call('ZADD', KEYS[3], ARGV[6], ARGV[9])
  redis.call('PEXPIRE', KEYS[3], ARGV[4], 'GT')
  if redis.call('TTL', KEYS[3]) < 0 then redis.call('PEXPIRE', KEYS[3], ARGV[4]) end
end
return 0
";

/// Writes a task's state unless it has ended or is gone: KEYS task; ARGV json, status.
const SAVE: &str = r"
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'completed' or status == 'failed' or status == 'cancelled' then
  return 0
end
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'json', ARGV[1])
return 1
";

fn unavailable(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> StoreError {
    StoreError::unavailable(error)
}

fn status_of(task: &StoredTask) -> Result<String, StoreError> {
    match serde_json::to_value(task.task.status()).map_err(unavailable)? {
        serde_json::Value::String(status) => Ok(status),
        other => Err(unavailable(format!("a task status written as {other}"))),
    }
}

impl RedisTaskStore {
    /// Connects to the Redis at `url` (`redis://host:port/db`). The connections reconnect by
    /// themselves when Redis goes away and comes back.
    pub async fn connect(url: &str) -> Result<Self, StoreError> {
        let client = redis::Client::open(url).map_err(unavailable)?;
        // A Redis that went away makes a request fail within seconds (a few quick reconnection
        // attempts), rather than hold the MCP request that needed it.
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_millis(500));
        let commands = client
            .get_connection_manager_with_config(
                config
                    .clone()
                    .set_response_timeout(Some(Duration::from_secs(5))),
            )
            .await
            .map_err(unavailable)?;
        let waits = client
            .get_connection_manager_with_config(
                config.set_response_timeout(Some(MAX_WAIT + Duration::from_secs(5))),
            )
            .await
            .map_err(unavailable)?;
        Ok(RedisTaskStore {
            commands,
            waits,
            prefix: "mcp:tasks".to_owned(),
        })
    }

    /// Keeps the tasks under `prefix` (`mcp:tasks` by default): servers with different prefixes
    /// share a Redis without seeing each other's tasks.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    fn key(&self, kind: &str, name: &str) -> String {
        format!("{}:{kind}:{name}", self.prefix)
    }
}

impl TaskStore for RedisTaskStore {
    fn create<'a>(
        &'a self,
        task: &'a StoredTask,
        bounds: TaskBounds,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let json = serde_json::to_string(task).map_err(unavailable)?;
            let now = now_ms();
            let ttl = task.expires_at_ms.saturating_sub(now).max(1);
            let owner = task.owner.clone().unwrap_or_default();
            let share = task.counted_as().unwrap_or_default().to_owned();
            let answer: i64 = Script::new(CREATE)
                .key(self.key("task", task.id()))
                .key(format!("{}:all", self.prefix))
                .key(self.key("owner", &share))
                .arg(json)
                .arg(status_of(task)?)
                .arg(&owner)
                .arg(ttl)
                .arg(now)
                .arg(task.expires_at_ms)
                .arg(bounds.max_tasks)
                .arg(bounds.max_tasks_per_owner)
                .arg(task.id())
                .arg(&share)
                .invoke_async(&mut self.commands.clone())
                .await
                .map_err(unavailable)?;
            match answer {
                0 => Ok(()),
                1 => Err(StoreError::Full(bounds.max_tasks)),
                _ => Err(StoreError::OwnerFull(bounds.max_tasks_per_owner)),
            }
        })
    }

    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredTask>, StoreError>> {
        Box::pin(async move {
            let json: Option<String> = self
                .commands
                .clone()
                .hget(self.key("task", id), "json")
                .await
                .map_err(unavailable)?;
            json.map(|json| serde_json::from_str(&json).map_err(unavailable))
                .transpose()
        })
    }

    fn save<'a>(&'a self, task: &'a StoredTask) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let json = serde_json::to_string(task).map_err(unavailable)?;
            let saved: i64 = Script::new(SAVE)
                .key(self.key("task", task.id()))
                .arg(json)
                .arg(status_of(task)?)
                .invoke_async(&mut self.commands.clone())
                .await
                .map_err(unavailable)?;
            Ok(saved == 1)
        })
    }

    fn send<'a>(
        &'a self,
        replica: &'a str,
        message: &'a TaskMessage,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let json = serde_json::to_string(message).map_err(unavailable)?;
            let inbox = self.key("inbox", replica);
            redis::pipe()
                .atomic()
                .rpush(&inbox, json)
                .ignore()
                .pexpire(&inbox, INBOX_TTL_MS as i64)
                .ignore()
                .query_async::<()>(&mut self.commands.clone())
                .await
                .map_err(unavailable)
        })
    }

    fn receive<'a>(
        &'a self,
        replica: &'a str,
        wait: Duration,
    ) -> BoxFuture<'a, Result<Vec<TaskMessage>, StoreError>> {
        Box::pin(async move {
            let inbox = self.key("inbox", replica);
            let mut waits = self.waits.clone();
            let mut raw: Vec<String> = Vec::new();
            let first: Option<(String, String)> = waits
                .blpop(&inbox, wait.min(MAX_WAIT).as_secs_f64())
                .await
                .map_err(unavailable)?;
            if let Some((_, message)) = first {
                raw.push(message);
                let rest: Option<Vec<String>> = self
                    .commands
                    .clone()
                    .lpop(&inbox, std::num::NonZeroUsize::new(RECEIVE_BATCH))
                    .await
                    .map_err(unavailable)?;
                raw.extend(rest.unwrap_or_default());
            }
            // A message this version cannot read is dropped, not retried forever.
            Ok(raw
                .iter()
                .filter_map(|json| serde_json::from_str(json).ok())
                .collect())
        })
    }

    fn renew<'a>(
        &'a self,
        replica: &'a str,
        lease: Duration,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let millis = u64::try_from(lease.as_millis()).unwrap_or(u64::MAX).max(1);
            self.commands
                .clone()
                .pset_ex::<_, _, ()>(self.key("lease", replica), 1, millis)
                .await
                .map_err(unavailable)
        })
    }

    fn alive<'a>(&'a self, replica: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            self.commands
                .clone()
                .exists(self.key("lease", replica))
                .await
                .map_err(unavailable)
        })
    }
}
