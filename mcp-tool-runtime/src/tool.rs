//! What a tool is to the runtime: a declaration, and a way to call it.
//!
//! `#[mcp_tool]` implements [`Tool`] for the functions it annotates, but nothing here knows the
//! macro exists: a tool written by hand is served exactly the same way.

use std::any::{Any, TypeId, type_name};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Display;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::build::build_result;
use crate::kind::ContentKind;
use crate::message::{describe, quote};
use crate::options::{Mirror, ResultOptions};
use crate::result::ToolResult;
use crate::schema::{OutputSchema, SchemaObject};
use crate::settings::ToolFlags;
use crate::structured::Shape;

/// Hints about a tool's behaviour, the `annotations` of its `tools/list` entry.
///
/// ```
/// use mcp_tool_runtime::ToolAnnotations;
///
/// let hints = ToolAnnotations { read_only_hint: Some(true), ..Default::default() };
/// assert_eq!(serde_json::to_value(&hints).unwrap(), serde_json::json!({"readOnlyHint": true}));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// A human-readable title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling the tool again with the same arguments has no further effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

/// A `tools/list` entry, with MCP's wire names.
///
/// ```
/// use std::sync::Arc;
/// use mcp_tool_runtime::ToolDefinition;
///
/// let entry = ToolDefinition {
///     name: "ping".into(),
///     title: None,
///     description: Some("Answers pong.".into()),
///     input_schema: Arc::new(serde_json::from_str(r#"{"type":"object"}"#).unwrap()),
///     output_schema: None,
///     annotations: None,
///     icons: Vec::new(),
///     meta: Default::default(),
/// };
/// assert_eq!(
///     serde_json::to_value(&entry).unwrap(),
///     serde_json::json!({"name": "ping", "description": "Answers pong.", "inputSchema": {"type": "object"}})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDefinition {
    /// The tool's name: 1 to 128 characters of `A-Za-z0-9_.-`.
    pub name: Cow<'static, str>,
    /// A human-readable title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Cow<'static, str>>,
    /// What the tool does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Cow<'static, str>>,
    /// The arguments the tool takes.
    #[serde(rename = "inputSchema")]
    pub input_schema: SchemaObject,
    /// The `structuredContent` the tool returns, when it advertises one.
    #[serde(
        rename = "outputSchema",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub output_schema: Option<SchemaObject>,
    /// Hints about the tool's behaviour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Icons a client may show for the tool (SEP-973, since 2025-11-25). Omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// Metadata. Omitted when empty.
    #[serde(rename = "_meta", default, skip_serializing_if = "Map::is_empty")]
    pub meta: Map<String, Value>,
}

/// An icon a client may show for a tool (SEP-973): its `src` (an `https:` URL or a `data:` URI),
/// and optionally its MIME type, sizes (`"48x48"`, `"any"`) and theme.
///
/// ```
/// use mcp_tool_runtime::tool::{Icon, IconTheme};
///
/// let icon = Icon::new("https://example.com/invoice.svg")
///     .mime_type("image/svg+xml")
///     .sizes(["any"])
///     .theme(IconTheme::Light);
/// assert_eq!(
///     serde_json::to_value(&icon).unwrap(),
///     serde_json::json!({"src": "https://example.com/invoice.svg", "mimeType": "image/svg+xml",
///                        "sizes": ["any"], "theme": "light"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// Where the icon is: an `https:` URL or a `data:` URI.
    pub src: Cow<'static, str>,
    /// Its MIME type, when the server's is missing or too generic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<Cow<'static, str>>,
    /// The sizes it is drawn for, `WxH` or `any`. Omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<Cow<'static, str>>,
    /// The theme it is drawn for; any theme when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<IconTheme>,
}

/// The theme an [`Icon`] is drawn for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IconTheme {
    /// For light backgrounds.
    Light,
    /// For dark backgrounds.
    Dark,
}

