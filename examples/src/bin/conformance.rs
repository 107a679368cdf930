//! The tools, prompt and resource the official MCP conformance suite calls, served over Streamable HTTP
//! (`--http 127.0.0.1:PORT`) or stdio.

use examples::serve::{self, Mode};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let server = examples::conformance::server()?;
    match serve::mode_from_args()? {
        Mode::Stdio => serve::stdio_handler(server).await,
        Mode::Http(addr) => serve::http_handler(server, addr).await,
        Mode::HttpAuthorized(..) => {
            Err("this example serves without authorization; see `invoices`".into())
        }
        Mode::Demo => Err("the conformance server has no demo".into()),
    }
}
