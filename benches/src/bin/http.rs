//! One tool served over Streamable HTTP on loopback four ways, each as its own docs say, loaded
//! with `wrk` and counted with callgrind, with the ratios from one run:
//!
//! - **ours**: `ToolboxServer` behind `HttpGuard` and `BoundedSessions`, on
//!   `transport::http::serve` (the serving guide);
//! - **rmcp**: rmcp 3.11's `#[tool_router(server_handler)]`, which builds its router on every
//!   request, on `axum::serve` (rmcp's documented default);
//! - **rmcp-once**: the same tool with its router built once per handler
//!   (`#[tool_handler(router = self.tool_router)]`), `TCP_NODELAY` set as our guide says;
//! - **hyper**: a bare hyper server writing the bytes ours writes, the floor;
//! - **ours-compact** (instructions only): ours with the compact text mirror rmcp writes
//!   (`ServerDefaults::mirror(Mirror::Compact)`), the same bytes to frame as rmcp's.
//! - **ours-streamed** (`http serve` only): ours with `HttpGuard::reply_hold(Duration::ZERO)`,
//!   its 2025 replies written as rmcp writes them, in two.
//! - **ours-sse** (`http serve` only): ours without rmcp's `with_json_response`: its 2026 replies
//!   are event streams, as rmcp-once's are, where ours writes one JSON reply; held as ours'
//!   2025 replies are, each still leaves in one write.
//! - **ours-sse-streamed** (`http serve` only): ours-sse with `reply_hold(Duration::ZERO)`, its
//!   2026 replies written as rmcp-once writes them (the head, then the event).
//! - **ours-on-rmcp** (instructions only): `ToolboxServer` served exactly as rmcp-once is (no
//!   `HttpGuard`, rmcp's `LocalSessionManager`, `axum::serve`): the difference to ours is what
//!   the guard, the session bound and our serve loop cost, and to rmcp-once what the call costs.
//!
//! `http` runs everything; `http --quick` (CI) runs rounds of a second instead of three, counts
//! instructions of the four servers below only, and pins three rounds instead of seven.
//! Every server of a version is up at once and each point is loaded three times, the servers
//! taking turns; a point reports its median round by requests/s. (`--quick` once ran a single
//! round a point, which one round of this machine's slow mode at 64 connections decided.)
//! `http serve KIND [CONTENT_TYPE BODY_FILE]` is one server, answering until its stdin closes.
//! `http sizes` prints the bytes of the future rmcp spawns for each request, ours and rmcp-once's,
//! and of our handler futures that bound it.
//!
//! `http pinned [ROUNDS]` (and the end of every run) loads ours and rmcp-once with each server on
//! the first CPU the bench may use (so one tokio worker) and `wrk` on the second, at 1 and 16
//! connections, the two taking turns for ROUNDS rounds (7; 3 in `--quick`): unpinned, the load
//! and the server share both cores, and the scheduler's spread hides a difference of 10% in CPU
//! per request.
//!
//! Per point: requests/s, p50/p99/max latency (wrk's), the server's CPU-seconds per request
//! (`/proc/PID/stat`), and per server its peak RSS (`VmHWM`). Instructions per call: the server
//! run under `valgrind --tool=callgrind`, sent warm-up calls then 0 or N more on one keep-alive
//! connection, as (I(N) - I(0)) / N; with them, the cycles KCachegrind estimates from the
//! simulated caches and branch predictor (see [`PerCall`]).
//! `http profile KIND VERSION N` is that count for one server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use mcp_tool_runtime::transport::HttpGuard;
use mcp_tool_runtime::transport::http::{self, BoundedSessions, ServeOptions};
use mcp_tool_runtime::{Toolbox, ToolboxServer, mcp_tool};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

const KINDS: [&str; 4] = ["ours", "rmcp", "rmcp-once", "hyper"];
const VERSIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];
const CONNECTIONS: [usize; 3] = [1, 16, 64];

#[derive(Clone, Serialize, JsonSchema)]
struct Line {
    item: String,
    quantity: u32,
    cents: u64,
}

/// The invoice the tool answers with (about 400 bytes of JSON).
#[derive(Clone, Serialize, JsonSchema)]
struct Invoice {
    number: String,
    customer: String,
    total_cents: u64,
    paid: bool,
    lines: Vec<Line>,
}

fn invoice(number: String) -> Invoice {
    let lines = (1..=3)
        .map(|n| Line {
            item: format!("Widget model {n}"),
            quantity: n,
            cents: 1_250 * u64::from(n),
        })
        .collect();
    Invoice {
        number,
        customer: "Ada Lovelace".into(),
        total_cents: 7_500,
        paid: false,
        lines,
    }
}

