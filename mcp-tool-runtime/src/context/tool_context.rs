//! [`ToolContext`]: the call context a tool takes, and the detached one a call outside a server
//! gets.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};

use futures_util::future::BoxFuture;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::channel::{Channel, RequestInfo};
use super::client::{
    Capability, ClientRequest, ClientRequestError, Elicitation, Root, SampledMessage,
    SamplingRequest,
};
use super::elicit::{elicitation_schema, parse_elicitation};
use super::level::LogLevel;
use crate::auth::Caller;

/// What the clones of one call's context share: one allocation with the channel in it (the
/// channel is the unsized last field, not a box of its own).
struct Shared<C: ?Sized = dyn Channel> {
    /// Read from the channel on first use: a tool that never asks costs nothing.
    request: OnceLock<RequestInfo>,
    /// Set once the call's result exists: progress after it is not sent.
    finished: AtomicBool,
    channel: C,
}

/// The call context a tool takes as a parameter: progress, cancellation, logging, client
/// requests and the request itself. See the [module docs](crate::context).
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use mcp_tool_runtime::context::{Capability, LogLevel, Recording, SamplingRequest};
/// use serde_json::json;
///
/// let recording = Recording::new()
///     .capabilities(json!({"sampling": {}}))
///     .answer("q", json!({"role": "assistant", "content": {"type": "text", "text": "42"}, "model": "m"}));
/// let ctx = recording.context();
///
/// // The request.
/// assert_eq!(ctx.request_id(), Some(&json!("recording")));
/// assert_eq!(ctx.progress_token(), Some(&json!("recording")));
/// assert_eq!(ctx.meta()["progressToken"], "recording");
/// assert_eq!(ctx.protocol_version(), None);
/// assert_eq!(ctx.client_supports(Capability::Sampling), Some(true));
/// assert_eq!(ctx.client_supports(Capability::Elicitation), Some(false));
/// assert!(ctx.client_capabilities().unwrap().contains_key("sampling"));
///
/// // Progress, logging, a client request, cancellation.
/// ctx.progress(1.0, Some(2.0)).await;
/// ctx.progress_with_message(2.0, Some(2.0), "done").await;
/// ctx.log(LogLevel::Info, "working").await;
/// let answer = ctx.sample("q", SamplingRequest::new("The answer?", 10)).await.unwrap();
/// assert_eq!(answer.text(), Some("42"));
/// assert!(ctx.elicit::<String>("name", "Who?").await.is_err()); // not declared
/// recording.cancel();
/// ctx.cancelled().await;
/// assert!(ctx.is_cancelled());
/// assert_eq!(recording.progress().len(), 2);
/// # });
/// ```
///
/// Cheap to clone (clones share one call); `Send + Sync`, so a tool may hand it to tasks it
/// spawns. What a clone does after the call has ended is dropped: progress is never sent after
/// the result.
#[derive(Clone)]
pub struct ToolContext {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolContext")
            .field("request_id", &self.request().id)
            .field("protocol_version", &self.request().protocol_version)
            .finish_non_exhaustive()
    }
}

impl Default for ToolContext {
    fn default() -> Self {
        Self::detached()
    }
}

struct Detached;

impl Channel for Detached {
    fn progress(&self, _: Value, _: f64, _: Option<f64>, _: Option<String>) -> BoxFuture<'_, ()> {
        Box::pin(std::future::ready(()))
    }
    fn log(&self, _: LogLevel, _: Value) -> BoxFuture<'_, ()> {
        Box::pin(std::future::ready(()))
    }
    fn request(
        &self,
        _: String,
        _: ClientRequest,
    ) -> BoxFuture<'_, Result<Value, ClientRequestError>> {
        Box::pin(std::future::ready(Err(ClientRequestError::Detached)))
    }
    fn is_cancelled(&self) -> bool {
        false
    }
    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(std::future::pending())
    }
}

impl ToolContext {
    /// A context connected to nothing: what [`Toolbox::call_tool`](crate::Toolbox::call_tool)
    /// gives a tool. Progress and logging do nothing, the call is never cancelled, client
    /// requests fail with [`ClientRequestError::Detached`].
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use mcp_tool_runtime::context::{ClientRequestError, ToolContext};
    ///
    /// let ctx = ToolContext::detached();
    /// assert!(!ctx.is_cancelled());
    /// assert_eq!(ctx.list_roots("roots").await, Err(ClientRequestError::Detached));
    /// # });
    /// ```
    pub fn detached() -> Self {
        // Detached contexts send nothing, so one can serve every call: no allocation per call.
        static DETACHED: LazyLock<ToolContext> = LazyLock::new(|| ToolContext::new(Detached));
        DETACHED.clone()
    }

