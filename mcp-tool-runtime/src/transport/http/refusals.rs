//! [`HttpRefusals`]: how many requests an [`HttpGuard`](super::HttpGuard) refused, by the limit
//! that refused them.

use std::sync::atomic::{AtomicU64, Ordering};

/// How many requests an [`HttpGuard`](super::HttpGuard) (every clone of it) refused since it
/// was built, by the limit that refused them: what the client was told, counted for the
/// operator. Sessions refused at `max_sessions` are counted by
/// [`BoundedSessions::refused`](super::BoundedSessions::refused), connections refused at
/// `max_connections_per_peer` by [`ConnectionCounts`](super::ConnectionCounts).
///
/// ```
/// use mcp_tool_runtime::transport::http::{HttpGuard, HttpRefusals};
///
/// # let inner = ();
/// let guard = HttpGuard::new(inner);
/// // Keep a clone to read the counts while the other serves.
/// let counted = guard.clone();
/// assert_eq!(counted.refusals(), HttpRefusals::default());
/// # drop(guard);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpRefusals {
    /// Bodies larger than [`max_body_bytes`](super::HttpGuard::max_body_bytes).
    pub body_bytes: u64,
    /// Bodies that did not arrive whole within
    /// [`body_timeout`](super::HttpGuard::body_timeout).
    pub body_timeout: u64,
    /// Messages with more JSON elements than [`max_elements`](super::HttpGuard::max_elements).
    pub elements: u64,
    /// Bodies refused at
    /// [`max_body_bytes_per_sender`](super::HttpGuard::max_body_bytes_per_sender).
    pub body_bytes_per_sender: u64,
    /// Bodies refused at
    /// [`max_body_bytes_in_flight`](super::HttpGuard::max_body_bytes_in_flight).
    pub body_bytes_in_flight: u64,
}

/// The limit a refusal was at.
#[derive(Clone, Copy)]
pub(super) enum Refusal {
    BodyBytes,
    BodyTimeout,
    Elements,
    BodyBytesPerSender,
    BodyBytesInFlight,
}

/// The counts behind [`HttpRefusals`], shared by a guard's clones.
#[derive(Debug, Default)]
pub(super) struct Counters([AtomicU64; 5]);

impl Counters {
    pub(super) fn count(&self, refusal: Refusal) {
        self.0[refusal as usize].fetch_add(1, Ordering::Relaxed);
    }

    pub(super) fn snapshot(&self) -> HttpRefusals {
        let read = |refusal: Refusal| self.0[refusal as usize].load(Ordering::Relaxed);
        HttpRefusals {
            body_bytes: read(Refusal::BodyBytes),
            body_timeout: read(Refusal::BodyTimeout),
            elements: read(Refusal::Elements),
            body_bytes_per_sender: read(Refusal::BodyBytesPerSender),
            body_bytes_in_flight: read(Refusal::BodyBytesInFlight),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_is_counted_under_its_limit() {
        let counters = Counters::default();
        counters.count(Refusal::Elements);
        counters.count(Refusal::Elements);
        counters.count(Refusal::BodyBytesInFlight);
        assert_eq!(
            counters.snapshot(),
            HttpRefusals {
                elements: 2,
                body_bytes_in_flight: 1,
                ..HttpRefusals::default()
            }
        );
    }
}
