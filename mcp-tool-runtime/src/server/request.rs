//! One reading of a request: what a served request says about itself (its id, protocol
//! revision, the verified caller, the client's capabilities, and its `_meta`), read once where
//! the request enters and handed to the span, the call context's channel, the tasks and the
//! seal, none of which reads the request again; and the [`CallerKey`] binding state and tasks to
//! that caller, made only for a call that binds or owns something.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ClientCapabilities, ProtocolVersion, RequestId};
use rmcp::service::RequestContext;
use serde_json::{Map, Value};

use super::levels::level_of;
use crate::auth::Caller;
use crate::context::{LogLevel, RequestInfo};
use crate::version::Revision;

/// What one request says, read once.
pub(crate) struct Request {
    pub(crate) id: RequestId,
    /// The protocol version the request speaks (its own `_meta`, else the session's
    /// handshake), and the revision that decides how it is served. rmcp's own type: a version
    /// it knows is a `&'static str`, so reading it allocates nothing.
    pub(crate) protocol_version: Option<ProtocolVersion>,
    pub(crate) revision: Revision,
    /// The client's capabilities (the request's own `_meta`, else the session's).
    pub(crate) client_capabilities: Option<ClientCapabilities>,
    /// The request's own `io.modelcontextprotocol/logLevel` (2026-07-28).
    pub(crate) log_level: Option<LogLevel>,
    /// The caller an authorizing HTTP layer verified for this request, if any.
    pub(crate) caller: Option<Arc<Caller>>,
    /// The request's `_meta`, moved out of its context.
    pub(crate) meta: Map<String, Value>,
}

impl Request {
    /// Reads what `context` says; its `_meta` is moved out (never copied), so that a waiting
    /// call holds it once. Everything read from `_meta` is read before it moves.
    pub(crate) fn read(context: &mut RequestContext<RoleServer>) -> Request {
        let protocol_version =
            stated_version(&context.meta.0.0).or_else(|| context.protocol_version());
        let revision = Revision::of(protocol_version.as_ref().map(ProtocolVersion::as_str));
        let client_capabilities = context.client_capabilities();
        let log_level = context.meta.log_level().map(level_of);
        let caller = verified_caller(context);
        Request {
            id: context.id.clone(),
            protocol_version,
            revision,
            client_capabilities,
            log_level,
            caller,
            meta: std::mem::take(&mut context.meta.0.0),
        }
    }

    /// The key binding sealed state and tasks to whoever sent this request, whose `context` it
    /// is: made when a call seals or verifies a state or owns a task, not for every call.
    pub(crate) fn key(&self, context: &RequestContext<RoleServer>) -> Option<CallerKey> {
        CallerKey::of(context, self.caller.as_deref())
    }

    /// The protocol version the request speaks, if it says.
    pub(crate) fn protocol_version(&self) -> Option<&str> {
        self.protocol_version.as_ref().map(ProtocolVersion::as_str)
    }

    /// Whether the client declared the tasks extension (in the session's capabilities or the
    /// request's own `_meta`).
    pub(crate) fn declares_tasks(&self) -> bool {
        self.client_capabilities
            .as_ref()
            .is_some_and(ClientCapabilities::supports_tasks)
    }

    /// What a tool sees of the request, with `meta` as its `_meta`.
    pub(crate) fn info(&self, meta: Map<String, Value>) -> RequestInfo {
        RequestInfo {
            id: serde_json::to_value(&self.id).ok(),
            meta,
            protocol_version: self.protocol_version().map(str::to_owned),
            client_capabilities: self.client_capabilities.as_ref().and_then(|c| {
                match serde_json::to_value(c) {
                    Ok(Value::Object(map)) => Some(map),
                    _ => None,
                }
            }),
            caller: self.caller.clone(),
        }
    }
}

/// The `_meta` key a 2026-07-28 request states its protocol version under.
const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The protocol version a request's own `_meta` states, when it is one rmcp knows: matched in
/// place, where rmcp's `RequestContext::protocol_version` decodes it into a `String` first. Any
/// other case (no version, one rmcp does not know, not a string) is left to rmcp, which also
/// falls back to the session's handshake.
fn stated_version(meta: &Map<String, Value>) -> Option<ProtocolVersion> {
    let stated = meta.get(PROTOCOL_VERSION_KEY)?.as_str()?;
    ProtocolVersion::KNOWN_VERSIONS
        .iter()
        .find(|known| known.as_str() == stated)
        .cloned()
}

/// Who is calling, as the bytes that bind a `requestState` and own a task: the verified
/// caller's issuer, subject and client when the request was authorized (each length-prefixed),
/// otherwise the credential the
/// HTTP request came with (its `Authorization` header). Over stdio, and over HTTP without
/// credentials, there is none: one process serves one client, or anyone who can reach the
/// server is the same caller to it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct CallerKey(Box<[u8]>);

impl std::fmt::Debug for CallerKey {
    // A credential: never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CallerKey(..)")
    }
}

impl CallerKey {
    /// The key of the request `context`, whose verified caller is `caller`.
    pub(crate) fn of(
        context: &RequestContext<RoleServer>,
        caller: Option<&Caller>,
    ) -> Option<CallerKey> {
        if let Some(key) = caller.and_then(CallerKey::verified) {
            return Some(key);
        }
        // A caller with no subject (a verifier of its own may return one) is known by no name:
        // it is the credential it presented, as an unverified one would be.
        #[cfg(feature = "http")]
        {
            let parts = context.extensions.get::<http::request::Parts>()?;
            CallerKey::credential(parts)
        }
        #[cfg(not(feature = "http"))]
        {
            let _ = context;
            None
        }
    }

