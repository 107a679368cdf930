//! Arbitrary bytes as one JSON-RPC line into the stdio serving path (`transport::LineTransport` and
//! `ToolboxServer`, serving the invoices example), after a real `initialize`.
//!
//! Checks: no panic escapes the server (it runs on this task, not a spawned one); every line the
//! server writes is a well-formed JSON-RPC 2.0 response; a line that is a request with an `id`
//! gets exactly one response carrying that id; and the session still answers a `ping` after it.
#![no_main]

use std::sync::OnceLock;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use mcp_tool_runtime::ToolboxServer;
use mcp_tool_runtime::rmcp::ServiceExt;
use mcp_tool_runtime::transport::LineTransport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const SENTINEL: &str = "fuzz-sentinel";

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
    })
}

/// The id the fuzzed line's request carries, if it is a request whose id this check can read.
fn request_id(line: &[u8]) -> Option<Value> {
    let value: Value = serde_json::from_slice(line).ok()?;
    let id = value.get("id")?;
    value.get("method")?.as_str()?;
    match id {
        Value::Number(n) if n.is_i64() => Some(id.clone()),
        Value::String(s) if s != SENTINEL => Some(id.clone()),
        _ => None,
    }
}

async fn session(line: Vec<u8>) {
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
    let expected = request_id(&line);
    let client = async move {
        let (reader, mut writer) = tokio::io::split(client);
        let mut lines = BufReader::new(reader).lines();
        let init = json!({"jsonrpc": "2.0", "id": SENTINEL, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "fuzz", "version": "0"}}});
        let mut out = serde_json::to_vec(&init).unwrap();
        out.push(b'\n');
        out.extend_from_slice(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        out.push(b'\n');
        out.extend_from_slice(&line);
        out.push(b'\n');
        out.extend_from_slice(
            format!(r#"{{"jsonrpc":"2.0","id":"{SENTINEL}","method":"ping"}}"#).as_bytes(),
        );
        out.push(b'\n');
        writer.write_all(&out).await.unwrap();
        let mut sentinels = 0;
        let mut answers_to_line = 0;
        while sentinels < 2 || (expected.is_some() && answers_to_line == 0) {
            let next = tokio::time::timeout(Duration::from_secs(5), lines.next_line()).await;
            let text = next
                .expect("every request is answered: no answer within 5 s")
                .unwrap()
                .expect("the server keeps the session open");
            let message: Value = serde_json::from_str(&text).expect("the server writes JSON");
            assert_eq!(message["jsonrpc"], "2.0", "{text}");
            if message.get("method").is_some() {
                continue; // a notification or request of the server's own
            }
            assert!(
                message.get("result").is_some() != message.get("error").is_some(),
                "a response has a result or an error: {text}"
            );
            if message["id"] == SENTINEL {
                sentinels += 1;
            } else if Some(&message["id"]) == expected.as_ref() {
                answers_to_line += 1;
            }
        }
        assert!(answers_to_line <= 1, "one answer per request");
        drop(writer);
    };
    tokio::select! {
        () = serve => panic!("the server stopped serving"),
        () = client => {}
    }
}

fuzz_target!(|data: &[u8]| {
    // One line: a newline inside would make it several.
    let line: Vec<u8> = data
        .iter()
        .map(|b| if *b == b'\n' { b' ' } else { *b })
        .collect();
    runtime().block_on(session(line));
});