impl Icon {
    /// An icon at `src`, an `https:` URL or a `data:` URI.
    pub fn new(src: impl Into<Cow<'static, str>>) -> Self {
        Icon {
            src: src.into(),
            mime_type: None,
            sizes: Vec::new(),
            theme: None,
        }
    }

    /// Its MIME type.
    pub fn mime_type(mut self, mime_type: impl Into<Cow<'static, str>>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// The sizes it is drawn for.
    pub fn sizes<S: Into<Cow<'static, str>>>(mut self, sizes: impl IntoIterator<Item = S>) -> Self {
        self.sizes = sizes.into_iter().map(Into::into).collect();
        self
    }

    /// The theme it is drawn for.
    pub fn theme(mut self, theme: IconTheme) -> Self {
        self.theme = Some(theme);
        self
    }
}

/// A state type a tool needs from its toolbox.
///
/// ```
/// use mcp_tool_runtime::tool::StateRequirement;
///
/// struct Db;
/// let need = StateRequirement::of::<Db>();
/// assert!(need.type_name.ends_with("Db"));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct StateRequirement {
    /// The type's id.
    pub id: fn() -> TypeId,
    /// The type's name, for messages.
    pub type_name: &'static str,
}

impl StateRequirement {
    /// The requirement for state of type `S`.
    pub fn of<S: Any>() -> Self {
        StateRequirement {
            id: TypeId::of::<S>,
            type_name: type_name::<S>(),
        }
    }
}

/// Whether a tool runs as a task (the 2026-07-28 tasks extension, `io.modelcontextprotocol/tasks`,
/// SEP-2663): the server answers its `tools/call` with a task the client polls, instead of
/// holding the call open.
///
/// ```
/// use mcp_tool_runtime::tool::TaskSupport;
/// assert_eq!(TaskSupport::default(), TaskSupport::No);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum TaskSupport {
    /// Never: every call is answered when it is done (the default).
    #[default]
    No,
    /// When the client declared the tasks extension; otherwise the call is answered when done.
    Optional,
    /// Always: a client that did not declare the tasks extension is refused with JSON-RPC
    /// -32021, naming the extension.
    Required,
}

/// Everything about a tool that is known before it is called.
///
/// ```
/// use mcp_tool_runtime::{ToolDeclaration, ContentKind};
///
/// let declaration = ToolDeclaration::new("render_chart")
///     .description("Draws the chart as PNG.")
///     .content_kind(ContentKind::Image)
///     .mime_type("image/png");
/// assert_eq!(declaration.name, "render_chart");
/// ```
#[derive(Debug, Clone)]
pub struct ToolDeclaration {
    /// The tool's name.
    pub name: Cow<'static, str>,
    /// A human-readable title.
    pub title: Option<Cow<'static, str>>,
    /// What the tool does.
    pub description: Option<Cow<'static, str>>,
    /// Behaviour hints.
    pub annotations: Option<ToolAnnotations>,
    /// Icons a client may show for the tool.
    pub icons: Vec<Icon>,
    /// The `_meta` of the tool's `tools/list` entry.
    pub meta: Map<String, Value>,
    /// How the text mirror is written; `None` defers to the server default.
    pub mirror: Option<Mirror>,
    /// The OAuth scopes a caller needs to call the tool (`scopes(...)` on `#[mcp_tool]`). A
    /// caller verified without them is refused before the tool runs; see [`auth`](crate::auth).
    pub scopes: Cow<'static, [&'static str]>,
    /// Whether the tool may, or must, run as a task (`task = ...` on `#[mcp_tool]`, the
    /// `io.modelcontextprotocol/tasks` extension).
    pub task: TaskSupport,
    /// Whether a task tool's call becomes a task only where its body calls
    /// [`ToolContext::escalate`](crate::ToolContext::escalate) (`escalates` on `#[mcp_tool]`),
    /// rather than as soon as it is called: what it asks before then is asked with
    /// input-required results, in the call.
    pub escalates: bool,
    /// The tool's own structured-output flags.
    pub flags: ToolFlags,
    /// What the payload becomes.
    pub content_kind: ContentKind,
    /// The `mimeType` of image and audio blocks.
    pub mime_type: Option<Cow<'static, str>>,
    /// Builds the `inputSchema` (called once, at registration).
    pub input_schema: fn() -> SchemaObject,
    /// Builds the `outputSchema` (called once, at registration); `None` when the payload has no
    /// JSON schema (media, blocks).
    pub output_schema: Option<fn() -> OutputSchema>,
    /// State the toolbox must hold for this tool.
    pub state: Cow<'static, [StateRequirement]>,
}

