//! The tools, prompts, resources, resource template and completions the official MCP
//! conformance suite calls, each declared with the toolkit's macros (`#[mcp_tool]`,
//! `#[mcp_prompt]`, `#[mcp_resource]`) and served from one toolbox.

// rmcp 3.11 marks logging deprecated (SEP-2577, a proposal); every released MCP version has it.
#![allow(deprecated)]

use std::time::Duration;

use mcp_tool_runtime::ToolboxServer;
use mcp_tool_runtime::completion::Complete;
use mcp_tool_runtime::context::{
    Capability, ClientRequestError, Elicitation, LogLevel, SamplingRequest, ToolContext,
};
use mcp_tool_runtime::prompt::Messages;
use mcp_tool_runtime::{
    Content, RegistrationError, ResourceContents, Toolbox, content::EmbeddedResource, mcp_prompt,
    mcp_resource, mcp_tool,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

const RED_PIXEL: &[u8] = include_bytes!("../assets/red-pixel.png");
const BEEP: &[u8] = include_bytes!("../assets/beep.wav");

/// Returns a simple text response.
#[mcp_tool(content = blocks)]
pub fn test_simple_text() -> Vec<Content> {
    vec![Content::text("This is a simple text response for testing.")]
}

/// Returns a 1x1 red pixel as a PNG image.
#[mcp_tool(content = image, mime_type = "image/png")]
pub fn test_image_content() -> &'static [u8] {
    RED_PIXEL
}

/// Returns a short beep as WAV audio.
#[mcp_tool(content = audio, mime_type = "audio/wav")]
pub fn test_audio_content() -> &'static [u8] {
    BEEP
}

/// Returns an embedded text resource.
#[mcp_tool(content = resource)]
pub fn test_embedded_resource() -> ResourceContents {
    ResourceContents::Text {
        uri: "test://embedded-resource".into(),
        mime_type: Some("text/plain".into()),
        text: "This is an embedded resource content.".into(),
    }
}

/// Returns text, an image and an embedded resource in one result.
#[mcp_tool(content = blocks)]
pub fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image(RED_PIXEL, "image/png"),
        Content::Resource(EmbeddedResource {
            resource: ResourceContents::Text {
                uri: "test://mixed-content-resource".into(),
                mime_type: Some("application/json".into()),
                text: r#"{"test":"data","value":123}"#.into(),
            },
            annotations: None,
        }),
    ]
}

/// Always fails, to test error results.
#[mcp_tool]
pub fn test_error_handling() -> Result<(), String> {
    Err("This tool intentionally returns an error for testing".into())
}

/// Reports progress 0, 50 and 100 out of 100, 50 ms apart.
#[mcp_tool(content = blocks)]
pub async fn test_tool_with_progress(ctx: &ToolContext) -> Vec<Content> {
    for (i, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ctx.progress(done, Some(100.0)).await;
    }
    vec![Content::text("Progress test completed")]
}

/// Sends three log lines at info level, 50 ms apart.
#[mcp_tool(content = blocks)]
pub async fn test_tool_with_logging(ctx: &ToolContext) -> Vec<Content> {
    for (i, line) in [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
    ]
    .into_iter()
    .enumerate()
    {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ctx.log(LogLevel::Info, line).await;
    }
    vec![Content::text("Logging test completed")]
}

/// Asks the client's model to answer `prompt`.
#[mcp_tool(content = blocks)]
pub async fn test_sampling(
    ctx: &ToolContext,
    #[arg(description = "The prompt to send to the LLM")] prompt: String,
) -> Result<Vec<Content>, ClientRequestError> {
    let answer = ctx
        .sample("answer", SamplingRequest::new(prompt, 100))
        .await?;
    Ok(vec![Content::text(format!(
        "LLM response: {}",
        answer.text().unwrap_or_default()
    ))])
}

/// The form `test_elicitation` asks the user to fill in.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Contact {
    /// User's response
    pub username: String,
    /// User's email address
    pub email: String,
}

/// Asks the user for a username and an email address, showing `message`.
#[mcp_tool(content = blocks)]
pub async fn test_elicitation(
    ctx: &ToolContext,
    #[arg(description = "The message to show the user")] message: String,
) -> Result<Vec<Content>, ClientRequestError> {
    let text = match ctx.elicit::<Contact>("contact", message).await? {
        Elicitation::Accepted(contact) => format!(
            "User response: <action: accept, content: {}>",
            serde_json::to_string(&contact).unwrap_or_default()
        ),
        Elicitation::Declined => "User response: <action: decline>".to_owned(),
        Elicitation::Cancelled => "User response: <action: cancel>".to_owned(),
    };
    Ok(vec![Content::text(text)])
}

