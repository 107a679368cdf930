//! [`JwtVerifier`]: bearer tokens verified as JWTs against the keys the issuer publishes (its
//! JWKS); how the keys are fetched, shared and cached is `jwt/keys.rs`.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use futures_util::future::BoxFuture;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use serde_json::{Map, Value};

use super::{Caller, TokenError, TokenVerifier};

mod keys;

use keys::{Attempts, Keys, candidates};

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
        let client = keys::http_client(Duration::from_secs(10));
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
        let client = keys::http_client(timeout);
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
