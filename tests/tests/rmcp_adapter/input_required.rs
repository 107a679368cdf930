//! At 2026-07-28 a client request is an input-required result carrying sealed state.

use serde_json::json;
use tests::wire::Session;

use super::fixtures::*;

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
