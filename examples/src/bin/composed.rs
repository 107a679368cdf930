//! The shop: an rmcp handler of its own (`#[tool_router]` tools, a prompt, a resource) serving
//! the invoices' `#[mcp_tool]` tools beside its own. Stdio by default, `--http 127.0.0.1:PORT`
//! for Streamable HTTP.

use examples::serve::{self, Mode};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let shop = examples::composed::server()?;
    match serve::mode_from_args()? {
        Mode::Stdio => serve::stdio_handler(shop).await,
        Mode::Http(addr) => serve::http_handler(shop, addr).await,
        Mode::HttpAuthorized(..) => {
            Err("this example serves without authorization; see `invoices`".into())
        }
        Mode::Demo => Err("the shop has no demo".into()),
    }
}
