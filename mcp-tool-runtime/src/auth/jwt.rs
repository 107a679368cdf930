//! [`JwtVerifier`]: bearer tokens verified as JWTs against the keys the issuer publishes (its
//! JWKS), fetched and cached with rotation.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value};

use super::{Caller, TokenError, TokenVerifier};

/// The default clock skew allowed on `exp` and `nbf`: 60 seconds.
pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(60);
/// The default time the issuer's keys are used before they are fetched again: 10 minutes.
pub const DEFAULT_KEYS_MAX_AGE: Duration = Duration::from_secs(600);
/// The default shortest time between two fetches of the keys (a token naming an unknown key
/// fetches them again, at most this often): 30 seconds.
pub const DEFAULT_MIN_REFRESH: Duration = Duration::from_secs(30);
/// The default number of verified tokens remembered: 10,000.
pub const DEFAULT_TOKEN_CACHE: usize = 10_000;
/// The default time the last keys fetched are still used past their
/// [`keys_max_age`](JwtVerifier::keys_max_age) while every fetch fails: 1 hour.
pub const DEFAULT_KEYS_STALE_LIMIT: Duration = Duration::from_secs(3600);
/// The longest wait between two fetch attempts while they fail (the wait doubles from
/// [`min_refresh`](JwtVerifier::min_refresh) with each failure): 5 minutes.
pub const MAX_FETCH_BACKOFF: Duration = Duration::from_secs(300);
/// The largest metadata or key-set document read from the issuer: 1 MiB.
const MAX_DOCUMENT_BYTES: usize = 1 << 20;
/// The most keys a token's signature is tried against.
const MAX_CANDIDATE_KEYS: usize = 8;

/// Verifies bearer tokens that are JWTs signed by the issuer (RFC 9068 access tokens, and what
/// most authorization servers issue): the signature with the issuer's published keys (its
/// JWKS, found through its metadata unless given), `iss` (one string, this issuer), `aud` (this
/// server's resource), `sub` (required), `exp` and `nbf` with a clock skew allowed, and an `iat`
/// not in the future. Refused too: a `typ` that is not an access token's (see
/// [`require_access_token_type`](Self::require_access_token_type)), any `crit` header (RFC 7515:
/// this server understands no extension), and a token bound to a key (`cnf`), whose proof of
/// possession (DPoP, mutual TLS) a bearer-token server cannot check: presented as a bearer
/// token, it may have been stolen. The keys are cached; a token naming a key not in
/// the cache fetches them again (at most every [`min_refresh`](Self::min_refresh)), so the
/// issuer can rotate its keys. Only asymmetric algorithms are accepted (`RS*`, `PS*`, `ES*`,
/// `EdDSA`), never `none` or a shared secret.
///
/// A verified token is remembered (by its SHA-256 digest, until its `exp`, at most
/// [`token_cache`](Self::token_cache) of them), so a client sending the same token on every
/// request pays for one signature check: about 3.3 million instructions for ES256, against a
/// few thousand for a remembered one (BENCHMARKS.md).
///
/// The caller it returns has the token's `sub`, its `client_id` (or `azp`), its scopes (the
/// `scope` claim, separated by U+0020 spaces only as RFC 6749 says, or `scp`) and every claim.
///
/// ```no_run
/// use std::time::Duration;
/// use mcp_tool_runtime::auth::JwtVerifier;
///
/// let verifier = JwtVerifier::new("https://auth.example.com", "https://mcp.example.com/mcp")
///     .leeway(Duration::from_secs(30));
/// ```
#[derive(Clone)]
pub struct JwtVerifier {
    inner: Arc<Inner>,
}

struct Inner {
    issuer: String,
    audience: String,
    jwks_uri: Option<String>,
    leeway: Duration,
    max_age: Duration,
    min_refresh: Duration,
    algorithms: Vec<Algorithm>,
    /// The client fetching the issuer's documents: no redirects, a 10 s timeout. Could it not be
    /// built, every fetch fails with why (never a client without those settings).
    client: Result<reqwest::Client, String>,
    stale_limit: Duration,
    /// Whether a token must say `"typ": "at+jwt"` (RFC 9068's profile, word for word).
    strict_type: bool,
    keys: RwLock<Option<Arc<Keys>>>,
    /// The fetch attempts: when the last began, how many failed in a row, the one running.
    attempts: std::sync::Mutex<Attempts>,
    token_cache: usize,
    /// Verified tokens by digest, with the time their `exp` passes.
    verified: std::sync::Mutex<HashMap<[u8; 32], (Caller, std::time::SystemTime)>>,
}

