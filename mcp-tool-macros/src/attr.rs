//! Parses `#[mcp_tool(...)]` into a typed model, collecting every mistake.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::{Expr, Lit, LitStr, Token};

use crate::ctxt::{Ctxt, unknown_key_message};
use crate::keys::{Seen, describe_expr, list, skip_value};
use crate::meta::meta_entries;
use crate::symbol::*;
use crate::unraw::unraw;

/// A flag as written: its value and where it stands.
#[derive(Clone, Copy)]
pub struct Flag {
    pub value: bool,
    pub span: Span,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Image,
    Audio,
    ResourceLink,
    Resource,
    Blocks,
}

impl Kind {
    /// Every kind with its keyword: the one list of kinds in this crate.
    pub const ALL: [(Kind, &'static str); 6] = [
        (Kind::Text, "text"),
        (Kind::Image, "image"),
        (Kind::Audio, "audio"),
        (Kind::ResourceLink, "resource_link"),
        (Kind::Resource, "resource"),
        (Kind::Blocks, "blocks"),
    ];

    fn from_keyword(word: &str) -> Option<Kind> {
        Kind::ALL
            .iter()
            .find(|(_, k)| *k == word)
            .map(|(kind, _)| *kind)
    }

    pub fn keyword(self) -> &'static str {
        Kind::ALL
            .iter()
            .find(|(kind, _)| *kind == self)
            .map_or("", |(_, k)| k)
    }

    pub fn is_media(self) -> bool {
        matches!(self, Kind::Image | Kind::Audio)
    }

    /// Whether results of this kind can carry `structuredContent`, and so advertise an
    /// `outputSchema` (the runtime's `ContentKind::carries_structured_content`).
    pub fn carries_structured_content(self) -> bool {
        !matches!(self, Kind::Image | Kind::Audio | Kind::Blocks)
    }
}

#[derive(Default)]
pub struct Annotations {
    pub read_only: Option<Flag>,
    pub destructive: Option<Flag>,
    pub idempotent: Option<Flag>,
    pub open_world: Option<Flag>,
}

#[derive(Default)]
pub struct ToolAttr {
    pub name: Option<LitStr>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub include_output_schema: Option<Flag>,
    pub include_structured_content: Option<Flag>,
    pub allow_none: Option<Flag>,
    pub annotations: Option<Annotations>,
    pub content: Option<(Kind, Span)>,
    /// `content = ...` was written, valid or not (a wrong kind is reported once, not again as a
    /// `mime_type` without a media kind).
    pub content_written: bool,
    pub mime_type: Option<LitStr>,
    /// `icons("https://...", "data:...")`: each an icon's `src`.
    pub icons: Vec<LitStr>,
    /// `mirror = pretty | compact`: how the text mirror is written, and where it was written.
    pub mirror: Option<(bool, Span)>,
    /// `schema = portable | strict | as_derived`: the shape the schemas are served in.
    pub schema: Option<(String, Span)>,
    /// `task = optional | required`: whether it must run as a task, and where it was written.
    pub task: Option<(bool, Span)>,
    /// `escalates`: a task tool's call becomes a task only where its body calls
    /// `ctx.escalate()`.
    pub escalates: Option<Flag>,
    /// `text = path::to::render`: a `fn(&T) -> String` that writes the mirror instead.
    pub text: Option<syn::Path>,
    /// `meta("com.example/key" = value, ...)`: the entry's `_meta`, each value a literal.
    pub meta: Vec<(LitStr, Expr)>,
    /// `scopes("invoices:write", ...)`: the OAuth scopes a caller needs.
    pub scopes: Vec<LitStr>,
    /// `ui = "ui://..."`: the tool's MCP Apps view.
    pub ui: Option<LitStr>,
    /// `visibility(model, app)`: who may call the tool (`true` for `app`).
    pub visibility: Option<Vec<bool>>,
    pub krate: Option<syn::Path>,
}

impl ToolAttr {
    pub fn kind(&self) -> Kind {
        self.content.map_or(Kind::Text, |(kind, _)| kind)
    }

    /// The tool's name, and where it was written: `name = "..."`, or the function's name.
    pub fn tool_name(&self, function: &syn::Ident) -> (String, Span) {
        match &self.name {
            Some(lit) => (lit.value(), lit.span()),
            None => (unraw(function), function.span()),
        }
    }
}

