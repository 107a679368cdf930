//! The `#[mcp_tool]`, `#[mcp_prompt]` and `#[mcp_resource]` attributes. Depend on
//! `mcp-tool-runtime`, which re-exports them and documents them; this crate is only their
//! implementation.
//!
//! The pipeline, one file per stage: `attr.rs` and `ast.rs` parse the attribute and the function
//! into a typed model, `valid.rs` checks what involves several settings at once, `expand.rs`
//! generates; after an error, `fallback.rs` emits the user's function and a placeholder. Every
//! error is collected (`ctxt.rs`) and reported at once, in source order, beside the user's
//! function. `prompt.rs` and `resource.rs` generate the other two from the same model
//! (`item_attr.rs` parses their attributes, `uri.rs` checks a resource's URI template).
//! `holder.rs` declares the struct all three hang on; `template.rs` writes the fixed part of a
//! tool's code as text the compiler parses, which costs a build less than `quote!`'s tokens.

mod ast;
mod attr;
mod ctxt;
mod expand;
mod fallback;
mod holder;
mod item_attr;
mod keys;
mod meta;
mod prompt;
mod resource;
mod respan;
mod symbol;
mod template;
mod unraw;
mod uri;
mod valid;

use proc_macro::TokenStream;

/// Declares an MCP tool on a function. See the `mcp-tool-runtime` crate for the documentation.
#[proc_macro_attribute]
pub fn mcp_tool(args: TokenStream, input: TokenStream) -> TokenStream {
    expand::mcp_tool(args.into(), input.into()).into()
}

/// Declares an MCP prompt on a function. See the `mcp-tool-runtime` crate for the documentation.
#[proc_macro_attribute]
pub fn mcp_prompt(args: TokenStream, input: TokenStream) -> TokenStream {
    prompt::mcp_prompt(args.into(), input.into()).into()
}

/// Declares an MCP resource or resource template on a function. See the `mcp-tool-runtime`
/// crate for the documentation.
#[proc_macro_attribute]
pub fn mcp_resource(args: TokenStream, input: TokenStream) -> TokenStream {
    resource::mcp_resource(args.into(), input.into()).into()
}
