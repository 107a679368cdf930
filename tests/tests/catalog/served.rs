//! Prompts, resources and completions served over the wire: at 2025-11-25 on a session
//! (subscriptions, elicitation on the session), at 2026-07-28 statelessly (input-required
//! results, `subscriptions/listen`, SEP-2164's not-found code, caching hints).

use mcp_tool_runtime::{ToolboxServer, mcp_prompt};
use serde_json::{Value, json};
use tests::wire::{Session, meta_2026};

use super::fixtures::shop;

fn server() -> ToolboxServer {
    ToolboxServer::new(shop()).unwrap()
}

fn request(id: u64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// `params` with the `_meta` of a 2026-07-28 client that can be asked to elicit.
fn at_2026(mut params: Value) -> Value {
    params["_meta"] = meta_2026(json!({"elicitation": {}}));
    params
}

/// Added by an update, to see the prompt list change.
#[mcp_prompt]
fn added() -> &'static str {
    "added"
}

#[tokio::test]
async fn a_2025_client_lists_gets_reads_and_completes() {
    let mut session = Session::open(server(), 1 << 20, Some(json!({}))).await;
    let capabilities = &session.init["result"]["capabilities"];
    assert_eq!(capabilities["prompts"], json!({"listChanged": true}));
    assert_eq!(
        capabilities["resources"],
        json!({"subscribe": true, "listChanged": true})
    );
    assert_eq!(capabilities["completions"], json!({}));

    let listed = session.request(request(1, "prompts/list", json!({}))).await;
    assert_eq!(
        listed["result"]["prompts"].as_array().unwrap().len(),
        6,
        "{listed}"
    );
    let got = session
        .request(request(
            2,
            "prompts/get",
            json!({"name": "reply", "arguments": {"message": "Hi", "tone": "formal"}}),
        ))
        .await;
    assert_eq!(
        got["result"]["messages"][0],
        json!({"role": "user", "content": {"type": "text", "text": "Reply, Formal: Hi"}})
    );
    let bad = session
        .request(request(
            3,
            "prompts/get",
            json!({"name": "reply", "arguments": {"message": "Hi"}}),
        ))
        .await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    assert_eq!(
        bad["error"]["message"],
        "missing required argument `tone` of prompt `reply`"
    );

    let templates = session
        .request(request(4, "resources/templates/list", json!({})))
        .await;
    assert_eq!(
        templates["result"]["resourceTemplates"][1]["uriTemplate"], "invoices://{number}",
        "{templates}"
    );
    let read = session
        .request(request(5, "resources/read", json!({"uri": "invoices://7"})))
        .await;
    assert_eq!(
        read["result"]["contents"][0]["mimeType"],
        "application/json"
    );
    let missing = session
        .request(request(6, "resources/read", json!({"uri": "invoices://8"})))
        .await;
    assert_eq!(missing["error"]["code"], -32002, "{missing}");
    assert_eq!(missing["error"]["data"], json!({"uri": "invoices://8"}));

    let completed = session
        .request(request(
            7,
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "plan_delivery"},
                   "argument": {"name": "city", "value": "r"}}),
        ))
        .await;
    assert_eq!(
        completed["result"]["completion"],
        json!({"values": ["Rome"], "total": 1, "hasMore": false})
    );
}

#[tokio::test]
async fn a_2025_subscriber_hears_of_updates_until_it_unsubscribes() {
    let server = server();
    let mut session = Session::open(server.clone(), 1 << 20, Some(json!({}))).await;
    let subscribed = session
        .request(request(
            1,
            "resources/subscribe",
            json!({"uri": "invoices://7"}),
        ))
        .await;
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    server.notify_resource_updated("invoices://8").await;
    server.notify_resource_updated("invoices://7").await;
    let notice = session.next().await;
    assert_eq!(
        notice,
        json!({"jsonrpc": "2.0", "method": "notifications/resources/updated",
               "params": {"uri": "invoices://7"}}),
        "only the resource subscribed to"
    );
    session
        .request(request(
            2,
            "resources/unsubscribe",
            json!({"uri": "invoices://7"}),
        ))
        .await;
    server.notify_resource_updated("invoices://7").await;
    session.assert_quiet_and_serving(3).await;

    let unknown = session
        .request(request(
            4,
            "resources/subscribe",
            json!({"uri": "nowhere://1"}),
        ))
        .await;
    assert_eq!(unknown["error"]["code"], -32002, "{unknown}");
}

