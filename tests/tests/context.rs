//! The call context through a `Toolbox`: a `Recording` in place of a client, and the detached
//! context `Toolbox::call_tool` gives. (Over the wire, with real clients: `e2e.rs`.)

use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_tool_runtime::context::{
    Capability, ClientRequestError, Elicitation, LogLevel, Recorded, Recording, SamplingRequest,
};
use mcp_tool_runtime::{ToolContext, Toolbox, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// Counts to `n`, reporting progress and logging.
#[mcp_tool]
async fn count(ctx: &ToolContext, n: u32) -> u32 {
    for i in 1..=n {
        ctx.progress_with_message(f64::from(i), Some(f64::from(n)), format!("{i} of {n}"))
            .await;
    }
    ctx.log(LogLevel::Debug, json!({"counted": n})).await;
    n
}

/// Takes the context by value, after an argument, under another name.
#[mcp_tool]
async fn by_value(label: String, context: mcp_tool_runtime::context::ToolContext) -> String {
    context.log(LogLevel::Info, &label).await;
    label
}

/// A signup form.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Signup {
    /// Who signs up.
    name: String,
    /// How old they are.
    age: Option<u8>,
}

/// Asks the user to sign up.
#[mcp_tool]
async fn signup(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    Ok(
        match ctx.elicit::<Signup>("signup", "Please sign up").await? {
            Elicitation::Accepted(Signup { name, age }) => format!("{name} ({age:?})"),
            Elicitation::Declined => "declined".to_owned(),
            Elicitation::Cancelled => "cancelled".to_owned(),
        },
    )
}

/// Asks the model, then the roots.
#[mcp_tool]
async fn ask_model(ctx: &ToolContext, question: String) -> Result<String, ClientRequestError> {
    let answer = ctx
        .sample(
            "model",
            SamplingRequest::new(question, 20).system_prompt("Be brief."),
        )
        .await?;
    let roots = ctx.list_roots("roots").await?;
    Ok(format!(
        "{} / {}",
        answer.text().unwrap_or_default(),
        roots.len()
    ))
}

/// Waits until cancelled.
#[mcp_tool]
async fn wait_for_cancel(ctx: ToolContext) -> bool {
    ctx.cancelled().await;
    ctx.is_cancelled()
}

/// A clone of the context kept past the call, to show nothing is sent after the result.
static KEPT: Mutex<Option<ToolContext>> = Mutex::new(None);

/// Keeps its context.
#[mcp_tool]
fn keep(ctx: &ToolContext) -> u8 {
    *KEPT.lock().unwrap() = Some(ctx.clone());
    1
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox
        .register(count::tool())
        .unwrap()
        .register(by_value::tool())
        .unwrap()
        .register(signup::tool())
        .unwrap()
        .register(ask_model::tool())
        .unwrap()
        .register(wait_for_cancel::tool())
        .unwrap()
        .register(keep::tool())
        .unwrap();
    toolbox
}

fn text(result: &mcp_tool_runtime::ToolResult) -> Value {
    result.structured_content.clone().unwrap()["result"].clone()
}

/// Calls `signup` with the recording's context.
async fn call_signup(recording: &Recording) -> mcp_tool_runtime::ToolResult {
    toolbox()
        .call_tool_with("signup", json!({}), recording.context())
        .await
        .unwrap()
}

/// The text of a result that must be an `isError` one.
fn error_text(result: &mcp_tool_runtime::ToolResult) -> String {
    assert!(result.is_error, "not an error result");
    result.text().unwrap_or_default().to_owned()
}

#[test]
fn the_context_is_not_an_argument() {
    let toolbox = toolbox();
    let entry = |name: &str| {
        let entry = toolbox
            .list_tools()
            .iter()
            .find(|t| t.name == name)
            .unwrap();
        Value::Object((*entry.input_schema).clone())
    };
    assert_eq!(
        entry("count")["properties"],
        json!({"n": {"type": "integer", "minimum": 0, "maximum": 4294967295_u64}})
    );
    assert_eq!(entry("count")["required"], json!(["n"]));
    assert_eq!(
        entry("by_value")["properties"].as_object().unwrap().len(),
        1
    );
    assert!(
        entry("signup")
            .get("properties")
            .is_none_or(|p| p == &json!({}))
    );
}

