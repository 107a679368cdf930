//! Serving a toolbox over stdio or Streamable HTTP, the way the README shows.

use std::net::SocketAddr;
use std::sync::Arc;

use mcp_tool_runtime::{Toolbox, ToolboxServer};
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Serves `toolbox` over stdio until the client closes it.
pub async fn stdio(toolbox: Toolbox) -> Result<(), BoxError> {
    let server = ToolboxServer::new(toolbox)?;
    server
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}

/// Serves `toolbox` over Streamable HTTP at `http://ADDR/mcp` until Ctrl-C.
///
/// Prints `listening on http://ADDR/mcp` once the socket is bound.
pub async fn http(toolbox: Toolbox, addr: SocketAddr) -> Result<(), BoxError> {
    let server = ToolboxServer::new(toolbox)?;
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    axum::serve(listener, router)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

/// What the command line asked for.
pub enum Mode {
    /// Serve over stdio (the default).
    Stdio,
    /// `--http ADDR`.
    Http(SocketAddr),
    /// `--demo`.
    Demo,
}

/// Reads `[--http ADDR | --demo]`.
pub fn mode_from_args() -> Result<Mode, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(Mode::Stdio),
        [flag] if flag == "--demo" => Ok(Mode::Demo),
        [flag, addr] if flag == "--http" => addr
            .parse()
            .map(Mode::Http)
            .map_err(|e| format!("`{addr}` is not an address like 127.0.0.1:8080: {e}")),
        _ => Err("usage: [--http 127.0.0.1:PORT | --demo]".to_owned()),
    }
}
