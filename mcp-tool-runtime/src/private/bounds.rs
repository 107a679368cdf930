//! One marker trait per bound generated code puts on a user's type, each with a message naming
//! the derive to add, met by a blanket impl.

use std::any::Any;
use std::fmt::Display;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::tool::ToolCall;

/// A type a tool reads from its arguments.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from a tool's arguments: it does not implement `serde::Deserialize`",
    label = "add `#[derive(serde::Deserialize)]` to `{Self}`",
    note = "a tool's arguments arrive as JSON and are deserialized into its parameter types"
)]
pub trait Argument: DeserializeOwned {}
impl<T: DeserializeOwned> Argument for T {}

/// A type whose JSON schema goes into a tool's `inputSchema`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON schema for the tool's `inputSchema`: it does not implement `schemars::JsonSchema`",
    label = "add `#[derive(schemars::JsonSchema)]` to `{Self}`"
)]
pub trait ArgumentSchema: schemars::JsonSchema {}
impl<T: schemars::JsonSchema + ?Sized> ArgumentSchema for T {}

/// A type an argument mirrored into an `Mcp-Param-*` header may have (SEP-2243): a string, an
/// integer or a boolean. Floating-point numbers and structured values cannot be headers, and
/// neither can an `Option`: its schema admits `null`, and the official clients drop a tool
/// whose header argument is not of exactly one of those types.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a header argument: SEP-2243 allows only strings, integers and booleans, required (not an `Option`)",
    label = "a header argument's type: use `String`, an integer type or `bool`, or remove `header = ...`"
)]
pub trait HeaderArgument: ArgumentSchema {}
impl HeaderArgument for String {}
impl HeaderArgument for bool {}
impl HeaderArgument for i8 {}
impl HeaderArgument for i16 {}
impl HeaderArgument for i32 {}
impl HeaderArgument for i64 {}
impl HeaderArgument for isize {}
impl HeaderArgument for u8 {}
impl HeaderArgument for u16 {}
impl HeaderArgument for u32 {}
impl HeaderArgument for u64 {}
impl HeaderArgument for usize {}

/// A type a tool returns.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be sent as a tool's result: it does not implement `serde::Serialize`",
    label = "add `#[derive(serde::Serialize)]` to `{Self}`"
)]
pub trait Output: Serialize {}
impl<T: Serialize + ?Sized> Output for T {}

/// A type whose JSON schema is a tool's `outputSchema`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON schema for the tool's `outputSchema`: it does not implement `schemars::JsonSchema`",
    label = "add `#[derive(schemars::JsonSchema)]` to `{Self}`",
    note = "or set `include_output_schema = false` on the tool to advertise no output schema"
)]
pub trait OutputSchemaType: schemars::JsonSchema {}
impl<T: schemars::JsonSchema + ?Sized> OutputSchemaType for T {}

/// The error type of a tool returning `Result<T, E>`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's error: it does not implement `std::fmt::Display`",
    label = "implement `std::fmt::Display` for `{Self}` (`#[derive(thiserror::Error)]` does), or return `Result<T, String>`",
    note = "a tool's error is sent to the client as its message, with `isError: true`"
)]
pub trait ErrorMessage: Display {}
impl<T: Display + ?Sized> ErrorMessage for T {}

/// A `#[state]` type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's `#[state]`: the toolbox shares it between calls on any thread",
    label = "`{Self}` must be `Send + Sync + 'static`",
    note = "wrap what is not thread-safe in a `std::sync::Mutex`, or share it through an `Arc`"
)]
pub trait StateType: Any + Send + Sync {}
impl<T: Any + Send + Sync> StateType for T {}

/// A call-context parameter: `ToolContext` or `&ToolContext`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not the call context: a parameter whose type is named `ToolContext` is the tool's call context",
    label = "use `mcp_tool_runtime::ToolContext` (or `&ToolContext`) here",
    note = "rename your own `ToolContext` type if it is meant to be an argument"
)]
pub trait ContextParam<'c>: Sized {
    /// The context of `call`.
    fn from_call(call: &'c ToolCall<'_>) -> Self;
}

impl<'c> ContextParam<'c> for crate::ToolContext {
    fn from_call(call: &'c ToolCall<'_>) -> Self {
        call.context.clone()
    }
}

impl<'c> ContextParam<'c> for &'c crate::ToolContext {
    fn from_call(call: &'c ToolCall<'_>) -> Self {
        &call.context
    }
}
