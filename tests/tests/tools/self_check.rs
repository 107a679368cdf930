//! The self-check: results that break the advertised schema are refused, on by default in debug.

use mcp_tool_runtime::{Toolbox, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use super::fixtures::*;

/// A struct whose flattened map may carry a key that collides with a field: serde lets the map's
/// value win, so no schema derived from the type admits every value it serializes to.
#[derive(Serialize, JsonSchema)]
pub struct Titled {
    pub title: String,
    #[serde(flatten)]
    pub extra: std::collections::BTreeMap<String, i64>,
}

/// Returns a title whose extra fields collide with it.
#[mcp_tool]
fn colliding() -> Titled {
    Titled {
        title: "a title".into(),
        extra: [("title".to_owned(), 1)].into_iter().collect(),
    }
}

#[derive(Serialize, JsonSchema)]
pub struct Dated {
    pub at: chrono::DateTime<chrono::Utc>,
}

/// Returns a date past year 9999, which RFC 3339 (`format: date-time`) cannot write.
#[mcp_tool]
fn far_future() -> Dated {
    Dated {
        at: chrono::NaiveDate::from_ymd_opt(10_000, 1, 1)
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap()
            .and_utc(),
    }
}

#[tokio::test]
async fn the_self_check_refuses_results_that_break_the_advertised_schema() {
    let mut toolbox = Toolbox::new();
    toolbox
        .check_results(true)
        .register(colliding::tool())
        .unwrap()
        .register(far_future::tool())
        .unwrap()
        .register(get_invoice::tool())
        .unwrap();

    let text = error_text(&call(&toolbox, "colliding", json!({})).await).to_owned();
    assert!(
        text.contains("tool `colliding` returned a result that does not conform")
            && text.contains("$.title: advertised type `string`; got a number `1`"),
        "{text}"
    );
    let text = error_text(&call(&toolbox, "far_future", json!({})).await).to_owned();
    assert!(
        text.contains(
            "$.at: advertised format `date-time`; got a string `\"+10000-01-01T00:00:00Z\"`"
        ),
        "{text}"
    );
    // Conforming results pass through untouched.
    let found = call_conforming(&toolbox, "get_invoice", json!({"number": "7"})).await;
    assert!(!found.is_error);

    // With the check off, the broken value goes out: what the check is for.
    let mut unchecked = Toolbox::new();
    unchecked
        .check_results(false)
        .register(colliding::tool())
        .unwrap();
    let served = call(&unchecked, "colliding", json!({})).await;
    assert_eq!(served.structured_content, Some(json!({"title": 1})));
}

#[test]
fn the_self_check_is_on_by_default_in_debug_builds() {
    let mut toolbox = Toolbox::new();
    toolbox.register(colliding::tool()).unwrap();
    let result = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(call(&toolbox, "colliding", json!({})));
    assert_eq!(result.is_error, cfg!(debug_assertions), "{result:?}");
}
