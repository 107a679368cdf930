//! [`ProtectedResourceMetadata`]: what an MCP server publishes about itself as an OAuth protected
//! resource (RFC 9728), and where.

use serde::{Deserialize, Serialize};

/// The Protected Resource Metadata document (RFC 9728 §2) a client reads to find the
/// authorization server that issues tokens for this server.
///
/// ```
/// use mcp_tool_runtime::auth::ProtectedResourceMetadata;
///
/// let metadata = ProtectedResourceMetadata::new("https://mcp.example.com/mcp", "https://auth.example.com")
///     .scopes_supported(["invoices:read", "invoices:write"]);
/// assert_eq!(metadata.well_known_path(), "/.well-known/oauth-protected-resource/mcp");
/// assert_eq!(
///     metadata.url(),
///     "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtectedResourceMetadata {
    /// This server's resource identifier: the URL clients connect to, which tokens must be
    /// issued for (their audience).
    pub resource: String,
    /// The issuers of the authorization servers that issue tokens for it.
    pub authorization_servers: Vec<String>,
    /// The scopes a client may ask for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes_supported: Vec<String>,
    /// How a token is sent: only in the `Authorization` header, as MCP requires.
    pub bearer_methods_supported: Vec<String>,
    /// A name for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_name: Option<String>,
}

impl ProtectedResourceMetadata {
    /// The metadata of `resource`, whose tokens `authorization_server` issues.
    pub fn new(resource: impl Into<String>, authorization_server: impl Into<String>) -> Self {
        ProtectedResourceMetadata {
            resource: resource.into(),
            authorization_servers: vec![authorization_server.into()],
            scopes_supported: Vec::new(),
            bearer_methods_supported: vec!["header".to_owned()],
            resource_name: None,
        }
    }

    /// Sets the scopes a client may ask for.
    pub fn scopes_supported<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes_supported = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets a name for people.
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.resource_name = Some(name.into());
        self
    }

    /// Where the document is served on this server's origin (RFC 9728 §3.1): the well-known
    /// prefix, then the resource's path (`/.well-known/oauth-protected-resource/mcp` for
    /// `https://host/mcp`). Mount [`ResourceServer::metadata_service`](super::ResourceServer::metadata_service) there.
    pub fn well_known_path(&self) -> String {
        let (_, path) = split_origin(&self.resource);
        let path = path.trim_end_matches('/');
        format!("/.well-known/oauth-protected-resource{path}")
    }

    /// The document's absolute URL, sent in `WWW-Authenticate`'s `resource_metadata`.
    pub fn url(&self) -> String {
        let (origin, _) = split_origin(&self.resource);
        format!("{origin}{}", self.well_known_path())
    }
}

/// `https://host:port/path?query` as (`https://host:port`, `/path`).
fn split_origin(url: &str) -> (&str, &str) {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[after_scheme..];
    let path_start = rest
        .find(['/', '?', '#'])
        .map_or(url.len(), |i| after_scheme + i);
    let path = &url[path_start..];
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    (&url[..path_start], path)
}
