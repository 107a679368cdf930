//! Collects every error of one expansion, so a user with three mistakes sees three messages.

use std::fmt::Display;

use proc_macro2::TokenStream;
use quote::ToTokens;

#[derive(Default)]
pub struct Ctxt {
    errors: Vec<syn::Error>,
}

impl Ctxt {
    pub fn push(&mut self, error: syn::Error) {
        self.errors.extend(error);
    }

    pub fn error_spanned_by(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    pub fn error_at(&mut self, span: proc_macro2::Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// The collected errors as `compile_error!` invocations in source order (the checks run by
    /// stage, not by position), or `None` when there were none.
    pub fn into_compile_errors(mut self) -> Option<TokenStream> {
        self.errors.sort_by_key(|e| {
            let at = e.span().start();
            (at.line, at.column)
        });
        let mut errors = self.errors.into_iter();
        let mut all = errors.next()?;
        errors.for_each(|e| all.combine(e));
        Some(all.to_compile_error())
    }
}

/// The known word closest to `unknown`, if one is close enough to be a likely typo.
pub fn closest<'a>(unknown: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (edit_distance(unknown, k), *k))
        .filter(|(d, k)| *d <= (k.len() / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == *cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// "unknown key `x`; did you mean `y`? expected one of: ..."
pub fn unknown_key_message(what: &str, unknown: &str, known: &[&str]) -> String {
    let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
    let list = list.join(", ");
    match closest(unknown, known) {
        Some(k) => {
            format!("unknown {what} `{unknown}`; did you mean `{k}`? expected one of: {list}")
        }
        None => format!("unknown {what} `{unknown}`; expected one of: {list}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_closest_key() {
        assert_eq!(
            closest("descripton", &["name", "description"]),
            Some("description")
        );
        assert_eq!(closest("zzz", &["name", "description"]), None);
    }

    #[test]
    fn messages_list_the_keys() {
        assert_eq!(
            unknown_key_message("key", "nmae", &["name", "title"]),
            "unknown key `nmae`; did you mean `name`? expected one of: `name`, `title`"
        );
        assert_eq!(
            unknown_key_message("key", "zzz", &["name"]),
            "unknown key `zzz`; expected one of: `name`"
        );
    }
}
