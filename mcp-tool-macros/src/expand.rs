//! Generates the tool declaration beside the user's function.
//!
//! For `fn get_invoice`, a braced struct `get_invoice {}` (it lives in the type namespace only,
//! so it never clashes with the function) implements the runtime's `Tool`; `get_invoice::tool()`
//! is the value users register. Every path is absolute, through `#krate::__private` where a
//! dependency is needed, and every generated local starts with `__`.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{self, Function, Output, Role};
use crate::attr::{self, Flag, Kind, ToolAttr};
use crate::ctxt::Ctxt;
use crate::valid;

pub fn mcp_tool(args: TokenStream, input: TokenStream) -> TokenStream {
    let mut cx = Ctxt::default();
    let attr = attr::parse(&mut cx, args);
    let item = match ast::parse_item(&mut cx, input) {
        Ok(item) => item,
        Err(original) => {
            let errors = cx.into_compile_errors();
            return quote!(#original #errors);
        }
    };
    let function = ast::parse_function(&mut cx, item);
    valid::check(&mut cx, &attr, &function);
    match cx.into_compile_errors() {
        Some(errors) => fallback(&attr, &function, errors),
        None => generate(&attr, &function),
    }
}

fn krate(attr: &ToolAttr) -> TokenStream {
    match &attr.krate {
        Some(path) => quote!(#path),
        None => quote!(::mcp_tool_runtime),
    }
}

/// After an error: the user's function unchanged, the errors, and a declaration whose signature
/// is right, so code that registers the tool shows no follow-on errors.
fn fallback(attr: &ToolAttr, f: &Function, errors: TokenStream) -> TokenStream {
    let item = &f.item;
    if item.sig.receiver().is_some() {
        // Inside an impl block: only associated items may follow.
        return quote!(#item #errors);
    }
    let krate = krate(attr);
    let holder = holder(f);
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

/// The struct named after the function, and its `tool()`.
fn holder(f: &Function) -> TokenStream {
    let vis = &f.item.vis;
    let ident = &f.item.sig.ident;
    let doc = format!(
        "The MCP tool declared by `#[mcp_tool]` on [`{ident}`](fn@{ident}). Register it with \
         `toolbox.register({ident}::tool())`."
    );
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #ident {}

        #[allow(dead_code)]
        impl #ident {
            /// The tool, to register in a `Toolbox`.
            #vis fn tool() -> Self {
                #ident {}
            }
        }
    }
}

fn option<T: quote::ToTokens>(value: Option<T>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

fn flag(flag: Option<Flag>) -> TokenStream {
    option(flag.map(|f| f.value))
}

fn cow(krate: &TokenStream, text: impl quote::ToTokens) -> TokenStream {
    quote!(#krate::__private::std::borrow::Cow::Borrowed(#text))
}

fn generate(attr: &ToolAttr, f: &Function) -> TokenStream {
    let krate = krate(attr);
    let item = &f.item;
    let ident = &item.sig.ident;
    let holder = holder(f);

    let name = match &attr.name {
        Some(lit) => lit.value(),
        None => {
            let name = ident.to_string();
            name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
        }
    };
    let name = cow(&krate, name);
    let title = option(attr.title.as_ref().map(|t| cow(&krate, t)));
    let description = match (&attr.description, &f.doc) {
        (Some(lit), _) => option(Some(cow(&krate, lit))),
        (None, Some(doc)) => option(Some(cow(&krate, doc))),
        (None, None) => option(None::<TokenStream>),
    };
    let annotations = option(attr.annotations.as_ref().map(|a| {
        let read_only = flag(a.read_only);
        let destructive = flag(a.destructive);
        let idempotent = flag(a.idempotent);
        let open_world = flag(a.open_world);
        quote! {
            #krate::ToolAnnotations {
                title: ::core::option::Option::None,
                read_only_hint: #read_only,
                destructive_hint: #destructive,
                idempotent_hint: #idempotent,
                open_world_hint: #open_world,
            }
        }
    }));
    let include_output_schema = flag(attr.include_output_schema);
    let include_structured_content = flag(attr.include_structured_content);
    let kind = match attr.kind() {
        Kind::Text => quote!(Text),
        Kind::Image => quote!(Image),
        Kind::Audio => quote!(Audio),
        Kind::ResourceLink => quote!(ResourceLink),
        Kind::Resource => quote!(Resource),
        Kind::Blocks => quote!(Blocks),
    };
    let mime_type = option(attr.mime_type.as_ref().map(|m| cow(&krate, m)));

    let input_schema = input_schema(&krate, f);
    let output_schema = output_schema(&krate, attr, f);
    let states: Vec<_> = f
        .params
        .iter()
        .filter_map(|p| match &p.role {
            Role::State { state } => Some(state),
            _ => None,
        })
        .collect();
    let bounds = bounds(&krate, attr, f);
    let (bindings, call_args) = bindings(f);
    let await_ = item.sig.asyncness.map(|_| quote!(.await));
    let finish = finish(&f.output);
    let user_call = quote_spanned!(Span::call_site()=> #ident(#(#call_args),*) #await_);

    quote! {
        #item

        #holder

        impl #krate::Tool for #ident #bounds {
            fn declaration(&self) -> #krate::ToolDeclaration {
                #input_schema
                #output_schema
                #krate::ToolDeclaration {
                    name: #name,
                    title: #title,
                    description: #description,
                    annotations: #annotations,
                    flags: #krate::ToolFlags {
                        include_structured_content: #include_structured_content,
                        include_output_schema: #include_output_schema,
                    },
                    content_kind: #krate::ContentKind::#kind,
                    mime_type: #mime_type,
                    input_schema: __input_schema,
                    output_schema: __output_schema,
                    state: #krate::__private::std::borrow::Cow::Owned(
                        #krate::__private::std::vec![#(#krate::StateRequirement::of::<#states>()),*]
                    ),
                }
            }

            fn call<'__a>(
                &'__a self,
                __call: #krate::ToolCall<'__a>,
            ) -> #krate::BoxFuture<'__a, #krate::ToolResult> {
                #krate::__private::std::boxed::Box::pin(async move {
                    #(#bindings)*
                    let __out = #user_call;
                    #finish
                })
            }
        }
    }
}

