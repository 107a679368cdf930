//! Parses `#[mcp_prompt(...)]` and `#[mcp_resource(...)]` into a typed model, collecting every
//! mistake: the keys both share with `#[mcp_tool]` read the same way.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::{Expr, Lit, LitStr, Token};

use crate::attr::{icons, key_of, string};
use crate::ctxt::{Ctxt, unknown_key_message};
use crate::keys::{Seen, describe_expr, skip_value};
use crate::meta::meta_entries;
use crate::symbol::*;

/// A resource's `annotations(audience(user), priority = 0.5, last_modified = "...")`.
#[derive(Default)]
pub struct ResourceAnnotations {
    /// `true` for `user`, `false` for `assistant`.
    pub audience: Option<Vec<bool>>,
    pub priority: Option<f64>,
    pub last_modified: Option<LitStr>,
}

/// A view resource's `ui(connect_domains(...), camera, prefers_border = true, domain = "...")`.
#[derive(Default)]
pub struct ViewAttr {
    /// `connect_domains`, `resource_domains`, `frame_domains`, `base_uri_domains`.
    pub domains: [Vec<LitStr>; 4],
    /// `camera`, `microphone`, `geolocation`, `clipboard_write`.
    pub permissions: [bool; 4],
    pub prefers_border: Option<bool>,
    pub domain: Option<LitStr>,
    /// Where `ui` was written.
    pub span: Option<proc_macro2::Span>,
}

#[derive(Default)]
pub struct ItemAttr {
    pub uri: Option<LitStr>,
    pub view: Option<ViewAttr>,
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub mime_type: Option<LitStr>,
    pub size: Option<u64>,
    pub annotations: Option<ResourceAnnotations>,
    pub icons: Vec<LitStr>,
    pub meta: Vec<(LitStr, Expr)>,
    pub krate: Option<syn::Path>,
}

/// Parses the attribute of `macro_name`, which takes `keys`.
pub fn parse(cx: &mut Ctxt, args: TokenStream, keys: &[&str]) -> ItemAttr {
    let mut attr = ItemAttr::default();
    let mut seen = Seen::default();
    let parser = syn::meta::parser(|meta| {
        let key = key_of(&meta).unwrap_or_else(|| "<path>".to_owned());
        if !keys.contains(&key.as_str()) {
            cx.error_spanned_by(&meta.path, unknown_key_message("key", &key, keys));
            return skip_value(&meta);
        }
        if !seen.first(cx, &meta.path, &key, "key") {
            return skip_value(&meta);
        }
        match key.as_str() {
            URI => attr.uri = string(cx, &meta, URI)?,
            UI => attr.view = view(cx, &meta)?,
            NAME => attr.name = string(cx, &meta, NAME)?,
            TITLE => attr.title = string(cx, &meta, TITLE)?,
            DESCRIPTION => attr.description = string(cx, &meta, DESCRIPTION)?,
            MIME_TYPE => attr.mime_type = string(cx, &meta, MIME_TYPE)?,
            SIZE => attr.size = size(cx, &meta)?,
            ANNOTATIONS => attr.annotations = annotations(cx, &meta)?,
            ICONS => attr.icons = icons(cx, &meta)?,
            META => attr.meta = meta_entries(cx, &meta)?,
            _ => {
                if meta.input.peek(Token![=]) {
                    attr.krate = Some(meta.value()?.parse()?);
                } else {
                    cx.error_spanned_by(
                        &meta.path,
                        "`crate` needs a path: `crate = ::my_reexport::mcp_tool_runtime`",
                    );
                    return skip_value(&meta);
                }
            }
        }
        Ok(())
    });
    if let Err(syntax) = parser.parse2(args) {
        cx.push(syntax);
    }
    attr
}

