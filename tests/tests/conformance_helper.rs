//! `assert_tool_result_conforms` (the settings resolution matrix is a unit test of
//! `settings.rs`, where `resolve` lives).

use mcp_tool_runtime::{assert_tool_result_conforms, check_conforms};
use serde_json::{Value, json};

fn entry() -> Value {
    json!({
        "name": "list_payments",
        "inputSchema": {"type": "object"},
        "outputSchema": {
            "type": "object",
            "properties": {
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "amount": {"type": "number"},
                            "id": {"type": "string", "format": "uuid"},
                            "on": {"type": "string", "format": "date"},
                            "at": {"type": "string", "format": "date-time"},
                            "email": {"type": "string", "format": "email"},
                            "link": {"type": "string", "format": "uri"}
                        },
                        "required": ["amount"]
                    }
                }
            },
            "required": ["items"]
        }
    })
}

fn good_item() -> Value {
    json!({
        "amount": 5,
        "id": "67e55044-10b1-426f-9247-bb680e5fe0c8",
        "on": "2026-11-30",
        "at": "2026-11-30T08:00:00Z",
        "email": "a@example.com",
        "link": "https://example.com/x"
    })
}

fn result(structured: Value) -> Value {
    json!({"content": [{"type": "text", "text": "..."}], "structuredContent": structured})
}

#[test]
fn a_conforming_result_passes() {
    assert_tool_result_conforms(
        &entry(),
        &result(json!({"items": [good_item(), {"amount": 1.5}]})),
    );
}

#[test]
fn every_problem_is_listed_sorted_by_path_with_what_was_advertised_and_what_arrived() {
    let mut items = vec![good_item(), good_item(), good_item(), good_item()];
    items[3]["amount"] = json!("12.50");
    items[1]["on"] = json!("30/11/2026");
    items[2]["id"] = json!("not-a-uuid");
    items[0]["at"] = json!("yesterday");
    items[0]["email"] = json!("nobody");
    items[0]["link"] = json!("not a uri");
    let message = check_conforms(&entry(), &result(json!({"items": items}))).unwrap_err();
    let lines: Vec<&str> = message.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            "$.items[0].at: advertised format `date-time`; got a string `\"yesterday\"`",
            "$.items[0].email: advertised format `email`; got a string `\"nobody\"`",
            "$.items[0].link: advertised format `uri`; got a string `\"not a uri\"`",
            "$.items[1].on: advertised format `date`; got a string `\"30/11/2026\"`",
            "$.items[2].id: advertised format `uuid`; got a string `\"not-a-uuid\"`",
            "$.items[3].amount: advertised type `number`; got a string `\"12.50\"`",
        ],
        "{message}"
    );
    assert!(message.starts_with("the `structuredContent` of tool `list_payments`"));
}

#[test]
fn long_values_are_cut_to_about_120_characters() {
    let long = "x".repeat(500);
    let mut item = good_item();
    item["amount"] = json!(long);
    let message = check_conforms(&entry(), &result(json!({"items": [item]}))).unwrap_err();
    let line = message.lines().nth(1).unwrap();
    assert!(line.len() < 220, "{line}");
    assert!(line.ends_with("… (382 more bytes)`"), "{line}");
}

#[test]
fn no_output_schema_means_nothing_to_conform_to() {
    let mut tool = entry();
    tool.as_object_mut().unwrap().remove("outputSchema");
    let message = check_conforms(&tool, &result(json!({}))).unwrap_err();
    assert!(
        message.contains("advertises no `outputSchema`"),
        "{message}"
    );
}

#[test]
fn a_missing_structured_content_fails_and_says_when_the_result_was_an_error() {
    let plain = json!({"content": [{"type": "text", "text": "hi"}]});
    let message = check_conforms(&entry(), &plain).unwrap_err();
    assert!(message.contains("has no `structuredContent`"), "{message}");
    assert!(!message.contains("is an error"));

    let error = json!({"content": [{"type": "text", "text": "boom"}], "isError": true});
    let message = check_conforms(&entry(), &error).unwrap_err();
    assert!(
        message.contains("the result is an error: boom"),
        "{message}"
    );
}

#[test]
#[should_panic(expected = "$.items[0].amount: advertised type `number`")]
fn the_assertion_panics_with_the_report() {
    assert_tool_result_conforms(&entry(), &result(json!({"items": [{"amount": "x"}]})));
}

#[test]
fn a_schema_naming_its_dialect_is_honoured() {
    // Draft 4's boolean `exclusiveMaximum` means something else in 2020-12.
    let tool = json!({
        "name": "t",
        "outputSchema": {
            "$schema": "http://json-schema.org/draft-04/schema#",
            "type": "object",
            "properties": {"n": {"type": "number", "maximum": 5, "exclusiveMaximum": true}}
        }
    });
    assert!(check_conforms(&tool, &result(json!({"n": 5}))).is_err());
    assert!(check_conforms(&tool, &result(json!({"n": 4}))).is_ok());
}