    pub(crate) fn new(channel: impl Channel + 'static) -> Self {
        ToolContext {
            shared: Arc::new(Shared {
                request: OnceLock::new(),
                finished: AtomicBool::new(false),
                channel,
            }),
        }
    }

    fn request(&self) -> &RequestInfo {
        self.shared
            .request
            .get_or_init(|| self.shared.channel.request_info())
    }

    /// The protocol version the client speaks, known without reading the request (which moves
    /// its `_meta` into the context): what every call builds its result for.
    pub(crate) fn served_version(&self) -> Option<&str> {
        match self.shared.request.get() {
            Some(request) => request.protocol_version.as_deref(),
            None => self.shared.channel.protocol_version(),
        }
    }

    /// Tells the channel the tool panicked with `message`.
    pub(crate) fn report_panic(&self, message: &str) {
        self.shared.channel.panicked(message);
    }

    /// Marks the call finished: nothing is sent for it any more.
    pub(crate) fn finish(&self) {
        self.shared.finished.store(true, Ordering::Release);
    }

    fn finished(&self) -> bool {
        self.shared.finished.load(Ordering::Acquire)
    }

    /// The request's JSON-RPC id (`None` when detached).
    pub fn request_id(&self) -> Option<&Value> {
        self.request().id.as_ref()
    }

    /// The request's `_meta` (empty when it had none).
    pub fn meta(&self) -> &Map<String, Value> {
        &self.request().meta
    }

    /// The protocol version the client speaks, like `"2025-11-25"` (`None` when detached).
    pub fn protocol_version(&self) -> Option<&str> {
        self.request().protocol_version.as_deref()
    }

    /// The capabilities the client declared (`None` when not known).
    pub fn client_capabilities(&self) -> Option<&Map<String, Value>> {
        self.request().client_capabilities.as_ref()
    }

    /// Who is calling, as the server verified it (a bearer token's subject, client, scopes and
    /// claims): `None` over stdio, over HTTP without authorization, and when detached.
    ///
    /// ```
    /// use mcp_tool_runtime::auth::Caller;
    /// use mcp_tool_runtime::context::Recording;
    ///
    /// let recording = Recording::new().caller(Caller::new("alice").scopes(["invoices:read"]));
    /// let ctx = recording.context();
    /// assert_eq!(ctx.caller().and_then(|c| c.subject()), Some("alice"));
    /// assert!(Recording::new().context().caller().is_none());
    /// ```
    pub fn caller(&self) -> Option<&Caller> {
        self.request().caller.as_deref()
    }

    /// Whether the client declared `capability`; `None` when its capabilities are not known.
    pub fn client_supports(&self, capability: Capability) -> Option<bool> {
        self.client_capabilities()
            .map(|caps| caps.get(capability.name()).is_some_and(|c| !c.is_null()))
    }

    /// The request's `progressToken`, if the client asked for progress.
    pub fn progress_token(&self) -> Option<&Value> {
        self.request().meta.get("progressToken")
    }

    /// Reports progress: `progress` so far, out of `total` if known. Sent as
    /// `notifications/progress` only when the request carried a `progressToken`, and never after
    /// the call's result; otherwise it does nothing.
    pub async fn progress(&self, progress: f64, total: Option<f64>) {
        self.send_progress(progress, total, None).await;
    }

    /// Reports progress with a message for the user.
    pub async fn progress_with_message(
        &self,
        progress: f64,
        total: Option<f64>,
        message: impl Into<String>,
    ) {
        self.send_progress(progress, total, Some(message.into()))
            .await;
    }

    async fn send_progress(&self, progress: f64, total: Option<f64>, message: Option<String>) {
        let token = match self.progress_token() {
            Some(token) => token.clone(),
            None if self.shared.channel.reports_progress_without_token() => Value::Null,
            None => return,
        };
        if self.finished() {
            return;
        }
        self.shared
            .channel
            .progress(token, progress, total, message)
            .await;
    }

    /// Sends a log line (`notifications/message`) at `level`, if the client wants that level:
    /// at 2026-07-28, only when the request names a level (`io.modelcontextprotocol/logLevel`),
    /// as the spec requires; at 2025-x, the session's `logging/setLevel`, and until the client
    /// sets one, every level. `data` is any JSON value, a message string in practice.
    pub async fn log(&self, level: LogLevel, data: impl Serialize) {
        if self.finished()
            || !self.shared.channel.wants_logs()
            || self
                .shared
                .channel
                .min_level()
                .is_some_and(|min| level < min)
        {
            return;
        }
        let data = serde_json::to_value(data).unwrap_or_else(|e| Value::String(e.to_string()));
        self.shared.channel.log(level, data).await;
    }

