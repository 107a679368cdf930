//! The issuer's keys: fetched once and cached, fetched again when a token names a key the
//! cache lacks (rotation), and not more often than allowed; against a failing, a hanging and a
//! slow issuer, one shared fetch per backoff, the last good keys serving, and a fixed 503.

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

/// A token of the issuer's claims under key `kid` (signed with the issuer's key), fresh each
/// time (a new `jti`), so no verified token is remembered.
fn token_under(server: &Protected, kid: &str, n: usize) -> String {
    let mut claims = claims(&server.issuer.url, &server.resource, BASE_SCOPE);
    claims["jti"] = json!(format!("t{n}"));
    format!("Bearer {}", sign(&claims, ISSUER_KEY, kid))
}

#[tokio::test]
async fn a_failing_issuer_is_tried_once_per_backoff_and_the_last_keys_keep_serving() {
    let server = Protected::start_with(
        |s| s,
        |v| {
            v.keys_max_age(Duration::ZERO)
                .min_refresh(Duration::from_secs(30))
        },
    )
    .await;
    let first = server
        .call(Some(&token_under(&server, "k1", 0)), "whoami", json!({}))
        .await;
    assert_eq!(first.status, 200, "{first:?}");
    let (keys_before, metadata_before) = (
        server.issuer.fetches.load(Ordering::SeqCst),
        server.issuer.metadata_fetches.load(Ordering::SeqCst),
    );
    server.issuer.answer(FAILING, Duration::ZERO);
    // Thirty tokens naming keys nobody published: one attempt at most (before, 30 metadata and
    // 30 key fetches in 0.3 s), each refused as a bad signature.
    for n in 0..30 {
        let reply = server
            .call(
                Some(&token_under(&server, &format!("unknown-{n}"), n)),
                "whoami",
                json!({}),
            )
            .await;
        assert_eq!(reply.status, 401, "{reply:?}");
    }
    // The keys are past their age (0 here) and every fetch fails: the last good ones serve.
    for n in 0..5 {
        let reply = server
            .call(
                Some(&token_under(&server, "k1", 100 + n)),
                "whoami",
                json!({}),
            )
            .await;
        assert_eq!(
            reply.status, 200,
            "the last good keys did not serve: {reply:?}"
        );
    }
    assert!(
        server.issuer.fetches.load(Ordering::SeqCst) - keys_before <= 1,
        "{} key fetches while failing",
        server.issuer.fetches.load(Ordering::SeqCst) - keys_before
    );
    assert!(server.issuer.metadata_fetches.load(Ordering::SeqCst) - metadata_before <= 1);
}

#[tokio::test]
async fn with_no_keys_the_answer_is_a_fixed_503_that_names_nothing_of_the_issuer() {
    let server = Protected::start_with(|s| s, |v| v.min_refresh(Duration::from_secs(30))).await;
    server.issuer.answer(FAILING, Duration::ZERO);
    for n in 0..10 {
        let reply = server
            .call(Some(&token_under(&server, "k1", n)), "whoami", json!({}))
            .await;
        assert_eq!(reply.status, 503, "{reply:?}");
        let body = reply.message.to_string();
        assert!(
            !body.contains("127.0.0.1")
                && !body.contains("500")
                && body.contains("try again later"),
            "{body}"
        );
    }
    assert_eq!(
        server.issuer.fetches.load(Ordering::SeqCst),
        1,
        "one attempt, then the backoff"
    );
}

#[tokio::test]
async fn requests_waiting_for_a_hanging_issuer_share_one_fetch() {
    let server =
        Protected::start_with(|s| s, |v| v.fetch_timeout(Duration::from_millis(500))).await;
    server.issuer.answer(SLOW, Duration::from_secs(30));
    let started = std::time::Instant::now();
    let tokens: Vec<String> = (0..3).map(|n| token_under(&server, "k1", n)).collect();
    let (a, b, c) = tokio::join!(
        server.call(Some(&tokens[0]), "whoami", json!({})),
        server.call(Some(&tokens[1]), "whoami", json!({})),
        server.call(Some(&tokens[2]), "whoami", json!({})),
    );
    let replies = [a, b, c];
    let took = started.elapsed();
    for reply in &replies {
        assert_eq!(reply.status, 503, "{reply:?}");
    }
    // One fetch, timed out once for all three (before: one after the other, 20, 40 and 60 s).
    assert!(
        took < Duration::from_secs(3),
        "three waiting requests took {took:?}"
    );
    assert_eq!(server.issuer.fetches.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_client_that_hangs_up_does_not_cancel_the_fetch() {
    let server = Protected::start().await;
    server.issuer.answer(SLOW, Duration::from_millis(300));
    let token = token_under(&server, "k1", 0);
    let gone = tokio::time::timeout(
        Duration::from_millis(50),
        server.call(Some(&token), "whoami", json!({})),
    )
    .await;
    assert!(
        gone.is_err(),
        "the first request was to hang up while the fetch ran"
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    // The fetch went on without its client: the keys are there, and nothing is fetched again.
    let served = server
        .call(Some(&token_under(&server, "k1", 1)), "whoami", json!({}))
        .await;
    assert_eq!(served.status, 200, "{served:?}");
    assert_eq!(server.issuer.fetches.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn an_issuer_over_plain_http_elsewhere_than_loopback_is_not_fetched() {
    let server = Protected::start_with(|s| s, |v| v.jwks_uri("http://192.0.2.1/jwks")).await;
    let reply = server
        .call(Some(&token_under(&server, "k1", 0)), "whoami", json!({}))
        .await;
    assert_eq!(reply.status, 503, "{reply:?}");
}
