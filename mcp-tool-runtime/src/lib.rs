//! Write MCP (Model Context Protocol) tools as ordinary Rust functions.
//!
//! Put `#[mcp_tool]` on a function: its `inputSchema` comes from its parameters, its
//! `outputSchema` from its return type, and invalid flag combinations are compile errors. A
//! [`Toolbox`] collects tools, lists them and calls them; [`build_tool_result`] builds every
//! `tools/call` result: `structuredContent`, a deterministic JSON text mirror ([`encode_json`]),
//! `isError`, `_meta`, and image, audio and resource content.
//!
//! MCP's central rule for structured output lives here: a tool that advertises an `outputSchema`
//! MUST return `structuredContent` conforming to it. The two halves are toggled independently,
//! server-wide ([`ServerDefaults`]) and per tool, and every combination that would break the rule
//! is refused at registration ([`Toolbox::register`], [`settings::SettingsError`]) or, where the
//! tool's own flags decide it, by the compiler.
//!
//! ```
//! use mcp_tool_runtime::{mcp_tool, Toolbox};
//! use serde::Serialize;
//! use schemars::JsonSchema;
//!
//! #[derive(Serialize, JsonSchema)]
//! struct Invoice {
//!     number: String,
//!     total_cents: u64,
//! }
//!
//! /// Look up an invoice by its number.
//! #[mcp_tool(include_output_schema, include_structured_content, allow_none)]
//! async fn get_invoice(number: String) -> Option<Invoice> {
//!     (number == "7").then(|| Invoice { number, total_cents: 1250 })
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let mut toolbox = Toolbox::new();
//! toolbox.register(get_invoice::tool()).unwrap();
//! let found = toolbox.call_tool("get_invoice", serde_json::json!({"number": "7"})).await.unwrap();
//! assert_eq!(found.structured_content.unwrap()["total_cents"], 1250);
//! let missing = toolbox.call_tool("get_invoice", serde_json::json!({"number": "8"})).await.unwrap();
//! assert_eq!(missing.structured_content, Some(serde_json::json!({})));
//! # });
//! ```
//!
//! # Feature flags
//!
//! - `rmcp`: [`ToolboxServer`], which serves a [`Toolbox`] through the official Rust MCP SDK, and
//!   the [`rmcp`] re-export.
//! - `http`: [`transport::HttpGuard`], rmcp's Streamable HTTP serving with a body limit and a
//!   JSON-RPC answer to every request (implies `rmcp`).
//! - `auth`: [`auth::ResourceServer`] and [`auth::JwtVerifier`], an OAuth 2.1 resource server in
//!   front of Streamable HTTP (implies `http`).
//! - `redis`: [`server::tasks::RedisTaskStore`], tasks kept in Redis and shared by every replica
//!   of a server (implies `rmcp`).
//! - `otel`: served calls' spans parented on the request's `_meta.traceparent`, and call metrics
//!   through OpenTelemetry (implies `rmcp`).
//! - `self-check` (default): [`Toolbox::check_results`], which validates every structured result
//!   against the tool's advertised `outputSchema` before it is sent.
//! - `testing`: [`assert_tool_result_conforms`] and [`check_conforms`], which validate a result
//!   against the tool's advertised `outputSchema` (with the `jsonschema` crate), and
//!   [`context::Recording`], a call context for tests.
//!
//! # Guides
//!
//! - [`guide::context`]: progress, cancellation, logging, asking the client, testing;
//! - [`guide::prompts_and_resources`]: `#[mcp_prompt]`, `#[mcp_resource]`, templates,
//!   completions, subscriptions;
//! - [`guide::apps`]: MCP Apps, a tool with an interactive view, tested in a real browser;
//! - [`guide::serving`]: stdio and Streamable HTTP, beside an rmcp handler of your own, many
//!   tools, tools that change while serving;
//! - [`guide::reliability`]: what every request is guaranteed, the limits, what was measured;
//! - [`guide::authorization`]: an OAuth 2.1 resource server, the caller in the tool, scopes;
//! - [`guide::observability`]: spans, OpenTelemetry, layers around every call;
//! - [`guide::tasks`]: long-running tools as tasks, the store they live in, replicas, stopping.
//!
//! # Where things are
//!
//! The crate root holds what a tool author uses. One concept a module:
//! - [`tool`]: what a tool is to the runtime (declared by the macro or by hand);
//! - [`prompt`], [`resource`], [`completion`]: the same for prompts, resources and resource
//!   templates, and the completions of their arguments; [`apps`]: MCP Apps views;
//! - [`toolbox`]: the registry ([`Toolbox`]) and the layers that run around every call
//!   ([`toolbox::CallLayer`], [`toolbox::layers`]);
//! - [`schema`]: `inputSchema` and `outputSchema` from Rust types; [`structured`]: the `{}` and
//!   `{"result": ...}` rules both sides share; [`settings`]: the asymmetric rule;
//! - [`encode`]: the deterministic JSON text mirror; [`content`]: content blocks;
//! - [`context`]: the call context;
//! - [`server`] (feature `rmcp`): serving through rmcp, and composition with your own handler;
//! - [`transport`] (feature `rmcp`): stdio and Streamable HTTP that answer every request;
//! - [`auth`]: the verified caller a tool reads, and (feature `auth`) the OAuth 2.1 resource
//!   server in front of Streamable HTTP;
//! - `version` (private): the one place that decides what is served differently at which
//!   protocol revision.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// The docs link to items behind features, which resolve when the docs are built with them (as
// docs.rs and this crate's CI build them); built with fewer, those links are plain text rather
// than a warning that `-D warnings` would make an error.
#![cfg_attr(
    not(all(
        feature = "auth",
        feature = "redis",
        feature = "otel",
        feature = "testing",
        feature = "self-check"
    )),
    allow(rustdoc::broken_intra_doc_links)
)]

