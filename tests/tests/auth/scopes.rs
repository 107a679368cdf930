//! Scopes: the server's, asked for with 403 `insufficient_scope` (SEP-835 step-up), the tool's,
//! checked before the body runs, and `tools/list` by scope.

use serde_json::json;

use super::fixtures::*;

#[tokio::test]
async fn a_token_without_the_servers_scope_is_asked_to_step_up() {
    let server = Protected::start().await;
    let bearer = format!("Bearer {}", server.token("profile"));
    let reply = server.call(Some(&bearer), "whoami", json!({})).await;
    assert_eq!(reply.status, 403, "{reply:?}");
    let challenge = challenge(&reply);
    assert!(
        challenge.contains("error=\"insufficient_scope\""),
        "{challenge}"
    );
    assert!(challenge.contains("scope=\"mcp:tools\""), "{challenge}");
    assert!(challenge.contains("resource_metadata=\""), "{challenge}");
    assert_eq!(server.tool_runs(), 0);
}

#[tokio::test]
async fn a_call_without_the_tools_scope_gets_403_naming_every_scope_it_needs() {
    let server = Protected::start().await;
    let bearer = format!("Bearer {}", server.token(BASE_SCOPE));
    let reply = server
        .call(Some(&bearer), "void_invoice", json!({"number": "INV-1"}))
        .await;
    assert_eq!(reply.status, 403, "{reply:?}");
    let challenge = challenge(&reply);
    assert!(
        challenge.contains("error=\"insufficient_scope\""),
        "{challenge}"
    );
    assert!(
        challenge.contains("scope=\"mcp:tools invoices:write\""),
        "{challenge}"
    );
    assert!(challenge.contains("void_invoice"), "{challenge}");
    assert_eq!(server.tool_runs(), 0, "the tool ran without its scope");

    // After stepping up, the call is served.
    let bearer = format!("Bearer {}", server.token("mcp:tools invoices:write"));
    let reply = server
        .call(Some(&bearer), "void_invoice", json!({"number": "INV-1"}))
        .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    // At 2026-07-28 a string is served as it is (SEP-2106).
    assert_eq!(reply.message["result"]["structuredContent"], "voided INV-1");
    assert_eq!(server.tool_runs(), 1);
}

#[tokio::test]
async fn scopes_are_separated_by_spaces_only() {
    // RFC 6749 §3.3: scopes are separated by the space character. A no-break space or a tab
    // is part of one (unknown) scope, and grants neither half.
    let server = Protected::start().await;
    for scope in ["mcp:tools\u{a0}invoices:write", "mcp:tools\tinvoices:write"] {
        let bearer = format!("Bearer {}", server.token(scope));
        let reply = server
            .call(Some(&bearer), "void_invoice", json!({"number": "INV-1"}))
            .await;
        assert_eq!(reply.status, 403, "{scope:?}: {reply:?}");
    }
    // Several spaces, and spaces around, still separate.
    let bearer = format!("Bearer {}", server.token("  mcp:tools   invoices:write "));
    let reply = server
        .call(Some(&bearer), "void_invoice", json!({"number": "INV-1"}))
        .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(server.tool_runs(), 1);
}

#[tokio::test]
async fn a_malformed_call_of_a_scoped_tool_is_refused_too() {
    // `arguments` an array: rmcp parses it as a custom request; the tool is still known.
    let server = Protected::start().await;
    let bearer = format!("Bearer {}", server.token(BASE_SCOPE));
    let reply = server
        .call(Some(&bearer), "void_invoice", json!(["INV-1"]))
        .await;
    assert_eq!(reply.status, 403, "{reply:?}");
    assert_eq!(server.tool_runs(), 0);
}

#[tokio::test]
async fn a_call_naming_its_tool_twice_is_checked_for_the_tool_that_would_run() {
    // The guard reads only a message's outline; a repeated `name` makes it read the message
    // whole, as rmcp does (the last one wins), so the scope check sees the tool rmcp would run.
    let server = Protected::start().await;
    let bearer = format!("Bearer {}", server.token(BASE_SCOPE));
    let meta = tests::wire::meta_2026(json!({}));
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"whoami","name":"void_invoice","arguments":{{"number":"INV-1"}},"_meta":{meta}}}}}"#
    );
    let message = json!({"id": 1, "method": "tools/call",
        "params": {"name": "void_invoice", "_meta": meta}});
    let reply = server
        .http
        .post_raw(&[("Authorization", &bearer)], &message, body.as_bytes())
        .await;
    assert_eq!(reply.status, 403, "{reply:?}");
    assert_eq!(server.tool_runs(), 0);
}

#[tokio::test]
async fn tools_list_shows_every_tool_unless_told_to_list_by_scope() {
    let server = Protected::start().await;
    assert_eq!(server.list(BASE_SCOPE).await, ["void_invoice", "whoami"]);

    let server = Protected::start_with(
        |server| {
            server.set_list_by_scope(true);
            server
        },
        |verifier| verifier,
    )
    .await;
    assert_eq!(server.list(BASE_SCOPE).await, ["whoami"]);
    assert_eq!(
        server.list("mcp:tools invoices:write").await,
        ["void_invoice", "whoami"]
    );
}
