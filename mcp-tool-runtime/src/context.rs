//! The call context: what a tool can do besides returning its result.
//!
//! A tool takes it as one parameter of type [`ToolContext`] (by value or `&ToolContext`); it is
//! recognised by that type, whatever the parameter is called, and is not part of the tool's
//! `inputSchema`. Through it a tool reports progress, notices that the client cancelled, logs to
//! the client, asks the client for something (elicitation, sampling, roots), and reads the
//! request (`_meta`, id, protocol version, the client's capabilities).
//!
//! Where the context comes from decides what it does:
//! - served by [`ToolboxServer`](crate::ToolboxServer), it talks to the client through rmcp;
//! - called through [`Toolbox::call_tool`](crate::Toolbox::call_tool), it is *detached*: progress
//!   and log lines go nowhere, the call is never cancelled, and client requests fail with
//!   [`ClientRequestError::Detached`];
//! - in a test, [`Recording`] captures progress and log lines and answers client requests from a
//!   script.
//!
//! ```
//! use mcp_tool_runtime::{mcp_tool, Toolbox};
//! use mcp_tool_runtime::context::{LogLevel, Recording, ToolContext};
//!
//! /// Counts to `n`, reporting progress.
//! #[mcp_tool]
//! async fn count(ctx: &ToolContext, n: u32) -> u32 {
//!     for i in 1..=n {
//!         ctx.progress(f64::from(i), Some(f64::from(n))).await;
//!     }
//!     ctx.log(LogLevel::Info, "counted").await;
//!     n
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut toolbox = Toolbox::new();
//! toolbox.register(count::tool()).unwrap();
//! let recording = Recording::new();
//! toolbox
//!     .call_tool_with("count", serde_json::json!({"n": 2}), recording.context())
//!     .await
//!     .unwrap();
//! assert_eq!(recording.progress(), [(1.0, Some(2.0), None), (2.0, Some(2.0), None)]);
//! assert_eq!(recording.logs(), [(LogLevel::Info, serde_json::json!("counted"))]);
//! # });
//! ```

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};
use std::task::{Context, Poll, Waker};

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::content::Content;
use crate::tool::BoxFuture;

/// The severity of a log line, MCP's eight syslog levels, least severe first.
///
/// ```
/// use mcp_tool_runtime::context::LogLevel;
///
/// assert!(LogLevel::Warning > LogLevel::Info);
/// assert_eq!(serde_json::to_value(LogLevel::Warning).unwrap(), "warning");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// Normal operation.
    Info,
    /// Normal but significant.
    Notice,
    /// Something may be wrong.
    Warning,
    /// An error.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

/// The client capability a client request needs.
///
/// ```
/// use mcp_tool_runtime::context::Capability;
/// assert_eq!(Capability::Elicitation.name(), "elicitation");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Capability {
    /// `elicitation/create`.
    Elicitation,
    /// `sampling/createMessage`.
    Sampling,
    /// `roots/list`.
    Roots,
}

impl Capability {
    /// The capability's key in the client's `capabilities`.
    pub fn name(self) -> &'static str {
        match self {
            Capability::Elicitation => "elicitation",
            Capability::Sampling => "sampling",
            Capability::Roots => "roots",
        }
    }

    /// The JSON-RPC method of the request that needs it.
    pub fn method(self) -> &'static str {
        match self {
            Capability::Elicitation => "elicitation/create",
            Capability::Sampling => "sampling/createMessage",
            Capability::Roots => "roots/list",
        }
    }
}

/// A client request that could not be answered.
///
/// ```
/// use mcp_tool_runtime::context::{Capability, ClientRequestError};
///
/// let error = ClientRequestError::NotSupported(Capability::Sampling);
/// assert_eq!(
///     error.to_string(),
///     "the client did not declare the `sampling` capability, so it cannot be sent `sampling/createMessage`"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ClientRequestError {
    /// The client did not declare the capability the request needs.
    #[error(
        "the client did not declare the `{}` capability, so it cannot be sent `{}`",
        .0.name(),
        .0.method()
    )]
    NotSupported(Capability),
    /// The context is not connected to a client (a call through `Toolbox::call_tool`).
    #[error("no client to ask: this call is not served to a client")]
    Detached,
    /// The request failed: the client answered with an error, or the connection failed.
    #[error("the client request failed: {0}")]
    Failed(String),
    /// The client's answer is not what was asked for.
    #[error("the client's answer is invalid: {0}")]
    InvalidResponse(String),
    /// The type asked for cannot be elicited.
    #[error("cannot elicit this type: {0}")]
    InvalidSchema(String),
}

/// What the user did with an elicitation.
///
/// ```
/// use mcp_tool_runtime::context::Elicitation;
///
/// let answer: Elicitation<String> = Elicitation::Accepted("Alice".into());
/// assert_eq!(answer.accepted(), Some("Alice".to_owned()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elicitation<T> {
    /// The user submitted the form.
    Accepted(T),
    /// The user declined.
    Declined,
    /// The user dismissed the request.
    Cancelled,
}