/// Looks up an invoice.
#[mcp_tool(include_output_schema, include_structured_content)]
fn get_invoice(number: String) -> Invoice {
    invoice(number)
}

#[derive(Deserialize, JsonSchema)]
struct Number {
    number: String,
}

/// rmcp's documented default: the router is built on every request.
#[derive(Clone)]
struct PerRequest;

#[rmcp::tool_router(server_handler)]
impl PerRequest {
    /// Looks up an invoice.
    #[rmcp::tool]
    fn get_invoice(&self, Parameters(Number { number }): Parameters<Number>) -> Json<Invoice> {
        Json(invoice(number))
    }
}

/// The router built once per handler.
#[derive(Clone)]
struct Once {
    tool_router: ToolRouter<Self>,
}

#[rmcp::tool_router]
impl Once {
    /// Looks up an invoice.
    #[rmcp::tool]
    fn get_invoice(&self, Parameters(Number { number }): Parameters<Number>) -> Json<Invoice> {
        Json(invoice(number))
    }
}

#[rmcp::tool_handler(router = self.tool_router)]
impl rmcp::ServerHandler for Once {}

/// The bytes of the future rmcp spawns for each request (`Service::handle_request`): tokio
/// moves it three times (into the task, into its cell, and out as it finishes), so its size is
/// paid on every call.
fn future_sizes() {
    /// The size of what `f` returns, for a `&'a H` it is called with.
    fn returned<'a, H: 'a, A, B, R>(_: impl Fn(&'a H, A, B) -> R) -> usize {
        std::mem::size_of::<R>()
    }
    use rmcp::Service;
    use rmcp::service::RoleServer;
    let ours = returned(<ToolboxServer as Service<RoleServer>>::handle_request);
    let once = returned(<Once as Service<RoleServer>>::handle_request);
    println!("request future: ours {ours} bytes, rmcp-once {once} bytes");
    use rmcp::ServerHandler as H;
    let handlers = [
        ("call_tool", returned(<ToolboxServer as H>::call_tool)),
        (
            "listen",
            returned(|s: &ToolboxServer, c, ()| H::listen(s, c)),
        ),
        (
            "on_custom_request",
            returned(<ToolboxServer as H>::on_custom_request),
        ),
        ("get_prompt", returned(<ToolboxServer as H>::get_prompt)),
        (
            "read_resource",
            returned(<ToolboxServer as H>::read_resource),
        ),
        ("complete", returned(<ToolboxServer as H>::complete)),
        ("update_task", returned(<ToolboxServer as H>::update_task)),
        ("get_task", returned(<ToolboxServer as H>::get_task)),
        ("cancel_task", returned(<ToolboxServer as H>::cancel_task)),
        ("list_tools", returned(<ToolboxServer as H>::list_tools)),
    ];
    let handlers: Vec<String> = handlers
        .iter()
        .map(|(name, size)| format!("{name} {size}"))
        .collect();
    println!("ours: {}", handlers.join(", "));
}

/// Serves `kind` on a loopback port, printed as `port N`; exits when stdin closes.
fn serve(kind: &str, replay: Option<(String, Vec<u8>)>) {
    std::thread::spawn(|| {
        let _ = std::io::stdin().read_to_end(&mut Vec::new());
        std::process::exit(0);
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        println!("port {}", listener.local_addr().unwrap().port());
        std::io::stdout().flush().unwrap();
        let never = std::future::pending::<()>();
        match kind {
            "ours" | "ours-compact" | "ours-streamed" | "ours-sse" | "ours-sse-streamed" => {
                const MAX_BODY_BYTES: usize = 4 << 20;
                let mut toolbox = match kind {
                    "ours-compact" => Toolbox::with_defaults(mcp_tool_runtime::ServerDefaults {
                        mirror: mcp_tool_runtime::Mirror::Compact,
                        ..mcp_tool_runtime::ServerDefaults::default()
                    }),
                    _ => Toolbox::new(),
                };
                toolbox.register(get_invoice::tool()).unwrap();
                let server = ToolboxServer::new(toolbox).unwrap();
                let sessions = Arc::new(BoundedSessions::new(1000));
                let service = StreamableHttpService::new(
                    move || Ok(server.clone()),
                    sessions.clone(),
                    StreamableHttpServerConfig::default()
                        .with_json_response(!kind.starts_with("ours-sse"))
                        .with_max_request_body_bytes(2 * MAX_BODY_BYTES),
                );
                let mut service = HttpGuard::rmcp(service)
                    .max_body_bytes(MAX_BODY_BYTES)
                    .sessions(sessions);
                if kind.ends_with("-streamed") {
                    service = service.reply_hold(Duration::ZERO);
                }
                let router = axum::Router::new().nest_service("/mcp", service);
                http::serve(listener, router, never, ServeOptions::default()).await;
            }
            "ours-on-rmcp" => {
                let mut toolbox = Toolbox::new();
                toolbox.register(get_invoice::tool()).unwrap();
                as_rmcp_once(listener, ToolboxServer::new(toolbox).unwrap()).await;
            }
            "rmcp" => {
                let service = StreamableHttpService::new(
                    || Ok(PerRequest),
                    LocalSessionManager::default().into(),
                    StreamableHttpServerConfig::default(),
                );
                let router = axum::Router::new().nest_service("/mcp", service);
                axum::serve(listener, router).await.unwrap();
            }
            "rmcp-once" => {
                let handler = Once {
                    tool_router: Once::tool_router(),
                };
                as_rmcp_once(listener, handler).await;
            }
            "hyper" => {
                let (content_type, body) = replay.expect("hyper replays a body");
                let body = bytes::Bytes::from(body);
                loop {
                    let (stream, _) = listener.accept().await.unwrap();
                    let _ = stream.set_nodelay(true);
                    let (content_type, body) = (content_type.clone(), body.clone());
                    tokio::spawn(async move {
                        let service = hyper::service::service_fn(
                            move |request: hyper::Request<hyper::body::Incoming>| {
                                let (content_type, body) = (content_type.clone(), body.clone());
                                async move {
                                    use http_body_util::BodyExt;
                                    let _ = request.into_body().collect().await;
                                    hyper::Response::builder()
                                        .header("content-type", content_type)
                                        .body(http_body_util::Full::new(body))
                                }
                            },
                        );
                        let io = hyper_util::rt::TokioIo::new(stream);
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(io, service)
                            .await;
                    });
                }
            }
            other => panic!("no server kind {other}"),
        }
    });
}

/// Serves `handler` as rmcp-once is served: rmcp's Streamable HTTP service and its
/// `LocalSessionManager`, on `axum::serve`, with `TCP_NODELAY` set as our guide says.
async fn as_rmcp_once<H>(listener: tokio::net::TcpListener, handler: H)
where
    H: rmcp::ServerHandler + Clone + Send + Sync + 'static,
{
    use axum::serve::ListenerExt;
    let service = StreamableHttpService::new(
        move || Ok(handler.clone()),
        LocalSessionManager::default().into(),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router).await.unwrap();
}

/// A server process: its pid, its port, and its stdin (closing it stops the server).
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start(kind: &str, under: Option<&std::path::Path>, replay: &[String]) -> Server {
        let me = std::env::current_exe().unwrap();
        let command = match under {
            Some(out) => {
                let mut c = Command::new("valgrind");
                // The caches and branch predictor simulated too, for the estimated cycles.
                c.arg("--tool=callgrind")
                    .arg(format!("--callgrind-out-file={}", out.display()))
                    .args(["--cache-sim=yes", "--branch-sim=yes"])
                    .arg(&me);
                c
            }
            None => Command::new(&me),
        };
        Server::spawn(kind, command, replay)
    }

    /// `kind` on the CPUs `cpus` (a `taskset` list): its runtime starts a worker for each.
    fn start_on(kind: &str, cpus: &str) -> Server {
        let mut command = on_cpus(cpus);
        command.arg(std::env::current_exe().unwrap());
        Server::spawn(kind, command, &[])
    }

    fn spawn(kind: &str, mut command: Command, replay: &[String]) -> Server {
        let mut child = command
            .arg("serve")
            .arg(kind)
            .args(replay)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts (valgrind installed, for instructions)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .trim()
            .strip_prefix("port ")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("{kind} did not say its port: {line:?}"));
        Server { child, port }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Closes its stdin and waits for it to exit.
    fn stop(mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

/// A command that runs what follows on the CPUs `cpus` (a `taskset` list).
fn on_cpus(cpus: &str) -> Command {
    let mut command = Command::new("taskset");
    command.args(["-c", cpus]);
    command
}

/// The CPU time a process has used, user and system, in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after_name.split(' ').collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

/// A process's peak resident set, in MB.
fn peak_rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<f64>().ok())
        .unwrap()
        / 1024.0
}

