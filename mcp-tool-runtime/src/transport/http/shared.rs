//! [`SharedRmcp`]: rmcp's Streamable HTTP service behind one `Arc`, so the requests
//! [`HttpGuard`](super::HttpGuard) hands it share it instead of cloning it.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::Request;
use http_body_util::Full;
use rmcp::ServerHandler;
use rmcp::transport::StreamableHttpService;
use rmcp::transport::streamable_http_server::SessionManager;

use super::body::HttpResponse;

/// rmcp's `StreamableHttpService`, shared by every request: what
/// [`HttpGuard::rmcp`](super::HttpGuard::rmcp) puts behind the guard.
///
/// A tower service is cloned for each request it answers, and rmcp's clones its settings (its
/// allowed hosts among them) both then and again inside its own `call`. This one clones an
/// `Arc` and answers through rmcp's `handle(&self)`: one HTTP call measured about 3,500
/// instructions less (`cargo run --release -p benches --bin http`, BENCHMARKS.md).
pub struct SharedRmcp<S, M> {
    service: Arc<StreamableHttpService<S, M>>,
}

impl<S, M> SharedRmcp<S, M> {
    /// `service`, to be shared.
    pub fn new(service: StreamableHttpService<S, M>) -> Self {
        SharedRmcp {
            service: Arc::new(service),
        }
    }
}

impl<S, M> Clone for SharedRmcp<S, M> {
    fn clone(&self) -> Self {
        SharedRmcp {
            service: Arc::clone(&self.service),
        }
    }
}

impl<S, M> fmt::Debug for SharedRmcp<S, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SharedRmcp").finish_non_exhaustive()
    }
}

impl<S, M> From<StreamableHttpService<S, M>> for SharedRmcp<S, M> {
    fn from(service: StreamableHttpService<S, M>) -> Self {
        SharedRmcp::new(service)
    }
}

impl<S, M> tower_service::Service<Request<Full<Bytes>>> for SharedRmcp<S, M>
where
    S: ServerHandler + Send + 'static,
    M: SessionManager,
{
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        // rmcp's service is always ready.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Full<Bytes>>) -> Self::Future {
        let service = Arc::clone(&self.service);
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}
