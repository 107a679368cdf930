//! [`LineTransport`]: newline-delimited JSON-RPC (stdio) for rmcp that answers every request.
//!
//! rmcp's own stdio transport drops a line that is not JSON it can read: an unparsable or
//! over-deep request gets no reply, and the client waits for its own timeout. This transport
//! frames messages the same way and hands rmcp every message it can read; for the rest it
//! answers as JSON-RPC 2.0 asks: `-32700` (parse error) or `-32600` (invalid request), with the
//! request's `id` whenever one can be found in the line, so the client's pending request fails at
//! once with a message naming the problem. Messages without an `id` (notifications, responses)
//! get no reply, as JSON-RPC asks.

use std::borrow::Cow;
use std::future::Future;
use std::io;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::ErrorData;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

use super::budget::DEFAULT_MAX_ELEMENTS;
use super::reply::{ID_SEARCH_BYTES, find_id, read_message};

/// The default largest message [`LineTransport`] reads: 16 MiB.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 << 20;

/// The default number of messages [`LineTransport`] lets wait for the client to read them before
/// it stops reading the client's requests: 64.
pub const DEFAULT_MAX_QUEUED_MESSAGES: usize = 64;

/// Newline-delimited JSON-RPC over any reader and writer (stdio, a pipe, a socket), answering
/// every request it cannot hand to rmcp.
///
/// ```no_run
/// use mcp_tool_runtime::{mcp_tool, Toolbox, ToolboxServer};
/// use rmcp::ServiceExt;
///
/// /// Says hello.
/// #[mcp_tool]
/// fn hello(name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     let mut toolbox = Toolbox::new();
///     toolbox.register(hello::tool())?;
///     let transport = mcp_tool_runtime::transport::stdio().max_message_bytes(4 << 20);
///     ToolboxServer::new(toolbox)?.serve(transport).await?.waiting().await?;
///     Ok(())
/// }
/// ```
pub struct LineTransport<R, W> {
    reader: BufReader<R>,
    writer: Arc<Mutex<W>>,
    /// The line read so far; kept across cancelled reads (rmcp polls `receive` in a `select!`).
    line: Vec<u8>,
    /// The line being read is over the limit: the rest of it is skipped.
    overflowed: bool,
    max_message_bytes: usize,
    max_elements: usize,
    /// How many messages are waiting to be written (the client is not reading them yet).
    queued: Arc<tokio::sync::watch::Sender<usize>>,
    max_queued_messages: usize,
}

impl<R, W> std::fmt::Debug for LineTransport<R, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineTransport")
            .field("max_message_bytes", &self.max_message_bytes)
            .field("max_queued_messages", &self.max_queued_messages)
            .finish_non_exhaustive()
    }
}

/// [`LineTransport`] over the process's standard input and output.
///
/// ```no_run
/// let transport = mcp_tool_runtime::transport::stdio();
/// # drop(transport);
/// ```
pub fn stdio() -> LineTransport<tokio::io::Stdin, tokio::io::Stdout> {
    LineTransport::new(tokio::io::stdin(), tokio::io::stdout())
}

impl<R, W> LineTransport<R, W> {
    /// A transport reading messages from `reader` and writing them to `writer`.
    ///
    /// ```
    /// let (client, server) = tokio::io::duplex(1024);
    /// let (reader, writer) = tokio::io::split(server);
    /// let transport = mcp_tool_runtime::transport::LineTransport::new(reader, writer);
    /// # drop((client, transport));
    /// ```
    pub fn new(reader: R, writer: W) -> Self
    where
        R: AsyncRead,
    {
        LineTransport {
            reader: BufReader::new(reader),
            writer: Arc::new(Mutex::new(writer)),
            line: Vec::new(),
            overflowed: false,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            max_elements: DEFAULT_MAX_ELEMENTS,
            queued: Arc::new(tokio::sync::watch::Sender::new(0)),
            max_queued_messages: DEFAULT_MAX_QUEUED_MESSAGES,
        }
    }

    /// The largest message read, in bytes ([`DEFAULT_MAX_MESSAGE_BYTES`] unless set); a request
    /// over it is answered with `-32600` naming the limit.
    ///
    /// ```
    /// let transport = mcp_tool_runtime::transport::stdio().max_message_bytes(1 << 20);
    /// # drop(transport);
    /// ```
    pub fn max_message_bytes(mut self, limit: usize) -> Self {
        self.max_message_bytes = limit;
        self
    }

    /// The most JSON elements (values and keys) a message may hold ([`DEFAULT_MAX_ELEMENTS`]
    /// unless set): a message is counted, without being built, before rmcp parses it, and one
    /// over the budget is answered with `-32600` naming the limit. This bounds the memory a
    /// message takes once parsed, which the byte limit alone does not: rmcp's values take 12 to
    /// 25 times the bytes of a message of small elements.
    ///
    /// ```
    /// let transport = mcp_tool_runtime::transport::stdio().max_elements(10_000);
    /// # drop(transport);
    /// ```
    pub fn max_elements(mut self, limit: usize) -> Self {
        self.max_elements = limit;
        self
    }

