//! The invoices server: stdio by default, `--http 127.0.0.1:PORT` for Streamable HTTP,
//! `--http 127.0.0.1:PORT --issuer URL` for the same as an OAuth resource server accepting the
//! tokens that authorization server issues, `--demo` to print its `tools/list` and a call of
//! each tool.

use examples::serve::{self, Mode};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let toolbox = examples::invoices::toolbox()?;
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
