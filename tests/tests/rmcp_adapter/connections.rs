//! `transport::http::serve`'s connection bounds: a peer past its share
//! (`ServeOptions::max_connections_per_peer`) is answered with a JSON-RPC error carrying its
//! request's id and closed, while another peer is served; at `max_connections` the next
//! connection waits until one closes; a refused connection never holds up the shutdown.

use std::net::SocketAddr;
use std::time::Duration;

use mcp_tool_runtime::transport::http::{ServeOptions, serve};
use serde_json::Value;
use tests::http::{connect_from, reply_on};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Answers `POST /` with the JSON string `"ok"`.
fn ok() -> axum::Router {
    axum::Router::new().route("/", axum::routing::post(|| async { axum::Json("ok") }))
}

/// A server answering `POST /` with `"ok"`, served with `options`.
async fn start(options: ServeOptions) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, ok(), std::future::pending(), options));
    addr
}

/// Sends a JSON-RPC `tools/list` with `id` and reads one reply: its status line and body (the
/// server's `"ok"`, or its refusal).
async fn send(stream: &mut TcpStream, id: u64) -> (String, String) {
    let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
    let request = format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let reply = reply_on(stream).await;
    let status = reply.head.lines().next().unwrap().to_lowercase();
    let body = match reply.message {
        Value::String(text) => text,
        other => other.to_string(),
    };
    (status, body)
}

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
    let reply: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(reply["id"], 7, "{reply}");
    assert_eq!(reply["error"]["code"], -32029, "{reply}");
    assert_eq!(
        reply["error"]["data"]["limit"], "max_connections_per_peer",
        "{reply}"
    );
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
