//! A raw JSON-RPC session with a server, over this crate's line transport on an in-memory pipe:
//! the lines a client sends, and the lines it reads back.

use std::time::Duration;

use mcp_tool_runtime::rmcp::{ServerHandler, ServiceExt};
use mcp_tool_runtime::transport::LineTransport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};

/// How long a test waits for one message.
const WAIT: Duration = Duration::from_secs(10);

/// The server's end of a session's pipe.
pub type ServerTransport = LineTransport<ReadHalf<DuplexStream>, WriteHalf<DuplexStream>>;

/// A session with a served handler.
pub struct Session {
    writer: WriteHalf<DuplexStream>,
    lines: tokio::io::Lines<BufReader<ReadHalf<DuplexStream>>>,
    /// The answer to `initialize`, if the session was initialized.
    pub init: Value,
}

impl Session {
    /// A session with `handler`, reading messages up to `limit` bytes, initialized at 2025-11-25
    /// with these client capabilities, or not initialized at all (2026-07-28 requests carry
    /// everything in their `_meta`).
    pub async fn open(
        handler: impl ServerHandler,
        limit: usize,
        capabilities: Option<Value>,
    ) -> Session {
        Session::open_with(handler, capabilities, 1 << 20, |transport| {
            transport.max_message_bytes(limit)
        })
        .await
    }

    /// A session like [`open`](Self::open)'s, over a pipe holding `pipe_bytes` in each
    /// direction, with the transport as `configure` sets it.
    pub async fn open_with(
        handler: impl ServerHandler,
        capabilities: Option<Value>,
        pipe_bytes: usize,
        configure: impl FnOnce(ServerTransport) -> ServerTransport,
    ) -> Session {
        let (client, server) = tokio::io::duplex(pipe_bytes);
        let (server_read, server_write) = tokio::io::split(server);
        let transport = configure(LineTransport::new(server_read, server_write));
        tokio::spawn(async move {
            let running = handler.serve(transport).await.unwrap();
            let _ = running.waiting().await;
        });
        let (reader, writer) = tokio::io::split(client);
        let mut session = Session {
            writer,
            lines: BufReader::new(reader).lines(),
            init: Value::Null,
        };
        let Some(capabilities) = capabilities else {
            return session;
        };
        let init = session
            .request(json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": capabilities,
                    "clientInfo": {"name": "wire-test", "version": "0"}
                }
            }))
            .await;
        assert!(init.get("result").is_some(), "{init}");
        session
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        session.init = init;
        session
    }

    /// The session as two halves, to send and read from different tasks.
    pub fn split(self) -> (Sender, Receiver) {
        (Sender(self.writer), Receiver(self.lines))
    }

    /// Sends a message.
    pub async fn send(&mut self, message: Value) {
        self.send_line(&serde_json::to_string(&message).unwrap())
            .await;
    }

    /// Sends a line as it is, within ten seconds.
    pub async fn send_line(&mut self, line: &str) {
        write_line_within(&mut self.writer, line.as_bytes()).await;
    }

    /// The next message the server sends, within ten seconds.
    pub async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(WAIT, self.lines.next_line())
            .await
            .expect("no message from the server")
            .unwrap()
            .expect("the server hung up");
        serde_json::from_str(&line).unwrap()
    }

    /// A ping proves the session still serves, and that nothing else was sent before its
    /// answer.
    pub async fn assert_quiet_and_serving(&mut self, id: u64) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
            .await;
        let answer = self.next().await;
        assert_eq!(
            answer["id"], id,
            "expected only the ping's answer, got {answer}"
        );
        assert!(answer.get("result").is_some(), "{answer}");
    }

    /// Opens a `subscriptions/listen` stream (2026-07-28) with request `id` asking for
    /// `notifications`, and returns its acknowledgment, the next message the server sends.
    pub async fn listen(&mut self, id: u64, notifications: Value) -> Value {
        self.send(json!({
            "jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
            "params": {"notifications": notifications, "_meta": meta_2026(json!({}))}
        }))
        .await;
        let ack = self.next().await;
        assert_eq!(
            ack["method"], "notifications/subscriptions/acknowledged",
            "{ack}"
        );
        ack
    }

    /// Sends a request and returns the response carrying its id.
    pub async fn request(&mut self, message: Value) -> Value {
        let id = message["id"].clone();
        self.send(message).await;
        let wait = async {
            loop {
                let line = self
                    .lines
                    .next_line()
                    .await
                    .unwrap()
                    .expect("the server hung up");
                let answer: Value = serde_json::from_str(&line).unwrap();
                if answer.get("id") == Some(&id) {
                    return answer;
                }
            }
        };
        tokio::time::timeout(WAIT, wait)
            .await
            .expect("no response to the request")
    }
}

/// The sending half of a [`Session`].
pub struct Sender(WriteHalf<DuplexStream>);

impl Sender {
    /// Sends a message, within ten seconds.
    pub async fn send(&mut self, message: Value) {
        let line = serde_json::to_vec(&message).unwrap();
        write_line_within(&mut self.0, &line).await;
    }
}

/// Writes `line` and its newline to the server's pipe, failing the test if the server has not
/// read them within ten seconds: a server that stopped reading fails the test rather than
/// hanging it.
async fn write_line_within(writer: &mut WriteHalf<DuplexStream>, line: &[u8]) {
    let write = async {
        writer.write_all(line).await?;
        writer.write_all(b"\n").await
    };
    tokio::time::timeout(WAIT, write)
        .await
        .expect("the server did not read the message within ten seconds")
        .unwrap();
}

/// The reading half of a [`Session`].
pub struct Receiver(tokio::io::Lines<BufReader<ReadHalf<DuplexStream>>>);

impl Receiver {
    /// The next message the server sends, within ten seconds.
    pub async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(WAIT, self.0.next_line())
            .await
            .expect("no message from the server")
            .unwrap()
            .expect("the server hung up");
        serde_json::from_str(&line).unwrap()
    }
}

/// A `tools/call` request.
pub fn call(id: u64, name: &str, arguments: Value) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}
    })
}

/// The `_meta` of a 2026-07-28 request from a client with these capabilities.
pub fn meta_2026(capabilities: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "wire-test", "version": "0"}
    })
}
