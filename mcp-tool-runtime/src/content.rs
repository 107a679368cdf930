//! Content blocks of a `tools/call` result, with the MCP wire names.
//!
//! Types that tools return (links, resources) carry a `#[schemars(description)]` of their own:
//! schemars would otherwise put their whole rustdoc, examples included, into the output schemas
//! a model reads.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::{Deserialize, Serialize};

/// One block of a tool result's `content`, tagged on the wire by `type`.
///
/// ```
/// use mcp_tool_runtime::Content;
///
/// let block = Content::text("hello");
/// assert_eq!(
///     serde_json::to_value(&block).unwrap(),
///     serde_json::json!({"type": "text", "text": "hello"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    /// `{"type": "text", "text": ...}`
    Text(TextContent),
    /// `{"type": "image", "data": <base64>, "mimeType": ...}`
    Image(MediaContent),
    /// `{"type": "audio", "data": <base64>, "mimeType": ...}`
    Audio(MediaContent),
    /// `{"type": "resource_link", "uri": ..., "name": ...}`
    ResourceLink(ResourceLink),
    /// `{"type": "resource", "resource": {"uri": ..., "text" | "blob": ...}}`
    Resource(EmbeddedResource),
}

impl Content {
    /// A text block without annotations.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text(TextContent {
            text: text.into(),
            annotations: None,
        })
    }

    /// An image block: `bytes` base64-encoded, with their media type.
    ///
    /// ```
    /// use mcp_tool_runtime::Content;
    /// let block = Content::image(b"\x89PNG", "image/png");
    /// assert_eq!(serde_json::to_value(&block).unwrap()["data"], "iVBORw==");
    /// ```
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Image(MediaContent::new(bytes, mime_type))
    }

    /// An audio block: `bytes` base64-encoded, with their media type.
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Content::Audio(MediaContent::new(bytes, mime_type))
    }

    /// The text of a text block, `None` for other kinds.
    ///
    /// ```
    /// use mcp_tool_runtime::Content;
    /// assert_eq!(Content::text("hi").as_text(), Some("hi"));
    /// ```
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(t) => Some(&t.text),
            _ => None,
        }
    }
}

/// A text block.
///
/// ```
/// use mcp_tool_runtime::{Content, content::TextContent};
///
/// let block = Content::Text(TextContent { text: "hi".into(), annotations: None });
/// assert_eq!(block, Content::text("hi"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

/// An image or audio block: base64 `data` and its `mimeType`.
///
/// ```
/// use mcp_tool_runtime::content::MediaContent;
///
/// let wav = MediaContent::new(b"RIFF", "audio/wav");
/// assert_eq!(wav.data, "UklGRg==");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaContent {
    /// The bytes, base64-encoded (standard alphabet, padded).
    pub data: String,
    /// The media type, for example `image/png`.
    #[serde(rename = "mimeType")]
    pub mime_type: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

impl MediaContent {
    /// Media content holding `bytes`, base64-encoded here.
    pub fn new(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        MediaContent {
            data: base64_encode(bytes),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }
}

/// A link to a resource the client may read or subscribe to (`resource_link`).
///
/// Tools declared with `content = resource_link` return one of these or a `Vec` of them.
///
/// ```
/// use mcp_tool_runtime::ResourceLink;
///
/// let link = ResourceLink::new("file:///invoices/7.pdf", "invoice-7.pdf");
/// assert_eq!(
///     serde_json::to_value(&link).unwrap(),
///     serde_json::json!({"uri": "file:///invoices/7.pdf", "name": "invoice-7.pdf"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(description = "A link to a resource the client may read or subscribe to.")]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// A programmatic name for the resource.
    pub name: String,
    /// A human-readable title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the resource is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The resource's media type, if known.
    #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The resource's size in bytes, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

impl ResourceLink {
    /// A link with only the required `uri` and `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
        }
    }
}

