//! Resources through a toolbox: plain URIs and templates listed apart, URIs matched and
//! decoded into typed variables, contents as text, JSON and blobs, and not-found.

use base64::Engine as _;
use mcp_tool_runtime::ResourceContents;
use serde_json::json;

use super::fixtures::shop;

#[test]
fn plain_uris_and_templates_are_listed_apart_with_what_they_declare() {
    let toolbox = shop();
    let resources: Vec<serde_json::Value> = toolbox
        .list_resources()
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect();
    assert_eq!(
        resources,
        [
            json!({"uri": "shop://hours", "name": "hours", "description": "Opening hours."}),
            json!({
                "uri": "shop://logo", "name": "logo", "description": "The shop's logo.",
                "mimeType": "image/png", "size": 4,
                "annotations": {"audience": ["user"], "priority": 0.3, "lastModified": "2026-11-30T10:00:00Z"},
                "icons": [{"src": "https://example.com/logo.svg"}]
            }),
        ]
    );
    let templates: Vec<&str> = toolbox
        .list_resource_templates()
        .iter()
        .map(|t| &*t.uri_template)
        .collect();
    assert_eq!(
        templates,
        [
            "docs:///{+path}",
            "invoices://{number}",
            "reports://{tone}/latest"
        ]
    );
    let invoice = &toolbox.list_resource_templates()[1];
    assert_eq!(
        serde_json::to_value(invoice).unwrap(),
        json!({
            "uriTemplate": "invoices://{number}", "name": "invoice", "title": "Invoice",
            "description": "An invoice, by its number.", "mimeType": "application/json"
        })
    );
}

#[tokio::test]
async fn a_template_reads_its_variables_as_their_types_and_serves_json() {
    let contents = shop().read_resource("invoices://7").await.unwrap();
    assert_eq!(
        contents,
        [ResourceContents::Text {
            uri: "invoices://7".into(),
            mime_type: Some("application/json".into()),
            text: "{\n  \"number\": 7,\n  \"total\": 12\n}".into(),
        }]
    );
}

#[tokio::test]
async fn a_reserved_variable_takes_slashes_and_values_are_percent_decoded() {
    let contents = shop()
        .read_resource("docs:///guides/getting%20started.md")
        .await
        .unwrap();
    assert_eq!(
        contents,
        [ResourceContents::Text {
            uri: "docs:///guides/getting%20started.md".into(),
            mime_type: Some("text/markdown".into()),
            text: "# guides/getting started.md".into(),
        }]
    );
}

#[tokio::test]
async fn bytes_are_a_blob_and_text_defaults_to_plain() {
    let toolbox = shop();
    let ResourceContents::Blob {
        blob, mime_type, ..
    } = &toolbox.read_resource("shop://logo").await.unwrap()[0]
    else {
        panic!("a blob");
    };
    assert_eq!(mime_type.as_deref(), Some("image/png"));
    assert_eq!(
        base64::engine::general_purpose::STANDARD
            .decode(blob)
            .unwrap(),
        b"\x89PNG"
    );
    let hours = toolbox.read_resource("shop://hours").await.unwrap();
    assert_eq!(hours, [ResourceContents::text("shop://hours", "9 to 5")]);
}

#[tokio::test]
async fn none_and_unmatched_uris_are_not_found_and_bad_variables_invalid() {
    let toolbox = shop();
    for uri in [
        "invoices://8",
        "invoices://7/lines",
        "nowhere://7",
        "shop://hours/",
    ] {
        let missing = toolbox.read_resource(uri).await.unwrap_err();
        assert_eq!(missing.code, -32002, "{uri}");
        assert_eq!(missing.data, Some(json!({"uri": uri})), "{uri}");
    }
    let bad = toolbox.read_resource("invoices://seven").await.unwrap_err();
    assert_eq!(bad.code, -32602);
    assert!(
        bad.message
            .contains("invalid argument `number` of resource `invoices://seven`"),
        "{}",
        bad.message
    );
    let refused = toolbox
        .read_resource("docs:///../secrets")
        .await
        .unwrap_err();
    assert_eq!(refused.code, -32603);
    assert!(
        refused.message.contains("leaves the documents"),
        "{}",
        refused.message
    );
    let long = format!(
        "invoices://{}",
        "7".repeat(mcp_tool_runtime::resource::MAX_URI_BYTES)
    );
    assert_eq!(toolbox.read_resource(&long).await.unwrap_err().code, -32002);
}