fn no_arguments() -> SchemaObject {
    Arc::new(crate::schema::InputSchemaBuilder::new().finish())
}

impl ToolDeclaration {
    /// A text tool that takes no arguments and advertises no output schema.
    pub fn new(name: impl Into<Cow<'static, str>>) -> Self {
        ToolDeclaration {
            name: name.into(),
            title: None,
            description: None,
            annotations: None,
            icons: Vec::new(),
            meta: Map::new(),
            mirror: None,
            scopes: Cow::Borrowed(&[]),
            task: TaskSupport::No,
            escalates: false,
            flags: ToolFlags::default(),
            content_kind: ContentKind::Text,
            mime_type: None,
            input_schema: no_arguments,
            output_schema: None,
            state: Cow::Borrowed(&[]),
        }
    }

    /// Sets [`description`](Self::description).
    pub fn description(mut self, text: impl Into<Cow<'static, str>>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// Adds an icon a client may show for the tool.
    pub fn icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Writes the text mirror as `mirror` whatever the server default.
    pub fn mirror(mut self, mirror: Mirror) -> Self {
        self.mirror = Some(mirror);
        self
    }

    /// Sets the OAuth scopes a caller needs (see [`scopes`](Self::scopes)).
    pub fn scopes(mut self, scopes: &'static [&'static str]) -> Self {
        self.scopes = Cow::Borrowed(scopes);
        self
    }

    /// Sets `key` in the `_meta` of the tool's `tools/list` entry to any JSON `value`. (The
    /// macro's `meta(...)` checks keys against MCP's format at compile time; this does not.)
    pub fn meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta.insert(key.into(), value);
        self
    }

    /// Sets [`content_kind`](Self::content_kind).
    pub fn content_kind(mut self, kind: ContentKind) -> Self {
        self.content_kind = kind;
        self
    }

    /// Sets [`mime_type`](Self::mime_type).
    pub fn mime_type(mut self, mime_type: impl Into<Cow<'static, str>>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets [`input_schema`](Self::input_schema).
    pub fn input_schema(mut self, build: fn() -> SchemaObject) -> Self {
        self.input_schema = build;
        self
    }

    /// Sets [`output_schema`](Self::output_schema).
    pub fn output_schema(mut self, build: fn() -> OutputSchema) -> Self {
        self.output_schema = Some(build);
        self
    }

    /// Sets [`flags`](Self::flags).
    pub fn flags(mut self, flags: ToolFlags) -> Self {
        self.flags = flags;
        self
    }

    /// How this tool's results are built, from its declaration and its resolved settings: the
    /// one place a declaration becomes [`ResultOptions`]. `shape` is its output type's (whether
    /// a payload is wrapped), `max_result_bytes` the toolbox's result ceiling.
    pub(crate) fn result_options(
        &self,
        include_structured_content: bool,
        shape: Option<Shape>,
        max_result_bytes: Option<usize>,
        mirror: Mirror,
    ) -> ResultOptions {
        ResultOptions {
            tool_name: self.name.clone(),
            is_error: false,
            include_structured_content,
            meta: Map::new(),
            content_kind: self.content_kind,
            mime_type: self.mime_type.clone(),
            max_result_bytes,
            shape,
            mirror: self.mirror.unwrap_or(mirror),
        }
    }
}