/// An address, defined once in `$defs` with an anchor.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(rename = "address", extend("$anchor" = "addressDef"))]
pub struct Address {
    /// The street.
    pub street: Option<String>,
    /// The city.
    pub city: Option<String>,
}

/// How to reach someone.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ContactMethod {
    /// By phone.
    Phone,
    /// By email.
    Email,
}

/// A contact form whose rules JSON Schema 2020-12 states: a phone or an email is required, and
/// the one `contactMethod` names.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(extend(
    "$schema" = "https://json-schema.org/draft/2020-12/schema",
    "allOf" = [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if" = {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then" = {"required": ["phone"]},
    "else" = {"required": ["email"]}
))]
pub struct ContactForm {
    /// The name.
    pub name: Option<String>,
    /// The address.
    pub address: Option<Address>,
    /// How to reach them.
    pub contact_method: Option<ContactMethod>,
    /// The phone number.
    pub phone: Option<String>,
    /// The email address.
    pub email: Option<String>,
}

/// Tool with JSON Schema 2020-12 features
// Served as derived: the suite checks that `$defs` (with its `$anchor`) and
// `additionalProperties: false` are kept as written (SEP-1613), which the portable shape would
// inline and leave out.
#[mcp_tool(content = blocks, schema = as_derived)]
pub fn json_schema_2020_12_tool(#[args] form: ContactForm) -> Vec<Content> {
    vec![Content::text(format!("Received {form:?}"))]
}

/// A name, asked for by the input-required tools.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Name {
    /// The name.
    pub name: String,
}

/// A confirmation.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Confirm {
    /// Whether it is confirmed.
    pub ok: bool,
}

/// A favourite colour.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Color {
    /// The colour.
    pub color: String,
}

fn greeting(answer: Elicitation<Name>) -> String {
    match answer {
        Elicitation::Accepted(Name { name }) => format!("Hello, {name}!"),
        _ => "Hello, stranger!".to_owned(),
    }
}

/// Asks the user's name, then greets them.
#[mcp_tool(content = blocks)]
pub async fn test_input_required_result_elicitation(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    let answer = ctx
        .elicit::<Name>("user_name", "What is your name?")
        .await?;
    Ok(vec![Content::text(greeting(answer))])
}

/// Asks the client's model for the capital of France.
#[mcp_tool(content = blocks)]
pub async fn test_input_required_result_sampling(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    let request = SamplingRequest::new("What is the capital of France?", 100);
    let answer = ctx.sample("capital_question", request).await?;
    Ok(vec![Content::text(format!(
        "The model says: {}",
        answer.text().unwrap_or_default()
    ))])
}

/// Lists the client's roots.
#[mcp_tool(content = blocks)]
pub async fn test_input_required_result_list_roots(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    let roots = ctx.list_roots("client_roots").await?;
    let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
    Ok(vec![Content::text(format!(
        "Client roots: {}",
        uris.join(", ")
    ))])
}

async fn confirm(ctx: &ToolContext) -> Result<Vec<Content>, ClientRequestError> {
    let answer = ctx.elicit::<Confirm>("confirm", "Please confirm").await?;
    let ok = matches!(answer, Elicitation::Accepted(Confirm { ok: true }));
    // The answer came back with a `requestState` the server sealed and verified.
    Ok(vec![Content::text(format!("state-ok: confirmed = {ok}"))])
}

/// Asks for a confirmation; the answer comes back with the sealed request state.
#[mcp_tool(content = blocks)]
pub async fn test_input_required_result_request_state(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    confirm(ctx).await
}

/// Asks for a confirmation; a tampered request state is refused.
#[mcp_tool(content = blocks)]
pub async fn test_input_required_result_tampered_state(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    confirm(ctx).await
}

/// Asks for a name, a greeting from the model and the roots, all at once.
#[mcp_tool(content = blocks)]
pub async fn test_input_required_result_multiple_inputs(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    let (name, greeting_text, roots) = tokio::join!(
        ctx.elicit::<Name>("user_name", "What is your name?"),
        ctx.sample("greeting", SamplingRequest::new("Generate a greeting", 50)),
        ctx.list_roots("client_roots"),
    );
    Ok(vec![Content::text(format!(
        "{} The model says: {}. Roots: {}",
        greeting(name?),
        greeting_text?.text().unwrap_or_default(),
        roots?.len()
    ))])
}

