//! [`ResourceServer`]: the OAuth 2.1 resource server in front of the MCP endpoint (as a tower
//! layer, see `authorize`): bearer tokens verified before any body is read, the spec's 401 and 403
//! challenges, and the Protected Resource Metadata document.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Method, Request, Response, StatusCode, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};

use super::{Caller, ProtectedResourceMetadata, TokenError, TokenVerifier};

/// The default longest `Authorization` header accepted: 16 KiB. A longer one is refused before
/// it is decoded.
pub const DEFAULT_MAX_TOKEN_BYTES: usize = 16 << 10;

type HttpResponse = Response<BoxBody<Bytes, Infallible>>;

/// Where each tool's required scopes are looked up, by tool name: a
/// [`ToolboxServer`](crate::ToolboxServer) (its tools as they are when a call arrives), or a
/// function for a handler that serves tools of its own as well.
///
/// ```
/// use mcp_tool_runtime::auth::ToolScopes;
///
/// let scopes = |tool: &str| (tool == "void_invoice").then(|| vec!["invoices:write"]);
/// assert_eq!(scopes.scopes("void_invoice"), Some(vec!["invoices:write"]));
/// assert_eq!(scopes.scopes("nothing"), None);
/// ```
pub trait ToolScopes: Send + Sync + 'static {
    /// The scopes a caller needs to call `tool` (empty when it needs none), or `None` when
    /// there is no such tool.
    fn scopes(&self, tool: &str) -> Option<Vec<&'static str>>;
}

impl<F> ToolScopes for F
where
    F: Fn(&str) -> Option<Vec<&'static str>> + Send + Sync + 'static,
{
    fn scopes(&self, tool: &str) -> Option<Vec<&'static str>> {
        self(tool)
    }
}

/// An OAuth 2.1 resource server, as MCP's authorization spec asks of an HTTP server: put in
/// front of the MCP endpoint as a tower layer ([`layer`](Self::layer)), every request must
/// carry a bearer token the [`TokenVerifier`] accepts, and a `tools/call` one granting the
/// tool's scopes; see the [module docs](super) for what is answered and when. Cheap to clone.
#[derive(Clone)]
pub struct ResourceServer {
    inner: Arc<Inner>,
}

struct Inner {
    verifier: Arc<dyn TokenVerifier>,
    metadata: ProtectedResourceMetadata,
    metadata_url: String,
    required_scopes: Vec<String>,
    scopes_of: Option<Arc<dyn ToolScopes>>,
    max_token_bytes: usize,
    refused: AtomicU64,
}

impl std::fmt::Debug for ResourceServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceServer")
            .field("metadata", &self.inner.metadata)
            .field("required_scopes", &self.inner.required_scopes)
            .finish_non_exhaustive()
    }
}

impl ResourceServer {
    /// A resource server described by `metadata`, accepting the tokens `verifier` accepts.
    pub fn new(verifier: impl TokenVerifier, metadata: ProtectedResourceMetadata) -> Self {
        let metadata_url = metadata.url();
        ResourceServer {
            inner: Arc::new(Inner {
                verifier: Arc::new(verifier),
                metadata,
                metadata_url,
                required_scopes: Vec::new(),
                scopes_of: None,
                max_token_bytes: DEFAULT_MAX_TOKEN_BYTES,
                refused: AtomicU64::new(0),
            }),
        }
    }

