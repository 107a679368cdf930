//! Conversions to rmcp's model that lose nothing, and results that survive rmcp's treatment of
//! peers older than 2026-07-28.

use mcp_tool_runtime::rmcp::model::{ListToolsResult, ServerResult, Tool};
use mcp_tool_runtime::{
    Content, ContentKind, ResourceContents, ResourceLink, ResultOptions, ToolResult, ToolboxServer,
    build_tool_result, content::Annotations, content::Priority, content::Role,
    content::TextContent, server::to_rmcp_result,
};
use serde_json::{Map, Value, json};

fn without_result_type(mut value: Value) -> Value {
    value.as_object_mut().unwrap().remove("resultType");
    value
}

fn assert_lossless(result: &ToolResult) {
    let ours = serde_json::to_value(result).unwrap();
    let theirs = serde_json::to_value(to_rmcp_result(result.clone())).unwrap();
    assert_eq!(without_result_type(theirs), ours);
}

#[test]
fn every_content_kind_converts_without_loss() {
    let mut meta = Map::new();
    meta.insert("trace".into(), json!("t-1"));
    let annotated = Content::Text(TextContent {
        text: "hello".into(),
        annotations: Some(Annotations {
            audience: Some(vec![Role::User]),
            priority: Some(Priority::new(0.25).unwrap()),
            last_modified: Some("2026-11-30T08:00:00Z".into()),
        }),
    });
    let blocks = vec![
        annotated,
        Content::image(b"\x89PNG", "image/png"),
        Content::audio(b"RIFF", "audio/wav"),
        Content::ResourceLink(ResourceLink {
            title: Some("Seven".into()),
            description: Some("The PDF".into()),
            mime_type: Some("application/pdf".into()),
            size: Some(1024),
            ..ResourceLink::new("file:///7.pdf", "7.pdf")
        }),
        Content::Resource(mcp_tool_runtime::content::EmbeddedResource {
            resource: ResourceContents::text("memo://1", "note"),
            annotations: None,
        }),
        Content::Resource(mcp_tool_runtime::content::EmbeddedResource {
            resource: ResourceContents::blob("memo://2", "application/octet-stream", b"\x00"),
            annotations: None,
        }),
    ];
    let options = ResultOptions::new("mixed")
        .content_kind(ContentKind::Blocks)
        .meta(meta.clone());
    assert_lossless(&build_tool_result(&blocks, &options));

    let structured = build_tool_result(
        &json!({"a": [1, 2], "é": null}),
        &ResultOptions::new("t").meta(meta).is_error(true),
    );
    assert_lossless(&structured);
    assert_lossless(&ToolResult::error("boom"));
}

/// The `tools/list` result as rmcp sends it to a peer older than 2026-07-28.
fn listed_for_legacy_peer(server: &ToolboxServer) -> Vec<Tool> {
    let tools: Vec<Tool> = server
        .toolbox()
        .list_tools()
        .iter()
        .map(|t| serde_json::from_value(serde_json::to_value(t).unwrap()).unwrap())
        .collect();
    let mut result = ServerResult::ListToolsResult(ListToolsResult::with_all_items(tools));
    result.strip_non_object_output_for_legacy_peer();
    match result {
        ServerResult::ListToolsResult(list) => list.tools,
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn schemas_and_structured_content_survive_rmcp_for_older_peers() {
    let toolbox = examples::invoices::toolbox().unwrap();
    let expected_schemas: Vec<String> = toolbox
        .list_tools()
        .iter()
        .filter(|t| t.output_schema.is_some())
        .map(|t| t.name.to_string())
        .collect();
    assert!(
        expected_schemas.contains(&"list_invoices".to_owned()),
        "a wrapped list is among them"
    );
    let server = ToolboxServer::new(toolbox).unwrap();

    let legacy = listed_for_legacy_peer(&server);
    let kept: Vec<String> = legacy
        .iter()
        .filter(|t| t.output_schema.is_some())
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(
        kept, expected_schemas,
        "no outputSchema is stripped for older peers"
    );

    for (name, arguments) in examples::demo::calls() {
        let ours = server.toolbox().call_tool(name, arguments).await.unwrap();
        let mut sent = ServerResult::CallToolResult(to_rmcp_result(ours.clone()));
        sent.strip_non_object_output_for_legacy_peer();
        let ServerResult::CallToolResult(sent) = sent else {
            unreachable!()
        };
        assert_eq!(
            sent.structured_content, ours.structured_content,
            "{name}: structuredContent reaches older peers intact"
        );
        assert_eq!(
            sent.content.len(),
            ours.content.len(),
            "{name}: no block added or lost"
        );
    }
}

#[test]
fn tool_entries_convert_without_loss() {
    let server = ToolboxServer::new(examples::invoices::toolbox().unwrap()).unwrap();
    for definition in server.toolbox().list_tools() {
        let ours = serde_json::to_value(definition).unwrap();
        let theirs: Tool = serde_json::from_value(ours.clone()).unwrap();
        assert_eq!(serde_json::to_value(&theirs).unwrap(), ours);
        use mcp_tool_runtime::rmcp::ServerHandler;
        assert_eq!(server.get_tool(&definition.name), Some(theirs));
    }
}

/// What `ToolContext::elicit` asks for, from Rust types of every primitive kind, is a schema
/// rmcp's elicitation model accepts (MCP allows only flat objects of primitives).
#[tokio::test]
async fn elicitation_schemas_of_rust_types_are_accepted_by_rmcp() {
    use mcp_tool_runtime::context::Recording;

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Size {
        Small,
        Large,
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Form {
        /// A name.
        name: String,
        note: Option<String>,
        age: u8,
        ratio: f64,
        agree: bool,
        size: Size,
        maybe_size: Option<Size>,
        count: Option<u32>,
    }

    let recording = Recording::new();
    let _ = recording
        .context()
        .elicit::<Form>("form", "Fill this in")
        .await;
    let (_, request) = recording.requests().remove(0);
    let parsed = serde_json::from_value::<mcp_tool_runtime::rmcp::model::ElicitRequestParams>(
        request.params.clone(),
    );
    assert!(parsed.is_ok(), "{parsed:?}\n{:#}", request.params);
    let schema = &request.params["requestedSchema"];
    assert_eq!(schema["properties"]["note"]["type"], "string");
    assert_eq!(
        schema["properties"]["size"]["enum"],
        serde_json::json!(["small", "large"])
    );
    assert_eq!(
        schema["properties"]["maybe_size"]["enum"],
        serde_json::json!(["small", "large"])
    );
    assert_eq!(
        schema["required"],
        serde_json::json!(["name", "age", "ratio", "agree", "size"])
    );
}
