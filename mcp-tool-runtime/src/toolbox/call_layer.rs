//! [`CallLayer`]: code that runs around every tool call of a toolbox (an audit log, a timeout, a
//! concurrency limit), composed like tower's layers; [`Next`], the rest of the call; [`from_fn`].

use std::sync::Arc;

use futures_util::future::BoxFuture;
use serde_json::Value;

use super::call::Registered;
use crate::context::ToolContext;
use crate::result::ToolResult;
use crate::tool::State;

/// Code that runs around every call of a [`Toolbox`](crate::Toolbox)'s tools, added with
/// [`Toolbox::layer`](crate::Toolbox::layer). It sees the tool's name, the arguments and the call
/// context before the call, runs the rest of it with [`Next::run`] (or does not, to refuse it),
/// and sees the result, `isError` ones included (a tool that panicked, bad arguments). The first
/// layer added is the outermost.
///
/// A closure becomes a layer with [`from_fn`]. An audit log:
///
/// ```
/// use std::time::Instant;
/// use mcp_tool_runtime::toolbox::from_fn;
/// use mcp_tool_runtime::{mcp_tool, Toolbox};
///
/// /// Adds two numbers.
/// #[mcp_tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register(add::tool()).unwrap();
/// toolbox.layer(from_fn(|next| Box::pin(async move {
///     let (tool, arguments) = (next.tool().to_owned(), next.arguments().to_string());
///     let started = Instant::now();
///     let result = next.run().await;
///     eprintln!("{tool} {arguments} error={} in {:?}", result.is_error, started.elapsed());
///     result
/// })));
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let sum = toolbox.call_tool("add", serde_json::json!({"a": 1, "b": 2})).await.unwrap();
/// assert_eq!(sum.structured_content, Some(serde_json::json!({"result": 3})));
/// # });
/// ```
pub trait CallLayer: Send + Sync + 'static {
    /// Runs around one call: `next` holds the call and runs the rest of it.
    fn call<'a>(&'a self, next: Next<'a>) -> BoxFuture<'a, ToolResult>;
}

/// A closure as a [`CallLayer`], made by [`from_fn`].
#[derive(Debug, Clone, Copy)]
pub struct FromFn<F>(F);

/// The closure `f` as a [`CallLayer`]: it gets the call as a [`Next`] and returns the result,
/// usually `Box::pin(async move { ... next.run().await ... })`.
pub fn from_fn<F>(f: F) -> FromFn<F>
where
    F: for<'a> Fn(Next<'a>) -> BoxFuture<'a, ToolResult> + Send + Sync + 'static,
{
    FromFn(f)
}

impl<F> CallLayer for FromFn<F>
where
    F: for<'a> Fn(Next<'a>) -> BoxFuture<'a, ToolResult> + Send + Sync + 'static,
{
    fn call<'a>(&'a self, next: Next<'a>) -> BoxFuture<'a, ToolResult> {
        (self.0)(next)
    }
}

/// One call on its way to the tool: what it is, and the layers still to run before the tool.
pub struct Next<'a> {
    pub(super) layers: &'a [Arc<dyn CallLayer>],
    pub(super) tool: &'a str,
    pub(super) registered: &'a Registered,
    pub(super) arguments: Value,
    pub(super) state: &'a State,
    pub(super) context: ToolContext,
    pub(super) check_results: bool,
}

impl<'a> Next<'a> {
    /// The tool's name.
    pub fn tool(&self) -> &str {
        self.tool
    }

    /// The call's arguments, as the client sent them (`null` when it sent none).
    pub fn arguments(&self) -> &Value {
        &self.arguments
    }

    /// The call's context: the request, the client's capabilities, cancellation.
    pub fn context(&self) -> &ToolContext {
        &self.context
    }

    /// Runs the rest of the call: the next layer, or the tool itself.
    pub fn run(self) -> BoxFuture<'a, ToolResult> {
        match self.layers.split_first() {
            Some((layer, rest)) => layer.call(Next {
                layers: rest,
                ..self
            }),
            None => Box::pin(self.registered.call(
                self.arguments,
                self.state,
                self.context,
                self.check_results,
            )),
        }
    }
}
