//! Serving a toolbox over stdio or Streamable HTTP, the way the README shows.

use std::net::SocketAddr;
use std::sync::Arc;

use mcp_tool_runtime::auth::{JwtVerifier, ProtectedResourceMetadata, ResourceServer};
use mcp_tool_runtime::server::Merged;
use mcp_tool_runtime::transport::http::{self, BoundedSessions, HttpGuard, ServeOptions};
use mcp_tool_runtime::{Toolbox, ToolboxServer, transport};
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServerHandler, ServiceExt};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The largest request the examples read, over stdio and HTTP: 4 MiB. A larger one is answered
/// with a JSON-RPC error naming the limit.
pub const MAX_MESSAGE_BYTES: usize = 4 << 20;

/// Serves `toolbox` over stdio until the client closes it, answering every request (even one
/// that cannot be read) through this crate's `LineTransport`.
pub async fn stdio(toolbox: Toolbox) -> Result<(), BoxError> {
    stdio_handler(ToolboxServer::new(toolbox)?).await
}

/// Serves any rmcp handler over stdio, like [`stdio`].
pub async fn stdio_handler(handler: impl ServerHandler) -> Result<(), BoxError> {
    let transport = transport::stdio().max_message_bytes(MAX_MESSAGE_BYTES);
    handler.serve(transport).await?.waiting().await?;
    Ok(())
}

/// Serves `toolbox` over Streamable HTTP at `http://ADDR/mcp` until Ctrl-C or SIGTERM (then
/// gracefully: calls in flight get 30 s to finish), with deadlines on request heads (10 s) and
/// bodies (the guard's 30 s), and at most 1,000 sessions.
///
/// Prints `listening on http://ADDR/mcp` once the socket is bound.
pub async fn http(toolbox: Toolbox, addr: SocketAddr) -> Result<(), BoxError> {
    http_server(ToolboxServer::new(toolbox)?, addr).await
}

/// Serves `server` over Streamable HTTP like [`http()`].
pub async fn http_server(server: ToolboxServer, addr: SocketAddr) -> Result<(), BoxError> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    serve_on(listener, server.clone(), Some(&server), None).await
}

/// Serves `toolbox` over Streamable HTTP like [`http()`], as an OAuth 2.1 resource server whose
/// tokens `issuer` issues: its metadata at `/.well-known/oauth-protected-resource/mcp`, every
/// request refused without a valid token for `http://ADDR/mcp` granting `mcp:tools`, and a
/// tool's own scopes asked for with 403 (step-up).
pub async fn http_authorized(
    toolbox: Toolbox,
    addr: SocketAddr,
    issuer: String,
) -> Result<(), BoxError> {
    let server = ToolboxServer::new(toolbox)?;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let resource = format!("http://{}/mcp", listener.local_addr()?);
    let metadata = ProtectedResourceMetadata::new(&resource, &issuer)
        .scopes_supported(["mcp:tools", "invoices:write"])
        .resource_name("Invoices");
    let auth = ResourceServer::new(JwtVerifier::new(issuer, resource), metadata)
        .required_scopes(["mcp:tools"])
        .tool_scopes(server.clone());
    let tasks = server.clone();
    serve_on(listener, server, Some(&tasks), Some(auth)).await
}

/// Serves any rmcp handler over Streamable HTTP, like [`http()`]: one clone per session.
pub async fn http_handler(
    server: impl ServerHandler + Clone,
    addr: SocketAddr,
) -> Result<(), BoxError> {
    serve_on(
        tokio::net::TcpListener::bind(addr).await?,
        server,
        None,
        None,
    )
    .await
}

/// Serves tools merged with an rmcp handler over Streamable HTTP, like [`http()`]; on shutdown,
/// the tools' running tasks get what is left of the grace period to finish.
pub async fn http_merged<H: ServerHandler + Clone>(
    server: Merged<H>,
    addr: SocketAddr,
) -> Result<(), BoxError> {
    let tasks = server.tools().clone();
    let listener = tokio::net::TcpListener::bind(addr).await?;
    serve_on(listener, server, Some(&tasks), None).await
}

async fn serve_on(
    listener: tokio::net::TcpListener,
    server: impl ServerHandler + Clone,
    tasks: Option<&ToolboxServer>,
    auth: Option<ResourceServer>,
) -> Result<(), BoxError> {
    // At most 1,000 live sessions, each ended after rmcp's 5 idle minutes.
    let sessions = Arc::new(BoundedSessions::default());
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        sessions.clone(),
        // rmcp's own limit never below the guard's; a 2026-07-28 reply that is one message is
        // sent as JSON, not as a one-event stream.
        StreamableHttpServerConfig::default()
            .with_max_request_body_bytes(MAX_MESSAGE_BYTES * 2)
            .with_json_response(true),
    );
    let service = HttpGuard::rmcp(service)
        .max_body_bytes(MAX_MESSAGE_BYTES)
        .sessions(sessions);
    let router = match auth {
        Some(auth) => axum::Router::new()
            .route_service(&auth.metadata().well_known_path(), auth.metadata_service())
            .nest_service("/mcp", auth.layer(service)),
        None => axum::Router::new().nest_service("/mcp", service),
    };
    println!("listening on http://{}/mcp", listener.local_addr()?);
    // Until Ctrl-C or SIGTERM: then no new connection, calls in flight and running tasks get
    // 30 s to finish.
    let mut options = ServeOptions::default();
    if let Some(tasks) = tasks {
        options = options.drain_tasks(tasks);
    }
    let stopped = http::serve(listener, router, shutdown_signal(), options).await;
    if stopped.cut > 0 || stopped.tasks_left > 0 {
        eprintln!(
            "stopped; {} connections were closed and {} tasks left running at the deadline",
            stopped.cut, stopped.tasks_left
        );
    }
    Ok(())
}

/// Ctrl-C, or SIGTERM (what a container runtime sends).
async fn shutdown_signal() {
    let terminate = async {
        #[cfg(unix)]
        if let Ok(mut signal) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            signal.recv().await;
            return;
        }
        std::future::pending::<()>().await;
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
}

/// What the command line asked for.
pub enum Mode {
    /// Serve over stdio (the default).
    Stdio,
    /// `--http ADDR`.
    Http(SocketAddr),
    /// `--http ADDR --issuer URL`: HTTP as an OAuth resource server.
    HttpAuthorized(SocketAddr, String),
    /// `--demo`.
    Demo,
}

/// Reads `[--http ADDR | --demo]`.
pub fn mode_from_args() -> Result<Mode, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(Mode::Stdio),
        [flag] if flag == "--demo" => Ok(Mode::Demo),
        [flag, addr] if flag == "--http" => parse_addr(addr).map(Mode::Http),
        [flag, addr, issuer_flag, issuer] if flag == "--http" && issuer_flag == "--issuer" => {
            Ok(Mode::HttpAuthorized(parse_addr(addr)?, issuer.clone()))
        }
        _ => {
            Err("usage: [--http 127.0.0.1:PORT [--issuer https://AUTH-SERVER] | --demo]".to_owned())
        }
    }
}

fn parse_addr(addr: &str) -> Result<SocketAddr, String> {
    addr.parse()
        .map_err(|e| format!("`{addr}` is not an address like 127.0.0.1:8080: {e}"))
}