/// The request a call is, as a client at `version` sends it, and its extra headers.
fn call_request(version: &str, session: Option<&str>, id: u64) -> (String, Vec<(String, String)>) {
    let mut headers = vec![("MCP-Protocol-Version".to_owned(), version.to_owned())];
    let body = if version == "2026-07-28" {
        headers.push(("Mcp-Method".into(), "tools/call".into()));
        headers.push(("Mcp-Name".into(), "get_invoice".into()));
        serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "get_invoice", "arguments": {"number": "INV-1"},
                "_meta": {"io.modelcontextprotocol/protocolVersion": version,
                          "io.modelcontextprotocol/clientCapabilities": {},
                          "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"}}}})
    } else {
        serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "get_invoice", "arguments": {"number": "INV-1"}}})
    };
    if let Some(session) = session {
        headers.push(("Mcp-Session-Id".into(), session.to_owned()));
    }
    (body.to_string(), headers)
}

/// A blocking HTTP/1.1 keep-alive client: enough to send a request and read its whole reply.
struct Client {
    stream: BufReader<TcpStream>,
}

/// A reply: its head (lower-cased) and its body, dechunked.
struct Reply {
    head: String,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k == name).then(|| v.trim())
        })
    }
}

impl Client {
    fn connect(port: u16) -> Client {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream.set_nodelay(true).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        Client {
            stream: BufReader::new(stream),
        }
    }

