//! What a resource is to the runtime: a declaration (a URI, or a URI template), and a way to
//! read its contents.
//!
//! `#[mcp_resource]` implements [`Resource`] for the functions it annotates; a resource written
//! by hand is served exactly the same way.

mod contents;
mod declaration;
mod read;
mod template;

pub use contents::{IntoContents, Json};
pub use declaration::{
    ResourceDeclaration, ResourceDefinition, ResourceTemplateDefinition, TemplateVariable,
};
pub use read::ResourceRead;
pub(crate) use template::check_uri;
pub use template::{UriError, UriTemplate};

use crate::BoxFuture;
use crate::completion::Complete;
use crate::content::ResourceContents;
use crate::protocol_error::ProtocolError;

/// The longest URI `resources/read` matches against the templates; a longer one is not found.
pub const MAX_URI_BYTES: usize = 8 * 1024;

/// A resource the runtime can list, read and complete.
///
/// ```
/// use mcp_tool_runtime::resource::{IntoContents, Resource, ResourceDeclaration, ResourceRead};
/// use mcp_tool_runtime::{BoxFuture, ProtocolError, ResourceContents, Toolbox};
///
/// struct Motd;
///
/// impl Resource for Motd {
///     fn declaration(&self) -> ResourceDeclaration {
///         ResourceDeclaration::new("motd://today", "motd")
///     }
///     fn read<'a>(&'a self, read: ResourceRead<'a>) -> BoxFuture<'a, Result<Vec<ResourceContents>, ProtocolError>> {
///         Box::pin(async move { "Closed on Monday.".into_contents(read.uri, None) })
///     }
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.register_resource(Motd).unwrap();
/// assert_eq!(toolbox.list_resources()[0].uri, "motd://today");
/// ```
pub trait Resource: Send + Sync + 'static {
    /// The resource's declaration, read once at registration.
    fn declaration(&self) -> ResourceDeclaration;

    /// The contents at `read.uri` (the template's variables matched and decoded).
    fn read<'a>(
        &'a self,
        read: ResourceRead<'a>,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ProtocolError>>;

    /// Values for the template variable `complete.argument`; `None` when it has no completion
    /// function. As [`Prompt::complete`](crate::prompt::Prompt::complete).
    fn complete<'a>(&'a self, complete: &'a Complete<'a>) -> BoxFuture<'a, Option<Vec<String>>> {
        let _ = complete;
        Box::pin(std::future::ready(None))
    }
}
