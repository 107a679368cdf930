//! [`ConnectionCounts`]: how many connections [`serve`](super::serve) has open, and how many it
//! refused or closed unserved.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// How many connections [`serve`](super::serve) has open now, and how many it refused at
/// [`max_connections_per_peer`](super::ServeOptions::max_connections_per_peer) since it
/// started, for the operator. Taken from the options before they are given to `serve`
/// ([`ServeOptions::connections`](super::ServeOptions::connections)); every `serve` given those
/// options, or a clone of them, counts here.
///
/// ```no_run
/// # async fn run(router: axum::Router) -> std::io::Result<()> {
/// use mcp_tool_runtime::transport::http::{serve, ServeOptions};
///
/// let options = ServeOptions::default();
/// let connections = options.connections();
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// tokio::spawn(serve(listener, router, std::future::pending(), options));
/// // Later, for a metrics exporter:
/// println!("{} open, {} refused", connections.open(), connections.refused());
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Default)]
pub struct ConnectionCounts(Arc<Counts>);

#[derive(Default)]
struct Counts {
    open: AtomicUsize,
    refused: AtomicU64,
    unproxied: AtomicU64,
}

impl ConnectionCounts {
    /// Connections being served now (a refused one is not).
    pub fn open(&self) -> usize {
        self.0.open.load(Ordering::Relaxed)
    }

    /// Connections refused at `max_connections_per_peer`: those answered with the refusal,
    /// and those closed unanswered because too many refusals were waiting at once.
    pub fn refused(&self) -> u64 {
        self.0.refused.load(Ordering::Relaxed)
    }

    /// Connections from a trusted proxy ([`ServeOptions::proxies`](super::ServeOptions::proxies))
    /// closed unserved for want of a PROXY protocol header: what came was not one, none came
    /// within the header deadline, or the connection closed first. A proxy that does not send
    /// one (its `send-proxy` left out) has every connection counted here.
    pub fn unproxied(&self) -> u64 {
        self.0.unproxied.load(Ordering::Relaxed)
    }

    /// Counts a connection from a trusted proxy closed for want of its header.
    pub(super) fn unproxied_one(&self) {
        self.0.unproxied.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a connection open until the returned value is dropped.
    pub(super) fn opened(&self) -> Open {
        self.0.open.fetch_add(1, Ordering::Relaxed);
        Open(self.clone())
    }

    /// Counts a refused connection.
    pub(super) fn refuse(&self) {
        self.0.refused.fetch_add(1, Ordering::Relaxed);
    }
}

impl std::fmt::Debug for ConnectionCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectionCounts")
            .field("open", &self.open())
            .field("refused", &self.refused())
            .field("unproxied", &self.unproxied())
            .finish()
    }
}

/// One open connection, counted until dropped.
pub(super) struct Open(ConnectionCounts);

impl Drop for Open {
    fn drop(&mut self) {
        (self.0).0.open.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_is_open_until_dropped_and_clones_share_the_counts() {
        let counts = ConnectionCounts::default();
        let seen = counts.clone();
        let open = counts.opened();
        counts.refuse();
        assert_eq!((seen.open(), seen.refused()), (1, 1));
        drop(open);
        assert_eq!((seen.open(), seen.refused()), (0, 1));
    }
}
