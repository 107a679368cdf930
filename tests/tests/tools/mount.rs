//! `Toolbox::mount`: another toolbox's tools served under a prefix, with their state, all or
//! none.

use std::time::Duration;

use mcp_tool_runtime::toolbox::layers::Timeout;
use mcp_tool_runtime::{RegistrationError, Toolbox, ToolboxServer, mcp_tool};
use serde_json::json;
use tests::wire::{Session, call};

/// The currency a billing toolbox prints totals in.
struct Currency(&'static str);

/// Looks up an invoice.
#[mcp_tool(scopes("invoices:read"))]
fn get_invoice(#[state] currency: &Currency, number: String) -> String {
    format!("invoice {number} in {}", currency.0)
}

/// Voids an invoice.
#[mcp_tool]
fn void(number: String) -> String {
    format!("voided {number}")
}

/// Refunds an invoice.
#[mcp_tool]
fn refund(number: String) -> String {
    format!("refunded {number}")
}

fn billing() -> Toolbox {
    let mut billing = Toolbox::new();
    billing.insert_state(Currency("EUR"));
    billing.register(get_invoice::tool()).unwrap();
    billing.register(void::tool()).unwrap();
    billing
}

fn names(toolbox: &Toolbox) -> Vec<&str> {
    toolbox.list_tools().iter().map(|d| &*d.name).collect()
}

#[tokio::test]
async fn mounted_tools_are_served_under_the_prefix_with_their_own_state() {
    let mut server = Toolbox::new();
    server.register(void::tool()).unwrap();
    server.mount("billing", &billing()).unwrap();
    assert_eq!(
        names(&server),
        ["billing_get_invoice", "billing_void", "void"]
    );
    let answer = server
        .call_tool("billing_get_invoice", json!({"number": "INV-1"}))
        .await
        .unwrap();
    assert_eq!(
        answer.structured_content,
        Some(json!({"result": "invoice INV-1 in EUR"}))
    );
    // The declaration is the tool's own but for its name: scopes, schemas, description.
    let entry = &server.list_tools()[0];
    assert_eq!(entry.description.as_deref(), Some("Looks up an invoice."));
    assert_eq!(entry.input_schema["required"], json!(["number"]));
    // The unprefixed name is the parent's own tool, not the mounted one.
    assert!(server.call_tool("get_invoice", json!({})).await.is_err());
}

#[tokio::test]
async fn a_separator_of_your_choice_and_the_tools_are_served_over_mcp() {
    let mut toolbox = Toolbox::new();
    toolbox
        .mount_with_separator("billing", ".", &billing())
        .unwrap();
    assert_eq!(names(&toolbox), ["billing.get_invoice", "billing.void"]);
    let server = ToolboxServer::new(toolbox).unwrap();
    let mut session = Session::open(server, 1 << 20, Some(json!({}))).await;
    let answer = session
        .request(call(1, "billing.void", json!({"number": "INV-2"})))
        .await;
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({"result": "voided INV-2"}),
        "{answer}"
    );
}

#[test]
fn a_name_taken_mounts_nothing() {
    let mut server = Toolbox::new();
    let first = billing();
    server.mount("billing", &first).unwrap();
    let mut other = Toolbox::new();
    other.register(void::tool()).unwrap();
    // `billing_void` is taken: not even another tool is added, and nothing changes.
    let mut more = first.clone();
    more.remove("get_invoice");
    more.register(refund::tool()).unwrap();
    let before = names(&server).join(",");
    let refused = server.mount("billing", &more).unwrap_err();
    assert_eq!(
        refused,
        RegistrationError::DuplicateName("billing_void".into())
    );
    assert_eq!(names(&server).join(","), before);
    server.mount("archive", &other).unwrap();
    assert_eq!(
        names(&server),
        ["archive_void", "billing_get_invoice", "billing_void"]
    );
}

#[test]
fn a_name_mcp_refuses_mounts_nothing() {
    let mut server = Toolbox::new();
    let long = "p".repeat(120);
    let refused = server.mount(&long, &billing()).unwrap_err();
    assert!(
        matches!(&refused, RegistrationError::InvalidName { name, .. } if name.starts_with(&long)),
        "{refused:?}"
    );
    assert!(server.list_tools().is_empty());
    assert!(server.state::<Currency>().is_none());
}

#[test]
fn a_state_both_hold_as_different_values_is_refused_naming_its_type() {
    let mut server = Toolbox::new();
    server.insert_state(Currency("USD"));
    let refused = server.mount("billing", &billing()).unwrap_err();
    let text = refused.to_string();
    assert!(
        text.contains("cannot mount a toolbox under `billing`") && text.contains("mount::Currency"),
        "{text}"
    );
    assert!(server.list_tools().is_empty());
    assert_eq!(server.state::<Currency>().map(|c| c.0), Some("USD"));
    // The same value (a clone of one toolbox shares its state) is no conflict.
    let shared = billing();
    let mut both = shared.clone();
    both.remove("void");
    both.remove("get_invoice");
    both.mount("billing", &shared).unwrap();
    assert_eq!(names(&both), ["billing_get_invoice", "billing_void"]);
}

#[test]
fn a_toolbox_with_layers_of_its_own_is_refused() {
    let mut layered = billing();
    layered.layer(Timeout::new(Duration::from_secs(1)));
    let refused = Toolbox::new().mount("billing", &layered).unwrap_err();
    assert!(
        refused.to_string().contains("layers of its own"),
        "{refused}"
    );
}
