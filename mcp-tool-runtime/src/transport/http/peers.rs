//! Each peer's share of [`serve`](super::serve)'s connections: how many a peer (an IPv4
//! address, or an IPv6 /64 network) has open, and the answer a connection past its share gets.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use http::{HeaderValue, Method, Request, StatusCode, header};
use hyper::body::Incoming;
use rmcp::RoleServer;
use rmcp::service::TxJsonRpcMessage;

use super::body::{Body, HttpResponse, json_rpc_response, read_body};
use super::tally::Tally;
use crate::transport::reply::{ID_SEARCH_BYTES, find_id};

/// Who a connection comes from, for its share: an IPv4 address (an IPv4-mapped IPv6 one too),
/// or the /64 network of an IPv6 address, since one host is commonly given a whole /64.
/// [`serve`](super::serve) puts it in each request's extensions, for the guard's share of
/// bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) enum Peer {
    V4([u8; 4]),
    V6Network(u64),
}

impl Peer {
    pub(super) fn of(addr: SocketAddr) -> Peer {
        match addr.ip() {
            IpAddr::V4(v4) => Peer::V4(v4.octets()),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Peer::V4(v4.octets()),
                None => Peer::V6Network((v6.to_bits() >> 64) as u64),
            },
        }
    }
}

/// `inner`, with the peer of the connection put in each request's extensions.
#[derive(Clone)]
pub(super) struct WithPeer<S> {
    pub(super) inner: S,
    pub(super) peer: Peer,
}

impl<S, B> tower_service::Service<Request<B>> for WithPeer<S>
where
    S: tower_service::Service<Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        request.extensions_mut().insert(self.peer);
        self.inner.call(request)
    }
}

/// The connections each peer has open.
#[derive(Clone, Default)]
pub(super) struct Peers {
    open: Arc<Tally<Peer>>,
}

/// One connection counted in its peer's share, given back when dropped.
pub(super) struct PeerSlot {
    peers: Peers,
    peer: Peer,
}

impl Peers {
    /// Counts a connection from `peer`, unless it already has `share` open.
    pub(super) fn admit(&self, peer: Peer, share: usize) -> Option<PeerSlot> {
        self.open.take(&peer, 1, share).then(|| PeerSlot {
            peers: self.clone(),
            peer,
        })
    }
}

impl Drop for PeerSlot {
    fn drop(&mut self) {
        self.peers.open.give(&self.peer, 1);
    }
}

/// The answer to a request on a connection past its peer's share of `share`: a JSON-RPC error
/// (`-32029`, naming `max_connections_per_peer`) carrying the request's id when its body gives
/// one within `within` (then with HTTP 200, as the guard answers, so the client hands the error
/// to that request; else 503), `Retry-After: 1`, and the connection closed after it.
pub(super) async fn refuse(
    request: Request<Incoming>,
    share: usize,
    within: Duration,
) -> HttpResponse {
    let id = if request.method() == Method::POST {
        match read_body(request.into_body(), ID_SEARCH_BYTES, None, within).await {
            Body::Complete(bytes) => find_id(&bytes),
            Body::TooLarge(prefix) => find_id(&prefix),
            _ => None,
        }
    } else {
        None
    };
    let error = crate::server::reached(
        "max_connections_per_peer",
        share,
        format!(
            "this client already has {share} connections open to the server (its max_connections_per_peer); send on one of them, or try again when one closes"
        ),
    );
    let mut response = json_rpc_response(
        &TxJsonRpcMessage::<RoleServer>::error(error, id),
        StatusCode::SERVICE_UNAVAILABLE,
    );
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_is_its_ipv4_address_or_its_ipv6_network() {
        let at = |s: &str| Peer::of(s.parse().unwrap());
        assert_eq!(at("10.0.0.1:1"), at("10.0.0.1:2"));
        assert_ne!(at("10.0.0.1:1"), at("10.0.0.2:1"));
        assert_eq!(at("[::ffff:10.0.0.1]:1"), at("10.0.0.1:9"));
        assert_eq!(at("[2001:db8:1:2::1]:1"), at("[2001:db8:1:2:ffff::9]:1"));
        assert_ne!(at("[2001:db8:1:2::1]:1"), at("[2001:db8:1:3::1]:1"));
    }

    #[test]
    fn a_share_is_given_back_and_forgotten_when_its_connections_close() {
        let peers = Peers::default();
        let (alice, bob) = (Peer::V4([10, 0, 0, 1]), Peer::V4([10, 0, 0, 2]));
        let first = peers.admit(alice, 2).unwrap();
        let second = peers.admit(alice, 2).unwrap();
        assert!(peers.admit(alice, 2).is_none());
        assert!(peers.admit(bob, 2).is_some());
        drop(first);
        let third = peers.admit(alice, 2).unwrap();
        drop((second, third));
        assert!(peers.open.is_empty());
    }
}
