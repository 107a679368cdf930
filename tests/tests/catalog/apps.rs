//! MCP Apps (SEP-1865): a tool linked to its `ui://` view, the view served with its sandbox
//! settings, an app-only tool hidden from clients that render no views and still callable with
//! every check, and the extension declared.

use mcp_tool_runtime::apps::{ToolUi, VIEW_MIME_TYPE};
use mcp_tool_runtime::auth::Caller;
use mcp_tool_runtime::context::Recording;
use mcp_tool_runtime::{
    RegistrationError, Tool, ToolDeclaration, Toolbox, ToolboxServer, mcp_resource, mcp_tool,
};
use serde_json::{Value, json};
use tests::wire::{Session, meta_2026};

/// The invoice view.
#[mcp_resource(
    uri = "ui://shop/invoice",
    ui(
        connect_domains("https://api.example.com"),
        resource_domains("https://cdn.example.com"),
        clipboard_write,
        prefers_border = false,
        domain = "shop.example-sandbox.com"
    )
)]
fn invoice_view() -> &'static str {
    "<!doctype html><p>Invoice</p>"
}

/// Shows an invoice.
#[mcp_tool(ui = "ui://shop/invoice")]
fn show_invoice(number: String) -> String {
    format!("invoice {number}")
}

/// Pays an invoice from its view.
#[mcp_tool(visibility(app), scopes("invoices:write"))]
fn pay_from_view(number: String) -> String {
    format!("paid {number}")
}

fn shop() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox
        .register_resource(invoice_view::resource())
        .unwrap()
        .register(show_invoice::tool())
        .unwrap()
        .register(pay_from_view::tool())
        .unwrap();
    toolbox
}

#[test]
fn a_tool_names_its_view_in_both_meta_keys_and_the_view_is_html_with_its_settings() {
    let toolbox = shop();
    let show = toolbox
        .list_tools()
        .iter()
        .find(|t| t.name == "show_invoice")
        .unwrap();
    assert_eq!(show.meta["ui"], json!({"resourceUri": "ui://shop/invoice"}));
    assert_eq!(show.meta["ui/resourceUri"], "ui://shop/invoice");
    let pay = toolbox
        .list_tools()
        .iter()
        .find(|t| t.name == "pay_from_view")
        .unwrap();
    assert_eq!(pay.meta["ui"], json!({"visibility": ["app"]}));
    assert!(toolbox.is_app_only("pay_from_view") && !toolbox.is_app_only("show_invoice"));
    let view = serde_json::to_value(&toolbox.list_resources()[0]).unwrap();
    assert_eq!(view["mimeType"], VIEW_MIME_TYPE);
    assert_eq!(
        view["_meta"]["ui"],
        json!({
            "csp": {"connectDomains": ["https://api.example.com"], "resourceDomains": ["https://cdn.example.com"]},
            "permissions": {"clipboardWrite": {}},
            "prefersBorder": false,
            "domain": "shop.example-sandbox.com"
        })
    );
}

#[test]
fn a_tool_naming_a_view_no_resource_serves_or_no_ui_uri_is_refused() {
    let mut toolbox = Toolbox::new();
    let error = toolbox.register(show_invoice::tool()).unwrap_err();
    assert!(
        matches!(&error, RegistrationError::InvalidView { tool, reason }
            if tool == "show_invoice" && reason.contains("no resource serves its view `ui://shop/invoice`")),
        "{error}"
    );
    /// A tool declared by hand, naming a web page as its view.
    struct ByHand;
    impl Tool for ByHand {
        fn declaration(&self) -> ToolDeclaration {
            ToolDeclaration::new("by_hand").ui(ToolUi::view("https://example.com/view"))
        }
        fn call<'a>(
            &'a self,
            call: mcp_tool_runtime::ToolCall<'a>,
        ) -> mcp_tool_runtime::BoxFuture<'a, mcp_tool_runtime::ToolResult> {
            Box::pin(async move { call.finish(&()) })
        }
    }
    let error = toolbox.register(ByHand).unwrap_err();
    assert!(
        error.to_string().contains("is not a `ui://` URI"),
        "{error}"
    );
    assert!(toolbox.list_tools().is_empty());
}

