//! `transport::http::serve`'s header deadline (`ServeOptions::header_read_timeout`): a connection
//! that does not send a whole request head in time is closed, on time give or take its coarse
//! clock's tick, while a keep-alive connection whose every head comes in time lives on.

use std::time::{Duration, Instant};

use mcp_tool_runtime::transport::http::{ServeOptions, serve};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const TIMEOUT: Duration = Duration::from_millis(300);

/// A server answering `GET /` with `ok`, whose heads must come within [`TIMEOUT`].
async fn start() -> std::net::SocketAddr {
    let router = axum::Router::new().route("/", axum::routing::get(|| async { "ok" }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let options = ServeOptions::default().header_read_timeout(TIMEOUT);
    tokio::spawn(serve(listener, router, std::future::pending(), options));
    addr
}

/// Reads until the server closes the connection; how long after `started` it did.
async fn closed_after(stream: &mut TcpStream, started: Instant) -> Duration {
    let mut buffer = [0_u8; 1024];
    loop {
        match tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer)).await {
            Ok(Ok(0) | Err(_)) => return started.elapsed(),
            Ok(Ok(_)) => {}
            Err(_) => panic!("the connection was still open after 10 s"),
        }
    }
}

/// Sends `GET /` and reads its whole reply (`ok`, with its length).
async fn get(stream: &mut TcpStream) {
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let mut reply = Vec::new();
    let mut buffer = [0_u8; 1024];
    while !(reply.starts_with(b"HTTP/1.1 200") && reply.ends_with(b"\r\n\r\nok")) {
        let read = stream.read(&mut buffer).await.unwrap();
        assert!(
            read > 0,
            "closed mid-reply: {:?}",
            String::from_utf8_lossy(&reply)
        );
        reply.extend_from_slice(&buffer[..read]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_head_that_does_not_come_in_time_closes_its_connection() {
    let addr = start().await;
    // Before the connection exists, so before its deadline can start.
    let started = Instant::now();
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // Half a head, and nothing more.
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    let took = closed_after(&mut stream, started).await;
    // Never before the deadline; after it by at most a tick (15 ms here) and a busy machine's
    // moment (the whole suite runs beside it).
    assert!(took >= TIMEOUT, "{took:?}");
    assert!(took < TIMEOUT + Duration::from_secs(2), "{took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keep_alive_connection_whose_heads_come_in_time_lives_past_the_timeout() {
    let addr = start().await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let started = Instant::now();
    // Each head within the deadline, four times: the connection outlives it by far.
    for _ in 0..4 {
        get(&mut stream).await;
        tokio::time::sleep(TIMEOUT / 2).await;
    }
    get(&mut stream).await;
    assert!(started.elapsed() > 2 * TIMEOUT);
    // Then idle: waiting for a head that does not come is the same deadline.
    let took = closed_after(&mut stream, Instant::now()).await;
    assert!(took < TIMEOUT + Duration::from_secs(2), "{took:?}");
}