pub fn parse(cx: &mut Ctxt, args: TokenStream) -> ToolAttr {
    let mut attr = ToolAttr::default();
    let mut seen = Seen::default();
    let parser = syn::meta::parser(|meta| {
        let Some(key) = key_of(&meta) else {
            cx.error_spanned_by(&meta.path, unknown_key_message("key", "<path>", TOOL_KEYS));
            return skip_value(&meta);
        };
        if !seen.first(cx, &meta.path, &key, "key") {
            return skip_value(&meta);
        }
        match key.as_str() {
            NAME => attr.name = string(cx, &meta, NAME)?,
            TITLE => attr.title = string(cx, &meta, TITLE)?,
            DESCRIPTION => attr.description = string(cx, &meta, DESCRIPTION)?,
            INCLUDE_OUTPUT_SCHEMA => attr.include_output_schema = flag(cx, &meta, &key)?,
            INCLUDE_STRUCTURED_CONTENT => {
                attr.include_structured_content = flag(cx, &meta, &key)?;
            }
            ALLOW_NONE => attr.allow_none = flag(cx, &meta, &key)?,
            ANNOTATIONS => attr.annotations = annotations(cx, &meta)?,
            CONTENT => {
                attr.content_written = true;
                attr.content = content(cx, &meta)?;
            }
            MIME_TYPE => attr.mime_type = string(cx, &meta, MIME_TYPE)?,
            ICONS => attr.icons = icons(cx, &meta)?,
            META => attr.meta = meta_entries(cx, &meta)?,
            SCOPES => attr.scopes = scopes(cx, &meta)?,
            MIRROR => attr.mirror = mirror(cx, &meta)?,
            SCHEMA => attr.schema = schema(cx, &meta)?,
            TASK => attr.task = task(cx, &meta)?,
            ESCALATES => attr.escalates = flag(cx, &meta, &key)?,
            TEXT => attr.text = text_fn(cx, &meta)?,
            UI => {
                attr.ui = string(cx, &meta, UI)?;
                if let Some(uri) = &attr.ui
                    && !uri.value().starts_with("ui://")
                {
                    cx.error_spanned_by(
                        uri,
                        format!(
                            "an MCP Apps view is a `ui://` resource, which hosts fetch and render; found `{}`: write `ui = \"ui://app/view\"` and serve the HTML at that URI",
                            uri.value()
                        ),
                    );
                }
            }
            VISIBILITY => attr.visibility = visibility(cx, &meta)?,
            CRATE => {
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
            _ => {
                cx.error_spanned_by(&meta.path, unknown_key_message("key", &key, TOOL_KEYS));
                return skip_value(&meta);
            }
        }
        Ok(())
    });
    if let Err(syntax) = parser.parse2(args) {
        cx.push(syntax);
    }
    if let Some(Flag { value: true, span }) = attr.escalates
        && attr.task.is_none()
    {
        cx.error_at(
            span,
            "`escalates` is for a task tool: add `task = optional` or `task = required`, whose \
             calls then become tasks where the body calls `ctx.escalate().await`",
        );
    }
    attr
}

pub(crate) fn key_of(meta: &ParseNestedMeta<'_>) -> Option<String> {
    if meta.path.is_ident("crate") {
        return Some(CRATE.to_owned());
    }
    meta.path.get_ident().map(|i| i.to_string())
}

fn flag(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Option<Flag>> {
    if meta.input.peek(syn::token::Paren) {
        let group: proc_macro2::Group = meta.input.parse()?;
        cx.error_at(
            group.span(),
            format!("`{key}` is a flag: write `{key}`, `{key} = true` or `{key} = false`"),
        );
        return Ok(None);
    }
    if !meta.input.peek(Token![=]) {
        return Ok(Some(Flag {
            value: true,
            span: meta.path.span(),
        }));
    }
    let expr: Expr = meta.value()?.parse()?;
    if let Expr::Lit(syn::ExprLit {
        lit: Lit::Bool(b), ..
    }) = &expr
    {
        return Ok(Some(Flag {
            value: b.value,
            span: meta.path.span(),
        }));
    }
    cx.error_spanned_by(
        &expr,
        format!(
            "`{key}` takes `true` or `false`, found {}; write `{key}`, `{key} = true` or `{key} = false`",
            describe_expr(&expr)
        ),
    );
    Ok(None)
}

pub(crate) fn string(
    cx: &mut Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
) -> syn::Result<Option<LitStr>> {
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(
            &meta.path,
            format!("`{key}` needs a string value: `{key} = \"...\"`"),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let expr: Expr = meta.value()?.parse()?;
    if let Expr::Lit(syn::ExprLit {
        lit: Lit::Str(s), ..
    }) = expr
    {
        return Ok(Some(s));
    }
    cx.error_spanned_by(
        &expr,
        format!(
            "`{key}` takes a string literal, found {}; write `{key} = \"...\"`",
            describe_expr(&expr)
        ),
    );
    Ok(None)
}

/// `key("...", ...)`: a non-empty list of string literals, each accepted by `check` (given the
/// ones accepted before it) or reported at its token with the message `check` returns.
fn string_list(
    cx: &mut Ctxt,
    meta: &ParseNestedMeta<'_>,
    (key, what, example): (&str, &str, &str),
    check: impl Fn(&str, &[LitStr]) -> Option<String>,
) -> syn::Result<Vec<LitStr>> {
    let Some(list) = list::<Expr>(
        cx,
        meta,
        &format!("`{key}` takes a list of {what}s: `{example}`"),
    )?
    else {
        return Ok(Vec::new());
    };
    if list.is_empty() {
        cx.error_spanned_by(
            &meta.path,
            format!("`{key}` needs at least one {what}: `{example}`, or leave `{key}` out"),
        );
    }
    let mut accepted = Vec::new();
    for expr in list {
        match expr {
            Expr::Lit(syn::ExprLit {
                lit: Lit::Str(item),
                ..
            }) => match check(&item.value(), &accepted) {
                Some(problem) => cx.error_spanned_by(&item, problem),
                None => accepted.push(item),
            },
            other => cx.error_spanned_by(
                &other,
                format!(
                    "`{key}` takes string literals, found {}; write `{example}`",
                    describe_expr(&other)
                ),
            ),
        }
    }
    Ok(accepted)
}

/// `icons("https://...", ...)`: string literals, each an `https:` URL or a `data:` URI (what
/// clients accept, SEP-973); each mistake is reported at its token.
pub(crate) fn icons(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<LitStr>> {
    let names = ("icons", "URI", "icons(\"https://example.com/tool.svg\")");
    string_list(cx, meta, names, |src, _| {
        (!(src.starts_with("https://") || src.starts_with("data:"))).then(|| {
            format!(
                "an icon's `src` must be an `https:` URL or a `data:` URI, which is what MCP clients \
                 show (SEP-973); found `{src}`"
            )
        })
    })
}

/// `scopes("invoices:read", ...)`: string literals, each an OAuth scope token (RFC 6749 §3.3:
/// printable ASCII without spaces, `"` or `\`), none twice; each mistake at its token.
fn scopes(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<LitStr>> {
    let names = ("scopes", "OAuth scope", "scopes(\"invoices:write\")");
    string_list(cx, meta, names, |scope, accepted| {
        if let Some(bad) = scope
            .chars()
            .find(|&c| !matches!(c, '\x21' | '\x23'..='\x5B' | '\x5D'..='\x7E'))
        {
            Some(format!(
                "an OAuth scope is printable ASCII without spaces, `\"` or `\\` (RFC 6749 §3.3); \
                 `{scope}` has {bad:?}: write each scope as its own string"
            ))
        } else if scope.is_empty() {
            Some("a scope cannot be empty; write `scopes(\"invoices:write\")`".to_owned())
        } else if accepted.iter().any(|s| s.value() == scope) {
            Some(format!("scope `{scope}` is listed twice; remove one"))
        } else {
            None
        }
    })
}

/// `visibility(model, app)`: who may call the tool, each at most once, at least one.
fn visibility(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<Vec<bool>>> {
    const HOW: &str = "`visibility` lists who may call the tool: `visibility(model)`, `visibility(app)` or `visibility(model, app)`";
    let Some(list) = list::<syn::Path>(cx, meta, HOW)? else {
        return Ok(None);
    };
    let mut who = Vec::new();
    for path in list {
        let app = match path.get_ident().map(|i| i.to_string()).as_deref() {
            Some("model") => false,
            Some("app") => true,
            _ => {
                cx.error_spanned_by(&path, HOW);
                continue;
            }
        };
        if who.contains(&app) {
            cx.error_spanned_by(&path, "listed twice in `visibility`; give each once");
            continue;
        }
        who.push(app);
    }
    if who.is_empty() {
        cx.error_spanned_by(&meta.path, HOW);
        return Ok(None);
    }
    Ok(Some(who))
}

/// `text = path::to::render`: the path of the function that writes the mirror.
fn text_fn(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<syn::Path>> {
    const HOW: &str = "`text` takes the path of a function `fn(&T) -> String`, where `T` is what the tool returns: `text = invoice_text`";
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(&meta.path, HOW);
        skip_value(meta)?;
        return Ok(None);
    }
    match meta.value()?.parse::<Expr>()? {
        Expr::Path(path) if path.qself.is_none() => Ok(Some(path.path)),
        other => {
            cx.error_spanned_by(&other, format!("{HOW}; found {}", describe_expr(&other)));
            Ok(None)
        }
    }
}

/// The bare word an expression is (`image` in `content = image`), if it is one.
fn word_of(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
        _ => None,
    }
}

/// `key = word`, one of `choices` written without quotes: the word and where it was written.
fn choice(
    cx: &mut Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    choices: &[&str],
) -> syn::Result<Option<(String, Span)>> {
    let example = choices
        .iter()
        .map(|c| format!("`{key} = {c}`"))
        .collect::<Vec<_>>()
        .join(" or ");
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(&meta.path, format!("`{key}` needs a value: {example}"));
        skip_value(meta)?;
        return Ok(None);
    }
    let expr: Expr = meta.value()?.parse()?;
    let word = word_of(&expr);
    match word {
        Some(word) if choices.contains(&word.as_str()) => Ok(Some((word, expr.span()))),
        Some(other) => {
            cx.error_spanned_by(
                &expr,
                unknown_key_message(&format!("`{key}` value"), &other, choices),
            );
            Ok(None)
        }
        None => {
            cx.error_spanned_by(
                &expr,
                format!(
                    "`{key}` takes a word without quotes, found {}; {example}",
                    describe_expr(&expr)
                ),
            );
            Ok(None)
        }
    }
}

/// `mirror = pretty | compact`: whether the mirror is compact, and where it was written.
fn mirror(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<(bool, Span)>> {
    Ok(choice(cx, meta, MIRROR, &["pretty", "compact"])?
        .map(|(word, span)| (word == "compact", span)))
}

/// `schema = portable | strict | as_derived`: the profile the schemas are served in, and where
/// that was written.
fn schema(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<(String, Span)>> {
    choice(cx, meta, SCHEMA, &["portable", "strict", "as_derived"])
}

/// `task = optional | required`: whether the tool may, or must, run as a task (SEP-2663).
fn task(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<(bool, Span)>> {
    Ok(choice(cx, meta, TASK, &["optional", "required"])?
        .map(|(word, span)| (word == "required", span)))
}

fn content(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<(Kind, Span)>> {
    let keywords = Kind::ALL.map(|(_, k)| k);
    let kinds: Vec<String> = keywords.iter().map(|k| format!("`{k}`")).collect();
    let kinds = kinds.join(", ");
    if !meta.input.peek(Token![=]) {
        cx.error_spanned_by(
            &meta.path,
            format!("`content` needs a kind: `content = image`; one of {kinds}"),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let expr: Expr = meta.value()?.parse()?;
    let word = word_of(&expr);
    let Some(word) = word else {
        cx.error_spanned_by(
            &expr,
            format!(
                "`content` takes a kind without quotes, found {}; one of {kinds}",
                describe_expr(&expr)
            ),
        );
        return Ok(None);
    };
    match Kind::from_keyword(&word) {
        Some(kind) => Ok(Some((kind, expr.span()))),
        None => {
            cx.error_spanned_by(&expr, unknown_key_message("content kind", &word, &keywords));
            Ok(None)
        }
    }
}

fn annotations(cx: &mut Ctxt, meta: &ParseNestedMeta<'_>) -> syn::Result<Option<Annotations>> {
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            "`annotations` takes a list: `annotations(read_only, idempotent)`",
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let mut hints = Annotations::default();
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
        let slot = match key.as_str() {
            READ_ONLY => &mut hints.read_only,
            DESTRUCTIVE => &mut hints.destructive,
            IDEMPOTENT => &mut hints.idempotent,
            OPEN_WORLD => &mut hints.open_world,
            _ => {
                cx.error_spanned_by(
                    &inner.path,
                    unknown_key_message("annotation", &key, ANNOTATION_KEYS),
                );
                return skip_value(&inner);
            }
        };
        *slot = flag(cx, &inner, &key)?;
        Ok(())
    })?;
    Ok(Some(hints))
}
