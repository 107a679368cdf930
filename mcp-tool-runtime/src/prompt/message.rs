//! A prompt's messages: [`PromptMessage`] (a role and a content block, the tool content types),
//! the [`Messages`] builder, and [`IntoPromptResult`], what a prompt function may return.

use serde::Serialize;

use crate::content::{Content, Role};
use crate::protocol_error::{IntoProtocolError, ProtocolError};

/// One message of a prompt.
///
/// ```
/// use mcp_tool_runtime::Content;
/// use mcp_tool_runtime::content::Role;
/// use mcp_tool_runtime::prompt::PromptMessage;
///
/// let message = PromptMessage::new(Role::User, Content::text("Hello"));
/// assert_eq!(
///     serde_json::to_value(&message).unwrap(),
///     serde_json::json!({"role": "user", "content": {"type": "text", "text": "Hello"}})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said: text, an image, audio, a resource link or an embedded resource.
    pub content: Content,
}

impl PromptMessage {
    /// A message of `role` with `content`.
    pub fn new(role: Role, content: Content) -> Self {
        PromptMessage { role, content }
    }
}

/// What `prompts/get` answers: the messages, and a description of this instance.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PromptResult {
    /// A description of the prompt as got.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
}

impl PromptResult {
    /// A result of these messages.
    pub fn new(messages: Vec<PromptMessage>) -> Self {
        PromptResult {
            description: None,
            messages,
        }
    }
}

/// Builds a prompt's messages in order.
///
/// ```
/// use mcp_tool_runtime::Content;
/// use mcp_tool_runtime::prompt::{Messages, PromptResult};
///
/// let result: PromptResult = Messages::new()
///     .user("Here is the chart:")
///     .user_content(Content::image(b"\x89PNG", "image/png"))
///     .assistant("I see it.")
///     .description("A chart review")
///     .into();
/// assert_eq!(result.messages.len(), 3);
/// assert_eq!(result.description.as_deref(), Some("A chart review"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Messages(PromptResult);

impl Messages {
    /// No messages yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a user text message.
    pub fn user(self, text: impl Into<String>) -> Self {
        self.user_content(Content::text(text))
    }

    /// Adds an assistant text message.
    pub fn assistant(self, text: impl Into<String>) -> Self {
        self.assistant_content(Content::text(text))
    }

    /// Adds a user message of any content.
    pub fn user_content(self, content: Content) -> Self {
        self.message(Role::User, content)
    }

    /// Adds an assistant message of any content.
    pub fn assistant_content(self, content: Content) -> Self {
        self.message(Role::Assistant, content)
    }

    /// Adds a message.
    pub fn message(mut self, role: Role, content: Content) -> Self {
        self.0.messages.push(PromptMessage::new(role, content));
        self
    }

    /// Sets the description of the prompt as got.
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.0.description = Some(text.into());
        self
    }
}

impl From<Messages> for PromptResult {
    fn from(messages: Messages) -> Self {
        messages.0
    }
}

/// What a `#[mcp_prompt]` function may return: [`Messages`], a [`PromptResult`], a
/// `Vec<PromptMessage>`, a `String` (one user message), or a `Result` of one of these whose
/// error is a [`ProtocolError`] (sent as it is) or a message (sent as `-32603`).
pub trait IntoPromptResult {
    /// The result, or the JSON-RPC error to answer with.
    fn into_prompt_result(self) -> Result<PromptResult, ProtocolError>;
}

impl IntoPromptResult for PromptResult {
    fn into_prompt_result(self) -> Result<PromptResult, ProtocolError> {
        Ok(self)
    }
}

impl IntoPromptResult for Messages {
    fn into_prompt_result(self) -> Result<PromptResult, ProtocolError> {
        Ok(self.0)
    }
}

impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> Result<PromptResult, ProtocolError> {
        Ok(PromptResult::new(self))
    }
}

impl IntoPromptResult for String {
    fn into_prompt_result(self) -> Result<PromptResult, ProtocolError> {
        Messages::new().user(self).into_prompt_result()
    }
}

impl IntoPromptResult for &'static str {
    fn into_prompt_result(self) -> Result<PromptResult, ProtocolError> {
        Messages::new().user(self).into_prompt_result()
    }
}

impl<T: IntoPromptResult, E: IntoProtocolError> IntoPromptResult for Result<T, E> {
    fn into_prompt_result(self) -> Result<PromptResult, ProtocolError> {
        self.map_err(IntoProtocolError::into_protocol_error)?
            .into_prompt_result()
    }
}
