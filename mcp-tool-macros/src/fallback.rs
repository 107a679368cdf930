//! What the macro emits after an error: the user's function unchanged, the errors, and a tool
//! declaration whose signature is right, so code that registers the tool shows no follow-on
//! errors and IDEs keep working (as tokio-macros and thiserror do).

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::Function;
use crate::attr::ToolAttr;
use crate::expand::krate;
use crate::holder::{TOOL, holder};

pub fn fallback(attr: &ToolAttr, f: &Function, errors: TokenStream) -> TokenStream {
    let item = &f.item;
    if item.sig.receiver().is_some() {
        // Inside an impl block: only associated items may follow.
        return quote!(#item #errors);
    }
    let krate = krate(attr);
    let holder = holder(f, TOOL);
    let ident = &item.sig.ident;
    quote! {
        #item
        #errors
        #holder
        impl #krate::Tool for #ident {
            fn declaration(&self) -> #krate::ToolDeclaration {
                ::core::unimplemented!()
            }
            fn call<'__a>(
                &'__a self,
                _: #krate::ToolCall<'__a>,
            ) -> #krate::BoxFuture<'__a, #krate::ToolResult> {
                ::core::unimplemented!()
            }
        }
    }
}
