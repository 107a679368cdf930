//! [`serve`]: HTTP connections served until a shutdown signal, the way a deployed service stops
//! (feature `http`): stop accepting, let the requests in flight finish within a grace period,
//! close what is left, and return.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use ipnet::IpNet;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;

use super::connections::ConnectionCounts;
use super::deadlines::Deadlines;
use super::peers::{self, Peer, Peers, WithPeer};
use super::proxied;

/// How long a connection may take to send a request's line and headers, by default: 10 s.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long requests in flight may run on after the shutdown signal, by default: 30 s.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(30);

/// How many connections [`serve`] serves at once, by default: 10,000.
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;

/// How many connections one peer may have open at once, by default: 1,024, a tenth of
/// [`DEFAULT_MAX_CONNECTIONS`]: room for a reverse proxy's pool, while it takes ten clients at
/// least to fill every place.
pub const DEFAULT_MAX_CONNECTIONS_PER_PEER: usize = 1_024;

/// Connections past their peer's share that may be waiting for their answer at once; past
/// it, one more is closed as soon as it is accepted. Each waits at most the header deadline
/// for its request, so a peer that keeps opening connections holds a few descriptors at most.
const REFUSING_AT_ONCE: usize = 64;

/// The deadlines and bounds of [`serve`], the tasks it lets finish, and what it counts.
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
    /// Connections served at once ([`DEFAULT_MAX_CONNECTIONS`] unless set). At it, `serve`
    /// accepts no more until one closes; the next wait in the listener's backlog. Keep it
    /// within the process's descriptor limit (`ulimit -n`), less what the server opens itself.
    pub max_connections: usize,
    /// Connections one peer (an IPv4 address, or an IPv6 /64 network) may have open at once
    /// ([`DEFAULT_MAX_CONNECTIONS_PER_PEER`] unless set), so no one client takes every place.
    /// One more is answered on its first request with a JSON-RPC error (`-32029`, naming
    /// `max_connections_per_peer`, with the request's id; HTTP 503 when it has none) and
    /// `Retry-After: 1`, and closed. Behind a proxy or a load balancer every connection comes
    /// from its address: have it send the PROXY protocol and trust it
    /// ([`proxies`](Self::proxies)), so that each client it passes on is a peer; else raise this
    /// to `max_connections` and bound clients at the proxy.
    pub max_connections_per_peer: usize,
    /// The addresses (or networks) of proxies in front of this server that start each
    /// connection with a PROXY protocol header, v1 or v2 (HAProxy's `send-proxy` or
    /// `send-proxy-v2`, a cloud network load balancer's proxy protocol); none unless set. A connection from one of them
    /// must begin with the header (at most 1 KiB, TLVs included), within
    /// [`header_read_timeout`](Self::header_read_timeout), or is closed; the client it names
    /// is then the connection's peer, for
    /// [`max_connections_per_peer`](Self::max_connections_per_peer) and for the guard's share
    /// of body bytes (the proxy itself, for its own connections: `LOCAL`, `UNKNOWN`). A
    /// connection from any other address is served as it comes, its address the peer.
    pub proxies: Vec<IpNet>,
    /// What `serve` counts of its connections (see [`connections`](Self::connections)).
    counts: ConnectionCounts,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            grace: DEFAULT_GRACE,
            tasks: Vec::new(),
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_connections_per_peer: DEFAULT_MAX_CONNECTIONS_PER_PEER,
            proxies: Vec::new(),
            counts: ConnectionCounts::default(),
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

    /// Sets [`max_connections`](Self::max_connections) (at least 1).
    pub fn max_connections(mut self, limit: usize) -> Self {
        self.max_connections = limit.max(1);
        self
    }

    /// Sets [`max_connections_per_peer`](Self::max_connections_per_peer) (at least 1).
    pub fn max_connections_per_peer(mut self, limit: usize) -> Self {
        self.max_connections_per_peer = limit.max(1);
        self
    }

    /// Trusts `proxies` (addresses, or networks such as a load balancer's subnet) to start
    /// their connections with a PROXY protocol header naming the client (see
    /// [`proxies`](Self::proxies)).
    ///
    /// ```
    /// use std::net::IpAddr;
    /// use mcp_tool_runtime::transport::http::{IpNet, ServeOptions};
    ///
    /// let haproxy: IpAddr = "10.0.0.5".parse().unwrap();
    /// let balancers: IpNet = "10.1.0.0/24".parse().unwrap();
    /// let options = ServeOptions::default().proxies([IpNet::from(haproxy), balancers]);
    /// assert_eq!(options.proxies.len(), 2);
    /// ```
    pub fn proxies(mut self, proxies: impl IntoIterator<Item = impl Into<IpNet>>) -> Self {
        self.proxies = proxies.into_iter().map(Into::into).collect();
        self
    }

    /// The counts of the connections that `serve`, given these options (or a clone of them),
    /// has open and has refused; take them before the options go to `serve`.
    pub fn connections(&self) -> ConnectionCounts {
        self.counts.clone()
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
/// reply waits on the client's delayed ACK (see the [serving guide](crate::guide::serving)); it
/// counts against [`ServeOptions::max_connections`] and its peer's
/// [`ServeOptions::max_connections_per_peer`], and its requests carry the peer to the
/// [`HttpGuard`](super::HttpGuard)'s share of body bytes.
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
    // The connections' header deadlines, ended by one task that goes when `serve` returns.
    let tick = (options.header_read_timeout / 20)
        .clamp(Duration::from_millis(1), Duration::from_millis(500));
    let (deadlines, ticks) = Deadlines::new(tick);
    let mut ticking = JoinSet::new();
    ticking.spawn(ticks);
    let mut shutdown = std::pin::pin!(shutdown);
    let places = Arc::new(Semaphore::new(options.max_connections.max(1)));
    let mut admission = Admission {
        service,
        deadlines,
        graceful: &graceful,
        connections: JoinSet::new(),
        refusals: JoinSet::new(),
        refusing: Arc::new(Semaphore::new(REFUSING_AT_ONCE)),
        peers: Peers::default(),
        options: &options,
    };
    // Connections from a trusted proxy, reading their PROXY header; each sends its stream, its
    // client and its place back here once read.
    let mut proxied = JoinSet::new();
    let (read, mut headers_read) = tokio::sync::mpsc::unbounded_channel();
    // The place the next connection takes: at `max_connections`, none, and the next
    // connection waits in the backlog until one closes.
    let mut place = None;
    loop {
        let accepted = tokio::select! {
            taken = places.clone().acquire_owned(), if place.is_none() => {
                place = Some(taken.expect("never closed"));
                continue;
            }
            accepted = listener.accept(), if place.is_some() => accepted,
            Some((stream, peer, held)) = headers_read.recv() => {
                admission.admit(stream, peer, held);
                continue;
            }
            () = &mut shutdown => break,
        };
        // A failed accept (out of descriptors, a reset handshake) ends one connection, not the
        // server.
        let Ok((mut stream, addr)) = accepted else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let place = place.take().expect("accepted only with a place");
        // rmcp writes a server-sent-events reply in several small writes; with Nagle's
        // algorithm on, the last of them waits for the client's delayed ACK (about 40 ms on
        // Linux) on every call of a keep-alive connection. A socket that refuses the option
        // still serves, only slower.
        let _ = stream.set_nodelay(true);
        if !proxied::trusts(&options.proxies, addr.ip()) {
            admission.admit(stream, Peer::of(addr), place);
        } else {
            // The client is whom the proxy's header names (the proxy itself for its own
            // connections); a connection without one is closed.
            let (read, within) = (read.clone(), options.header_read_timeout);
            let counts = options.counts.clone();
            proxied.spawn(async move {
                match proxied::read_header(&mut stream, within).await {
                    Ok(client) => {
                        let _ = read.send((stream, Peer::of(client.unwrap_or(addr)), place));
                    }
                    Err(_) => counts.unproxied_one(),
                }
            });
        }
        // Finished tasks are reaped as they go, so the sets do not grow.
        while proxied.try_join_next().is_some() {}
        admission.reap();
    }
    let Admission {
        mut connections,
        refusals,
        ..
    } = admission;
    // Headers still awaited are not waited for.
    drop(proxied);
    drop(listener);
    // Refusals still waiting for their request are not waited for.
    drop(refusals);
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

/// What [`serve`] does with a connection once it knows its peer: serves it, counted in its
/// peer's share, or refuses it past the share.
struct Admission<'a, S> {
    service: S,
    deadlines: Deadlines,
    graceful: &'a GracefulShutdown,
    /// The connections served.
    connections: JoinSet<()>,
    /// The connections refused, waiting for their request to answer it; not waited for at the
    /// shutdown.
    refusals: JoinSet<()>,
    /// Places for refusals waiting at once ([`REFUSING_AT_ONCE`]).
    refusing: Arc<Semaphore>,
    peers: Peers,
    options: &'a ServeOptions,
}

