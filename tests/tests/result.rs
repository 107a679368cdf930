//! `build_tool_result` and the wire types.

use mcp_tool_runtime::{
    Content, ContentKind, ResourceContents, ResourceLink, ResultOptions, ToolResult,
    build_tool_result, content::Annotations, content::EmbeddedResource, content::Priority,
    content::Role, encode_json, structured::Shape,
};
use serde::Serialize;
use serde_json::{Map, Value, json};

fn wire(result: &ToolResult) -> Value {
    serde_json::to_value(result).unwrap()
}

#[derive(Serialize)]
struct Invoice {
    number: String,
    total_cents: u64,
}

fn invoice() -> Invoice {
    Invoice {
        number: "INV-7".into(),
        total_cents: 1250,
    }
}

#[test]
fn text_kind_carries_the_payload_in_both_halves() {
    let result = build_tool_result(&invoice(), &ResultOptions::new("get_invoice"));
    assert_eq!(
        wire(&result),
        json!({
            "content": [{"type": "text", "text": "{\n  \"number\": \"INV-7\",\n  \"total_cents\": 1250\n}"}],
            "structuredContent": {"number": "INV-7", "total_cents": 1250}
        })
    );
    assert_eq!(result.text().unwrap(), encode_json(&invoice()).unwrap());
}

#[test]
fn with_structured_content_off_the_text_still_carries_everything() {
    let options = ResultOptions::new("get_invoice").include_structured_content(false);
    let result = build_tool_result(&invoice(), &options);
    assert_eq!(result.structured_content, None);
    assert!(wire(&result).get("structuredContent").is_none());
    let mirrored: Value = serde_json::from_str(result.text().unwrap()).unwrap();
    assert_eq!(mirrored, json!({"number": "INV-7", "total_cents": 1250}));
}

#[test]
fn nothing_is_served_as_an_empty_object_in_both_halves() {
    for result in [
        build_tool_result(&None::<u8>, &ResultOptions::new("t")),
        build_tool_result(&(), &ResultOptions::new("t")),
    ] {
        assert_eq!(result.structured_content, Some(json!({})));
        assert_eq!(result.text(), Some("{}"));
    }
}

#[test]
fn non_objects_are_wrapped_as_result_in_both_halves() {
    for (payload, expected) in [
        (json!([1, 2]), json!({"result": [1, 2]})),
        (json!("text"), json!({"result": "text"})),
        (json!(3.5), json!({"result": 3.5})),
        (json!(false), json!({"result": false})),
    ] {
        let result = build_tool_result(&payload, &ResultOptions::new("t"));
        assert_eq!(result.structured_content.as_ref(), Some(&expected));
        let mirrored: Value = serde_json::from_str(result.text().unwrap()).unwrap();
        assert_eq!(mirrored, expected);
    }
}

#[test]
fn a_wrapped_shape_wraps_even_object_payloads_so_they_match_the_schema() {
    let options = ResultOptions::new("t").shape(Shape::Wrapped);
    let result = build_tool_result(&json!({"a": 1}), &options);
    assert_eq!(result.structured_content, Some(json!({"result": {"a": 1}})));
}

#[test]
fn is_error_and_meta_are_carried_and_omitted_when_absent() {
    let mut meta = Map::new();
    meta.insert("trace".into(), json!("abc"));
    let options = ResultOptions::new("t").is_error(true).meta(meta);
    let value = wire(&build_tool_result(&json!({"a": 1}), &options));
    assert_eq!(value["isError"], true);
    assert_eq!(value["_meta"], json!({"trace": "abc"}));

    let plain = wire(&build_tool_result(
        &json!({"a": 1}),
        &ResultOptions::new("t"),
    ));
    assert!(plain.get("isError").is_none());
    assert!(plain.get("_meta").is_none());
}

#[test]
fn an_unencodable_payload_is_an_error_result_naming_the_tool_and_path() {
    let result = build_tool_result(&vec![f64::NAN], &ResultOptions::new("stats"));
    assert!(result.is_error);
    assert!(result.structured_content.is_none());
    let text = result.text().unwrap();
    assert!(text.contains("`stats`") && text.contains("$[0]"), "{text}");
}

fn image_options() -> ResultOptions {
    ResultOptions::new("chart")
        .content_kind(ContentKind::Image)
        .mime_type("image/png")
}

#[test]
fn image_bytes_become_a_base64_block_without_structured_content() {
    let result = build_tool_result(&vec![0x89u8, b'P', b'N', b'G'], &image_options());
    assert_eq!(
        wire(&result),
        json!({"content": [{"type": "image", "data": "iVBORw==", "mimeType": "image/png"}]})
    );
}

#[test]
fn audio_accepts_a_string_already_in_base64() {
    let options = ResultOptions::new("say")
        .content_kind(ContentKind::Audio)
        .mime_type("audio/wav");
    let result = build_tool_result(&"UklGRg==", &options);
    assert_eq!(
        wire(&result),
        json!({"content": [{"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"}]})
    );
    let bad = build_tool_result(&"not base64!", &options);
    assert!(bad.is_error);
    assert!(bad.text().unwrap().contains("not valid base64"));
}

