//! Composition: `ToolboxServer::merge` serves the toolbox's tools beside an rmcp handler of your
//! own, forwarding every `ServerHandler` method, so nothing tool-related can be forgotten.

// rmcp 3.11 marks logging deprecated (SEP-2577, a proposal); every released MCP version has it.
#![allow(deprecated)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use mcp_tool_runtime::context::LogLevel;
use mcp_tool_runtime::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListPromptsResult,
    ListToolsResult, PaginatedRequestParams, Prompt, ServerCapabilities, ServerConfig,
    SetLevelRequestParams, SubscriptionFilter, Tool,
};
use mcp_tool_runtime::rmcp::service::{NotificationContext, RequestContext};
use mcp_tool_runtime::rmcp::{ErrorData, RoleServer, ServerHandler};
use mcp_tool_runtime::server::Merged;
use mcp_tool_runtime::transport::DEFAULT_MAX_MESSAGE_BYTES;
use mcp_tool_runtime::{ToolContext, Toolbox, ToolboxServer, mcp_tool};
use serde_json::{Value, json};
use tests::wire::{Session, call};

/// Adds two numbers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Logs at info, then at warning.
#[mcp_tool]
async fn chatty(ctx: &ToolContext) -> String {
    ctx.log(LogLevel::Info, "info line").await;
    ctx.log(LogLevel::Warning, "warning line").await;
    "done".into()
}

/// A handler of its own: a prompt, an rmcp tool, and a record of what reached it.
#[derive(Clone, Default)]
struct Shop {
    reached: Arc<Mutex<Vec<&'static str>>>,
}

impl Shop {
    fn reached(&self, method: &'static str) {
        self.reached.lock().unwrap().push(method);
    }

    fn saw(&self, method: &str) -> bool {
        self.reached.lock().unwrap().contains(&method)
    }
}

fn opening_hours() -> Tool {
    Tool::new(
        "opening_hours",
        "When the shop is open.",
        Arc::new(serde_json::Map::from_iter([(
            "type".to_owned(),
            json!("object"),
        )])),
    )
}

impl ServerHandler for Shop {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_prompts_list_changed()
                .build(),
        )
    }

    /// Two pages: `opening_hours` and a clash with the toolbox's `add`, then `closing_time`.
    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        if request.and_then(|r| r.cursor).as_deref() == Some("page-2") {
            let mut closing = opening_hours();
            closing.name = "closing_time".into();
            return Ok(ListToolsResult::with_all_items(vec![closing]));
        }
        // `add` is the toolbox's: the toolbox's wins.
        let mut clash = opening_hours();
        clash.name = "add".into();
        let mut first = ListToolsResult::with_all_items(vec![opening_hours(), clash]);
        first.next_cursor = Some("page-2".into());
        Ok(first)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.reached("call_tool");
        Ok(CallToolResult::success(vec![ContentBlock::text(format!(
            "the shop answers `{}`",
            request.name
        ))])
        .into())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        (name == "opening_hours").then(opening_hours)
    }

    async fn list_prompts(
        &self,
        _: Option<PaginatedRequestParams>,
        _: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            "chase_payment",
            None::<String>,
            None,
        )]))
    }

    async fn set_level(
        &self,
        _: SetLevelRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.reached("set_level");
        Ok(())
    }

    async fn on_initialized(&self, _: NotificationContext<RoleServer>) {
        self.reached("on_initialized");
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::new();
        accepted.prompts_list_changed = requested.prompts_list_changed;
        Some(accepted)
    }
}

fn tools() -> ToolboxServer {
    let mut toolbox = Toolbox::new();
    toolbox.register(add::tool()).unwrap();
    toolbox.register(chatty::tool()).unwrap();
    ToolboxServer::new(toolbox).unwrap()
}

/// Removes the tool `name` while serving.
async fn remove<H>(merged: &Merged<H>, name: &str) {
    merged
        .tools()
        .update(|toolbox| {
            toolbox.remove(name);
            Ok::<_, std::convert::Infallible>(())
        })
        .await
        .unwrap();
}

fn names(list: &Value) -> Vec<&str> {
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect()
}