pub mod apps;
pub mod auth;
mod build;
pub mod completion;
#[cfg(any(feature = "testing", feature = "self-check"))]
mod conform;
pub mod content;
pub mod context;
pub mod encode;
mod kind;
mod media;
mod message;
mod options;
pub mod prompt;
mod protocol_error;
pub mod resource;
mod result;
pub mod schema;
#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
pub mod server;
pub mod settings;
mod string_value;
pub mod structured;
mod sync;
#[cfg(feature = "testing")]
mod testing;
pub mod tool;
pub mod toolbox;
#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
pub mod transport;
mod version;

/// The official Rust MCP SDK this crate serves through, re-exported so versions always match.
#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
pub use ::rmcp;
pub use build::build_tool_result;
pub use content::{Content, ResourceContents, ResourceLink};
pub use context::ToolContext;
pub use encode::encode_json;
/// A boxed future, as [`Tool::call`] returns: futures-util's, which rmcp uses too.
pub use futures_util::future::BoxFuture;
pub use kind::ContentKind;
/// Declares an MCP prompt on a function: its parameters are the prompt's arguments (strings,
/// read as their types), it returns the prompt's messages. Beside `fn f` it declares
/// `f::prompt()`, for [`Toolbox::register_prompt`].
///
/// ```
/// use mcp_tool_runtime::{mcp_prompt, Toolbox};
///
/// /// Review a change.
/// #[mcp_prompt(title = "Code review")]
/// fn review(#[arg(description = "The diff")] diff: String, strict: Option<bool>) -> String {
///     let how = if strict == Some(true) { "strictly" } else { "kindly" };
///     format!("Review this change {how}:\n{diff}")
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register_prompt(review::prompt()).unwrap();
/// assert_eq!(toolbox.list_prompts()[0].arguments.len(), 2);
/// ```
///
/// Keys: `name`, `title`, `description` (the doc comment by default), `icons(...)`, `meta(...)`,
/// `crate`, as on [`mcp_tool`]; parameters take `#[arg(rename, description, complete = path)]`,
/// `#[state]` and a [`ToolContext`]. The [prompts and resources
/// guide](crate::guide::prompts_and_resources) has the rest.
pub use mcp_tool_macros::mcp_prompt;
/// Declares an MCP resource, or a resource template, on a function: `uri` is a URI or an RFC
/// 6570 template whose variables are the function's parameters, and what it returns is the
/// contents (`None`: not found). Beside `fn f` it declares `f::resource()`, for
/// [`Toolbox::register_resource`].
///
/// ```
/// use mcp_tool_runtime::{mcp_resource, Toolbox};
///
/// /// A customer's profile.
/// #[mcp_resource(uri = "customers://{id}/profile", mime_type = "application/json")]
/// fn profile(id: u32) -> Option<serde_json::Value> {
///     (id == 1).then(|| serde_json::json!({"id": 1, "name": "Acme"}))
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register_resource(profile::resource()).unwrap();
/// assert_eq!(toolbox.list_resource_templates()[0].uri_template, "customers://{id}/profile");
/// ```
///
/// Keys: `uri` (required), `name` (the function's by default), `title`, `description`,
/// `mime_type`, `size` (a plain URI's), `annotations(audience(user, assistant), priority = 0.5,
/// last_modified = "...")`, `icons(...)`, `meta(...)`, `crate`; parameters take
/// `#[arg(rename, complete = path)]`, `#[state]` and a [`ToolContext`]. The [prompts and
/// resources guide](crate::guide::prompts_and_resources) has the rest.
pub use mcp_tool_macros::mcp_resource;
/// Declares an MCP tool on a function.
///
/// ```
/// use mcp_tool_runtime::{mcp_tool, Toolbox};
/// use schemars::JsonSchema;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, JsonSchema)]
/// struct Invoice { number: String }
///
/// #[derive(Deserialize, JsonSchema)]
/// struct NewInvoice {
///     /// Who pays.
///     customer: String,
/// }
///
/// struct Store;
///
/// /// Look up an invoice by its number.
/// #[mcp_tool(allow_none, annotations(read_only))]
/// async fn get_invoice(#[state] _store: &Store, number: String) -> Option<Invoice> {
///     (number == "INV-1").then(|| Invoice { number })
/// }
///
/// /// Create an invoice.
/// #[mcp_tool(name = "invoices.create")]
/// fn create_invoice(#[args] new: NewInvoice) -> Result<Invoice, String> {
///     if new.customer.is_empty() { Err("`customer` is empty".into()) } else { Ok(Invoice { number: "INV-2".into() }) }
/// }
///
/// /// Draw a chart.
/// #[mcp_tool(content = image, mime_type = "image/png")]
/// fn chart(#[arg(description = "Width in pixels.")] width: u32) -> Vec<u8> {
///     vec![0; width as usize]
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.insert_state(Store);
/// toolbox.register(get_invoice::tool()).unwrap();
/// toolbox.register(create_invoice::tool()).unwrap();
/// toolbox.register(chart::tool()).unwrap();
/// let names: Vec<_> = toolbox.list_tools().iter().map(|t| t.name.to_string()).collect();
/// assert_eq!(names, ["chart", "get_invoice", "invoices.create"]);
/// ```
///
/// Beside `fn f`, the macro declares `f::tool()`, the value to register ([`tools!`] names
/// several). Parameters are the arguments: `#[arg(rename = "...", description = "...", header =
/// "...")]`, one `#[args]` struct, `#[state] name: &T`, and one [`ToolContext`] (by value or
/// `&ToolContext`, any name: the call context, not an argument). Misconfigurations are compile
/// errors; the README lists them.
///
/// # Keys
///
#[doc = include_str!("../docs/keys.md")]
pub use mcp_tool_macros::mcp_tool;
pub use options::{Mirror, ResultOptions};
pub use protocol_error::{IntoProtocolError, ProtocolError};
pub use result::ToolResult;
#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
pub use server::ToolboxServer;
pub use settings::{SchemaProfile, ServerDefaults, ToolFlags, UnknownArguments};
pub use structured::AllowNone;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub use testing::{assert_tool_result_conforms, check_conforms};
pub use tool::{Tool, ToolAnnotations, ToolCall, ToolDeclaration, ToolDefinition};
pub use toolbox::{DEFAULT_MOUNT_SEPARATOR, RegistrationError, Toolbox, UnknownTool};

