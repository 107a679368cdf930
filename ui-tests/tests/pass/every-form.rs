//! Every supported form of #[mcp_tool] compiles.
use mcp_tool_runtime::{Content, ResourceContents, ResourceLink, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, JsonSchema)]
pub struct Invoice {
    number: String,
}

#[derive(Deserialize, JsonSchema)]
pub struct Query {
    text: String,
}

pub struct Db;

#[mcp_tool]
fn sync_plain(a: i64) -> i64 { a }

#[mcp_tool]
async fn async_plain(a: String) -> Invoice { Invoice { number: a } }

#[mcp_tool]
pub fn public_unit() {}

#[mcp_tool]
pub(crate) fn crate_visible() -> () {}

#[mcp_tool(allow_none)]
fn option(a: Option<String>) -> Option<Invoice> { a.map(|number| Invoice { number }) }

#[mcp_tool(include_output_schema = false)]
fn option_without_schema() -> Option<u8> { None }

#[mcp_tool(allow_none = false, include_output_schema = false)]
fn option_explicitly_without_none() -> Option<u8> { None }

#[mcp_tool]
fn result(a: u8) -> Result<u8, String> { Ok(a) }

#[mcp_tool]
fn io_result() -> std::io::Result<Vec<Invoice>> { Ok(vec![]) }

#[mcp_tool(allow_none)]
async fn result_option() -> Result<Option<Invoice>, std::fmt::Error> { Ok(None) }

#[mcp_tool]
fn list() -> Vec<Invoice> { vec![] }

#[mcp_tool]
fn args_struct(#[args] query: Query) -> String { query.text }

#[mcp_tool]
async fn with_state(#[state] _db: &Db, #[arg(rename = "q", description = "What to find.")] query: String) -> String { query }

#[mcp_tool(content = image, mime_type = "image/png")]
fn image() -> Vec<u8> { vec![] }

#[mcp_tool(content = audio, mime_type = "audio/wav", include_output_schema = false)]
fn audio() -> String { String::new() }

#[mcp_tool(content = resource_link)]
fn links() -> Vec<ResourceLink> { vec![] }

#[mcp_tool(content = resource)]
fn resource() -> ResourceContents { ResourceContents::text("memo://1", "x") }

#[mcp_tool(content = blocks)]
fn blocks() -> Vec<Content> { vec![Content::text("x")] }

#[mcp_tool(
    name = "full.declaration-1",
    title = "Full",
    description = "Every key.",
    include_output_schema = true,
    include_structured_content = true,
    annotations(read_only, destructive = false, idempotent = true, open_world = false)
)]
fn full() -> u8 { 0 }

#[mcp_tool(include_structured_content, include_output_schema = false)]
fn structured_without_schema() -> u8 { 0 }

#[mcp_tool(include_structured_content = false, include_output_schema = false)]
fn text_only() -> u8 { 0 }

fn main() {
    fn declared() {
        // A tool declared inside a function body.
        #[mcp_tool]
        fn local(a: u8) -> u8 { a }
        let _ = local::tool();
        let _ = local(1);
    }
    declared();
    let _ = (sync_plain::tool(), async_plain::tool(), public_unit::tool(), full::tool());
}
