//! A 2025 call whose client hung up stops and gives its places back: its client closes the
//! connection carrying the call's reply, and the call is cancelled on its session (rmcp alone
//! kept it running, holding its slot, until the session idled out five minutes later). With
//! `BoundedSessions` the sessions cancel it; with rmcp's own session manager, the guard.

use std::sync::atomic::Ordering;
use std::time::Duration;

use mcp_tool_runtime::server::Limits;
use serde_json::json;
use tests::http::{HttpServer, Settings, end_head, request_head};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::fixtures::*;

/// A session opened on `http`, and a call of `hold` on it written on a connection of its own:
/// the connection, and the session's headers.
async fn a_call_of_hold(http: &HttpServer) -> (TcpStream, String) {
    let session = open_session(http, "hangs-up").await;
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "hold", "arguments": {}}})
    .to_string();
    let mut stream = TcpStream::connect(http.addr).await.unwrap();
    let mut request = request_head("POST", "/mcp", &http.addr.to_string(), call.len());
    end_head(&mut request, on(&session));
    request.push_str(&call);
    stream.write_all(request.as_bytes()).await.unwrap();
    (stream, session)
}

/// The settings of a server on rmcp's own session manager, whose guard cancels the call.
fn rmcps_sessions() -> Settings {
    Settings {
        plain_sessions: true,
        ..Settings::default()
    }
}

/// A call that its client hung up on after its reply's head stops, and its place (the session's
/// one call) is given back, served with `settings`.
async fn a_call_whose_client_hung_up_stops_and_gives_its_place_back(settings: Settings) {
    let mut limits = Limits::default();
    limits.max_calls_per_session = 1;
    let (served, running) = server(limits);
    let http = HttpServer::start_with(served, settings).await;

    // The call read to its reply's head, then its connection closed.
    let (mut stream, session) = a_call_of_hold(&http).await;
    let mut head = [0; 512];
    let n = stream.read(&mut head).await.unwrap();
    assert!(String::from_utf8_lossy(&head[..n]).starts_with("HTTP/1.1 200"));
    eventually("the call runs", || running.0.load(Ordering::SeqCst) == 1).await;
    drop(stream);

    eventually("the abandoned call stops", || {
        running.0.load(Ordering::SeqCst) == 0
    })
    .await;
    // Its place is given back: the session's one call may run again.
    let again = http
        .send(
            "POST",
            &on(&session),
            &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                    "params": {"name": "add", "arguments": {"a": 1, "b": 2}}}),
        )
        .await;
    assert!(again.message["result"].is_object(), "{again:?}");
}

#[tokio::test]
async fn a_call_on_bounded_sessions_whose_client_hung_up_stops_and_gives_its_place_back() {
    a_call_whose_client_hung_up_stops_and_gives_its_place_back(Settings::default()).await;
}

#[tokio::test]
async fn a_call_on_rmcps_sessions_whose_client_hung_up_stops_and_gives_its_place_back() {
    a_call_whose_client_hung_up_stops_and_gives_its_place_back(rmcps_sessions()).await;
}

/// A call that its client hung up on while its reply's head was still held stops, served with
/// `settings`.
async fn a_call_whose_client_hung_up_while_its_reply_was_held_stops(settings: Settings) {
    let (served, running) = server(Limits::default());
    // Held far longer than the test waits: only the hang-up can end the call in time.
    let settings = Settings {
        reply_hold: Duration::from_secs(60),
        ..settings
    };
    let http = HttpServer::start_with(served, settings).await;

    // The call's connection closed while its reply's head is still held.
    let (mut stream, _) = a_call_of_hold(&http).await;
    eventually("the call runs", || running.0.load(Ordering::SeqCst) == 1).await;
    let mut nothing = [0; 1];
    let early = tokio::time::timeout(Duration::from_millis(200), stream.read(&mut nothing)).await;
    assert!(early.is_err(), "the head left during the hold");
    drop(stream);

    eventually("the abandoned call stops", || {
        running.0.load(Ordering::SeqCst) == 0
    })
    .await;
}

#[tokio::test]
async fn a_call_on_bounded_sessions_whose_client_hung_up_while_its_reply_was_held_stops() {
    a_call_whose_client_hung_up_while_its_reply_was_held_stops(Settings::default()).await;
}

#[tokio::test]
async fn a_call_on_rmcps_sessions_whose_client_hung_up_while_its_reply_was_held_stops() {
    a_call_whose_client_hung_up_while_its_reply_was_held_stops(rmcps_sessions()).await;
}