/// Asks for a name, then a favourite colour: two rounds.
#[mcp_tool(content = blocks)]
pub async fn test_input_required_result_multi_round(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    let name = ctx
        .elicit::<Name>("step1", "Step 1: What is your name?")
        .await?;
    let color = ctx
        .elicit::<Color>("step2", "Step 2: What is your favorite color?")
        .await?;
    let color = color
        .accepted()
        .map_or_else(|| "no colour".to_owned(), |c| c.color);
    Ok(vec![Content::text(format!(
        "{} You like {color}.",
        greeting(name)
    ))])
}

/// Asks only what the client can answer: sampling and elicitation, each if declared.
#[mcp_tool(content = blocks)]
pub async fn test_input_required_result_capabilities(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    let (name, answer) = tokio::join!(
        ctx.elicit::<Name>("user_name", "What is your name?"),
        ctx.sample(
            "capital_question",
            SamplingRequest::new("What is the capital of France?", 100)
        ),
    );
    let describe = |supported: Option<bool>, what: String| match supported {
        Some(false) => "not asked (capability not declared)".to_owned(),
        _ => what,
    };
    let name = match name {
        Err(ClientRequestError::NotSupported(_)) => None,
        other => Some(greeting(other?)),
    };
    let answer = match answer {
        Err(ClientRequestError::NotSupported(_)) => None,
        other => Some(other?.text().unwrap_or_default().to_owned()),
    };
    Ok(vec![Content::text(format!(
        "elicitation: {}; sampling: {}",
        describe(
            ctx.client_supports(Capability::Elicitation),
            name.unwrap_or_default()
        ),
        describe(
            ctx.client_supports(Capability::Sampling),
            answer.unwrap_or_default()
        ),
    ))])
}

/// Needs sampling, which the calling client may not have declared: then the call is answered
/// with JSON-RPC -32021 (MissingRequiredClientCapability) naming it, by the serving layer.
#[mcp_tool(content = blocks)]
pub async fn test_missing_capability(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    let answer = ctx
        .sample("answer", SamplingRequest::new("Say hello.", 10))
        .await?;
    Ok(vec![Content::text(answer.text().unwrap_or_default())])
}

/// Asks the user a question: at 2026-07-28 the question travels in an input-required result,
/// never as a request of its own on the response stream.
#[mcp_tool(content = blocks)]
pub async fn test_streaming_elicitation(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    let name = ctx
        .elicit::<Name>("user_name", "What is your name?")
        .await?;
    Ok(vec![Content::text(greeting(name))])
}

/// Logs a line, then answers: a client that did not ask for log lines gets none.
#[mcp_tool(content = blocks)]
pub async fn test_logging_tool(ctx: &ToolContext) -> Vec<Content> {
    ctx.log(LogLevel::Info, "test_logging_tool ran").await;
    vec![Content::text(
        "Logged a line, if the client asked for them.",
    )]
}

/// The server whose tool list `test_trigger_tool_change` changes, set once it is built.
#[derive(Default)]
pub struct Changing(std::sync::OnceLock<ToolboxServer>);

/// Changes the tool list (adds `test_added_tool`, or removes it if it is there), so clients
/// listening for list changes are told.
#[mcp_tool(content = blocks)]
pub async fn test_trigger_tool_change(
    #[state] changing: &Changing,
) -> Result<Vec<Content>, String> {
    let server = changing.0.get().ok_or("the server is not built yet")?;
    server
        .update(|toolbox| {
            if !toolbox.remove("test_added_tool") {
                toolbox.register(test_added_tool::tool())?;
            }
            Ok::<_, RegistrationError>(())
        })
        .await
        .map_err(|e| e.to_string())?;
    Ok(vec![Content::text("The tool list changed.")])
}

/// Changes the prompt list (adds `test_added_prompt`, or removes it if it is there), so
/// clients listening for list changes are told.
#[mcp_tool(content = blocks)]
pub async fn test_trigger_prompt_change(
    #[state] changing: &Changing,
) -> Result<Vec<Content>, String> {
    let server = changing.0.get().ok_or("the server is not built yet")?;
    server
        .update(|toolbox| {
            if !toolbox.remove_prompt("test_added_prompt") {
                toolbox.register_prompt(test_added_prompt::prompt())?;
            }
            Ok::<_, RegistrationError>(())
        })
        .await
        .map_err(|e| e.to_string())?;
    Ok(vec![Content::text("The prompt list changed.")])
}

