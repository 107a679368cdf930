//! Generates a resource declaration beside the user's function (`#[mcp_resource]`).
//!
//! For `fn invoice`, a braced struct `invoice {}` implements the runtime's `Resource`;
//! `invoice::resource()` is the value users register. The URI (or URI template) is checked
//! here, and its variables against the function's parameters.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::Type;
use syn::spanned::Spanned;

use crate::ast::{self, Function, Output, Role};
use crate::ctxt::Ctxt;
use crate::item_attr::{self, ItemAttr};
use crate::prompt::{self, Item, bindings, check_params, complete_method, holder, krate, parts};
use crate::respan::respan;
use crate::symbol::RESOURCE_KEYS;
use crate::unraw::unraw;
use crate::uri;
use crate::valid;

pub const RESOURCE: Item = Item {
    attribute: "#[mcp_resource]",
    noun: "resource",
    register: "register_resource",
};

pub fn mcp_resource(args: TokenStream, input: TokenStream) -> TokenStream {
    let mut cx = Ctxt::default();
    let attr = item_attr::parse(&mut cx, args, RESOURCE_KEYS);
    let item = match ast::parse_item(&mut cx, input) {
        Ok(item) => item,
        Err(original) => {
            let errors = cx.into_compile_errors();
            return quote!(#original #errors);
        }
    };
    let f = ast::parse_function(&mut cx, item);
    valid::check_form(&mut cx, &f, RESOURCE.attribute);
    check_params(&mut cx, &f, RESOURCE);
    check_uri(&mut cx, &attr, &f);
    let krate = krate(&attr);
    let ident = &f.item.sig.ident;
    if let Some(errors) = cx.into_compile_errors() {
        let body = quote! {
            impl #krate::resource::Resource for #ident {
                fn declaration(&self) -> #krate::resource::ResourceDeclaration {
                    ::core::unimplemented!()
                }
                fn read<'__a>(
                    &'__a self,
                    _: #krate::resource::ResourceRead<'__a>,
                ) -> #krate::BoxFuture<'__a, ::core::result::Result<#krate::__private::std::vec::Vec<#krate::ResourceContents>, #krate::ProtocolError>> {
                    ::core::unimplemented!()
                }
            }
        };
        return prompt::fallback(&f, RESOURCE, errors, body);
    }
    generate(&krate, &attr, &f)
}

/// The URI is required and well formed; its variables are the function's arguments, each
/// once; a template has no size; a template variable has no description.
fn check_uri(cx: &mut Ctxt, attr: &ItemAttr, f: &Function) {
    let Some(uri) = &attr.uri else {
        cx.error_at(
            Span::call_site(),
            "#[mcp_resource] needs the resource's URI or URI template: `#[mcp_resource(uri = \"invoices://{number}\")]`",
        );
        return;
    };
    let variables = match uri::variables(&uri.value()) {
        Ok(variables) => variables,
        Err(problem) => {
            cx.error_spanned_by(uri, problem);
            return;
        }
    };
    let arguments: Vec<(&String, &crate::ast::Param)> = f
        .params
        .iter()
        .filter_map(|p| match &p.role {
            Role::Argument { name, .. } => Some((name, p)),
            _ => None,
        })
        .collect();
    for variable in &variables {
        if !arguments.iter().any(|(name, _)| *name == variable) {
            cx.error_spanned_by(
                uri,
                format!(
                    "the template's variable `{{{variable}}}` is no parameter of the function; add `{variable}: String` (or another type it parses into)"
                ),
            );
        }
    }
    for (name, param) in &arguments {
        if !variables.contains(name) {
            let hint = if variables.is_empty() {
                format!(
                    "this URI has no variables; make it a template (`{}/{{{name}}}`), or mark the parameter `#[state]`",
                    uri.value()
                )
            } else {
                format!("name it in the template as `{{{name}}}`, or mark it `#[state]`")
            };
            cx.error_spanned_by(
                &param.ident,
                format!("`{name}` is not a variable of the URI template; {hint}"),
            );
        }
        if let Role::Argument {
            description: Some(description),
            ..
        } = &param.role
        {
            cx.error_spanned_by(
                description,
                "a URI template's variables have no descriptions in MCP; describe them in the resource's doc comment",
            );
        }
    }
    if let Some(view) = &attr.view
        && !uri.value().starts_with("ui://")
    {
        cx.error_at(
            view.span.unwrap_or_else(Span::call_site),
            format!(
                "`ui(...)` sets an MCP Apps view's sandbox, and a view is a `ui://` resource; `{}` is not one",
                uri.value()
            ),
        );
    }
    if let (Some(_), false) = (attr.size, variables.is_empty()) {
        cx.error_at(
            Span::call_site(),
            "`size` is for a resource at one URI; a template's reads differ in size, so remove `size`",
        );
    }
}

/// Splits the return type syntactically into its `Result` error, its `Option`, and the type of
/// the contents.
fn layers(output: &Output) -> (Option<Option<&Type>>, bool, Option<&Type>) {
    let (error, ok) = match output {
        Output::Unit => return (None, false, None),
        Output::Plain(ty) => (None, ty),
        Output::Result { ok, err } => (Some(err.as_ref()), &**ok),
    };
    match option_inner(ok) {
        Some(inner) => (error, true, Some(inner)),
        None => (error, false, Some(ok)),
    }
}

fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        syn::GenericArgument::Type(inner) => Some(inner),
        _ => None,
    }
}

fn generate(krate: &TokenStream, attr: &ItemAttr, f: &Function) -> TokenStream {
    let function = &f.item;
    let ident = &function.sig.ident;
    let holder = holder(f, RESOURCE);
    let parts = parts(krate, attr, f);
    let uri = attr.uri.as_ref().expect("checked");
    let name = match &attr.name {
        Some(lit) => lit.value(),
        None => unraw(ident),
    };
    let option = |value: Option<TokenStream>| match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    };
    // A view is HTML for an MCP App unless it says otherwise.
    let mime_type = match &attr.mime_type {
        Some(m) => option(Some(quote!(#m))),
        None if uri.value().starts_with("ui://") => {
            option(Some(quote!(#krate::apps::VIEW_MIME_TYPE)))
        }
        None => option(None),
    };
    let view = attr.view.as_ref().map(|view| {
        let [connect, resources, frames, bases] = &view.domains;
        let permissions = view.permissions;
        let border = option(view.prefers_border.map(|b| quote!(#b)));
        let domain = option(view.domain.as_ref().map(|d| quote!(#d)));
        quote! {
            let __declaration = __declaration.view(&#krate::__private::view_settings(
                &[#(#connect),*],
                &[#(#resources),*],
                &[#(#frames),*],
                &[#(#bases),*],
                [#(#permissions),*],
                #border,
                #domain,
            ));
        }
    });
    let size = option(attr.size.map(|s| quote!(#s)));
    let annotations = option(attr.annotations.as_ref().map(|a| {
        let audience = option(
            a.audience
                .as_ref()
                .map(|who| quote!(#krate::__private::std::vec![#(#who),*])),
        );
        let priority = option(a.priority.map(|p| quote!(#p)));
        let last_modified = option(a.last_modified.as_ref().map(|l| quote!(#l)));
        quote!(#krate::__private::resource_annotations(#audience, #priority, #last_modified))
    }));
    let variables = f.params.iter().filter_map(|p| match &p.role {
        Role::Argument { name, .. } => {
            let ty = &p.ty;
            let private = respan(quote!(#krate::__private), ty.span());
            Some(quote_spanned!(ty.span()=> #private::template_variable::<#ty>(#name)))
        }
        _ => None,
    });
    let source = format_ident!("__read");
    let (lets, call_args) = bindings(krate, f, &source, ("resource_var", "resource_state"));
    let await_ = function.sig.asyncness.map(|_| quote!(.await));
    let user_call = quote_spanned!(Span::call_site()=> #ident(#(#call_args),*) #await_);
    let (error, optional, contents) = layers(&f.output);
    let unwrap_result = error.map(|err| {
        let span = err.map_or(Span::call_site(), Spanned::span);
        let private = respan(quote!(#krate::__private), span);
        quote_spanned! {span=>
            let __out = match __out {
                ::core::result::Result::Ok(__value) => __value,
                ::core::result::Result::Err(__error) => {
                    return ::core::result::Result::Err(#private::resource_error(__error));
                }
            };
        }
    });
    let unwrap_option = optional.then(|| {
        quote! {
            let __out = match __out {
                ::core::option::Option::Some(__value) => __value,
                ::core::option::Option::None => {
                    return ::core::result::Result::Err(#krate::__private::not_found(#source.uri));
                }
            };
        }
    });
    let contents = match contents {
        Some(ty) => {
            let private = respan(quote!(#krate::__private), ty.span());
            quote_spanned! {ty.span()=>
                {
                    // Only one of the two is used, which one depends on the type.
                    #[allow(unused_imports)]
                    use #private::{ContentsJson as _, ContentsKnown as _};
                    (&&#private::ContentsProbe::<#ty>::new()).contents(__out, #source.uri, #mime_type)
                }
            }
        }
        None => quote_spanned! {Span::call_site()=>
            ::core::compile_error!("a resource returns its contents")
        },
    };
    let complete = complete_method(krate, f);
    quote! {
        #function

        #holder

        impl #krate::resource::Resource for #ident {
            fn declaration(&self) -> #krate::resource::ResourceDeclaration {
                let __declaration = #krate::__private::resource_declaration(
                    #uri,
                    #name,
                    #parts,
                    #mime_type,
                    #size,
                    #annotations,
                    #krate::__private::std::vec![#(#variables),*],
                );
                #view
                __declaration
            }

            fn read<'__a>(
                &'__a self,
                #source: #krate::resource::ResourceRead<'__a>,
            ) -> #krate::BoxFuture<'__a, ::core::result::Result<#krate::__private::std::vec::Vec<#krate::ResourceContents>, #krate::ProtocolError>> {
                #krate::__private::std::boxed::Box::pin(async move {
                    #(#lets)*
                    let __out = #user_call;
                    #unwrap_result
                    #unwrap_option
                    #contents
                })
            }

            #complete
        }
    }
}