/// `ui(...)`: a view's sandbox settings, each key once.
fn view(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<ViewAttr>> {
    use syn::spanned::Spanned as _;
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            "`ui` takes the view's settings: `ui(connect_domains(\"https://api.example.com\"), prefers_border = true)`",
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let mut view = ViewAttr {
        span: Some(meta.path.span()),
        ..ViewAttr::default()
    };
    let mut seen = Seen::default();
    meta.parse_nested_meta(|inner| {
        let key = inner
            .path
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        if !VIEW_KEYS.contains(&key.as_str()) {
            cx.error_spanned_by(&inner.path, unknown_key_message("`ui` key", &key, VIEW_KEYS));
            return skip_value(&inner);
        }
        if !seen.first(cx, &inner.path, &key, "`ui` key") {
            return skip_value(&inner);
        }
        let domains = [CONNECT_DOMAINS, RESOURCE_DOMAINS, FRAME_DOMAINS, BASE_URI_DOMAINS];
        let permissions = [CAMERA, MICROPHONE, GEOLOCATION, CLIPBOARD_WRITE];
        if let Some(at) = domains.iter().position(|d| *d == key) {
            let content;
            syn::parenthesized!(content in inner.input);
            let list = syn::punctuated::Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?;
            for origin in list {
                let value = origin.value();
                if !(value.starts_with("https://") || value.starts_with("http://") || value.starts_with("wss://")) {
                    cx.error_spanned_by(
                        &origin,
                        format!("`{key}` lists origins, such as `https://api.example.com`; found `{value}`"),
                    );
                }
                view.domains[at].push(origin);
            }
        } else if let Some(at) = permissions.iter().position(|p| *p == key) {
            view.permissions[at] = true;
        } else if key == PREFERS_BORDER {
            let value: syn::LitBool = inner.value()?.parse()?;
            view.prefers_border = Some(value.value);
        } else {
            view.domain = string(cx, &inner, DOMAIN)?;
        }
        Ok(())
    })?;
    Ok(Some(view))
}

fn size(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<u64>> {
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(&meta.path, "`size` needs a number of bytes: `size = 1024`");
        skip_value(meta)?;
        return Ok(None);
    }
    let expr: Expr = meta.value()?.parse()?;
    if let Expr::Lit(syn::ExprLit {
        lit: Lit::Int(n), ..
    }) = &expr
        && let Ok(bytes) = n.base10_parse::<u64>()
    {
        return Ok(Some(bytes));
    }
    cx.error_spanned_by(
        &expr,
        format!(
            "`size` takes a whole number of bytes, found {}; write `size = 1024`",
            describe_expr(&expr)
        ),
    );
    Ok(None)
}

fn annotations(
    cx: &mut Ctxt,
    meta: &ParseNestedMeta<'_>,
) -> syn::Result<Option<ResourceAnnotations>> {
    const HOW: &str = "`annotations` takes a list: `annotations(audience(user), priority = 0.5, last_modified = \"2026-01-01T00:00:00Z\")`";
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(&meta.path, HOW);
        skip_value(meta)?;
        return Ok(None);
    }
    let mut hints = ResourceAnnotations::default();
    let mut seen = Seen::default();
    meta.parse_nested_meta(|inner| {
        let key = inner
            .path
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        if !seen.first(cx, &inner.path, &key, "annotation") {
            return skip_value(&inner);
        }
        match key.as_str() {
            AUDIENCE => {
                let mut who = Vec::new();
                inner.parse_nested_meta(|role| {
                    match role.path.get_ident().map(|i| i.to_string()).as_deref() {
                        Some("user") => who.push(true),
                        Some("assistant") => who.push(false),
                        _ => cx.error_spanned_by(
                            &role.path,
                            "an audience is `user` or `assistant`: `audience(user, assistant)`",
                        ),
                    }
                    Ok(())
                })?;
                hints.audience = Some(who);
            }
            PRIORITY => {
                let expr: Expr = inner.value()?.parse()?;
                let value = match &expr {
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Float(f), ..
                    }) => f.base10_parse::<f64>().ok(),
                    Expr::Lit(syn::ExprLit {
                        lit: Lit::Int(i), ..
                    }) => i.base10_parse::<f64>().ok(),
                    _ => None,
                };
                match value {
                    Some(p) if (0.0..=1.0).contains(&p) => hints.priority = Some(p),
                    _ => cx.error_spanned_by(
                        &expr,
                        "a priority is a number from 0 (least important) to 1 (most): `priority = 0.5`",
                    ),
                }
            }
            LAST_MODIFIED => hints.last_modified = string(cx, &inner, LAST_MODIFIED)?,
            _ => {
                cx.error_spanned_by(
                    &inner.path,
                    unknown_key_message("annotation", &key, RESOURCE_ANNOTATION_KEYS),
                );
                return skip_value(&inner);
            }
        }
        Ok(())
    })?;
    Ok(Some(hints))
}