    /// Makes the call a task from here on, for a tool declared `escalates` (with `task = ...`)
    /// called by a client that declared the tasks extension: the call is answered with the task
    /// (`CreateTaskResult`) and this returns, the body going on as the task (its progress the
    /// task's status message, its questions the task's `inputRequests`). What the body asked
    /// before is asked with input-required results, in the call; so a tool can gather input
    /// first and only then start the long work (SEP-2322 with SEP-2663).
    ///
    /// Anywhere else (a tool that is a task from the start, a client without the extension, a
    /// call outside a server) it returns at once and the call goes on as it was.
    ///
    /// ```
    /// use mcp_tool_runtime::{ToolContext, mcp_tool};
    ///
    /// /// Imports a file, asking first which one.
    /// #[mcp_tool(task = required, escalates)]
    /// async fn import(ctx: &ToolContext, file: String) -> String {
    ///     // Checked in the call: a bad file is answered at once, not as a failed task.
    ///     ctx.escalate().await;
    ///     // The long work, as a task.
    ///     format!("imported {file}")
    /// }
    /// ```
    pub async fn escalate(&self) {
        if !self.finished() {
            self.shared.channel.escalate().await;
        }
    }

    /// Whether the client has cancelled the request.
    pub fn is_cancelled(&self) -> bool {
        self.shared.channel.is_cancelled()
    }

    /// Completes when the client cancels the request; never, if it does not. For `select!` in
    /// tools that must clean up: a served tool whose request is cancelled is dropped anyway.
    pub async fn cancelled(&self) {
        self.shared.channel.cancelled().await;
    }

    async fn ask(&self, key: &str, request: ClientRequest) -> Result<Value, ClientRequestError> {
        if self.client_supports(request.capability) == Some(false) {
            self.shared.channel.not_supported(request.capability);
            return Err(ClientRequestError::NotSupported(request.capability));
        }
        self.shared.channel.request(key.to_owned(), request).await
    }

    /// Asks the user for a `T` (`elicitation/create`), with `message` explaining why. The
    /// `requestedSchema` is `T`'s JSON schema, built by the same code as `inputSchema`s; MCP
    /// allows a flat object of strings, numbers, booleans and enums.
    ///
    /// `key` names the question: at protocol 2026-07-28 it is the `inputRequests` key the answer
    /// comes back under when the client calls the tool again (the tool runs again from the start
    /// and this call returns the answer), so keep it the same for the same question.
    ///
    /// # Errors
    /// The client did not declare `elicitation`, the request failed, or the answer does not
    /// deserialize as `T`.
    pub async fn elicit<T: DeserializeOwned + JsonSchema>(
        &self,
        key: &str,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, ClientRequestError> {
        let schema = elicitation_schema::<T>();
        let params = json!({"message": message.into(), "requestedSchema": schema});
        let answer = self
            .ask(
                key,
                ClientRequest {
                    capability: Capability::Elicitation,
                    params,
                },
            )
            .await?;
        parse_elicitation(answer)
    }

    /// Asks the client's model for a message (`sampling/createMessage`). `key` as for
    /// [`elicit`](Self::elicit).
    ///
    /// # Errors
    /// The client did not declare `sampling`, the request failed, or the answer is not a message.
    pub async fn sample(
        &self,
        key: &str,
        request: SamplingRequest,
    ) -> Result<SampledMessage, ClientRequestError> {
        let answer = self
            .ask(
                key,
                ClientRequest {
                    capability: Capability::Sampling,
                    params: request.to_params(),
                },
            )
            .await?;
        serde_json::from_value(answer)
            .map_err(|e| ClientRequestError::InvalidResponse(e.to_string()))
    }

    /// Asks the client for its roots (`roots/list`). `key` as for [`elicit`](Self::elicit).
    ///
    /// # Errors
    /// The client did not declare `roots`, the request failed, or the answer is not a root list.
    pub async fn list_roots(&self, key: &str) -> Result<Vec<Root>, ClientRequestError> {
        #[derive(Deserialize)]
        struct Roots {
            roots: Vec<Root>,
        }
        let answer = self
            .ask(
                key,
                ClientRequest {
                    capability: Capability::Roots,
                    params: json!({}),
                },
            )
            .await?;
        serde_json::from_value::<Roots>(answer)
            .map(|r| r.roots)
            .map_err(|e| ClientRequestError::InvalidResponse(e.to_string()))
    }
}