/// The key fetches: at most one at a time, shared by every request waiting for keys, run on a
/// task of its own so that no waiting client's disconnect cancels it.
#[derive(Default)]
struct Attempts {
    last: Option<Instant>,
    failures: u32,
    running: Option<Fetch>,
}

/// A fetch every waiter awaits the same outcome of.
type Fetch = futures_util::future::Shared<BoxFuture<'static, Result<Arc<Keys>, TokenError>>>;

/// The issuer's keys, when they were fetched.
struct Keys {
    by_kid: HashMap<String, Vec<(Algorithm, DecodingKey)>>,
    without_kid: Vec<(Option<Algorithm>, DecodingKey)>,
    fetched: Instant,
}

impl std::fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("issuer", &self.inner.issuer)
            .field("audience", &self.inner.audience)
            .finish_non_exhaustive()
    }
}

impl JwtVerifier {
    /// Accepts tokens `issuer` issued for `audience` (this server's resource identifier, the
    /// `resource` of its [`ProtectedResourceMetadata`](super::ProtectedResourceMetadata)).
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| {
                format!("the HTTP client fetching the issuer's keys cannot be built: {e}")
            });
        JwtVerifier {
            inner: Arc::new(Inner {
                issuer: issuer.into(),
                audience: audience.into(),
                jwks_uri: None,
                leeway: DEFAULT_LEEWAY,
                max_age: DEFAULT_KEYS_MAX_AGE,
                min_refresh: DEFAULT_MIN_REFRESH,
                algorithms: vec![
                    Algorithm::RS256,
                    Algorithm::RS384,
                    Algorithm::RS512,
                    Algorithm::PS256,
                    Algorithm::PS384,
                    Algorithm::PS512,
                    Algorithm::ES256,
                    Algorithm::ES384,
                    Algorithm::EdDSA,
                ],
                client,
                stale_limit: DEFAULT_KEYS_STALE_LIMIT,
                strict_type: false,
                keys: RwLock::new(None),
                attempts: std::sync::Mutex::default(),
                token_cache: DEFAULT_TOKEN_CACHE,
                verified: std::sync::Mutex::default(),
            }),
        }
    }

    /// Takes only tokens that say `"typ": "at+jwt"`, as RFC 9068 §4 says a resource server
    /// must. Off by default: tokens without `typ`, and with the generic `JWT` that Keycloak and
    /// Entra ID write, are taken too (their `aud` must still be this server). Any other `typ` is
    /// refused either way.
    pub fn require_access_token_type(self) -> Self {
        self.with(|i| i.strict_type = true)
    }

    fn with(mut self, f: impl FnOnce(&mut Inner)) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            f(inner);
        }
        self
    }

    /// Fetches the keys from `uri` instead of the `jwks_uri` in the issuer's metadata.
    pub fn jwks_uri(self, uri: impl Into<String>) -> Self {
        let uri = uri.into();
        self.with(|i| i.jwks_uri = Some(uri))
    }

    /// The clock skew allowed on `exp` and `nbf` ([`DEFAULT_LEEWAY`] unless set).
    pub fn leeway(self, leeway: Duration) -> Self {
        self.with(|i| i.leeway = leeway)
    }

    /// How long fetched keys are used before they are fetched again
    /// ([`DEFAULT_KEYS_MAX_AGE`] unless set).
    pub fn keys_max_age(self, max_age: Duration) -> Self {
        self.with(|i| i.max_age = max_age)
    }

    /// The shortest time between two attempts to fetch the keys ([`DEFAULT_MIN_REFRESH`] unless
    /// set), failed or not, so tokens naming unknown keys cannot make the server hammer the
    /// issuer. While attempts fail, the wait doubles with each, up to [`MAX_FETCH_BACKOFF`].
    pub fn min_refresh(self, min_refresh: Duration) -> Self {
        self.with(|i| i.min_refresh = min_refresh)
    }

    /// How long one fetch of the issuer's metadata or keys may take (10 s unless set).
    pub fn fetch_timeout(self, timeout: Duration) -> Self {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| {
                format!("the HTTP client fetching the issuer's keys cannot be built: {e}")
            });
        self.with(|i| i.client = client)
    }

    /// How long past [`keys_max_age`](Self::keys_max_age) the last keys fetched are still used
    /// while every fetch fails ([`DEFAULT_KEYS_STALE_LIMIT`] unless set): an issuer that is down
    /// for a while does not take the server down with it. Past it, tokens are answered 503.
    pub fn keys_stale_limit(self, limit: Duration) -> Self {
        self.with(|i| i.stale_limit = limit)
    }

    /// How many verified tokens are remembered until they expire ([`DEFAULT_TOKEN_CACHE`]
    /// unless set; 0 checks every token's signature every time).
    pub fn token_cache(self, entries: usize) -> Self {
        self.with(|i| i.token_cache = entries)
    }

    /// The signature algorithms accepted (by default every asymmetric one). Symmetric
    /// algorithms (`HS*`) are ignored: a resource server never holds the issuer's secret.
    pub fn algorithms(self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        let algorithms: Vec<_> = algorithms
            .into_iter()
            .filter(|a| !matches!(a, Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512))
            .collect();
        self.with(|i| i.algorithms = algorithms)
    }

    async fn verify_token(&self, token: &str) -> Result<Caller, TokenError> {
        use sha2::Digest as _;

        let inner = &*self.inner;
        if inner.token_cache == 0 {
            return self.check_token(token).await;
        }
        let digest: [u8; 32] = sha2::Sha256::digest(token.as_bytes()).into();
        let now = std::time::SystemTime::now();
        if let Some((caller, expires)) = crate::sync::lock(&inner.verified).get(&digest)
            && now < *expires
        {
            return Ok(caller.clone());
        }
        let caller = self.check_token(token).await?;
        let expires = match caller.claim("exp").and_then(Value::as_u64) {
            None => None,
            // An `exp` the clock cannot hold (2^63 s and more) is no time: refused, not added.
            Some(exp) => Some(
                std::time::UNIX_EPOCH
                    .checked_add(Duration::from_secs(exp))
                    .ok_or_else(|| {
                        TokenError::Invalid(format!(
                            "its `exp` ({exp}) is past any time this server can represent"
                        ))
                    })?,
            ),
        };
        if let Some(expires) = expires {
            let mut verified = crate::sync::lock(&inner.verified);
            if verified.len() >= inner.token_cache {
                verified.retain(|_, (_, at)| now < *at);
                if verified.len() >= inner.token_cache {
                    verified.clear();
                }
            }
            verified.insert(digest, (caller.clone(), expires));
        }
        Ok(caller)
    }

    async fn check_token(&self, token: &str) -> Result<Caller, TokenError> {
        let inner = &*self.inner;
        let header = jsonwebtoken::decode_header(token).map_err(|e| error_of(&e))?;
        check_type(header.typ.as_deref(), inner.strict_type)?;
        if let Some(critical) = &header.crit {
            // RFC 7515 §4.1.11: a header parameter marked critical must be understood, and this
            // server understands no extension.
            return Err(TokenError::Invalid(format!(
                "it marks header parameters critical (`crit`: {critical:?}), which this server \
                 does not understand"
            )));
        }
        if !inner.algorithms.contains(&header.alg) {
            return Err(TokenError::Invalid(format!(
                "the algorithm {:?} is not accepted",
                header.alg
            )));
        }
        let mut keys = self.keys(false).await?;
        let mut keys_to_try = candidates(&keys, header.kid.as_deref(), header.alg);
        if keys_to_try.is_empty() {
            // A key the cache does not know: the issuer may have rotated its keys.
            keys = self.keys(true).await?;
            keys_to_try = candidates(&keys, header.kid.as_deref(), header.alg);
        }
        if keys_to_try.is_empty() {
            return Err(TokenError::BadSignature);
        }
        let mut validation = Validation::new(header.alg);
        validation.set_issuer(&[&inner.issuer]);
        validation.set_audience(&[&inner.audience]);
        validation.leeway = inner.leeway.as_secs();
        validation.validate_nbf = true;
        // RFC 9068 §2.2: `sub` is required, and it names who the token is for.
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let mut last = TokenError::BadSignature;
        for key in keys_to_try.iter().take(MAX_CANDIDATE_KEYS) {
            match jsonwebtoken::decode::<Map<String, Value>>(token, key, &validation) {
                Ok(data) => {
                    check_claims(&data.claims, inner.leeway)?;
                    return Ok(caller_of(data.claims));
                }
                Err(e) if matches!(e.kind(), ErrorKind::InvalidSignature) => {}
                Err(e) => last = error_of(&e),
            }
        }
        Err(last)
    }

    /// The keys to check a token with. Fresh keys are used as they are. Otherwise (none, past
    /// [`keys_max_age`](Self::keys_max_age), or `refresh`: a token names a key they lack) the
    /// request waits for a fetch: the one running, or one begun now if the last attempt is old
    /// enough (the wait between attempts doubling while they fail). Whenever no fetch can be had
    /// or it fails, the last keys fetched are used up to the stale limit past their age; with
    /// none, the token cannot be checked (503).
    async fn keys(&self, refresh: bool) -> Result<Arc<Keys>, TokenError> {
        let inner = &*self.inner;
        let current = crate::sync::read(&inner.keys).clone();
        let age = current.as_ref().map(|k| k.fetched.elapsed());
        if age.is_some_and(|age| age < inner.max_age) && !refresh {
            return Ok(current.expect("fresh keys are keys"));
        }
        let usable =
            current.filter(|_| age.is_some_and(|age| age < inner.max_age + inner.stale_limit));
        let unavailable = || {
            TokenError::Unavailable(
                "no keys of the issuer are at hand, and the last fetch failed too recently to try \
                 again"
                    .into(),
            )
        };
        match self.fetch_if_due() {
            Some(fetch) => match fetch.await {
                Ok(keys) => Ok(keys),
                Err(error) => usable.ok_or(error),
            },
            None => usable.ok_or_else(unavailable),
        }
    }

    /// The fetch running, or one begun now if the last attempt is old enough; `None` if it is
    /// too soon to try again.
    fn fetch_if_due(&self) -> Option<Fetch> {
        use futures_util::FutureExt as _;

        let inner = &*self.inner;
        let mut attempts = crate::sync::lock(&inner.attempts);
        if let Some(running) = &attempts.running {
            return Some(running.clone());
        }
        let wait = inner
            .min_refresh
            .saturating_mul(1 << attempts.failures.min(16))
            .min(MAX_FETCH_BACKOFF.max(inner.min_refresh));
        if attempts.last.is_some_and(|last| last.elapsed() < wait) {
            return None;
        }
        attempts.last = Some(Instant::now());
        let verifier = self.clone();
        // On a task of its own: a client that hangs up does not cancel the fetch it waited for.
        let task = tokio::spawn(async move {
            let outcome = verifier.fetch_keys().await.map(Arc::new);
            let inner = &*verifier.inner;
            if let Ok(keys) = &outcome {
                *crate::sync::write(&inner.keys) = Some(keys.clone());
            }
            let mut attempts = crate::sync::lock(&inner.attempts);
            attempts.running = None;
            match &outcome {
                Ok(_) => attempts.failures = 0,
                Err(error) => {
                    attempts.failures = attempts.failures.saturating_add(1);
                    tracing::warn!(
                        issuer = %inner.issuer,
                        failures = attempts.failures,
                        "the issuer's keys could not be fetched: {error}"
                    );
                }
            }
            outcome
        });
        let fetch: Fetch = async move {
            task.await.unwrap_or_else(|e| {
                Err(TokenError::Unavailable(format!(
                    "the key fetch stopped: {e}"
                )))
            })
        }
        .boxed()
        .shared();
        attempts.running = Some(fetch.clone());
        Some(fetch)
    }

    async fn fetch_keys(&self) -> Result<Keys, TokenError> {
        let inner = &*self.inner;
        let uri = match &inner.jwks_uri {
            Some(uri) => uri.clone(),
            None => self.discover_jwks_uri().await?,
        };
        let set: JwkSet = fetch_json(&inner.client, &uri).await?;
        let mut keys = Keys {
            by_kid: HashMap::new(),
            without_kid: Vec::new(),
            fetched: Instant::now(),
        };
        for jwk in &set.keys {
            let Ok(key) = DecodingKey::from_jwk(jwk) else {
                continue;
            };
            let alg = jwk
                .common
                .key_algorithm
                .and_then(|a| a.to_string().parse::<Algorithm>().ok());
            match (&jwk.common.key_id, alg) {
                (Some(kid), Some(alg)) => {
                    keys.by_kid.entry(kid.clone()).or_default().push((alg, key))
                }
                (Some(kid), None) => {
                    // No `alg`: usable with any algorithm of its key type.
                    for alg in &inner.algorithms {
                        keys.by_kid
                            .entry(kid.clone())
                            .or_default()
                            .push((*alg, key.clone()));
                    }
                }
                (None, alg) => keys.without_kid.push((alg, key)),
            }
        }
        Ok(keys)
    }

    /// The issuer's `jwks_uri`, from its metadata: RFC 8414's well-known document, then
    /// OpenID Connect's.
    async fn discover_jwks_uri(&self) -> Result<String, TokenError> {
        let issuer = self.inner.issuer.trim_end_matches('/');
        let (origin, path) = match issuer.find("://").map(|i| i + 3) {
            Some(start) => match issuer[start..].find('/') {
                Some(slash) => issuer.split_at(start + slash),
                None => (issuer, ""),
            },
            None => (issuer, ""),
        };
        let candidates = [
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{issuer}/.well-known/openid-configuration"),
        ];
        let mut last = None;
        for url in candidates {
            match fetch_json::<Map<String, Value>>(&self.inner.client, &url).await {
                Ok(metadata) => {
                    if metadata
                        .get("issuer")
                        .and_then(Value::as_str)
                        .map(|i| i.trim_end_matches('/'))
                        != Some(issuer)
                    {
                        last = Some(TokenError::Unavailable(format!(
                            "the metadata at {url} is not the issuer's"
                        )));
                        continue;
                    }
                    if let Some(uri) = metadata.get("jwks_uri").and_then(Value::as_str) {
                        return Ok(uri.to_owned());
                    }
                    last = Some(TokenError::Unavailable(format!(
                        "{url} names no `jwks_uri`"
                    )));
                }
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| TokenError::Unavailable("no issuer metadata".into())))
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(&'a self, token: &'a str) -> BoxFuture<'a, Result<Caller, TokenError>> {
        Box::pin(self.verify_token(token))
    }
}

