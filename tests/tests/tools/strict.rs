//! The strict schema profile (`#[mcp_tool(schema = strict)]`, `SchemaProfile::Strict`): every
//! object closed and every property required, the rules strict function calling refuses moved
//! into descriptions and still enforced, the calls the served schema refuses refused, and a map
//! refused at registration.

use std::collections::BTreeMap;

use mcp_tool_runtime::{RegistrationError, SchemaProfile, ServerDefaults, Toolbox, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::fixtures::{call, error_text};

#[derive(Deserialize, JsonSchema)]
struct Line {
    /// What was sold.
    item: String,
    /// How many.
    #[serde(default)]
    quantity: u32,
}

/// Books a line under a name.
#[mcp_tool(schema = strict)]
fn book(
    #[arg(description = "Up to five letters.")] name: String,
    #[arg(description = "How many to skip.")] skip: Option<u32>,
    lines: Vec<Line>,
) -> String {
    let sold: Vec<String> = lines
        .iter()
        .map(|l| format!("{}x{}", l.quantity, l.item))
        .collect();
    format!("{name} {skip:?} {}", sold.join(","))
}

/// The same tool, served in the server's profile.
#[mcp_tool]
fn book_default(name: String, skip: Option<u32>) -> String {
    format!("{name} {skip:?}")
}

#[derive(Deserialize, JsonSchema)]
struct Named {
    /// A name of at most five characters.
    #[schemars(length(max = 5))]
    name: String,
}

/// Greets a short name.
#[mcp_tool(schema = strict)]
fn greet(#[args] named: Named) -> String {
    format!("hello {}", named.name)
}

/// Counts what it is given.
#[mcp_tool(schema = strict)]
fn tally(counts: BTreeMap<String, u32>) -> u32 {
    counts.values().sum()
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.register(book::tool()).unwrap();
    toolbox.register(greet::tool()).unwrap();
    toolbox
}

fn schema_of(toolbox: &Toolbox, name: &str) -> Value {
    let tool = toolbox
        .list_tools()
        .iter()
        .find(|t| t.name == name)
        .unwrap();
    Value::Object((*tool.input_schema).clone())
}

#[test]
fn every_object_is_closed_and_requires_every_property() {
    let schema = schema_of(&toolbox(), "book");
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["required"], json!(["lines", "name", "skip"]));
    assert_eq!(
        schema["properties"]["skip"]["type"],
        json!(["integer", "null"])
    );
    let line = &schema["properties"]["lines"]["items"];
    assert_eq!(line["additionalProperties"], false);
    assert_eq!(line["required"], json!(["item", "quantity"]));
    // `default` is not taken by strict mode: the model reads it in the description.
    assert!(line["properties"]["quantity"].get("default").is_none());
    assert!(
        line["properties"]["quantity"]["description"]
            .as_str()
            .unwrap()
            .ends_with("(default: 0)"),
        "{line}"
    );
}

#[tokio::test]
async fn what_the_served_schema_admits_is_accepted() {
    let toolbox = toolbox();
    let result = call(
        &toolbox,
        "book",
        json!({"name": "Ada", "skip": null, "lines": [{"item": "x", "quantity": 2}]}),
    )
    .await;
    assert!(!result.is_error, "{:?}", result.text());
    assert!(
        result.text().unwrap().contains("Ada None 2xx"),
        "{:?}",
        result.text()
    );
}

#[tokio::test]
async fn what_it_refuses_is_an_is_error_naming_the_argument() {
    let toolbox = toolbox();
    // An optional argument left out instead of sent as `null`.
    let left_out = call(&toolbox, "book", json!({"name": "Ada", "lines": []})).await;
    assert!(left_out.is_error);
    assert!(
        error_text(&left_out).contains("`required` rule"),
        "{}",
        error_text(&left_out)
    );
    assert!(
        error_text(&left_out).contains("skip"),
        "{}",
        error_text(&left_out)
    );
    // An argument the tool does not take.
    let unknown = call(
        &toolbox,
        "book",
        json!({"name": "Ada", "skip": 1, "lines": [], "page": 2}),
    )
    .await;
    assert!(unknown.is_error);
    assert!(
        error_text(&unknown).contains("page"),
        "{}",
        error_text(&unknown)
    );
    // A nested field with a default must be sent too.
    let nested = call(
        &toolbox,
        "book",
        json!({"name": "Ada", "skip": null, "lines": [{"item": "x"}]}),
    )
    .await;
    assert!(nested.is_error);
    assert!(
        error_text(&nested).contains("`lines` at `lines[0]`"),
        "{}",
        error_text(&nested)
    );
}

#[tokio::test]
async fn a_rule_moved_into_the_description_is_still_enforced() {
    let toolbox = toolbox();
    let schema = schema_of(&toolbox, "greet");
    let name = &schema["properties"]["name"];
    assert!(name.get("maxLength").is_none(), "{name}");
    assert_eq!(
        name["description"],
        "A name of at most five characters. (`maxLength`: 5)"
    );
    let inside = call(&toolbox, "greet", json!({"name": "Grace"})).await;
    assert!(!inside.is_error, "{:?}", inside.text());
    let outside = call(&toolbox, "greet", json!({"name": "Gracie"})).await;
    assert!(outside.is_error);
    let text = error_text(&outside);
    assert!(
        text.starts_with("invalid argument `name`") && text.contains("the `maxLength` rule"),
        "{text}"
    );
}

#[test]
fn a_map_is_refused_at_registration() {
    let mut toolbox = Toolbox::new();
    let error = toolbox.register(tally::tool()).unwrap_err();
    assert!(
        matches!(&error, RegistrationError::UncheckableArguments { tool, .. } if tool == "tally"),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("`$.counts`") && message.contains("schema = portable"),
        "{message}"
    );
}

#[test]
fn a_server_default_serves_every_tool_strict() {
    let defaults = ServerDefaults {
        schema_profile: SchemaProfile::Strict,
        ..ServerDefaults::default()
    };
    let mut strict = Toolbox::with_defaults(defaults);
    strict.register(book_default::tool()).unwrap();
    assert_eq!(
        schema_of(&strict, "book_default")["required"],
        json!(["name", "skip"])
    );
    let mut portable = Toolbox::new();
    portable.register(book_default::tool()).unwrap();
    let schema = schema_of(&portable, "book_default");
    assert_eq!(schema["required"], json!(["name"]));
    assert!(schema.get("additionalProperties").is_none());
}
