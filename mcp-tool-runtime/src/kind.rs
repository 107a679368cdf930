//! What a tool's payload becomes: `ContentKind`, the one list of content kinds.

use std::fmt;

/// What kind of content a tool's payload becomes.
///
/// ```
/// use mcp_tool_runtime::ContentKind;
///
/// assert!(ContentKind::Image.is_media());
/// assert!(ContentKind::ResourceLink.carries_structured_content());
/// assert_eq!(ContentKind::ResourceLink.to_string(), "resource_link");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContentKind {
    /// Any JSON: `structuredContent` plus a pretty JSON text mirror.
    #[default]
    Text,
    /// Bytes (or a base64 string) served as an `image` block.
    Image,
    /// Bytes (or a base64 string) served as an `audio` block.
    Audio,
    /// One [`ResourceLink`](crate::ResourceLink) or a list of them, served as `resource_link` blocks.
    ResourceLink,
    /// One [`ResourceContents`](crate::ResourceContents) or a list of them, served as embedded `resource` blocks.
    Resource,
    /// A list of [`Content`](crate::Content) blocks served as they are, for results that mix kinds.
    Blocks,
}

impl ContentKind {
    /// Image and audio carry bytes, not JSON.
    pub fn is_media(self) -> bool {
        matches!(self, ContentKind::Image | ContentKind::Audio)
    }

    /// Whether results of this kind can carry `structuredContent` at all, and so advertise an
    /// `outputSchema`: media carry bytes and blocks are served as they are.
    pub fn carries_structured_content(self) -> bool {
        !matches!(
            self,
            ContentKind::Image | ContentKind::Audio | ContentKind::Blocks
        )
    }

    /// The keyword `#[mcp_tool(content = ...)]` uses for this kind.
    pub fn keyword(self) -> &'static str {
        match self {
            ContentKind::Text => "text",
            ContentKind::Image => "image",
            ContentKind::Audio => "audio",
            ContentKind::ResourceLink => "resource_link",
            ContentKind::Resource => "resource",
            ContentKind::Blocks => "blocks",
        }
    }
}

impl fmt::Display for ContentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}
