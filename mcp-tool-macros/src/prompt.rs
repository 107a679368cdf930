//! Generates a prompt declaration beside the user's function (`#[mcp_prompt]`), and, through
//! `catalog_item`, a resource's (`#[mcp_resource]`): the parts both share.
//!
//! For `fn review`, a braced struct `review {}` implements the runtime's `Prompt`;
//! `review::prompt()` is the value users register.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{self, Function, Role};
use crate::ctxt::Ctxt;
pub use crate::holder::{Item, holder};
use crate::item_attr::{self, ItemAttr};
use crate::respan::respan;
use crate::symbol::PROMPT_KEYS;
use crate::unraw::unraw;
use crate::valid;

pub const PROMPT: Item = Item {
    attribute: "#[mcp_prompt]",
    noun: "prompt",
    register: "register_prompt",
};

pub fn krate(attr: &ItemAttr) -> TokenStream {
    match &attr.krate {
        Some(path) => quote!(#path),
        None => quote!(::mcp_tool_runtime),
    }
}

fn option<T: quote::ToTokens>(value: Option<T>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// The parts every declaration has: title, description (the doc comment unless written), icons,
/// `_meta`, the state needed.
pub fn parts(krate: &TokenStream, attr: &ItemAttr, f: &Function) -> TokenStream {
    let title = option(attr.title.as_ref());
    let description = match (&attr.description, &f.doc) {
        (Some(lit), _) => option(Some(quote!(#lit))),
        (None, Some(doc)) => option(Some(quote!(#doc))),
        (None, None) => option(None::<TokenStream>),
    };
    let icons = &attr.icons;
    let meta_keys = attr.meta.iter().map(|(key, _)| key);
    let meta_values = attr.meta.iter().map(|(_, value)| value);
    let states = f.params.iter().filter_map(|p| match &p.role {
        Role::State { state } => Some(state),
        _ => None,
    });
    quote! {
        #krate::__private::Parts {
            title: #title,
            description: #description,
            icons: #krate::__private::std::vec![#(#icons),*],
            meta: #krate::__private::std::vec![
                #((#meta_keys, #krate::__private::serde_json::Value::from(#meta_values))),*
            ],
            state: #krate::__private::std::vec![
                #(#krate::__private::state_requirement::<#states>()),*
            ],
        }
    }
}

/// Checks what a prompt's or resource's parameters cannot be: an `#[args]` struct, a header.
pub fn check_params(cx: &mut Ctxt, f: &Function, item: Item) {
    let mut names = std::collections::HashSet::new();
    for param in &f.params {
        match &param.role {
            Role::Args => cx.error_spanned_by(
                &param.ident,
                format!(
                    "a {}'s arguments arrive one by one, as strings: take each as its own parameter instead of an `#[args]` struct",
                    item.noun
                ),
            ),
            Role::Argument { name, header, .. } => {
                if let Some(header) = header {
                    cx.error_spanned_by(
                        header,
                        format!("a {} has no header arguments (SEP-2243 is for tools); remove `header`", item.noun),
                    );
                }
                if !names.insert(name.clone()) {
                    cx.error_spanned_by(
                        &param.ident,
                        format!("two arguments are named `{name}`; give one a `#[arg(rename = \"...\")]`"),
                    );
                }
            }
            _ => {}
        }
    }
}

/// One `let` per parameter, read by `read_argument` / `read_state` from the request value
/// `source`, and the names passed to the function.
pub fn bindings(
    krate: &TokenStream,
    f: &Function,
    source: &syn::Ident,
    (read_argument, read_state): (&str, &str),
) -> (Vec<TokenStream>, Vec<syn::Ident>) {
    let read_argument = format_ident!("{}", read_argument);
    let read_state = format_ident!("{}", read_state);
    let mut lets = Vec::new();
    let mut names = Vec::new();
    for (i, param) in f.params.iter().enumerate() {
        let local = format_ident!("__arg{}", i);
        let ty = &param.ty;
        let private = respan(quote!(#krate::__private), ty.span());
        let read = match &param.role {
            Role::Argument { name, .. } => {
                quote_spanned!(ty.span()=> #private::#read_argument::<#ty>(&#source, #name))
            }
            Role::State { state } => {
                quote_spanned!(ty.span()=> #private::#read_state::<#state>(&#source))
            }
            Role::Context => {
                quote_spanned!(ty.span()=> #private::request_context::<#ty>(&#source.context))
            }
            Role::Args => quote!(::core::unreachable!()),
        };
        lets.push(quote! {
            let #local = match #read {
                ::core::result::Result::Ok(__value) => __value,
                ::core::result::Result::Err(__error) => return ::core::result::Result::Err(__error),
            };
        });
        names.push(local);
    }
    (lets, names)
}

/// The `complete` method: each argument with `#[arg(complete = path)]` answered by its function.
pub fn complete_method(krate: &TokenStream, f: &Function) -> TokenStream {
    let arms: Vec<TokenStream> = f
        .params
        .iter()
        .filter_map(|p| match &p.role {
            Role::Argument {
                name,
                complete: Some(path),
                ..
            } => Some(quote_spanned! {path.span()=>
                #name => ::core::option::Option::Some(
                    #krate::__private::completions(#path(__complete)).await
                ),
            }),
            _ => None,
        })
        .collect();
    if arms.is_empty() {
        return TokenStream::new();
    }
    quote! {
        fn complete<'__a>(
            &'__a self,
            __complete: &'__a #krate::completion::Complete<'__a>,
        ) -> #krate::BoxFuture<'__a, ::core::option::Option<#krate::__private::std::vec::Vec<#krate::__private::std::string::String>>> {
            #krate::__private::std::boxed::Box::pin(async move {
                match __complete.argument {
                    #(#arms)*
                    _ => ::core::option::Option::None,
                }
            })
        }
    }
}

/// After an error: the function, the errors, and an implementation of the trait whose methods
/// are never called, so code that registers the item shows no follow-on errors.
pub fn fallback(f: &Function, item: Item, errors: TokenStream, body: TokenStream) -> TokenStream {
    let function = &f.item;
    if function.sig.receiver().is_some() {
        return quote!(#function #errors);
    }
    let holder = holder(f, item);
    quote! {
        #function
        #errors
        #holder
        #body
    }
}

pub fn mcp_prompt(args: TokenStream, input: TokenStream) -> TokenStream {
    let mut cx = Ctxt::default();
    let attr = item_attr::parse(&mut cx, args, PROMPT_KEYS);
    let item = match ast::parse_item(&mut cx, input) {
        Ok(item) => item,
        Err(original) => {
            let errors = cx.into_compile_errors();
            return quote!(#original #errors);
        }
    };
    let f = ast::parse_function(&mut cx, item);
    valid::check_form(&mut cx, &f, PROMPT.attribute);
    check_params(&mut cx, &f, PROMPT);
    let (name, span) = match &attr.name {
        Some(lit) => (lit.value(), lit.span()),
        None => (unraw(&f.item.sig.ident), f.item.sig.ident.span()),
    };
    valid::check_name_at(&mut cx, "prompt", &name, span);
    let krate = krate(&attr);
    let ident = &f.item.sig.ident;
    if let Some(errors) = cx.into_compile_errors() {
        let body = quote! {
            impl #krate::prompt::Prompt for #ident {
                fn declaration(&self) -> #krate::prompt::PromptDeclaration {
                    ::core::unimplemented!()
                }
                fn get<'__a>(
                    &'__a self,
                    _: #krate::prompt::PromptGet<'__a>,
                ) -> #krate::BoxFuture<'__a, ::core::result::Result<#krate::prompt::PromptResult, #krate::ProtocolError>> {
                    ::core::unimplemented!()
                }
            }
        };
        return fallback(&f, PROMPT, errors, body);
    }
    generate_prompt(&krate, &attr, &f, &name)
}

fn generate_prompt(krate: &TokenStream, attr: &ItemAttr, f: &Function, name: &str) -> TokenStream {
    let function = &f.item;
    let ident = &function.sig.ident;
    let holder = holder(f, PROMPT);
    let parts = parts(krate, attr, f);
    let arguments = f.params.iter().filter_map(|p| match &p.role {
        Role::Argument {
            name, description, ..
        } => {
            let ty = &p.ty;
            let description = option(description.as_ref());
            let private = respan(quote!(#krate::__private), ty.span());
            Some(quote_spanned!(ty.span()=> #private::prompt_argument::<#ty>(#name, #description)))
        }
        _ => None,
    });
    let source = format_ident!("__get");
    let (lets, call_args) = bindings(krate, f, &source, ("prompt_arg", "prompt_state"));
    let await_ = function.sig.asyncness.map(|_| quote!(.await));
    let user_call = quote_spanned!(Span::call_site()=> #ident(#(#call_args),*) #await_);
    let out_span = match &function.sig.output {
        syn::ReturnType::Type(_, ty) => ty.span(),
        syn::ReturnType::Default => Span::call_site(),
    };
    let private = respan(quote!(#krate::__private), out_span);
    let finish = quote_spanned!(out_span=> #private::prompt_result(__out));
    let complete = complete_method(krate, f);
    quote! {
        #function

        #holder

        impl #krate::prompt::Prompt for #ident {
            fn declaration(&self) -> #krate::prompt::PromptDeclaration {
                #krate::__private::prompt_declaration(
                    #name,
                    #parts,
                    #krate::__private::std::vec![#(#arguments),*],
                )
            }

            fn get<'__a>(
                &'__a self,
                #source: #krate::prompt::PromptGet<'__a>,
            ) -> #krate::BoxFuture<'__a, ::core::result::Result<#krate::prompt::PromptResult, #krate::ProtocolError>> {
                #krate::__private::std::boxed::Box::pin(async move {
                    #(#lets)*
                    let __out = #user_call;
                    #finish
                })
            }

            #complete
        }
    }
}
