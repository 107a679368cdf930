//! The JSON-RPC errors around a call that MCP names: an unknown tool, a missing client
//! capability, and the end of a call the client cancelled.

use rmcp::ErrorData;
use rmcp::model::ErrorCode;
use serde_json::Value;

use crate::context::Capability;
use crate::toolbox::UnknownTool;

/// An unknown tool: JSON-RPC -32602 (invalid params) naming it in its message and in
/// `data.tool`, wherever the call was going to run (a call, a task).
pub(crate) fn unknown_tool(UnknownTool { name }: UnknownTool) -> ErrorData {
    ErrorData::invalid_params(
        format!("unknown tool `{name}`"),
        Some(serde_json::json!({ "tool": name })),
    )
}

/// JSON-RPC -32021 (MissingRequiredClientCapability, HTTP 400 over Streamable HTTP), with
/// `data.requiredCapabilities` naming `capability`.
pub(crate) fn missing_capability(capability: Capability) -> ErrorData {
    let mut required = serde_json::Map::new();
    required.insert(
        capability.name().to_owned(),
        Value::Object(Default::default()),
    );
    ErrorData::new(
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!(
            "the tool needs the client's `{}` capability, which the request did not declare",
            capability.name()
        ),
        Some(serde_json::json!({ "requiredCapabilities": required })),
    )
}

/// The code of [`cancelled`]: JSON-RPC reserves none for it; -32800 is the one LSP uses.
pub(crate) const CANCELLED: ErrorCode = ErrorCode(-32800);

/// What the handler returns for a call the client cancelled. MCP says a cancelled request SHOULD
/// get no response, and rmcp sends none (the `over_the_wire` tests check it); this value only
/// ends the handler.
pub(crate) fn cancelled(tool: &str) -> ErrorData {
    ErrorData::new(
        CANCELLED,
        format!("the call of tool `{tool}` was cancelled by the client"),
        None,
    )
}
