//! The request bodies [`HttpGuard`](super::HttpGuard) holds at once: each sender's share of the
//! bytes, and the server's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::peers::Peer;
use crate::server::Holder;
use crate::sync::lock;

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

/// The bytes held, by sender and in all.
pub(super) struct InFlight {
    total: usize,
    share: usize,
    held: Mutex<Held>,
}

#[derive(Default)]
struct Held {
    total: usize,
    /// Only senders holding bytes: as many entries as requests being read at most.
    by_sender: HashMap<Sender, usize>,
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
            held: Mutex::new(Held::default()),
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
    /// Holds `more` bytes, unless that would pass the sender's share or the server's bound.
    pub(super) fn grow(&mut self, more: usize) -> Result<(), OverBudget> {
        let InFlight { total, share, held } = &*self.inflight;
        let mut held = lock(held);
        if held.total.saturating_add(more) > *total {
            return Err(OverBudget::Server(*total));
        }
        let mine = held.by_sender.entry(self.sender.clone()).or_default();
        if mine.saturating_add(more) > *share {
            if *mine == 0 {
                held.by_sender.remove(&self.sender);
            }
            return Err(OverBudget::Sender(*share));
        }
        *mine += more;
        held.total += more;
        self.bytes += more;
        Ok(())
    }
}

impl Drop for Reserved {
    fn drop(&mut self) {
        if self.bytes == 0 {
            return;
        }
        let mut held = lock(&self.inflight.held);
        held.total -= self.bytes;
        if let Some(mine) = held.by_sender.get_mut(&self.sender) {
            *mine -= self.bytes;
            if *mine == 0 {
                held.by_sender.remove(&self.sender);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sender_holds_its_share_the_server_its_bound_and_both_are_given_back() {
        let inflight = InFlight::new(100, 60);
        let (alice, bob, carol) = (
            Sender::Peer(Peer::V4([10, 0, 0, 1])),
            Sender::Peer(Peer::V4([10, 0, 0, 2])),
            Sender::Unknown,
        );
        let mut first = inflight.reserve(alice.clone());
        first.grow(40).unwrap();
        let mut second = inflight.reserve(alice.clone());
        assert_eq!(second.grow(30), Err(OverBudget::Sender(60)));
        second.grow(20).unwrap();
        let mut theirs = inflight.reserve(bob);
        theirs.grow(40).unwrap();
        assert_eq!(
            inflight.reserve(carol.clone()).grow(1),
            Err(OverBudget::Server(100))
        );
        drop(first);
        drop(second);
        inflight.reserve(carol).grow(60).unwrap();
        drop(theirs);
        let held = lock(&inflight.held);
        assert_eq!(held.total, 0);
        assert!(held.by_sender.is_empty());
    }
}