impl<S, B> Admission<'_, S>
where
    S: tower_service::Service<Request<Incoming>, Response = Response<B>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    /// Serves `stream` from `peer` in `place`, or refuses it past the peer's share.
    fn admit(&mut self, stream: TcpStream, peer: Peer, place: OwnedSemaphorePermit) {
        let options = self.options;
        let share = options.max_connections_per_peer.max(1);
        let mut http1 = hyper::server::conn::http1::Builder::new();
        http1
            .timer(self.deadlines.clone())
            .header_read_timeout(options.header_read_timeout);
        match self.peers.admit(peer, share) {
            Some(counted) => {
                let open = options.counts.opened();
                let service = WithPeer {
                    inner: self.service.clone(),
                    peer,
                };
                let connection =
                    http1.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
                let watched = self.graceful.watch(connection);
                self.connections.spawn(async move {
                    let _ = watched.await;
                    drop((counted, place, open));
                });
            }
            // Past the peer's share: its first request is answered with the refusal, within
            // the header deadline, and the connection closed; it holds no place of the
            // server's. Too many such at once, and it is closed unanswered.
            None => {
                drop(place);
                options.counts.refuse();
                let Ok(refusal) = self.refusing.clone().try_acquire_owned() else {
                    return;
                };
                let within = options.header_read_timeout;
                let refuse = hyper::service::service_fn(move |request| async move {
                    Ok::<_, Infallible>(peers::refuse(request, share, within).await)
                });
                let connection = http1
                    .keep_alive(false)
                    .serve_connection(TokioIo::new(stream), refuse);
                self.refusals.spawn(async move {
                    let _ = tokio::time::timeout(within * 2, connection).await;
                    drop(refusal);
                });
            }
        }
    }

    /// Forgets the connections and refusals that have finished.
    fn reap(&mut self) {
        while self.connections.try_join_next().is_some() {}
        while self.refusals.try_join_next().is_some() {}
    }
}
