//! The plugins server (tools installed and removed while it serves): stdio by default,
//! `--http 127.0.0.1:PORT` for Streamable HTTP.

use examples::serve::{self, Mode};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let server = examples::plugins::server()?;
    match serve::mode_from_args()? {
        Mode::Stdio => serve::stdio_handler(server).await,
        Mode::Http(addr) => serve::http_handler(server, addr).await,
        Mode::HttpAuthorized(..) => {
            Err("this example serves without authorization; see `invoices`".into())
        }
        Mode::Demo => Err("the plugins server has no demo".into()),
    }
}
