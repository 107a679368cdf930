//! `transport::http::serve`'s connection bounds: a peer past its share
//! (`ServeOptions::max_connections_per_peer`) is answered with a JSON-RPC error carrying its
//! request's id and closed, while another peer is served; at `max_connections` the next
//! connection waits until one closes; a refused connection never holds up the shutdown. Behind
//! a trusted proxy (`ServeOptions::proxies`), the client its PROXY protocol header names is the
//! peer, and a connection from the proxy without one is closed.

use std::net::SocketAddr;
use std::time::Duration;

use mcp_tool_runtime::transport::http::{IpNet, ServeOptions, serve};
use tests::http::{
    connect_from, ok_router as ok, refused_per_peer, reply_on, send_ok as send, serve_ok as start,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Whether the server has closed `stream` (reads to its end within 5 s).
async fn closed(stream: &mut TcpStream) -> bool {
    let mut buffer = [0_u8; 256];
    loop {
        match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await {
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
            Err(_) => return false,
        }
    }
}

/// Two connections from `127.0.0.1`, each served once and kept open.
async fn two_served(addr: SocketAddr) -> Vec<TcpStream> {
    let mut held = Vec::new();
    for id in 0..2 {
        let mut stream = connect_from("127.0.0.1", addr).await;
        assert_eq!(send(&mut stream, id).await.1, "ok");
        held.push(stream);
    }
    held
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_past_its_peers_share_is_refused_with_its_id_and_another_peer_is_served() {
    let options = ServeOptions::default().max_connections_per_peer(2);
    let connections = options.connections();
    let addr = start(options).await;
    let mut held = two_served(addr).await;
    assert_eq!((connections.open(), connections.refused()), (2, 0));
    let mut third = connect_from("127.0.0.1", addr).await;
    let (status, body) = send(&mut third, 7).await;
    // With its id, so the client hands the error to the request (as the guard answers).
    assert!(status.contains(" 200"), "{status}");
    let reply = refused_per_peer(&body, 7);
    assert_eq!(reply["error"]["data"]["value"], 2, "{reply}");
    assert!(
        closed(&mut third).await,
        "the refused connection was kept open"
    );
    // Counted for the operator, and not as open.
    assert_eq!((connections.open(), connections.refused()), (2, 1));
    // Another peer is served while the first holds its whole share.
    let mut other = connect_from("127.0.0.2", addr).await;
    assert_eq!(send(&mut other, 8).await.1, "ok");
    // The first peer's connections still serve; once one closes, its place is the peer's again.
    assert_eq!(send(&mut held[0], 9).await.1, "ok");
    drop(held.remove(0));
    for attempt in 0.. {
        let mut again = connect_from("127.0.0.1", addr).await;
        let (status, body) = send(&mut again, 10).await;
        if body == "ok" {
            break;
        }
        assert!(body.contains("-32029") && attempt < 50, "{status} {body}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Each closed connection is no longer counted open.
    drop((held, other));
    for attempt in 0.. {
        if connections.open() == 0 {
            break;
        }
        assert!(attempt < 250, "{connections:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_max_connections_the_next_waits_until_one_closes() {
    let addr = start(ServeOptions::default().max_connections(2)).await;
    let mut held = two_served(addr).await;
    // Connected (the listener's backlog takes it), but not served while two are open.
    let mut third = connect_from("127.0.0.1", addr).await;
    let waiting = tokio::spawn(async move { send(&mut third, 3).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!waiting.is_finished(), "a third connection was served");
    drop(held.remove(0));
    let (_, body) = tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("the waiting connection was never served once one closed")
        .unwrap();
    assert_eq!(body, "ok");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_connection_that_never_asks_does_not_hold_up_the_shutdown() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let options = ServeOptions::default().max_connections_per_peer(1);
    let serving = tokio::spawn(serve(
        listener,
        ok(),
        async move {
            let _ = stopped.await;
        },
        options,
    ));
    let mut served = connect_from("127.0.0.1", addr).await;
    assert_eq!(send(&mut served, 1).await.1, "ok");
    // Past the share, and silent: its refusal waits for a request (up to the 10 s header
    // deadline).
    let _silent = connect_from("127.0.0.1", addr).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    stop.send(()).unwrap();
    let stopped = tokio::time::timeout(Duration::from_secs(5), serving)
        .await
        .expect("serve waited on the refused connection")
        .unwrap();
    assert_eq!(stopped.cut, 0, "{stopped:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

/// The proxy these tests trust, by its loopback address.
const PROXY: &str = "127.0.0.9";

/// A PROXY protocol v1 header for a TCP connection from `client` (IPv4).
fn v1_header(client: &str) -> Vec<u8> {
    format!("PROXY TCP4 {client} 127.0.0.1 40000 80\r\n").into_bytes()
}

/// A PROXY protocol v2 header for a TCP connection from `client` (IPv4), as HAProxy's
/// `send-proxy-v2` writes it: the signature, `PROXY` over TCP/IPv4, 12 bytes of addresses.
fn v2_header(client: [u8; 4]) -> Vec<u8> {
    let mut header = b"\r\n\r\n\0\r\nQUIT\n".to_vec();
    header.extend([0x21, 0x11, 0, 12]);
    header.extend(client);
    header.extend([127, 0, 0, 1]);
    header.extend(40_000_u16.to_be_bytes());
    header.extend(80_u16.to_be_bytes());
    header
}

/// A connection to `addr` from the trusted proxy, which has written `header`.
async fn through_proxy(addr: SocketAddr, header: &[u8]) -> TcpStream {
    let mut stream = connect_from(PROXY, addr).await;
    stream.write_all(header).await.unwrap();
    stream
}

/// Whether the server closed `stream` without a byte of reply (within 5 s).
async fn closed_unanswered(stream: &mut TcpStream) -> bool {
    let mut buffer = [0_u8; 256];
    matches!(
        tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await,
        Ok(Ok(0) | Err(_))
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_each_client_it_names_is_a_peer_of_its_own() {
    // Trusted by its network (127.0.0.8/31 holds 127.0.0.9).
    let options = ServeOptions::default()
        .max_connections_per_peer(1)
        .proxies(["127.0.0.8/31".parse::<IpNet>().unwrap()]);
    let connections = options.connections();
    let addr = start(options).await;
    // Ada's connection through the proxy (a v1 header) is served, and kept open.
    let mut ada = through_proxy(addr, &v1_header("10.0.0.1")).await;
    assert_eq!(send(&mut ada, 1).await.1, "ok");
    // Her second (a v2 header this time) is past her share of one.
    let mut again = through_proxy(addr, &v2_header([10, 0, 0, 1])).await;
    refused_per_peer(&send(&mut again, 2).await.1, 2);
    // Bob, through the same proxy, is served: the proxy is not the peer, its clients are.
    let mut bob = through_proxy(addr, &v2_header([10, 0, 0, 2])).await;
    assert_eq!(send(&mut bob, 3).await.1, "ok");
    assert_eq!((connections.open(), connections.refused()), (2, 1));
    // The proxy's own connection (`PROXY UNKNOWN`, a health check) is the proxy's.
    let mut check = through_proxy(addr, b"PROXY UNKNOWN\r\n").await;
    assert_eq!(send(&mut check, 4).await.1, "ok");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_from_a_trusted_proxy_without_its_header_is_closed_unserved() {
    let options = ServeOptions::default()
        .proxies([PROXY.parse::<std::net::IpAddr>().unwrap()])
        .header_read_timeout(Duration::from_millis(500));
    let connections = options.connections();
    let addr = start(options).await;
    // A request with no header first.
    let mut bare = connect_from(PROXY, addr).await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let request = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    bare.write_all(request.as_bytes()).await.unwrap();
    assert!(
        closed_unanswered(&mut bare).await,
        "a request without a header was answered"
    );
    // Silence: closed at the header deadline.
    let mut silent = connect_from(PROXY, addr).await;
    assert!(
        closed_unanswered(&mut silent).await,
        "a silent connection was kept"
    );
    // Half a header, then silence: the same.
    let mut half = through_proxy(addr, &v2_header([10, 0, 0, 1])[..20]).await;
    assert!(closed_unanswered(&mut half).await, "half a header was kept");
    assert_eq!((connections.open(), connections.unproxied()), (0, 3));
    // Any other address is served as it comes: a header from it is not read as one.
    let mut direct = connect_from("127.0.0.1", addr).await;
    assert_eq!(send(&mut direct, 5).await.1, "ok");
    let mut pretending = connect_from("127.0.0.1", addr).await;
    pretending.write_all(&v1_header("10.0.0.7")).await.unwrap();
    let reply = reply_on(&mut pretending).await;
    assert!(reply.head.starts_with("HTTP/1.1 400"), "{reply:?}");
}
