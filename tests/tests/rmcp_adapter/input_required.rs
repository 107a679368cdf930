//! At 2026-07-28 a client request is an input-required result carrying sealed state.

use serde_json::{Value, json};
use tests::wire::Session;

use mcp_tool_runtime::context::ClientRequestError;
use mcp_tool_runtime::{ToolContext, ToolboxServer, mcp_tool};

use super::fixtures::*;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirm {
    yes: bool,
}

/// Sends a payment reminder for an invoice, once the user confirms.
#[mcp_tool]
async fn remind(invoice: String, ctx: &ToolContext) -> Result<String, ClientRequestError> {
    let answer = ctx
        .elicit::<Confirm>("confirm", &format!("Send a reminder for {invoice}?"))
        .await?;
    Ok(match answer.accepted() {
        Some(Confirm { yes: true }) => format!("reminded {invoice}"),
        _ => "not sent".to_owned(),
    })
}

/// Asks two questions, one after the other.
#[mcp_tool]
async fn twice(ctx: &ToolContext) -> Result<String, ClientRequestError> {
    let word = |answer: Option<Confirm>| {
        if answer.is_some_and(|c| c.yes) {
            "yes"
        } else {
            "no"
        }
    };
    let first = ctx.elicit::<Confirm>("first", "First?").await?.accepted();
    let second = ctx.elicit::<Confirm>("second", "Second?").await?.accepted();
    Ok(format!("first {}, second {}", word(first), word(second)))
}

/// The wire tests' server, with `remind` and `twice` too.
async fn input_server() -> ToolboxServer {
    let served = server();
    served
        .update(|toolbox| {
            toolbox.register(remind::tool())?;
            toolbox.register(twice::tool()).map(drop)
        })
        .await
        .unwrap();
    served
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
    assert_eq!(done["result"]["structuredContent"], json!("Ada"), "{done}");

    // A changed state is refused (-32602).
    let tampered = session
        .request(call_2026(
            12,
            "chatty",
            json!({"inputResponses": answer, "requestState": format!("{state}x")}),
        ))
        .await;
    assert_invalid_params(&tampered, "does not verify for this call");

    // A state sealed for one tool does not unlock another.
    let other = session
        .request(call_2026(13, "add", json!({"requestState": state})))
        .await;
    assert_invalid_params(&other, "does not verify for this call");

    // An answer that is not the client's result object is refused.
    let bad = session
        .request(call_2026(
            14,
            "chatty",
            json!({"inputResponses": {"name": 7}, "requestState": state}),
        ))
        .await;
    assert_invalid_params(&bad, "inputResponses.name");
}

/// The `remind` call for `invoice` at 2026-07-28, with `extra` params.
fn remind_call(id: u64, invoice: &str, extra: Value) -> Value {
    let mut call = call_2026(id, "remind", extra);
    call["params"]["arguments"] = json!({ "invoice": invoice });
    call
}

fn confirmed() -> Value {
    json!({"confirm": {"action": "accept", "content": {"yes": true}}})
}

/// The `requestState` of the question `remind` asks about `invoice`.
async fn asked_about(session: &mut Session, id: u64, invoice: &str) -> Value {
    let asked = session.request(remind_call(id, invoice, json!({}))).await;
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");
    asked["result"]["requestState"].clone()
}

#[tokio::test]
async fn a_request_state_answers_only_the_call_that_asked() {
    let mut session = Session::open(input_server().await, 1 << 20, None).await;
    let state = asked_about(&mut session, 1, "INV-1").await;
    let answer = json!({"inputResponses": confirmed(), "requestState": state});

    // The question was about INV-1: the yes does not send a reminder for INV-3.
    let elsewhere = session
        .request(remind_call(2, "INV-3", answer.clone()))
        .await;
    assert_invalid_params(&elsewhere, "does not verify for this call");
    assert_invalid_params(&elsewhere, "other arguments");

    // For INV-1 it does.
    let done = session.request(remind_call(3, "INV-1", answer)).await;
    assert_eq!(
        done["result"]["structuredContent"],
        json!("reminded INV-1"),
        "{done}"
    );
}

