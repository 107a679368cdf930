//! The paths measured side by side, on the same payloads, in the same run:
//!
//! - **ours**: a `#[mcp_tool]` tool called through a `Toolbox` (arguments read, result built with
//!   `structuredContent`, the sorted pretty text mirror, the non-finite and depth checks), moved
//!   into rmcp's `CallToolResult` (`to_rmcp_result`, what `ToolboxServer` sends), framed;
//! - **rmcp**: rmcp 3.11's `Json<T>` path (`IntoCallToolResult`, what a `#[tool]` returning
//!   `Json<T>` goes through: `structuredContent` plus a compact text mirror), framed;
//! - **floor**: `serde_json::to_vec` of the payload, nothing else.
//!
//! Both tools clone the payload out of shared state, so each side pays for producing the value
//! alike. "Framed" is the JSON-RPC response's bytes.

use mcp_tool_runtime::server::to_rmcp_result;
use mcp_tool_runtime::{Toolbox, mcp_tool};
use rmcp::Json;
use rmcp::handler::server::tool::IntoCallToolResult;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

#[derive(Clone, Serialize, JsonSchema)]
pub struct Row {
    pub id: u64,
    pub customer: String,
    pub email: String,
    pub total_cents: u64,
    pub paid: bool,
    pub tags: Vec<String>,
    pub note: Option<String>,
}

#[derive(Clone, Serialize, JsonSchema)]
pub struct Page {
    pub rows: Vec<Row>,
    pub next: Option<String>,
}

fn row(i: u64) -> Row {
    Row {
        id: i,
        customer: format!("Customer number {i} of the benchmark"),
        email: format!("customer{i}@example.com"),
        total_cents: i * 1_337,
        paid: i.is_multiple_of(2),
        tags: vec![
            "net-30".into(),
            "priority".into(),
            format!("region-{}", i % 7),
        ],
        note: i
            .is_multiple_of(3)
            .then(|| "Deliver to the back door, ring twice.".to_owned()),
    }
}

/// The three payloads: about 1 KB, 1,000 rows (about 250 KB), about 10 MB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    Small,
    Rows,
    Large,
}

impl Payload {
    pub const ALL: [Payload; 3] = [Payload::Small, Payload::Rows, Payload::Large];

    pub fn name(self) -> &'static str {
        match self {
            Payload::Small => "1KB",
            Payload::Rows => "1000rows",
            Payload::Large => "10MB",
        }
    }

    pub fn parse(name: &str) -> Option<Payload> {
        Payload::ALL.into_iter().find(|p| p.name() == name)
    }

    pub fn page(self) -> Page {
        let rows = match self {
            Payload::Small => 4,
            Payload::Rows => 1_000,
            Payload::Large => 40_000,
        };
        Page {
            rows: (0..rows).map(row).collect(),
            next: Some("cursor-after-the-last-row".into()),
        }
    }
}

/// The page the tools serve, in the toolbox's state.
pub struct Served(pub Page);

/// Serves the page.
#[mcp_tool]
fn page(#[state] served: &Served) -> Page {
    served.0.clone()
}

/// The tool as an rmcp `#[tool]` returning `Json<Page>` would run it.
fn rmcp_page(served: &Served) -> Json<Page> {
    Json(served.0.clone())
}

/// One of the three paths, set up once and called many times.
pub struct Bench {
    toolbox: Toolbox,
    runtime: tokio::runtime::Runtime,
}

#[derive(Serialize)]
struct Frame<'a, T> {
    jsonrpc: &'static str,
    id: u64,
    result: &'a T,
}

fn frame<T: Serialize>(result: &T) -> Vec<u8> {
    serde_json::to_vec(&Frame {
        jsonrpc: "2.0",
        id: 1,
        result,
    })
    .expect("a result serializes")
}

impl Bench {
    /// The path as served in release builds: the result self-check off.
    pub fn new(payload: Payload) -> Bench {
        Bench::with_check(payload, false)
    }

    /// With the result self-check (`Toolbox::check_results`) on or off.
    pub fn with_check(payload: Payload, check_results: bool) -> Bench {
        Bench::with(payload, check_results, mcp_tool_runtime::Mirror::Pretty)
    }

    /// With the result self-check on or off and the text mirror written as `mirror` (the server
    /// default the tool defers to).
    pub fn with(payload: Payload, check_results: bool, mirror: mcp_tool_runtime::Mirror) -> Bench {
        let mut toolbox = Toolbox::with_defaults(mcp_tool_runtime::ServerDefaults {
            mirror,
            ..Default::default()
        });
        toolbox.check_results(check_results);
        toolbox.insert_state(Served(payload.page()));
        toolbox.register(page::tool()).expect("registers");
        Bench {
            toolbox,
            runtime: tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap(),
        }
    }

    fn served(&self) -> &Served {
        self.toolbox.state::<Served>().expect("state")
    }

    /// Ours: value to frame bytes.
    pub fn ours(&self) -> Vec<u8> {
        let result = self
            .runtime
            .block_on(self.toolbox.call_tool("page", json!({})))
            .expect("the tool is known");
        frame(&to_rmcp_result(result))
    }

    /// rmcp's `Json<T>` path: value to frame bytes.
    pub fn rmcp(&self) -> Vec<u8> {
        let response = rmcp_page(self.served())
            .into_call_tool_result()
            .expect("serializes");
        match response {
            rmcp::model::CallToolResponse::Complete(result) => frame(&result),
            _ => unreachable!("Json<T> completes"),
        }
    }

    /// The floor: the payload's bytes.
    pub fn floor(&self) -> Vec<u8> {
        serde_json::to_vec(&self.served().0).expect("serializes")
    }

