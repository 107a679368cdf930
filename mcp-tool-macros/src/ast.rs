//! Parses the annotated function into a typed model: its parameters by role, its return type by
//! shape, its doc comment. The function itself is kept, minus our parameter attributes, so it
//! can always be emitted unchanged.

use proc_macro2::TokenStream;
use syn::{FnArg, GenericArgument, Ident, ItemFn, LitStr, Pat, PathArguments, ReturnType, Type};

use crate::ctxt::{Ctxt, unknown_key_message};
use crate::keys::{Seen, skip_value};
use crate::symbol::*;
use crate::unraw::unraw;

pub struct Function {
    /// The user's function, with `#[arg]`, `#[args]` and `#[state]` removed from its parameters.
    pub item: ItemFn,
    pub params: Vec<Param>,
    pub output: Output,
    pub doc: Option<String>,
}

pub struct Param {
    pub ident: Ident,
    pub ty: Type,
    pub role: Role,
}

pub enum Role {
    /// One property of the input schema.
    /// (Whether it may be left out is decided by its type, at run time: see
    /// `InputSchemaBuilder::param`.)
    Argument {
        name: String,
        description: Option<LitStr>,
        /// `#[arg(header = "Region")]`: mirrored as the `Mcp-Param-Region` HTTP header
        /// (SEP-2243).
        header: Option<LitStr>,
        /// `#[arg(complete = path)]`: the function completing a prompt argument or template
        /// variable.
        complete: Option<syn::Path>,
    },
    /// The whole argument object, as one struct.
    Args,
    /// State the toolbox injects: `&S`.
    State { state: Box<Type> },
    /// The call context, `ToolContext` or `&ToolContext`: recognised by its type, whatever the
    /// parameter is called, and checked to be the runtime's in generated code.
    Context,
}

/// The return type, by how its value is served. Whether a payload is an `Option` is decided by
/// its type, in generated code (`__private::MayBeNone`, `__private::Probe`), never by its
/// spelling. `Result` is recognised here, since it decides how the body is called; a `Result`
/// under another name is found by type in generated code (`__private::Probe`) and refused.
pub enum Output {
    /// No return type: served as `{}`.
    Unit,
    /// `T`.
    Plain(Type),
    /// `Result<T, E>` and aliases such as `io::Result<T>`: `ok` is `T`, served; `err` is `E`
    /// when written, sent as an error.
    Result { ok: Box<Type>, err: Option<Type> },
}

impl Output {
    /// The type of the value served, when there is one.
    pub fn payload(&self) -> Option<&Type> {
        match self {
            Output::Unit => None,
            Output::Plain(ty) => Some(ty),
            Output::Result { ok, .. } => Some(ok),
        }
    }
}

pub fn parse_item(cx: &mut Ctxt, input: TokenStream) -> Result<ItemFn, TokenStream> {
    if let Some(item) = opaque_body(&input) {
        return Ok(item);
    }
    match syn::parse2::<syn::Item>(input.clone()) {
        Ok(syn::Item::Fn(item)) => Ok(item),
        Ok(other) => {
            let (what, head) = item_head(&other);
            cx.error_spanned_by(
                head,
                format!(
                    "#[mcp_tool] goes on a function, not on {what}; write it on the `fn` that implements the tool"
                ),
            );
            Err(input)
        }
        Err(_) => {
            // Not an item we can parse (a trait method without a body, ...): leave the tokens alone.
            cx.error_at(
                proc_macro2::Span::call_site(),
                "#[mcp_tool] goes on a function with a body",
            );
            Err(input)
        }
    }
}

/// A function whose body is kept as the tokens it was written in, not parsed: the macro reads
/// only the attributes and the signature before the body's braces, and emits the body as it
/// came, for the compiler to read once. Parsing and printing a body in a debug-built proc macro,
/// on every rebuild, took time that grew with the body (macro expansion of 100 thirty-line tools
/// took 2.6 to 3.0 s, now 1.3 s; 0.65 s without the macro). `None` for anything else (not a
/// function, no body), which is then parsed whole for its error.
fn opaque_body(input: &TokenStream) -> Option<ItemFn> {
    use proc_macro2::{Delimiter, TokenTree};
    use syn::parse::{ParseStream, Parser};
    let mut head: Vec<TokenTree> = input.clone().into_iter().collect();
    let Some(TokenTree::Group(body)) = head.pop() else {
        return None;
    };
    if body.delimiter() != Delimiter::Brace {
        return None;
    }
    let read_head = |input: ParseStream<'_>| {
        Ok((
            input.call(syn::Attribute::parse_outer)?,
            input.parse::<syn::Visibility>()?,
            input.parse::<syn::Signature>()?,
        ))
    };
    let (attrs, vis, sig) = read_head.parse2(head.into_iter().collect()).ok()?;
    let block = syn::Block {
        brace_token: syn::token::Brace(body.delim_span()),
        stmts: vec![syn::Stmt::Item(syn::Item::Verbatim(body.stream()))],
    };
    Some(ItemFn {
        attrs,
        vis,
        sig,
        block: Box::new(block),
    })
}

