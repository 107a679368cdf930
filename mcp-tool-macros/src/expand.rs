//! Generates the tool declaration beside the user's function.
//!
//! For `fn get_invoice`, a braced struct `get_invoice {}` (it lives in the type namespace only,
//! so it never clashes with the function) implements the runtime's `Tool`; `get_invoice::tool()`
//! is the value users register (`holder.rs`). Every path is absolute, through `#krate::__private`
//! where a dependency is needed, and every generated local starts with `__`. The fixed code is a
//! `template::Template`; the user's types are spliced into it as tokens, with their spans.

use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream};
use quote::{ToTokens, TokenStreamExt, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::ast::{self, Function, Output, Role};
use crate::attr::{self, Flag, Kind, ToolAttr};
use crate::ctxt::Ctxt;
use crate::fallback::fallback;
use crate::holder::{TOOL, holder_text};
use crate::respan::respan;
use crate::template::Template;
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

/// The runtime's path: `::mcp_tool_runtime`, or the one a `crate = ...` attribute gives.
#[derive(Clone, Copy)]
pub struct Krate<'a>(Option<&'a syn::Path>);

pub fn krate(attr: &ToolAttr) -> Krate<'_> {
    Krate(attr.krate.as_ref())
}

impl Krate<'_> {
    /// `krate::__private`, every token spanned at `span`, so an unmet bound on a runtime path is
    /// reported at the user's type rather than at the attribute.
    fn private_at(self, span: Span) -> TokenStream {
        match self.0 {
            None => quote_spanned!(span=> ::mcp_tool_runtime::__private),
            Some(path) => respan(quote!(#path::__private), span),
        }
    }

    /// The path as template text, when it is not the one templates spell (`template::RUNTIME`).
    fn runtime(self) -> Option<String> {
        self.0.map(|path| quote!(#path).to_string())
    }
}

impl ToTokens for Krate<'_> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self.0 {
            Some(path) => path.to_tokens(tokens),
            None => {
                tokens.append(Punct::new(':', Spacing::Joint));
                tokens.append(Punct::new(':', Spacing::Alone));
                tokens.append(Ident::new("mcp_tool_runtime", Span::call_site()));
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

fn cow(krate: Krate<'_>, text: impl quote::ToTokens) -> TokenStream {
    quote!(#krate::__private::std::borrow::Cow::Borrowed(#text))
}

fn generate(attr: &ToolAttr, f: &Function) -> TokenStream {
    let krate = krate(attr);
    let item = &f.item;
    let ident = &item.sig.ident;
    let declaration = declaration(krate, attr, f);
    let option_check = option_check(krate, attr, f);
    let result_check = result_check(krate, f);
    let is_async = item.sig.asyncness.is_some();
    let reads = reads(krate, f);
    let finish = finish(krate, attr.kind(), &f.output, attr.text.as_ref());

    let mut code = Template::new(krate.runtime());
    code.hole(item).text(&holder_text(f, TOOL));
    // Each line of a template ends in `\`, which drops the next line's indentation from the
    // text: the template's every byte is scanned in a debug-built macro.
    code.text("impl ::mcp_tool_runtime::Tool for ")
        .hole(ident)
        .text(
            " { \
            fn declaration(&self) -> ::mcp_tool_runtime::ToolDeclaration {",
        );
    // The probes are in a block that never runs: rustc checks them as any code, and compiles no
    // function of theirs for each tool (a never-called closure did the same, and counted 11 M
    // instructions more for 100 tools, clean and on the rebuild: `scripts/build-cost.sh`).
    if !option_check.is_empty() || !result_check.is_empty() {
        code.text("if false {")
            .hole(&option_check)
            .hole(&result_check)
            .text("}");
    }
    code.hole(&declaration);
    code.text(
        "} \
        fn call<'__a>( \
            &'__a self, \
            __call: ::mcp_tool_runtime::ToolCall<'__a>, \
        ) -> ::mcp_tool_runtime::BoxFuture<'__a, ::mcp_tool_runtime::ToolResult> {",
    );
    // A synchronous tool's body is one labeled block, not a future of its own: every such tool
    // shares the one `Ready<ToolResult>` future type instead of compiling a state machine each.
    // It is labeled only where a read can break out of it: an unused label is a warning.
    let (open, bail) = match (is_async, reads.is_empty()) {
        (true, _) => (
            "::mcp_tool_runtime::__private::std::boxed::Box::pin(async move {",
            "return __error",
        ),
        (false, true) => ("::mcp_tool_runtime::__private::ready({", ""),
        (false, false) => (
            "::mcp_tool_runtime::__private::ready('__call: {",
            "break '__call __error",
        ),
    };
    code.text(open);
    // One `let` per parameter, reading it from the call.
    for (i, read) in reads.iter().enumerate() {
        code.text(&format!("let __arg{i} = match "))
            .hole(read)
            .text(&format!(
                "{{ \
                ::core::result::Result::Ok(__value) => __value, \
                ::core::result::Result::Err(__error) => {bail}, \
            }};"
            ));
    }
    let args: Vec<_> = (0..reads.len()).map(|i| format!("__arg{i}")).collect();
    let await_ = if is_async { ".await" } else { "" };
    code.text("let __out = ").hole(ident);
    code.text(&format!("({}){await_};", args.join(", ")))
        .hole(&finish);
    code.text("}) } }");
    code.finish()
}

/// The `ToolDeclaration`: everything known before a call. The runtime makes it from the four
/// things every tool has; only the keys a tool sets are written after, each one assignment: a
/// tool costs its own keys to compile, not the whole struct.
fn declaration(krate: Krate<'_>, attr: &ToolAttr, f: &Function) -> TokenStream {
    let (name, _) = attr.tool_name(&f.item.sig.ident);
    let input_schema = input_schema(krate, f);
    let output_schema = output_schema(krate, attr, f);
    let mut set = Vec::new();
    let mut assign = |field: &str, value: TokenStream| {
        let field = format_ident!("{}", field);
        set.push(quote!(__declaration.#field = #value;));
    };
    if let Some(title) = &attr.title {
        assign("title", option(Some(cow(krate, title))));
    }
    if let Some(a) = &attr.annotations {
        let read_only = flag(a.read_only);
        let destructive = flag(a.destructive);
        let idempotent = flag(a.idempotent);
        let open_world = flag(a.open_world);
        assign(
            "annotations",
            option(Some(quote! {
                #krate::ToolAnnotations {
                    title: ::core::option::Option::None,
                    read_only_hint: #read_only,
                    destructive_hint: #destructive,
                    idempotent_hint: #idempotent,
                    open_world_hint: #open_world,
                }
            })),
        );
    }
    if !attr.icons.is_empty() {
        let icons = &attr.icons;
        assign(
            "icons",
            quote!(#krate::__private::std::vec![#(#krate::tool::Icon::new(#icons)),*]),
        );
    }
    if !attr.meta.is_empty() {
        let meta_keys = attr.meta.iter().map(|(key, _)| key);
        let meta_values = attr.meta.iter().map(|(_, value)| value);
        assign(
            "meta",
            quote! {
                [
                    #((
                        #krate::__private::std::string::String::from(#meta_keys),
                        #krate::__private::serde_json::Value::from(#meta_values),
                    )),*
                ]
                .into_iter()
                .collect()
            },
        );
    }
    if let Some((compact, _)) = attr.mirror {
        let mirror = if compact {
            quote!(#krate::Mirror::Compact)
        } else {
            quote!(#krate::Mirror::Pretty)
        };
        assign("mirror", option(Some(mirror)));
    }
    if let Some((word, _)) = &attr.schema {
        let profile = match word.as_str() {
            "strict" => quote!(#krate::SchemaProfile::Strict),
            "as_derived" => quote!(#krate::SchemaProfile::AsDerived),
            _ => quote!(#krate::SchemaProfile::Portable),
        };
        assign("schema_profile", option(Some(profile)));
    }
    if !attr.scopes.is_empty() {
        let scopes = &attr.scopes;
        assign(
            "scopes",
            quote!(#krate::__private::std::borrow::Cow::Borrowed(&[#(#scopes),*])),
        );
    }
    if let Some((required, _)) = attr.task {
        let task = if required {
            quote!(#krate::tool::TaskSupport::Required)
        } else {
            quote!(#krate::tool::TaskSupport::Optional)
        };
        assign("task", task);
    }
    if attr.escalates.is_some_and(|flag| flag.value) {
        assign("escalates", quote!(true));
    }
    if attr.include_output_schema.is_some() || attr.include_structured_content.is_some() {
        let include_output_schema = flag(attr.include_output_schema);
        let include_structured_content = flag(attr.include_structured_content);
        assign(
            "flags",
            quote! {
                #krate::ToolFlags {
                    include_structured_content: #include_structured_content,
                    include_output_schema: #include_output_schema,
                }
            },
        );
    }
    let kind = match attr.kind() {
        Kind::Text => None,
        Kind::Image => Some(quote!(Image)),
        Kind::Audio => Some(quote!(Audio)),
        Kind::ResourceLink => Some(quote!(ResourceLink)),
        Kind::Resource => Some(quote!(Resource)),
        Kind::Blocks => Some(quote!(Blocks)),
    };
    if let Some(kind) = kind {
        assign("content_kind", quote!(#krate::ContentKind::#kind));
    }
    if let Some(mime_type) = &attr.mime_type {
        assign("mime_type", option(Some(cow(krate, mime_type))));
    }
    let states: Vec<_> = f
        .params
        .iter()
        .filter_map(|p| match &p.role {
            Role::State { state } => Some(state),
            _ => None,
        })
        .collect();
    if !states.is_empty() {
        assign(
            "state",
            quote! {
                #krate::__private::std::borrow::Cow::Owned(#krate::__private::std::vec![
                    #(#krate::__private::state_requirement::<#states>()),*
                ])
            },
        );
    }
    if attr.ui.is_some() || attr.visibility.is_some() {
        let uri = option(attr.ui.as_ref());
        let who = attr.visibility.iter().flatten().map(|app| {
            if *app {
                quote!(#krate::apps::Visibility::App)
            } else {
                quote!(#krate::apps::Visibility::Model)
            }
        });
        assign(
            "ui",
            quote!(::core::option::Option::Some(#krate::__private::tool_ui(#uri, &[#(#who),*]))),
        );
    }
    let mut code = Template::new(krate.runtime());
    if !set.is_empty() {
        code.text("let mut __declaration = ");
    }
    code.text("::mcp_tool_runtime::__private::declaration(")
        .literal(&name)
        .text(", ");
    match (&attr.description, &f.doc) {
        (Some(lit), _) => code
            .text("::core::option::Option::Some(")
            .hole(lit)
            .text("), "),
        (None, Some(doc)) => code
            .text("::core::option::Option::Some(")
            .literal(doc)
            .text("), "),
        (None, None) => code.text("::core::option::Option::None, "),
    };
    code.hole(&input_schema).text(", ");
    match &output_schema {
        Some(build) => code
            .text("::core::option::Option::Some(")
            .hole(build)
            .text(")"),
        None => code.text("::core::option::Option::None"),
    };
    code.text(")");
    if !set.is_empty() {
        code.text(";");
        for assignment in &set {
            code.hole(assignment);
        }
        code.text("__declaration");
    }
    code.finish()
}

/// The function that builds the `inputSchema`, called once at registration.
fn input_schema(krate: Krate<'_>, f: &Function) -> TokenStream {
    let private = quote!(#krate::__private);
    if let Some(args) = f.params.iter().find(|p| matches!(p.role, Role::Args)) {
        let ty = &args.ty;
        return quote_spanned!(ty.span()=> #private::arguments_schema::<#ty> as fn() -> _);
    }
    let params = f.params.iter().filter_map(|p| match &p.role {
        Role::Argument {
            name,
            description,
            header,
            ..
        } => {
            let ty = &p.ty;
            let description = option(description.as_ref());
            Some(match header {
                Some(header) => quote_spanned! {ty.span()=>
                    #private::header_param::<#ty>(&mut __builder, #name, #description, #header);
                },
                None => quote_spanned! {ty.span()=>
                    #private::param::<#ty>(&mut __builder, #name, #description);
                },
            })
        }
        _ => None,
    });
    quote! {
        || {
            let mut __builder = #krate::schema::InputSchemaBuilder::new();
            #(#params)*
            #private::std::sync::Arc::new(__builder.finish())
        }
    }
}

/// The function that builds the `outputSchema` (called once at registration), or `None` for
/// kinds that carry no structured content. `allow_none` goes to the runtime, which owns the
/// nothing rule; whether the type is an `Option` is the type system's to say.
fn output_schema(krate: Krate<'_>, attr: &ToolAttr, f: &Function) -> Option<TokenStream> {
    if !attr.kind().carries_structured_content() {
        return None;
    }
    let allow_none = attr.allow_none.is_some_and(|flag| flag.value);
    let build = match f.output.payload() {
        Some(ty) if allow_none => {
            let private = krate.private_at(ty.span());
            quote_spanned!(ty.span()=> #private::option_output_schema::<#ty> as fn() -> _)
        }
        Some(ty) => {
            let private = krate.private_at(ty.span());
            quote_spanned!(ty.span()=> #private::output_schema::<#ty> as fn() -> _)
        }
        None => quote!(#krate::__private::output_schema::<()> as fn() -> _),
    };
    Some(build)
}

/// Without `allow_none`, a return type that is an `Option` (however it is spelled) would serve
/// `{}` that its `outputSchema` does not admit: a compile error at the type, decided by the type.
fn option_check(krate: Krate<'_>, attr: &ToolAttr, f: &Function) -> TokenStream {
    let declared = attr.allow_none.is_some_and(|flag| flag.value);
    let schema_off = attr.include_output_schema.is_some_and(|flag| !flag.value);
    let Some(ty) = f.output.payload() else {
        return TokenStream::new();
    };
    if declared || schema_off || !attr.kind().carries_structured_content() {
        return TokenStream::new();
    }
    let private = krate.private_at(ty.span());
    quote_spanned! {ty.span()=>
        #private::none_declared(#private::Probe::<#ty>::new().option());
    }
}

/// A return type not spelled `Result` that is one under another name (an alias) would serve its
/// `Err` as data: a compile error at the type, decided by the type.
fn result_check(krate: Krate<'_>, f: &Function) -> TokenStream {
    let Output::Plain(ty) = &f.output else {
        return TokenStream::new();
    };
    let private = krate.private_at(ty.span());
    quote_spanned! {ty.span()=>
        #private::result_spelled(#private::Probe::<#ty>::new().result());
    }
}

/// Each parameter's read from the call, a `Result` (see `generate`). Each read names the
/// parameter's type once, spanned there: an unmet bound is one error, at it.
fn reads(krate: Krate<'_>, f: &Function) -> Vec<TokenStream> {
    let mut reads = Vec::new();
    for param in &f.params {
        let ty = &param.ty;
        let private = krate.private_at(ty.span());
        reads.push(match &param.role {
            Role::Argument { name, .. } => {
                quote_spanned!(ty.span()=> #private::argument::<#ty>(&__call, #name))
            }
            Role::Args => quote_spanned!(ty.span()=> #private::arguments::<#ty>(&__call)),
            Role::State { state } => {
                quote_spanned!(ty.span()=> #private::state::<#state>(&__call))
            }
            Role::Context => quote_spanned!(ty.span()=> #private::context::<#ty>(&__call)),
        });
    }
    reads
}

/// How the returned value becomes the result: through the one path its kind needs (a text tool
/// instantiates no media code, an image tool no JSON code).
fn finish(krate: Krate<'_>, kind: Kind, output: &Output, text: Option<&syn::Path>) -> TokenStream {
    let path = if kind.is_media() {
        format_ident!("finish_media")
    } else {
        format_ident!("finish")
    };
    let finish_as = |ty: &syn::Type, value: TokenStream| {
        let private = krate.private_at(ty.span());
        match text {
            // The function's type is checked at its path: `fn(&T) -> String`.
            Some(render) => {
                quote_spanned!(ty.span()=> #private::finish_with_text::<#ty>(&__call, &#value, #render))
            }
            None => quote_spanned!(ty.span()=> #private::#path::<#ty>(&__call, &#value)),
        }
    };
    match output {
        // `()` serializes as null, which `build_tool_result` serves as `{}`.
        Output::Unit if text.is_some() => finish_as(&syn::parse_quote!(()), quote!(__out)),
        Output::Unit => quote!(#krate::__private::#path::<()>(&__call, &__out)),
        Output::Plain(ty) => finish_as(ty, quote!(__out)),
        Output::Result { ok, err } => {
            let ok = finish_as(ok, quote!(__value));
            let fail = match err {
                Some(err) => {
                    let private = krate.private_at(err.span());
                    quote_spanned!(err.span()=> #private::fail::<#err>(&__call, __error))
                }
                None => quote!(#krate::__private::fail(&__call, __error)),
            };
            quote! {
                match __out {
                    ::core::result::Result::Ok(__value) => #ok,
                    ::core::result::Result::Err(__error) => #fail,
                }
            }
        }
    }
}
