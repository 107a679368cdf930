//! [`Caller`]: who is calling a tool, as the server verified it (a bearer token's subject, client,
//! scopes and claims).

use serde_json::{Map, Value};

/// Who is calling, as the server verified it: what a [`TokenVerifier`](super::TokenVerifier)
/// read from the request's bearer token. A tool reads it with
/// [`ToolContext::caller`](crate::ToolContext::caller); it is `None` over stdio and over HTTP
/// without authorization.
///
/// ```
/// use mcp_tool_runtime::auth::Caller;
///
/// let caller = Caller::new("alice")
///     .client_id("billing-agent")
///     .scopes(["invoices:read", "invoices:write"]);
/// assert_eq!(caller.subject(), Some("alice"));
/// assert!(caller.has_scope("invoices:write"));
/// assert_eq!(caller.missing_scopes(&["invoices:read", "admin"]), ["admin"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Caller {
    subject: Option<String>,
    client_id: Option<String>,
    scopes: Vec<String>,
    claims: Map<String, Value>,
}

impl Caller {
    /// A caller known by `subject` (a token's `sub`), with no scopes yet.
    pub fn new(subject: impl Into<String>) -> Self {
        Caller {
            subject: Some(subject.into()),
            ..Caller::default()
        }
    }

    /// A caller the token names no subject for (some client-credentials tokens).
    pub fn anonymous() -> Self {
        Caller::default()
    }

    /// Sets the OAuth client the token was issued to (`client_id`, or `azp`).
    pub fn client_id(mut self, client_id: impl Into<String>) -> Self {
        self.client_id = Some(client_id.into());
        self
    }

    /// Sets the scopes the token grants; duplicates are kept once.
    pub fn scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes.clear();
        for scope in scopes {
            let scope = scope.into();
            if !self.scopes.contains(&scope) {
                self.scopes.push(scope);
            }
        }
        self
    }

    /// Sets all of the token's claims, as it carried them.
    pub fn claims(mut self, claims: Map<String, Value>) -> Self {
        self.claims = claims;
        self
    }

    /// The subject (`sub`), if the token names one.
    pub fn subject(&self) -> Option<&str> {
        self.subject.as_deref()
    }

    /// The OAuth client the token was issued to, if it says.
    pub fn client(&self) -> Option<&str> {
        self.client_id.as_deref()
    }

    /// The scopes the token grants.
    pub fn granted_scopes(&self) -> &[String] {
        &self.scopes
    }

    /// The token's claims.
    pub fn all_claims(&self) -> &Map<String, Value> {
        &self.claims
    }

    /// One claim, if the token carries it.
    pub fn claim(&self, name: &str) -> Option<&Value> {
        self.claims.get(name)
    }

    /// Whether the token grants `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    /// The scopes of `required` the token does not grant, in their order.
    pub fn missing_scopes<'a>(&self, required: &[&'a str]) -> Vec<&'a str> {
        required
            .iter()
            .copied()
            .filter(|scope| !self.has_scope(scope))
            .collect()
    }
}
