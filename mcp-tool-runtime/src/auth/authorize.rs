//! [`Authorize`]: a [`ResourceServer`] as a tower layer in front of the MCP endpoint. Each
//! request is authenticated from its headers alone (a refused request costs no body read), the
//! verified [`Caller`] goes into its extensions, and the per-tool scope check is left for
//! [`HttpGuard`](crate::transport::HttpGuard), which runs it once it has read which tool a
//! `tools/call` names.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::Request;

use super::Caller;
use super::resource_server::ResourceServer;
use crate::transport::http::body::HttpResponse;
use crate::transport::http::gate::{Gate, ToolGate};

/// The service [`ResourceServer::layer`] puts in front of `S` (usually an
/// [`HttpGuard`](crate::transport::HttpGuard)): only requests whose bearer token the resource
/// server accepts reach it, each with its [`Caller`].
#[derive(Clone)]
pub struct Authorize<S> {
    inner: S,
    server: ResourceServer,
    /// The per-tool scope check, made once, for the guard behind.
    gate: Gate,
}

impl<S> std::fmt::Debug for Authorize<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authorize")
            .field("server", &self.server)
            .finish_non_exhaustive()
    }
}

impl ResourceServer {
    /// `inner` behind this resource server: the service every authorized request reaches.
    ///
    /// ```no_run
    /// # use std::sync::Arc;
    /// use mcp_tool_runtime::auth::{JwtVerifier, ProtectedResourceMetadata, ResourceServer};
    /// use mcp_tool_runtime::transport::http::HttpGuard;
    /// use mcp_tool_runtime::{Toolbox, ToolboxServer};
    /// use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    /// use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
    ///
    /// # fn serve(toolbox: Toolbox) -> Result<(), Box<dyn std::error::Error>> {
    /// let server = ToolboxServer::new(toolbox)?;
    /// let resource = "https://mcp.example.com/mcp";
    /// let issuer = "https://auth.example.com";
    /// let metadata = ProtectedResourceMetadata::new(resource, issuer);
    /// let auth = ResourceServer::new(JwtVerifier::new(issuer, resource), metadata)
    ///     .tool_scopes(server.clone());
    /// let rmcp_service = StreamableHttpService::new(
    ///     move || Ok(server.clone()),
    ///     Arc::new(LocalSessionManager::default()),
    ///     StreamableHttpServerConfig::default(),
    /// );
    /// let service = auth.layer(HttpGuard::rmcp(rmcp_service));
    /// // axum: Router::new().nest_service("/mcp", service)
    /// # drop(service);
    /// # Ok(())
    /// # }
    /// ```
    pub fn layer<S>(&self, inner: S) -> Authorize<S> {
        Authorize {
            inner,
            server: self.clone(),
            gate: Gate(Arc::new(self.clone())),
        }
    }
}

impl<S> tower_layer::Layer<S> for ResourceServer {
    type Service = Authorize<S>;

    fn layer(&self, inner: S) -> Authorize<S> {
        ResourceServer::layer(self, inner)
    }
}

impl ToolGate for ResourceServer {
    fn refuse(&self, parts: &http::request::Parts, tool: &str) -> Option<HttpResponse> {
        let caller = parts.extensions.get::<Arc<Caller>>()?;
        self.authorize_call(caller, tool)
            .err()
            .map(|refusal| *refusal)
    }
}

impl<S, B> tower_service::Service<Request<B>> for Authorize<S>
where
    S: tower_service::Service<Request<B>, Response = HttpResponse, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send,
    B: Send + 'static,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        // The clone that was made ready answers this call; a fresh clone waits for the next.
        let ready = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, ready);
        let server = self.server.clone();
        let gate = self.gate.clone();
        Box::pin(async move {
            match server.authenticate(request.headers()).await {
                Ok(caller) => {
                    request.extensions_mut().insert(caller);
                    request.extensions_mut().insert(gate);
                    inner.call(request).await
                }
                Err(refusal) => Ok(*refusal),
            }
        })
    }
}
