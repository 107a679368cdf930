//! `inputSchema` and `outputSchema`, generated with schemars as JSON Schema 2020-12.
//!
//! Outputs use schemars' serialize contract and inputs its deserialize contract, so every serde
//! attribute on a type shapes its payload and its schema alike. No `$schema` key is written:
//! 2020-12 is MCP's default dialect, and strict clients reject a draft-07 one.
#![doc = include_str!("../../docs/clients.md")]

mod portable;
mod root;
mod strict;

use std::sync::Arc;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{Map, Value, json};

pub(crate) use root::{Functions, functions_of, root_schema};

use crate::structured::{self, AllowNone, Shape};
use crate::version::{PerRevision, Revision};

/// A JSON Schema object, shared: schemas are built once and handed out by reference.
///
/// ```
/// use mcp_tool_runtime::schema::{input_schema_of, SchemaObject};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Query { text: String }
///
/// let schema: SchemaObject = input_schema_of::<Query>();
/// assert_eq!(schema["type"], "object");
/// ```
pub type SchemaObject = Arc<Map<String, Value>>;

/// An output schema and the [`Shape`] its payloads are served in.
///
/// ```
/// use mcp_tool_runtime::AllowNone;
/// use mcp_tool_runtime::schema::{output_schema, OutputSchema};
/// use mcp_tool_runtime::structured::Shape;
///
/// let list: OutputSchema = output_schema::<Vec<u8>>(AllowNone::No);
/// assert_eq!(list.shape(), Shape::Wrapped);
/// assert_eq!(list.schema()["type"], "object");
/// assert_eq!(list.schema_for(Some("2025-11-25"))["type"], "object");
/// assert_eq!(list.schema_for(Some("2026-07-28"))["type"], "array");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OutputSchema {
    /// Up to MCP 2025-11-25, the root always `"type": "object"`; from 2026-07-28 (SEP-2106) the
    /// type's own schema, whatever its root (an array, a number, a string, an enum), admitting
    /// the `{}` served for nothing.
    schemas: PerRevision<SchemaObject>,
    shape: Shape,
}

impl OutputSchema {
    /// The schema advertised as the tool's `outputSchema` up to MCP 2025-11-25. Its root is
    /// always `"type": "object"`.
    pub fn schema(&self) -> &SchemaObject {
        self.schemas.get(Revision::Until2025_11_25)
    }

    /// The schema advertised to a client speaking `version`: [`schema`](Self::schema) up to
    /// 2025-11-25, the type's own schema from 2026-07-28.
    pub fn schema_for(&self, version: Option<&str>) -> &SchemaObject {
        self.schemas.get(Revision::of(version))
    }

    /// Whether payloads are served as is or wrapped under `result`, up to 2025-11-25.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The schemas, one per revision.
    pub(crate) fn schemas(&self) -> &PerRevision<SchemaObject> {
        &self.schemas
    }

    /// These schemas in their [portable](portable) shape: the same values admitted, written the
    /// way every mainstream client reads them.
    pub(crate) fn portable(self) -> OutputSchema {
        OutputSchema {
            schemas: PerRevision::new(|revision| {
                Arc::new(portable::portable((**self.schemas.get(revision)).clone()))
            }),
            shape: self.shape,
        }
    }
}

fn settings() -> SchemaSettings {
    SchemaSettings::draft2020_12().with(|s| s.meta_schema = None)
}

fn generator_for_output() -> SchemaGenerator {
    settings().for_serialize().into_generator()
}

fn generator_for_input() -> SchemaGenerator {
    settings().for_deserialize().into_generator()
}

/// The `outputSchema` for tools returning `T`. A [`Toolbox`](crate::Toolbox) calls it once per
/// tool, at registration, and serves the entry it built from then on.
///
/// The root is always `"type": "object"`, as MCP 2025-06-18 and 2025-11-25 require: a type whose
/// schema is not an object (a `Vec`, a scalar, an enum, ...) is wrapped as
/// `{"type": "object", "properties": {"result": ...}, "required": ["result"]}` and marked with
/// [`WRAPPED_MARKER`](crate::structured::WRAPPED_MARKER). With [`AllowNone::Yes`] (a tool
/// declared with `allow_none`, returning `Option<T>`: pass `T` here), the schema also admits the
/// `{}` a tool serves when it returns nothing, while any other object must still match `T`.
///
/// ```
/// use mcp_tool_runtime::AllowNone;
/// use mcp_tool_runtime::schema::output_schema;
/// use mcp_tool_runtime::structured::Shape;
///
/// #[derive(serde::Serialize, schemars::JsonSchema)]
/// struct Invoice { number: String }
///
/// let invoice = output_schema::<Invoice>(AllowNone::No);
/// assert_eq!(invoice.shape(), Shape::Object);
/// assert_eq!(invoice.schema()["type"], "object");
///
/// let maybe = output_schema::<Invoice>(AllowNone::Yes);
/// assert_eq!(maybe.schema()["anyOf"][0], serde_json::json!({"type": "object", "maxProperties": 0}));
///
/// let list = output_schema::<Vec<Invoice>>(AllowNone::No);
/// assert_eq!(list.shape(), Shape::Wrapped);
/// assert_eq!(list.schema()["required"], serde_json::json!(["result"]));
/// ```
pub fn output_schema<T: JsonSchema + ?Sized>(allow_none: AllowNone) -> OutputSchema {
    output_schema_of_functions(functions_of!(T), allow_none)
}

