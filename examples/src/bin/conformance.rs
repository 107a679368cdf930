//! The tools, prompts and resources the official MCP conformance suite calls, served over Streamable HTTP
//! (`--http 127.0.0.1:PORT`) or stdio.
//!
//! As one of several replicas behind a load balancer, from its environment:
//! - `TASK_STORE_URL=redis://HOST:PORT/`: tasks kept in that Redis, shared by every replica;
//! - `REQUEST_STATE_KEY=...` (32 bytes or more): the `requestState` key every replica shares;
//! - `TASK_LEASE_MS=...`: how long a replica's tasks outlive it before they are failed.

use std::time::Duration;

use examples::serve::{self, Mode};
use mcp_tool_runtime::server::tasks::RedisTaskStore;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let server = examples::conformance::server()?;
    let tools = &server;
    if let Ok(url) = std::env::var("TASK_STORE_URL") {
        tools.set_task_store(RedisTaskStore::connect(&url).await?);
    }
    if let Ok(key) = std::env::var("REQUEST_STATE_KEY") {
        tools.set_request_state_key(key.as_bytes())?;
    }
    if let Ok(lease) = std::env::var("TASK_LEASE_MS") {
        let mut limits = tools.limits();
        limits.task_lease = Duration::from_millis(lease.parse()?);
        tools.set_limits(limits)?;
    }
    match serve::mode_from_args()? {
        Mode::Stdio => serve::stdio_handler(server).await,
        Mode::Http(addr) => serve::http_server(server, addr).await,
        Mode::HttpAuthorized(..) => {
            Err("this example serves without authorization; see `invoices`".into())
        }
        Mode::Demo => Err("the conformance server has no demo".into()),
    }
}
