//! [`ResourceRead`]: one `resources/read` as a resource receives it: the URI, its template
//! variables read into typed values, the toolbox's state and the request's context.

use std::any::Any;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::context::ToolContext;
use crate::protocol_error::ProtocolError;
use crate::tool::State;

/// One `resources/read` of a resource.
#[derive(Debug)]
#[non_exhaustive]
pub struct ResourceRead<'a> {
    /// The URI read.
    pub uri: &'a str,
    /// The template's variables in it, percent-decoded (none for a plain URI).
    pub variables: Map<String, Value>,
    /// The toolbox's state.
    pub state: &'a State,
    /// The request's context.
    pub context: ToolContext,
}

impl<'a> ResourceRead<'a> {
    pub(crate) fn new(
        uri: &'a str,
        variables: Map<String, Value>,
        state: &'a State,
        context: ToolContext,
    ) -> Self {
        ResourceRead {
            uri,
            variables,
            state,
            context,
        }
    }

    /// The variable `name` as `T`: the decoded string when `T` takes one, else read as JSON.
    ///
    /// # Errors
    /// `-32602` naming the variable and the URI.
    pub fn variable<T: DeserializeOwned>(&self, name: &str) -> Result<T, ProtocolError> {
        crate::string_value::from_string(
            &format_args!("resource `{}`", crate::message::quote(self.uri)),
            name,
            self.variables.get(name),
        )
    }

    /// The toolbox's state of type `S`.
    ///
    /// # Errors
    /// `-32603` when the toolbox holds none (registration refuses a declared need).
    pub fn state<S: Any + Send + Sync>(&self) -> Result<&'a S, ProtocolError> {
        self.state.required(format_args!(
            "resource `{}`",
            crate::message::quote(self.uri)
        ))
    }
}