#[tokio::test]
async fn progress_and_logs_are_recorded_in_order() {
    let recording = Recording::new();
    let result = toolbox()
        .call_tool_with("count", json!({"n": 2}), recording.context())
        .await
        .unwrap();
    assert_eq!(text(&result), 2);
    assert_eq!(
        recording.events(),
        [
            Recorded::Progress {
                progress: 1.0,
                total: Some(2.0),
                message: Some("1 of 2".into())
            },
            Recorded::Progress {
                progress: 2.0,
                total: Some(2.0),
                message: Some("2 of 2".into())
            },
            Recorded::Log {
                level: LogLevel::Debug,
                data: json!({"counted": 2})
            },
        ]
    );
}

#[tokio::test]
async fn a_context_taken_by_value_under_any_name_works() {
    let recording = Recording::new();
    toolbox()
        .call_tool_with("by_value", json!({"label": "hi"}), recording.context())
        .await
        .unwrap();
    assert_eq!(recording.logs(), [(LogLevel::Info, json!("hi"))]);
}

#[tokio::test]
async fn nothing_is_sent_after_the_result() {
    let recording = Recording::new();
    toolbox()
        .call_tool_with("keep", json!({}), recording.context())
        .await
        .unwrap();
    let kept = KEPT.lock().unwrap().take().unwrap();
    kept.progress(1.0, None).await;
    kept.log(LogLevel::Emergency, "too late").await;
    assert_eq!(recording.events(), []);
}

#[tokio::test]
async fn elicitation_is_typed_and_its_schema_comes_from_the_type() {
    for (answer, expected) in [
        (
            json!({"action": "accept", "content": {"name": "Ada", "age": 36}}),
            "Ada (Some(36))",
        ),
        (json!({"action": "decline"}), "declined"),
        (json!({"action": "cancel"}), "cancelled"),
    ] {
        let recording = Recording::new().answer("signup", answer);
        assert_eq!(text(&call_signup(&recording).await), expected);
        let requests = recording.requests();
        assert_eq!(requests.len(), 1);
        let (key, request) = &requests[0];
        assert_eq!(key, "signup");
        assert_eq!(request.capability, Capability::Elicitation);
        assert_eq!(request.params["message"], "Please sign up");
        let schema = &request.params["requestedSchema"];
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["name"]));
        assert_eq!(schema["properties"]["name"]["description"], "Who signs up.");
        assert!(schema.get("additionalProperties").is_none(), "{schema}");
    }
}

#[tokio::test]
async fn an_answer_that_does_not_fit_the_type_is_an_error_result() {
    let recording = Recording::new().answer(
        "signup",
        json!({"action": "accept", "content": {"name": 7}}),
    );
    let message = error_text(&call_signup(&recording).await);
    assert!(
        message.contains("the client's answer is invalid"),
        "{message}"
    );
}

#[tokio::test]
async fn a_capability_the_client_did_not_declare_is_refused_before_anything_is_sent() {
    let recording = Recording::new()
        .capabilities(json!({"sampling": {}}))
        .answer("signup", json!({"action": "decline"}));
    let message = error_text(&call_signup(&recording).await);
    assert!(
        message.contains("did not declare the `elicitation` capability"),
        "{message}"
    );
    assert_eq!(recording.requests(), []);
}

#[tokio::test]
async fn sampling_and_roots_round_trip_typed() {
    let recording = Recording::new()
        .answer(
            "model",
            json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"}),
        )
        .answer("roots", json!({"roots": [{"uri": "file:///a"}, {"uri": "file:///b", "name": "b"}]}));
    let result = toolbox()
        .call_tool_with(
            "ask_model",
            json!({"question": "Capital of France?"}),
            recording.context(),
        )
        .await
        .unwrap();
    assert_eq!(text(&result), "Paris / 2");
    let requests = recording.requests();
    assert_eq!(requests[0].1.params["maxTokens"], 20);
    assert_eq!(requests[0].1.params["systemPrompt"], "Be brief.");
    assert_eq!(
        requests[0].1.params["messages"][0]["content"]["text"],
        "Capital of France?"
    );
    assert_eq!(requests[1].1.capability, Capability::Roots);
}