    fn post(&mut self, body: &str, headers: &[(String, String)]) -> Reply {
        let mut request = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
            body.len()
        );
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        request.push_str(body);
        self.stream.get_mut().write_all(request.as_bytes()).unwrap();
        let mut head = String::new();
        loop {
            let mut line = String::new();
            self.stream.read_line(&mut line).unwrap();
            if line == "\r\n" || line.is_empty() {
                break;
            }
            head.push_str(&line.to_ascii_lowercase());
        }
        let mut reply = Reply {
            head,
            body: Vec::new(),
        };
        if let Some(length) = reply.header("content-length") {
            let mut body = vec![0; length.parse().unwrap()];
            self.stream.read_exact(&mut body).unwrap();
            reply.body = body;
        } else if reply.header("transfer-encoding") == Some("chunked") {
            loop {
                let mut size = String::new();
                self.stream.read_line(&mut size).unwrap();
                let size = usize::from_str_radix(size.trim(), 16).unwrap();
                let mut chunk = vec![0; size + 2];
                self.stream.read_exact(&mut chunk).unwrap();
                if size == 0 {
                    break;
                }
                reply.body.extend_from_slice(&chunk[..size]);
            }
        }
        reply
    }
}

/// Opens a 2025-11-25 session on the server at `port`; its id.
fn open_session(port: u16) -> String {
    let mut client = Client::connect(port);
    let initialize = serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "0"}}});
    let reply = client.post(&initialize.to_string(), &[]);
    let session = reply
        .header("mcp-session-id")
        .expect("a session")
        .to_owned();
    let headers = [
        ("Mcp-Session-Id".to_owned(), session.clone()),
        ("MCP-Protocol-Version".to_owned(), "2025-11-25".to_owned()),
    ];
    client.post(
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        &headers,
    );
    session
}

/// The session `kind` is called on at `version`: one opened on it at 2025-11-25; none at
/// 2026-07-28 (stateless), nor for the hyper floor, which only replays bytes.
fn session_for(kind: &str, version: &str, port: u16) -> Option<String> {
    (version != "2026-07-28" && kind != "hyper").then(|| open_session(port))
}

/// Whether a reply is the tool's result.
fn answered(reply: &Reply) -> bool {
    reply.head.starts_with("http/1.1 200")
        && String::from_utf8_lossy(&reply.body).contains("\"structuredContent\"")
}

/// What ours writes for one call at `version`: its content type and body, for the floor.
fn recorded(version: &str, dir: &std::path::Path) -> Vec<String> {
    let server = Server::start("ours", None, &[]);
    let session = session_for("ours", version, server.port);
    let (body, headers) = call_request(version, session.as_deref(), 1);
    let reply = Client::connect(server.port).post(&body, &headers);
    assert!(answered(&reply), "{}", String::from_utf8_lossy(&reply.body));
    server.stop();
    let file = dir.join(format!("reply-{version}"));
    std::fs::write(&file, &reply.body).unwrap();
    vec![
        reply.header("content-type").unwrap().to_owned(),
        file.display().to_string(),
    ]
}

/// The wrk script: the call's body and headers from the environment, each request with an id of
/// its own (a 2025 session answers one request of an id at a time: with one id on every
/// connection, all but one of them waited, and the load was one connection's); replies that
/// are not the tool's result are counted and reported.
const SCRIPT: &str = r#"
local f = io.open(os.getenv("MCP_BODY_FILE"), "rb")
wrk.method = "POST"
local before, after = string.match(f:read("*a"), '^(.-"id":)1(,.*)$')
f:close()
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
for name, value in string.gmatch(os.getenv("MCP_HEADERS"), "([^:\n]+): ([^\n]*)") do
  wrk.headers[name] = value
