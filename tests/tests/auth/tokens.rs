//! The hostile-token table: each way a token can be wrong gets the spec's 401 with MCP's
//! `WWW-Authenticate` challenge, no tool runs, and the server keeps serving.

use std::sync::atomic::Ordering;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use super::fixtures::*;

/// Sends `authorization` and checks the refusal: 401, the challenge naming the metadata (and
/// `invalid_token` when a token was sent), no tool run; then a good token is still served.
async fn refused(
    authorization: impl FnOnce(&Protected) -> Option<String>,
    error: Option<&str>,
) -> Protected {
    let server = Protected::start().await;
    let header = authorization(&server);
    let reply = server.call(header.as_deref(), "whoami", json!({})).await;
    assert_eq!(reply.status, 401, "{reply:?}");
    let challenge = challenge(&reply);
    let metadata = format!(
        "resource_metadata=\"http://{}/.well-known/oauth-protected-resource/mcp\"",
        server.http.addr
    );
    assert!(challenge.starts_with("Bearer "), "{challenge}");
    assert!(challenge.contains(&metadata), "{challenge}");
    assert!(challenge.contains("scope=\"mcp:tools\""), "{challenge}");
    match error {
        Some(error) => {
            assert!(challenge.contains("error=\"invalid_token\""), "{challenge}");
            assert!(challenge.contains(error), "{challenge}");
        }
        None => assert!(!challenge.contains("error="), "{challenge}"),
    }
    assert_eq!(server.tool_runs(), 0, "a refused request reached a tool");
    let good = format!("Bearer {}", server.token(BASE_SCOPE));
    let served = server.call(Some(&good), "whoami", json!({})).await;
    assert_eq!(served.status, 200, "{served:?}");
    assert_eq!(
        served.message["result"]["structuredContent"]["subject"], "alice",
        "{served:?}"
    );
    server
}

/// `claims` changed by `change`, signed by the issuer.
fn with_claims(server: &Protected, change: impl FnOnce(&mut Value)) -> Option<String> {
    let mut claims = claims(&server.issuer.url, &server.resource, BASE_SCOPE);
    change(&mut claims);
    Some(format!("Bearer {}", sign(&claims, ISSUER_KEY, "k1")))
}

#[tokio::test]
async fn no_token() {
    refused(|_| None, None).await;
}

#[tokio::test]
async fn another_scheme() {
    refused(|_| Some("Basic YWxpY2U6c2VjcmV0".into()), None).await;
}

#[tokio::test]
async fn garbage() {
    refused(|_| Some("Bearer not-a-jwt".into()), Some("malformed")).await;
}

#[tokio::test]
async fn signed_by_another_key() {
    refused(
        |s| {
            let claims = claims(&s.issuer.url, &s.resource, BASE_SCOPE);
            Some(format!("Bearer {}", sign(&claims, OTHER_KEY, "k1")))
        },
        Some("signature"),
    )
    .await;
}

#[tokio::test]
async fn expired() {
    // Past `exp` by more than the 60 s of clock skew allowed.
    refused(
        |s| with_claims(s, |c| c["exp"] = json!(now() - 120)),
        Some("expired"),
    )
    .await;
}

#[tokio::test]
async fn an_exp_past_what_a_clock_can_hold() {
    // `exp` at 2^63 seconds or more overflowed the system clock and panicked the request.
    refused(
        |s| with_claims(s, |c| c["exp"] = json!(1_u64 << 63)),
        Some("`exp`"),
    )
    .await;
    refused(
        |s| with_claims(s, |c| c["exp"] = json!(u64::MAX)),
        Some("`exp`"),
    )
    .await;
}

#[tokio::test]
async fn not_yet_valid() {
    refused(
        |s| with_claims(s, |c| c["nbf"] = json!(now() + 600)),
        Some("not valid yet"),
    )
    .await;
}

#[tokio::test]
async fn issued_for_another_resource() {
    refused(
        |s| with_claims(s, |c| c["aud"] = json!("http://127.0.0.1:1/mcp")),
        Some("another resource"),
    )
    .await;
}

#[tokio::test]
async fn issued_by_another_issuer() {
    refused(
        |s| with_claims(s, |c| c["iss"] = json!("http://127.0.0.1:1")),
        Some("issuer"),
    )
    .await;
}

#[tokio::test]
async fn without_an_expiry() {
    refused(
        |s| with_claims(s, |c| drop(c.as_object_mut().unwrap().remove("exp"))),
        Some("not accepted"),
    )
    .await;
}

#[tokio::test]
async fn alg_none() {
    // The issuer's claims, unsigned: `{"alg":"none"}` and an empty signature.
    refused(
        |s| {
            let claims = claims(&s.issuer.url, &s.resource, BASE_SCOPE);
            let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#);
            let body = URL_SAFE_NO_PAD.encode(claims.to_string());
            Some(format!("Bearer {header}.{body}."))
        },
        Some("malformed"),
    )
    .await;
}

