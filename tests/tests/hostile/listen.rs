//! `subscriptions/listen` streams (2026-07-28): the server keeps a bounded number open.

use mcp_tool_runtime::server::Limits;
use serde_json::json;
use tests::wire::Session;

use super::fixtures::*;

#[tokio::test]
async fn listen_streams_past_the_servers_limit_are_refused_with_an_error() {
    let mut limits = Limits::default();
    limits.max_listen_streams = 2;
    let (served, _) = server(limits);
    let mut session = Session::open(served.clone(), 1 << 20, None).await;
    session.listen(1, json!({"toolsListChanged": true})).await;
    session.listen(2, json!({"toolsListChanged": true})).await;
    session.listen(3, json!({"toolsListChanged": true})).await;
    let refused = session.next().await;
    assert_eq!(refused["id"], 3, "{refused}");
    assert_limit(&refused, "max_listen_streams", 2);
    assert_eq!(served.refusals().listen_streams, 1);
    // The two open streams still hear of changes.
    served
        .update(|toolbox| {
            if toolbox.remove("add") {
                Ok(())
            } else {
                Err("no add")
            }
        })
        .await
        .unwrap();
    for _ in 0..2 {
        assert_eq!(
            session.next().await["method"],
            "notifications/tools/list_changed"
        );
    }
}

#[tokio::test]
async fn listen_streams_past_a_callers_share_are_refused_naming_it() {
    // Without a verified caller and without a session (2026-07-28 over stdio), every request is
    // the one unverified caller: its share holds, below the server's bound.
    let mut limits = Limits::default();
    limits.max_listen_streams = 10;
    limits.max_listen_streams_per_caller = 2;
    let (served, _) = server(limits);
    let mut session = Session::open(served.clone(), 1 << 20, None).await;
    session.listen(1, json!({"toolsListChanged": true})).await;
    session.listen(2, json!({"toolsListChanged": true})).await;
    session.listen(3, json!({"toolsListChanged": true})).await;
    let refused = session.next().await;
    assert_eq!(refused["id"], 3, "{refused}");
    assert_limit(&refused, "max_listen_streams_per_caller", 2);
    assert_eq!(served.refusals().listen_streams_per_caller, 1);
    assert_eq!(served.refusals().listen_streams, 0);
}