end
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("next_id", #threads * 1000000000)
end
function request()
  next_id = next_id + 1
  return wrk.format(nil, nil, nil, before .. next_id .. after)
end
bad = 0
function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"structuredContent"', 1, true) then bad = bad + 1 end
end
function done(summary, latency, requests)
  local wrong = 0
  for _, t in ipairs(threads) do wrong = wrong + t:get("bad") end
  io.write(string.format("RESULT requests=%d duration=%d errors=%d wrong=%d p50=%d p99=%d max=%d\n",
    summary.requests, summary.duration, summary.errors.connect + summary.errors.read
      + summary.errors.write + summary.errors.status + summary.errors.timeout, wrong,
    latency:percentile(50), latency:percentile(99), latency.max))
end
"#;

/// One load point's figures.
struct Point {
    requests: f64,
    rps: f64,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
    cpu_us_per_request: f64,
}

/// Of a point's rounds, the one with the median requests/s.
fn median(mut rounds: Vec<Point>) -> Point {
    rounds.sort_by(|a, b| a.rps.total_cmp(&b.rps));
    rounds.swap_remove(rounds.len() / 2)
}

/// A load point, `wrk` on the CPUs `cpus` (a `taskset` list), or on any.
fn load_on(
    cpus: Option<&str>,
    server: &Server,
    version: &str,
    session: Option<&str>,
    connections: usize,
    seconds: u64,
    dir: &std::path::Path,
) -> Point {
    let (body, headers) = call_request(version, session, 1);
    let body_file = dir.join("body.json");
    std::fs::write(&body_file, body).unwrap();
    let script = dir.join("call.lua");
    std::fs::write(&script, SCRIPT).unwrap();
    let headers: String = headers.iter().map(|(n, v)| format!("{n}: {v}\n")).collect();
    let before = cpu_seconds(server.pid());
    let mut wrk = match cpus {
        Some(cpus) => {
            let mut command = on_cpus(cpus);
            command.arg("wrk");
            command
        }
        None => Command::new("wrk"),
    };
    let out = wrk
        .args(["-t", &connections.min(2).to_string()])
        .args(["-c", &connections.to_string()])
        .args(["-d", &format!("{seconds}s"), "--timeout", "10s", "-s"])
        .arg(&script)
        .arg(format!("http://127.0.0.1:{}/mcp", server.port))
        .env("MCP_BODY_FILE", &body_file)
        .env("MCP_HEADERS", headers)
        .output()
        .expect("wrk runs (apt-get install wrk)");
    let cpu = cpu_seconds(server.pid()) - before;
    let text = String::from_utf8_lossy(&out.stdout);
    let result = text
        .lines()
        .find_map(|l| l.strip_prefix("RESULT "))
        .unwrap_or_else(|| panic!("wrk said: {text}{}", String::from_utf8_lossy(&out.stderr)));
    let field = |name: &str| -> f64 {
        result
            .split(' ')
            .find_map(|kv| kv.strip_prefix(&format!("{name}=")))
            .and_then(|v| v.parse().ok())
            .unwrap()
    };
    let requests = field("requests");
    assert!(requests > 0.0, "no request was served: {text}");
    assert_eq!(field("errors"), 0.0, "wrk counted errors: {text}");
    assert_eq!(
        field("wrong"),
        0.0,
        "replies that are not the result: {text}"
    );
    // Over the time wrk measured, not the time it was asked for: wrk stops about 0.1 s late
    // (3.10 s for 3 s), and a round the machine stalled runs longer still; either would
    // otherwise report more requests a second than were served.
    let measured = field("duration") / 1e6;
    if measured > 1.2 * seconds as f64 {
        eprintln!("a round of {seconds} s ran {measured:.2} s");
    }
    Point {
        requests,
        rps: requests / measured,
        p50_ms: field("p50") / 1000.0,
        p99_ms: field("p99") / 1000.0,
        max_ms: field("max") / 1000.0,
        cpu_us_per_request: cpu / requests * 1e6,
    }
}

/// What one call costs the server, counted by callgrind.
#[derive(Clone, Copy, Default)]
struct PerCall {
    instructions: f64,
    /// KCachegrind's cycle estimate from the simulated caches and branch predictor:
    /// instructions + 10 x (L1 misses + mispredicted branches) + 100 x last-level misses. This
    /// VM counts no cycles (`perf stat -e cycles` is not supported), and the time a request
    /// takes moves by 5% between runs; the estimate repeats to 0.2% over 200 calls, and shows
    /// a difference in CPU per request that the instructions do not.
    cycles: f64,
}

/// What one call costs `kind` at `version`: the server under callgrind, sent warm-up calls then
/// 0 or `calls` more on one keep-alive connection, as (I(calls) - I(0)) / calls.
fn per_call(
    kind: &str,
    version: &str,
    calls: usize,
    dir: &std::path::Path,
    replay: &[String],
) -> PerCall {
    let count = |n: usize| -> std::collections::HashMap<String, f64> {
        let out = dir.join(format!("callgrind.{kind}.{version}.{n}"));
        let server = Server::start(kind, Some(&out), replay);
        let session = session_for(kind, version, server.port);
        let mut client = Client::connect(server.port);
        for id in 0..(10 + n as u64) {
            let (body, headers) = call_request(version, session.as_deref(), id);
            let reply = client.post(&body, &headers);
            assert!(
                answered(&reply),
                "{kind}: {}",
                String::from_utf8_lossy(&reply.body)
            );
        }
        drop(client);
        server.stop();
        let text = std::fs::read_to_string(&out).unwrap();
        // `KEEP_PROFILES=DIR` keeps each profile, for `callgrind_annotate`.
        match std::env::var_os("KEEP_PROFILES") {
            Some(keep) => {
                let _ = std::fs::rename(
                    &out,
                    std::path::Path::new(&keep).join(out.file_name().unwrap()),
                );
            }
            None => {
                let _ = std::fs::remove_file(&out);
            }
        }
        let line = |prefix: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(prefix))
                .expect("callgrind writes its events and their summary")
        };
        let values = line("summary: ")
            .split_whitespace()
            .map(|v| v.parse().unwrap());
        line("events: ")
            .split_whitespace()
            .map(str::to_owned)
            .zip(values)
            .collect()
    };
    let (none, some) = (count(0), count(calls));
    let event = |name: &str| (some[name] - none[name]) / calls as f64;
    let l1_misses = event("I1mr") + event("D1mr") + event("D1mw");
    let last_level_misses = event("ILmr") + event("DLmr") + event("DLmw");
    let mispredicted = event("Bcm") + event("Bim");
    PerCall {
        instructions: event("Ir"),
        cycles: event("Ir") + 10.0 * (l1_misses + mispredicted) + 100.0 * last_level_misses,
    }
}

