//! [`Recording`]: a context for tests, which records what a tool did and answers its client
//! requests from a script (feature `testing`).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use futures_util::future::BoxFuture;
use serde_json::{Map, Value, json};

use super::channel::{Channel, RequestInfo};
use super::client::{ClientRequest, ClientRequestError};
use super::level::LogLevel;
use super::tool_context::ToolContext;
use crate::auth::Caller;
use crate::sync::lock;

/// Something a tool did through a [`Recording`] context.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use mcp_tool_runtime::context::{LogLevel, Recorded, Recording};
///
/// let recording = Recording::new();
/// recording.context().log(LogLevel::Notice, "hi").await;
/// assert_eq!(
///     recording.events(),
///     [Recorded::Log { level: LogLevel::Notice, data: serde_json::json!("hi") }]
/// );
/// # });
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Recorded {
    /// `ctx.progress(...)`.
    Progress {
        /// Progress so far.
        progress: f64,
        /// The total, if known.
        total: Option<f64>,
        /// The message, if any.
        message: Option<String>,
    },
    /// `ctx.log(...)`.
    Log {
        /// The level.
        level: LogLevel,
        /// The data.
        data: Value,
    },
    /// A client request (`elicit`, `sample`, `list_roots`).
    Request {
        /// The request's key.
        key: String,
        /// The request.
        request: ClientRequest,
    },
}

#[derive(Default)]
struct RecordingState {
    events: Vec<Recorded>,
    answers: HashMap<String, Result<Value, ClientRequestError>>,
    cancelled: bool,
    wakers: Vec<Waker>,
}

/// A context for tests: it records what the tool sends and answers client requests from a
/// script. The request carries a `progressToken`, so progress is recorded; every log level is.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use mcp_tool_runtime::context::{Elicitation, Recording};
/// use serde_json::json;
///
/// let recording = Recording::new()
///     .answer("name", json!({"action": "accept", "content": "Alice"}));
/// let ctx = recording.context();
/// let name = ctx.elicit::<String>("name", "Who are you?").await.unwrap();
/// assert_eq!(name, Elicitation::Accepted("Alice".to_owned()));
/// assert_eq!(recording.requests()[0].0, "name");
/// # });
/// ```
#[derive(Clone, Default)]
pub struct Recording {
    state: Arc<Mutex<RecordingState>>,
    capabilities: Option<Map<String, Value>>,
    caller: Option<Arc<Caller>>,
    protocol_version: Option<String>,
}

impl std::fmt::Debug for Recording {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recording")
            .field("events", &self.events())
            .finish_non_exhaustive()
    }
}

impl Recording {
    /// A recording with no scripted answers: every client request fails as unanswered.
    pub fn new() -> Self {
        Self::default()
    }

    /// Answers the client request `key` with `result`, the client's result JSON (for an
    /// elicitation `{"action": "accept", "content": {...}}`, for sampling a message, for roots
    /// `{"roots": [...]}`).
    pub fn answer(self, key: impl Into<String>, result: Value) -> Self {
        self.lock().answers.insert(key.into(), Ok(result));
        self
    }

    /// Fails the client request `key` with `error`.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use mcp_tool_runtime::context::{ClientRequestError, Recording};
    ///
    /// let failed = ClientRequestError::Failed("the client hung up".into());
    /// let recording = Recording::new().fail("roots", failed.clone());
    /// assert_eq!(recording.context().list_roots("roots").await, Err(failed));
    /// // A request with no scripted answer fails too, naming its key.
    /// let unanswered = recording.context().list_roots("other").await.unwrap_err();
    /// assert!(unanswered.to_string().contains("no answer for `other`"));
    /// # });
    /// ```
    pub fn fail(self, key: impl Into<String>, error: ClientRequestError) -> Self {
        self.lock().answers.insert(key.into(), Err(error));
        self
    }

    /// Sets the protocol version the client speaks (by default none is known, as for a
    /// detached call): results are then built as that version is served, so from
    /// `"2026-07-28"` a value that is not an object is `structuredContent` as it is (SEP-2106).
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use mcp_tool_runtime::context::Recording;
    /// use mcp_tool_runtime::{mcp_tool, Toolbox};
    ///
    /// /// Counts.
    /// #[mcp_tool]
    /// fn count() -> u32 { 3 }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(count::tool()).unwrap();
    /// let at = |v: &str| Recording::new().protocol_version(v).context();
    /// let old = toolbox.call_tool_with("count", serde_json::json!({}), at("2025-11-25")).await.unwrap();
    /// assert_eq!(old.structured_content, Some(serde_json::json!({"result": 3})));
    /// let new = toolbox.call_tool_with("count", serde_json::json!({}), at("2026-07-28")).await.unwrap();
    /// assert_eq!(new.structured_content, Some(serde_json::json!(3)));
    /// # });
    /// ```
    pub fn protocol_version(mut self, version: impl Into<String>) -> Self {
        self.protocol_version = Some(version.into());
        self
    }