/// [`output_schema`] of the type whose schema functions are given: not generic.
pub(crate) fn output_schema_of_functions(
    functions: Functions,
    allow_none: AllowNone,
) -> OutputSchema {
    build_output_schema(
        root::root_schema_with(generator_for_output(), functions).to_value(),
        allow_none,
    )
}

/// Turns a type's root schema into an MCP output schema. Public within the crate so tests and
/// hand-declared tools can run any schema through the same rules.
pub(crate) fn build_output_schema(root: Value, allow_none: AllowNone) -> OutputSchema {
    let mut root = match root {
        Value::Object(map) => map,
        // `true` / `false` schemas (serde_json::Value, `!`): any value, wrapped.
        other => {
            let mut map = Map::new();
            if other == Value::Bool(false) {
                map.insert("not".to_owned(), json!({}));
            }
            map
        }
    };
    detach_root(&mut root);
    follow_root_ref(&mut root);

    if is_null_schema(&root) {
        let nothing = Arc::new(structured::nothing_schema());
        return OutputSchema {
            schemas: PerRevision::all(nothing),
            shape: Shape::Object,
        };
    }
    // A type that may serialize as `null` (`Option<T>` without `allow_none`,
    // `serde_json::Value`, a nullable newtype) is served as `{}` then, by the same nothing rule
    // as a declared `allow_none`; its other values by their own shape, as with `allow_none`.
    let nullable = admits_null(&root);
    let may_be_empty = allow_none == AllowNone::Yes || nullable;
    if nullable {
        strip_null(&mut root);
    }
    let shape = Shape::of_schema(&root);
    let schemas = PerRevision::new(|revision| {
        let schema = shape.at(revision).output_schema(root.clone());
        Arc::new(if may_be_empty {
            structured::admit_nothing(schema)
        } else {
            schema
        })
    });
    OutputSchema { schemas, shape }
}

/// A nullable schema without its `null`: `anyOf: [T, {"type": "null"}]` becomes `T` (followed
/// into `$defs`), `"type": [T, "null"]` becomes `"type": T`. Other schemas stay as they are.
fn strip_null(root: &mut Map<String, Value>) {
    let is_null = |v: &Value| v.get("type") == Some(&json!("null"));
    if let Some(Value::Array(types)) = root.get("type") {
        let kept: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if let [only] = kept.as_slice() {
            root.insert("type".to_owned(), only.clone());
        }
        return;
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = root.get(key) else {
            continue;
        };
        let (nulls, others): (Vec<&Value>, Vec<&Value>) = branches.iter().partition(|b| is_null(b));
        let ([_], [Value::Object(other)]) = (nulls.as_slice(), others.as_slice()) else {
            continue;
        };
        let other = other.clone();
        root.remove(key);
        for (k, v) in other {
            root.entry(k).or_insert(v);
        }
        follow_root_ref(root);
        return;
    }
}

