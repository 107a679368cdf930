//! The reliability server (a fast tool and three misbehaving ones): stdio by default,
//! `--http 127.0.0.1:PORT` for Streamable HTTP.

use examples::serve::{self, Mode};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let toolbox = examples::reliability::toolbox()?;
    match serve::mode_from_args()? {
        Mode::Stdio => serve::stdio(toolbox).await,
        Mode::Http(addr) => serve::http(toolbox, addr).await,
        Mode::HttpAuthorized(..) => {
            Err("this example serves without authorization; see `invoices`".into())
        }
        Mode::Demo => Err("the reliability server has no demo".into()),
    }
}
