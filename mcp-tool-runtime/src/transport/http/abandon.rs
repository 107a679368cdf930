//! A 2025 call whose client hung up is cancelled: the body of its server-sent-events reply,
//! dropped before its end (hyper drops it when the connection closes), sends the session a
//! `notifications/cancelled` for the call, so the tool stops and gives its places back. rmcp
//! alone keeps such a call running, holding a slot of the caller's and the session's, until it
//! ends on its own.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use http_body_util::combinators::BoxBody;

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
