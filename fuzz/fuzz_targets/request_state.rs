//! Input-required state (MCP 2026-07-28) as a client may present it: a sealed `requestState`
//! changed, replayed with other arguments, made up, or sent with arbitrary `inputResponses`, on
//! the stdio serving path (`transport::LineTransport` and `ToolboxServer`, serving the invoices
//! example's `send_reminder`, which asks the user to confirm).
//!
//! Checks: no panic escapes the server; the retry gets exactly one response, with a result or an
//! error; a state that differs from the one the server sealed, or one presented with other
//! arguments, is refused with JSON-RPC -32602, never answered with a reminder sent.
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use mcp_tool_runtime::ToolboxServer;
use mcp_tool_runtime::rmcp::ServiceExt;
use mcp_tool_runtime::transport::LineTransport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines, ReadHalf, WriteHalf};

type Reader = Lines<BufReader<ReadHalf<tokio::io::DuplexStream>>>;
type Writer = WriteHalf<tokio::io::DuplexStream>;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
    })
}

/// A `send_reminder` call at 2026-07-28 from a client that can be asked (elicitation).
fn call(id: u64, number: &str, extra: Value) -> Vec<u8> {
    let mut params = json!({
        "name": "send_reminder",
        "arguments": {"number": number},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
            "io.modelcontextprotocol/clientInfo": {"name": "fuzz", "version": "0"}
        }
    });
    if let Value::Object(extra) = extra {
        for (key, value) in extra {
            params[key] = value;
        }
    }
    let mut line = serde_json::to_vec(
        &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}),
    )
    .unwrap();
    line.push(b'\n');
    line
}

/// Sends `line` and returns the one response with `id`, checking it is a response.
async fn exchange(writer: &mut Writer, lines: &mut Reader, line: &[u8], id: u64) -> Value {
    writer.write_all(line).await.unwrap();
    loop {
        let next = tokio::time::timeout(Duration::from_secs(5), lines.next_line()).await;
        let text = next
            .expect("every request is answered: no answer within 5 s")
            .unwrap()
            .expect("the server keeps the session open");
        let message: Value = serde_json::from_str(&text).expect("the server writes JSON");
        assert_eq!(message["jsonrpc"], "2.0", "{text}");
        if message.get("method").is_some() {
            continue;
        }
        assert!(
            message.get("result").is_some() != message.get("error").is_some(),
            "a response has a result or an error: {text}"
        );
        assert_eq!(
            message["id"], id,
            "one response, to the request sent: {text}"
        );
        return message;
    }
}

fn refused(answer: &Value) -> bool {
    answer["error"]["code"] == -32602
}

fn reminder_sent(answer: &Value) -> bool {
    answer["result"]["structuredContent"]["sent"] == true
}

async fn session(mode: u8, payload: &[u8]) {
    let (client, server) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server);
    let handler = ToolboxServer::new(fuzz::invoices::toolbox().unwrap()).unwrap();
    let serve = async move {
        let running = handler
            .serve(LineTransport::new(server_read, server_write))
            .await
            .expect("the server starts");
        let _ = running.waiting().await;
    };
    let client = async move {
        let (reader, mut writer) = tokio::io::split(client);
        let mut lines = BufReader::new(reader).lines();
        let asked = exchange(&mut writer, &mut lines, &call(1, "INV-1", json!({})), 1).await;
        let sealed = asked["result"]["requestState"]
            .as_str()
            .expect("the first call asks, with a sealed state")
            .to_owned();
        let yes = json!({"confirm": {"action": "accept", "content": {"send": true}}});
        let text = String::from_utf8_lossy(payload).into_owned();
        match mode % 4 {
            // The sealed state, changed byte by byte.
            0 => {
                let mut state = sealed.clone().into_bytes();
                let len = state.len();
                for (i, b) in payload.iter().enumerate() {
                    state[i % len] ^= b;
                }
                let state = String::from_utf8_lossy(&state).into_owned();
                let retry = json!({"requestState": state, "inputResponses": yes});
                let answer = exchange(&mut writer, &mut lines, &call(2, "INV-1", retry), 2).await;
                if state != sealed {
                    assert!(refused(&answer), "a changed state was accepted: {answer}");
                }
            }
            // The sealed state, presented for other arguments.
            1 => {
                let retry = json!({"requestState": sealed, "inputResponses": yes});
                let answer = exchange(&mut writer, &mut lines, &call(2, &text, retry), 2).await;
                if text != "INV-1" {
                    assert!(refused(&answer), "replayed for `{text}`: {answer}");
                }
            }
            // A made-up state.
            2 => {
                let retry = json!({"requestState": text, "inputResponses": yes});
                let answer = exchange(&mut writer, &mut lines, &call(2, "INV-1", retry), 2).await;
                assert!(
                    !reminder_sent(&answer),
                    "a made-up state was accepted: {answer}"
                );
            }
            // The sealed state with arbitrary `inputResponses`.
            _ => {
                let responses = serde_json::from_slice::<Value>(payload).unwrap_or(Value::Null);
                let retry = json!({"requestState": sealed, "inputResponses": responses});
                exchange(&mut writer, &mut lines, &call(2, "INV-1", retry), 2).await;
            }
        }
        drop(writer);
    };
    tokio::select! {
        () = serve => panic!("the server stopped serving"),
        () = client => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, payload)) = data.split_first() else {
        return;
    };
    runtime().block_on(session(mode, payload));
});
