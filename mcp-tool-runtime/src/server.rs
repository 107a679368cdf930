//! Serving a [`Toolbox`] with the official Rust MCP SDK, `rmcp` (feature `rmcp`).
//!
//! [`ToolboxServer`] is an rmcp `ServerHandler`: `tools/list` and `tools/call` are answered from
//! the toolbox, over any rmcp transport (stdio, Streamable HTTP, ...). This crate writes no
//! JSON-RPC or transport of its own.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, ListToolsResult, MetaObject, PaginatedRequestParams,
    ResultType, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use crate::content::{Content, TextContent};
use crate::result::ToolResult;
use crate::toolbox::{Toolbox, UnknownTool};

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

struct Inner {
    toolbox: Toolbox,
    /// The `tools/list` entries in rmcp's model, converted once.
    tools: Vec<Tool>,
    info: ServerConfig,
}

/// An rmcp server handler answering `tools/list` and `tools/call` from a [`Toolbox`].
///
/// Cheap to clone: clones share the toolbox. Entries are converted once, here; a request does no
/// schema work. An unknown tool is a JSON-RPC error (-32602, invalid params); everything a tool
/// does wrong is an `isError` result.
///
/// ```no_run
/// use mcp_tool_runtime::{mcp_tool, Toolbox, ToolboxServer};
/// use rmcp::ServiceExt;
///
/// /// Says hello.
/// #[mcp_tool]
/// fn hello(name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     let mut toolbox = Toolbox::new();
///     toolbox.register(hello::tool())?;
///     let server = ToolboxServer::new(toolbox)?;
///     server.serve(rmcp::transport::stdio()).await?.waiting().await?;
///     Ok(())
/// }
/// ```
#[derive(Clone)]
pub struct ToolboxServer {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for ToolboxServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolboxServer")
            .field("toolbox", &self.inner.toolbox)
            .finish()
    }
}

impl ToolboxServer {
    /// A handler serving `toolbox`, introducing itself as this crate.
    ///
    /// # Errors
    /// A tool whose entry rmcp's model refuses.
    pub fn new(toolbox: Toolbox) -> Result<Self, ServeError> {
        Self::with_info(
            toolbox,
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        )
    }

    /// A handler serving `toolbox` under the given server name and version.
    ///
    /// # Errors
    /// A tool whose entry rmcp's model refuses.
    pub fn with_info(toolbox: Toolbox, server: Implementation) -> Result<Self, ServeError> {
        let tools = toolbox
            .list_tools()
            .iter()
            .map(|definition| {
                serde_json::to_value(definition)
                    .and_then(serde_json::from_value::<Tool>)
                    .map_err(|source| ServeError {
                        tool: definition.name.to_string(),
                        source,
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(server);
        Ok(ToolboxServer {
            inner: Arc::new(Inner {
                toolbox,
                tools,
                info,
            }),
        })
    }

    /// The toolbox being served.
    pub fn toolbox(&self) -> &Toolbox {
        &self.inner.toolbox
    }
}

/// Converts a result into rmcp's model by moving what it holds: the `structuredContent` value and
/// plain text blocks (the JSON mirror) move as they are, never re-serialized. Blocks with
/// annotations and media or resource blocks (rare, and small next to the payload) go through
/// the wire JSON they share with rmcp, so no field is dropped on the way.
///
/// ```
/// use mcp_tool_runtime::server::to_rmcp_result;
/// use mcp_tool_runtime::ToolResult;
///
/// let converted = to_rmcp_result(ToolResult::error("boom"));
/// assert_eq!(converted.is_error, Some(true));
/// ```
pub fn to_rmcp_result(result: ToolResult) -> CallToolResult {
    let ToolResult {
        content,
        structured_content,
        is_error,
        meta,
    } = result;
    let content = match content.into_iter().map(to_rmcp_block).collect() {
        Ok(content) => content,
        Err(e) => {
            return CallToolResult::error(vec![ContentBlock::text(format!(
                "the tool's result could not be sent: {e}"
            ))]);
        }
    };
    let mut converted = CallToolResult::success(content);
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

/// What the handler returns for a call the client cancelled. MCP says a cancelled request SHOULD
/// get no response, and rmcp sends none (the `over_the_wire` tests check it); this value only
/// ends the handler.
fn cancelled(tool: &str) -> ErrorData {
    ErrorData::new(
        // JSON-RPC reserves no code for it; -32800 is the one LSP uses.
        ErrorCode(-32800),
        format!("the call of tool `{tool}` was cancelled by the client"),
        None,
    )
}

/// An unknown tool: a JSON-RPC error (-32602, invalid params) naming it.
fn unknown_tool(UnknownTool { name }: UnknownTool) -> ErrorData {
    ErrorData::invalid_params(
        format!("unknown tool `{name}`"),
        Some(serde_json::json!({ "tool": name })),
    )
}

impl ServerHandler for ToolboxServer {
    fn get_info(&self) -> ServerConfig {
        self.inner.info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.inner.tools.clone()))
    }

    /// Runs the tool until it finishes or the client cancels the request
    /// (`notifications/cancelled`): then the tool's future is dropped, so a tool that never
    /// returns holds nothing once its caller gave up.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.map_or(Value::Null, Value::Object);
        let call = self.inner.toolbox.call_tool(&request.name, arguments);
        let outcome = tokio::select! {
            outcome = call => outcome,
            () = context.ct.cancelled() => return Err(cancelled(&request.name)),
        };
        match outcome {
            Ok(result) => Ok(to_rmcp_result(result).into()),
            Err(unknown) => Err(unknown_tool(unknown)),
        }
    }

    /// rmcp parses a `tools/call` whose `arguments` is not an object (an array, a string, a
    /// number) as no `tools/call` at all, and hands it here as a custom request; its default is
    /// JSON-RPC -32601 "method not found". Such a call is a tool execution error (MCP
    /// 2025-11-25): it goes to the toolbox, which answers with an `isError` result naming the
    /// problem. Any other unknown method is still -32601.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        if request.method != "tools/call" {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        let mut params = match request.params {
            Some(Value::Object(params)) => params,
            _ => {
                return Err(ErrorData::invalid_params(
                    "`tools/call` needs params: an object with the tool's `name`",
                    None,
                ));
            }
        };
        let Some(Value::String(name)) = params.remove("name") else {
            return Err(ErrorData::invalid_params(
                "`tools/call` needs the tool's `name`, a string",
                None,
            ));
        };
        let arguments = params.remove("arguments").unwrap_or(Value::Null);
        match self.inner.toolbox.call_tool(&name, arguments).await {
            Ok(result) => serde_json::to_value(to_rmcp_result(result))
                .map(CustomResult)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None)),
            Err(unknown) => Err(unknown_tool(unknown)),
        }
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.inner.tools.iter().find(|t| t.name == name).cloned()
    }
}