/// Refuses a token whose `typ` says it is not an access token. RFC 9068 §4 says `at+jwt` (or
/// `application/at+jwt`); `JWT`, the generic type that Keycloak's and Entra ID's access tokens
/// carry, is accepted unless `strict` (then only `at+jwt`, and a token must say it). Any other
/// type (`dpop+jwt`, `logout+jwt`, `secevent+jwt`, ...) is a different kind of token.
fn check_type(typ: Option<&str>, strict: bool) -> Result<(), TokenError> {
    let access = |t: &str| {
        let t = t.to_ascii_lowercase();
        t == "at+jwt" || t == "application/at+jwt"
    };
    match typ {
        Some(t) if access(t) => Ok(()),
        Some(t) if !strict && t.eq_ignore_ascii_case("jwt") => Ok(()),
        None if !strict => Ok(()),
        Some(t) => Err(TokenError::Invalid(format!(
            "its `typ` is `{t}`, not an access token's `at+jwt` (RFC 9068)"
        ))),
        None => Err(TokenError::Invalid(
            "it has no `typ`; this server takes only `at+jwt` access tokens (RFC 9068)".into(),
        )),
    }
}

/// Refuses what a verified signature does not make right (RFC 9068, RFC 7519): an `iss` that is
/// not one string, a `sub` that is not a non-empty one, an `iat` in the future (past the leeway), and a token bound to a key (`cnf`:
/// DPoP or mutual TLS), whose proof of possession a bearer-token server cannot check.
fn check_claims(claims: &Map<String, Value>, leeway: Duration) -> Result<(), TokenError> {
    if !claims.get("iss").is_some_and(Value::is_string) {
        return Err(TokenError::Invalid("its `iss` is not one string".into()));
    }
    if claims
        .get("sub")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        return Err(TokenError::Invalid(
            "its `sub` is not a non-empty string".into(),
        ));
    }
    if let Some(iat) = claims.get("iat") {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        match iat.as_f64() {
            Some(iat) if iat <= (now + leeway.as_secs()) as f64 => {}
            Some(_) => return Err(TokenError::Invalid("its `iat` is in the future".into())),
            None => return Err(TokenError::Invalid("its `iat` is not a number".into())),
        }
    }
    if claims.contains_key("cnf") {
        return Err(TokenError::Invalid(
            "it is bound to a key (`cnf`: DPoP or mutual TLS), whose proof this server, taking \
             bearer tokens only, cannot check"
                .into(),
        ));
    }
    Ok(())
}

