//! The tools the official MCP conformance suite calls, served over Streamable HTTP
//! (`--http 127.0.0.1:PORT`) or stdio.

use examples::serve::{self, Mode};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let toolbox = examples::conformance::toolbox()?;
    match serve::mode_from_args()? {
        Mode::Stdio => serve::stdio(toolbox).await,
        Mode::Http(addr) => serve::http(toolbox, addr).await,
        Mode::Demo => Err("the conformance server has no demo".into()),
    }
}
