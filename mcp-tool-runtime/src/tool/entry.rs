//! A tool's `tools/list` entry with MCP's wire names: [`ToolDefinition`], its
//! [`ToolAnnotations`] and [`Icon`]s.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::schema::SchemaObject;

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
