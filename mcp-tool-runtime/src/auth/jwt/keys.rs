//! The issuer's keys for [`JwtVerifier`]: found through its metadata, fetched at most one attempt
//! at a time and no more often than allowed (with backoff while attempts fail), shared by every
//! request waiting for them, cached, and served stale while fetches fail, up to a limit.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey};
use serde_json::{Map, Value};

use super::{JwtVerifier, MAX_FETCH_BACKOFF};
use crate::auth::TokenError;

/// The largest metadata or key-set document read from the issuer: 1 MiB.
const MAX_DOCUMENT_BYTES: usize = 1 << 20;

/// The client fetching the issuer's documents: no redirects, `timeout` per fetch. If it cannot
/// be built, why; never a client without those settings.
pub(super) fn http_client(timeout: Duration) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| format!("the HTTP client fetching the issuer's keys cannot be built: {e}"))
}

/// The key fetches: at most one at a time, shared by every request waiting for keys, run on a
/// task of its own so that no waiting client's disconnect cancels it.
#[derive(Default)]
pub(super) struct Attempts {
    last: Option<Instant>,
    failures: u32,
    running: Option<Fetch>,
}

/// A fetch every waiter awaits the same outcome of.
pub(super) type Fetch =
    futures_util::future::Shared<BoxFuture<'static, Result<Arc<Keys>, TokenError>>>;

/// The issuer's keys, when they were fetched.
pub(super) struct Keys {
    by_kid: HashMap<String, Vec<(Algorithm, DecodingKey)>>,
    without_kid: Vec<(Option<Algorithm>, DecodingKey)>,
    fetched: Instant,
}

impl JwtVerifier {
    /// The keys to check a token with. Fresh keys are used as they are. Otherwise (none, past
    /// [`keys_max_age`](Self::keys_max_age), or `refresh`: a token names a key they lack) the
    /// request waits for a fetch: the one running, or one begun now if the last attempt is old
    /// enough (the wait between attempts doubling while they fail). Whenever no fetch can be had
    /// or it fails, the last keys fetched are used up to the stale limit past their age; with
    /// none, the token cannot be checked (503).
    pub(super) async fn keys(&self, refresh: bool) -> Result<Arc<Keys>, TokenError> {
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

/// The keys a token with `kid` and `alg` may be signed with.
pub(super) fn candidates(keys: &Keys, kid: Option<&str>, alg: Algorithm) -> Vec<DecodingKey> {
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