/// The tools declared by `#[mcp_tool]` on the functions named, boxed, for
/// [`Toolbox::register_all`]: `toolbox.register_all(tools![add, invoices::create])`. Each name is
/// a path to a tool function (`f` declares `f::tool()`).
///
/// ```
/// use mcp_tool_runtime::{mcp_tool, tools, Toolbox};
///
/// mod math {
///     /// Doubles a number.
///     #[mcp_tool_runtime::mcp_tool]
///     pub fn double(n: i64) -> i64 { n * 2 }
/// }
///
/// /// Negates a number.
/// #[mcp_tool]
/// fn negate(n: i64) -> i64 { -n }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register_all(tools![math::double, negate]).unwrap();
/// assert_eq!(toolbox.list_tools()[0].name, "double");
/// ```
#[macro_export]
macro_rules! tools {
    ($($($segment:ident)::+),* $(,)?) => {
        [$(
            ::std::boxed::Box::new($($segment)::+::tool()) as ::std::boxed::Box<dyn $crate::Tool>
        ),*]
    };
}

/// Guides, one page each; their examples are doctests.
#[cfg(all(feature = "rmcp", feature = "http", feature = "testing"))]
#[cfg_attr(
    docsrs,
    doc(cfg(all(feature = "rmcp", feature = "http", feature = "testing")))
)]
pub mod guide {
    #[doc = include_str!("../docs/context.md")]
    pub mod context {}
    #[doc = include_str!("../docs/prompts-and-resources.md")]
    pub mod prompts_and_resources {}
    #[doc = include_str!("../docs/apps.md")]
    pub mod apps {}
    #[doc = include_str!("../docs/serving.md")]
    pub mod serving {}
    #[doc = include_str!("../docs/reliability.md")]
    pub mod reliability {}
    #[cfg(all(feature = "auth", feature = "otel"))]
    #[doc = include_str!("../docs/authorization.md")]
    pub mod authorization {}
    #[cfg(all(feature = "auth", feature = "otel"))]
    #[doc = include_str!("../docs/observability.md")]
    pub mod observability {}
    #[cfg(feature = "redis")]
    #[doc = include_str!("../docs/tasks.md")]
    pub mod tasks {}
}

/// The README's examples, compiled and run as doctests.
#[cfg(all(doctest, feature = "rmcp", feature = "redis"))]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// What code generated by `#[mcp_tool]` names. Not a public API: it changes without notice.
#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;
