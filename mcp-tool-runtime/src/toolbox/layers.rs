//! Ready [`CallLayer`]s: a time limit per tool, and a limit on the calls of each tool running at
//! once. Each refusal is an `isError` result saying what happened, and is counted.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
#[cfg(feature = "rmcp")]
use std::time::Duration;

use futures_util::future::BoxFuture;

use super::layer::{CallLayer, Next};
use crate::result::ToolResult;

/// Ends a call that runs longer than its tool's limit (feature `rmcp`, which brings the timer):
/// the tool's future is dropped, so whatever it held is released, and the client gets an
/// `isError` result naming the limit. Clones share the count.
/// Calls must run on a Tokio runtime with its timer on, as `#[tokio::main]` and rmcp's serving
/// have.
///
/// ```
/// use std::time::Duration;
/// use mcp_tool_runtime::{mcp_tool, Toolbox};
/// use mcp_tool_runtime::toolbox::layers::Timeout;
///
/// /// Waits for ever.
/// #[mcp_tool]
/// async fn stuck() -> u8 { std::future::pending().await }
///
/// let timeout = Timeout::new(Duration::from_secs(30)).tool("stuck", Duration::from_millis(10));
/// let mut toolbox = Toolbox::new();
/// toolbox.register(stuck::tool()).unwrap();
/// toolbox.layer(timeout.clone());
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let result = toolbox.call_tool("stuck", serde_json::json!({})).await.unwrap();
/// assert!(result.is_error);
/// assert_eq!(
///     result.text(),
///     Some("the call of tool `stuck` ran longer than its limit of 10ms and was stopped")
/// );
/// assert_eq!(timeout.expired(), 1);
/// # });
/// ```
#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
#[derive(Debug, Clone)]
pub struct Timeout {
    default: Duration,
    per_tool: HashMap<String, Duration>,
    expired: Arc<AtomicU64>,
}

#[cfg(feature = "rmcp")]
impl Timeout {
    /// Every tool's calls end after `default`, unless [`tool`](Self::tool) says otherwise.
    pub fn new(default: Duration) -> Self {
        Timeout {
            default,
            per_tool: HashMap::new(),
            expired: Arc::default(),
        }
    }

    /// The calls of the tool `name` end after `limit`.
    pub fn tool(mut self, name: impl Into<String>, limit: Duration) -> Self {
        self.per_tool.insert(name.into(), limit);
        self
    }

    /// How many calls were stopped at their limit.
    pub fn expired(&self) -> u64 {
        self.expired.load(Ordering::Relaxed)
    }
}

#[cfg(feature = "rmcp")]
impl CallLayer for Timeout {
    fn call<'a>(&'a self, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        let limit = self
            .per_tool
            .get(next.tool())
            .copied()
            .unwrap_or(self.default);
        let tool = next.tool().to_owned();
        Box::pin(async move {
            match tokio::time::timeout(limit, next.run()).await {
                Ok(result) => result,
                Err(_) => {
                    self.expired.fetch_add(1, Ordering::Relaxed);
                    ToolResult::error(format!(
                        "the call of tool `{tool}` ran longer than its limit of {limit:?} and was stopped"
                    ))
                }
            }
        })
    }
}

/// Refuses a call when its tool already has as many calls running as it allows: the client gets
/// an `isError` result at once (it is not queued), naming the limit. Clones share the count of
/// refusals and what is running.
///
/// ```
/// use mcp_tool_runtime::toolbox::layers::ConcurrencyLimit;
///
/// // Four calls of each tool at once; `export` one at a time.
/// let limit = ConcurrencyLimit::new(4).tool("export", 1);
/// assert_eq!(limit.refused(), 0);
/// ```
#[derive(Debug, Clone)]
pub struct ConcurrencyLimit {
    default: usize,
    per_tool: HashMap<String, usize>,
    /// Calls running now, per tool, shared by clones.
    running: Arc<Mutex<HashMap<String, Arc<AtomicUsize>>>>,
    refused: Arc<AtomicU64>,
}

impl ConcurrencyLimit {
    /// At most `default` calls of each tool at once, unless [`tool`](Self::tool) says otherwise.
    pub fn new(default: usize) -> Self {
        ConcurrencyLimit {
            default,
            per_tool: HashMap::new(),
            running: Arc::default(),
            refused: Arc::default(),
        }
    }

    /// At most `limit` calls of the tool `name` at once.
    pub fn tool(mut self, name: impl Into<String>, limit: usize) -> Self {
        self.per_tool.insert(name.into(), limit);
        self
    }

    /// How many calls were refused.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }
}

/// One running call, counted until dropped.
struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl CallLayer for ConcurrencyLimit {
    fn call<'a>(&'a self, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        let tool = next.tool();
        let limit = self.per_tool.get(tool).copied().unwrap_or(self.default);
        let counter = crate::sync::lock(&self.running)
            .entry(tool.to_owned())
            .or_default()
            .clone();
        if counter.fetch_add(1, Ordering::AcqRel) >= limit {
            counter.fetch_sub(1, Ordering::AcqRel);
            self.refused.fetch_add(1, Ordering::Relaxed);
            let message = format!(
                "tool `{tool}` already has {limit} calls running, its limit; try again when one finishes"
            );
            return Box::pin(async move { ToolResult::error(message) });
        }
        let running = Running(counter);
        Box::pin(async move {
            let result = next.run().await;
            drop(running);
            result
        })
    }
}