/// Added and removed by `test_trigger_prompt_change`.
#[mcp_prompt]
pub fn test_added_prompt() -> &'static str {
    "added"
}

/// Added and removed by `test_trigger_tool_change`.
#[mcp_tool(content = blocks)]
pub fn test_added_tool() -> Vec<Content> {
    vec![Content::text("added")]
}

/// How someone's account stands.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// In use.
    #[default]
    Active,
    /// Not in use.
    Inactive,
    /// Waiting.
    Pending,
}

/// A form whose every field has a default (SEP-1034), from `Default`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct Profile {
    /// The name.
    pub name: String,
    /// The age.
    pub age: u32,
    /// The score.
    pub score: f64,
    /// The account's status.
    pub status: Status,
    /// Whether it is verified.
    pub verified: bool,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            name: "John Doe".into(),
            age: 30,
            score: 95.5,
            status: Status::Active,
            verified: true,
        }
    }
}

/// Asks for a profile whose fields all have defaults.
#[mcp_tool(content = blocks)]
pub async fn test_elicitation_sep1034_defaults(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    let answer = ctx
        .elicit::<Profile>("profile", "Check your profile")
        .await?;
    Ok(vec![Content::text(elicitation_completed(answer))])
}

/// An untitled choice.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Plain {
    Option1,
    Option2,
    Option3,
}

/// A titled choice: each value with the title a person reads.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Titled {
    /// The first.
    #[schemars(title = "First Option")]
    Value1,
    /// The second.
    #[schemars(title = "Second Option")]
    Value2,
    /// The third.
    #[schemars(title = "Third Option")]
    Value3,
}

/// A titled choice for a multi-select.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Choice {
    /// The first.
    #[schemars(title = "First Choice")]
    Value1,
    /// The second.
    #[schemars(title = "Second Choice")]
    Value2,
    /// The third.
    #[schemars(title = "Third Choice")]
    Value3,
}

/// A choice written with the legacy `enumNames`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(extend("enumNames" = ["Option One", "Option Two", "Option Three"]))]
#[allow(missing_docs)]
pub enum Legacy {
    Opt1,
    Opt2,
    Opt3,
}

/// Every kind of enum an elicitation form may hold (SEP-1330).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Choices {
    /// Pick one.
    pub untitled_single: Plain,
    /// Pick one.
    pub titled_single: Titled,
    /// Pick one.
    pub legacy_enum: Legacy,
    /// Pick any.
    pub untitled_multi: Vec<Plain>,
    /// Pick any.
    pub titled_multi: Vec<Choice>,
}

/// Asks for one of each kind of enum.
#[mcp_tool(content = blocks)]
pub async fn test_elicitation_sep1330_enums(
    ctx: &ToolContext,
) -> Result<Vec<Content>, ClientRequestError> {
    let answer = ctx
        .elicit::<Choices>("choices", "Make your choices")
        .await?;
    Ok(vec![Content::text(elicitation_completed(answer))])
}

fn elicitation_completed<T: Serialize>(answer: Elicitation<T>) -> String {
    match answer {
        Elicitation::Accepted(content) => format!(
            "Elicitation completed: action=accept, content={}",
            serde_json::to_string(&content).unwrap_or_default()
        ),
        Elicitation::Declined => "Elicitation completed: action=decline, content={}".to_owned(),
        Elicitation::Cancelled => "Elicitation completed: action=cancel, content={}".to_owned(),
    }
}

/// Runs `query` in `region`, which the client also sends as the `Mcp-Param-Region` header, so a
/// load balancer can route on it (SEP-2243).
#[mcp_tool(content = blocks)]
pub fn test_header_arguments(
    #[arg(header = "Region", description = "Where to run it")] region: String,
    #[arg(description = "What to run")] query: String,
) -> Vec<Content> {
    vec![Content::text(format!("ran `{query}` in {region}"))]
}

/// Greets `name` (never a task).
#[mcp_tool(content = blocks)]
pub fn greet(name: String) -> Vec<Content> {
    vec![Content::text(format!("Hello, {name}!"))]
}

