//! Who is calling and what they may call: the verified [`Caller`] a tool reads from its context,
//! and (feature `auth`) an OAuth 2.1 resource server in front of Streamable HTTP: the
//! [`ResourceServer`], a tower layer ([`ResourceServer::layer`], [`Authorize`]) in front of
//! [`HttpGuard`](crate::transport::HttpGuard), its [`ProtectedResourceMetadata`], and the
//! [`TokenVerifier`] it asks ([`JwtVerifier`] ready-made).
//! The [authorization guide](crate::guide::authorization) shows the whole setup and lists what
//! is answered to each kind of request.

#[cfg(feature = "auth")]
mod authorize;
mod caller;
#[cfg(feature = "auth")]
mod jwt;
#[cfg(feature = "auth")]
mod metadata;
#[cfg(feature = "auth")]
mod resource_server;
#[cfg(feature = "auth")]
mod verifier;

#[cfg(feature = "auth")]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub use authorize::Authorize;
pub use caller::Caller;
/// The signature algorithms of [`JwtVerifier::algorithms`], from `jsonwebtoken`.
#[cfg(feature = "auth")]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub use jsonwebtoken::Algorithm;
#[cfg(feature = "auth")]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub use jwt::{
    DEFAULT_KEYS_MAX_AGE, DEFAULT_KEYS_STALE_LIMIT, DEFAULT_LEEWAY, DEFAULT_MIN_REFRESH,
    DEFAULT_TOKEN_CACHE, JwtVerifier, MAX_FETCH_BACKOFF,
};
#[cfg(feature = "auth")]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub use metadata::ProtectedResourceMetadata;
#[cfg(feature = "auth")]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub use resource_server::{DEFAULT_MAX_TOKEN_BYTES, MetadataService, ResourceServer, ToolScopes};
#[cfg(feature = "auth")]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub use verifier::{TokenError, TokenVerifier};
