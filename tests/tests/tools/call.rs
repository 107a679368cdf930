//! Calling tools: sync and async, state, `Err`, media, panics and unknown names.

use mcp_tool_runtime::{UnknownTool, mcp_tool};
use serde_json::{Value, json};

use super::fixtures::*;

#[tokio::test]
async fn sync_and_async_tools_are_called_with_conforming_results() {
    let toolbox = toolbox();
    let sum = call_conforming(&toolbox, "add", json!({"a": 2, "b": 40})).await;
    assert_eq!(sum.structured_content, Some(json!({"result": 42})));

    let found = call_conforming(&toolbox, "get_invoice", json!({"number": "7"})).await;
    assert_eq!(
        found.structured_content,
        Some(json!({"number": "7", "total_cents": 1250}))
    );
    let missing = call_conforming(&toolbox, "get_invoice", json!({"number": "8"})).await;
    assert_eq!(missing.structured_content, Some(json!({})));
    assert_eq!(missing.text(), Some("{}"));

    let list = call_conforming(&toolbox, "list.invoices", json!({"max": 1})).await;
    assert_eq!(
        list.structured_content.unwrap()["result"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let all = call_conforming(&toolbox, "list.invoices", json!({})).await;
    assert_eq!(
        all.structured_content.unwrap()["result"]
            .as_array()
            .unwrap()
            .len(),
        2
    );

    let unit = call_conforming(&toolbox, "ping", Value::Null).await;
    assert_eq!(unit.structured_content, Some(json!({})));
    let raw = call_conforming(&toolbox, "type", json!({"in": "x"})).await;
    assert_eq!(raw.structured_content, Some(json!({"result": "x"})));
}

#[tokio::test]
async fn stateful_tools_share_the_toolbox_state() {
    let toolbox = toolbox();
    let created = call_conforming(
        &toolbox,
        "create_invoice",
        json!({"customer": "acme", "total": 500}),
    )
    .await;
    assert_eq!(
        created.structured_content,
        Some(json!({"number": "acme-1", "total_cents": 500}))
    );
    let count = call_conforming(&toolbox, "count_invoices", json!({})).await;
    assert_eq!(count.structured_content, Some(json!({"result": 1})));
    let found = call_conforming(&toolbox, "find_in_store", json!({"number": "acme-1"})).await;
    assert_eq!(found.structured_content.unwrap()["total_cents"], 500);
    let none = call_conforming(&toolbox, "find_in_store", json!({"number": "zzz"})).await;
    assert_eq!(none.structured_content, Some(json!({})));
}

#[tokio::test]
async fn an_err_is_an_error_result_with_its_message() {
    let toolbox = toolbox();
    let failed = call(
        &toolbox,
        "create_invoice",
        json!({"customer": "acme", "total": -5}),
    )
    .await;
    assert_eq!(
        error_text(&failed),
        "total -5 is negative; totals are in cents, at least 0"
    );
    let failed = call(&toolbox, "find_in_store", json!({"number": ""})).await;
    assert_eq!(error_text(&failed), "number must not be empty");
}

#[tokio::test]
async fn media_links_and_unstructured_tools() {
    let toolbox = toolbox();
    let image = call(&toolbox, "pixel", json!({})).await;
    assert_eq!(
        serde_json::to_value(&image).unwrap(),
        json!({"content": [{"type": "image", "data": "iVBORw==", "mimeType": "image/png"}]})
    );
    let links = call_conforming(&toolbox, "attachments", json!({})).await;
    assert!(links.text().is_some(), "the text mirror first");
    assert_eq!(
        serde_json::to_value(&links.content[1]).unwrap(),
        json!({"type": "resource_link", "uri": "file:///7.pdf", "name": "7.pdf"})
    );
    let plain = call(&toolbox, "plain_text", json!({})).await;
    assert!(plain.structured_content.is_none());
    assert!(plain.text().unwrap().contains("\"number\": \"9\""));
    let maybe = call(&toolbox, "maybe_unschema", json!({"found": false})).await;
    assert_eq!(maybe.structured_content, Some(json!({})));
}

#[tokio::test]
async fn a_panicking_tool_is_an_error_result_and_the_toolbox_lives_on() {
    let toolbox = toolbox();
    let result = call(&toolbox, "explode", json!({})).await;
    assert_eq!(
        error_text(&result),
        "tool `explode` panicked: the tool blew up"
    );
    assert!(
        !call(&toolbox, "add", json!({"a": 1, "b": 1}))
            .await
            .is_error
    );
}

#[tokio::test]
async fn an_unknown_tool_is_not_a_result() {
    let err = toolbox().call_tool("nope", json!({})).await.unwrap_err();
    assert_eq!(
        err,
        UnknownTool {
            name: "nope".into()
        }
    );
}

/// Lists two numbers, its text mirror compact.
#[mcp_tool(mirror = compact)]
fn compact_pair() -> Vec<u8> {
    vec![1, 2]
}

/// Lists two numbers, its text mirror pretty whatever the server says.
#[mcp_tool(mirror = pretty)]
fn pretty_pair() -> Vec<u8> {
    vec![1, 2]
}

/// Lists two numbers, its text mirror as the server says.
#[mcp_tool]
fn default_pair() -> Vec<u8> {
    vec![1, 2]
}

#[tokio::test]
async fn the_text_mirror_is_pretty_unless_the_tool_or_the_server_says_compact() {
    const PRETTY: &str = "{\n  \"result\": [\n    1,\n    2\n  ]\n}";
    const COMPACT: &str = r#"{"result":[1,2]}"#;
    for (defaults, expected_default) in [
        (mcp_tool_runtime::ServerDefaults::default(), PRETTY),
        (
            mcp_tool_runtime::ServerDefaults {
                mirror: mcp_tool_runtime::Mirror::Compact,
                ..Default::default()
            },
            COMPACT,
        ),
    ] {
        let mut toolbox = mcp_tool_runtime::Toolbox::with_defaults(defaults);
        toolbox
            .register_all(mcp_tool_runtime::tools![
                compact_pair,
                pretty_pair,
                default_pair
            ])
            .unwrap();
        for (name, text) in [
            ("compact_pair", COMPACT),
            ("pretty_pair", PRETTY),
            ("default_pair", expected_default),
        ] {
            let result = call_conforming(&toolbox, name, json!({})).await;
            assert_eq!(result.text(), Some(text), "{name}");
            assert_eq!(result.structured_content, Some(json!({"result": [1, 2]})));
        }
    }
}

/// Renders an invoice for a person to read.
fn invoice_text(invoice: &Option<Invoice>) -> String {
    match invoice {
        Some(invoice) => format!(
            "Invoice {}: {}.{:02} due",
            invoice.number,
            invoice.total_cents / 100,
            invoice.total_cents % 100
        ),
        None => "No such invoice.".to_owned(),
    }
}

/// Looks up an invoice, its text written for people.
#[mcp_tool(allow_none, text = invoice_text)]
fn described_invoice(number: String) -> Option<Invoice> {
    if number != "7" {
        return None;
    }
    Some(Invoice {
        number,
        total_cents: 1250,
    })
}

/// Counts to three, its text written for people, through a `Result`.
#[mcp_tool(text = count_text)]
fn counted() -> Result<Vec<u8>, String> {
    Ok(vec![1, 2, 3])
}

// The function takes a reference to exactly what the tool returns, a `&Vec<u8>` here.
#[allow(clippy::ptr_arg)]
fn count_text(numbers: &Vec<u8>) -> String {
    format!("{} numbers", numbers.len())
}

#[tokio::test]
async fn a_tool_writes_its_own_text_and_structured_content_stays_exact() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    toolbox
        .register_all(mcp_tool_runtime::tools![described_invoice, counted])
        .unwrap();
    let found = call_conforming(&toolbox, "described_invoice", json!({"number": "7"})).await;
    assert_eq!(found.text(), Some("Invoice 7: 12.50 due"));
    assert_eq!(
        found.structured_content,
        Some(json!({"number": "7", "total_cents": 1250}))
    );
    let missing = call_conforming(&toolbox, "described_invoice", json!({"number": "8"})).await;
    assert_eq!(missing.text(), Some("No such invoice."));
    assert_eq!(missing.structured_content, Some(json!({})));
    let counted = call_conforming(&toolbox, "counted", json!({})).await;
    assert_eq!(counted.text(), Some("3 numbers"));
    assert_eq!(
        counted.structured_content,
        Some(json!({"result": [1, 2, 3]}))
    );
    // Errors keep their message.
    let bad = call(&toolbox, "described_invoice", json!({})).await;
    assert!(error_text(&bad).contains("`number`"));
}
