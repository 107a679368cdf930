//! [`TokenVerifier`]: how a bearer token becomes a [`Caller`], and [`TokenError`], why it did not.

use futures_util::future::BoxFuture;

use super::Caller;

/// Turns a bearer token into the [`Caller`] it stands for, or says why it is not accepted.
/// [`JwtVerifier`](super::JwtVerifier) verifies JWTs against the issuer's keys; an
/// introspection verifier (RFC 7662) is this trait over an HTTP call to the authorization
/// server. A verifier must check that the token was issued for this server (its audience or
/// resource), by the issuer it trusts, and is within its validity.
///
/// ```
/// use mcp_tool_runtime::BoxFuture;
/// use mcp_tool_runtime::auth::{Caller, TokenError, TokenVerifier};
///
/// /// Accepts one static token (for a test, never in production).
/// struct Static;
///
/// impl TokenVerifier for Static {
///     fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Caller, TokenError>> {
///         Box::pin(async move {
///             if token == "let-me-in" {
///                 Ok(Caller::new("tester").scopes(["invoices:read"]))
///             } else {
///                 Err(TokenError::BadSignature)
///             }
///         })
///     }
/// }
/// ```
pub trait TokenVerifier: Send + Sync + 'static {
    /// Verifies `token` (the bearer credential, without `Bearer `).
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Caller, TokenError>>;
}

/// Why a token was not accepted. Each is answered with HTTP 401 and
/// `WWW-Authenticate: Bearer error="invalid_token"` naming the reason, except
/// [`Unavailable`](Self::Unavailable), which is the server's problem (HTTP 503).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TokenError {
    /// Not a token this server can read (not a JWT, bad encoding, `alg: none`).
    #[error("the token is malformed: {0}")]
    Malformed(String),
    /// The signature does not verify with any of the issuer's keys.
    #[error("the token's signature does not verify with the issuer's keys")]
    BadSignature,
    /// Past its `exp`.
    #[error("the token has expired")]
    Expired,
    /// Before its `nbf`.
    #[error("the token is not valid yet")]
    NotYetValid,
    /// Issued for another resource (its `aud`).
    #[error("the token was issued for another resource")]
    WrongAudience,
    /// Issued by an issuer this server does not trust (its `iss`).
    #[error("the token was issued by an issuer this server does not trust")]
    WrongIssuer,
    /// Longer than the server accepts; refused before it is read.
    #[error("the token is longer than this server's limit of {0} bytes")]
    TooLarge(usize),
    /// Any other reason the token is not accepted (a required claim missing, an algorithm not
    /// allowed).
    #[error("the token is not accepted: {0}")]
    Invalid(String),
    /// The token could not be checked: the issuer's keys could not be fetched.
    #[error("the token could not be checked: {0}")]
    Unavailable(String),
}