#[test]
fn a_payload_that_does_not_fit_the_media_kind_is_an_error_naming_tool_kind_and_what_arrived() {
    let result = build_tool_result(&invoice(), &image_options());
    assert!(result.is_error);
    let text = result.text().unwrap();
    assert!(text.contains("`chart`"), "{text}");
    assert!(text.contains("`image`"), "{text}");
    assert!(text.contains("a struct `Invoice`"), "{text}");
}

#[test]
fn resource_links_are_blocks_and_keep_structured_content() {
    let options = ResultOptions::new("attachments").content_kind(ContentKind::ResourceLink);
    let links = vec![
        ResourceLink::new("file:///a.pdf", "a.pdf"),
        ResourceLink {
            mime_type: Some("text/csv".into()),
            size: Some(42),
            ..ResourceLink::new("file:///b.csv", "b.csv")
        },
    ];
    let result = build_tool_result(&links, &options);
    let value = wire(&result);
    // The text mirror first: a client that reads only the first block reads the text.
    assert_eq!(value["content"][0]["type"], "text");
    assert_eq!(
        value["content"][1],
        json!({"type": "resource_link", "uri": "file:///a.pdf", "name": "a.pdf"})
    );
    assert_eq!(
        value["content"][2],
        json!({"type": "resource_link", "uri": "file:///b.csv", "name": "b.csv", "mimeType": "text/csv", "size": 42})
    );
    assert_eq!(
        value["structuredContent"]["result"][1]["uri"],
        "file:///b.csv"
    );

    let one = build_tool_result(&links[0], &options);
    assert_eq!(one.content.len(), 2, "the link and the text mirror");
    assert_eq!(one.structured_content.unwrap()["name"], "a.pdf");
}

#[test]
fn a_link_without_uri_is_an_error_not_a_panic() {
    let options = ResultOptions::new("attachments").content_kind(ContentKind::ResourceLink);
    let result = build_tool_result(&json!([{"name": "x"}]), &options);
    assert!(result.is_error);
    let text = result.text().unwrap();
    assert!(
        text.contains("`attachments`") && text.contains("`resource_link`"),
        "{text}"
    );
    assert!(text.contains("uri"), "{text}");
}

#[test]
fn embedded_resources_are_blocks() {
    let options = ResultOptions::new("notes").content_kind(ContentKind::Resource);
    let result = build_tool_result(&ResourceContents::text("memo://1", "hello"), &options);
    assert_eq!(wire(&result)["content"][0]["type"], "text");
    assert_eq!(
        wire(&result)["content"][1],
        json!({"type": "resource", "resource": {"uri": "memo://1", "mimeType": "text/plain", "text": "hello"}})
    );
    let blob = build_tool_result(
        &ResourceContents::blob("memo://2", "application/octet-stream", b"\x00\x01"),
        &options,
    );
    assert_eq!(wire(&blob)["content"][1]["resource"]["blob"], "AAE=");
}

#[test]
fn blocks_kind_serves_a_list_of_content_blocks_as_is() {
    let options = ResultOptions::new("mixed").content_kind(ContentKind::Blocks);
    let blocks = vec![
        Content::text("hi"),
        Content::Resource(EmbeddedResource {
            resource: ResourceContents::text("memo://1", "x"),
            annotations: None,
        }),
    ];
    let result = build_tool_result(&blocks, &options);
    assert_eq!(result.content, blocks);
    assert!(result.structured_content.is_none());
    assert!(build_tool_result(&json!({"a": 1}), &options).is_error);
}

#[test]
fn a_result_over_the_ceiling_is_an_error_stating_size_and_limit() {
    let rows: Vec<u32> = (0..1000).collect();
    let options = ResultOptions::new("dump").max_result_bytes(1000);
    let result = build_tool_result(&rows, &options);
    assert!(result.is_error);
    let text = result.text().unwrap();
    let full = serde_json::to_vec(&build_tool_result(&rows, &ResultOptions::new("dump")))
        .unwrap()
        .len();
    assert!(text.contains(&format!("{full} bytes")), "{text}");
    assert!(
        text.contains("limit of 1000 bytes") && text.contains("narrow"),
        "{text}"
    );

    let roomy = ResultOptions::new("dump").max_result_bytes(full);
    assert!(!build_tool_result(&rows, &roomy).is_error);
}

#[test]
fn content_blocks_use_the_wire_names() {
    let annotated = Content::Text(mcp_tool_runtime::content::TextContent {
        text: "x".into(),
        annotations: Some(Annotations {
            audience: Some(vec![Role::User, Role::Assistant]),
            priority: Some(Priority::new(1.0).unwrap()),
            last_modified: Some("2026-11-30T08:00:00Z".into()),
        }),
    });
    assert_eq!(
        serde_json::to_value(&annotated).unwrap(),
        json!({"type": "text", "text": "x", "annotations": {
            "audience": ["user", "assistant"], "priority": 1.0, "lastModified": "2026-11-30T08:00:00Z"
        }})
    );
    let round: Content = serde_json::from_value(serde_json::to_value(&annotated).unwrap()).unwrap();
    assert_eq!(round, annotated);
    assert!(
        serde_json::from_value::<Annotations>(json!({"priority": 1.5})).is_err(),
        "priority outside 0..=1 is refused"
    );
}
