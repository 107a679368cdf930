//! Arguments held to the rules their `inputSchema` states: every bound, length, pattern, format
//! and `enum` a schemars attribute writes is checked before the body runs, each value just inside
//! a bound accepted and just outside it refused with an `isError` naming the argument and the
//! rule; a rule that cannot be checked is refused at registration.

use std::sync::Arc;

use mcp_tool_runtime::{
    BoxFuture, RegistrationError, Tool, ToolCall, ToolDeclaration, ToolResult, Toolbox, mcp_tool,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::fixtures::{call, error_text};

#[derive(Deserialize, JsonSchema)]
struct Order {
    /// How many, 1 to 100.
    #[schemars(range(min = 1, max = 100))]
    quantity: u32,
    /// A code of 2 to 5 letters.
    #[schemars(length(min = 2, max = 5), regex(pattern = r"^[A-Z]+$"))]
    code: String,
    /// Who to tell.
    #[schemars(email)]
    contact: Option<String>,
    /// Where the order is from.
    #[schemars(url)]
    origin: Option<String>,
    /// A size, one of three.
    #[schemars(extend("enum" = ["s", "m", "l"]))]
    size: Option<String>,
    /// The lines, at least one.
    #[schemars(length(min = 1))]
    lines: Option<Vec<Line>>,
}

#[derive(Deserialize, JsonSchema)]
struct Line {
    #[schemars(range(min = 1))]
    quantity: u32,
}

/// Places an order, and says what was ordered.
#[mcp_tool]
fn order(#[args] order: Order) -> String {
    let lines: u32 = order.lines.iter().flatten().map(|line| line.quantity).sum();
    format!(
        "{} x {} for {:?} from {:?} in size {:?}, {lines} on lines",
        order.quantity, order.code, order.contact, order.origin, order.size
    )
}

/// Adds two numbers: no rule beyond serde's.
#[mcp_tool]
fn plain(a: i64, b: u32) -> i64 {
    a + i64::from(b)
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox.register(order::tool()).unwrap();
    toolbox.register(plain::tool()).unwrap();
    toolbox
}

fn with(changes: Value) -> Value {
    let mut arguments = json!({"quantity": 1, "code": "AB"});
    for (key, value) in changes.as_object().unwrap() {
        arguments[key] = value.clone();
    }
    arguments
}

async fn accepted(toolbox: &Toolbox, changes: Value) {
    let result = call(toolbox, "order", with(changes.clone())).await;
    assert!(
        !result.is_error,
        "{changes} was refused: {:?}",
        result.text()
    );
}

async fn refused(toolbox: &Toolbox, changes: Value, argument: &str, rule: &str) {
    let result = call(toolbox, "order", with(changes.clone())).await;
    assert!(result.is_error, "{changes} was accepted");
    let text = error_text(&result);
    assert!(
        text.starts_with(&format!("invalid argument `{argument}`"))
            && text.contains(&format!("the `{rule}` rule")),
        "{changes}: {text}"
    );
}

#[tokio::test]
async fn a_range_is_held_at_both_ends() {
    let toolbox = toolbox();
    accepted(&toolbox, json!({"quantity": 1})).await;
    accepted(&toolbox, json!({"quantity": 100})).await;
    refused(&toolbox, json!({"quantity": 0}), "quantity", "minimum").await;
    refused(&toolbox, json!({"quantity": 101}), "quantity", "maximum").await;
}

#[tokio::test]
async fn a_length_and_a_pattern_are_held() {
    let toolbox = toolbox();
    accepted(&toolbox, json!({"code": "AB"})).await;
    accepted(&toolbox, json!({"code": "ABCDE"})).await;
    refused(&toolbox, json!({"code": "A"}), "code", "minLength").await;
    refused(&toolbox, json!({"code": "ABCDEF"}), "code", "maxLength").await;
    refused(&toolbox, json!({"code": "ab"}), "code", "pattern").await;
}

#[tokio::test]
async fn formats_are_held() {
    let toolbox = toolbox();
    accepted(&toolbox, json!({"contact": "ada@example.com"})).await;
    refused(&toolbox, json!({"contact": "ada"}), "contact", "format").await;
    accepted(&toolbox, json!({"origin": "https://example.com/shop"})).await;
    refused(&toolbox, json!({"origin": "not a url"}), "origin", "format").await;
    // An optional argument left out, or sent as `null`, breaks no rule.
    accepted(&toolbox, json!({"contact": null})).await;
}

#[tokio::test]
async fn an_extended_enum_is_held() {
    let toolbox = toolbox();
    accepted(&toolbox, json!({"size": "m"})).await;
    refused(&toolbox, json!({"size": "xl"}), "size", "enum").await;
}

#[tokio::test]
async fn a_rule_inside_an_argument_names_its_path() {
    let toolbox = toolbox();
    accepted(&toolbox, json!({"lines": [{"quantity": 1}]})).await;
    refused(&toolbox, json!({"lines": []}), "lines", "minItems").await;
    let result = call(
        &toolbox,
        "order",
        with(json!({"lines": [{"quantity": 1}, {"quantity": 0}]})),
    )
    .await;
    let text = error_text(&result);
    assert!(
        text.starts_with("invalid argument `lines` at `lines[1].quantity` of tool `order`: it breaks the `minimum` rule"),
        "{text}"
    );
    assert!(text.ends_with("(got a number `0`)"), "{text}");
}

#[tokio::test]
async fn the_rules_checked_are_the_ones_served() {
    let toolbox = toolbox();
    let schema = &toolbox
        .list_tools()
        .iter()
        .find(|t| t.name == "order")
        .unwrap()
        .input_schema;
    let quantity = &schema["properties"]["quantity"];
    assert_eq!(
        (quantity["minimum"].clone(), quantity["maximum"].clone()),
        (json!(1), json!(100))
    );
    assert_eq!(schema["properties"]["code"]["pattern"], "^[A-Z]+$");
    // And a tool that states no rule beyond serde's still refuses what serde refuses.
    let result = call(&toolbox, "plain", json!({"a": 1, "b": -1})).await;
    assert!(result.is_error);
    assert!(
        error_text(&result).contains("argument `b`"),
        "{}",
        error_text(&result)
    );
    let result = call(&toolbox, "plain", json!({"a": 1, "b": 2})).await;
    assert_eq!(result.structured_content, Some(json!({"result": 3})));
}

/// A tool declared by hand, whose `inputSchema` is `schema`.
struct Declared(Value);

impl Tool for Declared {
    fn declaration(&self) -> ToolDeclaration {
        let schema = Arc::new(self.0.as_object().unwrap().clone());
        ToolDeclaration::new("declared").input_schema(leak(schema))
    }
    fn call<'a>(&'a self, call: ToolCall<'a>) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move { call.finish(&()) })
    }
}

/// `ToolDeclaration::input_schema` is a `fn`: a schema made at run time is handed over through
/// a static, one per test.
fn leak(
    schema: Arc<serde_json::Map<String, Value>>,
) -> fn() -> Arc<serde_json::Map<String, Value>> {
    static SCHEMA: std::sync::OnceLock<Arc<serde_json::Map<String, Value>>> =
        std::sync::OnceLock::new();
    let _ = SCHEMA.set(schema);
    || SCHEMA.get().unwrap().clone()
}

#[test]
fn a_rule_nothing_can_check_is_refused_at_registration() {
    let schema =
        json!({"type": "object", "properties": {"zip": {"type": "string", "format": "zipcode"}}});
    let err = Toolbox::new().register(Declared(schema)).unwrap_err();
    let RegistrationError::UncheckableArguments { tool, reason } = &err else {
        panic!("{err}");
    };
    assert_eq!(tool, "declared");
    assert!(reason.contains(r#"`"format": "zipcode"`"#), "{reason}");
    assert!(
        err.to_string()
            .starts_with("tool `declared` cannot be registered"),
        "{err}"
    );
}