#[tokio::test]
async fn a_session_subscribes_to_at_most_its_share() {
    let server = server();
    let mut limits = server.limits();
    limits.max_resource_subscriptions_per_session = 2;
    server.set_limits(limits).unwrap();
    let mut session = Session::open(server.clone(), 1 << 20, Some(json!({}))).await;
    for (id, uri) in [
        (1, "invoices://1"),
        (2, "invoices://2"),
        (3, "invoices://2"),
    ] {
        let ok = session
            .request(request(id, "resources/subscribe", json!({"uri": uri})))
            .await;
        assert_eq!(ok["result"], json!({}), "{ok}");
    }
    let refused = session
        .request(request(
            4,
            "resources/subscribe",
            json!({"uri": "invoices://3"}),
        ))
        .await;
    assert_eq!(refused["error"]["code"], -32029, "{refused}");
    assert_eq!(
        refused["error"]["data"]["limit"],
        "max_resource_subscriptions_per_session"
    );
    assert_eq!(server.refusals().subscriptions, 1);
    // Another session has its own share.
    let mut other = Session::open(server, 1 << 20, Some(json!({}))).await;
    let ok = other
        .request(request(
            1,
            "resources/subscribe",
            json!({"uri": "invoices://3"}),
        ))
        .await;
    assert_eq!(ok["result"], json!({}), "{ok}");
}

#[tokio::test]
async fn a_2025_session_hears_which_lists_an_update_changed() {
    let server = server();
    let mut session = Session::open(server.clone(), 1 << 20, Some(json!({}))).await;
    session.assert_quiet_and_serving(1).await;
    server
        .update(|toolbox| toolbox.register_prompt(added::prompt()).map(drop))
        .await
        .unwrap();
    let methods = [session.next().await, session.next().await].map(|m| m["method"].clone());
    assert_eq!(
        methods,
        [
            json!("notifications/tools/list_changed"),
            json!("notifications/prompts/list_changed")
        ]
    );
    // The resources did not change: nothing more.
    session.assert_quiet_and_serving(2).await;
}

#[tokio::test]
async fn a_2025_prompt_asks_the_user_on_the_session() {
    let mut session = Session::open(server(), 1 << 20, Some(json!({"elicitation": {}}))).await;
    session
        .send(request(1, "prompts/get", json!({"name": "focused_review"})))
        .await;
    let ask = session.next().await;
    assert_eq!(ask["method"], "elicitation/create", "{ask}");
    assert_eq!(ask["params"]["message"], "What should the review focus on?");
    session
        .send(json!({"jsonrpc": "2.0", "id": ask["id"],
                     "result": {"action": "accept", "content": {"focus": "tests"}}}))
        .await;
    let got = session.next().await;
    assert_eq!(got["id"], 1);
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"],
        "Review, focusing on tests."
    );
}

#[tokio::test]
async fn a_2026_prompt_asks_with_an_input_required_result_and_is_answered_on_retry() {
    let mut session = Session::open(server(), 1 << 20, None).await;
    let asked = session
        .request(request(
            1,
            "prompts/get",
            at_2026(json!({"name": "focused_review"})),
        ))
        .await;
    let result = &asked["result"];
    assert_eq!(result["resultType"], "input_required", "{asked}");
    assert_eq!(
        result["inputRequests"]["focus"]["method"],
        "elicitation/create"
    );
    let state = result["requestState"].as_str().unwrap().to_owned();
    let answered = session
        .request(request(
            2,
            "prompts/get",
            at_2026(json!({
                "name": "focused_review",
                "inputResponses": {"focus": {"action": "accept", "content": {"focus": "naming"}}},
                "requestState": state,
            })),
        ))
        .await;
    assert_eq!(answered["result"]["resultType"], "complete", "{answered}");
    assert_eq!(
        answered["result"]["messages"][0]["content"]["text"],
        "Review, focusing on naming."
    );
    // The state is bound to this prompt: it does not answer another.
    let replayed = session
        .request(request(
            3,
            "prompts/get",
            at_2026(json!({"name": "chart", "requestState": state})),
        ))
        .await;
    assert!(replayed.get("error").is_some(), "{replayed}");
}