/// schemars writes a root type's references to itself as `"$ref": "#"`. Wrapping the root would
/// retarget those, so the root moves into `$defs` first and the references follow it.
fn detach_root(root: &mut Map<String, Value>) {
    fn refers_to_root(map: &Map<String, Value>) -> bool {
        map.iter()
            .any(|(k, v)| (k == "$ref" && v.as_str() == Some("#")) || value_refers_to_root(v))
    }
    fn value_refers_to_root(value: &Value) -> bool {
        match value {
            Value::Object(map) => refers_to_root(map),
            Value::Array(items) => items.iter().any(value_refers_to_root),
            _ => false,
        }
    }
    fn retarget(value: &mut Value, target: &str) {
        match value {
            Value::Object(map) => {
                for (k, v) in map.iter_mut() {
                    if k == "$ref" && v.as_str() == Some("#") {
                        *v = Value::String(target.to_owned());
                    } else {
                        retarget(v, target);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| retarget(v, target)),
            _ => {}
        }
    }
    if !refers_to_root(root) {
        return;
    }
    let mut defs = match root.remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    let base = root
        .get("title")
        .and_then(Value::as_str)
        .unwrap_or("Root")
        .to_owned();
    let mut name = base.clone();
    let mut n = 1;
    while defs.contains_key(&name) {
        n += 1;
        name = format!("{base}{n}");
    }
    let target = format!("#/$defs/{name}");
    let mut body = Value::Object(std::mem::take(root));
    retarget(&mut body, &target);
    for def in defs.values_mut() {
        retarget(def, &target);
    }
    *root = body.as_object().cloned().unwrap_or_default();
    defs.insert(name, body);
    root.insert("$defs".to_owned(), Value::Object(defs));
}

/// A root that is only `{"$ref": "#/$defs/X"}` is replaced by what it points at, so an object type
/// behind a reference still gets an object root.
fn follow_root_ref(root: &mut Map<String, Value>) {
    let Some(target) = root.get("$ref").and_then(Value::as_str) else {
        return;
    };
    let Some(name) = target.strip_prefix("#/$defs/") else {
        return;
    };
    let Some(Value::Object(def)) = root.get("$defs").and_then(|d| d.get(name)).cloned() else {
        return;
    };
    root.remove("$ref");
    for (k, v) in def {
        root.entry(k).or_insert(v);
    }
}

fn is_null_schema(root: &Map<String, Value>) -> bool {
    root.get("type").and_then(Value::as_str) == Some("null")
}

/// Whether a schema lets the value be `null`: for an output, served as `{}` by the nothing rule;
/// for an argument, one that may be left out.
fn admits_null(root: &Map<String, Value>) -> bool {
    let type_allows_null = match root.get("type") {
        None => !root.keys().any(|k| is_constraint(k)),
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
        Some(_) => false,
    };
    let branch_allows_null = ["anyOf", "oneOf"].iter().any(|k| {
        root.get(*k)
            .and_then(Value::as_array)
            .is_some_and(|branches| {
                branches.iter().any(|b| {
                    b.as_object()
                        .is_some_and(|b| b.get("type") == Some(&json!("null")))
                })
            })
    });
    type_allows_null || branch_allows_null
}

fn is_constraint(keyword: &str) -> bool {
    !matches!(
        keyword,
        "title" | "description" | "$defs" | "$comment" | "examples" | "default" | "deprecated"
    )
}

/// The input schema of a tool that takes one argument struct `T`: its fields are the arguments.
///
/// The schema is the type's own: `"additionalProperties": false` only where the type refuses
/// unknown fields itself (`#[serde(deny_unknown_fields)]`); a server that refuses unknown
/// arguments ([`UnknownArguments::Refuse`](crate::UnknownArguments)) adds it at the root when
/// it registers the tool. Generated once per tool, at registration.
///
/// ```
/// use mcp_tool_runtime::schema::input_schema_of;
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct NewInvoice {
///     /// Who pays.
///     customer: String,
/// }
///
/// let schema = input_schema_of::<NewInvoice>();
/// assert!(schema.get("additionalProperties").is_none());
/// assert_eq!(schema["properties"]["customer"]["description"], "Who pays.");
/// ```
pub fn input_schema_of<T: JsonSchema + ?Sized>() -> SchemaObject {
    input_schema_of_functions(functions_of!(T))
}

/// [`input_schema_of`] of the type whose schema functions are given: not generic.
pub(crate) fn input_schema_of_functions(functions: Functions) -> SchemaObject {
    build_input_schema(root::root_schema_with(generator_for_input(), functions).to_value())
}

/// The non-generic rest of [`input_schema_of`]: compiled once, not once per argument type.
fn build_input_schema(root: Value) -> SchemaObject {
    let mut root = match root {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    follow_root_ref(&mut root);
    root.entry("type").or_insert_with(|| json!("object"));
    Arc::new(root)
}

/// `schema` (an `inputSchema`) in its [portable](portable) shape.
pub(crate) fn portable_input(schema: &SchemaObject) -> SchemaObject {
    Arc::new(portable::portable((**schema).clone()))
}

/// `schema` (an `inputSchema`) in its [strict](strict) shape: the schema served, and the one
/// calls are checked against (the served one with the rules it moved into descriptions); or why
/// it has none.
pub(crate) fn strict_input(schema: &SchemaObject) -> Result<(SchemaObject, SchemaObject), String> {
    let shaped = strict::strict(portable::portable((**schema).clone()))?;
    Ok((Arc::new(shaped.served), Arc::new(shaped.enforced)))
}

/// The keyword naming the HTTP header an argument is mirrored into (SEP-2243).
pub const HEADER_KEYWORD: &str = "x-mcp-header";

/// Builds the input schema of a tool whose parameters are the arguments, one property each.
///
/// ```
/// use mcp_tool_runtime::schema::InputSchemaBuilder;
///
/// let mut schema = InputSchemaBuilder::new();
/// schema.param::<String>("number", Some("The invoice number."));
/// schema.param::<Option<u32>>("limit", None);
/// let schema = schema.finish();
/// assert_eq!(schema["required"], serde_json::json!(["number"]));
/// assert_eq!(schema["properties"]["number"]["description"], "The invoice number.");
/// ```
pub struct InputSchemaBuilder {
    generator: SchemaGenerator,
    properties: Map<String, Value>,
    required: Vec<Value>,
}

impl Default for InputSchemaBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl InputSchemaBuilder {
    /// An input schema with no arguments yet: `{"type": "object"}`.
    pub fn new() -> Self {
        InputSchemaBuilder {
            generator: generator_for_input(),
            properties: Map::new(),
            required: Vec::new(),
        }
    }

    /// Adds the argument `name` of type `T`. It is `required` unless `T` admits `null` (an
    /// `Option`, however it is spelled), which is also when
    /// [`ToolCall::argument`](crate::ToolCall::argument) reads a missing one as `null`.
    pub fn param<T: JsonSchema + ?Sized>(
        &mut self,
        name: &str,
        description: Option<&str>,
    ) -> &mut Self {
        let mut schema = self.generator.subschema_for::<T>().to_value();
        let required = match &mut schema {
            Value::Object(map) => {
                if let Some(description) = description {
                    map.insert("description".to_owned(), description.into());
                }
                !admits_null(map)
            }
            // `true`: any value, `null` included.
            _ => false,
        };
        self.properties.insert(name.to_owned(), schema);
        if required {
            self.required.push(name.into());
        }
        self
    }

    /// Marks the argument `name` as mirrored into the `Mcp-Param-{header}` HTTP header
    /// (`"x-mcp-header": header`, SEP-2243). Registration checks the header name and the
    /// argument's type; `#[arg(header = "...")]` checks them at compile time.
    ///
    /// ```
    /// use mcp_tool_runtime::schema::InputSchemaBuilder;
    ///
    /// let mut schema = InputSchemaBuilder::new();
    /// schema.param::<String>("region", None).header("region", "Region");
    /// assert_eq!(schema.finish()["properties"]["region"]["x-mcp-header"], "Region");
    /// ```
    pub fn header(&mut self, name: &str, header: &str) -> &mut Self {
        if let Some(Value::Object(property)) = self.properties.get_mut(name) {
            property.insert(HEADER_KEYWORD.to_owned(), header.into());
        }
        self
    }

    /// The finished schema.
    pub fn finish(mut self) -> Map<String, Value> {
        let mut root = Map::new();
        root.insert("type".to_owned(), "object".into());
        if !self.properties.is_empty() {
            root.insert("properties".to_owned(), Value::Object(self.properties));
        }
        if !self.required.is_empty() {
            root.insert("required".to_owned(), Value::Array(self.required));
        }
        let defs = self.generator.take_definitions(true);
        if !defs.is_empty() {
            root.insert("$defs".to_owned(), Value::Object(defs));
        }
        root
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_reference_to_an_object_is_inlined() {
        let schema = build_output_schema(
            json!({"$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {}}}}),
            AllowNone::No,
        );
        assert_eq!(schema.shape, Shape::Object);
        assert_eq!(schema.schema()["type"], "object");
    }

    #[test]
    fn a_root_reference_to_a_non_object_is_wrapped() {
        let schema = build_output_schema(
            json!({"$ref": "#/$defs/A", "$defs": {"A": {"type": "string"}}}),
            AllowNone::No,
        );
        assert_eq!(schema.shape, Shape::Wrapped);
        assert_eq!(schema.schema()["properties"]["result"]["type"], "string");
        assert!(schema.schema()["$defs"]["A"].is_object());
    }

    #[test]
    fn the_any_schema_admits_nothing_and_is_wrapped() {
        let schema = build_output_schema(json!(true), AllowNone::No);
        assert_eq!(schema.shape, Shape::Wrapped);
        assert!(schema.schema()["anyOf"].is_array());
    }
}