/// A resource embedded in the result (`resource`).
///
/// ```
/// use mcp_tool_runtime::{Content, content::EmbeddedResource, ResourceContents};
///
/// let block = Content::Resource(EmbeddedResource {
///     resource: ResourceContents::text("memo://1", "Paid."),
///     annotations: None,
/// });
/// assert_eq!(serde_json::to_value(&block).unwrap()["type"], "resource");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(description = "A resource embedded in the result.")]
pub struct EmbeddedResource {
    /// The resource's contents.
    pub resource: ResourceContents,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

/// The contents of an embedded resource: text or a base64 blob.
///
/// ```
/// use mcp_tool_runtime::ResourceContents;
///
/// let notes = ResourceContents::text("memo://7", "Paid in full.");
/// assert_eq!(
///     serde_json::to_value(&notes).unwrap(),
///     serde_json::json!({"uri": "memo://7", "mimeType": "text/plain", "text": "Paid in full."})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
#[schemars(description = "The contents of an embedded resource: text or a base64 blob.")]
pub enum ResourceContents {
    /// Text contents.
    Text {
        /// The resource's URI.
        uri: String,
        /// The media type of the text.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The text.
        text: String,
    },
    /// Binary contents.
    Blob {
        /// The resource's URI.
        uri: String,
        /// The media type of the bytes.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The bytes, base64-encoded.
        blob: String,
    },
}

impl ResourceContents {
    /// Plain-text contents (`text/plain`).
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Self {
        ResourceContents::Text {
            uri: uri.into(),
            mime_type: Some("text/plain".to_owned()),
            text: text.into(),
        }
    }

    /// Binary contents, base64-encoded here.
    pub fn blob(uri: impl Into<String>, mime_type: impl Into<String>, bytes: &[u8]) -> Self {
        ResourceContents::Blob {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            blob: base64_encode(bytes),
        }
    }
}

/// Who a block is meant for.
///
/// ```
/// use mcp_tool_runtime::content::Role;
/// assert_eq!(serde_json::to_value(Role::Assistant).unwrap(), "assistant");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(description = "Who a block is meant for.")]
pub enum Role {
    /// The human user.
    User,
    /// The model.
    Assistant,
}

/// Hints a client may use to decide how to show or use a block.
///
/// ```
/// use mcp_tool_runtime::{content::Annotations, content::Priority, content::Role};
///
/// let hints = Annotations {
///     audience: Some(vec![Role::User]),
///     priority: Some(Priority::new(0.5).unwrap()),
///     last_modified: None,
/// };
/// assert_eq!(
///     serde_json::to_value(&hints).unwrap(),
///     serde_json::json!({"audience": ["user"], "priority": 0.5})
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(description = "Hints a client may use to decide how to show or use a block.")]
pub struct Annotations {
    /// Who the block is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// How important the block is, from 0 (least) to 1 (most).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<Priority>,
    /// When the underlying data last changed (ISO 8601).
    #[serde(
        rename = "lastModified",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub last_modified: Option<String>,
}

/// A priority in `0.0..=1.0`; anything else is refused when built or read.
///
/// ```
/// use mcp_tool_runtime::content::Priority;
/// assert!(Priority::new(1.0).is_ok());
/// assert!(Priority::new(1.5).is_err());
/// assert!(serde_json::from_str::<Priority>("-0.1").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Priority(f64);

impl Priority {
    /// A priority, if `value` is within `0.0..=1.0`.
    pub fn new(value: f64) -> Result<Self, PriorityOutOfRange> {
        if (0.0..=1.0).contains(&value) {
            Ok(Priority(value))
        } else {
            Err(PriorityOutOfRange(value))
        }
    }

    /// The priority as a number.
    pub fn get(self) -> f64 {
        self.0
    }
}

impl schemars::JsonSchema for Priority {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Priority".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "number", "minimum": 0, "maximum": 1})
    }
}

/// A priority outside `0.0..=1.0`.
///
/// ```
/// use mcp_tool_runtime::{content::Priority, content::PriorityOutOfRange};
/// assert_eq!(Priority::new(2.0), Err(PriorityOutOfRange(2.0)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("priority {0} is outside 0..=1")]
pub struct PriorityOutOfRange(pub f64);

impl TryFrom<f64> for Priority {
    type Error = PriorityOutOfRange;
    fn try_from(value: f64) -> Result<Self, Self::Error> {
        Priority::new(value)
    }
}

impl From<Priority> for f64 {
    fn from(p: Priority) -> f64 {
        p.0
    }
}

/// `bytes` as the base64 that MCP's `data` and `blob` fields carry (standard alphabet, padded).
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    BASE64.encode(bytes)
}

/// Checks that `text` is the base64 `data` and `blob` fields carry.
pub(crate) fn base64_check(text: &str) -> Result<(), base64::DecodeError> {
    BASE64.decode(text.as_bytes()).map(drop)
}
