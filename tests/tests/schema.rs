//! Output and input schemas: 2020-12, object roots, wrapping, `{}`, caching, serde attributes.

use std::sync::Arc;

use mcp_tool_runtime::{
    AllowNone, ResultOptions, build_tool_result, check_conforms, schema::InputSchemaBuilder,
    schema::input_schema_of, schema::output_schema, structured::Shape, structured::WRAPPED_MARKER,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Validates a payload, served the way a tool with this output type serves it, against the schema.
fn conforms<T: Serialize + JsonSchema + 'static>(
    payload: &T,
    allow_none: AllowNone,
) -> Result<(), String> {
    let output = output_schema::<T>(allow_none);
    let (schema, shape) = (output.schema(), output.shape());
    let result = build_tool_result(payload, &ResultOptions::new("t").shape(shape));
    let entry = json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": &**schema});
    check_conforms(&entry, &serde_json::to_value(&result).unwrap())
}

fn validates(schema: &Value, instance: &Value) -> bool {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap()
        .is_valid(instance)
}

#[derive(Serialize, JsonSchema)]
struct Invoice {
    /// The invoice number.
    number: String,
    total_cents: u64,
}

#[test]
fn schemas_are_2020_12_without_a_schema_key_and_doc_comments_are_descriptions() {
    let schema = output_schema::<Invoice>(AllowNone::No).schema().clone();
    assert!(schema.get("$schema").is_none());
    assert_eq!(schema["type"], "object");
    assert_eq!(
        schema["properties"]["number"]["description"],
        "The invoice number."
    );
    assert_eq!(schema["required"], json!(["number", "total_cents"]));
}

#[test]
fn non_object_roots_are_wrapped_with_a_marker() {
    #[derive(Serialize, JsonSchema)]
    #[allow(dead_code)]
    enum Status {
        Open,
        Paid { on: String },
    }
    #[derive(Serialize, JsonSchema)]
    struct Cents(u64);

    for (schema, inner_type) in [
        (output_schema::<Vec<Invoice>>(AllowNone::No), Some("array")),
        (output_schema::<String>(AllowNone::No), Some("string")),
        (output_schema::<u32>(AllowNone::No), Some("integer")),
        (output_schema::<bool>(AllowNone::No), Some("boolean")),
        (output_schema::<Status>(AllowNone::No), None),
        (output_schema::<Cents>(AllowNone::No), Some("integer")),
    ] {
        assert_eq!(schema.shape(), Shape::Wrapped);
        let root = schema.schema();
        assert_eq!(root["type"], "object");
        assert_eq!(root["required"], json!(["result"]));
        assert_eq!(root[WRAPPED_MARKER], true);
        if let Some(t) = inner_type {
            assert_eq!(root["properties"]["result"]["type"], t);
        }
    }
    assert!(
        conforms(
            &vec![Invoice {
                number: "1".into(),
                total_cents: 2
            }],
            AllowNone::No
        )
        .is_ok()
    );
    assert!(conforms(&Status::Paid { on: "today".into() }, AllowNone::No).is_ok());
    assert!(conforms(&Status::Open, AllowNone::No).is_ok());
    assert!(conforms(&Cents(5), AllowNone::No).is_ok());
}

#[test]
fn a_list_schema_refers_to_its_items_through_root_defs() {
    let schema = output_schema::<Vec<Invoice>>(AllowNone::No)
        .schema()
        .clone();
    let wrapped = Value::Object((*schema).clone());
    assert!(validates(
        &wrapped,
        &json!({"result": [{"number": "1", "total_cents": 3}]})
    ));
    assert!(!validates(
        &wrapped,
        &json!({"result": [{"number": 1, "total_cents": 3}]})
    ));
}

#[derive(Serialize, JsonSchema)]
struct Tree {
    label: String,
    children: Vec<Tree>,
}

#[test]
fn recursive_types_keep_working_plain_and_wrapped() {
    let tree = Tree {
        label: "root".into(),
        children: vec![Tree {
            label: "leaf".into(),
            children: vec![],
        }],
    };
    conforms(&tree, AllowNone::No).unwrap();
    conforms(&vec![tree], AllowNone::No).unwrap();
    let wrapped = Value::Object((**output_schema::<Vec<Tree>>(AllowNone::No).schema()).clone());
    assert!(!validates(
        &wrapped,
        &json!({"result": [{"label": "a", "children": [{"label": 5, "children": []}]}]})
    ));
    let plain = Value::Object((**output_schema::<Tree>(AllowNone::No).schema()).clone());
    assert!(!validates(
        &plain,
        &json!({"label": "a", "children": [{"label": 5, "children": []}]})
    ));
}