#[tokio::test]
async fn an_app_only_tool_keeps_every_check_a_tool_has() {
    let toolbox = shop();
    let without_scope = Recording::new().caller(Caller::new("ada").scopes(["mcp:tools"]));
    let refused = toolbox
        .call_tool_with(
            "pay_from_view",
            json!({"number": "7"}),
            without_scope.context(),
        )
        .await
        .unwrap();
    assert!(refused.is_error, "{refused:?}");
    let bad = toolbox.call_tool("pay_from_view", json!({})).await.unwrap();
    assert!(bad.is_error, "missing argument: {bad:?}");
    let paid = toolbox
        .call_tool("pay_from_view", json!({"number": "7"}))
        .await
        .unwrap();
    assert_eq!(paid.structured_content, Some(json!({"result": "paid 7"})));
}

fn names(listed: &Value) -> Vec<&str> {
    let mut names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    names
}

const HOST: &str = r#"{"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}"#;

#[tokio::test]
async fn a_host_that_renders_views_lists_the_app_only_tool_and_a_plain_client_does_not() {
    let server = || ToolboxServer::new(shop()).unwrap();
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});

    let mut plain = Session::open(server(), 1 << 20, Some(json!({}))).await;
    let extensions = &plain.init["result"]["capabilities"]["extensions"];
    assert_eq!(
        extensions["io.modelcontextprotocol/ui"],
        json!({"mimeTypes": [VIEW_MIME_TYPE]}),
        "{extensions}"
    );
    assert_eq!(names(&plain.request(list.clone()).await), ["show_invoice"]);
    // Still callable: a view's host calls it, whoever lists it.
    let called = plain
        .request(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                        "params": {"name": "pay_from_view", "arguments": {"number": "7"}}}))
        .await;
    assert_eq!(
        called["result"]["structuredContent"],
        json!({"result": "paid 7"}),
        "{called}"
    );

    let host: Value = serde_json::from_str(HOST).unwrap();
    let mut host_session = Session::open(server(), 1 << 20, Some(host.clone())).await;
    assert_eq!(
        names(&host_session.request(list.clone()).await),
        ["pay_from_view", "show_invoice"]
    );
    let read = host_session
        .request(
            json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read",
                        "params": {"uri": "ui://shop/invoice"}}),
        )
        .await;
    let contents = &read["result"]["contents"][0];
    assert_eq!(contents["mimeType"], VIEW_MIME_TYPE, "{read}");
    assert_eq!(
        contents["_meta"]["ui"]["prefersBorder"], false,
        "hosts read it here: {read}"
    );
    assert!(
        contents["text"]
            .as_str()
            .unwrap()
            .starts_with("<!doctype html>")
    );

    // At 2026-07-28 the request's own capabilities say it.
    let mut stateless = Session::open(server(), 1 << 20, None).await;
    let mut list_2026 = list.clone();
    list_2026["params"] = json!({"_meta": meta_2026(host)});
    assert_eq!(
        names(&stateless.request(list_2026).await),
        ["pay_from_view", "show_invoice"]
    );
    let mut plain_2026 = list;
    plain_2026["params"] = json!({"_meta": meta_2026(json!({}))});
    assert_eq!(
        names(&stateless.request(plain_2026).await),
        ["show_invoice"]
    );
}

#[test]
fn a_server_without_views_declares_no_extension() {
    use mcp_tool_runtime::rmcp::ServerHandler;
    let mut toolbox = Toolbox::new();
    toolbox.register(pay_from_view::tool()).unwrap();
    let with_app_only = ToolboxServer::new(toolbox).unwrap().get_info().capabilities;
    assert!(
        with_app_only
            .extensions
            .unwrap()
            .contains_key("io.modelcontextprotocol/ui"),
        "an app-only tool is an MCP Apps tool"
    );
    let none = ToolboxServer::new(Toolbox::new())
        .unwrap()
        .get_info()
        .capabilities;
    assert!(
        !none
            .extensions
            .unwrap_or_default()
            .contains_key("io.modelcontextprotocol/ui")
    );
}
