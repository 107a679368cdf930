//! The `#[mcp_tool]` attribute. Depend on `mcp-tool-runtime`, which re-exports it and documents
//! it; this crate is only its implementation.
//!
//! The pipeline, one file per stage: `attr.rs` and `ast.rs` parse the attribute and the function
//! into a typed model, `valid.rs` checks what involves several settings at once, `expand.rs`
//! generates; after an error, `fallback.rs` emits the user's function and a placeholder. Every
//! error is collected (`ctxt.rs`) and reported at once, in source order, beside the user's
//! function.

mod ast;
mod attr;
mod ctxt;
mod expand;
mod fallback;
mod keys;
mod meta;
mod respan;
mod symbol;
mod unraw;
mod valid;

use proc_macro::TokenStream;

/// Declares an MCP tool on a function. See the `mcp-tool-runtime` crate for the documentation.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, input: TokenStream) -> TokenStream {
    expand::mcp_tool(args.into(), input.into()).into()
}