/// A tool the runtime can list and call.
///
/// `#[mcp_tool]` implements it; implement it by hand for tools whose shape is only known at run
/// time.
///
/// ```
/// use mcp_tool_runtime::{BoxFuture, Tool, ToolCall, ToolDeclaration, ToolResult, Toolbox};
///
/// struct Ping;
///
/// impl Tool for Ping {
///     fn declaration(&self) -> ToolDeclaration {
///         ToolDeclaration::new("ping").description("Answers pong.")
///     }
///     fn call<'a>(&'a self, call: ToolCall<'a>) -> BoxFuture<'a, ToolResult> {
///         Box::pin(async move { call.finish(&"pong") })
///     }
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register(Ping).unwrap();
/// assert_eq!(toolbox.list_tools()[0].name, "ping");
/// ```
pub trait Tool: Send + Sync + 'static {
    /// The tool's declaration, read once at registration.
    fn declaration(&self) -> ToolDeclaration;

    /// Calls the tool. Unknown arguments were already refused by the toolbox.
    fn call<'a>(&'a self, call: ToolCall<'a>) -> BoxFuture<'a, ToolResult>;
}

/// The state a toolbox holds for its tools, one value per type; tools take it as a
/// `#[state] name: &T` parameter.
///
/// ```
/// use mcp_tool_runtime::{mcp_tool, Toolbox};
///
/// struct Greeting(&'static str);
///
/// /// Greets someone.
/// #[mcp_tool]
/// fn greet(#[state] greeting: &Greeting, name: String) -> String {
///     format!("{}, {name}!", greeting.0)
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.insert_state(Greeting("Hello"));
/// toolbox.register(greet::tool()).unwrap();
/// ```
#[derive(Default, Clone)]
pub struct State {
    values: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("values", &self.values.len())
            .finish()
    }
}

impl State {
    pub(crate) fn insert<S: Any + Send + Sync>(&mut self, value: S) {
        self.values.insert(TypeId::of::<S>(), Arc::new(value));
    }

    pub(crate) fn contains(&self, id: TypeId) -> bool {
        self.values.contains_key(&id)
    }

    /// The state of type `S`, if the toolbox holds one.
    pub fn get<S: Any + Send + Sync>(&self) -> Option<&S> {
        self.values.get(&TypeId::of::<S>())?.downcast_ref()
    }
}

/// A serde error's message with any input it quotes cut to a bounded length: serde writes the
/// offending string whole (`invalid type: string "...", expected u32`).
fn bounded(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let (Some(open), Some(close)) = (message.find('"'), message.rfind('"')) else {
        return quote(&message).into_owned();
    };
    if close <= open {
        return quote(&message).into_owned();
    }
    let quoted = quote(&message[open + 1..close]);
    let outside = format!("{}\"{quoted}\"{}", &message[..open], &message[close + 1..]);
    // What is left outside the quotes is serde's own wording, short unless serde changes.
    crate::message::truncate(&outside, 4 * crate::message::MAX_QUOTED).into_owned()
}

/// Where inside a deserialized value an error happened, `None` at its root.
fn inner_path(error: &serde_path_to_error::Error<serde_json::Error>) -> Option<String> {
    let at = error.path().to_string();
    (at != "." && !at.is_empty()).then_some(at)
}

