//! Generated code written as Rust text with holes, parsed by the compiler a run at a time.
//!
//! `quote!` builds its output a token at a time, through proc-macro2 and the proc-macro bridge, in
//! a macro that users build unoptimized: about 1.5 K instructions per token, most of what
//! `#[mcp_tool]` costs a build. Text the compiler parses itself costs one call per run of text
//! (about 8 K instructions, nearly all of it the compiler's) and little per byte. So the fixed
//! part of the output is text, and only what comes from the user's source (types, names,
//! expressions, with their spans) is spliced in as tokens. A run must be long to pay: a hole, or a
//! group with a hole inside, starts a new one.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::ToTokens;

/// The runtime's path as templates spell it; a `crate = ...` attribute rewrites it.
pub const RUNTIME: &str = "::mcp_tool_runtime";

/// `code` with each hole `#0`, `#1`, … replaced by the tokens of `parts[n]`, their spans kept.
///
/// The text between holes is parsed in one call; a delimited group with a hole inside is built
/// around its own runs of text. Text tokens take the call site's span, as `quote!`'s do. A
/// template holds no comments and no character literals, and its delimiters balance (string
/// literals may hold anything).
pub fn fill(code: &str, parts: &[&dyn ToTokens]) -> TokenStream {
    let bytes = code.as_bytes();
    let mut close = vec![0; bytes.len()];
    let mut holes = Vec::new();
    let mut open = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = string_end(bytes, i),
            b'(' | b'[' | b'{' => open.push(i),
            b')' | b']' | b'}' => close[open.pop().expect("template delimiters balance")] = i,
            b'#' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => holes.push(i),
            _ => {}
        }
        i += 1;
    }
    debug_assert!(open.is_empty(), "template delimiters balance");
    Filler {
        code,
        close,
        holes,
        parts,
    }
    .build(0, bytes.len())
}

/// A template written a piece at a time: text, string literals, and holes each filled by one part.
#[derive(Default)]
pub struct Template<'a> {
    code: String,
    parts: Vec<&'a dyn ToTokens>,
    runtime: Option<String>,
}

impl<'a> Template<'a> {
    /// A template whose text spells the runtime's path `runtime` when one is given (a
    /// `crate = ...` attribute), [`RUNTIME`] otherwise.
    pub fn new(runtime: Option<String>) -> Self {
        Template {
            runtime,
            ..Template::default()
        }
    }

    /// Appends Rust text (its delimiters may open here and close in a later piece).
    pub fn text(&mut self, code: &str) -> &mut Self {
        match &self.runtime {
            Some(runtime) => self.code.push_str(&code.replace(RUNTIME, runtime)),
            None => self.code.push_str(code),
        }
        self
    }

    /// Appends a string literal holding `value` as it is (a user's text is never rewritten).
    pub fn literal(&mut self, value: &str) -> &mut Self {
        self.code.push_str(&format!("{value:?}"));
        self
    }

    /// Appends a hole filled by `part`'s tokens.
    pub fn hole(&mut self, part: &'a dyn ToTokens) -> &mut Self {
        self.code.push_str(&format!(" #{} ", self.parts.len()));
        self.parts.push(part);
        self
    }

    /// The tokens.
    pub fn finish(&self) -> TokenStream {
        fill(&self.code, &self.parts)
    }
}

/// The index of the closing quote of the string literal opening at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while bytes[i] != b'"' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    i
}

struct Filler<'a> {
    code: &'a str,
    /// For each opening delimiter's index, its closing delimiter's.
    close: Vec<usize>,
    /// The index of each hole's `#`, in order.
    holes: Vec<usize>,
    parts: &'a [&'a dyn ToTokens],
}

impl Filler<'_> {
    /// The tokens of `code[start..end]`, joined in one call from a stream per run of text, per
    /// part and per group (extending a stream a token at a time would cross the bridge per token).
    fn build(&self, start: usize, end: usize) -> TokenStream {
        let bytes = self.code.as_bytes();
        let mut pieces = Vec::new();
        let mut run = start;
        let mut i = start;
        while i < end {
            match bytes[i] {
                b'"' => i = string_end(bytes, i) + 1,
                b @ (b'(' | b'[' | b'{') => {
                    let close = self.close[i];
                    if !self.has_hole(i, close) {
                        i = close + 1;
                        continue;
                    }
                    pieces.push(text(&self.code[run..i]));
                    let delimiter = match b {
                        b'(' => Delimiter::Parenthesis,
                        b'[' => Delimiter::Bracket,
                        _ => Delimiter::Brace,
                    };
                    let group = Group::new(delimiter, self.build(i + 1, close));
                    pieces.push(TokenTree::Group(group).into());
                    i = close + 1;
                    run = i;
                }
                b'#' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                    pieces.push(text(&self.code[run..i]));
                    let digits = bytes[i + 1..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    let n: usize = self.code[i + 1..i + 1 + digits].parse().expect("digits");
                    pieces.push(self.parts[n].to_token_stream());
                    i += 1 + digits;
                    run = i;
                }
                _ => i += 1,
            }
        }
        pieces.push(text(&self.code[run..end]));
        pieces.into_iter().collect()
    }

    /// Whether a hole lies between `start` and `end`.
    fn has_hole(&self, start: usize, end: usize) -> bool {
        let first = self.holes.partition_point(|&hole| hole < start);
        self.holes.get(first).is_some_and(|&hole| hole < end)
    }
}

/// `code` parsed by the compiler in one call (by proc-macro2's own parser outside a macro, as in
/// unit tests).
pub fn text(code: &str) -> TokenStream {
    if code.trim().is_empty() {
        return TokenStream::new();
    }
    if proc_macro::is_available() {
        let parsed: proc_macro::TokenStream = code.parse().expect("template parses");
        parsed.into()
    } else {
        code.parse().expect("template parses")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    /// The same tokens (printed without spaces: the parser and `quote!` join punctuation apart).
    fn same(template: TokenStream, expected: TokenStream) {
        let print = |tokens: TokenStream| tokens.to_string().replace(' ', "");
        assert_eq!(print(template), print(expected));
    }

    #[test]
    fn fills_holes_at_every_depth() {
        let ty = quote!(Vec<u8>);
        let name = quote::format_ident!("add");
        same(
            fill(
                r#"impl T for #0 { fn f() -> #1 { g::<#1>("a { ( #1 \" [") } fn h() {} }"#,
                &[&name, &ty],
            ),
            quote!(impl T for add { fn f() -> Vec<u8> { g::<Vec<u8> >("a { ( #1 \" [") } fn h() {} }),
        );
    }

    #[test]
    fn text_without_holes_is_text() {
        same(
            fill("#[doc(hidden)] mod m {}", &[]),
            quote!(
                #[doc(hidden)]
                mod m {}
            ),
        );
    }

    #[test]
    fn a_template_written_in_pieces_is_filled_in_order() {
        let (a, b) = (quote!(x), quote!(y));
        let mut template = Template::default();
        template
            .text("f(")
            .hole(&a)
            .text(", g(")
            .hole(&b)
            .text("))");
        same(template.finish(), quote!(f(x, g(y))));
    }

    #[test]
    fn the_runtime_path_follows_the_crate_attribute_in_text_only() {
        let mut template = Template::new(Some("rt".to_owned()));
        template
            .text("::mcp_tool_runtime::f(")
            .literal("::mcp_tool_runtime \"#0\"")
            .text(")");
        same(
            template.finish(),
            quote!(rt::f("::mcp_tool_runtime \"#0\"")),
        );
    }
}
