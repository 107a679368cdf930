//! The invoices server: stdio by default, `--http 127.0.0.1:PORT` for Streamable HTTP,
//! `--http 127.0.0.1:PORT --issuer URL` for the same as an OAuth resource server accepting the
//! tokens that authorization server issues, `--demo` to print its `tools/list` and a call of
//! each tool. With `INVOICES_SCHEMA=strict` in its environment, it serves the strict schema
//! profile (`SchemaProfile::Strict`).

use examples::serve::{self, Mode};
use mcp_tool_runtime::{SchemaProfile, ServerDefaults};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut defaults = ServerDefaults::default();
    if std::env::var("INVOICES_SCHEMA").as_deref() == Ok("strict") {
        defaults.schema_profile = SchemaProfile::Strict;
    }
    let toolbox = examples::invoices::toolbox_with(defaults)?;
    match serve::mode_from_args()? {
        Mode::Stdio => serve::stdio(toolbox).await,
        Mode::Http(addr) => serve::http(toolbox, addr).await,
        Mode::HttpAuthorized(addr, issuer) => serve::http_authorized(toolbox, addr, issuer).await,
        Mode::Demo => {
            print!("{}", examples::demo::transcript().await?);
            Ok(())
        }
    }
}
