//! `ResultOptions`: how one tool's results are built.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::kind::ContentKind;
use crate::result::ToolResult;
use crate::structured::Shape;

/// How [`build_tool_result`](crate::build_tool_result) builds a result. A [`Toolbox`](crate::Toolbox)
/// builds each tool's from its declaration, once, at registration.
///
/// ```
/// use mcp_tool_runtime::{ContentKind, ResultOptions};
///
/// let options = ResultOptions::new("render_chart")
///     .content_kind(ContentKind::Image)
///     .mime_type("image/png");
/// assert!(options.include_structured_content);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ResultOptions {
    /// The tool's name, for messages.
    pub tool_name: Cow<'static, str>,
    /// Mark the result as a tool execution error.
    pub is_error: bool,
    /// Put the payload in `structuredContent` (default on). Off, only the text mirror carries it.
    pub include_structured_content: bool,
    /// `_meta` of the result.
    pub meta: Map<String, Value>,
    /// What the payload becomes.
    pub content_kind: ContentKind,
    /// The `mimeType` of image and audio blocks.
    pub mime_type: Option<Cow<'static, str>>,
    /// The largest encoded result, in bytes, the tool may send; over it the call is an error.
    pub max_result_bytes: Option<usize>,
    /// Whether the payload is wrapped under `result`. `None` decides from each value; tools with a
    /// known output type use the shape of its schema, so payload and schema always agree.
    pub shape: Option<Shape>,
    /// How the text mirror of the structured result is written (pretty by default).
    pub mirror: Mirror,
}

/// How the text mirror of a structured result (the `content` text a client that ignores
/// `structuredContent` reads, and what a model usually sees) is written. Both forms carry the
/// same JSON, keys sorted; only the layout differs.
///
/// ```
/// use mcp_tool_runtime::{Mirror, ResultOptions, build_tool_result};
///
/// let pretty = build_tool_result(&vec![1, 2], &ResultOptions::new("t"));
/// assert_eq!(pretty.text(), Some("{\n  \"result\": [\n    1,\n    2\n  ]\n}"));
/// let compact = build_tool_result(&vec![1, 2], &ResultOptions::new("t").mirror(Mirror::Compact));
/// assert_eq!(compact.text(), Some(r#"{"result":[1,2]}"#));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Mirror {
    /// Two-space indented, one value a line: easy for people to read (the default).
    #[default]
    Pretty,
    /// No whitespace: fewer bytes, and fewer tokens for a model to read.
    Compact,
}

impl ResultOptions {
    /// Text results for the tool `tool_name`, structured content on.
    pub fn new(tool_name: impl Into<Cow<'static, str>>) -> Self {
        ResultOptions {
            tool_name: tool_name.into(),
            is_error: false,
            include_structured_content: true,
            meta: Map::new(),
            content_kind: ContentKind::Text,
            mime_type: None,
            max_result_bytes: None,
            shape: None,
            mirror: Mirror::Pretty,
        }
    }

    /// Sets [`mirror`](Self::mirror).
    pub fn mirror(mut self, mirror: Mirror) -> Self {
        self.mirror = mirror;
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

    /// Sets [`include_structured_content`](Self::include_structured_content).
    pub fn include_structured_content(mut self, on: bool) -> Self {
        self.include_structured_content = on;
        self
    }

    /// Sets [`is_error`](Self::is_error).
    pub fn is_error(mut self, is_error: bool) -> Self {
        self.is_error = is_error;
        self
    }

    /// Sets [`meta`](Self::meta).
    pub fn meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = meta;
        self
    }

    /// Sets [`max_result_bytes`](Self::max_result_bytes).
    pub fn max_result_bytes(mut self, limit: usize) -> Self {
        self.max_result_bytes = Some(limit);
        self
    }

    /// Sets [`shape`](Self::shape).
    pub fn shape(mut self, shape: Shape) -> Self {
        self.shape = Some(shape);
        self
    }

    /// A tool execution error of this tool: `message` as one text block, `isError: true`, this
    /// tool's `_meta`. Every error result of a call is built here.
    ///
    /// ```
    /// use mcp_tool_runtime::ResultOptions;
    ///
    /// let error = ResultOptions::new("get_invoice").error("invoice 7 does not exist");
    /// assert!(error.is_error);
    /// assert_eq!(error.text(), Some("invoice 7 does not exist"));
    /// ```
    pub fn error(&self, message: impl Into<String>) -> ToolResult {
        let mut result = ToolResult::error(message);
        result.meta.clone_from(&self.meta);
        result
    }
}
