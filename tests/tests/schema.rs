//! Output and input schemas: 2020-12, object roots, wrapping, `{}`, caching, serde attributes.

use std::sync::Arc;

use mcp_tool_runtime::{
    InputSchemaBuilder, OutputSchema, ResultOptions, Shape, WRAPPED_MARKER, build_tool_result,
    check_conforms, input_schema_of, output_schema,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Validates a payload, served the way a tool with this output type serves it, against the schema.
fn conforms<T: Serialize + JsonSchema + 'static>(
    payload: &T,
    may_be_empty: bool,
) -> Result<(), String> {
    let OutputSchema { schema, shape } = output_schema::<T>(may_be_empty);
    let result = build_tool_result(payload, &ResultOptions::new("t").shape(shape));
    let entry = json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": &*schema});
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
    let schema = output_schema::<Invoice>(false).schema;
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
        (output_schema::<Vec<Invoice>>(false), Some("array")),
        (output_schema::<String>(false), Some("string")),
        (output_schema::<u32>(false), Some("integer")),
        (output_schema::<bool>(false), Some("boolean")),
        (output_schema::<Status>(false), None),
        (output_schema::<Cents>(false), Some("integer")),
    ] {
        assert_eq!(schema.shape, Shape::Wrapped);
        let root = &schema.schema;
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
            false
        )
        .is_ok()
    );
    assert!(conforms(&Status::Paid { on: "today".into() }, false).is_ok());
    assert!(conforms(&Status::Open, false).is_ok());
    assert!(conforms(&Cents(5), false).is_ok());
}

#[test]
fn a_list_schema_refers_to_its_items_through_root_defs() {
    let schema = output_schema::<Vec<Invoice>>(false).schema;
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
    conforms(&tree, false).unwrap();
    conforms(&vec![tree], false).unwrap();
    let wrapped = Value::Object((*output_schema::<Vec<Tree>>(false).schema).clone());
    assert!(!validates(
        &wrapped,
        &json!({"result": [{"label": "a", "children": [{"label": 5, "children": []}]}]})
    ));
    let plain = Value::Object((*output_schema::<Tree>(false).schema).clone());
    assert!(!validates(
        &plain,
        &json!({"label": "a", "children": [{"label": 5, "children": []}]})
    ));
}

#[test]
fn may_be_empty_admits_the_empty_object_but_not_a_partial_one() {
    let schema = Value::Object((*output_schema::<Invoice>(true).schema).clone());
    assert_eq!(schema["type"], "object");
    assert!(validates(&schema, &json!({})));
    assert!(validates(
        &schema,
        &json!({"number": "1", "total_cents": 2})
    ));
    assert!(!validates(&schema, &json!({"number": "1"})));

    let strict = Value::Object((*output_schema::<Invoice>(false).schema).clone());
    assert!(!validates(&strict, &json!({})));
}

#[test]
fn unit_is_served_and_described_as_the_empty_object() {
    let schema = output_schema::<()>(false);
    let value = Value::Object((*schema.schema).clone());
    assert!(validates(&value, &json!({})));
    assert!(!validates(&value, &json!({"a": 1})));
    conforms(&(), false).unwrap();
}

#[test]
fn schemas_are_generated_once_per_type_for_the_whole_process() {
    let first = output_schema::<Invoice>(false).schema;
    let again = output_schema::<Invoice>(false).schema;
    assert!(Arc::ptr_eq(&first, &again));
    let from_thread = std::thread::spawn(|| output_schema::<Invoice>(false).schema)
        .join()
        .unwrap();
    assert!(
        Arc::ptr_eq(&first, &from_thread),
        "the cache is per process, not per thread"
    );

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        a: u8,
    }
    assert!(Arc::ptr_eq(
        &input_schema_of::<Args>(),
        &input_schema_of::<Args>()
    ));
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
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["required"], json!(["customer"]));
    assert!(schema.get("$schema").is_none());

    assert_eq!(
        Value::Object(InputSchemaBuilder::new().finish()),
        json!({"type": "object", "additionalProperties": false})
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
    let schema = output_schema::<Renamed>(false).schema;
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
    conforms(&payload, false).unwrap();
    conforms(
        &Renamed {
            note: Some("n".into()),
            ..payload
        },
        false,
    )
    .unwrap();
}

#[test]
fn every_serde_enum_tagging_conforms_to_its_own_schema() {
    conforms(
        &Internal::Card {
            last4: "1234".into(),
        },
        false,
    )
    .unwrap();
    conforms(&Internal::Cash, false).unwrap();
    conforms(&Adjacent::Amount(5), false).unwrap();
    conforms(&Adjacent::Note("n".into()), false).unwrap();
    conforms(&Untagged::Number(5), false).unwrap();
    conforms(
        &Untagged::Pair {
            a: "a".into(),
            b: "b".into(),
        },
        false,
    )
    .unwrap();
    conforms(&External::Open, false).unwrap();
    conforms(&External::Paid("now".into()), false).unwrap();
    conforms(&External::Split { parts: 2 }, false).unwrap();
    conforms(&vec![Internal::Cash], false).unwrap();
    conforms(&Some(Internal::Cash), true).unwrap();
    conforms(&None::<Internal>, true).unwrap();
}

#[test]
fn a_payload_that_breaks_its_schema_is_caught() {
    // The check is not vacuous: a wrong tag fails.
    let schema = output_schema::<Internal>(false).schema;
    let entry = json!({"name": "t", "inputSchema": {}, "outputSchema": &*schema});
    let wrong = json!({"content": [], "structuredContent": {"kind": "Cheque"}});
    assert!(check_conforms(&entry, &wrong).is_err());
}

#[test]
fn the_any_type_is_wrapped_and_admits_nothing() {
    let schema = output_schema::<Value>(false);
    assert_eq!(schema.shape, Shape::Wrapped);
    conforms(&json!({"a": 1}), false).unwrap();
    conforms(&json!([1]), false).unwrap();
    conforms(&Value::Null, false).unwrap();
}

#[test]
fn the_runtime_types_tools_return_describe_themselves_without_rustdoc_examples() {
    use mcp_tool_runtime::{Annotations, EmbeddedResource, ResourceContents, ResourceLink};
    for schema in [
        output_schema::<Vec<ResourceLink>>(false).schema,
        output_schema::<ResourceContents>(false).schema,
        output_schema::<EmbeddedResource>(false).schema,
        output_schema::<Annotations>(false).schema,
    ] {
        let text = serde_json::to_string(&*schema).unwrap();
        assert!(!text.contains("```"), "{text}");
        assert!(!text.contains("assert"), "{text}");
    }
    let links = serde_json::to_string(&*output_schema::<Vec<ResourceLink>>(false).schema).unwrap();
    assert!(links.contains("A link to a resource the client may read or subscribe to."));
}
