//! Request bodies read whole within a limit, and the HTTP responses the guard answers with.

use std::convert::Infallible;

use bytes::Bytes;
use http::{Response, StatusCode, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use rmcp::RoleServer;
use rmcp::service::TxJsonRpcMessage;

use super::inflight::{OverBudget, Reserved};
use crate::transport::reply::ID_SEARCH_BYTES;

/// The responses the HTTP layers answer with.
pub(crate) type HttpResponse = Response<BoxBody<Bytes, Infallible>>;

/// A body larger than this many times the limit is not read to its end: the connection is cut.
const DRAIN_FACTOR: usize = 16;

pub(super) enum Body {
    Complete(Bytes),
    /// Not whole within the time allowed.
    TimedOut,
    /// Over the limit; the beginning, to look for the request's id.
    TooLarge(Vec<u8>),
    /// Within the limit, but its bytes would pass a bound of the bytes held at once; the
    /// beginning, to look for the request's id.
    OverBudget(Vec<u8>, OverBudget),
    Failed,
}

/// Reads a whole body, keeping at most `limit` bytes: past it, the rest is read and dropped (up
/// to a point), so the client finishes its upload and reads the answer. Each byte kept is
/// first taken from `reserved`, when given; past what it allows, the rest is read and dropped
/// the same way.
pub(super) async fn read_body<B: http_body::Body>(
    body: B,
    limit: usize,
    mut reserved: Option<&mut Reserved>,
) -> Body {
    let mut body = std::pin::pin!(body);
    let mut kept = Vec::new();
    let mut total = 0_usize;
    let mut over_budget = None;
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            return Body::Failed;
        };
        let Ok(mut data) = frame.into_data() else {
            continue;
        };
        use bytes::Buf as _;
        while data.has_remaining() {
            let chunk = data.chunk();
            total += chunk.len();
            let within = total <= limit
                && over_budget.is_none()
                && match reserved.as_deref_mut().map(|r| r.grow(chunk.len())) {
                    Some(Err(over)) => {
                        over_budget = Some(over);
                        false
                    }
                    _ => true,
                };
            let keep = if within {
                chunk.len()
            } else {
                ID_SEARCH_BYTES.saturating_sub(kept.len()).min(chunk.len())
            };
            kept.extend_from_slice(&chunk[..keep]);
            let len = chunk.len();
            data.advance(len);
        }
        if total > limit.saturating_mul(DRAIN_FACTOR) {
            break;
        }
    }
    if total > limit {
        kept.truncate(ID_SEARCH_BYTES);
        return Body::TooLarge(kept);
    }
    if let Some(over) = over_budget {
        kept.truncate(ID_SEARCH_BYTES);
        return Body::OverBudget(kept, over);
    }
    Body::Complete(Bytes::from(kept))
}

/// A JSON-RPC message as an HTTP response: 200 when it answers a request by its id (so the
/// client hands the error to that request), `status` when it carries no id.
pub(super) fn json_rpc_response(
    message: &TxJsonRpcMessage<RoleServer>,
    status: StatusCode,
) -> HttpResponse {
    let json = serde_json::to_vec(message).unwrap_or_default();
    let has_id = matches!(message, rmcp::model::JsonRpcMessage::Error(e) if e.id.is_some());
    Response::builder()
        .status(if has_id { StatusCode::OK } else { status })
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(json)).boxed())
        .expect("a valid response")
}