/// At 2025-11-25: the merged capabilities, both handlers' tools, calls routed to the owner of
/// the tool (a malformed call of a toolbox tool too), log levels applied to the toolbox's tools,
/// list changes announced on the session, and the handler's own methods reached.
#[tokio::test]
async fn a_merged_handler_serves_both_at_2025() {
    let shop = Shop::default();
    let merged = tools().merge(shop.clone());
    let mut session =
        Session::open(merged.clone(), DEFAULT_MAX_MESSAGE_BYTES, Some(json!({}))).await;

    let capabilities = &session.init["result"]["capabilities"];
    assert_eq!(capabilities["tools"]["listChanged"], true, "{capabilities}");
    assert!(capabilities.get("logging").is_some(), "{capabilities}");
    assert!(capabilities.get("prompts").is_some(), "{capabilities}");

    let list = session
        .request(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .await;
    assert_eq!(names(&list), ["add", "chatty", "opening_hours"], "{list}");
    assert_eq!(list["result"]["nextCursor"], "page-2", "{list}");
    // The handler's later page holds its tools alone: the toolbox's were on the first.
    let later = session
        .request(json!({"jsonrpc": "2.0", "id": 11, "method": "tools/list", "params": {"cursor": "page-2"}}))
        .await;
    assert_eq!(names(&later), ["closing_time"], "{later}");

    let added = session
        .request(call(2, "add", json!({"a": 2, "b": 3})))
        .await;
    assert_eq!(
        added["result"]["structuredContent"],
        json!({"result": 5}),
        "{added}"
    );
    let theirs = session.request(call(3, "opening_hours", json!({}))).await;
    assert_eq!(
        theirs["result"]["content"][0]["text"], "the shop answers `opening_hours`",
        "{theirs}"
    );
    // rmcp hands a call with array arguments to `on_custom_request`: the toolbox answers it.
    let malformed = session.request(call(4, "add", json!([1, 2]))).await;
    assert_eq!(malformed["result"]["isError"], true, "{malformed}");

    let set = session
        .request(json!({"jsonrpc": "2.0", "id": 5, "method": "logging/setLevel", "params": {"level": "warning"}}))
        .await;
    assert!(set.get("result").is_some(), "{set}");
    let chatted = {
        session.send(call(6, "chatty", json!({}))).await;
        let mut seen = Vec::new();
        loop {
            let message = session.next().await;
            if message.get("id") == Some(&json!(6)) {
                break seen;
            }
            seen.push(message);
        }
    };
    assert_eq!(chatted.len(), 1, "only the warning: {chatted:?}");
    assert_eq!(chatted[0]["params"]["data"], "warning line");

    remove(&merged, "chatty").await;
    let notice = session.next().await;
    assert_eq!(
        notice["method"], "notifications/tools/list_changed",
        "{notice}"
    );

    let prompts = session
        .request(json!({"jsonrpc": "2.0", "id": 7, "method": "prompts/list"}))
        .await;
    assert_eq!(
        prompts["result"]["prompts"][0]["name"], "chase_payment",
        "{prompts}"
    );
    for method in ["on_initialized", "set_level", "call_tool"] {
        assert!(shop.saw(method), "{method} did not reach the handler");
    }
}

/// At 2026-07-28: a listen stream accepts what either side accepts, and hears of tool changes.
#[tokio::test]
async fn a_merged_handler_announces_changes_on_listen_streams() {
    let merged = tools().merge(Shop::default());
    let mut session = Session::open(merged.clone(), DEFAULT_MAX_MESSAGE_BYTES, None).await;
    let ack = session
        .listen(
            70,
            json!({"toolsListChanged": true, "promptsListChanged": true}),
        )
        .await;
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true, "promptsListChanged": true}),
        "{ack}"
    );
    remove(&merged, "add").await;
    let notice = session.next().await;
    assert_eq!(
        notice["method"], "notifications/tools/list_changed",
        "{notice}"
    );
    assert_eq!(
        notice["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 70,
        "{notice}"
    );
}

/// The methods of rmcp's `ServerHandler`, read from the rmcp source this workspace builds.
fn rmcp_handler_methods() -> BTreeSet<String> {
    let metadata = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        metadata.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&metadata.stderr)
    );
    let metadata: Value = serde_json::from_slice(&metadata.stdout).expect("cargo metadata is JSON");
    let manifest = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "rmcp")
        .and_then(|p| p["manifest_path"].as_str())
        .expect("rmcp is a dependency");
    let source = PathBuf::from(manifest).with_file_name("src/handler/server.rs");
    let source = std::fs::read_to_string(&source).unwrap();
    // The trait's methods are written once, in this macro.
    let start = source
        .find("macro_rules! server_handler_methods")
        .expect("rmcp defines ServerHandler's methods in server_handler_methods!");
    let body = &source[start..];
    let end = body.find("\n}\n").unwrap();
    fn_names(&body[..end])
}

/// The names of the `fn`s in `code`.
fn fn_names(code: &str) -> BTreeSet<String> {
    code.split("fn ")
        .skip(1)
        .filter_map(|rest| {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty() && rest[name.len()..].starts_with(['(', '<'])).then_some(name)
        })
        .collect()
}

/// The methods `Merged` implements, read from its source.
fn merged_methods() -> BTreeSet<String> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcp-tool-runtime/src/server/compose.rs");
    let source = std::fs::read_to_string(path).unwrap();
    let start = source
        .find("ServerHandler for Merged<H>")
        .expect("Merged implements ServerHandler");
    fn_names(&source[start..])
}

/// `Merged` forwards every method of rmcp's `ServerHandler`: a method it left out would fall
/// to rmcp's default, and the toolbox or your handler would silently miss it (list changes, log
/// levels, subscriptions). This fails when rmcp adds a method until `Merged` forwards it.
#[test]
fn every_server_handler_method_is_forwarded() {
    let rmcp = rmcp_handler_methods();
    assert!(rmcp.len() >= 30, "read too few methods: {rmcp:?}");
    let merged = merged_methods();
    let missing: Vec<_> = rmcp.difference(&merged).collect();
    assert!(missing.is_empty(), "Merged does not forward: {missing:?}");
    let unknown: Vec<_> = merged.difference(&rmcp).collect();
    assert!(unknown.is_empty(), "not ServerHandler methods: {unknown:?}");
}
