//! The PROXY protocol header (HAProxy's, v1 or v2) that a trusted proxy in front of
//! [`serve`](super::serve) starts each connection with: who the client is, so that the client,
//! not the proxy, is the connection's peer.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use ipnet::IpNet;
use ppp::HeaderResult;
use ppp::PartialResult;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// The longest header read: a v1 header is at most 107 bytes, and a v2 header is 16 bytes and
/// its addresses (36 for IPv6) and whatever TLVs the proxy adds; larger is refused.
const MAX_HEADER_BYTES: usize = 1_024;

/// Whether a connection from `ip` comes from one of `proxies`: an IPv4 address mapped into
/// IPv6 (a listener on `[::]` sees IPv4 peers so) is that IPv4 address.
pub(super) fn trusts(proxies: &[IpNet], ip: IpAddr) -> bool {
    let canonical = ip.to_canonical();
    proxies
        .iter()
        .any(|net| net.contains(&ip) || net.contains(&canonical))
}

/// Why a connection from a trusted proxy is closed before it is served.
#[derive(Debug, PartialEq)]
pub(super) enum Unproxied {
    /// The connection did not start with a PROXY protocol header.
    NoHeader,
    /// The header did not arrive whole within the deadline.
    TimedOut,
    /// The connection closed or failed first.
    Closed,
}

/// Reads the PROXY protocol header `stream` starts with, within `within`, and no byte past it:
/// the client it names (`None` for a proxy's own connection, a health check: the `LOCAL`
/// command, or `UNKNOWN` addresses).
pub(super) async fn read_header(
    stream: &mut TcpStream,
    within: Duration,
) -> Result<Option<SocketAddr>, Unproxied> {
    tokio::time::timeout(within, read(stream))
        .await
        .unwrap_or(Err(Unproxied::TimedOut))
}

async fn read(stream: &mut TcpStream) -> Result<Option<SocketAddr>, Unproxied> {
    let mut buffer = [0_u8; MAX_HEADER_BYTES];
    let mut seen = 0;
    loop {
        // Peeked, not read: what follows the header is the first request, hyper's to read.
        let peeked = stream
            .peek(&mut buffer)
            .await
            .map_err(|_| Unproxied::Closed)?;
        if peeked == 0 {
            return Err(Unproxied::Closed);
        }
        let (length, client) = match HeaderResult::parse(&buffer[..peeked]) {
            parsed if parsed.is_incomplete() => {
                if peeked == MAX_HEADER_BYTES {
                    return Err(Unproxied::NoHeader);
                }
                // `peek` answers at once while the bytes that came are unread: wait for more.
                if peeked == seen {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                seen = peeked;
                continue;
            }
            HeaderResult::V1(Ok(header)) => (header.header.len(), v1_client(&header.addresses)),
            HeaderResult::V2(Ok(header)) => (header.len(), v2_client(&header)),
            HeaderResult::V1(Err(_)) | HeaderResult::V2(Err(_)) => {
                return Err(Unproxied::NoHeader);
            }
        };
        stream
            .read_exact(&mut buffer[..length])
            .await
            .map_err(|_| Unproxied::Closed)?;
        return Ok(client);
    }
}

fn v1_client(addresses: &ppp::v1::Addresses) -> Option<SocketAddr> {
    match addresses {
        ppp::v1::Addresses::Tcp4(v4) => Some((IpAddr::V4(v4.source_address), v4.source_port)),
        ppp::v1::Addresses::Tcp6(v6) => Some((IpAddr::V6(v6.source_address), v6.source_port)),
        ppp::v1::Addresses::Unknown => None,
    }
    .map(SocketAddr::from)
}

fn v2_client(header: &ppp::v2::Header<'_>) -> Option<SocketAddr> {
    if header.command == ppp::v2::Command::Local {
        return None;
    }
    match header.addresses {
        ppp::v2::Addresses::IPv4(v4) => Some((IpAddr::V4(v4.source_address), v4.source_port)),
        ppp::v2::Addresses::IPv6(v6) => Some((IpAddr::V6(v6.source_address), v6.source_port)),
        ppp::v2::Addresses::Unspecified | ppp::v2::Addresses::Unix(_) => None,
    }
    .map(SocketAddr::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;
    use tokio::net::TcpListener;

    /// A connected pair: the client's end, and the server's.
    async fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap())
            .await
            .unwrap();
        (client, listener.accept().await.unwrap().0)
    }

    const WITHIN: Duration = Duration::from_millis(300);

    #[test]
    fn a_proxy_is_trusted_by_its_address_or_network_mapped_into_ipv6_too() {
        let proxies: Vec<IpNet> = ["10.0.0.5/32", "2001:db8::5/128", "192.168.7.0/24"]
            .iter()
            .map(|net| net.parse().unwrap())
            .collect();
        let trusted = |ip: &str| trusts(&proxies, ip.parse().unwrap());
        assert!(trusted("10.0.0.5"));
        assert!(trusted("::ffff:10.0.0.5"));
        assert!(trusted("2001:db8::5"));
        assert!(trusted("192.168.7.200"));
        assert!(trusted("::ffff:192.168.7.1"));
        assert!(!trusted("10.0.0.6"));
        assert!(!trusted("::ffff:10.0.0.6"));
        assert!(!trusted("2001:db8::6"));
        assert!(!trusted("192.168.8.1"));
    }

    #[tokio::test]
    async fn the_header_is_read_and_nothing_past_it() {
        let (mut client, mut server) = pair().await;
        client
            .write_all(b"PROXY TCP4 10.0.0.1 10.0.0.2 1234 80\r\nGET / HTTP/1.1\r\n")
            .await
            .unwrap();
        let client_addr = read_header(&mut server, WITHIN).await;
        assert_eq!(client_addr, Ok(Some("10.0.0.1:1234".parse().unwrap())));
        let mut rest = [0_u8; 16];
        server.read_exact(&mut rest).await.unwrap();
        assert_eq!(&rest, b"GET / HTTP/1.1\r\n");
    }

    #[tokio::test]
    async fn a_header_in_pieces_is_waited_for() {
        let (mut client, mut server) = pair().await;
        let header = b"PROXY TCP6 2001:db8::1 2001:db8::2 1234 80\r\n";
        let reading = tokio::spawn(async move { read_header(&mut server, WITHIN).await });
        client.write_all(&header[..10]).await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        client.write_all(&header[10..]).await.unwrap();
        let client_addr = reading.await.unwrap();
        assert_eq!(client_addr, Ok(Some("[2001:db8::1]:1234".parse().unwrap())));
    }

    #[tokio::test]
    async fn no_header_a_late_one_and_a_closed_connection_are_told_apart() {
        let (mut client, mut server) = pair().await;
        client.write_all(b"GET / HTTP/1.1\r\n\r\n").await.unwrap();
        assert_eq!(
            read_header(&mut server, WITHIN).await,
            Err(Unproxied::NoHeader)
        );
        let (_client, mut server) = pair().await;
        assert_eq!(
            read_header(&mut server, WITHIN).await,
            Err(Unproxied::TimedOut)
        );
        let (client, mut server) = pair().await;
        drop(client);
        assert_eq!(
            read_header(&mut server, WITHIN).await,
            Err(Unproxied::Closed)
        );
    }
}
