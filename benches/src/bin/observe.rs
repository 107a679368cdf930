//! What observability and authorization cost per call, in instructions (callgrind):
//!
//! - a call served through `ToolboxServer` over an in-memory line transport (the client writes
//!   the request and reads the answer), with no `tracing` subscriber, with one that records
//!   every span (a registry and a layer that keeps nothing), and with tracing-opentelemetry's
//!   layer exporting to memory;
//! - verifying one bearer token with `JwtVerifier` (ES256, keys cached), checked in full and
//!   remembered from an earlier request;
//! - a served call of a tool with three constrained arguments (a range, a length and a pattern,
//!   an email format), its rules checked against the `inputSchema` before the body runs, next
//!   to the same tool whose arguments state no rule (what the call cost before the rules were
//!   enforced).
//!
//! `cargo run --release -p benches --bin observe` prints the table BENCHMARKS.md holds;
//! `--quick` measures fewer calls (what CI runs, to prove the harness works).

use std::io::{Read, Write};

use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_tool_runtime::auth::{JwtVerifier, TokenVerifier};
use mcp_tool_runtime::{Toolbox, ToolboxServer, mcp_tool};
use serde_json::json;
use tracing_subscriber::layer::SubscriberExt;

/// Adds two numbers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// An order whose arguments state rules (schemars attributes).
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Ruled {
    #[schemars(range(min = 1, max = 100))]
    quantity: u32,
    #[schemars(length(min = 2, max = 5), regex(pattern = r"^[A-Z]+$"))]
    code: String,
    #[schemars(email)]
    contact: String,
}

/// The same order, stating no rule.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Unruled {
    quantity: u32,
    code: String,
    contact: String,
}

/// Places an order whose arguments are checked against their rules.
#[mcp_tool]
fn order_rules(#[args] order: Ruled) -> u32 {
    order.quantity + order.code.len() as u32 + order.contact.len() as u32
}

/// Places the same order, stating no rule.
#[mcp_tool]
fn order_plain(#[args] order: Unruled) -> u32 {
    order.quantity + order.code.len() as u32 + order.contact.len() as u32
}

const KEY: &[u8] = include_bytes!("observe-key.pem");

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Setup, then `n` calls served with the `variant`'s subscriber.
fn served(variant: &str, n: usize) {
    let _guard = match variant {
        "none" => None,
        "recorded" => Some(tracing::subscriber::set_default(
            tracing_subscriber::registry().with(tracing_subscriber::layer::Identity::new()),
        )),
        "otel" => {
            use opentelemetry::trace::TracerProvider as _;
            let provider = opentelemetry_sdk::trace::SdkTracerProvider::builder()
                .with_simple_exporter(opentelemetry_sdk::trace::InMemorySpanExporter::default())
                .build();
            let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("bench"));
            Some(tracing::subscriber::set_default(
                tracing_subscriber::registry().with(layer),
            ))
        }
        "order-rules" | "order-plain" => None,
        other => panic!("no variant {other}"),
    };
    let (tool, arguments) = match variant {
        "order-rules" | "order-plain" => (
            variant.replace('-', "_"),
            json!({"quantity": 7, "code": "ABC", "contact": "ada@example.com"}),
        ),
        _ => ("add".to_owned(), json!({"a": 1, "b": 2})),
    };
    runtime().block_on(async {
        let mut toolbox = Toolbox::new();
        toolbox.register(add::tool()).unwrap();
        toolbox.register(order_rules::tool()).unwrap();
        toolbox.register(order_plain::tool()).unwrap();
        let server = ToolboxServer::new(toolbox).unwrap();
        let mut client = benches::LineClient::serve(server);
        client
            .send(json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"}}}))
            .await;
        client.next().await;
        client
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        for id in 1..=n {
            client.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": &tool, "arguments": &arguments,
                           "_meta": {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}}}))
            .await;
            let answer = client.next().await;
            assert!(answer.contains("\"structuredContent\""), "{answer}");
        }
    });
}

/// Serves the issuer's key set once per request, on a loopback port, from a thread.
fn jwks_server() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let mut jwk =
        Jwk::from_encoding_key(&EncodingKey::from_ec_pem(KEY).unwrap(), Algorithm::ES256).unwrap();
    jwk.common.key_id = Some("k1".into());
    let body = serde_json::to_string(&JwkSet { keys: vec![jwk] }).unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut buf = [0; 4096];
            let _ = stream.read(&mut buf);
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    format!("http://{addr}/jwks")
}

/// Setup (keys fetched by a first verification), then `n` verifications of the same token,
/// each checked in full (`cache` off) or remembered.
fn verify(n: usize, cache: bool) {
    let jwks = jwks_server();
    let (issuer, resource) = ("https://auth.example.com", "https://mcp.example.com/mcp");
    let verifier = JwtVerifier::new(issuer, resource)
        .jwks_uri(jwks)
        .token_cache(if cache { 100 } else { 0 });
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let claims = json!({"iss": issuer, "aud": resource, "sub": "alice", "scope": "mcp:tools",
                        "iat": now, "exp": now + 3600});
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some("k1".into());
    let token =
        jsonwebtoken::encode(&header, &claims, &EncodingKey::from_ec_pem(KEY).unwrap()).unwrap();
    runtime().block_on(async {
        verifier.verify(&token).await.unwrap();
        for _ in 0..n {
            std::hint::black_box(verifier.verify(&token).await.unwrap());
        }
    });
}

fn instructions(variant: &str, n: usize) -> u64 {
    benches::instructions_per_call(&["--calls", variant], n)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, variant, n] = args.as_slice()
        && flag == "--calls"
    {
        let n = n.parse().unwrap();
        match variant.as_str() {
            "verify" => verify(n, false),
            "verify-cached" => verify(n, true),
            served_with => served(served_with, n),
        }
        return;
    }
    let n = if args.iter().any(|a| a == "--quick") {
        20
    } else {
        200
    };
    let none = instructions("none", n);
    let recorded = instructions("recorded", n);
    let otel = instructions("otel", n);
    let verified = instructions("verify", n);
    let remembered = instructions("verify-cached", n);
    let unruled = instructions("order-plain", n);
    let ruled = instructions("order-rules", n);
    println!("| per call | instructions | x no subscriber |");
    println!("| --- | --- | --- |");
    println!("| served call, no subscriber | {none} | 1.00x |");
    println!(
        "| served call, spans recorded (registry) | {recorded} | {:.2}x |",
        recorded as f64 / none as f64
    );
    println!(
        "| served call, OpenTelemetry layer, in-memory export | {otel} | {:.2}x |",
        otel as f64 / none as f64
    );
    println!(
        "| verifying a bearer token (ES256, keys cached) | {verified} | {:.2}x |",
        verified as f64 / none as f64
    );
    println!(
        "| the same token again (remembered) | {remembered} | {:.2}x |",
        remembered as f64 / none as f64
    );
    println!();
    println!("| per call | instructions | x no rules |");
    println!("| --- | --- | --- |");
    println!("| served call, three arguments stating no rule | {unruled} | 1.00x |");
    println!(
        "| served call, the same arguments with their rules checked | {ruled} | {:.2}x |",
        ruled as f64 / unruled as f64
    );
}
