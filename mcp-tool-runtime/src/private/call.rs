//! What a generated tool calls: reading its arguments and state, its schemas, and finishing its
//! result. Each is generic only over the user's type, through the bounds in `bounds`.

use std::any::Any;

use super::bounds::{
    Argument, ArgumentSchema, ContextParam, ErrorMessage, HeaderArgument, Output, OutputSchemaType,
    StateType,
};
use super::option::MayBeNone;
use crate::encode::Checked;
use crate::result::ToolResult;
use crate::schema::{self, InputSchemaBuilder, OutputSchema, SchemaObject, functions_of};
use crate::structured::AllowNone;
use crate::tool::reader;
use crate::tool::{StateRequirement, ToolCall};

/// A tool's declaration from what every tool has, the rest at its defaults: a generated
/// `declaration()` sets only the keys its tool declares.
pub fn declaration(
    name: &'static str,
    description: Option<&'static str>,
    input_schema: fn() -> SchemaObject,
    output_schema: Option<fn() -> OutputSchema>,
) -> crate::ToolDeclaration {
    let mut declaration = crate::ToolDeclaration::new(name);
    declaration.description = description.map(std::borrow::Cow::Borrowed);
    declaration.input_schema = input_schema;
    declaration.output_schema = output_schema;
    declaration
}

/// The future of a synchronous tool's call: its result, already made. One future type for every
/// such tool, so none compiles a state machine of its own.
pub fn ready<'a>(result: ToolResult) -> crate::BoxFuture<'a, ToolResult> {
    Box::pin(std::future::ready(result))
}

/// Reads the argument `name`.
pub fn argument<T: Argument>(call: &ToolCall<'_>, name: &str) -> Result<T, ToolResult> {
    call.argument(name)
}

/// Reads all arguments as one `#[args]` struct.
pub fn arguments<T: Argument>(call: &ToolCall<'_>) -> Result<T, ToolResult> {
    // The reading itself, not a call to a helper: one function per argument type, not three.
    // `ToolCall::arguments_as` (hand-written tools) calls this.
    match T::deserialize(reader::Object(&call.arguments)) {
        Ok(value) => Ok(value),
        Err(error) => Err(call.invalid_arguments(&error)),
    }
}

/// Adds the argument `name` to an input schema.
pub fn param<T: ArgumentSchema + ?Sized>(
    builder: &mut InputSchemaBuilder,
    name: &str,
    description: Option<&str>,
) {
    builder.param::<T>(name, description);
}

/// Adds the argument `name`, mirrored as the `Mcp-Param-{header}` HTTP header (SEP-2243).
pub fn header_param<T: HeaderArgument>(
    builder: &mut InputSchemaBuilder,
    name: &str,
    description: Option<&str>,
    header: &str,
) {
    builder.param::<T>(name, description).header(name, header);
}

/// The input schema of an `#[args]` struct.
pub fn arguments_schema<T: ArgumentSchema + ?Sized>() -> SchemaObject {
    schema::input_schema_of_functions(functions_of!(T))
}

/// The output schema of a tool returning `T`, declared without `allow_none`.
pub fn output_schema<T: OutputSchemaType + ?Sized>() -> OutputSchema {
    schema::output_schema_of_functions(functions_of!(T), AllowNone::No)
}

/// The output schema of a tool declared with `allow_none` returning `R`, an `Option`.
pub fn option_output_schema<R: MayBeNone>() -> OutputSchema
where
    R::Some: OutputSchemaType,
{
    schema::output_schema_of_functions(functions_of!(R::Some), AllowNone::Yes)
}

/// The result for a returned value, for kinds whose payload is JSON: only the serialization is
/// generic over `T`; no media path is instantiated.
pub fn finish<T: Output + ?Sized>(call: &ToolCall<'_>, value: &T) -> ToolResult {
    // `encode::to_checked_value`, written out: one function per returned type, not two.
    crate::build::result_from_value(value.serialize(Checked::ROOT), call.options)
}

/// The result for a returned value of a tool that writes its own text (`text = path`): the
/// mirror is what `render` makes of the value, `structuredContent` the value itself.
pub fn finish_with_text<T: Output + ?Sized>(
    call: &ToolCall<'_>,
    value: &T,
    render: fn(&T) -> String,
) -> ToolResult {
    // As in `finish`: the serialization written out, one function per returned type.
    crate::build::result_with_text(
        value.serialize(Checked::ROOT),
        call.options,
        Some(render(value)),
    )
}

/// The result for a returned value of an image or audio tool: no JSON path is instantiated.
pub fn finish_media<T: Output + ?Sized>(call: &ToolCall<'_>, value: &T) -> ToolResult {
    crate::build::build_media_result(value, call.options)
}

/// The result for a returned error.
pub fn fail<E: ErrorMessage>(call: &ToolCall<'_>, error: E) -> ToolResult {
    call.fail(error)
}

/// The `#[state]` of type `S`.
pub fn state<'a, S: StateType>(call: &ToolCall<'a>) -> Result<&'a S, ToolResult> {
    call.state::<S>()
}

/// The declared need for a `#[state]` of type `S` (checked at registration).
pub fn state_requirement<S: Any>() -> StateRequirement {
    StateRequirement::of::<S>()
}

/// The call's context, as the tool's context parameter takes it.
pub fn context<'c, C: ContextParam<'c>>(call: &'c ToolCall<'_>) -> Result<C, ToolResult> {
    Ok(C::from_call(call))
}