impl<T> Elicitation<T> {
    /// The submitted value, if the user accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicitation::Accepted(value) => Some(value),
            _ => None,
        }
    }
}

/// A `sampling/createMessage` request: messages for the client's model.
///
/// ```
/// use mcp_tool_runtime::context::SamplingRequest;
///
/// let request = SamplingRequest::new("What is the capital of France?", 100);
/// assert_eq!(request.to_params()["maxTokens"], 100);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingRequest {
    messages: Vec<Value>,
    max_tokens: u32,
    system_prompt: Option<String>,
}

impl SamplingRequest {
    /// One user message, `prompt`, answered in at most `max_tokens` tokens.
    pub fn new(prompt: impl Into<String>, max_tokens: u32) -> Self {
        SamplingRequest {
            messages: vec![
                json!({"role": "user", "content": {"type": "text", "text": prompt.into()}}),
            ],
            max_tokens,
            system_prompt: None,
        }
    }

    /// Sets the system prompt.
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// The request's `params`, with MCP's wire names.
    pub fn to_params(&self) -> Value {
        let mut params = json!({"messages": self.messages, "maxTokens": self.max_tokens});
        if let Some(prompt) = &self.system_prompt {
            params["systemPrompt"] = json!(prompt);
        }
        params
    }
}

/// The client model's answer to a [`SamplingRequest`].
///
/// ```
/// use mcp_tool_runtime::context::SampledMessage;
///
/// let answer: SampledMessage = serde_json::from_value(serde_json::json!({
///     "role": "assistant",
///     "content": {"type": "text", "text": "Paris"},
///     "model": "test-model"
/// })).unwrap();
/// assert_eq!(answer.text(), Some("Paris"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SampledMessage {
    /// Who wrote it, `assistant` in practice.
    pub role: String,
    /// What the model answered: one block, or several.
    #[serde(deserialize_with = "one_or_many")]
    pub content: Vec<Content>,
    /// The model that answered.
    pub model: String,
    /// Why the model stopped, if the client says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
}

impl SampledMessage {
    /// The first text block of the answer.
    pub fn text(&self) -> Option<&str> {
        self.content.iter().find_map(|block| match block {
            Content::Text(text) => Some(text.text.as_str()),
            _ => None,
        })
    }
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Content>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        Many(Vec<Content>),
        One(Content),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::Many(blocks) => blocks,
        OneOrMany::One(block) => vec![block],
    })
}

/// A root the client exposes (`roots/list`): a directory or file the server may work in.
///
/// ```
/// use mcp_tool_runtime::context::Root;
///
/// let root: Root = serde_json::from_value(serde_json::json!({"uri": "file:///src"})).unwrap();
/// assert_eq!(root.uri, "file:///src");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Root {
    /// The root's URI, `file://` in practice.
    pub uri: String,
    /// A name for display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A request to the client, as a [`Recording`] shows it.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use mcp_tool_runtime::context::{Capability, Recording};
///
/// let recording = Recording::new();
/// let _ = recording.context().list_roots("roots").await;
/// let (key, request) = &recording.requests()[0];
/// assert_eq!((key.as_str(), request.capability), ("roots", Capability::Roots));
/// assert_eq!(request.params, serde_json::json!({}));
/// # });
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ClientRequest {
    /// Which capability it needs (and so which method it is).
    pub capability: Capability,
    /// Its `params`, with MCP's wire names.
    pub params: Value,
}

/// What the request being served says about itself.
#[derive(Debug, Clone, Default)]
pub(crate) struct RequestInfo {
    pub id: Option<Value>,
    pub meta: Map<String, Value>,
    pub protocol_version: Option<String>,
    pub client_capabilities: Option<Map<String, Value>>,
}

