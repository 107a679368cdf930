//! The rmcp adapter: conversions that lose nothing, and results that survive rmcp's treatment of
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

mod over_the_wire {
    //! Raw JSON-RPC lines through rmcp's own transport, as a client sends them.

    use mcp_tool_runtime::context::{ClientRequestError, LogLevel};
    use mcp_tool_runtime::{ToolContext, Toolbox, ToolboxServer, mcp_tool};
    use serde_json::{Value, json};
    use tests::wire::{Session, call, meta_2026};

    /// Adds two numbers.
    #[mcp_tool]
    fn add(a: i64, b: i64) -> i64 {
        a + b
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    struct Name {
        name: String,
    }

    /// Reports progress, logs at three levels, asks the user's name.
    #[mcp_tool]
    async fn chatty(ctx: &ToolContext) -> Result<String, ClientRequestError> {
        ctx.progress(1.0, Some(2.0)).await;
        ctx.log(LogLevel::Debug, "debug line").await;
        ctx.log(LogLevel::Info, "info line").await;
        ctx.log(LogLevel::Warning, "warning line").await;
        let name = ctx.elicit::<Name>("name", "Who are you?").await?;
        Ok(name.accepted().map_or("nobody".to_owned(), |n| n.name))
    }

    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)] // only its schema is used
    struct Nested {
        inner: Name,
    }

    /// Asks for a form MCP cannot show: an object inside an object.
    #[mcp_tool]
    async fn nested_form(ctx: &ToolContext) -> Result<String, ClientRequestError> {
        ctx.elicit::<Nested>("nested", "Fill this in").await?;
        Ok("asked".into())
    }

    /// Set when the future of `waits_forever` is dropped.
    static WAIT_DROPPED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

    /// Waits until the client gives up.
    #[mcp_tool]
    async fn waits_forever() -> u8 {
        struct OnDrop;
        impl Drop for OnDrop {
            fn drop(&mut self) {
                WAIT_DROPPED.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let _guard = OnDrop;
        std::future::pending().await
    }

    fn server() -> ToolboxServer {
        let mut toolbox = Toolbox::new();
        toolbox.register(add::tool()).unwrap();
        toolbox.register(waits_forever::tool()).unwrap();
        toolbox.register(chatty::tool()).unwrap();
        toolbox.register(nested_form::tool()).unwrap();
        ToolboxServer::new(toolbox).unwrap()
    }

    /// An initialized session with the served toolbox.
    async fn start() -> Session {
        with_limit(mcp_tool_runtime::transport::DEFAULT_MAX_MESSAGE_BYTES).await
    }

    /// A session over this crate's `LineTransport`, reading messages up to `limit` bytes.
    async fn with_limit(limit: usize) -> Session {
        Session::open(server(), limit, Some(json!({}))).await
    }

    #[tokio::test]
    async fn arguments_that_are_not_an_object_get_an_is_error_result() {
        let mut session = start().await;
        for (id, arguments) in [(1, json!([1, 2])), (2, json!("a=1")), (3, json!(7))] {
            let answer = session.request(call(id, "add", arguments.clone())).await;
            let result = &answer["result"];
            assert_eq!(result["isError"], true, "{arguments}: {answer}");
            let text = result["content"][0]["text"].as_str().unwrap();
            assert!(
                text.contains("the arguments of tool `add` must be a JSON object"),
                "{arguments}: {text}"
            );
        }
        // A good call on the same session still works.
        let answer = session
            .request(call(4, "add", json!({"a": 2, "b": 3})))
            .await;
        assert_eq!(answer["result"]["structuredContent"], json!({"result": 5}));
    }

    #[tokio::test]
    async fn unknown_tools_and_methods_keep_their_json_rpc_errors() {
        let mut session = start().await;
        let answer = session.request(call(1, "nope", json!([1]))).await;
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        let answer = session
            .request(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/frobnicate", "params": {}}))
            .await;
        assert_eq!(answer["error"]["code"], -32601, "{answer}");
        let answer = session
            .request(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"arguments": [1]}}))
            .await;
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
    }

    #[tokio::test]
    async fn an_over_deep_request_gets_a_parse_error_with_its_id() {
        let mut session = start().await;
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{{"name":"add","arguments":{{"a":{}1{}}}}}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        session.send_line(&deep).await;
        let answer = session.next().await;
        assert_eq!(answer["id"], 41, "{answer}");
        assert_eq!(answer["error"]["code"], -32700, "{answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("recursion limit exceeded"),
            "{answer}"
        );
        session.assert_quiet_and_serving(42).await;
    }

    #[tokio::test]
    async fn unreadable_lines_get_an_error_and_notifications_none() {
        let mut session = start().await;
        // Not JSON at all: a parse error without an id.
        session.send_line("this is not json").await;
        let answer = session.next().await;
        assert_eq!(answer["error"]["code"], -32700, "{answer}");
        assert!(answer.get("id").is_none_or(Value::is_null), "{answer}");
        // Malformed JSON whose id is readable: the error carries it.
        session
            .send_line(r#"{"jsonrpc":"2.0","id":"r-9","method":"ping","params":{"#)
            .await;
        let answer = session.next().await;
        assert_eq!(answer["id"], "r-9", "{answer}");
        assert_eq!(answer["error"]["code"], -32700, "{answer}");
        // A batch, and a scalar: invalid requests.
        for line in ["[1, 2]", "7"] {
            session.send_line(line).await;
            let answer = session.next().await;
            assert_eq!(answer["error"]["code"], -32600, "{line}: {answer}");
        }
        // An unreadable notification and a stray response get no reply.
        session
            .send_line(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":7}"#)
            .await;
        session
            .send_line(r#"{"jsonrpc":"2.0","id":99,"result":7}"#)
            .await;
        session.assert_quiet_and_serving(43).await;
    }

    #[tokio::test]
    async fn a_request_with_an_id_and_a_bad_shape_gets_an_error_with_its_id() {
        let mut session = start().await;
        for (id, line) in [
            (
                51,
                r#"{"jsonrpc":"2.0","id":51,"method":"initialize","params":7}"#,
            ),
            (52, r#"{"jsonrpc":"2.0","id":52,"method":7}"#),
            (53, r#"{"jsonrpc":"1.0","id":53,"method":"ping"}"#),
        ] {
            session.send_line(line).await;
            let answer = session.next().await;
            assert_eq!(answer["id"], id, "{line}: {answer}");
            assert!(answer["error"]["code"].is_i64(), "{line}: {answer}");
        }
        session.assert_quiet_and_serving(54).await;
    }

    #[tokio::test]
    async fn a_message_over_the_size_limit_gets_an_error_naming_it() {
        let mut session = with_limit(1024).await;
        let big = call(
            61,
            "add",
            json!({"a": 1, "b": 2, "padding": "x".repeat(4096)}),
        );
        session.send(big).await;
        let answer = session.next().await;
        assert_eq!(answer["id"], 61, "{answer}");
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("limit of 1024 bytes"),
            "{answer}"
        );
        let answer = session
            .request(call(62, "add", json!({"a": 1, "b": 2})))
            .await;
        assert_eq!(answer["result"]["structuredContent"], json!({"result": 3}));
    }

    #[tokio::test]
    async fn a_cancelled_call_drops_the_tool_and_the_session_goes_on() {
        use std::sync::atomic::Ordering;
        let mut session = start().await;
        session.send(call(71, "waits_forever", json!({}))).await;
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!WAIT_DROPPED.load(Ordering::SeqCst), "the tool is running");
        session
            .send(json!({
                "jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 71, "reason": "the user gave up"}
            }))
            .await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !WAIT_DROPPED.load(Ordering::SeqCst) {
            assert!(
                std::time::Instant::now() < deadline,
                "the tool's future was not dropped"
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        // The session goes on, and the cancelled request got no response (MCP: SHOULD NOT).
        session.send(call(72, "add", json!({"a": 1, "b": 1}))).await;
        let answer = session.next().await;
        assert_eq!(answer["id"], 72, "only the next call's answer: {answer}");
        assert_eq!(answer["result"]["structuredContent"], json!({"result": 2}));
    }

    /// Reads messages until the response with `id`, returning what came before it and it.
    async fn until_response(session: &mut Session, id: u64) -> (Vec<Value>, Value) {
        let mut before = Vec::new();
        loop {
            let message = session.next().await;
            if message["id"] == id && message.get("method").is_none() {
                return (before, message);
            }
            before.push(message);
        }
    }

    fn methods(messages: &[Value]) -> Vec<&str> {
        messages
            .iter()
            .filter_map(|m| m["method"].as_str())
            .collect()
    }

    #[tokio::test]
    async fn progress_logging_at_the_set_level_and_elicitation_reach_a_2025_client() {
        let mut session = Session::open(server(), 1 << 20, Some(json!({"elicitation": {}}))).await;
        let capabilities = &session.init["result"]["capabilities"];
        assert_eq!(capabilities["tools"]["listChanged"], true, "{capabilities}");
        assert!(capabilities.get("logging").is_some(), "{capabilities}");
        let set = session
            .request(json!({"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel", "params": {"level": "info"}}))
            .await;
        assert!(set.get("result").is_some(), "{set}");
        session
            .send(json!({
                "jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "chatty", "arguments": {}, "_meta": {"progressToken": "p-2"}}
            }))
            .await;
        let mut seen = Vec::new();
        let ask = loop {
            let message = session.next().await;
            if message["method"] == "elicitation/create" {
                break message;
            }
            seen.push(message);
        };
        assert_eq!(
            methods(&seen),
            [
                "notifications/progress",
                "notifications/message",
                "notifications/message"
            ]
        );
        assert_eq!(seen[0]["params"]["progressToken"], "p-2");
        assert_eq!(seen[0]["params"]["progress"], 1.0);
        assert_eq!(seen[0]["params"]["total"], 2.0);
        assert_eq!(
            seen[1]["params"],
            json!({"level": "info", "data": "info line"})
        );
        assert_eq!(
            seen[2]["params"],
            json!({"level": "warning", "data": "warning line"})
        );
        assert_eq!(ask["params"]["message"], "Who are you?");
        assert_eq!(
            ask["params"]["requestedSchema"]["required"],
            json!(["name"])
        );
        session
            .send(json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"name": "Ada"}}}))
            .await;
        let (rest, answer) = until_response(&mut session, 2).await;
        assert_eq!(rest, Vec::<Value>::new());
        assert_eq!(
            answer["result"]["structuredContent"],
            json!({"result": "Ada"}),
            "{answer}"
        );
    }

    #[tokio::test]
    async fn without_a_progress_token_or_the_capability_nothing_is_sent_and_the_error_says_why() {
        let mut session = Session::open(server(), 1 << 20, Some(json!({}))).await;
        session.send(call(3, "chatty", json!({}))).await;
        let (before, answer) = until_response(&mut session, 3).await;
        // No progress without a token; every level before the client sets one.
        assert_eq!(
            methods(&before),
            [
                "notifications/message",
                "notifications/message",
                "notifications/message"
            ]
        );
        assert_eq!(answer["result"]["isError"], true, "{answer}");
        let text = answer["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            text.contains("did not declare the `elicitation` capability"),
            "{text}"
        );
    }

    #[tokio::test]
    async fn each_session_keeps_its_own_log_level() {
        let served = server();
        let mut quiet = Session::open(served.clone(), 1 << 20, Some(json!({}))).await;
        let mut chatty_session = Session::open(served.clone(), 1 << 20, Some(json!({}))).await;
        let set = quiet
            .request(json!({"jsonrpc": "2.0", "id": 40, "method": "logging/setLevel", "params": {"level": "error"}}))
            .await;
        assert!(set.get("result").is_some(), "{set}");
        quiet.send(call(41, "chatty", json!({}))).await;
        let (quiet_lines, _) = until_response(&mut quiet, 41).await;
        assert_eq!(methods(&quiet_lines), Vec::<&str>::new());
        chatty_session.send(call(42, "chatty", json!({}))).await;
        let (lines, _) = until_response(&mut chatty_session, 42).await;
        assert_eq!(methods(&lines).len(), 3, "{lines:?}");
    }

    /// A JSON-RPC -32602 error whose message contains `naming`.
    fn assert_invalid_params(answer: &Value, naming: &str) {
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(naming), "{message}");
    }

    fn call_2026(id: u64, name: &str, extra: Value) -> Value {
        let mut params =
            json!({"name": name, "arguments": {}, "_meta": meta_2026(json!({"elicitation": {}}))});
        for (key, value) in extra.as_object().unwrap() {
            params[key] = value.clone();
        }
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
    }

    #[tokio::test]
    async fn at_2026_07_28_a_client_request_is_an_input_required_result_with_sealed_state() {
        let mut session = Session::open(server(), 1 << 20, None).await;
        let first = session.request(call_2026(10, "chatty", json!({}))).await;
        let result = &first["result"];
        assert_eq!(result["resultType"], "input_required", "{first}");
        assert_eq!(
            result["inputRequests"]["name"]["method"],
            "elicitation/create"
        );
        assert_eq!(
            result["inputRequests"]["name"]["params"]["message"],
            "Who are you?"
        );
        let state = result["requestState"].as_str().unwrap().to_owned();

        // Answered: the tool runs again from the start and completes.
        let answer = json!({"name": {"action": "accept", "content": {"name": "Ada"}}});
        let done = session
            .request(call_2026(
                11,
                "chatty",
                json!({"inputResponses": answer, "requestState": state}),
            ))
            .await;
        assert_eq!(
            done["result"]["structuredContent"],
            json!({"result": "Ada"}),
            "{done}"
        );

        // A changed state is refused (-32602), naming the integrity check.
        let tampered = session
            .request(call_2026(
                12,
                "chatty",
                json!({"inputResponses": answer, "requestState": format!("{state}x")}),
            ))
            .await;
        assert_invalid_params(&tampered, "integrity");

        // A state sealed for one tool does not unlock another.
        let other = session
            .request(call_2026(13, "add", json!({"requestState": state})))
            .await;
        assert_invalid_params(&other, "is for tool `chatty`");

        // An answer that is not the client's result object is refused.
        let bad = session
            .request(call_2026(
                14,
                "chatty",
                json!({"inputResponses": {"name": 7}}),
            ))
            .await;
        assert_invalid_params(&bad, "inputResponses.name");
    }

    #[tokio::test]
    async fn servers_sharing_a_request_state_key_accept_each_others_state() {
        const KEY: &[u8] = b"one key for every server behind the address";
        let keyed = || {
            let served = server();
            served.set_request_state_key(KEY).unwrap();
            served
        };
        let mut first = Session::open(keyed(), 1 << 20, None).await;
        let asked = first.request(call_2026(50, "chatty", json!({}))).await;
        let state = asked["result"]["requestState"].clone();
        let answer = json!({"name": {"action": "accept", "content": {"name": "Ada"}}});
        let retry = json!({"inputResponses": answer, "requestState": state});
        let mut second = Session::open(keyed(), 1 << 20, None).await;
        let done = second.request(call_2026(51, "chatty", retry.clone())).await;
        assert_eq!(
            done["result"]["structuredContent"],
            json!({"result": "Ada"}),
            "{done}"
        );
        // A server with its own random key refuses the state.
        let mut stranger = Session::open(server(), 1 << 20, None).await;
        let refused = stranger.request(call_2026(52, "chatty", retry)).await;
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
    }

    #[tokio::test]
    async fn a_form_mcp_cannot_show_is_refused_before_anything_is_sent_at_every_version() {
        let expect_refusal = |answer: &Value| {
            assert_eq!(answer["result"]["isError"], true, "{answer}");
            let text = answer["result"]["content"][0]["text"].as_str().unwrap();
            assert!(text.contains("cannot elicit this type"), "{text}");
        };
        let mut legacy = Session::open(server(), 1 << 20, Some(json!({"elicitation": {}}))).await;
        legacy.send(call(60, "nested_form", json!({}))).await;
        let (before, answer) = until_response(&mut legacy, 60).await;
        assert_eq!(methods(&before), Vec::<&str>::new());
        expect_refusal(&answer);
        let mut modern = Session::open(server(), 1 << 20, None).await;
        expect_refusal(
            &modern
                .request(call_2026(61, "nested_form", json!({})))
                .await,
        );
    }

    #[tokio::test]
    async fn tools_list_carries_caching_hints_at_2026_07_28_only() {
        let mut session = Session::open(server(), 1 << 20, None).await;
        let modern = session
            .request(json!({"jsonrpc": "2.0", "id": 20, "method": "tools/list", "params": {"_meta": meta_2026(json!({}))}}))
            .await;
        assert_eq!(modern["result"]["ttlMs"], 60_000, "{modern}");
        assert_eq!(modern["result"]["cacheScope"], "public");
        let mut legacy = start().await;
        let old = legacy
            .request(json!({"jsonrpc": "2.0", "id": 21, "method": "tools/list"}))
            .await;
        assert!(old["result"].get("ttlMs").is_none(), "{old}");
        assert!(old["result"].get("cacheScope").is_none(), "{old}");
    }

    #[tokio::test]
    async fn a_changed_toolbox_is_served_and_announced() {
        let served = server();
        let mut session = Session::open(served.clone(), 1 << 20, Some(json!({}))).await;
        // Let the server see `notifications/initialized` before the change.
        session.assert_quiet_and_serving(30).await;
        served
            .update(|toolbox| {
                toolbox.remove("add");
                Ok::<_, std::convert::Infallible>(())
            })
            .await
            .unwrap();
        let notice = session.next().await;
        assert_eq!(
            notice["method"], "notifications/tools/list_changed",
            "{notice}"
        );
        let listed = session
            .request(json!({"jsonrpc": "2.0", "id": 31, "method": "tools/list"}))
            .await;
        let names: Vec<&str> = listed["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["chatty", "nested_form", "waits_forever"]);
        let gone = session
            .request(call(32, "add", json!({"a": 1, "b": 1})))
            .await;
        assert_eq!(gone["error"]["code"], -32602, "{gone}");
    }

    #[tokio::test]
    async fn a_2026_07_28_client_hears_of_changes_on_its_subscription_until_it_cancels() {
        let served = server();
        let mut session = Session::open(served.clone(), 1 << 20, None).await;
        // 2026-07-28 has no `ping`: a `tools/list` shows the stream is quiet and the server serves.
        let list = |id: u64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {"_meta": meta_2026(json!({}))}});
        let ack = session
            .listen(
                70,
                json!({"toolsListChanged": true, "promptsListChanged": true}),
            )
            .await;
        // Only what the server declares is accepted: it has no prompts.
        assert_eq!(
            ack["params"]["notifications"],
            json!({"toolsListChanged": true}),
            "{ack}"
        );
        assert_eq!(
            ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            70
        );

        let remove = |name: &'static str| {
            move |toolbox: &mut Toolbox| {
                toolbox.remove(name);
                Ok::<_, std::convert::Infallible>(())
            }
        };
        served.update(remove("add")).await.unwrap();
        let notice = session.next().await;
        assert_eq!(
            notice["method"], "notifications/tools/list_changed",
            "{notice}"
        );
        assert_eq!(
            notice["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 70,
            "{notice}"
        );
        // Each change is announced, not only the first.
        served.update(remove("chatty")).await.unwrap();
        assert_eq!(
            session.next().await["method"],
            "notifications/tools/list_changed"
        );

        // Cancelled, the stream is quiet: a later change sends nothing before the list's answer.
        session
            .send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 70}}))
            .await;
        let answer = session.request(list(71)).await;
        assert!(answer.get("result").is_some(), "{answer}");
        served.update(remove("nested_form")).await.unwrap();
        session.send(list(72)).await;
        let next = session.next().await;
        assert_eq!(
            next["id"], 72,
            "expected only the list's answer, got {next}"
        );
        assert_eq!(
            next["result"]["tools"][0]["name"], "waits_forever",
            "{next}"
        );
    }

    /// rmcp acknowledges a subscription before `listen` runs; a change in between is announced as
    /// soon as `listen` starts. Here the gap is made by hand: a request accepted, then a change,
    /// then the stream.
    #[tokio::test]
    async fn a_change_between_acknowledgment_and_listen_is_announced() {
        use mcp_tool_runtime::rmcp::ServerHandler;
        use mcp_tool_runtime::rmcp::model::SubscriptionFilter;

        let served = server();
        let mut session = Session::open(served.clone(), 1 << 20, None).await;
        let mut tools = SubscriptionFilter::default();
        tools.tools_list_changed = Some(true);
        served.accepted_subscription_filter(&tools);
        served
            .update(|toolbox| {
                toolbox.remove("add");
                Ok::<_, std::convert::Infallible>(())
            })
            .await
            .unwrap();
        session.listen(80, json!({"toolsListChanged": true})).await;
        let notice = session.next().await;
        assert_eq!(
            notice["method"], "notifications/tools/list_changed",
            "{notice}"
        );
        assert_eq!(
            notice["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            80
        );
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
