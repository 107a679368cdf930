//! The issuer's keys: fetched once and cached, fetched again when a token names a key the
//! cache lacks (rotation), and not more often than allowed.

use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::json;

use super::fixtures::*;

#[tokio::test]
async fn keys_are_fetched_once_and_refetched_when_the_issuer_rotates() {
    let server = Protected::start_with(|s| s, |v| v.min_refresh(Duration::from_millis(200))).await;
    for _ in 0..5 {
        let bearer = format!("Bearer {}", server.token(BASE_SCOPE));
        let reply = server.call(Some(&bearer), "whoami", json!({})).await;
        assert_eq!(reply.status, 200, "{reply:?}");
    }
    assert_eq!(
        server.issuer.fetches.load(Ordering::SeqCst),
        1,
        "keys not cached"
    );

    // The issuer rotates to a new key; a token signed with it names `k2`.
    server.issuer.publish(vec![jwk(ROTATED_KEY, "k2")]);
    tokio::time::sleep(Duration::from_millis(250)).await;
    let claims = claims(&server.issuer.url, &server.resource, BASE_SCOPE);
    let bearer = format!("Bearer {}", sign(&claims, ROTATED_KEY, "k2"));
    let reply = server.call(Some(&bearer), "whoami", json!({})).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(server.issuer.fetches.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn tokens_naming_unknown_keys_do_not_make_the_server_hammer_the_issuer() {
    let server = Protected::start().await;
    let claims = claims(&server.issuer.url, &server.resource, BASE_SCOPE);
    for i in 0..20 {
        let bearer = format!(
            "Bearer {}",
            sign(&claims, OTHER_KEY, &format!("unknown-{i}"))
        );
        let reply = server.call(Some(&bearer), "whoami", json!({})).await;
        assert_eq!(reply.status, 401, "{reply:?}");
    }
    // The first fetch, and no other within the 30 s minimum between fetches.
    assert_eq!(server.issuer.fetches.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_verified_token_is_remembered_until_it_expires_and_not_when_told_not_to() {
    for cache in [true, false] {
        let server = Protected::start_with(
            |s| s,
            move |v| {
                let v = v.keys_max_age(Duration::ZERO).min_refresh(Duration::ZERO);
                if cache { v } else { v.token_cache(0) }
            },
        )
        .await;
        let bearer = format!("Bearer {}", server.token(BASE_SCOPE));
        let reply = server.call(Some(&bearer), "whoami", json!({})).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        // The issuer stops publishing `k1`: a token signed with it is no longer checkable.
        server.issuer.publish(vec![jwk(ROTATED_KEY, "k2")]);
        let again = server.call(Some(&bearer), "whoami", json!({})).await;
        let fresh = format!("Bearer {}", server.token("mcp:tools profile"));
        let new_token = server.call(Some(&fresh), "whoami", json!({})).await;
        assert_eq!(new_token.status, 401, "{new_token:?}");
        if cache {
            assert_eq!(
                again.status, 200,
                "the verified token was not remembered: {again:?}"
            );
        } else {
            assert_eq!(again.status, 401, "{again:?}");
        }
    }
}
