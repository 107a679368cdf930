//! Request bodies read whole within a limit, and the HTTP responses the guard answers with.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

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

/// Reads a whole body within `within` of when it first has to be waited for (else
/// [`Body::TimedOut`]), keeping at most `limit` bytes: past it, the rest is read and dropped (up
/// to a point), so the client finishes its upload and reads the answer. Each byte kept is
/// first taken from `reserved`, when given; past what it allows, the rest is read and dropped
/// the same way.
///
/// A body that comes in one frame (a small request's, as a rule) is kept as that frame's
/// bytes, which share hyper's read buffer: no copy and no allocation, as rmcp's own read of a
/// body does. Only a body of several frames is copied into one buffer.
pub(super) async fn read_body<B: http_body::Body>(
    body: B,
    limit: usize,
    mut reserved: Option<&mut Reserved>,
    within: Duration,
) -> Body {
    use bytes::Buf as _;
    let mut body = std::pin::pin!(body);
    // The body so far while it is the one frame's bytes; `kept` once there is more.
    let mut single: Option<Bytes> = None;
    let mut kept = Vec::new();
    let mut total = 0_usize;
    let mut over_budget = None;
    // Armed when the body first has to be waited for: a body that came with its head (most
    // do) is read with no timer, and no read of the clock. Boxed: only such a body holds it,
    // and every request's future would otherwise hold room for it.
    let mut timer: Option<Pin<Box<tokio::time::Sleep>>> = None;
    loop {
        let next = std::future::poll_fn(|cx| {
            if let Poll::Ready(frame) = body.as_mut().poll_frame(cx) {
                return Poll::Ready(Some(frame));
            }
            let timer = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep(within)));
            timer.as_mut().poll(cx).map(|()| None)
        });
        let frame = match next.await {
            Some(Some(frame)) => frame,
            Some(None) => break,
            None => return Body::TimedOut,
        };
        let Ok(frame) = frame else {
            return Body::Failed;
        };
        let Ok(mut data) = frame.into_data() else {
            continue;
        };
        let len = data.remaining();
        total += len;
        let within = total <= limit
            && over_budget.is_none()
            && match reserved.as_deref_mut().map(|r| r.grow(len)) {
                Some(Err(over)) => {
                    over_budget = Some(over);
                    false
                }
                _ => true,
            };
        if within && single.is_none() && kept.is_empty() {
            single = Some(data.copy_to_bytes(len));
            continue;
        }
        if let Some(first) = single.take() {
            kept.extend_from_slice(&first);
        }
        let mut keep = if within {
            len
        } else {
            ID_SEARCH_BYTES.saturating_sub(kept.len()).min(len)
        };
        while keep > 0 {
            let chunk = data.chunk();
            let n = chunk.len().min(keep);
            kept.extend_from_slice(&chunk[..n]);
            data.advance(n);
            keep -= n;
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
    Body::Complete(single.unwrap_or_else(|| Bytes::from(kept)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt as _;
    use http_body::Frame;
    use http_body_util::StreamBody;

    /// Longer than any of these reads waits.
    const LONG: Duration = Duration::from_secs(60);

    /// A body that comes as these frames.
    fn frames(parts: &[&'static [u8]]) -> impl http_body::Body<Data = Bytes, Error = Infallible> {
        let frames: Vec<Result<Frame<Bytes>, Infallible>> = parts
            .iter()
            .map(|part| Ok(Frame::data(Bytes::from_static(part))))
            .collect();
        StreamBody::new(futures_util::stream::iter(frames))
    }

    #[tokio::test]
    async fn a_body_of_one_frame_is_kept_as_that_frames_bytes_not_copied() {
        static PART: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let Body::Complete(bytes) = read_body(frames(&[PART]), 1024, None, LONG).await else {
            panic!("a body within the limit is read whole");
        };
        assert_eq!(&bytes[..], PART);
        assert_eq!(
            bytes.as_ptr(),
            PART.as_ptr(),
            "the frame's own bytes, not a copy"
        );
    }

    #[tokio::test]
    async fn a_body_of_several_frames_is_joined_in_order() {
        let Body::Complete(bytes) = read_body(
            frames(&[b"{\"id\":", b"", b"7,", b"\"a\":1}"]),
            1024,
            None,
            LONG,
        )
        .await
        else {
            panic!("a body within the limit is read whole");
        };
        assert_eq!(&bytes[..], b"{\"id\":7,\"a\":1}");
    }

    #[tokio::test]
    async fn a_body_past_the_limit_keeps_its_beginning_only_whether_or_not_a_frame_fit() {
        // The first frame fits and is held as it came; the second passes the limit.
        let Body::TooLarge(prefix) = read_body(
            frames(&[b"{\"id\":9,", b"\"pad\":\"xxxxxxxx\"}"]),
            12,
            None,
            LONG,
        )
        .await
        else {
            panic!("a body past the limit is refused");
        };
        assert!(prefix.starts_with(b"{\"id\":9,\"pad"), "{prefix:?}");
        // One frame past the limit from the start.
        let Body::TooLarge(prefix) =
            read_body(frames(&[b"{\"id\":3,\"pad\":1}"]), 4, None, LONG).await
        else {
            panic!("a body past the limit is refused");
        };
        assert_eq!(prefix, b"{\"id\":3,\"pad\":1}");
    }

    #[test]
    fn a_body_that_came_whole_arms_no_timer() {
        // No timers on this runtime: arming one panics.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let read = runtime.block_on(read_body(frames(&[b"{}", b"\n"]), 1024, None, LONG));
        assert!(matches!(read, Body::Complete(bytes) if &bytes[..] == b"{}\n"));
    }

    #[tokio::test]
    async fn a_body_still_on_its_way_past_the_time_allowed_timed_out() {
        let within = Duration::from_millis(50);
        let frames = futures_util::stream::iter([Ok(Frame::data(Bytes::from_static(b"{")))]).chain(
            futures_util::stream::pending::<Result<Frame<Bytes>, Infallible>>(),
        );
        let started = std::time::Instant::now();
        let read = read_body(StreamBody::new(frames), 1024, None, within).await;
        assert!(matches!(read, Body::TimedOut));
        assert!(started.elapsed() >= within);
    }
}
