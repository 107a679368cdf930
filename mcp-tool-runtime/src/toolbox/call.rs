//! The call guard: what stands between a `tools/call` and the tool. Arguments too deep, not an
//! object, or unknown are refused before the tool runs; a panic becomes an `isError` result; a
//! structured result is checked against the advertised schema (feature `self-check`), and a
//! result over the ceiling is refused.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt as _;
use serde_json::{Map, Value};

use super::arguments::ArgumentCheck;
use super::self_check::ToolCheck;
use crate::build::within_ceiling;
use crate::context::ToolContext;
use crate::encode::MAX_DEPTH;
use crate::message::{describe, quote};
use crate::options::ResultOptions;
use crate::result::ToolResult;
use crate::tool::{State, Tool, ToolCall};
use crate::version::{PerRevision, Revision};

/// A tool as registered: everything a call needs, decided once.
#[derive(Clone)]
pub(crate) struct Registered {
    pub(crate) tool: Arc<dyn Tool>,
    /// How results are built, per revision (from 2026-07-28 payloads as they are, SEP-2106).
    pub(crate) options: PerRevision<ResultOptions>,
    /// The argument names the input schema allows, when it refuses any other.
    pub(crate) known_arguments: Option<BTreeSet<String>>,
    /// The rules of the input schema beyond serde's, checked before the tool runs.
    pub(crate) arguments: ArgumentCheck,
    /// The advertised `outputSchema` per revision, for the result self-check.
    pub(crate) check: PerRevision<ToolCheck>,
    /// The OAuth scopes a verified caller needs.
    pub(crate) scopes: Cow<'static, [&'static str]>,
    /// Whether it runs as a task.
    pub(crate) task: crate::tool::TaskSupport,
    /// Whether only its views may call it (MCP Apps `visibility: ["app"]`).
    pub(crate) app_only: bool,
    /// Whether it declares a view or a visibility (MCP Apps): the server then declares the
    /// extension (feature `rmcp`).
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) has_ui: bool,
    /// Whether its calls become tasks where the body escalates.
    pub(crate) escalates: bool,
    /// Its name as its calls' metrics label (feature `otel`): the declaration's own `&'static
    /// str` for a declared tool, shared for a name built at run time.
    #[cfg(feature = "otel")]
    pub(crate) label: opentelemetry::StringValue,
}

impl Registered {
    /// An `isError` result when the call's verified caller lacks a scope the tool needs. An HTTP
    /// server with [`auth`](crate::auth) answers such a call with 403 before it gets here; this
    /// holds for every other way a caller is set. `Toolbox::run` asks it before any layer, so
    /// [`call`](Self::call) (reached only through `run`) does not ask again.
    pub(crate) fn refuse_caller(&self, name: &str, context: &ToolContext) -> Option<ToolResult> {
        if self.scopes.is_empty() {
            return None;
        }
        let missing = context.caller()?.missing_scopes(&self.scopes);
        (!missing.is_empty()).then(|| {
            ToolResult::error(format!(
                "tool `{}` needs the scope{} `{}`, which the caller's token does not grant",
                name,
                if missing.len() == 1 { "" } else { "s" },
                missing.join("` `"),
            ))
        })
    }

