//! Checks that involve several settings at once: everything the declaration alone decides.

use std::collections::HashMap;

use syn::{FnArg, Type};

use crate::ast::{Function, Output, Role};
use crate::attr::ToolAttr;
use crate::ctxt::Ctxt;

pub fn check(cx: &mut Ctxt, attr: &ToolAttr, f: &Function) {
    check_form(cx, f, "#[mcp_tool]");
    check_name(cx, attr, f);
    check_params(cx, f);
    check_structured_output(cx, attr, f);
    check_content_kind(cx, attr);
}

/// The function forms a tool cannot take, each with why.
pub fn check_form(cx: &mut Ctxt, f: &Function, macro_name: &str) {
    let sig = &f.item.sig;
    for param in sig.generics.type_params() {
        cx.error_spanned_by(
            param,
            format!(
                "{macro_name} does not support generic functions: a tool's schemas are fixed when it is \
                 declared, so each parameter and the return type must be a concrete type"
            ),
        );
    }
    for param in sig.generics.const_params() {
        cx.error_spanned_by(
            param,
            format!("{macro_name} does not support const generics: a tool's schemas are fixed when it is declared"),
        );
    }
    if let Some(unsafety) = &sig.unsafety {
        cx.error_spanned_by(
            unsafety,
            format!("{macro_name} does not support `unsafe fn`: a client calls the tool, and cannot uphold its safety contract"),
        );
    }
    if let Some(abi) = &sig.abi {
        cx.error_spanned_by(
            abi,
            format!("{macro_name} does not support `extern` functions: declare the tool as a Rust function"),
        );
    }
    if let Some(variadic) = &sig.variadic {
        cx.error_spanned_by(
            variadic,
            format!("{macro_name} does not support variadic functions"),
        );
    }
    for input in &sig.inputs {
        if let FnArg::Typed(typed) = input
            && let Type::ImplTrait(it) = &*typed.ty
        {
            cx.error_spanned_by(
                it,
                format!("{macro_name} does not support `impl Trait` parameters: an argument's schema needs a concrete type"),
            );
        }
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output
        && let Type::ImplTrait(it) = &**ty
    {
        cx.error_spanned_by(
            it,
            format!("{macro_name} does not support an `impl Trait` return type: the output schema needs a concrete type"),
        );
    }
}

/// MCP's tool-name rule, as the runtime's `validate_tool_name` checks it at registration: here it
/// is a compile error at the name (a proc-macro crate cannot call the runtime).
fn check_name(cx: &mut Ctxt, attr: &ToolAttr, f: &Function) {
    let (name, span) = attr.tool_name(&f.item.sig.ident);
    check_name_at(cx, "tool", &name, span);
}

/// MCP's name rule for a tool or prompt named `name`, written at `span`.
pub fn check_name_at(cx: &mut Ctxt, what: &str, name: &str, span: proc_macro2::Span) {
    let problem = if name.is_empty() {
        Some(format!("the {what} name is empty"))
    } else if name.chars().count() > 128 {
        Some(format!(
            "the {what} name `{name}` is {} characters long",
            name.chars().count()
        ))
    } else {
        name.chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .map(|c| format!("the {what} name `{name}` contains {c:?}"))
    };
    if let Some(problem) = problem {
        cx.error_at(
            span,
            format!(
                "{problem}; MCP clients accept 1 to 128 characters of A-Z a-z 0-9 _ - . \
                 (set one with `name = \"...\"`)"
            ),
        );
    }
}

fn check_params(cx: &mut Ctxt, f: &Function) {
    let args: Vec<_> = f
        .params
        .iter()
        .filter(|p| matches!(p.role, Role::Args))
        .collect();
    let arguments: Vec<_> = f
        .params
        .iter()
        .filter(|p| matches!(p.role, Role::Argument { .. }))
        .collect();
    for extra in args.iter().skip(1) {
        cx.error_spanned_by(
            &extra.ident,
            "a tool takes at most one `#[args]` struct: its fields are all the arguments",
        );
    }
    if !args.is_empty() {
        for argument in &arguments {
            cx.error_spanned_by(
                &argument.ident,
                "a tool with an `#[args]` struct takes its arguments from that struct's fields; \
                 move this parameter into the struct, or mark it `#[state]`",
            );
        }
    }
    check_headers(cx, &arguments);
    for param in &arguments {
        if let Role::Argument {
            complete: Some(complete),
            ..
        } = &param.role
        {
            cx.error_spanned_by(
                complete,
                "a tool argument has no completions (MCP completes prompt arguments and resource template variables); remove `complete`",
            );
        }
    }
    let mut names = HashMap::new();
    for param in &arguments {
        if let Role::Argument { name, .. } = &param.role
            && names.insert(name.clone(), ()).is_some()
        {
            cx.error_spanned_by(
                &param.ident,
                format!("two arguments are named `{name}`; give one a `#[arg(rename = \"...\")]`"),
            );
        }
    }
}

/// `#[arg(header = "...")]` (SEP-2243): each name an HTTP field-name token (RFC 9110 §5.1,
/// `Mcp-Param-` is put before it), none twice in a tool, compared case-insensitively as HTTP
/// compares header names. (That the argument's type is an integer, a string or a boolean is the
/// type system's to say: `__private::HeaderArgument`.)
fn check_headers(cx: &mut Ctxt, arguments: &[&crate::ast::Param]) {
    let mut seen: Vec<String> = Vec::new();
    for param in arguments {
        let Role::Argument {
            header: Some(header),
            ..
        } = &param.role
        else {
            continue;
        };
        let value = header.value();
        let tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
        if value.is_empty() {
            cx.error_spanned_by(
                header,
                "a header argument needs a name: `#[arg(header = \"Region\")]` sends `Mcp-Param-Region`",
            );
        } else if let Some(bad) = value.chars().find(|&c| !tchar(c)) {
            cx.error_spanned_by(
                header,
                format!(
                    "`{value}` cannot name an HTTP header: {bad:?} is not allowed in a header name \
                     (RFC 9110 token: letters, digits and !#$%&'*+-.^_`|~); write e.g. `\"Region\"`"
                ),
            );
        } else if seen.iter().any(|s| s.eq_ignore_ascii_case(&value)) {
            cx.error_spanned_by(
                header,
                format!(
                    "two arguments are sent as header `Mcp-Param-{value}` (header names ignore case); \
                     give one another name"
                ),
            );
        } else {
            seen.push(value);
        }
    }
}

/// The asymmetric rule and the nothing rule, as far as the tool's own flags decide them.
fn check_structured_output(cx: &mut Ctxt, attr: &ToolAttr, f: &Function) {
    if let (Some(schema), Some(content)) =
        (attr.include_output_schema, attr.include_structured_content)
        && schema.value
        && !content.value
    {
        cx.error_at(
            content.span,
            "`include_output_schema` with `include_structured_content = false`: MCP requires a tool \
             that advertises an `outputSchema` to return `structuredContent` conforming to it. \
             Remove `include_structured_content = false`, or set `include_output_schema = false`",
        );
    }

    // Whether the return type is an `Option` is decided by its type, in generated code
    // (`__private::MayBeNone` with `allow_none`, `__private::none_declared` without). Only a
    // function with no return type at all is known here to be never `None`.
    if let Some(flag) = attr.allow_none
        && flag.value
        && matches!(f.output, Output::Unit)
    {
        cx.error_at(
            flag.span,
            format!(
                "`allow_none` on `{}`, which returns nothing: remove `allow_none`, or return \
                 `Option<T>` (or `Result<Option<T>, E>`) if the tool may find nothing",
                f.item.sig.ident
            ),
        );
    }
}

fn check_content_kind(cx: &mut Ctxt, attr: &ToolAttr) {
    let kind = attr.kind();
    if let (Some((_, span)), Some(_)) = (attr.mirror, &attr.text) {
        cx.error_at(
            span,
            "`text` writes the mirror itself, so a `mirror` layout has nothing to lay out: remove `mirror`",
        );
    }
    if let Some((_, span)) = attr.content
        && kind.is_media()
        && attr.mime_type.is_none()
    {
        cx.error_at(
            span,
            format!(
                "`content = {}` needs a `mime_type`, for example `mime_type = \"{}\"`",
                kind.keyword(),
                if kind == crate::attr::Kind::Audio {
                    "audio/wav"
                } else {
                    "image/png"
                }
            ),
        );
    }
    if let Some(mime) = &attr.mime_type
        && !kind.is_media()
        && (attr.content.is_some() || !attr.content_written)
    {
        cx.error_spanned_by(
            mime,
            "`mime_type` applies to media results only: add `content = image` or `content = audio`, or remove `mime_type`",
        );
    }
    if !kind.carries_structured_content() {
        let reason = if kind.is_media() {
            "carries bytes, not structured content"
        } else {
            "is a list of content blocks, not structured content"
        };
        if let Some((_, span)) = attr.mirror {
            cx.error_at(
                span,
                format!(
                    "`content = {}` {reason}, so it has no text mirror: remove `mirror`",
                    kind.keyword()
                ),
            );
        }
        if let Some(text) = &attr.text {
            cx.error_spanned_by(
                text,
                format!(
                    "`content = {}` {reason}, so it has no text mirror to write: remove `text`",
                    kind.keyword()
                ),
            );
        }
        if let Some(flag) = attr.include_output_schema
            && flag.value
        {
            cx.error_at(
                flag.span,
                format!(
                    "`content = {}` {reason}, so it has no `outputSchema`: remove `include_output_schema`",
                    kind.keyword()
                ),
            );
        }
        if let Some(flag) = attr.include_structured_content
            && flag.value
        {
            cx.error_at(
                flag.span,
                format!(
                    "`content = {}` {reason}: remove `include_structured_content`",
                    kind.keyword()
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ast, attr};
    use quote::quote;
    use syn::parse_quote;

    fn errors(args: proc_macro2::TokenStream, item: syn::ItemFn) -> String {
        let mut cx = Ctxt::default();
        let attr = attr::parse(&mut cx, args);
        let f = ast::parse_function(&mut cx, item);
        check(&mut cx, &attr, &f);
        cx.into_compile_errors()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn every_mistake_is_reported_at_once() {
        let found = errors(
            quote!(descripton = "x", allow_none, content = image),
            parse_quote! { fn f() {} },
        );
        assert!(found.contains("did you mean `description`"), "{found}");
        assert!(found.contains("`allow_none` on `f`"), "{found}");
        let at = |needle: &str| found.find(needle).unwrap();
        assert!(
            at("did you mean") < at("`allow_none` on `f`"),
            "source order: {found}"
        );
        assert!(found.contains("needs a `mime_type`"), "{found}");
    }

    #[test]
    fn a_valid_declaration_has_no_errors() {
        let found = errors(
            quote!(
                include_output_schema,
                include_structured_content = true,
                allow_none
            ),
            parse_quote! { async fn f(a: String) -> Result<Option<u8>, String> { Ok(None) } },
        );
        assert_eq!(found, "");
    }
}
