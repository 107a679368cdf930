//! Prompts through a toolbox: their `prompts/list` entries, arguments read from strings by
//! type, their messages, and every way a get fails.

use mcp_tool_runtime::content::Role;
use mcp_tool_runtime::context::Recording;
use serde_json::{Value, json};

use super::fixtures::shop;

#[test]
fn a_prompt_lists_its_arguments_required_by_type_and_described_by_doc_and_attribute() {
    let toolbox = shop();
    let names: Vec<&str> = toolbox.list_prompts().iter().map(|p| &*p.name).collect();
    assert_eq!(
        names,
        [
            "chart",
            "focused_review",
            "panicking",
            "plan_delivery",
            "refusing",
            "reply"
        ],
        "sorted by name, `name = ...` honoured"
    );
    let reply = toolbox
        .list_prompts()
        .iter()
        .find(|p| p.name == "reply")
        .unwrap();
    assert_eq!(
        serde_json::to_value(reply).unwrap(),
        json!({
            "name": "reply",
            "title": "Reply to a customer",
            "description": "Writes a reply to a customer.\n\nIn the tone asked for.",
            "arguments": [
                {"name": "message", "description": "What the customer wrote", "required": true},
                {"name": "tone", "required": true},
                {"name": "words", "required": false}
            ]
        })
    );
}

#[tokio::test]
async fn arguments_arrive_as_strings_and_are_read_as_their_types() {
    let toolbox = shop();
    let got = toolbox
        .get_prompt(
            "reply",
            json!({"message": "Where is my parcel?", "tone": "friendly", "words": "40"}),
        )
        .await
        .unwrap();
    assert_eq!(got.messages.len(), 2);
    assert_eq!(got.messages[0].role, Role::User);
    assert_eq!(
        got.messages[0].content.as_text(),
        Some("Reply in at most 40 words, Friendly: Where is my parcel?")
    );
    assert_eq!(got.messages[1].role, Role::Assistant);
    // An optional argument left out is `None`.
    let got = toolbox
        .get_prompt("reply", json!({"message": "Hi", "tone": "terse"}))
        .await
        .unwrap();
    assert_eq!(got.messages[0].content.as_text(), Some("Reply, Terse: Hi"));
}

#[tokio::test]
async fn a_bad_or_missing_argument_is_invalid_params_naming_it() {
    let toolbox = shop();
    let bad = toolbox
        .get_prompt("reply", json!({"message": "Hi", "tone": "shouty"}))
        .await
        .unwrap_err();
    assert_eq!(bad.code, -32602);
    assert!(
        bad.message
            .contains("invalid argument `tone` of prompt `reply`"),
        "{}",
        bad.message
    );
    let not_a_number = toolbox
        .get_prompt(
            "reply",
            json!({"message": "Hi", "tone": "terse", "words": "many"}),
        )
        .await
        .unwrap_err();
    assert!(
        not_a_number.message.contains("`words`"),
        "{}",
        not_a_number.message
    );
    let missing = toolbox
        .get_prompt("reply", json!({"tone": "terse"}))
        .await
        .unwrap_err();
    assert_eq!(missing.code, -32602);
    assert_eq!(
        missing.message,
        "missing required argument `message` of prompt `reply`"
    );
    let not_an_object = toolbox
        .get_prompt("reply", json!(["Hi"]))
        .await
        .unwrap_err();
    assert_eq!(not_an_object.code, -32602);
    let unknown = toolbox.get_prompt("nope", Value::Null).await.unwrap_err();
    assert_eq!(
        (unknown.code, &*unknown.message),
        (-32602, "unknown prompt `nope`")
    );
}

#[tokio::test]
async fn messages_carry_images_audio_and_the_description_of_the_get() {
    let got = shop().get_prompt("chart", Value::Null).await.unwrap();
    let kinds: Vec<Value> = got
        .messages
        .iter()
        .map(|m| serde_json::to_value(&m.content).unwrap()["type"].clone())
        .collect();
    assert_eq!(kinds, [json!("image"), json!("audio"), json!("text")]);
    assert_eq!(
        serde_json::to_value(&got.messages[0].content).unwrap()["mimeType"],
        "image/png"
    );
}

#[tokio::test]
async fn a_prompt_that_asks_the_user_is_answered_through_its_context() {
    let toolbox = shop();
    let recording = Recording::new().answer(
        "focus",
        json!({"action": "accept", "content": {"focus": "error handling"}}),
    );
    let got = toolbox
        .get_prompt_with("focused_review", Value::Null, recording.context())
        .await
        .unwrap();
    assert_eq!(
        got.messages[0].content.as_text(),
        Some("Review, focusing on error handling.")
    );
    assert_eq!(recording.requests().len(), 1, "one elicitation was sent");
    // Unanswered (a detached context), the prompt's own error is `-32603` naming the request.
    let failed = toolbox
        .get_prompt("focused_review", Value::Null)
        .await
        .unwrap_err();
    assert_eq!(failed.code, -32603, "{failed:?}");
}

#[tokio::test]
async fn a_prompts_own_error_is_sent_as_it_is_and_a_panic_is_internal() {
    let toolbox = shop();
    let refused = toolbox
        .get_prompt("refusing", Value::Null)
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code, &*refused.message),
        (-32602, "this prompt is closed today")
    );
    let panicked = toolbox
        .get_prompt("panicking", Value::Null)
        .await
        .unwrap_err();
    assert_eq!(
        (panicked.code, &*panicked.message),
        (-32603, "prompt `panicking` panicked")
    );
}
