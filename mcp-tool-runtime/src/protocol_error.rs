//! [`ProtocolError`]: a request the server answers with a JSON-RPC error rather than a result:
//! a prompt's bad argument, a resource not found, a completion of nothing.

use std::borrow::Cow;

use serde_json::Value;

/// A JSON-RPC error answering a `prompts/get`, `resources/read` or `completion/complete`.
///
/// ```
/// use mcp_tool_runtime::ProtocolError;
///
/// let error = ProtocolError::resource_not_found("invoices://INV-9");
/// assert_eq!(error.code, ProtocolError::RESOURCE_NOT_FOUND);
/// assert_eq!(error.data, Some(serde_json::json!({"uri": "invoices://INV-9"})));
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message} (JSON-RPC {code})")]
#[non_exhaustive]
pub struct ProtocolError {
    /// The JSON-RPC error code.
    pub code: i32,
    /// What went wrong, for the client.
    pub message: Cow<'static, str>,
    /// Details, such as the URI not found.
    pub data: Option<Value>,
}

impl ProtocolError {
    /// Invalid params: a missing or malformed argument, an unknown prompt.
    pub const INVALID_PARAMS: i32 = -32602;
    /// Internal error: the prompt's or resource's own body failed.
    pub const INTERNAL_ERROR: i32 = -32603;
    /// Resource not found (MCP's `-32002`).
    pub const RESOURCE_NOT_FOUND: i32 = -32002;

    /// An error with `code` and `message`.
    pub fn new(code: i32, message: impl Into<Cow<'static, str>>) -> Self {
        ProtocolError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// `-32602`, naming what is wrong with the request.
    pub fn invalid_params(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(Self::INVALID_PARAMS, message)
    }

    /// `-32603`: the body failed with `message`.
    pub fn internal(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(Self::INTERNAL_ERROR, message)
    }

    /// MCP's resource-not-found error, with the URI in its `data`.
    pub fn resource_not_found(uri: &str) -> Self {
        ProtocolError {
            code: Self::RESOURCE_NOT_FOUND,
            message: format!("resource not found: `{}`", crate::message::quote(uri)).into(),
            data: Some(serde_json::json!({ "uri": uri })),
        }
    }

    /// Sets [`data`](Self::data).
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

/// An error a prompt or resource function returns: a [`ProtocolError`] as it is, anything else
/// as `-32603` with its message.
pub trait IntoProtocolError {
    /// The JSON-RPC error.
    fn into_protocol_error(self) -> ProtocolError;
}

impl IntoProtocolError for ProtocolError {
    fn into_protocol_error(self) -> ProtocolError {
        self
    }
}

macro_rules! internal_from_display {
    ($($ty:ty),*) => {$(
        impl IntoProtocolError for $ty {
            fn into_protocol_error(self) -> ProtocolError {
                ProtocolError::internal(self.to_string())
            }
        }
    )*};
}

internal_from_display!(
    String,
    &'static str,
    std::io::Error,
    std::fmt::Error,
    Box<dyn std::error::Error + Send + Sync>,
    crate::context::ClientRequestError
);
