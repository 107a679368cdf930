//! The prompts and resources the catalog tests share.

use mcp_tool_runtime::completion::Complete;
use mcp_tool_runtime::context::{ClientRequestError, Elicitation};
use mcp_tool_runtime::prompt::Messages;
use mcp_tool_runtime::{Content, ProtocolError, ToolContext, Toolbox, mcp_prompt, mcp_resource};
use serde::{Deserialize, Serialize};

/// A tone to write in.
#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Tone {
    /// Formal.
    Formal,
    /// Friendly.
    Friendly,
    /// Terse.
    Terse,
}

/// The cities a shop ships to.
pub struct Cities(pub Vec<&'static str>);

/// Writes a reply to a customer.
///
/// In the tone asked for.
#[mcp_prompt(title = "Reply to a customer")]
pub fn reply(
    #[arg(description = "What the customer wrote")] message: String,
    tone: Tone,
    words: Option<u32>,
) -> Messages {
    let length = words.map_or_else(String::new, |n| format!(" in at most {n} words"));
    Messages::new()
        .user(format!("Reply{length}, {tone:?}: {message}"))
        .assistant("Understood.")
}

/// Plans a delivery to a city.
#[mcp_prompt(name = "plan_delivery")]
pub async fn delivery(
    #[arg(complete = cities)] city: String,
    #[arg(complete = slots)] slot: String,
) -> String {
    format!("Plan a delivery to {city} at {slot}.")
}

/// The cities the shop ships to, from its state.
pub fn cities(complete: &Complete<'_>) -> Vec<String> {
    complete
        .state::<Cities>()
        .map(|cities| cities.0.iter().map(|c| (*c).to_owned()).collect())
        .unwrap_or_default()
}

/// Delivery slots, found asynchronously; for Paris, only mornings.
pub async fn slots(complete: &Complete<'_>) -> Vec<String> {
    tokio::task::yield_now().await;
    let all = ["morning", "midday", "evening"];
    match complete.other("city") {
        Some("Paris") => vec!["morning".to_owned()],
        _ => all.map(str::to_owned).to_vec(),
    }
}

/// Shows a chart and asks about it.
#[mcp_prompt]
pub fn chart() -> Messages {
    Messages::new()
        .user_content(Content::image(b"\x89PNG", "image/png"))
        .user_content(Content::audio(b"RIFF", "audio/wav"))
        .user("What does the chart show?")
}

/// Asks the user what to focus on, then reviews.
#[mcp_prompt]
pub async fn focused_review(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    #[derive(Deserialize, schemars::JsonSchema)]
    struct Focus {
        focus: String,
    }
    let answer = ctx
        .elicit::<Focus>("focus", "What should the review focus on?")
        .await?;
    Ok(match answer {
        Elicitation::Accepted(Focus { focus }) => format!("Review, focusing on {focus}."),
        _ => "Review everything.".to_owned(),
    })
}

/// Always refuses, with its own error.
#[mcp_prompt]
pub fn refusing() -> Result<String, ProtocolError> {
    Err(ProtocolError::invalid_params("this prompt is closed today"))
}

/// Panics.
#[mcp_prompt]
pub fn panicking() -> String {
    panic!("the prompt broke")
}

/// An invoice as served.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Invoice {
    /// Its number.
    pub number: u32,
    /// Its total.
    pub total: u32,
}

/// The shop's invoices.
pub struct Ledger(pub Vec<Invoice>);

/// An invoice, by its number.
#[mcp_resource(
    uri = "invoices://{number}",
    mime_type = "application/json",
    title = "Invoice"
)]
pub fn invoice(#[state] ledger: &Ledger, number: u32) -> Option<Invoice> {
    ledger.0.iter().find(|i| i.number == number).cloned()
}

/// A file under the shop's documents, by its path (slashes allowed).
#[mcp_resource(uri = "docs:///{+path}", mime_type = "text/markdown")]
pub async fn document(path: String) -> Result<String, String> {
    if path.contains("..") {
        return Err(format!("`{path}` leaves the documents"));
    }
    Ok(format!("# {path}"))
}

/// The shop's logo.
#[mcp_resource(
    uri = "shop://logo",
    mime_type = "image/png",
    size = 4,
    annotations(audience(user), priority = 0.3, last_modified = "2026-11-30T10:00:00Z"),
    icons("https://example.com/logo.svg")
)]
pub fn logo() -> Vec<u8> {
    b"\x89PNG".to_vec()
}

/// Opening hours.
#[mcp_resource(uri = "shop://hours")]
pub fn hours() -> &'static str {
    "9 to 5"
}

/// Reports by tone, to complete a variable by its type.
#[mcp_resource(uri = "reports://{tone}/latest")]
pub fn report(tone: Tone) -> String {
    format!("{tone:?} report")
}

/// The shop's toolbox: every fixture registered, with its state.
pub fn shop() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox
        .insert_state(Cities(vec!["Paris", "Parma", "Rome"]))
        .insert_state(Ledger(vec![Invoice {
            number: 7,
            total: 12,
        }]));
    toolbox
        .register_prompt(reply::prompt())
        .unwrap()
        .register_prompt(delivery::prompt())
        .unwrap()
        .register_prompt(chart::prompt())
        .unwrap()
        .register_prompt(focused_review::prompt())
        .unwrap()
        .register_prompt(refusing::prompt())
        .unwrap()
        .register_prompt(panicking::prompt())
        .unwrap()
        .register_resource(invoice::resource())
        .unwrap()
        .register_resource(document::resource())
        .unwrap()
        .register_resource(logo::resource())
        .unwrap()
        .register_resource(hours::resource())
        .unwrap()
        .register_resource(report::resource())
        .unwrap();
    toolbox
}
