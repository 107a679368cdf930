//! Completions (`completion/complete`): what a prompt argument or template variable offers for
//! what was typed, derived from its type or from a function of yours, filtered by the prefix and
//! capped at the spec's 100 values.

use std::any::Any;

use serde_json::{Map, Value};

use crate::protocol_error::ProtocolError;
use crate::tool::State;

/// The most values one answer holds (MCP's limit).
pub const MAX_COMPLETIONS: usize = 100;

/// What a completion is asked for: the argument, what was typed so far, the other arguments
/// already given, and the toolbox's state.
///
/// A `#[arg(complete = path)]` function takes it: `fn cities(complete: &Complete<'_>) ->
/// Vec<String>`, or `async fn`.
#[derive(Debug)]
#[non_exhaustive]
pub struct Complete<'a> {
    /// The argument or template variable being completed.
    pub argument: &'a str,
    /// What was typed so far.
    pub value: &'a str,
    /// The other arguments already resolved (`context.arguments`).
    pub arguments: &'a Map<String, Value>,
    /// The toolbox's state.
    pub state: &'a State,
}

impl<'a> Complete<'a> {
    pub(crate) fn new(
        argument: &'a str,
        value: &'a str,
        arguments: &'a Map<String, Value>,
        state: &'a State,
    ) -> Self {
        Complete {
            argument,
            value,
            arguments,
            state,
        }
    }

    /// The other argument `name`'s value, if it was given as a string.
    pub fn other(&self, name: &str) -> Option<&'a str> {
        self.arguments.get(name).and_then(Value::as_str)
    }

    /// The toolbox's state of type `S`.
    ///
    /// # Errors
    /// `-32603` when the toolbox holds none.
    pub fn state<S: Any + Send + Sync>(&self) -> Result<&'a S, ProtocolError> {
        self.state
            .required(format_args!("the completion of `{}`", self.argument))
    }
}

/// A `completion/complete` answer.
///
/// ```
/// use mcp_tool_runtime::completion::Completion;
///
/// let words = ["paris", "park", "rome"].map(String::from);
/// let completion = Completion::filtered(words, "par");
/// assert_eq!(completion.values, ["paris", "park"]);
/// assert_eq!((completion.total, completion.has_more), (2, false));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Completion {
    /// At most [`MAX_COMPLETIONS`] values, in the order given.
    pub values: Vec<String>,
    /// How many values matched in all.
    pub total: usize,
    /// Whether more matched than are sent.
    pub has_more: bool,
}

impl Completion {
    /// The values that begin with `prefix` (ignoring ASCII case), the first
    /// [`MAX_COMPLETIONS`] of them.
    pub fn filtered(values: impl IntoIterator<Item = String>, prefix: &str) -> Self {
        let mut matched: Vec<String> = values
            .into_iter()
            .filter(|value| starts_with_ignoring_case(value, prefix))
            .collect();
        let total = matched.len();
        matched.truncate(MAX_COMPLETIONS);
        Completion {
            has_more: total > matched.len(),
            values: matched,
            total,
        }
    }
}

fn starts_with_ignoring_case(value: &str, prefix: &str) -> bool {
    value
        .get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}

/// What a completion function returns: values now (any iterator of strings), or a future of
/// them (`async fn`). The marker `M` tells the two apart, so that both are accepted.
pub trait IntoCompletions<'a, M>: Send + 'a {
    /// The values.
    fn into_completions(self) -> crate::BoxFuture<'a, Vec<String>>;
}

/// The marker of [`IntoCompletions`] for values returned at once.
#[derive(Debug)]
pub enum Ready {}

/// The marker of [`IntoCompletions`] for a future of values.
#[derive(Debug)]
pub enum Later {}

impl<'a, I, S> IntoCompletions<'a, Ready> for I
where
    I: IntoIterator<Item = S> + Send + 'a,
    S: Into<String>,
{
    fn into_completions(self) -> crate::BoxFuture<'a, Vec<String>> {
        let values: Vec<String> = self.into_iter().map(Into::into).collect();
        Box::pin(std::future::ready(values))
    }
}

impl<'a, F, I, S> IntoCompletions<'a, (Later, I)> for F
where
    F: std::future::Future<Output = I> + Send + 'a,
    I: IntoIterator<Item = S> + Send,
    S: Into<String>,
{
    fn into_completions(self) -> crate::BoxFuture<'a, Vec<String>> {
        Box::pin(async move { self.await.into_iter().map(Into::into).collect() })
    }
}

/// The values of a type whose schema lists them (an enum of strings): what its completion
/// offers. Empty for any other type.
///
/// ```
/// #[derive(schemars::JsonSchema)]
/// #[serde(rename_all = "lowercase")]
/// #[derive(serde::Deserialize)]
/// enum Tone { Formal, Casual }
///
/// assert_eq!(mcp_tool_runtime::completion::values_of::<Tone>(), ["formal", "casual"]);
/// assert!(mcp_tool_runtime::completion::values_of::<String>().is_empty());
/// ```
pub fn values_of<T: schemars::JsonSchema>() -> Vec<String> {
    let schema = crate::schema::root_schema::<T>(schemars::SchemaGenerator::default());
    let mut values = Vec::new();
    collect_values(schema.as_value(), schema.as_value(), 0, &mut values);
    values
}

/// Strings listed by `enum`, `const`, or each branch of a `oneOf` / `anyOf` (how schemars writes
/// enums with documented variants, and `Option`s), following `$ref`s into the root's `$defs`.
fn collect_values(root: &Value, schema: &Value, depth: usize, values: &mut Vec<String>) {
    if depth > 8 {
        return;
    }
    if let Some(target) = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|at| at.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
    {
        collect_values(root, target, depth + 1, values);
    }
    if let Some(listed) = schema.get("enum").and_then(Value::as_array) {
        values.extend(listed.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    if let Some(constant) = schema.get("const").and_then(Value::as_str) {
        values.push(constant.to_owned());
    }
    for key in ["oneOf", "anyOf"] {
        for branch in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            collect_values(root, branch, depth + 1, values);
        }
    }
}
