//! [`Opener`]: what [`HttpGuard`](super::HttpGuard) knows of a request's sender before its body
//! arrives, as sessions need it, and the 404 for a session that is not the sender's.

use std::sync::Arc;

use bytes::Bytes;
use http::{Response, StatusCode};
use http_body_util::{BodyExt, Full};

use super::body::HttpResponse;
use super::guard::SESSION_ID;
use super::sessions::BoundedSessions;

/// What the guard knows of a request's sender before its body arrives, as sessions need it.
pub(super) struct Opener {
    /// Whom a session it opens belongs to: anyone else is told it does not exist.
    pub(super) owner: Option<crate::server::CallerKey>,
    /// Whose share of sessions a new one counts against.
    pub(super) share: Option<crate::server::Holder>,
    /// Whether it names a session (`Mcp-Session-Id`), readable or not.
    pub(super) has_session_header: bool,
    /// Whether it came on a session it names.
    pub(super) on_session: bool,
}

impl Opener {
    /// The sender of the request `parts` under `sessions` (the guard's bound, if it has one), or
    /// the reply when the session it names is not its own.
    pub(super) fn of(
        parts: &http::request::Parts,
        sessions: Option<&BoundedSessions>,
    ) -> Result<Opener, Box<HttpResponse>> {
        // A session belongs to the caller who opened it: anyone else is told it does not
        // exist, whatever the method.
        let owner = sessions.and_then(|_| crate::server::CallerKey::of_parts(parts));
        // Whose share of sessions a new one counts against: a verified caller's. Without
        // one, nothing tells callers apart (the session is all the identity there is), and
        // the server's bound alone holds.
        let share = sessions
            .and_then(|_| {
                crate::server::Holder::of(
                    parts
                        .extensions
                        .get::<Arc<crate::auth::Caller>>()
                        .map(|c| &**c),
                    false,
                )
            })
            .filter(|holder| matches!(holder, crate::server::Holder::Verified(_)));
        let session_header = parts.headers.get(&SESSION_ID);
        // Read in place, not copied: once the request moves on to rmcp, only whether it came
        // on a session is needed.
        let session = session_header.and_then(|v| v.to_str().ok());
        if let (Some(sessions), Some(id)) = (sessions, session)
            && !sessions.admits(id, owner.as_ref().map(|k| k.as_bytes()))
        {
            return Err(Box::new(session_not_found()));
        }
        Ok(Opener {
            owner,
            share,
            has_session_header: session_header.is_some(),
            on_session: session.is_some(),
        })
    }
}

/// What rmcp answers for a session it does not know (the MCP spec: 404).
fn session_not_found() -> HttpResponse {
    Response::builder()
        .status(StatusCode::NOT_FOUND)
        .body(Full::new(Bytes::from_static(b"Not Found: Session not found")).boxed())
        .expect("a valid response")
}
