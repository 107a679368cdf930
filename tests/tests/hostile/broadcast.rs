//! Telling clients the tools changed: a client that stopped reading delays no one, and a client
//! repeating `notifications/initialized` is told once.

use std::time::Duration;

use mcp_tool_runtime::server::Limits;
use serde_json::json;
use tests::wire::{Session, call};

use super::fixtures::*;

fn remove_add(toolbox: &mut mcp_tool_runtime::Toolbox) -> Result<(), &'static str> {
    if toolbox.remove("add") {
        Ok(())
    } else {
        Err("no add")
    }
}

#[tokio::test]
async fn a_client_that_stopped_reading_delays_no_one_and_is_forgotten() {
    let mut limits = Limits::default();
    limits.notify_timeout = Duration::from_millis(300);
    let (served, _) = server(limits);
    // A 2 KiB pipe the client never reads, filled with the answers to its pings: the server can
    // write nothing more to it. The transport lets every answer wait, so it reads all 200 pings
    // whatever the timing: with its default of 64 it stopped reading at about 120, and the pings
    // past what the pipe and its buffer hold blocked this test for good (1 run in 40).
    let mut slow = Session::open_with(served.clone(), Some(json!({})), 2048, |t| {
        t.max_queued_messages(1024)
    })
    .await;
    for id in 1..=200 {
        slow.send(json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
            .await;
    }
    let mut fast = Session::open(served.clone(), 1 << 20, Some(json!({}))).await;
    fast.assert_quiet_and_serving(1000).await;

    // The change completes, and the reading client hears of it, though one client cannot be told.
    tokio::time::timeout(Duration::from_secs(5), served.update(remove_add))
        .await
        .expect("update() waited on the client that does not read")
        .unwrap();
    assert_eq!(
        fast.next().await["method"],
        "notifications/tools/list_changed"
    );
    assert_eq!(served.refusals().notices_dropped, 1);

    // The slow client is forgotten: the next change does not wait on it at all.
    let started = std::time::Instant::now();
    served
        .update(|toolbox| toolbox.register(add::tool()).map(drop))
        .await
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_millis(300),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        fast.next().await["method"],
        "notifications/tools/list_changed"
    );
    let sum = fast.request(call(7, "add", json!({"a": 1, "b": 1}))).await;
    assert_eq!(sum["result"]["structuredContent"], json!({"result": 2}));
}

#[tokio::test]
async fn a_client_repeating_initialized_is_told_of_a_change_once() {
    let (served, _) = server(Limits::default());
    let mut session = Session::open(served.clone(), 1 << 20, Some(json!({}))).await;
    for _ in 0..1000 {
        session
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
    }
    session.assert_quiet_and_serving(1).await;
    served.update(remove_add).await.unwrap();
    assert_eq!(
        session.next().await["method"],
        "notifications/tools/list_changed"
    );
    session.assert_quiet_and_serving(2).await;
}
