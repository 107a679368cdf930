#!/usr/bin/env bash
# Binary size of a minimal server, side by side: one tool served over Streamable HTTP three ways,
# built in release (the workspace's profile), and where the code comes from.
#   ours-minimal: mcp-tool-runtime without default features, `rmcp` and `http` only, served by
#                 `transport::http::serve` behind `HttpGuard`;
#   ours-default: the same with the default features (`self-check`, which brings `jsonschema`);
#   rmcp:         rmcp's `#[tool_router(server_handler)]` on `axum::serve`, as its docs serve it.
# Prints each binary's text segment, then its largest contributors by crate (symbol sizes from
# `nm`, grouped by the crate their demangled path starts with).
#   scripts/binary-size.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runtime=$(realpath mcp-tool-runtime)
rmcp_version=$(awk '/^name = "rmcp"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
root=target/binary-size
rm -rf "$root"
mkdir -p "$root"
cat > "$root/Cargo.toml" <<TOML
[workspace]
resolver = "3"
members = ["ours_minimal", "ours_default", "rmcp_server"]
[workspace.dependencies]
serde = { version = "1", features = ["derive"] }
schemars = "1"
tokio = { version = "1", features = ["rt-multi-thread", "macros", "net"] }
[profile.release]
debug = false
TOML

for crate in ours_minimal ours_default rmcp_server; do
  mkdir -p "$root/$crate/src"
  cat > "$root/$crate/Cargo.toml" <<TOML
[package]
name = "$crate"
version = "0.0.0"
edition = "2024"
[dependencies]
serde.workspace = true
schemars.workspace = true
tokio.workspace = true
TOML
done
echo "mcp-tool-runtime = { path = \"$runtime\", default-features = false, features = [\"rmcp\", \"http\"] }" >> "$root/ours_minimal/Cargo.toml"
echo "mcp-tool-runtime = { path = \"$runtime\", features = [\"rmcp\", \"http\"] }" >> "$root/ours_default/Cargo.toml"
cat >> "$root/rmcp_server/Cargo.toml" <<TOML
rmcp = { version = "=$rmcp_version", features = ["server", "macros", "transport-streamable-http-server"] }
axum = { version = "0.8", default-features = false, features = ["http1", "tokio"] }
TOML

ours_main='use std::sync::Arc;
use mcp_tool_runtime::transport::HttpGuard;
use mcp_tool_runtime::transport::http::{self, BoundedSessions, ServeOptions};
use mcp_tool_runtime::{Toolbox, ToolboxServer, mcp_tool};
use mcp_tool_runtime::rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum { total: i64 }

/// Adds two numbers.
#[mcp_tool(include_output_schema, include_structured_content)]
fn add(a: i64, b: i64) -> Sum { Sum { total: a + b } }

#[tokio::main]
async fn main() {
    let mut toolbox = Toolbox::new();
    toolbox.register(add::tool()).unwrap();
    let server = ToolboxServer::new(toolbox).unwrap();
    let sessions = Arc::new(BoundedSessions::new(1000));
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        sessions.clone(),
        StreamableHttpServerConfig::default().with_json_response(true),
    );
    let service = HttpGuard::new(service).sessions(sessions);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    http::serve(listener, service, std::future::pending(), ServeOptions::default()).await;
}'
echo "$ours_main" > "$root/ours_minimal/src/main.rs"
echo "$ours_main" > "$root/ours_default/src/main.rs"
cat > "$root/rmcp_server/src/main.rs" <<'RS'
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

#[derive(serde::Serialize, schemars::JsonSchema)]
struct Sum { total: i64 }

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Add { a: i64, b: i64 }

#[derive(Clone)]
struct Server;

#[rmcp::tool_router(server_handler)]
impl Server {
    /// Adds two numbers.
    #[rmcp::tool]
    fn add(&self, Parameters(Add { a, b }): Parameters<Add>) -> Json<Sum> { Json(Sum { total: a + b }) }
}

#[tokio::main]
async fn main() {
    let service = StreamableHttpService::new(
        || Ok(Server),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    axum::serve(listener, router).await.unwrap();
}
RS

# One package per build: features are unified across the packages of one build, and the
# minimal one must not get the default one's.
for bin in ours_minimal ours_default rmcp_server; do
  (cd "$root" && cargo build --release --quiet -p "$bin")
done
printf '| binary | file (MB) | text segment (MB) | x rmcp text |\n| --- | --- | --- | --- |\n'
rmcp_text=$(size -A "$root/target/release/rmcp_server" | awk '$1 == ".text" { print $2 }')
for bin in ours_minimal ours_default rmcp_server; do
  path="$root/target/release/$bin"
  text=$(size -A "$path" | awk '$1 == ".text" { print $2 }')
  awk -v b="$bin" -v f="$(stat -c %s "$path")" -v t="$text" -v r="$rmcp_text" \
    'BEGIN { printf "| %s | %.1f | %.2f | %.2fx |\n", b, f / 1048576, t / 1048576, t / r }'
done
for bin in ours_minimal ours_default rmcp_server; do
  echo
  echo "$bin, the 12 crates with the most code (KB of text symbols):"
  # Symbols as `<crate>::...`, `<<crate>::Type as ...>` or `core::ptr::drop_in_place<crate::...>`:
  # the first path segment outside the generic wrapper names the crate.
  nm -C -S --size-sort --defined-only "$root/target/release/$bin" | python3 -c '
import re, sys
total = {}
for line in sys.stdin:
    fields = line.split(" ", 3)
    if len(fields) < 4 or fields[2] not in "tTwW":
        continue
    name = re.sub(r"^(core::ptr::drop_in_place<|<)+", "", fields[3].strip())
    crate = name.split("::", 1)[0]
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", crate):
        crate = "(other)"
    total[crate] = total.get(crate, 0) + int(fields[1], 16)
for crate, size in sorted(total.items(), key=lambda kv: -kv[1])[:12]:
    print(f"{size / 1024:10.1f} {crate}")
'
done