/// `fn __input_schema()`, built once per process.
fn input_schema(krate: &TokenStream, f: &Function) -> TokenStream {
    let build = if let Some(args) = f.params.iter().find(|p| matches!(p.role, Role::Args)) {
        let ty = &args.ty;
        quote_spanned!(ty.span()=> #krate::input_schema_of::<#ty>())
    } else {
        let params = f.params.iter().filter_map(|p| match &p.role {
            Role::Argument {
                name,
                description,
                optional,
            } => {
                let ty = &p.ty;
                let description = option(description.as_ref());
                let required = !optional;
                Some(quote_spanned! {ty.span()=>
                    __builder.param::<#ty>(#name, #description, #required);
                })
            }
            _ => None,
        });
        quote! {
            {
                let mut __builder = #krate::InputSchemaBuilder::new();
                #(#params)*
                #krate::__private::std::sync::Arc::new(__builder.finish())
            }
        }
    };
    // A closure, not a nested `fn`, so the impl's `where` clause covers it.
    quote! {
        let __input_schema: fn() -> #krate::SchemaObject = || {
            static __SCHEMA: #krate::__private::std::sync::OnceLock<#krate::SchemaObject> =
                #krate::__private::std::sync::OnceLock::new();
            __SCHEMA.get_or_init(|| #build).clone()
        };
    }
}

/// `let __output_schema = ...;`: the output type's schema, or `None` for kinds without one.
fn output_schema(krate: &TokenStream, attr: &ToolAttr, f: &Function) -> TokenStream {
    if !attr.kind().has_output_schema() {
        return quote! {
            let __output_schema: ::core::option::Option<fn() -> #krate::OutputSchema> =
                ::core::option::Option::None;
        };
    }
    let (ty, may_be_empty, span) = match f.output.schema_type() {
        Some((ty, may_be_empty)) => (quote!(#ty), may_be_empty, ty.span()),
        None => (quote!(()), false, Span::call_site()),
    };
    quote_spanned! {span=>
        let __output_schema_of: fn() -> #krate::OutputSchema =
            || #krate::output_schema::<#ty>(#may_be_empty);
        let __output_schema = ::core::option::Option::Some(__output_schema_of);
    }
}

/// The trait bounds the user's types must meet, as a `where` clause spanned at each type: an
/// unmet bound is reported once, at the user's type, and the body (which relies on the clause)
/// adds no follow-on errors.
fn bounds(krate: &TokenStream, attr: &ToolAttr, f: &Function) -> TokenStream {
    let mut predicates = Vec::new();
    for param in &f.params {
        let ty = &param.ty;
        let private = respan(quote!(#krate::__private), ty.span());
        predicates.push(match &param.role {
            Role::Argument { .. } | Role::Args => quote_spanned! {ty.span()=>
                #ty: #private::serde::de::DeserializeOwned + #private::schemars::JsonSchema
            },
            Role::State { state } => quote_spanned! {state.span()=>
                #state: ::core::any::Any + ::core::marker::Send + ::core::marker::Sync
            },
        });
    }
    if let Some((ty, _)) = f.output.schema_type() {
        let private = respan(quote!(#krate::__private), ty.span());
        predicates.push(if attr.kind().has_output_schema() {
            quote_spanned! {ty.span()=>
                #ty: #private::serde::Serialize + #private::schemars::JsonSchema + 'static
            }
        } else {
            quote_spanned!(ty.span()=> #ty: #private::serde::Serialize)
        });
    }
    if let Output::Result { err: Some(err), .. } = &f.output {
        predicates.push(quote_spanned!(err.span()=> #err: ::core::fmt::Display));
    }
    if predicates.is_empty() {
        return TokenStream::new();
    }
    quote!(where #(#predicates),*)
}

/// Gives every token the user's span, so a predicate naming our paths is still reported at the
/// user's type rather than at the attribute.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let proc_macro2::TokenTree::Group(group) = &token {
                let mut inner =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = proc_macro2::TokenTree::Group(inner);
            } else {
                token.set_span(span);
            }
            token
        })
        .collect()
}

/// One `let` per parameter, reading it from the call; and the expressions passed to the function.
fn bindings(f: &Function) -> (Vec<TokenStream>, Vec<syn::Ident>) {
    let mut lets = Vec::new();
    let mut names = Vec::new();
    for (i, param) in f.params.iter().enumerate() {
        let local = format_ident!("__arg{}", i);
        let ty = &param.ty;
        let read = match &param.role {
            Role::Argument { name, optional, .. } => {
                let required = !optional;
                quote_spanned!(ty.span()=> __call.argument::<#ty>(#name, #required))
            }
            Role::Args => quote_spanned!(ty.span()=> __call.arguments_as::<#ty>()),
            Role::State { state } => quote_spanned!(ty.span()=> __call.state::<#state>()),
        };
        lets.push(quote! {
            let #local = match #read {
                ::core::result::Result::Ok(__value) => __value,
                ::core::result::Result::Err(__error) => return __error,
            };
        });
        names.push(local);
    }
    (lets, names)
}

/// How the returned value becomes the result.
fn finish(output: &Output) -> TokenStream {
    match output {
        // `None` and `()` serialize as null, which `build_tool_result` serves as `{}`.
        Output::Unit | Output::Plain(_) | Output::Option { .. } => quote!(__call.finish(&__out)),
        Output::Result { .. } => quote! {
            match __out {
                ::core::result::Result::Ok(__value) => __call.finish(&__value),
                ::core::result::Result::Err(__error) => __call.fail(__error),
            }
        },
    }
}
