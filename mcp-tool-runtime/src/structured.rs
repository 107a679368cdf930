//! The rules that tie a tool's `structuredContent` to its `outputSchema`.
//!
//! Each rule lives here once, and both sides call it: [`crate::schema`] when it builds an
//! `outputSchema`, [`build_tool_result`](crate::build_tool_result) when it builds a `structuredContent`. So the schema a tool
//! advertises and the payload it sends can never disagree about them.
//!
//! - *Nothing*: a payload with nothing to present (`None`, `()`) is served as `{}`, at every
//!   protocol version: an SDK reads `null` as "no structured content", which a tool that
//!   advertises an `outputSchema` must never send.
//! - *Wrapping*: up to 2025-11-25, a payload whose type is not a JSON object is served as
//!   `{"result": <value>}`, because MCP requires an object at the root of both halves. From
//!   2026-07-28 (SEP-2106) any JSON value may be `structuredContent` and any schema an
//!   `outputSchema`: the payload is served as it is ([`Shape::Raw`]), with its type's own schema.
//!   Whether a payload is wrapped depends on its type and the client's version alone.

use serde_json::{Map, Value, json};

use crate::version::Revision;

/// Whether a tool declared `allow_none`: its return type is an `Option` whose `None` is served as
/// `{}`, and its `outputSchema` admits that `{}`.
///
/// ```
/// use mcp_tool_runtime::AllowNone;
/// use mcp_tool_runtime::schema::output_schema;
///
/// let schema = output_schema::<String>(AllowNone::Yes).schema().clone();
/// assert!(schema["anyOf"].is_array());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AllowNone {
    /// The tool always returns a value.
    #[default]
    No,
    /// The tool may return `None`, served as `{}`.
    Yes,
}

/// The property that carries a wrapped, non-object result (`{"result": 7}`, see
/// [`Shape::Wrapped`]).
pub(crate) const RESULT_KEY: &str = "result";

/// The schema keyword set on a wrapped output schema, so tooling can tell the `result` property
/// was added by this toolkit and unwrap it.
///
/// ```
/// use mcp_tool_runtime::AllowNone;
/// use mcp_tool_runtime::schema::output_schema;
/// use mcp_tool_runtime::structured::WRAPPED_MARKER;
/// assert_eq!(output_schema::<Vec<String>>(AllowNone::No).schema()[WRAPPED_MARKER], true);
/// ```
pub const WRAPPED_MARKER: &str = "x-mcp-wrapped";

/// Whether a tool's structured result is its payload as is, or wrapped as `{"result": ...}`.
///
/// Decided once per output type, from its schema ([`Shape::of_schema`]); a payload built without
/// a known type is decided from its value ([`Shape::of_value`]).
///
/// ```
/// use mcp_tool_runtime::structured::Shape;
/// use serde_json::json;
///
/// assert_eq!(Shape::of_value(&json!({"id": 7})), Shape::Object);
/// assert_eq!(Shape::of_value(&json!([1, 2])), Shape::Wrapped);
/// assert_eq!(Shape::Wrapped.structured(json!([1, 2])), json!({"result": [1, 2]}));
/// assert_eq!(Shape::Object.structured(json!(null)), json!({}));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shape {
    /// The payload is a JSON object and is served as is.
    #[default]
    Object,
    /// The payload is served as `{"result": <payload>}` (a non-object type, up to 2025-11-25).
    Wrapped,
    /// The payload is served as it is, whatever JSON it is (a non-object type, from
    /// 2026-07-28).
    Raw,
}

impl Shape {
    /// The shape of a payload whose type is unknown: objects as they are, anything else wrapped.
    pub fn of_value(value: &Value) -> Shape {
        if value.is_object() {
            Shape::Object
        } else {
            Shape::Wrapped
        }
    }

    /// The shape of a type, from its root schema: wrapped unless the root is `"type": "object"`.
    pub fn of_schema(root: &Map<String, Value>) -> Shape {
        if root.get("type").and_then(Value::as_str) == Some("object") {
            Shape::Object
        } else {
            Shape::Wrapped
        }
    }

    /// The `structuredContent` for a payload value: the nothing rule, then the wrapping rule.
    pub fn structured(self, payload: Value) -> Value {
        if is_nothing(&payload) {
            return nothing();
        }
        match self {
            Shape::Object if payload.is_object() => payload,
            Shape::Raw => payload,
            _ => json!({ RESULT_KEY: payload }),
        }
    }

    /// The shape payloads of this shape are served in at `revision`: from 2026-07-28 a type
    /// that is not an object as it is (SEP-2106).
    pub(crate) fn at(self, revision: Revision) -> Shape {
        shape_at(Some(self), revision).unwrap_or(self)
    }

    /// The output schema for a type's root schema: as is, or wrapped under `result`.
    pub(crate) fn output_schema(self, mut root: Map<String, Value>) -> Map<String, Value> {
        match self {
            Shape::Object | Shape::Raw => root,
            Shape::Wrapped => {
                let defs = root.remove("$defs");
                let mut wrapped = json!({
                    "type": "object",
                    "properties": { RESULT_KEY: Value::Object(root) },
                    "required": [RESULT_KEY],
                    WRAPPED_MARKER: true,
                });
                if let Some(defs) = defs {
                    wrapped["$defs"] = defs;
                }
                into_map(wrapped)
            }
        }
    }
}

/// The nothing rule, payload side: `null` (from `None` or `()`) has nothing to present.
pub(crate) fn is_nothing(payload: &Value) -> bool {
    payload.is_null()
}

/// What a payload with nothing to present is served as.
pub(crate) fn nothing() -> Value {
    Value::Object(Map::new())
}

/// The nothing rule, schema side: the schema of a type that only ever serializes as nothing.
pub(crate) fn nothing_schema() -> Map<String, Value> {
    into_map(json!({"type": "object", "maxProperties": 0}))
}

/// The nothing rule, schema side: let a schema also admit the `{}` served for nothing, while any
/// other value must still satisfy the original schema. An object root (every form up to
/// 2025-11-25) stays `"type": "object"`; a raw one (2026-07-28) is any of the two.
pub(crate) fn admit_nothing(mut root: Map<String, Value>) -> Map<String, Value> {
    let defs = root.remove("$defs");
    let wrapped = root.remove(WRAPPED_MARKER);
    let object = root.get("type").and_then(Value::as_str) == Some("object");
    let mut schema = json!({
        "anyOf": [nothing_schema(), Value::Object(root)],
    });
    if object {
        schema["type"] = json!("object");
    }
    if let Some(defs) = defs {
        schema["$defs"] = defs;
    }
    if let Some(marker) = wrapped {
        schema[WRAPPED_MARKER] = marker;
    }
    into_map(schema)
}

/// The shape a tool's payloads are served in at `revision`, `shape` being its shape up to
/// 2025-11-25 (`None`: a tool without an output schema): from 2026-07-28 any payload that is
/// not an object is served as it is.
pub(crate) fn shape_at(shape: Option<Shape>, revision: Revision) -> Option<Shape> {
    match revision {
        Revision::Until2025_11_25 => shape,
        Revision::Since2026_07_28 => Some(match shape {
            Some(Shape::Object) => Shape::Object,
            _ => Shape::Raw,
        }),
    }
}

fn into_map(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("built from an object literal"),
    }
}
