//! A changed toolbox is served and announced: caching hints, list-changed notices, subscriptions.

use mcp_tool_runtime::Toolbox;
use serde_json::json;
use tests::wire::{Session, call, meta_2026};

use super::fixtures::*;

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