/// The keys a token with `kid` and `alg` may be signed with.
fn candidates(keys: &Keys, kid: Option<&str>, alg: Algorithm) -> Vec<DecodingKey> {
    let with_kid = kid
        .and_then(|kid| keys.by_kid.get(kid))
        .into_iter()
        .flatten()
        .filter(|(a, _)| *a == alg)
        .map(|(_, k)| k.clone());
    let without_kid = keys
        .without_kid
        .iter()
        .filter(|(a, _)| a.is_none_or(|a| a == alg))
        .map(|(_, k)| k.clone());
    if kid.is_some() {
        with_kid.collect()
    } else {
        without_kid
            .chain(
                keys.by_kid
                    .values()
                    .flatten()
                    .filter(|(a, _)| *a == alg)
                    .map(|(_, k)| k.clone()),
            )
            .collect()
    }
}

/// Whether `url` may be fetched: HTTPS, as MCP says authorization-server endpoints must use, or
/// plain HTTP to a loopback host (tests, and a server beside its issuer).
fn secure_enough(url: &str) -> bool {
    let Ok(url) = reqwest::Url::parse(url) else {
        return false;
    };
    match url.scheme() {
        "https" => true,
        "http" => url.host_str().is_some_and(|host| {
            let bare = host.trim_start_matches('[').trim_end_matches(']');
            match bare.parse::<std::net::IpAddr>() {
                Ok(ip) => ip.is_loopback(),
                Err(_) => bare.eq_ignore_ascii_case("localhost"),
            }
        }),
        _ => false,
    }
}