    /// Sets who is calling, as a verified token would
    /// ([`ToolContext::caller`](super::ToolContext::caller)); by default nobody is.
    pub fn caller(mut self, caller: Caller) -> Self {
        self.caller = Some(Arc::new(caller));
        self
    }

    /// Declares the client's capabilities (by default they are unknown, so nothing is refused
    /// for a missing capability).
    pub fn capabilities(mut self, capabilities: Value) -> Self {
        self.capabilities = match capabilities {
            Value::Object(map) => Some(map),
            _ => None,
        };
        self
    }

    /// A context that records into this recording.
    pub fn context(&self) -> ToolContext {
        ToolContext::new(self.clone())
    }

    /// Cancels the call, as a client's `notifications/cancelled` would.
    pub fn cancel(&self) {
        let wakers = {
            let mut state = self.lock();
            state.cancelled = true;
            std::mem::take(&mut state.wakers)
        };
        wakers.into_iter().for_each(Waker::wake);
    }

    /// Everything the tool did, in order.
    pub fn events(&self) -> Vec<Recorded> {
        self.lock().events.clone()
    }

    /// The progress reports: `(progress, total, message)`.
    pub fn progress(&self) -> Vec<(f64, Option<f64>, Option<String>)> {
        self.events_of(|e| match e {
            Recorded::Progress {
                progress,
                total,
                message,
            } => Some((progress, total, message)),
            _ => None,
        })
    }

    /// The log lines: `(level, data)`.
    pub fn logs(&self) -> Vec<(LogLevel, Value)> {
        self.events_of(|e| match e {
            Recorded::Log { level, data } => Some((level, data)),
            _ => None,
        })
    }

    /// The client requests: `(key, request)`.
    pub fn requests(&self) -> Vec<(String, ClientRequest)> {
        self.events_of(|e| match e {
            Recorded::Request { key, request } => Some((key, request)),
            _ => None,
        })
    }

    fn events_of<T>(&self, pick: impl FnMut(Recorded) -> Option<T>) -> Vec<T> {
        self.events().into_iter().filter_map(pick).collect()
    }

    fn lock(&self) -> MutexGuard<'_, RecordingState> {
        lock(&self.state)
    }
}

impl Channel for Recording {
    fn request_info(&self) -> RequestInfo {
        let mut meta = Map::new();
        meta.insert("progressToken".to_owned(), json!("recording"));
        RequestInfo {
            id: Some(json!("recording")),
            meta,
            client_capabilities: self.capabilities.clone(),
            caller: self.caller.clone(),
            protocol_version: self.protocol_version.clone(),
        }
    }
    fn protocol_version(&self) -> Option<&str> {
        self.protocol_version.as_deref()
    }
    fn progress(
        &self,
        _: Value,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> BoxFuture<'_, ()> {
        self.lock().events.push(Recorded::Progress {
            progress,
            total,
            message,
        });
        Box::pin(std::future::ready(()))
    }
    fn log(&self, level: LogLevel, data: Value) -> BoxFuture<'_, ()> {
        self.lock().events.push(Recorded::Log { level, data });
        Box::pin(std::future::ready(()))
    }
    fn request(
        &self,
        key: String,
        request: ClientRequest,
    ) -> BoxFuture<'_, Result<Value, ClientRequestError>> {
        let mut state = self.lock();
        let answer = state.answers.get(&key).cloned().unwrap_or_else(|| {
            Err(ClientRequestError::Failed(format!(
                "the recording has no answer for `{key}`"
            )))
        });
        state.events.push(Recorded::Request { key, request });
        Box::pin(std::future::ready(answer))
    }
    fn is_cancelled(&self) -> bool {
        self.lock().cancelled
    }
    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(Cancelled { recording: self })
    }
}

struct Cancelled<'a> {
    recording: &'a Recording,
}

impl Future for Cancelled<'_> {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut state = self.recording.lock();
        if state.cancelled {
            Poll::Ready(())
        } else {
            state.wakers.push(cx.waker().clone());
            Poll::Pending
        }
    }
}