#[tokio::test]
async fn cancellation_reaches_the_tool() {
    let recording = Recording::new();
    let toolbox = Arc::new(toolbox());
    let call = {
        let toolbox = toolbox.clone();
        let ctx = recording.context();
        tokio::spawn(async move {
            toolbox
                .call_tool_with("wait_for_cancel", json!({}), ctx)
                .await
        })
    };
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert!(!call.is_finished());
    recording.cancel();
    let result = tokio::time::timeout(Duration::from_secs(5), call)
        .await
        .expect("the tool saw the cancellation")
        .unwrap()
        .unwrap();
    assert_eq!(text(&result), true);
}

#[tokio::test]
async fn without_a_server_the_context_is_detached() {
    let toolbox = toolbox();
    // Progress and logging do nothing; the tool runs as usual.
    let counted = toolbox.call_tool("count", json!({"n": 3})).await.unwrap();
    assert_eq!(text(&counted), 3);
    // Client requests fail, naming why.
    let message = error_text(&toolbox.call_tool("signup", json!({})).await.unwrap());
    assert!(message.contains("no client to ask"), "{message}");
    let ctx = ToolContext::detached();
    assert_eq!(ctx.request_id(), None);
    assert_eq!(ctx.client_supports(Capability::Roots), None);
    assert!(!ctx.is_cancelled());
    assert_eq!(ctx.list_roots("r").await, Err(ClientRequestError::Detached));
}

/// A plain choice: its variants carry docs, not titles.
#[derive(Debug, Default, Deserialize, serde::Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Size {
    /// Small.
    #[default]
    Small,
    /// Large.
    Large,
}

/// A choice whose every variant has a title.
#[derive(Debug, Deserialize, serde::Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Topping {
    /// Cheese.
    #[schemars(title = "Extra cheese")]
    Cheese,
    /// Olives.
    #[schemars(title = "Black olives")]
    Olives,
}

/// An order form with every kind of choice and defaults.
#[derive(Debug, Deserialize, serde::Serialize, JsonSchema)]
#[serde(default)]
struct Order {
    /// The size.
    size: Size,
    /// The sauce.
    sauce: Topping,
    /// The toppings.
    toppings: Vec<Topping>,
    /// The sizes.
    sizes: Vec<Size>,
    /// How many.
    count: u32,
}

impl Default for Order {
    fn default() -> Self {
        Order {
            size: Size::Small,
            sauce: Topping::Cheese,
            toppings: Vec::new(),
            sizes: Vec::new(),
            count: 2,
        }
    }
}

/// Asks for an order.
#[mcp_tool]
async fn order(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    ctx.elicit::<Order>("order", "Your order?").await?;
    Ok("ordered".into())
}

#[tokio::test]
async fn enums_and_defaults_take_mcps_elicitation_forms() {
    let mut toolbox = Toolbox::new();
    toolbox.register(order::tool()).unwrap();
    let recording = Recording::new().answer("order", json!({"action": "decline"}));
    toolbox
        .call_tool_with("order", json!({}), recording.context())
        .await
        .unwrap();
    let schema = &recording.requests()[0].1.params["requestedSchema"]["properties"];
    // Untitled single-select: `enum`, the variants' docs dropped.
    assert_eq!(
        schema["size"],
        json!({"type": "string", "enum": ["small", "large"], "default": "small", "description": "The size."})
    );
    // Titled single-select: `oneOf` of `const` and `title`.
    assert_eq!(
        schema["sauce"],
        json!({"type": "string", "default": "cheese", "description": "The sauce.", "oneOf": [
            {"const": "cheese", "title": "Extra cheese"}, {"const": "olives", "title": "Black olives"}]})
    );
    // Titled multi-select: `items` with `anyOf`.
    assert_eq!(
        schema["toppings"]["items"],
        json!({"anyOf": [{"const": "cheese", "title": "Extra cheese"}, {"const": "olives", "title": "Black olives"}]})
    );
    assert_eq!(schema["toppings"]["type"], "array");
    // Untitled multi-select: `items` with `enum`.
    assert_eq!(
        schema["sizes"]["items"],
        json!({"type": "string", "enum": ["small", "large"]})
    );
    assert_eq!(schema["count"]["default"], 2);
}