/// Computes for `seconds`, then answers; runs as a task for a client that can have one.
#[mcp_tool(content = blocks, task = optional)]
pub async fn slow_compute(seconds: f64) -> Vec<Content> {
    tokio::time::sleep(Duration::from_secs_f64(seconds.clamp(0.0, 60.0))).await;
    vec![Content::text(format!("computed after {seconds} seconds"))]
}

/// Fails after a second with a tool execution error; only ever runs as a task.
#[mcp_tool(task = required)]
pub async fn failing_job() -> Result<String, String> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err("the job failed".to_owned())
}

/// Panics: as a task, a protocol-level failure.
#[mcp_tool(task = optional)]
pub fn protocol_error_job() -> String {
    panic!("the job crashed")
}

/// Whether to delete.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Confirmation {
    /// Delete it?
    pub confirm: bool,
}

/// Asks the user to confirm deleting `filename`, then answers; as a task, the question waits
/// in it.
#[mcp_tool(content = blocks, task = optional)]
pub async fn confirm_delete(
    ctx: &ToolContext,
    filename: Option<String>,
) -> Result<Vec<Content>, ClientRequestError> {
    let filename = filename.unwrap_or_else(|| "the item".to_owned());
    let answer = ctx
        .elicit::<Confirmation>("confirm", format!("Delete {filename}?"))
        .await?;
    let text = match answer {
        Elicitation::Accepted(Confirmation { confirm: true }) => format!("deleted {filename}"),
        _ => format!("kept {filename}"),
    };
    Ok(vec![Content::text(text)])
}

/// Asks two questions at once.
#[mcp_tool(content = blocks, task = optional)]
pub async fn multi_input(ctx: &ToolContext) -> Result<Vec<Content>, ClientRequestError> {
    let (first, second) = tokio::join!(
        ctx.elicit::<Confirmation>("first", "First question?"),
        ctx.elicit::<Confirmation>("second", "Second question?"),
    );
    let (first, second) = (first?, second?);
    Ok(vec![Content::text(format!(
        "first: {}, second: {}",
        first.accepted().is_some(),
        second.accepted().is_some()
    ))])
}

/// Who the user is.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct UserName {
    /// Your name.
    pub name: String,
}

/// Asks the user's name in the call (an input-required result), then becomes a task that
/// greets them: input gathered first, the long work after (SEP-2322 with SEP-2663).
#[mcp_tool(content = blocks, task = required, escalates)]
pub async fn test_tool_with_task(ctx: &ToolContext) -> Result<Vec<Content>, ClientRequestError> {
    let name = match ctx
        .elicit::<UserName>("user_name", "What is your name?")
        .await?
    {
        Elicitation::Accepted(UserName { name }) => name,
        _ => "stranger".to_owned(),
    };
    ctx.escalate().await;
    ctx.progress_with_message(0.0, None, format!("greeting {name}"))
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    Ok(vec![Content::text(format!("Hello, {name}, from a task"))])
}

/// The conformance toolbox.
pub fn toolbox() -> Result<Toolbox, RegistrationError> {
    let mut toolbox = Toolbox::new();
    toolbox
        .register(test_tool_with_progress::tool())?
        .register(test_tool_with_logging::tool())?
        .register(test_sampling::tool())?
        .register(test_elicitation::tool())?
        .register(json_schema_2020_12_tool::tool())?
        .register(test_input_required_result_elicitation::tool())?
        .register(test_input_required_result_sampling::tool())?
        .register(test_input_required_result_list_roots::tool())?
        .register(test_input_required_result_request_state::tool())?
        .register(test_input_required_result_tampered_state::tool())?
        .register(test_input_required_result_multiple_inputs::tool())?
        .register(test_input_required_result_multi_round::tool())?
        .register(test_input_required_result_capabilities::tool())?
        .register(test_simple_text::tool())?
        .register(test_image_content::tool())?
        .register(test_audio_content::tool())?
        .register(test_embedded_resource::tool())?
        .register(test_multiple_content_types::tool())?
        .register(test_error_handling::tool())?
        .register(test_missing_capability::tool())?
        .register(test_streaming_elicitation::tool())?
        .register(test_logging_tool::tool())?
        .register(test_elicitation_sep1034_defaults::tool())?
        .register(test_elicitation_sep1330_enums::tool())?
        .register(test_header_arguments::tool())?
        .register(greet::tool())?
        .register(slow_compute::tool())?
        .register(failing_job::tool())?
        .register(protocol_error_job::tool())?
        .register(confirm_delete::tool())?
        .register(multi_input::tool())?
        .register(test_tool_with_task::tool())?;
    toolbox.insert_state(Changing::default());
    toolbox
        .register(test_trigger_tool_change::tool())?
        .register(test_trigger_prompt_change::tool())?;
    Ok(toolbox)
}

