//! Ready [`CallLayer`]s: a time limit per tool, a limit on the calls of each tool running at
//! once, and a rate limit per caller. Each refusal is an `isError` result saying what happened,
//! and is counted.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;

use super::call_layer::{CallLayer, Next};
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

/// Refuses a caller's call past its rate: each caller (the verified
/// [`Caller`](crate::auth::Caller)'s subject, or its client when the token names no subject;
/// every call without a verified caller counts as one caller) may make `calls` calls per `per`,
/// in bursts of up to `calls` (a token bucket). A refused call gets an `isError` result at once,
/// saying when to try again. Clones share the buckets and the count.
///
/// At most [`max_callers`](Self::max_callers) callers are tracked at once (10,000 unless set):
/// buckets that have filled up again are forgotten first, and a new caller past the bound is
/// refused, so no number of callers grows memory without bound.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use std::time::Duration;
/// use mcp_tool_runtime::auth::Caller;
/// use mcp_tool_runtime::context::Recording;
/// use mcp_tool_runtime::toolbox::layers::RateLimit;
/// use mcp_tool_runtime::{mcp_tool, Toolbox};
///
/// /// Answers pong.
/// #[mcp_tool]
/// fn ping() -> String { "pong".into() }
///
/// let limit = RateLimit::new(2, Duration::from_secs(60));
/// let mut toolbox = Toolbox::new();
/// toolbox.register(ping::tool()).unwrap();
/// toolbox.layer(limit.clone());
/// let alice = Recording::new().caller(Caller::new("alice"));
/// for _ in 0..2 {
///     let ok = toolbox.call_tool_with("ping", serde_json::json!({}), alice.context()).await.unwrap();
///     assert!(!ok.is_error);
/// }
/// let refused = toolbox.call_tool_with("ping", serde_json::json!({}), alice.context()).await.unwrap();
/// assert!(refused.is_error);
/// assert!(refused.text().unwrap().starts_with("caller `alice` made 2 calls in 60s, its limit;"));
/// // Another caller has a bucket of its own.
/// let bob = Recording::new().caller(Caller::new("bob"));
/// assert!(!toolbox.call_tool_with("ping", serde_json::json!({}), bob.context()).await.unwrap().is_error);
/// assert_eq!(limit.refused(), 1);
/// # });
/// ```
#[derive(Debug, Clone)]
pub struct RateLimit {
    calls: u32,
    per: Duration,
    max_callers: usize,
    buckets: Arc<Mutex<HashMap<String, Bucket>>>,
    refused: Arc<AtomicU64>,
}

/// What a caller has left: `tokens` at `at`, refilled continuously.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The default bound on the callers a [`RateLimit`] tracks at once.
pub const DEFAULT_MAX_CALLERS: usize = 10_000;

/// The name calls without a verified caller share a bucket under.
const ANONYMOUS: &str = "anonymous";

impl RateLimit {
    /// Each caller may make `calls` calls per `per` (at least one call, over a non-zero time).
    pub fn new(calls: u32, per: Duration) -> Self {
        RateLimit {
            calls: calls.max(1),
            per: per.max(Duration::from_millis(1)),
            max_callers: DEFAULT_MAX_CALLERS,
            buckets: Arc::default(),
            refused: Arc::default(),
        }
    }

    /// Tracks at most `max` callers at once ([`DEFAULT_MAX_CALLERS`] unless set).
    pub fn max_callers(mut self, max: usize) -> Self {
        self.max_callers = max.max(1);
        self
    }

    /// How many calls were refused.
    pub fn refused(&self) -> u64 {
        self.refused.load(Ordering::Relaxed)
    }

    /// Takes one call from `caller`'s bucket, or says how long until it may call again.
    fn take(&self, caller: &str) -> Result<(), Duration> {
        let capacity = f64::from(self.calls);
        let rate = capacity / self.per.as_secs_f64();
        let now = Instant::now();
        let mut buckets = crate::sync::lock(&self.buckets);
        if !buckets.contains_key(caller) && buckets.len() >= self.max_callers {
            // Full buckets say nothing a new one would not: forget them first.
            buckets
                .retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate < capacity);
            if buckets.len() >= self.max_callers {
                return Err(self.per);
            }
        }
        let bucket = buckets.entry(caller.to_owned()).or_insert(Bucket {
            tokens: capacity,
            at: now,
        });
        let tokens =
            (bucket.tokens + now.duration_since(bucket.at).as_secs_f64() * rate).min(capacity);
        bucket.at = now;
        if tokens >= 1.0 {
            bucket.tokens = tokens - 1.0;
            Ok(())
        } else {
            bucket.tokens = tokens;
            Err(Duration::from_secs_f64((1.0 - tokens) / rate))
        }
    }
}

impl CallLayer for RateLimit {
    fn call<'a>(&'a self, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        let caller = next.context().caller();
        let name = caller
            .and_then(|c| c.subject().or(c.client()))
            .unwrap_or(ANONYMOUS);
        // The bucket is the issuer's user: two issuers' same-named subjects are two callers.
        let issuer = caller
            .and_then(|c| c.claim("iss"))
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default();
        let bucket = format!("{}:{issuer}{name}", issuer.len());
        let key = name;
        match self.take(&bucket) {
            Ok(()) => next.run(),
            Err(wait) => {
                self.refused.fetch_add(1, Ordering::Relaxed);
                let message = format!(
                    "caller `{key}` made {} calls in {:?}, its limit; try again in {:.1}s",
                    self.calls,
                    self.per,
                    wait.as_secs_f64()
                );
                Box::pin(async move { ToolResult::error(message) })
            }
        }
    }
}
