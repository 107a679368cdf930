//! An issuer publishing its keys on loopback, tokens it signs, and a server protected by it.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::response::IntoResponse as _;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_tool_runtime::auth::{
    Caller, JwtVerifier, ProtectedResourceMetadata, ResourceServer, TokenError, TokenVerifier,
};
use mcp_tool_runtime::{BoxFuture, ToolContext, Toolbox, ToolboxServer, mcp_tool};
use serde_json::{Value, json};
use tests::http::{HttpReply, HttpServer, Settings};
use tests::wire::meta_2026;

/// The issuer's signing key (a P-256 key made for these tests).
pub(crate) const ISSUER_KEY: &[u8] = include_bytes!("keys/issuer.pem");
/// The key the issuer rotates to.
pub(crate) const ROTATED_KEY: &[u8] = include_bytes!("keys/rotated.pem");
/// A key the issuer never published.
pub(crate) const OTHER_KEY: &[u8] = include_bytes!("keys/other.pem");

/// The scope every request needs.
pub(crate) const BASE_SCOPE: &str = "mcp:tools";

/// An authorization server's key publication on loopback: its RFC 8414 metadata and its JWKS,
/// which a test can change (key rotation), counting fetches.
pub(crate) struct Issuer {
    pub(crate) url: String,
    keys: Arc<Mutex<JwkSet>>,
    pub(crate) fetches: Arc<AtomicUsize>,
    /// How many times its metadata was fetched.
    pub(crate) metadata_fetches: Arc<AtomicUsize>,
    /// How its key endpoint answers: [`HEALTHY`], [`FAILING`] (500) or after `delay_ms`.
    mode: Arc<AtomicUsize>,
    delay_ms: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

/// The key endpoint answers at once.
pub(crate) const HEALTHY: usize = 0;
/// The key endpoint answers 500.
pub(crate) const FAILING: usize = 1;
/// The key endpoint answers after the issuer's delay.
pub(crate) const SLOW: usize = 2;

impl Drop for Issuer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub(crate) fn jwk(pem: &[u8], kid: &str) -> Jwk {
    let mut jwk =
        Jwk::from_encoding_key(&EncodingKey::from_ec_pem(pem).unwrap(), Algorithm::ES256).unwrap();
    jwk.common.key_id = Some(kid.to_owned());
    jwk
}

impl Issuer {
    /// Publishes the issuer's key as `k1`.
    pub(crate) async fn start() -> Issuer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let keys = Arc::new(Mutex::new(JwkSet {
            keys: vec![jwk(ISSUER_KEY, "k1")],
        }));
        let fetches = Arc::new(AtomicUsize::new(0));
        let metadata_fetches = Arc::new(AtomicUsize::new(0));
        let mode = Arc::new(AtomicUsize::new(HEALTHY));
        let delay_ms = Arc::new(AtomicUsize::new(0));
        let metadata = json!({"issuer": url, "jwks_uri": format!("{url}/jwks"),
                              "token_endpoint": format!("{url}/token")});
        let router = axum::Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                axum::routing::get({
                    let counted = metadata_fetches.clone();
                    move || async move {
                        counted.fetch_add(1, Ordering::SeqCst);
                        axum::Json(metadata)
                    }
                }),
            )
            .route(
                "/jwks",
                axum::routing::get({
                    let (keys, fetches) = (keys.clone(), fetches.clone());
                    let (mode, delay_ms) = (mode.clone(), delay_ms.clone());
                    move || async move {
                        fetches.fetch_add(1, Ordering::SeqCst);
                        match mode.load(Ordering::SeqCst) {
                            FAILING => {
                                return axum::http::StatusCode::INTERNAL_SERVER_ERROR
                                    .into_response();
                            }
                            SLOW => {
                                let delay = delay_ms.load(Ordering::SeqCst) as u64;
                                tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
                            }
                            _ => {}
                        }
                        let set = keys.lock().unwrap().clone();
                        axum::Json(serde_json::to_value(set).unwrap()).into_response()
                    }
                }),
            );
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Issuer {
            url,
            keys,
            fetches,
            metadata_fetches,
            mode,
            delay_ms,
            task,
        }
    }

    /// Makes its key endpoint answer as `mode` says (after `delay` if [`SLOW`]).
    pub(crate) fn answer(&self, mode: usize, delay: std::time::Duration) {
        self.delay_ms
            .store(delay.as_millis() as usize, Ordering::SeqCst);
        self.mode.store(mode, Ordering::SeqCst);
    }

    /// Publishes these keys instead.
    pub(crate) fn publish(&self, keys: Vec<Jwk>) {
        self.keys.lock().unwrap().keys = keys;
    }
}

pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The claims of a good token for `resource` from `issuer`, granting `scope`.
pub(crate) fn claims(issuer: &str, resource: &str, scope: &str) -> Value {
    json!({
        "iss": issuer, "aud": resource, "sub": "alice", "client_id": "billing-agent",
        "scope": scope, "iat": now(), "exp": now() + 300,
    })
}

/// `claims` signed with `pem` as key `kid`.
pub(crate) fn sign(claims: &Value, pem: &[u8], kid: &str) -> String {
    sign_with_header(claims, pem, kid, |_| {})
}

/// `claims` signed with `pem` as key `kid`, under a header `change` changed.
pub(crate) fn sign_with_header(
    claims: &Value,
    pem: &[u8],
    kid: &str,
    change: impl FnOnce(&mut Header),
) -> String {
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some(kid.to_owned());
    change(&mut header);
    jsonwebtoken::encode(&header, claims, &EncodingKey::from_ec_pem(pem).unwrap()).unwrap()
}

