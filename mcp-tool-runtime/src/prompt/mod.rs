//! What a prompt is to the runtime: a declaration, and a way to get its messages.
//!
//! `#[mcp_prompt]` implements [`Prompt`] for the functions it annotates; a prompt written by hand
//! is served exactly the same way.

mod declaration;
mod get;
mod message;

pub use declaration::{PromptArgument, PromptDeclaration, PromptDefinition};
pub use get::PromptGet;
pub use message::{IntoPromptResult, Messages, PromptMessage, PromptResult};

use crate::BoxFuture;
use crate::completion::Complete;
use crate::protocol_error::ProtocolError;

/// A prompt the runtime can list, get and complete.
///
/// ```
/// use mcp_tool_runtime::prompt::{Messages, Prompt, PromptArgument, PromptDeclaration, PromptGet, PromptResult};
/// use mcp_tool_runtime::{BoxFuture, ProtocolError, Toolbox};
///
/// struct Summarize;
///
/// impl Prompt for Summarize {
///     fn declaration(&self) -> PromptDeclaration {
///         PromptDeclaration::new("summarize").argument(PromptArgument::new("text").required())
///     }
///     fn get<'a>(&'a self, get: PromptGet<'a>) -> BoxFuture<'a, Result<PromptResult, ProtocolError>> {
///         Box::pin(async move {
///             let text: String = get.argument("text")?;
///             Ok(Messages::new().user(format!("Summarize: {text}")).into())
///         })
///     }
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register_prompt(Summarize).unwrap();
/// assert_eq!(toolbox.list_prompts()[0].name, "summarize");
/// ```
pub trait Prompt: Send + Sync + 'static {
    /// The prompt's declaration, read once at registration.
    fn declaration(&self) -> PromptDeclaration;

    /// The prompt's messages for these arguments. Required arguments were already checked by
    /// the toolbox.
    fn get<'a>(&'a self, get: PromptGet<'a>) -> BoxFuture<'a, Result<PromptResult, ProtocolError>>;

    /// Values for the argument `complete.argument` beginning with what was typed; `None` when
    /// the argument has no completion function (values derived from its type, if any, are the
    /// toolbox's). The toolbox filters by the prefix and caps the answer at 100 values.
    fn complete<'a>(&'a self, complete: &'a Complete<'a>) -> BoxFuture<'a, Option<Vec<String>>> {
        let _ = complete;
        Box::pin(std::future::ready(None))
    }
}