/// What an item is, and the tokens that say so (its keyword and name), for the error that it is
/// not a function.
fn item_head(item: &syn::Item) -> (&'static str, TokenStream) {
    use quote::ToTokens;
    use syn::Item;
    fn head(keyword: &impl ToTokens, name: &impl ToTokens) -> TokenStream {
        let mut tokens = keyword.to_token_stream();
        name.to_tokens(&mut tokens);
        tokens
    }
    match item {
        Item::Struct(i) => ("a struct", head(&i.struct_token, &i.ident)),
        Item::Enum(i) => ("an enum", head(&i.enum_token, &i.ident)),
        Item::Union(i) => ("a union", head(&i.union_token, &i.ident)),
        Item::Impl(i) => ("an impl block", head(&i.impl_token, &i.self_ty)),
        Item::Mod(i) => ("a module", head(&i.mod_token, &i.ident)),
        Item::Trait(i) => ("a trait", head(&i.trait_token, &i.ident)),
        Item::Const(i) => ("a constant", head(&i.const_token, &i.ident)),
        Item::Static(i) => ("a static", head(&i.static_token, &i.ident)),
        Item::Type(i) => ("a type alias", head(&i.type_token, &i.ident)),
        other => ("this item", other.to_token_stream()),
    }
}

pub fn parse_function(cx: &mut Ctxt, mut item: ItemFn) -> Function {
    let mut params = Vec::new();
    let mut context: Option<Ident> = None;
    for input in &mut item.sig.inputs {
        match input {
            FnArg::Receiver(receiver) => cx.error_spanned_by(
                &*receiver,
                "#[mcp_tool] does not support methods: the toolbox calls a tool without an instance. \
                 Make it a free function and take shared state as a `#[state] name: &YourState` parameter",
            ),
            FnArg::Typed(typed) => {
                let role = param_role(cx, &mut typed.attrs, &typed.ty);
                let ident = match &*typed.pat {
                    Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => {
                        pat.ident.clone()
                    }
                    other => {
                        cx.error_spanned_by(
                            other,
                            "a tool parameter must be a plain name (`number: String`); its name is the argument's name",
                        );
                        continue;
                    }
                };
                let role = match role {
                    ParsedRole::Argument {
                        rename,
                        description,
                        header,
                        complete,
                    } => Role::Argument {
                        name: rename.map_or_else(|| unraw(&ident), |r| r.value()),
                        description,
                        header,
                        complete,
                    },
                    ParsedRole::Args => Role::Args,
                    ParsedRole::Context => {
                        if let Some(first) = &context {
                            cx.error_spanned_by(
                                &typed.ty,
                                format!(
                                    "a tool takes at most one `ToolContext` parameter, and `{first}` \
                                     is already it; remove this one and use `{first}`"
                                ),
                            );
                            continue;
                        }
                        context = Some(ident.clone());
                        Role::Context
                    }
                    ParsedRole::State => match &*typed.ty {
                        Type::Reference(r) if r.mutability.is_none() => Role::State {
                            state: r.elem.clone(),
                        },
                        other => {
                            cx.error_spanned_by(
                                other,
                                "a `#[state]` parameter is a shared reference to the state: `&YourState`",
                            );
                            continue;
                        }
                    },
                };
                params.push(Param {
                    ident,
                    ty: (*typed.ty).clone(),
                    role,
                });
            }
        }
    }
    let output = match &item.sig.output {
        ReturnType::Default => Output::Unit,
        ReturnType::Type(_, ty) => classify(ty),
    };
    let doc = doc_comment(&item.attrs);
    Function {
        item,
        params,
        output,
        doc,
    }
}

enum ParsedRole {
    Argument {
        rename: Option<LitStr>,
        description: Option<LitStr>,
        header: Option<LitStr>,
        complete: Option<syn::Path>,
    },
    Args,
    State,
    Context,
}