/// How many times a tool body ran.
#[derive(Default)]
pub(crate) struct Reached(AtomicUsize);

/// The caller as a tool sees it.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Who {
    subject: Option<String>,
    client: Option<String>,
    scopes: Vec<String>,
}

/// Who is calling, as the tool sees it.
#[mcp_tool]
async fn whoami(ctx: &ToolContext, #[state] reached: &Reached) -> Who {
    reached.0.fetch_add(1, Ordering::SeqCst);
    let caller = ctx.caller();
    Who {
        subject: caller.and_then(Caller::subject).map(str::to_owned),
        client: caller.and_then(Caller::client).map(str::to_owned),
        scopes: caller
            .map(|c| c.granted_scopes().to_vec())
            .unwrap_or_default(),
    }
}

/// Voids an invoice.
#[mcp_tool(scopes("invoices:write"))]
fn void_invoice(#[state] reached: &Reached, number: String) -> String {
    reached.0.fetch_add(1, Ordering::SeqCst);
    format!("voided {number}")
}

/// Counts the tokens it was asked to verify, then lets the JWT verifier decide.
pub(crate) struct Counting {
    pub(crate) inner: JwtVerifier,
    pub(crate) count: Arc<AtomicUsize>,
}

impl TokenVerifier for Counting {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Caller, TokenError>> {
        self.count.fetch_add(1, Ordering::SeqCst);
        self.inner.verify(token)
    }
}

/// A server protected by `issuer`, and what the tests look at.
pub(crate) struct Protected {
    pub(crate) http: HttpServer,
    pub(crate) issuer: Issuer,
    pub(crate) resource: String,
    pub(crate) reached: Arc<Toolbox>,
    pub(crate) server: ToolboxServer,
    pub(crate) verified: Arc<AtomicUsize>,
}

impl Protected {
    pub(crate) async fn start() -> Protected {
        Protected::start_with(|server| server, |verifier| verifier).await
    }

    /// With the server and the verifier changed by the test.
    pub(crate) async fn start_with(
        server: impl FnOnce(ToolboxServer) -> ToolboxServer,
        verifier: impl FnOnce(JwtVerifier) -> JwtVerifier + Send + 'static,
    ) -> Protected {
        let issuer = Issuer::start().await;
        let mut toolbox = Toolbox::new();
        toolbox.insert_state(Reached::default());
        toolbox.register(whoami::tool()).unwrap();
        toolbox.register(void_invoice::tool()).unwrap();
        let served = server(ToolboxServer::new(toolbox).unwrap());
        let verified = Arc::new(AtomicUsize::new(0));
        let (issuer_url, scopes_from, count) =
            (issuer.url.clone(), served.clone(), verified.clone());
        let auth = move |addr: SocketAddr| {
            let resource = format!("http://{addr}/mcp");
            let jwt = verifier(JwtVerifier::new(issuer_url.clone(), resource.clone()));
            ResourceServer::new(
                Counting { inner: jwt, count },
                ProtectedResourceMetadata::new(resource, issuer_url)
                    .scopes_supported([BASE_SCOPE, "invoices:write"]),
            )
            .required_scopes([BASE_SCOPE])
            .tool_scopes(scopes_from.clone())
        };
        let http = HttpServer::start_with(
            served.clone(),
            Settings {
                auth: Some(Box::new(auth)),
                ..Settings::default()
            },
        )
        .await;
        let resource = format!("http://{}/mcp", http.addr);
        Protected {
            reached: served.toolbox(),
            http,
            issuer,
            resource,
            server: served,
            verified,
        }
    }

    /// How many times a tool body ran.
    pub(crate) fn tool_runs(&self) -> usize {
        self.reached
            .state::<Reached>()
            .unwrap()
            .0
            .load(Ordering::SeqCst)
    }

    /// A good token granting `scope`.
    pub(crate) fn token(&self, scope: &str) -> String {
        sign(
            &claims(&self.issuer.url, &self.resource, scope),
            ISSUER_KEY,
            "k1",
        )
    }

    /// Calls `tool` (protocol 2026-07-28) with `authorization` as the header, if any.
    pub(crate) async fn call(
        &self,
        authorization: Option<&str>,
        tool: &str,
        arguments: Value,
    ) -> HttpReply {
        self.call_with_meta(authorization, tool, arguments, json!({}))
            .await
    }

    /// Like [`call`](Self::call), with these entries added to the request's `_meta`.
    pub(crate) async fn call_with_meta(
        &self,
        authorization: Option<&str>,
        tool: &str,
        arguments: Value,
        meta: Value,
    ) -> HttpReply {
        let mut all = meta_2026(json!({}));
        for (key, value) in meta.as_object().unwrap() {
            all[key] = value.clone();
        }
        let message = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments, "_meta": all}});
        let headers: Vec<(&str, &str)> = authorization
            .map(|a| ("Authorization", a))
            .into_iter()
            .collect();
        self.http.post(&headers, &message).await
    }

    /// Lists the tools with a token granting `scope`.
    pub(crate) async fn list(&self, scope: &str) -> Vec<String> {
        let message = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list",
            "params": {"_meta": meta_2026(json!({}))}});
        let bearer = format!("Bearer {}", self.token(scope));
        let reply = self
            .http
            .post(&[("Authorization", &bearer)], &message)
            .await;
        reply.message["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{reply:?}"))
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    }
}

/// The `WWW-Authenticate` header of a reply.
pub(crate) fn challenge(reply: &HttpReply) -> String {
    reply
        .header("www-authenticate")
        .unwrap_or_else(|| panic!("no WWW-Authenticate: {reply:?}"))
        .to_owned()
}
