//! The struct a declaration hangs on: named after the function, declared in a module of its own,
//! and its constructor (`add::tool()`, `review::prompt()`, `readme::resource()`).
//!
//! A braced struct lives in the type namespace only, so it never clashes with the function. It is
//! declared in a hidden module and brought back with `use`, because rustc puts a type's methods
//! in the codegen unit of the module the type is declared in: each declaration's generated code
//! is compiled apart from the user's functions and from the others', and editing one function
//! recompiles that function's module, not every declaration beside it (a rebuild of 100 tools
//! after a one-line edit counted 1.31x the instructions of the same functions without the macro
//! before, 1.22x after; `scripts/build-cost.sh`).

use proc_macro2::TokenStream;
use quote::ToTokens;

use crate::ast::Function;
use crate::template::text;
use crate::unraw::unraw;

/// What kind of item is declared: the words its code and messages use.
#[derive(Clone, Copy)]
pub struct Item {
    /// `#[mcp_tool]`.
    pub attribute: &'static str,
    /// `tool`: also the constructor's name.
    pub noun: &'static str,
    /// `register`: the `Toolbox` method that takes it.
    pub register: &'static str,
}

pub const TOOL: Item = Item {
    attribute: "#[mcp_tool]",
    noun: "tool",
    register: "register",
};

/// The struct named after the function, in its own module, and its constructor.
pub fn holder(f: &Function, item: Item) -> TokenStream {
    text(&holder_text(f, item))
}

/// [`holder`] as template text, for a template that holds more.
pub fn holder_text(f: &Function, item: Item) -> String {
    let Item {
        attribute,
        noun,
        register,
    } = item;
    let ident = &f.item.sig.ident;
    let doc = format!(
        "The MCP {noun} declared by `{attribute}` on [`{ident}`](fn@super::{ident}). Register it \
         with `toolbox.{register}({ident}::{noun}())`."
    );
    let constructor_doc = format!("The {noun}, to register in a `Toolbox`.");
    let module = format!("__mcp_{}", unraw(ident));
    let vis = f.item.vis.to_token_stream();
    // All of it text (see `template`): the struct's name takes the call site's span, so a clash
    // with another item of that name is reported at the attribute.
    format!(
        "#[doc(hidden)] \
        #[allow(non_snake_case, non_camel_case_types, dead_code, unreachable_pub)] \
        mod {module} {{ \
            #[doc = {doc:?}] \
            pub struct {ident} {{}} \
        }} \
        {vis} use {module}::{ident}; \
        impl {ident} {{ \
            #[doc = {constructor_doc:?}] \
            {vis} fn {noun}() -> Self {{ \
                {ident} {{}} \
            }} \
        }}"
    )
}
