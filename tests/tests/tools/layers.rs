//! Layers around every call: they see the call and its result, run in the order added, may
//! refuse a call; and the ready ones, a time limit and a concurrency limit per tool.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_tool_runtime::auth::Caller;
use mcp_tool_runtime::context::Recording;
use mcp_tool_runtime::toolbox::from_fn;
use mcp_tool_runtime::toolbox::layers::{ConcurrencyLimit, RateLimit, Timeout};
use mcp_tool_runtime::{ToolResult, Toolbox, mcp_tool};
use serde_json::json;

use super::fixtures::*;

/// Set while `waits` runs, cleared when its future is dropped.
#[derive(Clone, Default)]
struct Waiting(Arc<AtomicUsize>, Arc<AtomicBool>);

/// Waits until it is stopped.
#[mcp_tool]
async fn waits(#[state] waiting: &Waiting) -> u8 {
    struct Dropped<'a>(&'a Waiting);
    impl Drop for Dropped<'_> {
        fn drop(&mut self) {
            self.0.0.fetch_sub(1, Ordering::SeqCst);
            self.0.1.store(true, Ordering::SeqCst);
        }
    }
    waiting.0.fetch_add(1, Ordering::SeqCst);
    let _dropped = Dropped(waiting);
    std::future::pending().await
}

fn waiting_toolbox() -> (Toolbox, Waiting) {
    let waiting = Waiting::default();
    let mut toolbox = toolbox();
    toolbox.insert_state(waiting.clone());
    toolbox.register(waits::tool()).unwrap();
    (toolbox, waiting)
}

#[tokio::test]
async fn layers_see_every_call_in_the_order_added_and_may_refuse_one() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut toolbox = toolbox();
    for label in ["outer", "inner"] {
        let seen = seen.clone();
        toolbox.layer(from_fn(move |next| {
            let seen = seen.clone();
            Box::pin(async move {
                seen.lock().unwrap().push(format!(
                    "{label} before {} {}",
                    next.tool(),
                    next.arguments()
                ));
                let result = next.run().await;
                seen.lock()
                    .unwrap()
                    .push(format!("{label} after error={}", result.is_error));
                result
            })
        }));
    }
    // A layer that refuses `explode` without running it.
    toolbox.layer(from_fn(|next| {
        Box::pin(async move {
            if next.tool() == "explode" {
                return ToolResult::error("not today");
            }
            next.run().await
        })
    }));

    let sum = call(&toolbox, "add", json!({"a": 1, "b": 2})).await;
    assert_eq!(sum.structured_content, Some(json!({"result": 3})));
    assert_eq!(
        *seen.lock().unwrap(),
        [
            r#"outer before add {"a":1,"b":2}"#,
            r#"inner before add {"a":1,"b":2}"#,
            "inner after error=false",
            "outer after error=false",
        ]
    );
    // Bad arguments are a result the layers see, like any other.
    seen.lock().unwrap().clear();
    let bad = call(&toolbox, "add", json!({"a": "x", "b": 2})).await;
    assert!(bad.is_error);
    assert_eq!(seen.lock().unwrap()[3], "outer after error=true");
    // Refused: the tool (which panics) never ran.
    let refused = call(&toolbox, "explode", json!({})).await;
    assert_eq!(error_text(&refused), "not today");
}

#[tokio::test]
async fn a_call_past_its_tools_time_limit_is_stopped_and_its_future_dropped() {
    let (mut toolbox, waiting) = waiting_toolbox();
    let timeout = Timeout::new(Duration::from_secs(60)).tool("waits", Duration::from_millis(50));
    toolbox.layer(timeout.clone());
    let result = call(&toolbox, "waits", json!({})).await;
    assert_eq!(
        error_text(&result),
        "the call of tool `waits` ran longer than its limit of 50ms and was stopped"
    );
    assert!(
        waiting.1.load(Ordering::SeqCst),
        "the tool's future was dropped"
    );
    assert_eq!(timeout.expired(), 1);
    // Other tools get the default limit and finish well within it.
    let sum = call(&toolbox, "add", json!({"a": 1, "b": 1})).await;
    assert!(!sum.is_error);
    assert_eq!(timeout.expired(), 1);
}

#[tokio::test]
async fn a_call_past_its_tools_concurrency_limit_is_refused_at_once() {
    let (mut toolbox, waiting) = waiting_toolbox();
    let limit = ConcurrencyLimit::new(8).tool("waits", 1);
    toolbox.layer(limit.clone());
    let toolbox = Arc::new(toolbox);
    let first = tokio::spawn({
        let toolbox = toolbox.clone();
        async move { toolbox.call_tool("waits", json!({})).await }
    });
    while waiting.0.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    let second = call(&toolbox, "waits", json!({})).await;
    assert_eq!(
        error_text(&second),
        "tool `waits` already has 1 calls running, its limit; try again when one finishes"
    );
    assert_eq!(limit.refused(), 1);
    // Other tools have their own count.
    assert!(
        !call(&toolbox, "add", json!({"a": 1, "b": 1}))
            .await
            .is_error
    );
    // When the running call ends, the tool takes calls again.
    first.abort();
    let _ = first.await;
    while waiting.0.load(Ordering::SeqCst) != 0 {
        tokio::task::yield_now().await;
    }
    let third = tokio::time::timeout(
        Duration::from_millis(50),
        toolbox.call_tool("waits", json!({})),
    )
    .await;
    assert!(
        third.is_err(),
        "the third call runs (and waits), not refused"
    );
    assert_eq!(limit.refused(), 1);
}

/// Answers pong.
#[mcp_tool]
fn pong() -> String {
    "pong".into()
}

#[tokio::test]
async fn a_caller_past_its_rate_is_refused_until_its_bucket_refills_and_others_are_not() {
    let limit = RateLimit::new(3, Duration::from_millis(300)).max_callers(2);
    let mut toolbox = Toolbox::new();
    toolbox.register(pong::tool()).unwrap();
    toolbox.layer(limit.clone());
    let as_caller = |name: &str| Recording::new().caller(Caller::new(name)).context();
    let call = |ctx| {
        let toolbox = &toolbox;
        async move {
            toolbox
                .call_tool_with("pong", json!({}), ctx)
                .await
                .unwrap()
        }
    };
    for _ in 0..3 {
        assert!(!call(as_caller("alice")).await.is_error);
    }
    let refused = call(as_caller("alice")).await;
    assert!(refused.is_error);
    assert!(
        refused
            .text()
            .unwrap()
            .starts_with("caller `alice` made 3 calls in 300ms, its limit; try again in"),
        "{refused:?}"
    );
    // Another caller has its own bucket; calls without a caller share one.
    assert!(!call(as_caller("bob")).await.is_error);
    // A third caller, past `max_callers` while both buckets are in use, is refused.
    assert!(call(as_caller("carol")).await.is_error);
    assert_eq!(limit.refused(), 2);
    // At 10 calls per second, alice may call again after 100 ms.
    tokio::time::sleep(Duration::from_millis(120)).await;
    assert!(!call(as_caller("alice")).await.is_error);
}