    /// How many messages may wait for the client to read them ([`DEFAULT_MAX_QUEUED_MESSAGES`]
    /// unless set, at least 1): at that many, the transport stops reading requests until the
    /// client reads, so a client that sends without reading gets its answers no faster than it
    /// reads them, and the server queues no more than this many.
    ///
    /// ```
    /// let transport = mcp_tool_runtime::transport::stdio().max_queued_messages(16);
    /// # drop(transport);
    /// ```
    pub fn max_queued_messages(mut self, limit: usize) -> Self {
        self.max_queued_messages = limit.max(1);
        self
    }
}

/// One message waiting to be written, counted until written or abandoned.
struct Queued(Arc<tokio::sync::watch::Sender<usize>>);

impl Queued {
    fn new(queued: &Arc<tokio::sync::watch::Sender<usize>>) -> Self {
        queued.send_modify(|n| *n += 1);
        Queued(queued.clone())
    }
}

impl Drop for Queued {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// What one read step found.
enum Read {
    /// A whole line is in `line`.
    Line,
    /// A line over the limit ended; `line` holds its beginning.
    Overflowed,
    /// The peer closed the stream.
    Eof,
}

impl<R: AsyncRead + Unpin, W> LineTransport<R, W> {
    /// Reads up to the end of a line. Cancel-safe: each step consumes what it appended, and the
    /// partial line stays in `self.line` for the next call.
    async fn read_line(&mut self) -> io::Result<Read> {
        loop {
            let available = self.reader.fill_buf().await?;
            if available.is_empty() {
                return Ok(Read::Eof);
            }
            let (chunk, ended) = match available.iter().position(|b| *b == b'\n') {
                Some(at) => (&available[..=at], true),
                None => (available, false),
            };
            if !self.overflowed && self.line.len() + chunk.len() > self.max_message_bytes {
                self.overflowed = true;
            }
            if self.overflowed {
                // Only the beginning is kept, to look for the request's id.
                self.line.truncate(ID_SEARCH_BYTES);
                let room = ID_SEARCH_BYTES - self.line.len();
                self.line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            } else {
                self.line.extend_from_slice(chunk);
            }
            let consumed = chunk.len();
            self.reader.consume(consumed);
            if ended {
                return Ok(if std::mem::take(&mut self.overflowed) {
                    Read::Overflowed
                } else {
                    Read::Line
                });
            }
        }
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = io::Error;

    fn name() -> Cow<'static, str> {
        "LineTransport".into()
    }

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let writer = self.writer.clone();
        let queued = Queued::new(&self.queued);
        async move {
            let written = write_message(&writer, &item).await;
            drop(queued);
            written
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            // Backpressure: while the client leaves this many messages unread, read nothing.
            let max = self.max_queued_messages;
            let _ = self.queued.subscribe().wait_for(|n| *n < max).await;
            let read = match self.read_line().await {
                Ok(Read::Eof) | Err(_) => return None,
                Ok(read) => read,
            };
            let line = std::mem::take(&mut self.line);
            let text = trim(&line);
            let reply = match read {
                Read::Overflowed => Some(TxJsonRpcMessage::<RoleServer>::error(
                    ErrorData::invalid_request(
                        format!(
                            "the message is larger than this server's limit of {} bytes",
                            self.max_message_bytes
                        ),
                        None,
                    ),
                    find_id(text),
                )),
                _ if text.is_empty() => None,
                _ => match read_message(text, self.max_elements) {
                    Ok(message) => {
                        self.line = reuse(line);
                        return Some(message);
                    }
                    Err(reply) => reply.map(|reply| *reply),
                },
            };
            self.line = reuse(line);
            if let Some(reply) = reply
                && write_message(&self.writer, &reply).await.is_err()
            {
                return None;
            }
        }
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.writer.lock().await.shutdown().await
    }
}

/// The buffer back, emptied, keeping its capacity.
fn reuse(mut line: Vec<u8>) -> Vec<u8> {
    line.clear();
    line
}

async fn write_message<W: AsyncWrite + Unpin>(
    writer: &Mutex<W>,
    message: &TxJsonRpcMessage<RoleServer>,
) -> io::Result<()> {
    let mut bytes = serde_json::to_vec(message).map_err(io::Error::other)?;
    bytes.push(b'\n');
    let mut writer = writer.lock().await;
    writer.write_all(&bytes).await?;
    writer.flush().await
}

/// A line without its `\n`, `\r` and a leading byte-order mark.
fn trim(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
}