#[test]
fn may_be_empty_admits_the_empty_object_but_not_a_partial_one() {
    let schema = Value::Object((**output_schema::<Invoice>(AllowNone::Yes).schema()).clone());
    assert_eq!(schema["type"], "object");
    assert!(validates(&schema, &json!({})));
    assert!(validates(
        &schema,
        &json!({"number": "1", "total_cents": 2})
    ));
    assert!(!validates(&schema, &json!({"number": "1"})));

    let strict = Value::Object((**output_schema::<Invoice>(AllowNone::No).schema()).clone());
    assert!(!validates(&strict, &json!({})));
}

#[test]
fn unit_is_served_and_described_as_the_empty_object() {
    let schema = output_schema::<()>(AllowNone::No);
    let value = Value::Object((**schema.schema()).clone());
    assert!(validates(&value, &json!({})));
    assert!(!validates(&value, &json!({"a": 1})));
    conforms(&(), AllowNone::No).unwrap();
}

/// Schemas have one cache: the toolbox's entries. Each is built once, at registration; listing
/// and calling build none.
#[test]
fn schemas_are_built_once_per_tool_at_registration() {
    use mcp_tool_runtime::{BoxFuture, Tool, ToolCall, ToolDeclaration, ToolResult, Toolbox};
    use std::sync::atomic::{AtomicUsize, Ordering};

    static INPUT_BUILDS: AtomicUsize = AtomicUsize::new(0);
    static OUTPUT_BUILDS: AtomicUsize = AtomicUsize::new(0);
    struct Counted;
    impl Tool for Counted {
        fn declaration(&self) -> ToolDeclaration {
            ToolDeclaration::new("counted")
                .input_schema(|| {
                    INPUT_BUILDS.fetch_add(1, Ordering::SeqCst);
                    input_schema_of::<Invoice>()
                })
                .output_schema(|| {
                    OUTPUT_BUILDS.fetch_add(1, Ordering::SeqCst);
                    output_schema::<Invoice>(AllowNone::No)
                })
        }
        fn call<'a>(&'a self, call: ToolCall<'a>) -> BoxFuture<'a, ToolResult> {
            Box::pin(async move { call.finish(&json!({"number": "7"})) })
        }
    }
    let mut toolbox = Toolbox::new();
    toolbox.register(Counted).unwrap();
    let first = toolbox.list_tools()[0].output_schema.clone().unwrap();
    for _ in 0..3 {
        toolbox.list_tools();
        block_on(toolbox.call_tool("counted", json!({"number": "7"}))).unwrap();
    }
    assert!(Arc::ptr_eq(
        &first,
        toolbox.list_tools()[0].output_schema.as_ref().unwrap()
    ));
    assert_eq!(INPUT_BUILDS.load(Ordering::SeqCst), 1);
    assert_eq!(OUTPUT_BUILDS.load(Ordering::SeqCst), 1);
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

#[test]
fn input_schemas_refuse_additional_properties() {
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct NewInvoice {
        /// Who pays.
        customer: String,
        #[serde(default)]
        note: Option<String>,
    }
    let schema = input_schema_of::<NewInvoice>();
    // The type's own: it does not refuse unknown fields, nor does its schema.
    assert!(schema.get("additionalProperties").is_none());
    assert_eq!(schema["required"], json!(["customer"]));
    assert!(schema.get("$schema").is_none());

    assert_eq!(
        Value::Object(InputSchemaBuilder::new().finish()),
        json!({"type": "object"})
    );
}

// Serde attributes shape the payload and its schema from one declaration.

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Renamed {
    total_cents: u64,
    #[serde(rename = "ID")]
    id: String,
    #[serde(skip)]
    #[allow(dead_code)]
    secret: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(flatten)]
    extra: Flattened,
}

#[derive(Serialize, JsonSchema)]
struct Flattened {
    region: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(tag = "kind")]
enum Internal {
    Card { last4: String },
    Cash,
}