/// Where a context's notifications and requests go: the rmcp peer, a recording, or nowhere.
pub(crate) trait Channel: Send + Sync {
    /// What the request says about itself, read when a tool first asks.
    fn request_info(&self) -> RequestInfo {
        RequestInfo::default()
    }
    fn progress(
        &self,
        token: Value,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> BoxFuture<'_, ()>;
    /// The least severe level the client wants, `None` (the default) for every level.
    fn min_level(&self) -> Option<LogLevel> {
        None
    }
    fn log(&self, level: LogLevel, data: Value) -> BoxFuture<'_, ()>;
    fn request(
        &self,
        key: String,
        request: ClientRequest,
    ) -> BoxFuture<'_, Result<Value, ClientRequestError>>;
    fn is_cancelled(&self) -> bool;
    fn cancelled(&self) -> BoxFuture<'_, ()>;
}

struct Shared {
    /// Read from the channel on first use: a tool that never asks costs nothing.
    request: OnceLock<RequestInfo>,
    channel: Box<dyn Channel>,
    /// Set once the call's result exists: progress after it is not sent.
    finished: AtomicBool,
}

/// The call context a tool takes as a parameter: progress, cancellation, logging, client
/// requests and the request itself. See the [module docs](self).
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
        static DETACHED: LazyLock<ToolContext> =
            LazyLock::new(|| ToolContext::new(Box::new(Detached)));
        DETACHED.clone()
    }

    pub(crate) fn new(channel: Box<dyn Channel>) -> Self {
        ToolContext {
            shared: Arc::new(Shared {
                request: OnceLock::new(),
                channel,
                finished: AtomicBool::new(false),
            }),
        }
    }

    fn request(&self) -> &RequestInfo {
        self.shared
            .request
            .get_or_init(|| self.shared.channel.request_info())
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
        let Some(token) = self.progress_token() else {
            return;
        };
        if self.finished() {
            return;
        }
        self.shared
            .channel
            .progress(token.clone(), progress, total, message)
            .await;
    }

    /// Sends a log line (`notifications/message`) at `level`, if the client wants that level
    /// (`logging/setLevel`, or the request's `io.modelcontextprotocol/logLevel`); until the client
    /// sets one, every level is sent. `data` is any JSON value, a message string in practice.
    pub async fn log(&self, level: LogLevel, data: impl Serialize) {
        if self.finished()
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

/// `T`'s schema as an elicitation's `requestedSchema`: MCP allows a flat object whose
/// properties are strings, numbers, integers, booleans and enums, so what schemars writes for
/// them is brought to that form (optional fields lose their `null`, enums are inlined from
/// `$defs`, formats MCP does not list are dropped). A type that is not flat stays as it is, and
/// the client request fails naming why.
fn elicitation_schema<T: JsonSchema>() -> Value {
    let mut schema = (*crate::schema::input_schema_of::<T>()).clone();
    schema.remove("additionalProperties");
    schema.remove("$schema");
    let defs = schema.remove("$defs");
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for property in properties.values_mut() {
            if let Value::Object(property) = property {
                flatten_property(property, defs.as_ref());
            }
        }
    }
    Value::Object(schema)
}

/// One elicitation property, as MCP's primitive schemas allow it.
fn flatten_property(property: &mut Map<String, Value>, defs: Option<&Value>) {
    // `Option<T>`: `anyOf: [T, null]` or `type: [T, "null"]`.
    if let Some(Value::Array(branches)) = property.get("anyOf").cloned() {
        let mut kept = branches
            .into_iter()
            .filter(|b| b.get("type") != Some(&json!("null")));
        if let (Some(Value::Object(only)), None) = (kept.next(), kept.next()) {
            property.remove("anyOf");
            for (key, value) in only {
                property.entry(key).or_insert(value);
            }
        }
    }
    if let Some(Value::Array(types)) = property.get("type").cloned() {
        let mut kept = types.into_iter().filter(|t| t != "null");
        if let (Some(only), None) = (kept.next(), kept.next()) {
            property.insert("type".to_owned(), only);
        }
    }
    // An enum (or any named type) is referenced from `$defs`: inline it.
    if let Some(Value::String(reference)) = property.remove("$ref") {
        let target = reference
            .strip_prefix("#/$defs/")
            .and_then(|name| defs?.get(name));
        if let Some(Value::Object(target)) = target {
            for (key, value) in target {
                property.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
        flatten_property(property, defs);
    }
    let listed = |f: &Value| matches!(f.as_str(), Some("email" | "uri" | "date" | "date-time"));
    if property.get("format").is_some_and(|f| !listed(f)) {
        property.remove("format");
    }
}

fn parse_elicitation<T: DeserializeOwned>(
    answer: Value,
) -> Result<Elicitation<T>, ClientRequestError> {
    let invalid = |e: String| ClientRequestError::InvalidResponse(e);
    let Value::Object(mut answer) = answer else {
        return Err(invalid(format!(
            "an elicitation result is an object, got {answer}"
        )));
    };
    match answer.get("action").and_then(Value::as_str) {
        Some("accept") => {
            let content = answer.remove("content").unwrap_or(Value::Null);
            serde_json::from_value(content)
                .map(Elicitation::Accepted)
                .map_err(|e| invalid(format!("the accepted content does not match the form: {e}")))
        }
        Some("decline") => Ok(Elicitation::Declined),
        Some("cancel") => Ok(Elicitation::Cancelled),
        _ => Err(invalid(
            "an elicitation result's `action` is `accept`, `decline` or `cancel`".into(),
        )),
    }
}

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
        ToolContext::new(Box::new(self.clone()))
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

    fn lock(&self) -> std::sync::MutexGuard<'_, RecordingState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Channel for Recording {
    fn request_info(&self) -> RequestInfo {
        let mut meta = Map::new();
        meta.insert("progressToken".to_owned(), json!("recording"));
        RequestInfo {
            id: Some(json!("recording")),
            meta,
            protocol_version: None,
            client_capabilities: self.capabilities.clone(),
        }
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
