//! The toolbox in rmcp's model: `tools/list` entries converted once per change, and results
//! handed to rmcp by moving what they hold.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, MetaObject, ResultType, Tool};

use crate::content::{Content, TextContent};
use crate::result::ToolResult;
use crate::toolbox::Toolbox;
use crate::version::{PerRevision, Revision};

/// A `tools/list` entry rmcp would not accept (a bug in this crate, reported rather than hidden).
///
/// ```
/// use mcp_tool_runtime::{Toolbox, ToolboxServer};
/// // Every entry this crate builds is accepted.
/// assert!(ToolboxServer::new(Toolbox::new()).is_ok());
/// ```
#[derive(Debug, thiserror::Error)]
#[error("tool `{tool}` cannot be served through rmcp: {source}")]
pub struct ServeError {
    /// The tool.
    pub tool: String,
    /// What rmcp's model refused.
    #[source]
    pub source: serde_json::Error,
}

/// The toolbox and its `tools/list` entries in rmcp's model, converted once per change.
pub(crate) struct Snapshot {
    pub(crate) toolbox: Arc<Toolbox>,
    /// The entries per revision (from 2026-07-28 each `outputSchema` the type's own, SEP-2106).
    pub(crate) tools: PerRevision<Vec<Tool>>,
    /// Where each tool's entry is in `tools`, by name.
    index: HashMap<String, usize>,
    /// The prompts and resources.
    pub(crate) listed: super::catalog::Listed,
    /// Whether a tool is for views only (MCP Apps), left out of some clients' lists.
    pub(crate) has_app_only: bool,
}

impl Snapshot {
    pub(crate) fn new(toolbox: Toolbox) -> Result<Self, ServeError> {
        let convert = |definitions: &[crate::ToolDefinition]| {
            definitions
                .iter()
                .map(|definition| {
                    serde_json::to_value(definition)
                        .and_then(serde_json::from_value::<Tool>)
                        .map(|mut tool| {
                            // Names and descriptions the macro wrote stay borrowed, so the
                            // copies rmcp asks for (`get_tool` on every 2026 call, each
                            // `tools/list`) allocate nothing for them.
                            tool.name = definition.name.clone();
                            tool.description = definition.description.clone();
                            tool
                        })
                        .map_err(|source| ServeError {
                            tool: definition.name.to_string(),
                            source,
                        })
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let tools = PerRevision::try_new(|revision| convert(toolbox.definitions(revision)))?;
        let listed = super::catalog::Listed::new(&toolbox)
            .map_err(|(tool, source)| ServeError { tool, source })?;
        let has_app_only = toolbox
            .list_tools()
            .iter()
            .any(|tool| toolbox.is_app_only(&tool.name));
        let index = toolbox
            .list_tools()
            .iter()
            .enumerate()
            .map(|(at, definition)| (definition.name.to_string(), at))
            .collect();
        Ok(Snapshot {
            toolbox: Arc::new(toolbox),
            tools,
            index,
            listed,
            has_app_only,
        })
    }

    /// The entries a client speaking `version` is served.
    pub(crate) fn tools_for(&self, revision: Revision) -> &[Tool] {
        self.tools.get(revision)
    }

    /// The entry of the tool `name` (as served up to 2025-11-25), found by name in a map, not
    /// by scanning the list.
    pub(crate) fn tool(&self, name: &str) -> Option<&Tool> {
        let at = *self.index.get(name)?;
        self.tools.get(Revision::Until2025_11_25).get(at)
    }
}

/// Converts a result into rmcp's model by moving what it holds: the `structuredContent` value and
/// plain text blocks (the JSON mirror) move as they are, never re-serialized. Blocks with
/// annotations and media or resource blocks (rare, and small next to the payload) go through
/// the wire JSON they share with rmcp, so no field is dropped on the way.
///
///
/// Not part of the API (hidden): what [`ToolboxServer`](crate::ToolboxServer) hands rmcp, public
/// for the benches and the conversion tests only.
#[doc(hidden)]
pub fn to_rmcp_result(result: ToolResult) -> CallToolResult {
    let ToolResult {
        content,
        structured_content,
        is_error,
        meta,
    } = result;
    let mut blocks = Vec::with_capacity(content.len());
    for block in content {
        match to_rmcp_block(block) {
            Ok(block) => blocks.push(block),
            Err(e) => {
                return CallToolResult::error(vec![ContentBlock::text(format!(
                    "the tool's result could not be sent: {e}"
                ))]);
            }
        }
    }
    let mut converted = CallToolResult::success(blocks);
    converted.structured_content = structured_content;
    converted.is_error = is_error.then_some(true);
    converted.meta = (!meta.is_empty()).then_some(MetaObject(meta));
    converted.result_type = Some(ResultType::COMPLETE);
    converted
}

fn to_rmcp_block(block: Content) -> Result<ContentBlock, serde_json::Error> {
    match block {
        Content::Text(TextContent {
            text,
            annotations: None,
        }) => Ok(ContentBlock::text(text)),
        other => serde_json::to_value(&other).and_then(serde_json::from_value),
    }
}
