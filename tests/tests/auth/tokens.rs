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
