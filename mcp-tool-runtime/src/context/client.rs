//! The client-request vocabulary: what a tool can ask the client (elicitation, sampling, roots),
//! what comes back, and what can go wrong.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::content::Content;

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
    /// The client did not answer within the server's `client_request_timeout` (a setting of
    /// `server::Limits`, feature `rmcp`).
    #[error("the client did not answer within {0:?}")]
    TimedOut(std::time::Duration),
    /// The session (`max_client_requests_per_session`), the caller
    /// (`max_client_requests_per_caller`) or the server (`max_client_requests`) already has as
    /// many requests waiting on clients as it allows (settings of `server::Limits`, feature
    /// `rmcp`).
    #[error(
        "{max} requests from this server are already waiting on clients (the server's {limit}); try again when one is answered"
    )]
    TooMany {
        /// The setting that refused the request, such as `"max_client_requests_per_caller"`.
        limit: &'static str,
        /// Its value.
        max: usize,
    },
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

/// A request to the client, as a [`Recording`](crate::context::Recording) shows it.
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
