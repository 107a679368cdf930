//! The result ceiling applies to every registered tool, whenever it was set.

use mcp_tool_runtime::Toolbox;
use serde_json::json;

use super::fixtures::*;

#[tokio::test]
async fn a_result_ceiling_applies_to_registered_tools() {
    let mut toolbox = Toolbox::new();
    toolbox.set_max_result_bytes(100);
    toolbox.register(list_invoices::tool()).unwrap();
    let result = call(&toolbox, "list.invoices", json!({})).await;
    assert!(error_text(&result).contains("over this server's limit of 100 bytes"));
}

#[tokio::test]
async fn the_result_ceiling_applies_to_tools_registered_before_it_was_set() {
    let mut toolbox = Toolbox::new();
    toolbox.register(numbers::tool()).unwrap();
    toolbox.set_max_result_bytes(200);
    let small = call(&toolbox, "numbers", json!({"count": 2})).await;
    assert!(!small.is_error, "{small:?}");
    let large = call(&toolbox, "numbers", json!({"count": 500})).await;
    assert!(
        error_text(&large).contains("over this server's limit of 200 bytes"),
        "{large:?}"
    );
}