#[derive(Serialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Amount(u64),
    Note(String),
}

#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
enum Untagged {
    Number(u64),
    Pair { a: String, b: String },
}

#[derive(Serialize, JsonSchema)]
enum External {
    Open,
    Paid(String),
    Split { parts: u8 },
}

#[test]
fn skip_and_rename_shape_the_schema_and_the_payload_alike() {
    let schema = output_schema::<Renamed>(AllowNone::No).schema().clone();
    let properties = schema["properties"].as_object().unwrap();
    assert!(properties.contains_key("totalCents"));
    assert!(properties.contains_key("ID"));
    assert!(
        properties.contains_key("region"),
        "flattened fields are properties"
    );
    assert!(!properties.contains_key("secret"));

    let payload = Renamed {
        total_cents: 5,
        id: "x".into(),
        secret: "hidden".into(),
        note: None,
        extra: Flattened {
            region: "eu".into(),
        },
    };
    let served = build_tool_result(&payload, &ResultOptions::new("t"))
        .structured_content
        .unwrap();
    assert_eq!(served, json!({"ID": "x", "region": "eu", "totalCents": 5}));
    conforms(&payload, AllowNone::No).unwrap();
    conforms(
        &Renamed {
            note: Some("n".into()),
            ..payload
        },
        AllowNone::No,
    )
    .unwrap();
}

#[test]
fn every_serde_enum_tagging_conforms_to_its_own_schema() {
    conforms(
        &Internal::Card {
            last4: "1234".into(),
        },
        AllowNone::No,
    )
    .unwrap();
    conforms(&Internal::Cash, AllowNone::No).unwrap();
    conforms(&Adjacent::Amount(5), AllowNone::No).unwrap();
    conforms(&Adjacent::Note("n".into()), AllowNone::No).unwrap();
    conforms(&Untagged::Number(5), AllowNone::No).unwrap();
    conforms(
        &Untagged::Pair {
            a: "a".into(),
            b: "b".into(),
        },
        AllowNone::No,
    )
    .unwrap();
    conforms(&External::Open, AllowNone::No).unwrap();
    conforms(&External::Paid("now".into()), AllowNone::No).unwrap();
    conforms(&External::Split { parts: 2 }, AllowNone::No).unwrap();
    conforms(&vec![Internal::Cash], AllowNone::No).unwrap();
    conforms(&Some(Internal::Cash), AllowNone::Yes).unwrap();
    conforms(&None::<Internal>, AllowNone::Yes).unwrap();
}

#[test]
fn a_payload_that_breaks_its_schema_is_caught() {
    // The check is not vacuous: a wrong tag fails.
    let schema = output_schema::<Internal>(AllowNone::No).schema().clone();
    let entry = json!({"name": "t", "inputSchema": {}, "outputSchema": &*schema});
    let wrong = json!({"content": [], "structuredContent": {"kind": "Cheque"}});
    assert!(check_conforms(&entry, &wrong).is_err());
}

#[test]
fn the_any_type_is_wrapped_and_admits_nothing() {
    let schema = output_schema::<Value>(AllowNone::No);
    assert_eq!(schema.shape(), Shape::Wrapped);
    conforms(&json!({"a": 1}), AllowNone::No).unwrap();
    conforms(&json!([1]), AllowNone::No).unwrap();
    conforms(&Value::Null, AllowNone::No).unwrap();
}

#[test]
fn the_runtime_types_tools_return_describe_themselves_without_rustdoc_examples() {
    use mcp_tool_runtime::{
        ResourceContents, ResourceLink, content::Annotations, content::EmbeddedResource,
    };
    for schema in [
        output_schema::<Vec<ResourceLink>>(AllowNone::No).schema(),
        output_schema::<ResourceContents>(AllowNone::No).schema(),
        output_schema::<EmbeddedResource>(AllowNone::No).schema(),
        output_schema::<Annotations>(AllowNone::No).schema(),
    ] {
        let text = serde_json::to_string(&**schema).unwrap();
        assert!(!text.contains("```"), "{text}");
        assert!(!text.contains("assert"), "{text}");
    }
    let links =
        serde_json::to_string(&**output_schema::<Vec<ResourceLink>>(AllowNone::No).schema())
            .unwrap();
    assert!(links.contains("A link to a resource the client may read or subscribe to."));
}
