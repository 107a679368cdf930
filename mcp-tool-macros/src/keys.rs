//! The keys of an attribute: a duplicate is found one way, after a reported key its value is
//! skipped, so one mistake is one error, and a key's value is read (a list, or any expression
//! described in a message) the same way by every attribute.

use std::collections::HashSet;

use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, Token};

use crate::ctxt::Ctxt;

/// The keys of one attribute seen so far: the one way a duplicate key is found and reported.
#[derive(Default)]
pub struct Seen(HashSet<String>);

impl Seen {
    /// Whether `key` is given for the first time; a second time is reported at `path`.
    pub fn first(&mut self, cx: &mut Ctxt, path: &syn::Path, key: &str, what: &str) -> bool {
        if self.0.insert(key.to_owned()) {
            return true;
        }
        cx.error_spanned_by(
            path,
            format!("duplicate {what} `{key}`; give each {what} once"),
        );
        false
    }
}

/// Skips what follows a key that was reported (`= value`, `(...)`, or a slip such as a missing
/// `=`), up to the next `,`: one mistake is one error, never also a syntax error after it.
pub fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    meta.input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((token, next)) = rest.token_tree() {
            if matches!(&token, proc_macro2::TokenTree::Punct(p) if p.as_char() == ',') {
                break;
            }
            rest = next;
        }
        Ok(((), rest))
    })
}

/// `key(item, ...)`: the items inside the parentheses; `None`, reported with `usage` at the key,
/// when the key has no parentheses.
pub(crate) fn list<T: syn::parse::Parse>(
    cx: &mut Ctxt,
    meta: &ParseNestedMeta<'_>,
    usage: &str,
) -> syn::Result<Option<Punctuated<T, Token![,]>>> {
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(&meta.path, usage);
        skip_value(meta)?;
        return Ok(None);
    }
    let content;
    syn::parenthesized!(content in meta.input);
    Punctuated::parse_terminated(&content).map(Some)
}

/// What kind of expression `expr` is, for a message saying what was given instead.
pub(crate) fn describe_expr(expr: &Expr) -> &'static str {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(_) => "a string",
            Lit::Int(_) | Lit::Float(_) => "a number",
            Lit::Bool(_) => "a bool",
            _ => "a literal",
        },
        Expr::Path(_) => "a path",
        _ => "an expression",
    }
}
