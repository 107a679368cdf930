//! [`ToolCall`]: one call as a tool receives it: its arguments, read into typed parameters with
//! errors naming the argument, and the way its result is finished.

use std::any::{Any, type_name};
use std::fmt::Display;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::reader::{self, PathError};
use super::state::State;
use crate::build::build_result;
use crate::message::{describe, quote};
use crate::options::ResultOptions;
use crate::result::ToolResult;

/// A serde error's message with any input it quotes cut to a bounded length: serde writes the
/// offending string whole (`invalid type: string "...", expected u32`).
fn bounded(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let (Some(open), Some(close)) = (message.find('"'), message.rfind('"')) else {
        return quote(&message).into_owned();
    };
    if close <= open {
        return quote(&message).into_owned();
    }
    let quoted = quote(&message[open + 1..close]);
    let outside = format!("{}\"{quoted}\"{}", &message[..open], &message[close + 1..]);
    // What is left outside the quotes is serde's own wording, short unless serde changes.
    crate::message::truncate(&outside, 4 * crate::message::MAX_QUOTED).into_owned()
}

/// One call of a tool: its arguments, its resolved result options and the toolbox's state.
///
/// Hand-written tools read their arguments through it:
///
/// ```
/// use mcp_tool_runtime::{BoxFuture, Tool, ToolCall, ToolDeclaration, ToolResult};
///
/// struct Echo;
///
/// impl Tool for Echo {
///     fn declaration(&self) -> ToolDeclaration {
///         ToolDeclaration::new("echo")
///     }
///     fn call<'a>(&'a self, call: ToolCall<'a>) -> BoxFuture<'a, ToolResult> {
///         Box::pin(async move {
///             match call.argument::<String>("text") {
///                 Ok(text) => call.finish(&text),
///                 Err(error) => error,
///             }
///         })
///     }
/// }
/// ```
#[derive(Debug)]
pub struct ToolCall<'a> {
    /// The call's arguments (`{}` when the client sent none).
    pub arguments: Map<String, Value>,
    /// How results of this tool are built, resolved at registration.
    pub options: &'a ResultOptions,
    /// The toolbox's state.
    pub state: &'a State,
    /// The call's context: progress, cancellation, logging, client requests.
    pub context: crate::context::ToolContext,
}

impl<'a> ToolCall<'a> {
    /// The argument `name`, deserialized as `T`.
    ///
    /// A missing argument is read as `null`: a `T` that admits it (an `Option`) is `None`, any
    /// other `T` makes the call an error naming the missing argument. Errors are `isError`
    /// results naming the argument, the tool and where inside the argument it went wrong.
    pub fn argument<T: DeserializeOwned>(&self, name: &str) -> Result<T, ToolResult> {
        // Only the deserialization is generic over `T`; the messages are built by non-generic
        // functions, once for every argument type.
        static NULL: Value = Value::Null;
        // Matches, not `map_err`: a closure is one more function per argument type.
        let Some(value) = self.arguments.get(name) else {
            return match reader::from_value(&NULL) {
                Ok(value) => Ok(value),
                Err(_) => Err(self.missing(name)),
            };
        };
        match reader::from_value(value) {
            Ok(value) => Ok(value),
            Err(error) => Err(self.invalid(name, value, &error)),
        }
    }

    fn missing(&self, name: &str) -> ToolResult {
        self.options.error(format!(
            "missing required argument `{name}` of tool `{}`",
            self.options.tool_name
        ))
    }

    fn invalid(&self, name: &str, value: &Value, error: &PathError) -> ToolResult {
        let place = match error.path() {
            Some(at) if at.starts_with('[') => format!("`{name}` at `{name}{}`", quote(&at)),
            Some(at) => format!("`{name}` at `{name}.{}`", quote(&at)),
            None => format!("`{name}`"),
        };
        self.options.error(format!(
            "invalid argument {place} of tool `{}`: {} (got {})",
            self.options.tool_name,
            bounded(error.inner()),
            describe(value)
        ))
    }

    /// All arguments deserialized as one argument struct `T`.
    ///
    /// Read as serde_json reads the object, in place. Errors are `isError` results naming the
    /// tool and the path to where the arguments went wrong.
    ///
    /// ```
    /// use mcp_tool_runtime::{BoxFuture, Tool, ToolCall, ToolDeclaration, ToolResult, Toolbox};
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Move { x: i64, y: i64 }
    ///
    /// struct Walk;
    ///
    /// impl Tool for Walk {
    ///     fn declaration(&self) -> ToolDeclaration {
    ///         ToolDeclaration::new("walk")
    ///     }
    ///     fn call<'a>(&'a self, call: ToolCall<'a>) -> BoxFuture<'a, ToolResult> {
    ///         Box::pin(async move {
    ///             match call.arguments_as::<Move>() {
    ///                 Ok(step) => call.finish(&(step.x + step.y)),
    ///                 Err(error) => error,
    ///             }
    ///         })
    ///     }
    /// }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(Walk).unwrap();
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let walked = toolbox.call_tool("walk", serde_json::json!({"x": 1, "y": 2})).await.unwrap();
    /// assert!(!walked.is_error);
    /// assert_eq!(walked.structured_content, Some(serde_json::json!({"result": 3})));
    ///
    /// let refused = toolbox.call_tool("walk", serde_json::json!({"x": 1, "y": "2"})).await.unwrap();
    /// assert!(refused.is_error);
    /// assert_eq!(
    ///     refused.text(),
    ///     Some("invalid arguments of tool `walk` at `y`: invalid type: string \"2\", expected i64")
    /// );
    /// # });
    /// ```
    pub fn arguments_as<T: DeserializeOwned>(&self) -> Result<T, ToolResult> {
        // What a generated tool calls: read in place, no copy of the arguments.
        crate::__private::arguments(self)
    }

    pub(crate) fn invalid_arguments(&self, error: &PathError) -> ToolResult {
        let place = error
            .path()
            .map_or_else(String::new, |at| format!(" at `{}`", quote(&at)));
        self.options.error(format!(
            "invalid arguments of tool `{}`{place}: {}",
            self.options.tool_name,
            bounded(error.inner())
        ))
    }

    /// The toolbox's state of type `S`.
    ///
    /// Registration refuses a tool whose declared state is missing, so for a declared requirement
    /// this is an error only for hand-written tools that did not declare it.
    pub fn state<S: Any + Send + Sync>(&self) -> Result<&'a S, ToolResult> {
        self.state.get::<S>().ok_or_else(|| {
            self.options.error(format!(
                "tool `{}` needs state of type `{}`, which its toolbox does not hold",
                self.options.tool_name,
                type_name::<S>()
            ))
        })
    }

    /// The result for a returned payload.
    pub fn finish<T: Serialize + ?Sized>(&self, payload: &T) -> ToolResult {
        build_result(payload, self.options)
    }

    /// The result for a returned error: its message as text, `isError: true`.
    pub fn fail(&self, error: impl Display) -> ToolResult {
        self.options.error(error.to_string())
    }
}