#[tokio::test]
async fn answers_to_keys_not_asked_are_ignored_and_cannot_replace_sealed_ones() {
    let mut session = Session::open(input_server().await, 1 << 20, None).await;
    // Without a `requestState`, `inputResponses` answer only what the tool asks in this call
    // (as the conformance suite expects); other keys are ignored.
    let mut responses = confirmed();
    responses["unasked"] = json!({"action": "accept", "content": {"yes": false}});
    let unstated = session
        .request(remind_call(
            1,
            "INV-1",
            json!({"inputResponses": responses}),
        ))
        .await;
    assert_eq!(
        unstated["result"]["structuredContent"],
        json!("reminded INV-1"),
        "{unstated}"
    );

    // A key the tool never asked, beside the one it did, is ignored.
    let state = asked_about(&mut session, 2, "INV-1").await;
    let mut responses = confirmed();
    responses["other"] = json!({"action": "accept", "content": {"yes": true}});
    let done = session
        .request(remind_call(
            3,
            "INV-1",
            json!({"inputResponses": responses, "requestState": state}),
        ))
        .await;
    assert_eq!(
        done["result"]["structuredContent"],
        json!("reminded INV-1"),
        "{done}"
    );

    // `twice` asks `first`, then `second`. The state of the second round holds the sealed
    // answer to `first`, and a new answer to `first` cannot replace it.
    let round_one = session.request(call_2026(4, "twice", json!({}))).await;
    let state = round_one["result"]["requestState"].clone();
    let yes = json!({"action": "accept", "content": {"yes": true}});
    let no = json!({"action": "accept", "content": {"yes": false}});
    let round_two = session
        .request(call_2026(
            5,
            "twice",
            json!({"inputResponses": {"first": yes}, "requestState": state}),
        ))
        .await;
    assert_eq!(
        round_two["result"]["inputRequests"]
            .as_object()
            .map(|r| r.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["second".to_owned()]),
        "{round_two}"
    );
    let state = round_two["result"]["requestState"].clone();
    let done = session
        .request(call_2026(
            6,
            "twice",
            json!({"inputResponses": {"first": no, "second": no}, "requestState": state}),
        ))
        .await;
    assert_eq!(
        done["result"]["structuredContent"],
        json!("first yes, second no"),
        "{done}"
    );
}

#[tokio::test]
async fn an_expired_request_state_is_refused_naming_its_ttl() {
    let served = input_server().await;
    let mut limits = served.limits();
    limits.request_state_ttl = std::time::Duration::from_millis(50);
    served.set_limits(limits).unwrap();
    let mut session = Session::open(served, 1 << 20, None).await;
    let state = asked_about(&mut session, 1, "INV-1").await;
    tokio::time::sleep(std::time::Duration::from_millis(120)).await;
    let late = session
        .request(remind_call(
            2,
            "INV-1",
            json!({"inputResponses": confirmed(), "requestState": state}),
        ))
        .await;
    assert_invalid_params(&late, "has expired (it may be answered for 50ms)");
}

#[test]
fn a_request_state_ttl_is_over_zero_and_at_most_an_hour() {
    use mcp_tool_runtime::server::{Limits, LimitsError, MAX_REQUEST_STATE_TTL};
    let served = server();
    for ttl in [std::time::Duration::ZERO, MAX_REQUEST_STATE_TTL * 2] {
        let mut limits = Limits::default();
        limits.request_state_ttl = ttl;
        assert_eq!(
            served.set_limits(limits).unwrap_err(),
            LimitsError::RequestStateTtl(ttl)
        );
    }
    assert_eq!(served.limits(), Limits::default(), "unchanged");
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
    assert_eq!(done["result"]["structuredContent"], json!("Ada"), "{done}");
    // A server with its own random key refuses the state.
    let mut stranger = Session::open(server(), 1 << 20, None).await;
    let refused = stranger.request(call_2026(52, "chatty", retry)).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
}

#[tokio::test]
async fn over_http_a_request_state_answers_only_the_caller_it_was_issued_to() {
    let server = tests::http::HttpServer::start(input_server().await).await;
    let headers = |token: &'static str| [("Authorization", token)];
    let asked = server
        .post(
            &headers("Bearer alice"),
            &remind_call(1, "INV-1", json!({})),
        )
        .await;
    assert_eq!(asked.status, 200, "{asked:?}");
    let state = asked.message["result"]["requestState"].clone();
    assert!(state.is_string(), "{asked:?}");
    let answer = json!({"inputResponses": confirmed(), "requestState": state});

    // Another caller holding alice's state and answer gets no reminder sent.
    let bob = server
        .post(
            &headers("Bearer bob"),
            &remind_call(2, "INV-1", answer.clone()),
        )
        .await;
    assert_invalid_params(&bob.message, "another caller");

    let alice = server
        .post(&headers("Bearer alice"), &remind_call(3, "INV-1", answer))
        .await;
    assert_eq!(
        alice.message["result"]["structuredContent"],
        json!("reminded INV-1"),
        "{alice:?}"
    );
}