/// Whether `ty` is the call context: a path ending in `ToolContext`, by value or behind `&`.
/// `&mut ToolContext` is reported (the context is shared, never mutated).
fn context_type(cx: &mut Ctxt, ty: &Type) -> bool {
    let (inner, reference) = match ty {
        Type::Reference(r) => (&*r.elem, Some(r)),
        other => (other, None),
    };
    let Type::Path(path) = inner else {
        return false;
    };
    let is_context = path.qself.is_none()
        && path
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == TOOL_CONTEXT && s.arguments.is_none());
    if is_context && let Some(r) = reference.filter(|r| r.mutability.is_some()) {
        cx.error_spanned_by(
            r,
            "the call context is shared, not mutated: take it as `&ToolContext` or `ToolContext`",
        );
    }
    is_context
}

/// Reads and removes our attributes from one parameter.
fn param_role(cx: &mut Ctxt, attrs: &mut Vec<syn::Attribute>, ty: &Type) -> ParsedRole {
    let mut arg = ArgAttr::default();
    let mut marker: Option<(ParsedRole, &'static str)> = None;
    attrs.retain(|attr| {
        let path = attr.path();
        if path.is_ident(ARG) {
            arg.parse(cx, attr);
            return false;
        }
        let (role, word) = if path.is_ident(STATE) {
            (ParsedRole::State, STATE)
        } else if path.is_ident(ARGS) {
            (ParsedRole::Args, ARGS)
        } else {
            return true;
        };
        if let Err(e) = attr.meta.require_path_only() {
            cx.push(e);
        }
        match &marker {
            Some((_, first)) => cx.error_spanned_by(
                attr,
                format!("a parameter is either `#[{first}]` or `#[{word}]`, not both"),
            ),
            None => marker = Some((role, word)),
        }
        false
    });
    let ArgAttr {
        rename,
        description,
        header,
        complete,
        ..
    } = arg;
    if let Some((role, word)) = marker {
        if context_type(cx, ty) {
            cx.error_spanned_by(
                ty,
                format!(
                    "`ToolContext` is the call context, recognised by its type: remove `#[{word}]`"
                ),
            );
        }
        if let Some(complete) = &complete {
            cx.error_spanned_by(
                complete,
                format!("a `#[{word}]` parameter is not an argument; it has no completions"),
            );
        }
        if let Some(extra) = rename.as_ref().or(description.as_ref()).or(header.as_ref()) {
            cx.error_spanned_by(
                extra,
                format!(
                    "a `#[{word}]` parameter is not an argument; `#[arg(...)]` does not apply to it"
                ),
            );
        }
        return role;
    }
    if context_type(cx, ty) {
        if let Some(extra) = rename.as_ref().or(description.as_ref()).or(header.as_ref()) {
            cx.error_spanned_by(
                extra,
                "the `ToolContext` parameter is not an argument; `#[arg(...)]` does not apply to it",
            );
        }
        return ParsedRole::Context;
    }
    if let Type::Reference(r) = ty {
        cx.error_spanned_by(
            r,
            "arguments are deserialized from JSON into owned values: use an owned type \
             (`String` for `&str`, `Vec<T>` for `&[T]`), or mark shared state `#[state]`",
        );
    }
    ParsedRole::Argument {
        rename,
        description,
        header,
        complete,
    }
}

/// `#[arg(rename = "...", description = "...", header = "...", complete = path)]`.
#[derive(Default)]
struct ArgAttr {
    rename: Option<LitStr>,
    description: Option<LitStr>,
    header: Option<LitStr>,
    complete: Option<syn::Path>,
    seen: Seen,
}

impl ArgAttr {
    fn parse(&mut self, cx: &mut Ctxt, attr: &syn::Attribute) {
        let parsed = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            if key == COMPLETE {
                if !self.seen.first(cx, &meta.path, &key, "key") {
                    return skip_value(&meta);
                }
                match meta.value()?.parse::<syn::Expr>()? {
                    syn::Expr::Path(path) if path.qself.is_none() => {
                        self.complete = Some(path.path);
                    }
                    other => cx.error_spanned_by(
                        &other,
                        "`complete` takes the path of a function `fn(&Complete<'_>) -> Vec<String>` (or `async fn`): `complete = cities`",
                    ),
                }
                return Ok(());
            }
            let slot = match key.as_str() {
                RENAME => &mut self.rename,
                DESCRIPTION => &mut self.description,
                HEADER => &mut self.header,
                _ => {
                    cx.error_spanned_by(&meta.path, unknown_key_message("key", &key, ARG_KEYS));
                    return skip_value(&meta);
                }
            };
            if !self.seen.first(cx, &meta.path, &key, "key") {
                return skip_value(&meta);
            }
            *slot = Some(meta.value()?.parse::<LitStr>()?);
            Ok(())
        });
        if let Err(e) = parsed {
            cx.push(e);
        }
    }
}

