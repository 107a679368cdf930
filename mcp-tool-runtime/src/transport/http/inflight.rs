//! The request bodies [`HttpGuard`](super::HttpGuard) holds at once: each sender's share of the
//! bytes, and the server's.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::peers::Peer;
use super::tally::Tally;
use crate::server::Holder;

/// The request body bytes [`HttpGuard`](super::HttpGuard) holds at once by default, for every
/// sender together: 512 MiB.
pub const DEFAULT_MAX_BODY_BYTES_IN_FLIGHT: usize = 512 << 20;

/// The request body bytes one sender's requests may hold at once by default: 64 MiB, four
/// bodies of the largest size [`DEFAULT_MAX_BODY_BYTES`](super::DEFAULT_MAX_BODY_BYTES).
pub const DEFAULT_MAX_BODY_BYTES_PER_SENDER: usize = 64 << 20;

/// Whose share a body's bytes count against: a verified caller (its issuer and subject, all its
/// clients together); else the peer its connection comes from, when the server loop says so
/// ([`serve`](super::serve) does); else every other sender together.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) enum Sender {
    Caller(Holder),
    Peer(Peer),
    Unknown,
}

impl Sender {
    pub(super) fn of(parts: &http::request::Parts) -> Sender {
        if let Some(caller) = parts.extensions.get::<Arc<crate::auth::Caller>>()
            && let Some(holder @ Holder::Verified(_)) = Holder::of(Some(&**caller), false)
        {
            return Sender::Caller(holder);
        }
        match parts.extensions.get::<Peer>() {
            Some(peer) => Sender::Peer(*peer),
            None => Sender::Unknown,
        }
    }
}

/// Which bound a body would pass: a sender's share, or the server's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum OverBudget {
    Sender(usize),
    Server(usize),
}

/// The first bytes of each body, which count toward the server's bound only: most requests
/// are smaller, and pass with an atomic count rather than a lookup of their sender. One
/// sender's requests hold at most this much more than its share per connection.
pub(super) const UNSHARED_BYTES: usize = 64 << 10;

/// The bytes held, by sender and in all.
pub(super) struct InFlight {
    total: usize,
    share: usize,
    held: AtomicUsize,
    /// What each sender holds past [`UNSHARED_BYTES`] of its bodies.
    by_sender: Tally<Sender>,
}

impl std::fmt::Debug for InFlight {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InFlight")
            .field("total", &self.total)
            .field("share", &self.share)
            .finish_non_exhaustive()
    }
}

impl InFlight {
    /// At most `total` bytes held at once, `share` of them by one sender.
    pub(super) fn new(total: usize, share: usize) -> Arc<InFlight> {
        Arc::new(InFlight {
            total,
            share,
            held: AtomicUsize::new(0),
            by_sender: Tally::default(),
        })
    }

    pub(super) fn total(&self) -> usize {
        self.total
    }

    pub(super) fn share(&self) -> usize {
        self.share
    }

    /// The bytes of one request from `sender`, none yet.
    pub(super) fn reserve(self: &Arc<Self>, sender: Sender) -> Reserved {
        Reserved {
            inflight: self.clone(),
            sender,
            bytes: 0,
        }
    }
}

/// One request's bytes, given back when dropped.
pub(super) struct Reserved {
    inflight: Arc<InFlight>,
    sender: Sender,
    bytes: usize,
}

impl Reserved {
    /// Holds `more` bytes, unless that would pass the server's bound or, past the first
    /// [`UNSHARED_BYTES`] of the body, the sender's share.
    pub(super) fn grow(&mut self, more: usize) -> Result<(), OverBudget> {
        let InFlight {
            total,
            share,
            held,
            by_sender,
        } = &*self.inflight;
        if held.fetch_add(more, Ordering::AcqRel).saturating_add(more) > *total {
            held.fetch_sub(more, Ordering::AcqRel);
            return Err(OverBudget::Server(*total));
        }
        let shared = shared(self.bytes + more) - shared(self.bytes);
        if shared > 0 && !by_sender.take(&self.sender, shared, *share) {
            held.fetch_sub(more, Ordering::AcqRel);
            return Err(OverBudget::Sender(*share));
        }
        self.bytes += more;
        Ok(())
    }
}

/// How many of a body's first `bytes` count toward its sender's share.
fn shared(bytes: usize) -> usize {
    bytes.saturating_sub(UNSHARED_BYTES)
}

impl Drop for Reserved {
    fn drop(&mut self) {
        self.inflight.held.fetch_sub(self.bytes, Ordering::AcqRel);
        let shared = shared(self.bytes);
        if shared > 0 {
            self.inflight.by_sender.give(&self.sender, shared);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sender_holds_its_share_the_server_its_bound_and_both_are_given_back() {
        const U: usize = UNSHARED_BYTES;
        let inflight = InFlight::new(3 * U + 100, 60);
        let (alice, bob, carol) = (
            Sender::Peer(Peer::V4([10, 0, 0, 1])),
            Sender::Peer(Peer::V4([10, 0, 0, 2])),
            Sender::Unknown,
        );
        // A body's first bytes count toward the server's bound only.
        let mut first = inflight.reserve(alice.clone());
        first.grow(U).unwrap();
        first.grow(40).unwrap();
        let mut second = inflight.reserve(alice.clone());
        second.grow(U).unwrap();
        assert_eq!(second.grow(30), Err(OverBudget::Sender(60)));
        second.grow(20).unwrap();
        let mut theirs = inflight.reserve(bob);
        theirs.grow(U).unwrap();
        assert_eq!(theirs.grow(41), Err(OverBudget::Server(3 * U + 100)));
        theirs.grow(40).unwrap();
        drop(first);
        drop(second);
        let mut again = inflight.reserve(carol);
        again.grow(U + 60).unwrap();
        drop((again, theirs));
        assert_eq!(inflight.held.load(Ordering::Relaxed), 0);
        assert!(inflight.by_sender.is_empty());
    }
}
