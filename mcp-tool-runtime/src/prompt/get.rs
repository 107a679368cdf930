//! [`PromptGet`]: one `prompts/get` as a prompt receives it: its string arguments, read into
//! typed values with errors naming the argument, the toolbox's state and the call context.

use std::any::Any;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::context::ToolContext;
use crate::protocol_error::ProtocolError;
use crate::tool::State;

/// One `prompts/get` of a prompt.
#[derive(Debug)]
#[non_exhaustive]
pub struct PromptGet<'a> {
    /// The prompt's name, as served.
    pub name: &'a str,
    /// The arguments (`{}` when the client sent none); MCP sends strings.
    pub arguments: Map<String, Value>,
    /// The toolbox's state.
    pub state: &'a State,
    /// The request's context: a prompt may ask the client (an input-required result at
    /// 2026-07-28, an elicitation before).
    pub context: ToolContext,
}

impl<'a> PromptGet<'a> {
    pub(crate) fn new(
        name: &'a str,
        arguments: Map<String, Value>,
        state: &'a State,
        context: ToolContext,
    ) -> Self {
        PromptGet {
            name,
            arguments,
            state,
            context,
        }
    }

    /// The argument `name` as `T`: the string itself when `T` takes a string, else the string
    /// read as JSON (`"3"` for a number). A missing argument is `None` for an `Option`.
    ///
    /// # Errors
    /// `-32602` naming the argument and the prompt.
    pub fn argument<T: DeserializeOwned>(&self, name: &str) -> Result<T, ProtocolError> {
        crate::string_value::from_string(
            &format_args!("prompt `{}`", self.name),
            name,
            self.arguments.get(name),
        )
    }

    /// The toolbox's state of type `S`.
    ///
    /// # Errors
    /// `-32603` when the toolbox holds none (registration refuses a declared need).
    pub fn state<S: Any + Send + Sync>(&self) -> Result<&'a S, ProtocolError> {
        self.state.required(format_args!("prompt `{}`", self.name))
    }
}
