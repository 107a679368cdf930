//! Spans on generated code: every token given the user's span, so an unmet bound on the
//! runtime's paths is reported at the user's type rather than at the attribute.

use proc_macro2::{Group, Span, TokenStream, TokenTree};

/// `tokens`, each with `span`.
pub fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut inner = Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = TokenTree::Group(inner);
            } else {
                token.set_span(span);
            }
            token
        })
        .collect()
}
