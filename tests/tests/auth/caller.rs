//! The verified caller reaches the tool, and the tool's scopes hold however it is called.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_tool_runtime::auth::Caller;
use mcp_tool_runtime::context::Recording;
use mcp_tool_runtime::toolbox::from_fn;
use mcp_tool_runtime::{Toolbox, mcp_tool};
use serde_json::json;

use super::fixtures::*;

#[tokio::test]
async fn the_tool_reads_the_verified_caller() {
    let server = Protected::start().await;
    let bearer = format!("Bearer {}", server.token("mcp:tools profile"));
    let reply = server.call(Some(&bearer), "whoami", json!({})).await;
    assert_eq!(
        reply.message["result"]["structuredContent"],
        json!({"subject": "alice", "client": "billing-agent", "scopes": ["mcp:tools", "profile"]}),
        "{reply:?}"
    );
}

#[tokio::test]
async fn a_caller_without_the_tools_scope_is_refused_before_the_body_in_any_context() {
    let server = Protected::start().await;
    let toolbox = server.server.toolbox();
    let recording = Recording::new().caller(Caller::new("bob").scopes(["mcp:tools"]));
    let result = toolbox
        .call_tool_with(
            "void_invoice",
            json!({"number": "INV-1"}),
            recording.context(),
        )
        .await
        .unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        Some(
            "tool `void_invoice` needs the scope `invoices:write`, which the caller's token does not grant"
        )
    );
    assert_eq!(server.tool_runs(), 0);
    // Without a verified caller (stdio), scopes do not apply.
    let result = toolbox
        .call_tool("void_invoice", json!({"number": "INV-1"}))
        .await
        .unwrap();
    assert!(!result.is_error);
}

/// Archives an invoice.
#[mcp_tool(scopes("invoices:write"))]
fn archive(number: String) -> String {
    format!("archived {number}")
}

#[tokio::test]
async fn a_caller_without_the_tools_scope_reaches_no_layer() {
    let seen = Arc::new(AtomicUsize::new(0));
    let mut toolbox = Toolbox::new();
    toolbox.register(archive::tool()).unwrap();
    let counted = seen.clone();
    // A layer stands for a rate limit or a timeout: what a refused caller must not spend.
    toolbox.layer(from_fn(move |next| {
        counted.fetch_add(1, Ordering::SeqCst);
        Box::pin(next.run())
    }));
    let without = Recording::new().caller(Caller::new("bob").scopes(["mcp:tools"]));
    let result = toolbox
        .call_tool_with("archive", json!({"number": "INV-1"}), without.context())
        .await
        .unwrap();
    assert!(result.is_error, "{:?}", result.text());
    assert_eq!(
        seen.load(Ordering::SeqCst),
        0,
        "the refused call reached the layer"
    );
    let with = Recording::new().caller(Caller::new("ann").scopes(["invoices:write"]));
    let result = toolbox
        .call_tool_with("archive", json!({"number": "INV-1"}), with.context())
        .await
        .unwrap();
    assert!(!result.is_error);
    assert_eq!(seen.load(Ordering::SeqCst), 1);
}