    /// The path named `variant`.
    pub fn run(&self, variant: &str) -> Vec<u8> {
        match variant {
            "ours" => self.ours(),
            "rmcp" => self.rmcp(),
            "floor" => self.floor(),
            other => panic!("unknown variant `{other}`"),
        }
    }
}

pub const VARIANTS: [&str; 3] = ["ours", "rmcp", "floor"];

/// rmcp's own macros serving the same tool, for the first-use costs.
#[derive(Clone)]
pub struct RmcpTools {
    tool_router: rmcp::handler::server::router::tool::ToolRouter<Self>,
}

#[rmcp::tool_router]
impl RmcpTools {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    /// Serves the page.
    #[rmcp::tool]
    pub async fn page(&self) -> Json<Page> {
        Json(Payload::Small.page())
    }

    /// The `tools/list` entries, as rmcp's router builds them.
    pub fn list(&self) -> usize {
        self.tool_router.list_all().len()
    }
}

impl Default for RmcpTools {
    fn default() -> Self {
        Self::new()
    }
}

impl Bench {
    /// The `tools/list` entries this toolbox serves (built at registration).
    pub fn list(&self) -> usize {
        self.toolbox.list_tools().len()
    }
}

/// Instructions one call costs: this binary run under `valgrind --tool=callgrind` twice, with
/// `args` and then 0 or `n` (the binary does its setup, then that many calls), as
/// (I(n) - I(0)) / n. Instruction counts do not depend on what else the machine is doing.
pub fn instructions_per_call(args: &[&str], n: usize) -> u64 {
    per_call(args, n).0
}

/// Instructions and heap allocations (calls of `malloc`, `calloc` and `posix_memalign`, as
/// callgrind counts them) one call costs, measured as [`instructions_per_call`] does.
pub fn per_call(args: &[&str], n: usize) -> (u64, f64) {
    let me = std::env::current_exe().unwrap();
    let count = |calls: usize| -> (u64, u64) {
        let out = std::env::temp_dir().join(format!(
            "callgrind.{}.{calls}.{}",
            args.join("."),
            std::process::id()
        ));
        let status = std::process::Command::new("valgrind")
            .arg("--tool=callgrind")
            .arg(format!("--callgrind-out-file={}", out.display()))
            .arg(&me)
            .args(args)
            .arg(calls.to_string())
            .output()
            .expect("valgrind runs (apt-get install valgrind)");
        assert!(
            status.status.success(),
            "{}",
            String::from_utf8_lossy(&status.stderr)
        );
        let text = std::fs::read_to_string(&out).unwrap();
        let _ = std::fs::remove_file(&out);
        let instructions = text
            .lines()
            .find_map(|l| l.strip_prefix("summary: "))
            .and_then(|n| n.trim().parse().ok())
            .expect("callgrind writes a summary");
        (instructions, allocations(&text))
    };
    let ((i0, a0), (i1, a1)) = (count(0), count(n));
    ((i1 - i0) / n as u64, (a1 - a0) as f64 / n as f64)
}

/// Calls of the C allocator's allocating functions in a callgrind profile: callgrind names each
/// function once (`cfn=(7) malloc`), then by number (`cfn=(7)`), and follows a call site with
/// `calls=COUNT ...`.
fn allocations(profile: &str) -> u64 {
    const ALLOCATING: [&str; 3] = ["malloc", "calloc", "posix_memalign"];
    let mut names = std::collections::HashMap::new();
    let mut total = 0;
    let mut callee_allocates = false;
    for line in profile.lines() {
        let named = line
            .strip_prefix("cfn=")
            .or_else(|| line.strip_prefix("fn="));
        if let Some(rest) = named {
            let (id, name) = match rest.split_once(' ') {
                Some((id, name)) => {
                    names.insert(id.to_owned(), name.to_owned());
                    (id, Some(name))
                }
                None => (rest, None),
            };
            let name = name.or_else(|| names.get(id).map(String::as_str));
            callee_allocates =
                line.starts_with("cfn=") && name.is_some_and(|n| ALLOCATING.contains(&n));
        } else if let Some(calls) = line.strip_prefix("calls=") {
            if callee_allocates {
                total += calls
                    .split(' ')
                    .next()
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or(0);
            }
            callee_allocates = false;
        }
    }
    total
}

/// A client of `server` over an in-memory line transport (the way a stdio client talks): send a
/// JSON-RPC message with [`send`](LineClient::send), read the next one with
/// [`next`](LineClient::next). The server stops when the client is dropped.
pub struct LineClient {
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    serving: tokio::task::JoinHandle<()>,
}

impl LineClient {
    /// Starts serving `server` on the current runtime.
    pub fn serve(server: mcp_tool_runtime::ToolboxServer) -> LineClient {
        use rmcp::ServiceExt;
        let (client, serving) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(serving);
        let serving = tokio::spawn(async move {
            let transport = mcp_tool_runtime::transport::LineTransport::new(read, write);
            let service = server.serve(transport).await.unwrap();
            let _ = service.waiting().await;
        });
        let (read, write) = tokio::io::split(client);
        LineClient {
            lines: tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(read)),
            write,
            serving,
        }
    }

    /// Writes `message` as one line.
    pub async fn send(&mut self, message: serde_json::Value) {
        let mut line = message.to_string();
        line.push('\n');
        tokio::io::AsyncWriteExt::write_all(&mut self.write, line.as_bytes())
            .await
            .unwrap();
    }

    /// The next line the server wrote.
    pub async fn next(&mut self) -> String {
        self.lines.next_line().await.unwrap().unwrap()
    }
}

impl Drop for LineClient {
    fn drop(&mut self) {
        self.serving.abort();
    }
}
