//! What a tool is to the runtime: a declaration, and a way to call it.
//!
//! `#[mcp_tool]` implements [`Tool`] for the functions it annotates, but nothing here knows the
//! macro exists: a tool written by hand is served exactly the same way.

mod call;
mod declaration;
mod entry;
pub(crate) mod reader;
mod state;

use futures_util::future::BoxFuture;

pub use call::ToolCall;
pub use declaration::{StateRequirement, TaskSupport, ToolDeclaration};
pub use entry::{Icon, IconTheme, ToolAnnotations, ToolDefinition};
pub use state::State;

use crate::result::ToolResult;

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