#[tokio::test]
async fn a_shared_secret_algorithm() {
    // HS256 "signed" with the issuer's public key as the secret: the classic confusion.
    refused(
        |s| {
            let claims = claims(&s.issuer.url, &s.resource, BASE_SCOPE);
            let secret = serde_json::to_vec(&jwk(ISSUER_KEY, "k1")).unwrap();
            let token = jsonwebtoken::encode(
                &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
                &claims,
                &jsonwebtoken::EncodingKey::from_secret(&secret),
            )
            .unwrap();
            Some(format!("Bearer {token}"))
        },
        Some("not accepted"),
    )
    .await;
}

#[tokio::test]
async fn a_huge_token_is_refused_before_it_is_read() {
    let server = refused(
        |_| Some(format!("Bearer {}", "A".repeat(64 << 10))),
        Some("longer than this server's limit of 16384 bytes"),
    )
    .await;
    // Only the good token that followed reached the verifier.
    assert_eq!(server.verified.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn the_metadata_document_is_served_at_its_well_known_path() {
    let server = Protected::start().await;
    let reply = server
        .http
        .get("/.well-known/oauth-protected-resource/mcp")
        .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.message,
        json!({
            "resource": server.resource,
            "authorization_servers": [server.issuer.url],
            "scopes_supported": ["mcp:tools", "invoices:write"],
            "bearer_methods_supported": ["header"],
        })
    );
}

/// The issuer's good claims under a header `change` changed.
fn with_header(
    server: &Protected,
    change: impl FnOnce(&mut jsonwebtoken::Header),
) -> Option<String> {
    let claims = claims(&server.issuer.url, &server.resource, BASE_SCOPE);
    Some(format!(
        "Bearer {}",
        sign_with_header(&claims, ISSUER_KEY, "k1", change)
    ))
}

#[tokio::test]
async fn a_type_that_is_not_an_access_token() {
    // RFC 9068 §4: an access token says `at+jwt`; a DPoP proof or a logout token is no access
    // token, whatever it is signed with.
    for typ in ["dpop+jwt", "logout+jwt", "secevent+jwt"] {
        refused(
            |s| with_header(s, |h| h.typ = Some(typ.to_owned())),
            Some("`typ`"),
        )
        .await;
    }
}

#[tokio::test]
async fn an_access_token_type_is_served_and_strictness_is_a_setting() {
    let server = Protected::start().await;
    for typ in [
        Some("at+jwt"),
        Some("application/at+jwt"),
        Some("JWT"),
        None,
    ] {
        let token = with_header(&server, |h| h.typ = typ.map(str::to_owned)).unwrap();
        let reply = server.call(Some(&token), "whoami", json!({})).await;
        assert_eq!(reply.status, 200, "{typ:?}: {reply:?}");
    }
    let strict = Protected::start_with(|s| s, |v| v.require_access_token_type()).await;
    for (typ, status) in [(Some("at+jwt"), 200), (Some("JWT"), 401), (None, 401)] {
        let token = with_header(&strict, |h| h.typ = typ.map(str::to_owned)).unwrap();
        let reply = strict.call(Some(&token), "whoami", json!({})).await;
        assert_eq!(
            reply.status, status,
            "{typ:?} with the strict type: {reply:?}"
        );
    }
}

#[tokio::test]
async fn a_critical_header_this_server_does_not_understand() {
    refused(
        |s| with_header(s, |h| h.crit = Some(vec!["exp".to_owned()])),
        Some("`crit`"),
    )
    .await;
}

#[tokio::test]
async fn an_issuer_given_as_an_array() {
    refused(
        |s| {
            let issuer = s.issuer.url.clone();
            with_claims(s, |c| c["iss"] = json!([issuer]))
        },
        Some("`iss`"),
    )
    .await;
}

#[tokio::test]
async fn issued_in_the_future() {
    refused(
        |s| with_claims(s, |c| c["iat"] = json!(now() + 3600)),
        Some("`iat`"),
    )
    .await;
}

#[tokio::test]
async fn bound_to_a_key_and_presented_as_bearer() {
    // A DPoP- or mTLS-bound token (`cnf`) proves nothing without its proof of possession.
    refused(
        |s| {
            with_claims(s, |c| {
                c["cnf"] = json!({"jkt": "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"})
            })
        },
        Some("`cnf`"),
    )
    .await;
}

#[tokio::test]
async fn without_a_subject() {
    // RFC 9068 §2.2: `sub` is required. Two tokens without one were one caller, and one used the
    // other's `requestState`.
    refused(
        |s| {
            with_claims(s, |c| {
                c.as_object_mut().unwrap().remove("sub");
            })
        },
        Some("sub"),
    )
    .await;
    refused(|s| with_claims(s, |c| c["sub"] = json!("")), Some("`sub`")).await;
}