#[tokio::test]
async fn at_2026_not_found_is_invalid_params_and_lists_carry_caching_hints() {
    let mut session = Session::open(server(), 1 << 20, None).await;
    let missing = session
        .request(request(
            1,
            "resources/read",
            at_2026(json!({"uri": "invoices://8"})),
        ))
        .await;
    assert_eq!(missing["error"]["code"], -32602, "SEP-2164: {missing}");
    assert_eq!(missing["error"]["data"], json!({"uri": "invoices://8"}));
    for (id, method) in [
        (2, "prompts/list"),
        (3, "resources/list"),
        (4, "resources/templates/list"),
    ] {
        let listed = session
            .request(request(id, method, at_2026(json!({}))))
            .await;
        assert!(listed["result"]["ttlMs"].is_u64(), "{method}: {listed}");
        assert_eq!(listed["result"]["cacheScope"], "public", "{method}");
    }
    let read = session
        .request(request(
            5,
            "resources/read",
            at_2026(json!({"uri": "shop://hours"})),
        ))
        .await;
    assert!(read["result"]["ttlMs"].is_u64(), "{read}");
    let subscribe = session
        .request(request(
            6,
            "resources/subscribe",
            at_2026(json!({"uri": "shop://hours"})),
        ))
        .await;
    assert_eq!(subscribe["error"]["code"], -32601, "{subscribe}");
}

#[tokio::test]
async fn a_2026_listen_stream_hears_the_resources_it_names_and_the_lists_it_asked_for() {
    let server = server();
    let mut session = Session::open(server.clone(), 1 << 20, None).await;
    let ack = session
        .listen(
            1,
            json!({"promptsListChanged": true,
                   "resourceSubscriptions": ["invoices://7", "nowhere://1"]}),
        )
        .await;
    assert_eq!(
        ack["params"]["notifications"],
        json!({"promptsListChanged": true, "resourceSubscriptions": ["invoices://7"]}),
        "a URI the server does not serve is not accepted: {ack}"
    );
    server.notify_resource_updated("shop://hours").await;
    server.notify_resource_updated("invoices://7").await;
    let updated = session.next().await;
    assert_eq!(
        updated["method"], "notifications/resources/updated",
        "{updated}"
    );
    assert_eq!(updated["params"]["uri"], "invoices://7");
    server
        .update(|toolbox| toolbox.register_prompt(added::prompt()).map(drop))
        .await
        .unwrap();
    let changed = session.next().await;
    assert_eq!(
        changed["method"], "notifications/prompts/list_changed",
        "not the tools', which it did not ask for: {changed}"
    );
}

#[tokio::test]
async fn a_prompt_get_holds_a_place_of_the_sessions_share_of_calls_until_it_ends() {
    let server = server();
    let mut limits = server.limits();
    limits.max_calls_per_session = 1;
    server.set_limits(limits).unwrap();
    let mut session =
        Session::open(server.clone(), 1 << 20, Some(json!({"elicitation": {}}))).await;
    // The first get waits on the user's answer, holding the session's one place.
    session
        .send(request(1, "prompts/get", json!({"name": "focused_review"})))
        .await;
    let ask = session.next().await;
    assert_eq!(ask["method"], "elicitation/create", "{ask}");
    for (id, method, params) in [
        (2, "prompts/get", json!({"name": "chart"})),
        (3, "resources/read", json!({"uri": "shop://hours"})),
        (
            4,
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "plan_delivery"},
                   "argument": {"name": "city", "value": ""}}),
        ),
    ] {
        let refused = session.request(request(id, method, params)).await;
        assert_eq!(refused["error"]["code"], -32029, "{method}: {refused}");
        assert_eq!(refused["error"]["data"]["limit"], "max_calls_per_session");
    }
    session
        .send(json!({"jsonrpc": "2.0", "id": ask["id"],
                     "result": {"action": "decline"}}))
        .await;
    let got = session.next().await;
    assert_eq!(got["id"], 1, "{got}");
    let read = session
        .request(request(5, "resources/read", json!({"uri": "shop://hours"})))
        .await;
    assert_eq!(
        read["result"]["contents"][0]["text"], "9 to 5",
        "the place came back: {read}"
    );
}
