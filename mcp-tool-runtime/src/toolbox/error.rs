//! What a toolbox refuses: a tool it cannot register ([`RegistrationError`]), and a call of a
//! tool it does not have ([`UnknownTool`]).

use crate::settings::SettingsError;

/// Why a tool could not be registered.
///
/// ```
/// use mcp_tool_runtime::{RegistrationError, ToolDeclaration, Toolbox, Tool, ToolCall, ToolResult, BoxFuture};
///
/// struct Named(&'static str);
/// impl Tool for Named {
///     fn declaration(&self) -> ToolDeclaration { ToolDeclaration::new(self.0) }
///     fn call<'a>(&'a self, call: ToolCall<'a>) -> BoxFuture<'a, ToolResult> {
///         Box::pin(async move { call.finish(&()) })
///     }
/// }
///
/// let err = Toolbox::new().register(Named("has space")).unwrap_err();
/// assert!(matches!(err, RegistrationError::InvalidName { .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistrationError {
    /// Two tools with one name.
    #[error(
        "a tool named `{0}` is already registered; tool names must be unique, give one a `name = \"...\"`"
    )]
    DuplicateName(String),
    /// A name MCP clients reject.
    #[error(
        "tool name `{name}` is invalid: {reason}; use 1 to 128 characters of A-Z a-z 0-9 _ - ."
    )]
    InvalidName {
        /// The name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The structured-output settings cannot be served (MCP's asymmetric rule, or a flag the
    /// tool's content kind cannot honour).
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// An argument marked `x-mcp-header` (SEP-2243) that cannot be served as a header.
    #[error("tool `{tool}` cannot be registered: {reason}")]
    InvalidHeader {
        /// The tool.
        tool: String,
        /// What is wrong.
        reason: String,
    },
    /// The tool's `inputSchema` states a rule its arguments cannot be held to (a `format` no
    /// validator here checks, or any rule in a build without the `self-check` feature): a
    /// promise to models and clients that nothing would keep.
    #[error("tool `{tool}` cannot be registered: {reason}")]
    UncheckableArguments {
        /// The tool.
        tool: String,
        /// What cannot be checked, and what to do.
        reason: String,
    },
    /// [`Toolbox::mount`](crate::Toolbox::mount) cannot serve the other toolbox's tools here.
    #[error("cannot mount a toolbox under `{prefix}`: {reason}")]
    MountConflict {
        /// The prefix it was to be mounted under.
        prefix: String,
        /// What conflicts, and what to do.
        reason: String,
    },
    /// A tool whose MCP Apps view cannot be served: not a `ui://` URI, or no resource of the
    /// toolbox serves it.
    #[error("tool `{tool}` cannot be registered: {reason}")]
    InvalidView {
        /// The tool.
        tool: String,
        /// What is wrong, and what to do.
        reason: String,
    },
    /// A prompt that cannot be registered: its name taken or invalid, an argument declared
    /// twice.
    #[error("prompt `{prompt}` cannot be registered: {reason}")]
    InvalidPrompt {
        /// The prompt's name.
        prompt: String,
        /// What is wrong, and what to do.
        reason: String,
    },
    /// A resource that cannot be registered: a malformed URI or template, variables that do
    /// not match the resource's, a URI taken, a template that overlaps another.
    #[error("resource `{uri}` cannot be registered: {reason}")]
    InvalidResource {
        /// Its URI or URI template.
        uri: String,
        /// What is wrong, and what to do.
        reason: String,
    },
    /// A prompt or resource needs state the toolbox does not hold.
    #[error(
        "{item} needs state of type `{type_name}`; add it with `Toolbox::insert_state` before registering it"
    )]
    NeedsState {
        /// The prompt or resource (`prompt \`review\``).
        item: String,
        /// The state's type.
        type_name: &'static str,
    },
    /// The tool needs state the toolbox does not hold.
    #[error(
        "tool `{tool}` needs state of type `{type_name}`; add it with `Toolbox::insert_state` before registering the tool"
    )]
    MissingState {
        /// The tool.
        tool: String,
        /// The state's type.
        type_name: &'static str,
    },
}

/// `tools/call` named a tool the toolbox does not have (a JSON-RPC error, -32602, in MCP).
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use mcp_tool_runtime::{Toolbox, UnknownTool};
/// let err = Toolbox::new().call_tool("nope", serde_json::Value::Null).await.unwrap_err();
/// assert_eq!(err, UnknownTool { name: "nope".into() });
/// # });
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tool `{name}`")]
pub struct UnknownTool {
    /// The name that was asked for.
    pub name: String,
}