/// The conformance server: its tools, prompts, resources, template and completions, all
/// declared with the toolkit's macros, in one toolbox.
pub fn server() -> Result<ToolboxServer, Box<dyn std::error::Error + Send + Sync>> {
    let mut toolbox = toolbox()?;
    toolbox
        .register_prompt(test_input_required_result_prompt::prompt())?
        .register_prompt(test_simple_prompt::prompt())?
        .register_prompt(test_prompt_with_arguments::prompt())?
        .register_prompt(test_prompt_with_embedded_resource::prompt())?
        .register_prompt(test_prompt_with_image::prompt())?
        .register_resource(static_text::resource())?
        .register_resource(static_binary::resource())?
        .register_resource(watched_resource::resource())?
        .register_resource(template_data::resource())?;
    let server = ToolboxServer::new(toolbox)?;
    if let Some(changing) = server.toolbox().state::<Changing>() {
        let _ = changing.0.set(server.clone());
    }
    Ok(server)
}

/// The context a prompt asks the user for.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct UserContext {
    /// The context.
    pub context: String,
}

/// A prompt that asks the user for its context first
#[mcp_prompt]
pub async fn test_input_required_result_prompt(
    ctx: &ToolContext,
) -> Result<Messages, ClientRequestError> {
    let answer = ctx
        .elicit::<UserContext>("user_context", "What context should the prompt use?")
        .await?;
    let context = match answer {
        Elicitation::Accepted(UserContext { context }) => context,
        _ => "none given".to_owned(),
    };
    Ok(Messages::new().user(format!("Answer with this context in mind: {context}")))
}

/// A simple prompt without arguments
#[mcp_prompt]
pub fn test_simple_prompt() -> &'static str {
    "This is a simple prompt for testing."
}

/// A prompt with two arguments
#[mcp_prompt]
pub fn test_prompt_with_arguments(
    #[arg(description = "First test argument", complete = words)] arg1: String,
    #[arg(description = "Second test argument")] arg2: String,
) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// Completes an argument from a few known words (the toolbox filters them by what was typed).
fn words(_: &Complete<'_>) -> [&'static str; 6] {
    ["paris", "park", "party", "test", "testing", "tester"]
}

/// A prompt embedding a resource
#[mcp_prompt]
pub fn test_prompt_with_embedded_resource(
    #[arg(rename = "resourceUri", description = "URI of the resource to embed")] uri: String,
) -> Messages {
    let resource = ResourceContents::Text {
        uri,
        mime_type: Some("text/plain".to_owned()),
        text: "Embedded resource content for testing.".to_owned(),
    };
    Messages::new()
        .user_content(Content::Resource(EmbeddedResource {
            resource,
            annotations: None,
        }))
        .user("Please process the embedded resource above.")
}

/// A prompt with an image
#[mcp_prompt]
pub fn test_prompt_with_image() -> Messages {
    Messages::new()
        .user_content(Content::image(RED_PIXEL, "image/png"))
        .user("Please analyze the image above.")
}

/// A static text resource.
#[mcp_resource(
    uri = "test://static-text",
    name = "static-text",
    mime_type = "text/plain"
)]
pub fn static_text() -> &'static str {
    "This is a static text resource."
}

/// A static binary resource: a red pixel.
#[mcp_resource(
    uri = "test://static-binary",
    name = "static-binary",
    mime_type = "image/png"
)]
pub fn static_binary() -> &'static [u8] {
    RED_PIXEL
}

/// A resource clients subscribe to.
#[mcp_resource(
    uri = "test://watched-resource",
    name = "watched-resource",
    mime_type = "text/plain"
)]
pub fn watched_resource() -> &'static str {
    "This resource is watched."
}

/// What the template serves for an id.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TemplateData {
    /// The id read from the URI.
    pub id: String,
    /// Always true.
    pub template_test: bool,
    /// The data.
    pub data: String,
}

/// Data for an id, read from the URI.
#[mcp_resource(
    uri = "test://template/{id}/data",
    name = "template-data",
    mime_type = "application/json"
)]
pub fn template_data(id: String) -> TemplateData {
    TemplateData {
        data: format!("Data for ID: {id}"),
        id,
        template_test: true,
    }
}
