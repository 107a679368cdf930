//! A streamed reply held back for a moment, so that a quick call's reply leaves in one write:
//! its head waits, up to [`HttpGuard::reply_hold`](super::HttpGuard::reply_hold), for its
//! stream to end.
//!
//! rmcp answers each message on a 2025 session with server-sent events. Its head and priming
//! event are ready as soon as the message is read, and the result only once the tool has run,
//! so a quick call goes out in two writes, and each wakes the client. Held, the head, the
//! priming event and the result leave together, with no byte of them changed: a system call and
//! a wakeup less on each side, and a length instead of chunks. What it gives up is the early
//! head's wakeup of a client whose CPU had gone idle, overlapped with the call; on a machine
//! whose idle CPUs halt, a server waiting on one such client can lose more than it saves
//! (`BENCHMARKS.md`, "The 2025 reply in one write").

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::{Pin, pin};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::Response;
use http_body::{Body, Frame, SizeHint};
use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;

use super::body::HttpResponse;

/// The most a reply's held frames hold before its head leaves anyway: past it, holding saves
/// no write (hyper's own buffer is about this size).
const MAX_HELD_BYTES: usize = 64 << 10;

/// `response`, held if its body streams (no length known) and `hold` is not zero.
pub(super) async fn hold_if_streamed(
    response: HttpResponse,
    hold: Duration,
) -> Result<HttpResponse, Infallible> {
    if hold.is_zero() || response.body().size_hint().exact().is_some() {
        return Ok(response);
    }
    Ok(self::hold(response, hold).await)
}

/// `response` once its body has ended, or `hold` has passed, or [`MAX_HELD_BYTES`] of it are
/// ready: its first frames ahead of what is still to come. Nothing is copied: the frames are
/// the body's own.
///
/// The body is first given a turn of the scheduler: a quick call's result is most often ready by
/// then (rmcp's tasks that carry it run in that turn), and no timer is armed for it. Only a call
/// still running after it is held on a timer, for up to `hold`. A timer armed for every call woke
/// the runtime's parked worker each time: four `futex` calls a request where the turn leaves
/// less than one (`BENCHMARKS.md`, "The 2025 reply in one write").
async fn hold(response: HttpResponse, hold: Duration) -> HttpResponse {
    let (parts, mut body) = response.into_parts();
    let mut frames = Ahead::default();
    let mut read = {
        let turn = pin!(tokio::task::yield_now());
        read_ahead(&mut body, &mut frames, turn).await
    };
    if let Read::Waited = read {
        let deadline = pin!(tokio::time::sleep(hold));
        read = read_ahead(&mut body, &mut frames, deadline).await;
    }
    let rest = match read {
        Read::Ended => None,
        Read::Full | Read::Waited => Some(body),
    };
    Response::from_parts(parts, Held { frames, rest }.boxed())
}

/// Why reading a body ahead stopped.
enum Read {
    /// The body ended.
    Ended,
    /// [`MAX_HELD_BYTES`] of it are ready.
    Full,
    /// What it was read ahead until came first.
    Waited,
}

/// Reads `body`'s frames into `frames` until it ends, [`MAX_HELD_BYTES`] are ready, or `until`
/// completes, whichever comes first. (Not an `async fn`: it would hold `until` twice.)
fn read_ahead<'a>(
    body: &'a mut BoxBody<Bytes, Infallible>,
    frames: &'a mut Ahead,
    mut until: Pin<&'a mut impl Future<Output = ()>>,
) -> impl Future<Output = Read> + 'a {
    std::future::poll_fn(move |cx| {
        loop {
            match Pin::new(&mut *body).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => {
                    frames.push(frame);
                    if frames.bytes > MAX_HELD_BYTES {
                        return Poll::Ready(Read::Full);
                    }
                }
                Poll::Ready(Some(Err(never))) => match never {},
                Poll::Ready(None) => return Poll::Ready(Read::Ended),
                Poll::Pending => return until.as_mut().poll(cx).map(|()| Read::Waited),
            }
        }
    })
}

/// A body whose first frames were read ahead: those, then the rest of the body, if it had not
/// ended.
struct Held {
    frames: Ahead,
    rest: Option<BoxBody<Bytes, Infallible>>,
}

/// The frames read ahead, in order: the first two in place (a quick call's priming event and
/// result, so most replies allocate nothing for them), any more in a queue. Every frame is
/// pushed before the first is taken.
#[derive(Default)]
struct Ahead {
    first: [Option<Frame<Bytes>>; 2],
    more: VecDeque<Frame<Bytes>>,
    /// The bytes of the data frames held.
    bytes: usize,
}

impl Ahead {
    fn push(&mut self, frame: Frame<Bytes>) {
        self.bytes += frame.data_ref().map_or(0, Bytes::len);
        match self.first.iter_mut().find(|slot| slot.is_none()) {
            Some(slot) => *slot = Some(frame),
            None => self.more.push_back(frame),
        }
    }

    fn pop(&mut self) -> Option<Frame<Bytes>> {
        let frame = self
            .first
            .iter_mut()
            .find_map(Option::take)
            .or_else(|| self.more.pop_front())?;
        self.bytes -= frame.data_ref().map_or(0, Bytes::len);
        Some(frame)
    }

