//! The call context: what a tool can do besides returning its result.
//!
//! A tool takes it as one parameter of type [`ToolContext`] (by value or `&ToolContext`); it is
//! recognised by that type, whatever the parameter is called, and is not part of the tool's
//! `inputSchema`. Through it a tool reports progress, notices that the client cancelled, logs to
//! the client, asks the client for something (elicitation, sampling, roots), and reads the
//! request (`_meta`, id, protocol version, the client's capabilities).
//!
//! Where the context comes from decides what it does:
//! - served by [`ToolboxServer`](crate::ToolboxServer), it talks to the client through rmcp;
//! - called through [`Toolbox::call_tool`](crate::Toolbox::call_tool), it is *detached*: progress
//!   and log lines go nowhere, the call is never cancelled, and client requests fail with
//!   [`ClientRequestError::Detached`];
//! - in a test, [`Recording`] captures progress and log lines and answers client requests from a
//!   script.
//!
//! ```
//! use mcp_tool_runtime::{mcp_tool, Toolbox};
//! use mcp_tool_runtime::context::{LogLevel, Recording, ToolContext};
//!
//! /// Counts to `n`, reporting progress.
//! #[mcp_tool]
//! async fn count(ctx: &ToolContext, n: u32) -> u32 {
//!     for i in 1..=n {
//!         ctx.progress(f64::from(i), Some(f64::from(n))).await;
//!     }
//!     ctx.log(LogLevel::Info, "counted").await;
//!     n
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut toolbox = Toolbox::new();
//! toolbox.register(count::tool()).unwrap();
//! let recording = Recording::new();
//! toolbox
//!     .call_tool_with("count", serde_json::json!({"n": 2}), recording.context())
//!     .await
//!     .unwrap();
//! assert_eq!(recording.progress(), [(1.0, Some(2.0), None), (2.0, Some(2.0), None)]);
//! assert_eq!(recording.logs(), [(LogLevel::Info, serde_json::json!("counted"))]);
//! # });
//! ```

mod channel;
mod client;
mod elicit;
mod level;
#[cfg(feature = "testing")]
mod recording;
mod tool_context;

// For the serving layer, which fills a context's channel (feature `rmcp`).
#[cfg_attr(not(feature = "rmcp"), allow(unused_imports))]
pub(crate) use channel::{Channel, RequestInfo};
pub use client::{
    Capability, ClientRequest, ClientRequestError, Elicitation, Root, SampledMessage,
    SamplingRequest,
};
pub use level::LogLevel;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub use recording::{Recorded, Recording};
pub use tool_context::ToolContext;
