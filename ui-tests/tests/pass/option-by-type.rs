//! `Option` is decided by the type, not its spelling: aliases, full paths and re-exports of
//! `Option` take `allow_none` like `Option<T>` does.
use mcp_tool_runtime::{Toolbox, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;

#[derive(Serialize, JsonSchema)]
pub struct Invoice {
    number: String,
}

type MaybeInvoice = Option<Invoice>;

mod reexport {
    pub use std::option::Option as Maybe;
}

#[mcp_tool(allow_none)]
fn alias() -> MaybeInvoice { None }

#[mcp_tool(allow_none)]
fn fully_qualified() -> std::option::Option<Invoice> { None }

#[mcp_tool(allow_none)]
fn core_path() -> ::core::option::Option<u8> { None }

#[mcp_tool(allow_none)]
fn reexported() -> reexport::Maybe<Invoice> { None }

#[mcp_tool(allow_none)]
fn result_of_alias() -> Result<MaybeInvoice, String> { Ok(None) }

#[mcp_tool(include_output_schema = false)]
fn alias_without_schema() -> MaybeInvoice { None }

fn main() {
    let mut toolbox = Toolbox::new();
    toolbox.register(alias::tool()).unwrap();
    toolbox.register(fully_qualified::tool()).unwrap();
    toolbox.register(core_path::tool()).unwrap();
    toolbox.register(reexported::tool()).unwrap();
    toolbox.register(result_of_alias::tool()).unwrap();
    toolbox.register(alias_without_schema::tool()).unwrap();
}