    fn is_empty(&self) -> bool {
        self.first.iter().all(Option::is_none) && self.more.is_empty()
    }
}

impl Body for Held {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        if let Some(frame) = self.frames.pop() {
            return Poll::Ready(Some(Ok(frame)));
        }
        match &mut self.rest {
            Some(rest) => Pin::new(rest).poll_frame(cx),
            None => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.frames.is_empty() && self.rest.as_ref().is_none_or(Body::is_end_stream)
    }

    /// Exact once the body has ended: its length then goes in the head, and no chunk framing
    /// is written.
    fn size_hint(&self) -> SizeHint {
        let held = self.frames.bytes as u64;
        match &self.rest {
            None => SizeHint::with_exact(held),
            Some(rest) => {
                let rest = rest.size_hint();
                let mut hint = SizeHint::new();
                hint.set_lower(held.saturating_add(rest.lower()));
                if let Some(upper) = rest.upper() {
                    hint.set_upper(held.saturating_add(upper));
                }
                hint
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use http_body_util::{Full, StreamBody};
    use tokio::sync::mpsc;

    use super::*;

    /// A streamed response, and the sender of its frames.
    fn streamed() -> (HttpResponse, mpsc::Sender<Bytes>) {
        let (send, receive) = mpsc::channel::<Bytes>(8);
        let frames = futures_util::stream::unfold(receive, |mut receive| async move {
            let data = receive.recv().await?;
            Some((Ok::<_, Infallible>(Frame::data(data)), receive))
        });
        (Response::new(StreamBody::new(frames).boxed()), send)
    }

    async fn text(response: HttpResponse) -> Vec<u8> {
        response
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec()
    }

    #[tokio::test]
    async fn a_stream_that_ends_within_the_hold_is_answered_whole_with_its_length() {
        let (response, send) = streamed();
        tokio::spawn(async move {
            send.send(Bytes::from_static(b"id: 0\ndata:\n\n"))
                .await
                .unwrap();
            tokio::time::sleep(Duration::from_millis(20)).await;
            send.send(Bytes::from_static(b"data: {}\n\n"))
                .await
                .unwrap();
        });
        let response = hold(response, Duration::from_secs(10)).await;
        assert_eq!(response.body().size_hint().exact(), Some(23));
        assert_eq!(text(response).await, b"id: 0\ndata:\n\ndata: {}\n\n");
    }

    /// On a runtime without timers, where arming one panics: a stream that ends within a turn of
    /// the scheduler is held whole, and no timer is armed for it.
    #[test]
    fn a_stream_that_ends_within_a_turn_arms_no_timer() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (response, send) = streamed();
            tokio::spawn(async move {
                for data in [&b"id: 0\ndata:\n\n"[..], b"data: {}\n\n"] {
                    send.send(Bytes::from_static(data)).await.unwrap();
                }
            });
            let response = hold(response, Duration::from_secs(10)).await;
            assert_eq!(response.body().size_hint().exact(), Some(23));
            assert_eq!(text(response).await, b"id: 0\ndata:\n\ndata: {}\n\n");
        });
    }

    #[tokio::test]
    async fn a_stream_still_open_when_the_hold_ends_goes_on_streaming() {
        let (response, send) = streamed();
        send.send(Bytes::from_static(b"first")).await.unwrap();
        let started = Instant::now();
        let response = hold(response, Duration::from_millis(30)).await;
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(30), "held {waited:?}");
        assert!(waited < Duration::from_secs(5), "held {waited:?}");
        assert_eq!(response.body().size_hint().exact(), None);
        let mut body = response.into_body();
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(&first[..], b"first");
        send.send(Bytes::from_static(b"second")).await.unwrap();
        drop(send);
        assert_eq!(text(Response::new(body)).await, b"second");
    }

    #[tokio::test]
    async fn a_reply_past_the_held_bytes_goes_at_once() {
        let (response, send) = streamed();
        send.send(Bytes::from(vec![b'x'; MAX_HELD_BYTES + 1]))
            .await
            .unwrap();
        let started = Instant::now();
        let response = hold(response, Duration::from_secs(60)).await;
        assert!(started.elapsed() < Duration::from_secs(30));
        assert!(!response.body().is_end_stream());
        drop(send);
        assert_eq!(text(response).await.len(), MAX_HELD_BYTES + 1);
    }

    #[tokio::test]
    async fn frames_past_the_first_two_keep_their_order() {
        let (response, send) = streamed();
        for data in [&b"one"[..], b"two", b"three", b"four"] {
            send.send(Bytes::from_static(data)).await.unwrap();
        }
        drop(send);
        let response = hold(response, Duration::from_secs(10)).await;
        assert_eq!(response.body().size_hint().exact(), Some(15));
        assert_eq!(text(response).await, b"onetwothreefour");
    }

    #[tokio::test]
    async fn a_whole_body_comes_through_unchanged() {
        let response = Response::new(Full::new(Bytes::from_static(b"{}")).boxed());
        let response = hold(response, Duration::ZERO).await;
        assert_eq!(response.body().size_hint().exact(), Some(2));
        assert_eq!(text(response).await, b"{}");
    }
}
