//! Requests that cannot be read or have the wrong shape: each gets its error, with its id.

use serde_json::{Value, json};
use tests::wire::call;

use super::fixtures::*;

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

/// A wrongly typed `inputResponses` or `requestState` makes rmcp hand the call over as a custom
/// request; it is a JSON-RPC error naming the field, and the tool never runs (it used to run
/// detached from the client, uncancellable: `waits_forever` then held its call forever).
#[tokio::test]
async fn wrongly_typed_input_fields_are_json_rpc_errors_naming_them() {
    let mut session = start().await;
    for (id, field, value) in [
        (1, "requestState", json!(5)),
        (2, "requestState", json!({"a": 1})),
        (3, "inputResponses", json!([1])),
        (4, "inputResponses", json!("yes")),
    ] {
        let mut request = call(id, "waits_forever", json!({}));
        request["params"][field] = value.clone();
        let answer = session.request(request).await;
        assert_eq!(answer["error"]["code"], -32602, "{field} {value}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(&format!("`{field}` must be")), "{message}");
    }
    session.assert_quiet_and_serving(9).await;
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

/// Over Streamable HTTP, rmcp answers a body it cannot read into its model with a bare 415;
/// the guard (which reads only the message's outline, leaving the parse to rmcp) words the
/// JSON-RPC error the request is owed, with its id.
#[tokio::test]
async fn over_http_a_body_rmcp_cannot_read_gets_a_json_rpc_error_with_its_id() {
    let http = tests::http::HttpServer::start(server()).await;
    for (id, body, code) in [
        (
            Value::from(51),
            r#"{"jsonrpc":"2.0","id":51,"method":"initialize","params":7}"#,
            None,
        ),
        (
            Value::from(52),
            r#"{"jsonrpc":"2.0","id":52,"method":7}"#,
            None,
        ),
        (
            Value::from("r-9"),
            r#"{"jsonrpc":"2.0","id":"r-9","method":"ping","params":{"#,
            Some(-32700),
        ),
        (Value::Null, "[1, 2]", Some(-32600)),
        (Value::Null, "7", Some(-32600)),
    ] {
        let reply = http.post_raw(&[], &Value::Null, body.as_bytes()).await;
        // 200 when the error answers a request by its id (the client hands it to that
        // request), 400 when it has none.
        let status = if id.is_null() { 400 } else { 200 };
        assert_eq!(reply.status, status, "{body}: {reply:?}");
        assert_eq!(reply.message["id"], id, "{body}: {reply:?}");
        let got = &reply.message["error"]["code"];
        match code {
            Some(code) => assert_eq!(*got, code, "{body}: {reply:?}"),
            None => assert!(got.is_i64(), "{body}: {reply:?}"),
        }
    }
}
