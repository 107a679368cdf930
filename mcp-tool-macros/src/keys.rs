//! The keys of an attribute: a duplicate is found one way, and after a reported key its value is
//! skipped, so one mistake is one error.

use std::collections::HashSet;

use syn::meta::ParseNestedMeta;

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
