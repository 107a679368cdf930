//! A stdio client that sends without reading: the server stops reading its requests while its
//! answers wait, so what it queues stays bounded, and every request is still answered.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_tool_runtime::server::Limits;
use serde_json::json;
use tests::wire::Session;

use super::fixtures::*;

#[tokio::test]
async fn a_client_that_does_not_read_is_not_read_from_and_loses_nothing() {
    const SENT: usize = 10_000;
    let (served, _) = server(Limits::default());
    // 16 KiB pipes each way; the server lets 8 answers wait before it stops reading.
    let session = Session::open_with(served, Some(json!({})), 16 << 10, |t| {
        t.max_queued_messages(8)
    })
    .await;
    let (mut writer, mut reader) = session.split();
    let written = Arc::new(AtomicUsize::new(0));
    let counter = written.clone();
    let sending = tokio::spawn(async move {
        for id in 1..=SENT {
            writer
                .send(json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
                .await;
            counter.store(id, Ordering::SeqCst);
        }
        writer
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    // What the client could write: what the two pipes hold (about 16 KiB of 40-byte requests
    // and 16 KiB of 40-byte answers) and the 8 waiting answers; nowhere near all of it.
    let accepted = written.load(Ordering::SeqCst);
    assert!(
        accepted < 1_500,
        "the server read {accepted} of {SENT} requests from a client that reads nothing"
    );
    // Once the client reads, every request is answered.
    let mut answered = vec![false; SENT + 1];
    for _ in 1..=SENT {
        let answer = reader.next().await;
        let id = answer["id"].as_u64().unwrap() as usize;
        assert!(!std::mem::replace(&mut answered[id], true), "{id} twice");
    }
    tokio::time::timeout(Duration::from_secs(10), sending)
        .await
        .unwrap()
        .unwrap();
}
