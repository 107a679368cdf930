//! [`ToolDeclaration`]: everything a tool declares once, read at registration: its name and
//! descriptions, schemas, flags, content kind, scopes, the state it needs and whether it runs as
//! a task.

use std::any::{Any, TypeId, type_name};
use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::entry::{Icon, ToolAnnotations};
use crate::apps::ToolUi;
use crate::kind::ContentKind;
use crate::options::{Mirror, ResultOptions};
use crate::schema::{OutputSchema, SchemaObject};
use crate::settings::{SchemaProfile, ToolFlags};
use crate::structured::Shape;

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
    /// The shape its schemas are served in, whatever the server default; `None` defers to it
    /// ([`ServerDefaults::schema_profile`](crate::ServerDefaults::schema_profile)).
    pub schema_profile: Option<SchemaProfile>,
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
    /// Its MCP Apps view and who may call it (`ui = ...`, `visibility(...)` on `#[mcp_tool]`;
    /// see [`apps`](crate::apps)), written into its entry's `_meta` at registration.
    pub ui: Option<ToolUi>,
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
            schema_profile: None,
            scopes: Cow::Borrowed(&[]),
            task: TaskSupport::No,
            escalates: false,
            flags: ToolFlags::default(),
            content_kind: ContentKind::Text,
            mime_type: None,
            input_schema: no_arguments,
            output_schema: None,
            state: Cow::Borrowed(&[]),
            ui: None,
        }
    }

    /// Sets [`ui`](Self::ui): the tool's view, and who may call it.
    pub fn ui(mut self, ui: ToolUi) -> Self {
        self.ui = Some(ui);
        self
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

    /// Serves the tool's schemas in `profile`'s shape whatever the server default.
    pub fn schema_profile(mut self, profile: SchemaProfile) -> Self {
        self.schema_profile = Some(profile);
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
