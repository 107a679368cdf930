//! Registering: duplicate names, missing state, server defaults and the refusals they meet.

use mcp_tool_runtime::{RegistrationError, ServerDefaults, Toolbox, mcp_tool};
use serde_json::json;

use super::fixtures::*;

#[test]
fn registering_a_name_twice_is_an_error_naming_it() {
    let mut toolbox = Toolbox::new();
    toolbox.register(add::tool()).unwrap();
    let err = toolbox.register(add::tool()).unwrap_err();
    assert_eq!(err, RegistrationError::DuplicateName("add".into()));
    assert!(err.to_string().contains("`add`"));
}

#[test]
fn a_missing_state_is_refused_at_registration() {
    let err = Toolbox::new().register(count_invoices::tool()).unwrap_err();
    assert!(matches!(err, RegistrationError::MissingState { .. }));
    assert!(err.to_string().contains("Store"), "{err}");
}

#[test]
fn server_defaults_apply_where_the_tool_is_silent() {
    let off = ServerDefaults {
        include_structured_content: true,
        include_output_schema: false,
        ..ServerDefaults::default()
    };
    let mut toolbox = Toolbox::with_defaults(off);
    toolbox.register(add::tool()).unwrap();
    toolbox.register(get_invoice::tool()).unwrap();
    assert!(entry(&toolbox, "add").get("outputSchema").is_none());
    assert!(
        entry(&toolbox, "get_invoice").get("outputSchema").is_some(),
        "the tool's own flag wins"
    );

    let no_structured = ServerDefaults {
        include_structured_content: false,
        include_output_schema: false,
        ..ServerDefaults::default()
    };
    let mut toolbox = Toolbox::with_defaults(no_structured);
    toolbox.register(add::tool()).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let result = rt.block_on(call(&toolbox, "add", json!({"a": 1, "b": 2})));
    assert!(result.structured_content.is_none());
    // Without `structuredContent` the text is the value as it is, unwrapped.
    assert_eq!(result.text(), Some("3"));
}

#[test]
fn a_server_default_that_breaks_the_asymmetric_rule_is_refused_naming_both_origins() {
    let bad = ServerDefaults {
        include_structured_content: false,
        include_output_schema: true,
        ..ServerDefaults::default()
    };
    let err = Toolbox::with_defaults(bad)
        .register(add::tool())
        .unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, RegistrationError::Settings(_)));
    assert!(text.contains("tool `add`"), "{text}");
    assert!(
        text.contains("(the server default) but omit `structuredContent` (the server default)"),
        "{text}"
    );

    // The tool sets the schema on, the server turns structured content off.
    let bad_for_get = ServerDefaults {
        include_structured_content: false,
        include_output_schema: false,
        ..ServerDefaults::default()
    };
    let err = Toolbox::with_defaults(bad_for_get)
        .register(maybe_unschema::tool())
        .map(|_| ());
    assert!(err.is_ok(), "schema off by the tool: nothing to violate");
    #[mcp_tool(include_output_schema)]
    fn schema_only() -> u8 {
        1
    }
    let err = Toolbox::with_defaults(bad_for_get)
        .register(schema_only::tool())
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("(set by the tool) but omit `structuredContent` (the server default)"),
        "{err}"
    );
}

#[test]
fn media_tools_never_advertise_an_output_schema_whatever_the_server_says() {
    let mut toolbox = Toolbox::with_defaults(ServerDefaults {
        include_structured_content: false,
        include_output_schema: true,
        ..ServerDefaults::default()
    });
    toolbox.register(pixel::tool()).unwrap();
    assert!(entry(&toolbox, "pixel").get("outputSchema").is_none());
}

/// `register_all` registers in order and stops at the first tool it refuses.
#[test]
fn register_all_stops_at_the_first_refusal() {
    let mut toolbox = Toolbox::new();
    let error = toolbox
        .register_all(mcp_tool_runtime::tools![add, add])
        .unwrap_err();
    assert_eq!(error, RegistrationError::DuplicateName("add".into()));
    let names: Vec<_> = toolbox
        .list_tools()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, ["add"]);
}
