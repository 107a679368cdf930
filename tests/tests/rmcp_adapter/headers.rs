//! Header arguments (SEP-2243): `#[arg(header = "...")]` marks the schema, registration refuses
//! annotations a client would reject, and over Streamable HTTP at 2026-07-28 every
//! `Mcp-Param-*` header is checked against the body (by rmcp's service, which reads the schema
//! through `ToolboxServer::get_tool`).

use mcp_tool_runtime::schema::InputSchemaBuilder;
use mcp_tool_runtime::{
    BoxFuture, RegistrationError, Tool, ToolCall, ToolDeclaration, ToolResult, Toolbox,
    ToolboxServer, mcp_tool,
};
use serde_json::{Value, json};
use tests::http::{HttpReply, HttpServer};
use tests::wire::meta_2026;

/// Runs `query` in `region`.
#[mcp_tool]
fn routed(
    #[arg(header = "Region")] region: String,
    #[arg(header = "Shard")] shard: u32,
    query: Option<String>,
) -> String {
    format!("{} in {region}/{shard}", query.unwrap_or_default())
}

async fn call(http: &HttpServer, arguments: Value, headers: &[(&str, &str)]) -> HttpReply {
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "routed", "arguments": arguments, "_meta": meta_2026(json!({}))}});
    http.post(headers, &message).await
}

async fn served() -> HttpServer {
    let mut toolbox = Toolbox::new();
    toolbox.register(routed::tool()).unwrap();
    HttpServer::start(ToolboxServer::new(toolbox).unwrap()).await
}

fn assert_mismatch(reply: &HttpReply, says: &str) {
    assert_eq!(reply.status, 400, "{reply:?}");
    assert_eq!(reply.message["error"]["code"], -32020, "{reply:?}");
    let message = reply.message["error"]["message"].as_str().unwrap();
    assert!(message.contains(says), "{message}");
}

#[test]
fn the_schema_marks_each_header_argument() {
    let mut toolbox = Toolbox::new();
    toolbox.register(routed::tool()).unwrap();
    let schema = &toolbox.list_tools()[0].input_schema;
    assert_eq!(schema["properties"]["region"]["x-mcp-header"], "Region");
    assert_eq!(schema["properties"]["shard"]["x-mcp-header"], "Shard");
    assert!(schema["properties"]["query"].get("x-mcp-header").is_none());
}

#[tokio::test]
async fn headers_that_match_the_body_are_served_plain_or_base64() {
    let http = served().await;
    let arguments = json!({"region": "us-west1", "shard": 7, "query": "q"});
    let reply = call(
        &http,
        arguments.clone(),
        &[("Mcp-Param-Region", "us-west1"), ("mcp-param-shard", "7")],
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.message["result"]["structuredContent"],
        "q in us-west1/7"
    );
    // `us-west1` in Base64, as a client writes values that need it.
    let reply = call(
        &http,
        arguments,
        &[
            ("Mcp-Param-Region", "=?base64?dXMtd2VzdDE=?="),
            ("Mcp-Param-Shard", "7"),
        ],
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    // A `null` or left-out argument has no header.
    let reply = call(
        &http,
        json!({"region": "eu", "shard": null, "query": "q"}),
        &[("Mcp-Param-Region", "eu")],
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
}

#[tokio::test]
async fn a_header_that_differs_from_the_body_is_refused() {
    let http = served().await;
    let reply = call(
        &http,
        json!({"region": "us-west1", "query": "q"}),
        &[("Mcp-Param-Region", "eu-west4")],
    )
    .await;
    assert_mismatch(
        &reply,
        "Mcp-Param-Region header `eu-west4` does not match body value `us-west1`",
    );
    let reply = call(
        &http,
        json!({"region": "us", "shard": 7, "query": "q"}),
        &[("Mcp-Param-Region", "us"), ("Mcp-Param-Shard", "8")],
    )
    .await;
    assert_mismatch(&reply, "`8` does not match body value `7`");
}

#[tokio::test]
async fn a_missing_header_an_unexpected_one_and_bad_base64_are_refused() {
    let http = served().await;
    let reply = call(&http, json!({"region": "us-west1", "query": "q"}), &[]).await;
    assert_mismatch(&reply, "missing Mcp-Param-Region header for `region`");
    let reply = call(
        &http,
        json!({"region": "us", "query": "q"}),
        &[("Mcp-Param-Region", "us"), ("Mcp-Param-Shard", "1")],
    )
    .await;
    assert_mismatch(
        &reply,
        "unexpected Mcp-Param-Shard header for absent or null `shard`",
    );
    let reply = call(
        &http,
        json!({"region": "Hello", "query": "q"}),
        &[("Mcp-Param-Region", "=?base64?SGVsbG8?=")],
    )
    .await;
    assert_mismatch(&reply, "Mcp-Param-Region header is not valid Base64");
}

/// A tool declared by hand, with the input schema `schema`.
struct HandWritten(fn() -> mcp_tool_runtime::schema::SchemaObject);

impl Tool for HandWritten {
    fn declaration(&self) -> ToolDeclaration {
        ToolDeclaration::new("hand_written").input_schema(self.0)
    }
    fn call<'a>(&'a self, _: ToolCall<'a>) -> BoxFuture<'a, ToolResult> {
        Box::pin(async { ToolResult::error("never called") })
    }
}

#[test]
fn registration_refuses_header_arguments_that_cannot_be_served() {
    type Schema = fn() -> mcp_tool_runtime::schema::SchemaObject;
    let cases: [(Schema, &str); 5] = [
        (
            || {
                let mut b = InputSchemaBuilder::new();
                b.param::<Option<String>>("a", None).header("a", "Region");
                std::sync::Arc::new(b.finish())
            },
            "(one type, not nullable)",
        ),
        (
            || {
                let mut b = InputSchemaBuilder::new();
                b.param::<f64>("ratio", None).header("ratio", "Ratio");
                std::sync::Arc::new(b.finish())
            },
            "must be `string`, `integer` or `boolean`",
        ),
        (
            || {
                let mut b = InputSchemaBuilder::new();
                b.param::<String>("a", None).header("a", "Region");
                b.param::<String>("b", None).header("b", "REGION");
                std::sync::Arc::new(b.finish())
            },
            "two arguments are sent as header",
        ),
        (
            || {
                let mut b = InputSchemaBuilder::new();
                b.param::<String>("a", None).header("a", "Cloud Region");
                std::sync::Arc::new(b.finish())
            },
            "must be an HTTP header name",
        ),
        (
            || {
                std::sync::Arc::new(serde_json::from_value(json!({"type": "object", "properties": {
                    "regions": {"type": "array", "items": {"type": "string", "x-mcp-header": "Region"}}
                }})).unwrap())
            },
            "`x-mcp-header` must be on a property reached from the root through `properties` only",
        ),
    ];
    for (schema, says) in cases {
        let error = Toolbox::new().register(HandWritten(schema)).unwrap_err();
        assert!(
            matches!(error, RegistrationError::InvalidHeader { .. }),
            "{error}"
        );
        assert!(error.to_string().contains(says), "{error}");
    }
}

#[test]
fn a_nested_header_argument_on_a_properties_path_is_accepted() {
    fn schema() -> mcp_tool_runtime::schema::SchemaObject {
        std::sync::Arc::new(
            serde_json::from_value(json!({"type": "object", "properties": {
                "target": {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
            }}))
            .unwrap(),
        )
    }
    Toolbox::new().register(HandWritten(schema)).unwrap();
}
