//! [`Toolbox::mount`]: another toolbox's tools served under a prefix, all or none.

use std::sync::Arc;

use super::{RegistrationError, Toolbox};
use crate::BoxFuture;
use crate::result::ToolResult;
use crate::tool::{Tool, ToolCall, ToolDeclaration};

/// The separator [`Toolbox::mount`] puts between a prefix and a tool's name.
pub const DEFAULT_MOUNT_SEPARATOR: &str = "_";

/// A tool served under another name: its own declaration and body otherwise.
struct Mounted {
    name: String,
    tool: Arc<dyn Tool>,
}

impl Tool for Mounted {
    fn declaration(&self) -> ToolDeclaration {
        let mut declaration = self.tool.declaration();
        declaration.name = self.name.clone().into();
        declaration
    }

    fn call<'a>(&'a self, call: ToolCall<'a>) -> BoxFuture<'a, ToolResult> {
        self.tool.call(call)
    }
}

impl Toolbox {
    /// Serves every tool of `other` beside this toolbox's, each named `prefix`, `_` and its own
    /// name (`billing` and `get_invoice`: `billing_get_invoice`), with the state `other` holds.
    /// A toolbox written on its own (a crate's, a team's) joins a server without renaming its
    /// functions.
    ///
    /// Each tool is registered as [`register`](Self::register) would: under this toolbox's
    /// defaults and layers, its scopes, task support and schemas its own. Nothing is mounted
    /// unless everything is: a name taken, a name MCP refuses, or a state type both toolboxes
    /// hold as different values is refused before any tool is added.
    ///
    /// ```
    /// use mcp_tool_runtime::{mcp_tool, Toolbox};
    ///
    /// /// Looks up an invoice.
    /// #[mcp_tool]
    /// fn get_invoice(number: String) -> String { format!("invoice {number}") }
    ///
    /// let mut billing = Toolbox::new();
    /// billing.register(get_invoice::tool()).unwrap();
    /// let mut server = Toolbox::new();
    /// server.mount("billing", &billing).unwrap();
    /// assert_eq!(server.list_tools()[0].name, "billing_get_invoice");
    /// // Mounting it again finds the names taken, and changes nothing.
    /// assert!(server.mount("billing", &billing).is_err());
    /// assert_eq!(server.list_tools().len(), 1);
    /// ```
    ///
    /// # Errors
    /// [`RegistrationError::MountConflict`] for a state both toolboxes hold, or `other` having
    /// layers of its own (they would not run: add them here); otherwise what
    /// [`register`](Self::register) refuses for a mounted tool (a duplicate name, a name over
    /// 128 characters). On error this toolbox is unchanged.
    pub fn mount(&mut self, prefix: &str, other: &Toolbox) -> Result<&mut Self, RegistrationError> {
        self.mount_with_separator(prefix, DEFAULT_MOUNT_SEPARATOR, other)
    }

    /// Like [`mount`](Self::mount), with `separator` between the prefix and each name (`"."`
    /// gives `billing.get_invoice`; MCP names allow `_`, `-` and `.`).
    ///
    /// # Errors
    /// As [`mount`](Self::mount).
    pub fn mount_with_separator(
        &mut self,
        prefix: &str,
        separator: &str,
        other: &Toolbox,
    ) -> Result<&mut Self, RegistrationError> {
        let conflict = |reason: String| RegistrationError::MountConflict {
            prefix: prefix.to_owned(),
            reason,
        };
        if !other.layers.is_empty() {
            return Err(conflict(
                "the mounted toolbox has layers of its own, which its tools would not run through here; add them to the toolbox it is mounted in".into(),
            ));
        }
        let mut next = self.clone();
        next.state
            .merge(&other.state)
            .map_err(|type_name| {
                conflict(format!(
                    "both toolboxes hold state of type `{type_name}`, as different values; keep one, in the toolbox it is mounted in"
                ))
            })?;
        // Resources first: a mounted tool's view must be served before the tool is registered.
        Toolbox::mount_catalog(&mut next, prefix, separator, other)?;
        let mut names: Vec<&String> = other.tools.keys().collect();
        names.sort();
        for name in names {
            let tool = Mounted {
                name: format!("{prefix}{separator}{name}"),
                tool: other.tools[name].tool.clone(),
            };
            next.register_shared(Arc::new(tool))?;
        }
        *self = next;
        Ok(self)
    }
}