/// The CPUs this process may run on (`Cpus_allowed_list`: "0-1", "2,5-7").
fn allowed_cpus() -> Vec<usize> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let Some(list) = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
    else {
        return Vec::new();
    };
    let mut cpus = Vec::new();
    for part in list.trim().split(',') {
        let mut ends = part.split('-').map(|n| n.parse::<usize>());
        match (ends.next(), ends.next()) {
            (Some(Ok(first)), Some(Ok(last))) => cpus.extend(first..=last),
            (Some(Ok(only)), None) => cpus.push(only),
            _ => {}
        }
    }
    cpus
}

/// How many times `cpu` has gone idle by halting (every idle state but polling), if the kernel
/// says (`cpuidle`).
fn halts(cpu: &str) -> Option<u64> {
    let states = std::fs::read_dir(format!("/sys/devices/system/cpu/cpu{cpu}/cpuidle")).ok()?;
    let mut halts = 0;
    for state in states.flatten() {
        let read = |name: &str| std::fs::read_to_string(state.path().join(name)).ok();
        if read("name")?.trim() != "POLL" {
            halts += read("usage")?.trim().parse::<u64>().ok()?;
        }
    }
    Some(halts)
}

/// While held, every CPU idles by polling instead of halting: a latency bound of zero written to
/// `/dev/cpu_dma_latency` (the kernel's PM QoS, what tuned's latency profiles set), lifted when
/// the file is closed. Needs root.
struct PolledIdle(#[expect(dead_code, reason = "held open, never read")] std::fs::File);

impl PolledIdle {
    fn hold() -> Option<PolledIdle> {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/cpu_dma_latency")
            .ok()?;
        file.write_all(&0_i32.to_ne_bytes()).ok()?;
        Some(PolledIdle(file))
    }
}

/// Ours and rmcp-once, each on the first CPU this process may use with `wrk` on the second, at
/// 1 and 16 connections and both protocols: `rounds` rounds of `seconds`, the two taking turns (the
/// first of each pair alternating), each reported by its median requests/s, median CPU per
/// request and median halts of the server's CPU per request. Twice: as the machine idles, and
/// with idle held to polling ([`PolledIdle`]), when it can be.
///
/// On a virtual machine a halted CPU is woken by the host, which is dear (see BENCHMARKS.md):
/// as the machine idles, a server that leaves its CPU idle more often between requests serves
/// fewer of them, however little each costs. With idle held to polling, what is left is what
/// the requests cost.
fn pinned(rounds: usize, seconds: u64, dir: &std::path::Path) {
    let [server_cpu, load_cpu, ..] = allowed_cpus()[..] else {
        println!("## Pinned\n\n(skipped: this process may run on one CPU only)\n");
        return;
    };
    let cpus = (server_cpu.to_string(), load_cpu.to_string());
    println!(
        "## Pinned: each server on CPU {server_cpu} (one worker), wrk on CPU {load_cpu}, \
         {rounds} alternating rounds of {seconds} s, medians\n"
    );
    println!(
        "| idle | version | connections | server | requests/s | CPU µs/request | halts/request | x rmcp-once requests/s | x rmcp-once CPU |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for idle in ["halts", "polls"] {
        // Held, idle polls until the end of this round of the loop.
        let polled = (idle == "polls").then(PolledIdle::hold).flatten();
        if idle == "polls" && polled.is_none() {
            println!("| polls | (skipped: /dev/cpu_dma_latency cannot be written) | | | | | | | |");
            continue;
        }
        for version in VERSIONS {
            for connections in PINNED_CONNECTIONS {
                let [ours, once] =
                    pinned_medians(version, connections, rounds, seconds, dir, &cpus);
                for (server, medians) in PINNED.into_iter().zip([ours, once]) {
                    println!(
                        "| {idle} | {version} | {connections} | {server} | {:.0} | {:.1} | {:.2} | {:.3}x | {:.3}x |",
                        medians.rps,
                        medians.cpu,
                        medians.halts,
                        medians.rps / once.rps,
                        medians.cpu / once.cpu
                    );
                }
            }
        }
    }
    println!();
}

/// The servers [`pinned`] compares, and the connections it loads them with: one client calling
/// in turn, and sixteen at once.
const PINNED: [&str; 2] = ["ours", "rmcp-once"];
const PINNED_CONNECTIONS: [usize; 2] = [1, 16];

/// A pinned server's medians over its rounds: requests/s, CPU µs per request, and halts of its
/// CPU per request (NaN where the kernel does not count them).
#[derive(Clone, Copy)]
struct PinnedMedians {
    rps: f64,
    cpu: f64,
    halts: f64,
}

/// [`PINNED`]'s servers at `version` and `connections`, each on `cpus.0` with wrk on `cpus.1`,
/// taking turns for `rounds` rounds of `seconds` (the first of each pair alternating).
fn pinned_medians(
    version: &str,
    connections: usize,
    rounds: usize,
    seconds: u64,
    dir: &std::path::Path,
    (server_cpu, load_cpu): &(String, String),
) -> [PinnedMedians; 2] {
    let mut rps = [Vec::new(), Vec::new()];
    let mut cpu = [Vec::new(), Vec::new()];
    let mut halted = [Vec::new(), Vec::new()];
    for round in 0..rounds {
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for at in order {
            let server = Server::start_on(PINNED[at], server_cpu);
            let session = session_for(PINNED[at], version, server.port);
            let load = || {
                load_on(
                    Some(load_cpu),
                    &server,
                    version,
                    session.as_deref(),
                    connections,
                    seconds,
                    dir,
                )
            };
            // A first round warms the server (its allocator, its session); the second counts.
            load();
            let before = halts(server_cpu);
            let point = load();
            let after = halts(server_cpu);
            server.stop();
            rps[at].push(point.rps);
            cpu[at].push(point.cpu_us_per_request);
            if let (Some(before), Some(after)) = (before, after) {
                halted[at].push((after - before) as f64 / point.requests);
            }
        }
    }
    let middle = |values: &mut Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
    };
    [0, 1].map(|at| PinnedMedians {
        rps: middle(&mut rps[at]),
        cpu: middle(&mut cpu[at]),
        halts: middle(&mut halted[at]),
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("pinned") {
        let rounds = args
            .get(1)
            .map_or(7, |r| r.parse().expect("a number of rounds"));
        let dir = std::env::temp_dir().join(format!("mcp-http-pinned-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        pinned(rounds, 3, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    if args.first().map(String::as_str) == Some("serve") {
        let replay = match args.get(2..4) {
            Some([content_type, file]) => {
                Some((content_type.clone(), std::fs::read(file).unwrap()))
            }
            _ => None,
        };
        serve(&args[1], replay);
        return;
    }
    if args.first().map(String::as_str) == Some("sizes") {
        future_sizes();
        return;
    }
    if let [mode, kind, version, n] = args.as_slice()
        && mode == "profile"
    {
        let dir = std::env::temp_dir();
        let replay = if kind == "hyper" {
            recorded(version, &dir)
        } else {
            Vec::new()
        };
        let cost = per_call(kind, version, n.parse().unwrap(), &dir, &replay);
        println!(
            "{kind} at {version}: {:.0} instructions, {:.0} estimated cycles per call",
            cost.instructions, cost.cycles
        );
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    // Three rounds a point either way: the median of three is not decided by one round in the
    // slow mode (BENCHMARKS.md, "In CI"), where a single round was.
    let seconds = if quick { 1 } else { 3 };
    let rounds = 3;
    // The counts take the same 200 calls in --quick too: over 20, the estimated cycles moved by
    // 4% between runs (a few seconds of callgrind each).
    let calls = 200;
    let dir = std::env::temp_dir().join(format!("mcp-http-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for version in VERSIONS {
        let replay = recorded(version, &dir);
        println!("## {version}\n");
        println!(
            "| server | connections | requests/s | p50 ms | p99 ms | max ms | CPU µs/request | x ours CPU |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
        // Every server is up for the whole version, and each point is loaded `rounds` times,
        // the servers taking turns: a drift of the machine (this 2-core machine's throughput
        // moves by tens of percent within minutes) falls on every server alike, and each
        // point reports its median round by requests/s.
        let servers: Vec<(&str, Server, Option<String>)> = KINDS
            .into_iter()
            .map(|kind| {
                let replay: &[String] = if kind == "hyper" { &replay } else { &[] };
                let server = Server::start(kind, None, replay);
                let session = session_for(kind, version, server.port);
                (kind, server, session)
            })
            .collect();
        let mut points: Vec<Vec<Vec<Point>>> = servers
            .iter()
            .map(|_| CONNECTIONS.iter().map(|_| Vec::new()).collect())
            .collect();
        for (at, connections) in CONNECTIONS.into_iter().enumerate() {
            for _ in 0..rounds {
                for ((_, server, session), points) in servers.iter().zip(&mut points) {
                    let point = load_on(
                        None,
                        server,
                        version,
                        session.as_deref(),
                        connections,
                        seconds,
                        &dir,
                    );
                    points[at].push(point);
                }
            }
        }
        let medians: Vec<Vec<Point>> = points
            .into_iter()
            .map(|per_connections| per_connections.into_iter().map(median).collect())
            .collect();
        for ((kind, _, _), points) in servers.iter().zip(&medians) {
            for ((connections, point), ours) in CONNECTIONS.into_iter().zip(points).zip(&medians[0])
            {
                println!(
                    "| {kind} | {connections} | {:.0} | {:.2} | {:.2} | {:.2} | {:.1} | {:.2}x |",
                    point.rps,
                    point.p50_ms,
                    point.p99_ms,
                    point.max_ms,
                    point.cpu_us_per_request,
                    point.cpu_us_per_request / ours.cpu_us_per_request
                );
            }
        }
        let mut peaks = Vec::new();
        for (kind, server, _) in servers {
            peaks.push((kind, peak_rss_mb(server.pid())));
            server.stop();
        }
        println!();
        println!(
            "| server | peak RSS (MB) | instructions per call | x ours | estimated cycles per call | x ours |"
        );
        println!("| --- | --- | --- | --- | --- | --- |");
        let mut ours = PerCall::default();
        peaks.push(("ours-compact", f64::NAN));
        peaks.push(("ours-on-rmcp", f64::NAN));
        for (kind, peak) in peaks {
            if quick && !matches!(kind, "ours" | "rmcp-once" | "ours-compact" | "ours-on-rmcp") {
                println!("| {kind} | {peak:.1} | (not in --quick) | | | |");
                continue;
            }
            let replay: &[String] = if kind == "hyper" { &replay } else { &[] };
            let cost = per_call(kind, version, calls, &dir, replay);
            if kind == "ours" {
                ours = cost;
            }
            let peak = match peak.is_nan() {
                true => "(not loaded)".to_owned(),
                false => format!("{peak:.1}"),
            };
            println!(
                "| {kind} | {peak} | {:.0} | {:.3}x | {:.0} | {:.3}x |",
                cost.instructions,
                cost.instructions / ours.instructions,
                cost.cycles,
                cost.cycles / ours.cycles
            );
        }
        println!();
    }
    pinned(if quick { 3 } else { 7 }, seconds, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}