    /// The key of whoever sent the HTTP request `parts`: its verified caller (the authorizing
    /// layer put it in the request's extensions), else its credential.
    #[cfg(feature = "http")]
    pub(crate) fn of_parts(parts: &http::request::Parts) -> Option<CallerKey> {
        match parts.extensions.get::<Arc<Caller>>() {
            Some(caller) => CallerKey::verified(caller).or_else(|| CallerKey::credential(parts)),
            None => CallerKey::credential(parts),
        }
    }

    /// The credential an HTTP request came with, as a key: its `Authorization` header.
    #[cfg(feature = "http")]
    fn credential(parts: &http::request::Parts) -> Option<CallerKey> {
        let credential = parts.headers.get(http::header::AUTHORIZATION)?;
        Some(CallerKey(credential.as_bytes().into()))
    }

    /// The key of a verified caller with a subject. Stable across token refreshes: the issuer,
    /// the subject and the client, each length-prefixed, so no two callers' parts can run
    /// together into one key, and two issuers' same-named users stay two callers. It holds NUL
    /// bytes (the lengths), which no HTTP header value can: no credential is ever such a key.
    fn verified(caller: &Caller) -> Option<CallerKey> {
        let subject = caller.subject()?;
        let client = caller.client().unwrap_or_default();
        Some(CallerKey(
            verified_identity(caller, &[subject, client]).into(),
        ))
    }

    /// The key made of `bytes` as they are.
    #[cfg(test)]
    pub(crate) fn from_bytes(bytes: &[u8]) -> CallerKey {
        CallerKey(bytes.into())
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

/// The bytes naming a verified caller: `verified`, then its issuer and `parts`, each
/// length-prefixed, so no two callers' parts can run together into one. The caller key (issuer,
/// subject, client) and the quota share (issuer, subject) are both made of it.
pub(crate) fn verified_identity(caller: &Caller, parts: &[&str]) -> Vec<u8> {
    let issuer = caller
        .claim("iss")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut key = b"verified".to_vec();
    for part in std::iter::once(issuer).chain(parts.iter().copied()) {
        key.extend_from_slice(&(part.len() as u64).to_be_bytes());
        key.extend_from_slice(part.as_bytes());
    }
    key
}

/// The caller an authorizing HTTP layer verified for this request (see
/// [`auth`](crate::auth)), if any: it travels in the HTTP request's extensions.
pub(crate) fn verified_caller(context: &RequestContext<RoleServer>) -> Option<Arc<Caller>> {
    #[cfg(feature = "http")]
    {
        let parts = context.extensions.get::<http::request::Parts>()?;
        parts.extensions.get::<Arc<Caller>>().cloned()
    }
    #[cfg(not(feature = "http"))]
    {
        let _ = context;
        None
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn key(issuer: &str, subject: &str, client: &str) -> CallerKey {
        let mut claims = Map::new();
        claims.insert("iss".into(), json!(issuer));
        let caller = Caller::new(subject).client_id(client).claims(claims);
        CallerKey::verified(&caller).unwrap()
    }

    #[test]
    fn callers_whose_parts_run_together_are_two_callers() {
        assert_ne!(key("i", "a\0b", "c"), key("i", "a", "b\0c"));
        assert_ne!(key("i", "ab", "c"), key("i", "a", "bc"));
    }

    #[test]
    fn two_issuers_same_named_users_are_two_callers() {
        assert_ne!(
            key("https://a.example", "alice", "x"),
            key("https://b.example", "alice", "x")
        );
        assert_eq!(
            key("https://a.example", "alice", "x"),
            key("https://a.example", "alice", "x")
        );
    }

    #[test]
    fn a_known_version_stated_in_meta_is_read_and_anything_else_left_to_rmcp() {
        let meta = |version: Value| {
            let mut meta = Map::new();
            meta.insert(PROTOCOL_VERSION_KEY.to_owned(), version);
            meta
        };
        assert_eq!(
            stated_version(&meta(json!("2026-07-28"))),
            Some(ProtocolVersion::V_2026_07_28)
        );
        assert_eq!(
            stated_version(&meta(json!("2025-11-25"))),
            Some(ProtocolVersion::V_2025_11_25)
        );
        // rmcp reads these (an unknown version as its own string; the handshake's otherwise).
        assert_eq!(stated_version(&meta(json!("2099-01-01"))), None);
        assert_eq!(stated_version(&meta(json!(20260728))), None);
        assert_eq!(stated_version(&Map::new()), None);
    }

    /// The key is the one rmcp reads: a version rmcp sets in `_meta` is found.
    #[test]
    fn the_key_is_the_one_rmcp_writes() {
        let mut meta = rmcp::model::RequestMetaObject::default();
        meta.set_protocol_version(ProtocolVersion::V_2026_07_28);
        assert_eq!(
            stated_version(&meta.0.0),
            Some(ProtocolVersion::V_2026_07_28)
        );
    }

    #[test]
    fn a_caller_without_a_subject_has_no_verified_key() {
        assert!(CallerKey::verified(&Caller::anonymous().client_id("c")).is_none());
    }
}
