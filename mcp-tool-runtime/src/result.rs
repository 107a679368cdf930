//! The `tools/call` result, with MCP's wire names.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::content::Content;

/// A `tools/call` result, with MCP's wire names.
///
/// ```
/// use mcp_tool_runtime::ToolResult;
///
/// let result = ToolResult::error("invoice 7 does not exist");
/// assert_eq!(
///     serde_json::to_value(&result).unwrap(),
///     serde_json::json!({
///         "content": [{"type": "text", "text": "invoice 7 does not exist"}],
///         "isError": true
///     })
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ToolResult {
    /// The blocks a client shows or reads.
    pub content: Vec<Content>,
    /// The structured result, conforming to the tool's `outputSchema` when it has one.
    #[serde(
        rename = "structuredContent",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub structured_content: Option<Value>,
    /// Whether the tool failed. Omitted when `false`.
    #[serde(rename = "isError", default, skip_serializing_if = "is_false")]
    pub is_error: bool,
    /// Metadata for the client. Omitted when empty.
    #[serde(rename = "_meta", default, skip_serializing_if = "Map::is_empty")]
    pub meta: Map<String, Value>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl ToolResult {
    /// A tool execution error: one text block and `isError: true`, no structured content.
    pub fn error(message: impl Into<String>) -> Self {
        ToolResult {
            content: vec![Content::text(message)],
            structured_content: None,
            is_error: true,
            meta: Map::new(),
        }
    }

    /// The text of the first block, if it is a text block.
    ///
    /// ```
    /// use mcp_tool_runtime::ToolResult;
    /// assert_eq!(ToolResult::error("boom").text(), Some("boom"));
    /// ```
    pub fn text(&self) -> Option<&str> {
        self.content.first().and_then(Content::as_text)
    }
}