    fn with(mut self, f: impl FnOnce(&mut Inner)) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            f(inner);
        }
        self
    }

    /// Scopes every request needs (none unless set), named in the 401 challenge so a client
    /// asks for them first.
    pub fn required_scopes<I, S>(self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let scopes = scopes.into_iter().map(Into::into).collect();
        self.with(|i| i.required_scopes = scopes)
    }

    /// Refuses a `tools/call` whose token lacks the tool's scopes (`scopes(...)` on
    /// `#[mcp_tool]`) with 403 `insufficient_scope`, before rmcp reads it, looking the tool up
    /// in `scopes`: a [`ToolboxServer`](crate::ToolboxServer) (a clone of it), or a function.
    pub fn tool_scopes(self, scopes: impl ToolScopes) -> Self {
        let scopes_of: Arc<dyn ToolScopes> = Arc::new(scopes);
        self.with(|i| i.scopes_of = Some(scopes_of))
    }

    /// The longest `Authorization` header accepted ([`DEFAULT_MAX_TOKEN_BYTES`] unless set).
    pub fn max_token_bytes(self, limit: usize) -> Self {
        self.with(|i| i.max_token_bytes = limit)
    }

    /// The metadata document this server publishes.
    pub fn metadata(&self) -> &ProtectedResourceMetadata {
        &self.inner.metadata
    }

    /// How many requests were refused (401, 403 or 503).
    pub fn refused(&self) -> u64 {
        self.inner.refused.load(Ordering::Relaxed)
    }

    /// A tower service answering `GET` with the metadata document, to mount at
    /// [`ProtectedResourceMetadata::well_known_path`].
    pub fn metadata_service(&self) -> MetadataService {
        MetadataService {
            document: Bytes::from(serde_json::to_vec(&self.inner.metadata).unwrap_or_default()),
        }
    }

    /// The caller the request's bearer token stands for, or the response refusing it. Only
    /// the headers are read.
    pub(crate) async fn authenticate(
        &self,
        headers: &HeaderMap,
    ) -> Result<Arc<Caller>, Box<HttpResponse>> {
        let mut values = headers.get_all(header::AUTHORIZATION).iter();
        let (Some(value), None) = (values.next(), values.next()) else {
            return Err(Box::new(self.refuse(StatusCode::UNAUTHORIZED, None, None)));
        };
        if value.len() > self.inner.max_token_bytes {
            let error = TokenError::TooLarge(self.inner.max_token_bytes);
            return Err(Box::new(self.invalid_token(&error)));
        }
        let token = value
            .to_str()
            .ok()
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim());
        let Some(token) = token.filter(|t| !t.is_empty()) else {
            // Not a bearer credential: as if there were none (RFC 6750 §3.1).
            return Err(Box::new(self.refuse(StatusCode::UNAUTHORIZED, None, None)));
        };
        let caller = match self.inner.verifier.verify(token).await {
            Ok(caller) => caller,
            Err(TokenError::Unavailable(reason)) => {
                self.inner.refused.fetch_add(1, Ordering::Relaxed);
                // The client is told nothing of the issuer (its address, its error): the log is.
                tracing::warn!("a token could not be checked: {reason}");
                return Err(Box::new(plain(
                    StatusCode::SERVICE_UNAVAILABLE,
                    UNAVAILABLE.to_owned(),
                )));
            }
            Err(error) => return Err(Box::new(self.invalid_token(&error))),
        };
        let required: Vec<&str> = self
            .inner
            .required_scopes
            .iter()
            .map(String::as_str)
            .collect();
        if !caller.missing_scopes(&required).is_empty() {
            return Err(Box::new(self.insufficient_scope(&required, None)));
        }
        Ok(Arc::new(caller))
    }

    /// The response refusing a `tools/call` of `tool` by `caller`, if its token lacks the
    /// tool's scopes.
    pub(crate) fn authorize_call(
        &self,
        caller: &Caller,
        tool: &str,
    ) -> Result<(), Box<HttpResponse>> {
        let Some(scopes_of) = &self.inner.scopes_of else {
            return Ok(());
        };
        let Some(scopes) = scopes_of.scopes(tool) else {
            return Ok(());
        };
        if caller.missing_scopes(&scopes).is_empty() {
            return Ok(());
        }
        // The scopes the request needs: the server's and the tool's (SEP-835).
        let mut needed: Vec<&str> = self
            .inner
            .required_scopes
            .iter()
            .map(String::as_str)
            .collect();
        for scope in scopes {
            if !needed.contains(&scope) {
                needed.push(scope);
            }
        }
        Err(Box::new(self.insufficient_scope(&needed, Some(tool))))
    }

    fn invalid_token(&self, error: &TokenError) -> HttpResponse {
        self.refuse(
            StatusCode::UNAUTHORIZED,
            Some(("invalid_token", error.to_string())),
            None,
        )
    }

    fn insufficient_scope(&self, scopes: &[&str], tool: Option<&str>) -> HttpResponse {
        let description = match tool {
            Some(tool) => format!("tool `{tool}` needs the scopes `{}`", scopes.join(" ")),
            None => format!("this server needs the scopes `{}`", scopes.join(" ")),
        };
        self.refuse(
            StatusCode::FORBIDDEN,
            Some(("insufficient_scope", description)),
            Some(&scopes.join(" ")),
        )
    }

    /// A 401 or 403 with MCP's `WWW-Authenticate: Bearer` challenge: the metadata's URL, the
    /// error and its description if any, and the scopes to ask for.
    fn refuse(
        &self,
        status: StatusCode,
        error: Option<(&str, String)>,
        scope: Option<&str>,
    ) -> HttpResponse {
        self.inner.refused.fetch_add(1, Ordering::Relaxed);
        let mut challenge = format!("Bearer resource_metadata=\"{}\"", self.inner.metadata_url);
        let base_scopes = self.inner.required_scopes.join(" ");
        let scope = scope.or((!base_scopes.is_empty()).then_some(base_scopes.as_str()));
        if let Some(scope) = scope {
            challenge.push_str(&format!(", scope=\"{}\"", quoted(scope)));
        }
        let message = match &error {
            Some((code, description)) => {
                challenge.push_str(&format!(
                    ", error=\"{code}\", error_description=\"{}\"",
                    quoted(description)
                ));
                description.clone()
            }
            None => "this server needs a bearer token".to_owned(),
        };
        let mut response = plain(status, message);
        if let Ok(value) = HeaderValue::from_str(&challenge) {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

/// `text` fit for a quoted-string: printable ASCII, without `"` and `\`.
fn quoted(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' | '\\' => '\'',
            c if (' '..='~').contains(&c) => c,
            _ => '?',
        })
        .collect()
}

/// What a client is told when its token could not be checked (the issuer's keys could not be
/// had): the same words whatever the cause, which goes to the log.
const UNAVAILABLE: &str = "the token could not be checked now: the authorization server's keys are unavailable; try again later";

fn plain(status: StatusCode, message: String) -> HttpResponse {
    let body = serde_json::json!({ "error": message });
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body.to_string())).boxed())
        .expect("a valid response")
}

/// The tower service answering `GET` with a [`ResourceServer`]'s metadata document; see
/// [`ResourceServer::metadata_service`].
#[derive(Debug, Clone)]
pub struct MetadataService {
    document: Bytes,
}

impl<B: Send + 'static> tower_service::Service<Request<B>> for MetadataService {
    type Response = HttpResponse;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let response = if request.method() == Method::GET || request.method() == Method::HEAD {
            Response::builder()
                .header(header::CONTENT_TYPE, "application/json")
                .header(header::ACCESS_CONTROL_ALLOW_ORIGIN, "*")
                .body(Full::new(self.document.clone()).boxed())
                .expect("a valid response")
        } else {
            Response::builder()
                .status(StatusCode::METHOD_NOT_ALLOWED)
                .header(header::ALLOW, "GET, HEAD")
                .body(Full::new(Bytes::new()).boxed())
                .expect("a valid response")
        };
        Box::pin(std::future::ready(Ok(response)))
    }
}