/// GETs `url` as JSON, reading at most [`MAX_DOCUMENT_BYTES`].
async fn fetch_json<T: serde::de::DeserializeOwned>(
    client: &Result<reqwest::Client, String>,
    url: &str,
) -> Result<T, TokenError> {
    let unavailable = |e: &dyn std::fmt::Display| TokenError::Unavailable(format!("{url}: {e}"));
    if !secure_enough(url) {
        return Err(unavailable(
            &"not fetched: the issuer's endpoints must use https (plain http only on loopback)",
        ));
    }
    let client = client.as_ref().map_err(|e| unavailable(e))?;
    let mut response = client
        .get(url)
        .header(reqwest::header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|e| unavailable(&e))?;
    if !response.status().is_success() {
        return Err(unavailable(&response.status()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| unavailable(&e))? {
        if body.len() + chunk.len() > MAX_DOCUMENT_BYTES {
            return Err(unavailable(&"the document is larger than 1 MiB"));
        }
        body.extend_from_slice(&chunk);
    }
    serde_json::from_slice(&body).map_err(|e| unavailable(&e))
}

/// The caller a verified token's claims describe.
fn caller_of(claims: Map<String, Value>) -> Caller {
    let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
    let scopes: Vec<String> = match claims.get("scope").or_else(|| claims.get("scp")) {
        // RFC 6749 §3.3: separated by the space character, and by nothing else (a no-break
        // space or a tab is part of a scope).
        Some(Value::String(scopes)) => scopes
            .split(' ')
            .filter(|scope| !scope.is_empty())
            .map(str::to_owned)
            .collect(),
        Some(Value::Array(scopes)) => scopes
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    let mut caller = match text("sub") {
        Some(subject) => Caller::new(subject),
        None => Caller::anonymous(),
    };
    if let Some(client) = text("client_id").or_else(|| text("azp")) {
        caller = caller.client_id(client);
    }
    caller.scopes(scopes).claims(claims)
}

/// What a `jsonwebtoken` error means for the client.
fn error_of(error: &jsonwebtoken::errors::Error) -> TokenError {
    match error.kind() {
        ErrorKind::ExpiredSignature => TokenError::Expired,
        ErrorKind::ImmatureSignature => TokenError::NotYetValid,
        ErrorKind::InvalidAudience => TokenError::WrongAudience,
        ErrorKind::InvalidIssuer => TokenError::WrongIssuer,
        ErrorKind::InvalidSignature => TokenError::BadSignature,
        ErrorKind::InvalidToken
        | ErrorKind::Base64(_)
        | ErrorKind::Json(_)
        | ErrorKind::Utf8(_)
        | ErrorKind::InvalidAlgorithmName
        | ErrorKind::MissingAlgorithm => TokenError::Malformed(error.to_string()),
        _ => TokenError::Invalid(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::secure_enough;

    #[test]
    fn the_issuers_endpoints_are_https_or_loopback() {
        for url in [
            "https://auth.example.com/jwks",
            "http://127.0.0.1:8080/jwks",
            "http://[::1]/k",
            "http://localhost/k",
        ] {
            assert!(secure_enough(url), "{url}");
        }
        for url in [
            "http://auth.example.com/jwks",
            "http://10.0.0.1/jwks",
            "ftp://127.0.0.1/k",
            "not a url",
        ] {
            assert!(!secure_enough(url), "{url}");
        }
    }
}