fn last_segment_args<'a>(ty: &'a Type, name: &str) -> Option<Vec<&'a Type>> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    Some(
        args.args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
    )
}

fn classify(ty: &Type) -> Output {
    if let Some(args) = last_segment_args(ty, "Result")
        && let [ok, rest @ ..] = args.as_slice()
    {
        return Output::Result {
            ok: Box::new((*ok).clone()),
            err: rest.first().map(|e| (*e).clone()),
        };
    }
    Output::Plain(ty.clone())
}

/// The doc comment: lines trimmed, consecutive lines joined by a space, blank lines kept as
/// paragraph breaks.
fn doc_comment(attrs: &[syn::Attribute]) -> Option<String> {
    let mut paragraphs: Vec<String> = vec![String::new()];
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        let syn::Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = &nv.value
        else {
            continue;
        };
        for line in s.value().split('\n') {
            let line = line.trim();
            let current = paragraphs.last_mut().expect("never empty");
            if line.is_empty() {
                if !current.is_empty() {
                    paragraphs.push(String::new());
                }
            } else {
                if !current.is_empty() {
                    current.push(' ');
                }
                current.push_str(line);
            }
        }
    }
    let text = paragraphs
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n");
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn a_body_is_kept_as_written_and_only_the_signature_is_read() {
        use quote::{ToTokens, quote};
        let mut cx = Ctxt::default();
        // A body syn could not parse (`a +`) is still the compiler's to read and report.
        let item = parse_item(
            &mut cx,
            quote! {
                /// Adds.
                #[inline]
                pub async fn add<T: Copy>(#[arg(description = "x")] a: T) -> T where T: Send {
                    #![allow(unused)]
                    let b = a +;
                }
            },
        )
        .ok()
        .unwrap();
        assert_eq!(item.sig.ident, "add");
        assert!(item.sig.asyncness.is_some());
        assert!(item.sig.generics.where_clause.is_some());
        assert_eq!(item.attrs.len(), 2);
        assert_eq!(
            item.block.to_token_stream().to_string(),
            quote!({ #![allow(unused)] let b = a +; }).to_string()
        );
        assert!(cx.into_compile_errors().is_none());
        // Not a function, or one without a body: parsed whole, and refused with an error.
        for refused in [
            quote!(
                struct S {
                    a: u8,
                }
            ),
            quote!(
                fn f();
            ),
        ] {
            let mut cx = Ctxt::default();
            assert!(parse_item(&mut cx, refused).is_err());
            assert!(cx.into_compile_errors().is_some());
        }
    }

    #[test]
    fn doc_lines_are_trimmed_and_joined() {
        let item: ItemFn = parse_quote! {
            /// Look up an invoice
            /// by its number.
            ///
            /// Returns nothing when absent.
            fn f() {}
        };
        assert_eq!(
            doc_comment(&item.attrs).as_deref(),
            Some("Look up an invoice by its number.\n\nReturns nothing when absent.")
        );
    }

    #[test]
    fn return_types_are_classified() {
        let mut cx = Ctxt::default();
        let f = parse_function(
            &mut cx,
            parse_quote! { fn f() -> std::io::Result<Option<u8>> { todo!() } },
        );
        assert!(matches!(&f.output, Output::Result { err: None, .. }));
        let f = parse_function(&mut cx, parse_quote! { fn f() {} });
        assert!(matches!(f.output, Output::Unit));
        assert!(cx.into_compile_errors().is_none());
    }

    #[test]
    fn parameter_attributes_are_read_and_removed() {
        let mut cx = Ctxt::default();
        let f = parse_function(
            &mut cx,
            parse_quote! {
                fn f(#[arg(rename = "n", description = "d")] number: Option<u32>, #[state] db: &Db) {}
            },
        );
        assert!(cx.into_compile_errors().is_none());
        assert!(matches!(&f.params[0].role, Role::Argument { name, .. } if name == "n"));
        assert!(matches!(&f.params[1].role, Role::State { .. }));
        let FnArg::Typed(first) = &f.item.sig.inputs[0] else {
            panic!()
        };
        assert!(first.attrs.is_empty());
    }
}