    /// Calls the tool with `arguments`; `check` says whether the result is self-checked.
    pub(crate) async fn call(
        &self,
        arguments: Value,
        state: &State,
        context: ToolContext,
        check: bool,
    ) -> ToolResult {
        let revision = Revision::of(context.served_version());
        let (options, result_check) = (self.options.get(revision), self.check.get(revision));
        let name = &options.tool_name;
        if let Some(depth) = too_deep(&arguments) {
            dismantle(arguments);
            return options.error(format!(
                "the arguments of tool `{name}` are nested more than {depth} levels deep, over \
                 this server's limit of {MAX_DEPTH} levels"
            ));
        }
        let arguments = match arguments {
            Value::Object(map) => map,
            Value::Null => Map::new(),
            other => {
                return options.error(format!(
                    "the arguments of tool `{name}` must be a JSON object, got {}",
                    describe(&other)
                ));
            }
        };
        if let Some(known) = &self.known_arguments
            && let Some(unknown) = arguments.keys().find(|k| !known.contains(*k))
        {
            let expected = if known.is_empty() {
                "it takes no arguments".to_owned()
            } else {
                let names: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
                format!("expected one of: {}", names.join(", "))
            };
            return options.error(format!(
                "unknown argument `{}` for tool `{name}`; {expected}",
                quote(unknown)
            ));
        }
        let arguments = match self.arguments.check(name, arguments) {
            Ok(arguments) => arguments,
            Err(message) => return options.error(message),
        };
        let reporter = context.clone();
        let call = ToolCall {
            arguments,
            options,
            state,
            context,
        };
        // `call` is made within the future caught, not before it: a synchronous tool's body runs
        // when `call` is made, and a panic there is caught like one in a future.
        let outcome = AssertUnwindSafe(async { self.tool.call(call).await })
            .catch_unwind()
            .await;
        let result = outcome.unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("a non-string panic payload");
            let message = format!("tool `{name}` panicked: {}", quote(message));
            reporter.report_panic(&message);
            options.error(message)
        });
        within_ceiling(result_check.check(check, options, result), options)
    }
}

/// The depth past which arguments are refused before anything recursive (deserializing, quoting,
/// dropping) touches them, if `value` is nested deeper than [`MAX_DEPTH`]. Iterative, so any
/// depth is measured on any stack.
fn too_deep(value: &Value) -> Option<usize> {
    // Arguments are mostly one object of scalars: that needs no stack.
    if children(value).is_none_or(|mut inside| inside.all(|child| children(child).is_none())) {
        return None;
    }
    let mut pending = vec![(value, 0_usize)];
    while let Some((value, depth)) = pending.pop() {
        let Some(children) = children(value) else {
            continue;
        };
        if depth + 1 > MAX_DEPTH {
            return Some(MAX_DEPTH);
        }
        pending.extend(children.map(|child| (child, depth + 1)));
    }
    None
}

/// The values directly inside `value`, if it is an array or an object.
fn children(value: &Value) -> Option<impl Iterator<Item = &Value>> {
    match value {
        Value::Array(items) => Some(Children::Array(items.iter())),
        Value::Object(map) => Some(Children::Object(map.values())),
        _ => None,
    }
}

/// The values directly inside an array or an object.
enum Children<'a> {
    Array(std::slice::Iter<'a, Value>),
    Object(serde_json::map::Values<'a>),
}

impl<'a> Iterator for Children<'a> {
    type Item = &'a Value;

    fn next(&mut self) -> Option<&'a Value> {
        match self {
            Children::Array(items) => items.next(),
            Children::Object(values) => values.next(),
        }
    }
}

/// Drops a value without recursion (serde_json's own drop recurses once per level).
fn dismantle(value: Value) {
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::Array(items) => pending.extend(items),
            Value::Object(map) => pending.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{MAX_DEPTH, too_deep};

    /// `levels` arrays, one inside the other, around `null`.
    fn nested(levels: usize) -> Value {
        (0..levels).fold(Value::Null, |inner, _| Value::Array(vec![inner]))
    }

    #[test]
    fn measures_depth_past_the_shallow_shapes_it_skips() {
        assert_eq!(too_deep(&json!(1)), None);
        assert_eq!(too_deep(&json!({"a": 1, "b": "x", "c": null})), None);
        assert_eq!(too_deep(&json!({"a": {"b": [1, 2]}})), None);
        assert_eq!(too_deep(&nested(MAX_DEPTH)), None);
        assert_eq!(too_deep(&nested(MAX_DEPTH + 1)), Some(MAX_DEPTH));
        // Deep under a shallow first child: the shallow shape's shortcut does not stop there.
        let deep_second = json!({"a": 1, "b": nested(MAX_DEPTH)});
        assert_eq!(too_deep(&deep_second), Some(MAX_DEPTH));
    }
}