/// One call of a tool: its arguments, its resolved result options and the toolbox's state.
///
/// Hand-written tools read their arguments through it:
///
/// ```
/// use mcp_tool_runtime::{BoxFuture, Tool, ToolCall, ToolDeclaration, ToolResult};
///
/// struct Echo;
///
/// impl Tool for Echo {
///     fn declaration(&self) -> ToolDeclaration {
///         ToolDeclaration::new("echo")
///     }
///     fn call<'a>(&'a self, call: ToolCall<'a>) -> BoxFuture<'a, ToolResult> {
///         Box::pin(async move {
///             match call.argument::<String>("text") {
///                 Ok(text) => call.finish(&text),
///                 Err(error) => error,
///             }
///         })
///     }
/// }
/// ```
#[derive(Debug)]
pub struct ToolCall<'a> {
    /// The call's arguments (`{}` when the client sent none).
    pub arguments: Map<String, Value>,
    /// How results of this tool are built, resolved at registration.
    pub options: &'a ResultOptions,
    /// The toolbox's state.
    pub state: &'a State,
    /// The call's context: progress, cancellation, logging, client requests.
    pub context: crate::context::ToolContext,
}

impl<'a> ToolCall<'a> {
    /// The argument `name`, deserialized as `T`.
    ///
    /// A missing argument is read as `null`: a `T` that admits it (an `Option`) is `None`, any
    /// other `T` makes the call an error naming the missing argument. Errors are `isError`
    /// results naming the argument, the tool and where inside the argument it went wrong.
    pub fn argument<T: DeserializeOwned>(&self, name: &str) -> Result<T, ToolResult> {
        // Only the deserialization is generic over `T`; the messages are built by non-generic
        // functions, once for every argument type.
        let Some(value) = self.arguments.get(name) else {
            return T::deserialize(&Value::Null).map_err(|_| self.missing(name));
        };
        serde_path_to_error::deserialize(value).map_err(|e| self.invalid(name, value, &e))
    }

    fn missing(&self, name: &str) -> ToolResult {
        self.options.error(format!(
            "missing required argument `{name}` of tool `{}`",
            self.options.tool_name
        ))
    }

    fn invalid(
        &self,
        name: &str,
        value: &Value,
        error: &serde_path_to_error::Error<serde_json::Error>,
    ) -> ToolResult {
        let place = match inner_path(error) {
            Some(at) if at.starts_with('[') => format!("`{name}` at `{name}{}`", quote(&at)),
            Some(at) => format!("`{name}` at `{name}.{}`", quote(&at)),
            None => format!("`{name}`"),
        };
        self.options.error(format!(
            "invalid argument {place} of tool `{}`: {} (got {})",
            self.options.tool_name,
            bounded(error.inner()),
            describe(value)
        ))
    }

    /// All arguments deserialized as one argument struct `T`.
    pub fn arguments_as<T: DeserializeOwned>(&self) -> Result<T, ToolResult> {
        // `&Map` is a deserializer itself: no copy of the arguments.
        serde_path_to_error::deserialize(&self.arguments).map_err(|e| self.invalid_arguments(&e))
    }

    fn invalid_arguments(
        &self,
        error: &serde_path_to_error::Error<serde_json::Error>,
    ) -> ToolResult {
        let place =
            inner_path(error).map_or_else(String::new, |at| format!(" at `{}`", quote(&at)));
        self.options.error(format!(
            "invalid arguments of tool `{}`{place}: {}",
            self.options.tool_name,
            bounded(error.inner())
        ))
    }

    /// The toolbox's state of type `S`.
    ///
    /// Registration refuses a tool whose declared state is missing, so for a declared requirement
    /// this is an error only for hand-written tools that did not declare it.
    pub fn state<S: Any + Send + Sync>(&self) -> Result<&'a S, ToolResult> {
        self.state.get::<S>().ok_or_else(|| {
            self.options.error(format!(
                "tool `{}` needs state of type `{}`, which its toolbox does not hold",
                self.options.tool_name,
                type_name::<S>()
            ))
        })
    }

    /// The result for a returned payload.
    pub fn finish<T: Serialize + ?Sized>(&self, payload: &T) -> ToolResult {
        build_result(payload, self.options)
    }

    /// The result for a returned error: its message as text, `isError: true`.
    pub fn fail(&self, error: impl Display) -> ToolResult {
        self.options.error(error.to_string())
    }
}
