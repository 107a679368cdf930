//! A 2025 call whose client hung up is cancelled, on sessions of a manager other than
//! [`BoundedSessions`](super::BoundedSessions) (which cancels its own: it knows each request's
//! id): the body of its server-sent-events reply, dropped before its end (hyper drops it when
//! the connection closes), sends the session a `notifications/cancelled` for the call, so the
//! tool stops and gives its places back. rmcp alone keeps such a call running, holding a slot
//! of the caller's and the session's, until it ends on its own.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{HeaderName, Method, Request, Response, header};
use http_body::{Body, Frame, SizeHint};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use rmcp::model::RequestId;

use super::answering::cancelled;
use super::body::HttpResponse;
use super::guard::{Guarded, SESSION_ID};
use super::outline::outline_or_reply;

/// A reply body that runs `on_abandon` if it is dropped before its last frame. The closure is
/// held in place, not boxed: the body is boxed once, as a response's body is.
pub(crate) struct Watched<F: FnOnce()> {
    inner: BoxBody<Bytes, Infallible>,
    on_abandon: Option<F>,
}

// Nothing of `on_abandon` is ever pinned: it is only taken out and called, by value, when the
// body is dropped. (`inner` is a boxed body, `Unpin` itself.)
impl<F: FnOnce()> Unpin for Watched<F> {}

impl<F: FnOnce()> Watched<F> {
    pub(crate) fn new(inner: BoxBody<Bytes, Infallible>, on_abandon: F) -> Watched<F> {
        Watched {
            inner,
            on_abandon: Some(on_abandon),
        }
    }
}

impl<F: FnOnce()> Body for Watched<F> {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        if let Poll::Ready(None) = polled {
            // Read to its end: nothing was abandoned.
            self.on_abandon = None;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl<F: FnOnce()> Drop for Watched<F> {
    fn drop(&mut self) {
        if let Some(on_abandon) = self.on_abandon.take() {
            on_abandon();
        }
    }
}

/// A 2025 message on a session that may be a `tools/call`, kept to cancel it by its id if its
/// client hangs up: its body (shared, not copied), and the headers rmcp reads to take the
/// cancellation to the same session.
pub(super) struct Abandoned {
    pub(super) body: Bytes,
    pub(super) max_elements: usize,
    pub(super) headers: Kept,
}

/// The request headers rmcp reads of a POST on a session, kept (shared, not copied) for the
/// cancellation: whom it is for (`Host`, `Origin`, against its allowed hosts and origins), the
/// session and its protocol version. Whatever else the client sent (an `Mcp-Method` naming
/// the call) says nothing of the cancellation, or would contradict it.
pub(super) struct Kept([Option<header::HeaderValue>; 4]);

impl Kept {
    const NAMES: [HeaderName; 4] = [
        header::HOST,
        header::ORIGIN,
        SESSION_ID,
        HeaderName::from_static("mcp-protocol-version"),
    ];

    pub(super) fn of(headers: &http::HeaderMap) -> Kept {
        // One pass over the handful of headers a request has, rather than a hashed lookup of
        // each name; the first value of a name, as `get` would give.
        let mut kept = Kept(Default::default());
        for (name, value) in headers {
            if let Some(slot) = Self::NAMES.iter().position(|kept| kept == name) {
                kept.0[slot].get_or_insert_with(|| value.clone());
            }
        }
        kept
    }

    /// The headers of the cancellation: these, and the JSON body it is.
    fn into_headers(self) -> http::HeaderMap {
        let mut headers = http::HeaderMap::with_capacity(6);
        for (name, value) in Self::NAMES.into_iter().zip(self.0) {
            if let Some(value) = value {
                headers.insert(name, value);
            }
        }
        headers.insert(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("application/json"),
        );
        headers.insert(
            header::ACCEPT,
            header::HeaderValue::from_static("application/json, text/event-stream"),
        );
        headers
    }
}

impl Abandoned {
    /// The id of the call, if the message is a `tools/call` with one.
    fn call_id(&self) -> Option<RequestId> {
        let outline = outline_or_reply(&self.body, self.max_elements).ok()?;
        outline.called_tool()?;
        outline.id
    }
}

/// `response` (the reply to a 2025 message on a session), watched: if its body is dropped before
/// its end, the client hung up, and, if the message was a `tools/call`, the call is cancelled on
/// its session: the tool stops, and gives back its places.
pub(super) fn cancel_if_abandoned<S>(
    response: HttpResponse,
    call: Abandoned,
    canceller: S,
) -> HttpResponse
where
    S: Guarded,
{
    let (parts, body) = response.into_parts();
    // In a mutex only to be `Sync`, as a boxed body must be.
    let canceller = std::sync::Mutex::new(canceller);
    let on_abandon = move || {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let Some(id) = call.call_id() else {
            return;
        };
        let mut canceller = canceller
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        runtime.spawn(async move {
            let Ok(notice) = serde_json::to_vec(&cancelled(id)) else {
                return;
            };
            let mut request = Request::builder()
                .method(Method::POST)
                .body(Full::new(Bytes::from(notice)))
                .expect("a valid request");
            *request.headers_mut() = call.headers.into_headers();
            if std::future::poll_fn(|cx| canceller.poll_ready(cx))
                .await
                .is_ok()
            {
                let _ = canceller.call(request).await;
            }
        });
    };
    Response::from_parts(parts, Watched::new(body, on_abandon).boxed())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use http_body_util::{BodyExt, Full};

    use super::*;

    #[tokio::test]
    async fn a_body_dropped_before_its_end_says_so_and_one_read_through_does_not() {
        let abandoned = Arc::new(AtomicUsize::new(0));
        let counted = abandoned.clone();
        let body = Watched::new(Full::new(Bytes::from_static(b"data")).boxed(), move || {
            counted.fetch_add(1, Ordering::SeqCst);
        });
        drop(body);
        assert_eq!(abandoned.load(Ordering::SeqCst), 1);
        let counted = abandoned.clone();
        let body = Watched::new(Full::new(Bytes::from_static(b"data")).boxed(), move || {
            counted.fetch_add(1, Ordering::SeqCst);
        });
        let read = body.collect().await.unwrap().to_bytes();
        assert_eq!(&read[..], b"data");
        assert_eq!(abandoned.load(Ordering::SeqCst), 1);
    }
}
