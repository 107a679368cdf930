//! [`serve`]: HTTP connections served until a shutdown signal, the way a deployed service stops
//! (feature `http`): stop accepting, let the requests in flight finish within a grace period,
//! close what is left, and return.

use std::convert::Infallible;
use std::future::Future;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::task::JoinSet;

use super::deadlines::Deadlines;

/// How long a connection may take to send a request's line and headers, by default: 10 s.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long requests in flight may run on after the shutdown signal, by default: 30 s.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(30);

/// The deadlines of [`serve`], and the tasks it lets finish.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ServeOptions {
    /// A connection that has not sent a whole request head within this is closed
    /// ([`DEFAULT_HEADER_READ_TIMEOUT`] unless set), at most a twentieth of it (and at most
    /// half a second) late: these deadlines are kept by one coarse clock, not armed in tokio's
    /// timer for every request (which woke a parked thread on every keep-alive call). Bodies are
    /// [`HttpGuard::body_timeout`](super::HttpGuard::body_timeout)'s to time.
    pub header_read_timeout: Duration,
    /// After the shutdown signal, how long requests in flight may take to finish
    /// ([`DEFAULT_GRACE`] unless set); then their connections are closed.
    pub grace: Duration,
    /// Servers whose running tasks may finish within the grace period too, after the requests
    /// in flight.
    pub tasks: Vec<crate::ToolboxServer>,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            grace: DEFAULT_GRACE,
            tasks: Vec::new(),
        }
    }
}

impl ServeOptions {
    /// Sets [`grace`](Self::grace).
    pub fn grace(mut self, grace: Duration) -> Self {
        self.grace = grace;
        self
    }

    /// Lets `server`'s running tasks finish within the grace period too, once the requests in
    /// flight have: a task that ends then is written to the task store as it ended; one still
    /// running at the deadline is counted in [`Stopped::tasks_left`] and, this process gone,
    /// answered `failed` by the replicas left once its lease lapses.
    pub fn drain_tasks(mut self, server: &crate::ToolboxServer) -> Self {
        self.tasks.push(server.clone());
        self
    }

    /// Sets [`header_read_timeout`](Self::header_read_timeout).
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.header_read_timeout = timeout;
        self
    }
}

/// How a [`serve`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stopped {
    /// Connections open when the signal came (each then finished its request in flight, or
    /// closed at once if idle).
    pub open_at_signal: usize,
    /// Connections still busy when the grace period ended, and closed then (a listen stream, a
    /// call that ran too long).
    pub cut: usize,
    /// Tasks of [`ServeOptions::drain_tasks`]'s servers still running when the grace period
    /// ended.
    pub tasks_left: usize,
}

/// Serves `service` (for instance an axum `Router` holding an
/// [`HttpGuard`](super::HttpGuard)) on `listener` over HTTP/1.1 until `shutdown` completes;
/// then stops accepting connections, lets the requests in flight finish within
/// [`ServeOptions::grace`], closes the connections left, lets the tasks of
/// [`ServeOptions::drain_tasks`]'s servers finish within what is left of the grace period, and
/// returns. Every connection has a deadline on its request heads, and `TCP_NODELAY` set, so no
/// reply waits on the client's delayed ACK (see the [serving guide](crate::guide::serving)).
///
/// ```no_run
/// # async fn run(router: axum::Router, ctrl_c: impl std::future::Future<Output = ()>) -> std::io::Result<()> {
/// use mcp_tool_runtime::transport::http::{serve, ServeOptions};
///
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
/// // For instance `async { let _ = tokio::signal::ctrl_c().await; }`.
/// let shutdown = ctrl_c;
/// let stopped = serve(listener, router, shutdown, ServeOptions::default()).await;
/// eprintln!("stopped; {} connections closed at the deadline", stopped.cut);
/// # Ok(())
/// # }
/// ```
pub async fn serve<S, B>(
    listener: TcpListener,
    service: S,
    shutdown: impl Future<Output = ()>,
    options: ServeOptions,
) -> Stopped
where
    S: tower_service::Service<Request<Incoming>, Response = Response<B>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let graceful = GracefulShutdown::new();
    let mut connections = JoinSet::new();
    // The connections' header deadlines, ended by one task that goes when `serve` returns.
    let tick = (options.header_read_timeout / 20)
        .clamp(Duration::from_millis(1), Duration::from_millis(500));
    let (deadlines, ticks) = Deadlines::new(tick);
    let mut ticking = JoinSet::new();
    ticking.spawn(ticks);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        // A failed accept (out of descriptors, a reset handshake) ends one connection, not the
        // server.
        let Ok((stream, _)) = accepted else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        // rmcp writes a server-sent-events reply in several small writes; with Nagle's
        // algorithm on, the last of them waits for the client's delayed ACK (about 40 ms on
        // Linux) on every call of a keep-alive connection. A socket that refuses the option
        // still serves, only slower.
        let _ = stream.set_nodelay(true);
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(deadlines.clone())
            .header_read_timeout(options.header_read_timeout)
            .serve_connection(
                TokioIo::new(stream),
                TowerToHyperService::new(service.clone()),
            );
        let watched = graceful.watch(connection);
        connections.spawn(async move {
            let _ = watched.await;
        });
        // Finished connections are reaped as they go, so the set does not grow.
        while connections.try_join_next().is_some() {}
    }
    drop(listener);
    let deadline = tokio::time::Instant::now() + options.grace;
    let open_at_signal = graceful.count();
    let cut = match tokio::time::timeout(options.grace, graceful.shutdown()).await {
        Ok(()) => 0,
        Err(_) => {
            let left = connections.len();
            connections.abort_all();
            left
        }
    };
    while connections.join_next().await.is_some() {}
    let mut tasks_left = 0;
    for server in &options.tasks {
        let remaining = deadline.saturating_duration_since(tokio::time::Instant::now());
        tasks_left += server.wait_for_tasks(remaining).await;
    }
    Stopped {
        open_at_signal,
        cut,
        tasks_left,
    }
}
