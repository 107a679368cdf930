//! What a resource function returns becoming `resources/read` contents: text, bytes as a blob,
//! JSON from any `Serialize` type, or contents as they are; `None` is not found.

use serde::Serialize;

use crate::content::ResourceContents;
use crate::protocol_error::{IntoProtocolError, ProtocolError};

/// A value served as JSON text (`application/json` unless the resource says otherwise).
/// `#[mcp_resource]` serves any `Serialize` return type this way; name it by hand with `Json`.
///
/// ```
/// use mcp_tool_runtime::resource::{IntoContents, Json};
///
/// let contents = Json(serde_json::json!({"total": 12})).into_contents("invoices://7", None).unwrap();
/// assert_eq!(
///     serde_json::to_value(&contents[0]).unwrap(),
///     serde_json::json!({"uri": "invoices://7", "mimeType": "application/json", "text": "{\n  \"total\": 12\n}"})
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Json<T>(pub T);

/// What a resource may return: its contents at `uri`, given the resource's MIME type.
pub trait IntoContents {
    /// The contents, or the JSON-RPC error to answer with.
    ///
    /// # Errors
    /// The resource-not-found error for `None`; the function's own error for a `Result`.
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ProtocolError>;
}

fn text(uri: &str, mime_type: Option<&str>, text: String) -> Vec<ResourceContents> {
    vec![ResourceContents::Text {
        uri: uri.to_owned(),
        mime_type: Some(mime_type.unwrap_or("text/plain").to_owned()),
        text,
    }]
}

impl IntoContents for String {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ProtocolError> {
        Ok(text(uri, mime_type, self))
    }
}

impl IntoContents for &str {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ProtocolError> {
        Ok(text(uri, mime_type, self.to_owned()))
    }
}

impl IntoContents for Vec<u8> {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ProtocolError> {
        self.as_slice().into_contents(uri, mime_type)
    }
}

impl IntoContents for &[u8] {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ProtocolError> {
        Ok(vec![ResourceContents::blob(
            uri,
            mime_type.unwrap_or("application/octet-stream"),
            self,
        )])
    }
}

impl IntoContents for ResourceContents {
    fn into_contents(
        self,
        _: &str,
        _: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ProtocolError> {
        Ok(vec![self])
    }
}

impl IntoContents for Vec<ResourceContents> {
    fn into_contents(
        self,
        _: &str,
        _: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ProtocolError> {
        Ok(self)
    }
}

impl<T: Serialize> IntoContents for Json<T> {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ProtocolError> {
        let json = crate::encode::encode_json(&self.0).map_err(|e| {
            ProtocolError::internal(format!("resource `{uri}` cannot be served: {e}"))
        })?;
        Ok(vec![ResourceContents::Text {
            uri: uri.to_owned(),
            mime_type: Some(mime_type.unwrap_or("application/json").to_owned()),
            text: json,
        }])
    }
}

impl<T: IntoContents> IntoContents for Option<T> {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ProtocolError> {
        match self {
            Some(value) => value.into_contents(uri, mime_type),
            None => Err(ProtocolError::resource_not_found(uri)),
        }
    }
}

impl<T: IntoContents, E: IntoProtocolError> IntoContents for Result<T, E> {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ProtocolError> {
        self.map_err(IntoProtocolError::into_protocol_error)?
            .into_contents(uri, mime_type)
    }
}
