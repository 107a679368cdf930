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
/// literals may hold anything). One pass over the bytes: a group is text in its parent's run
/// until a hole is found inside it.
pub fn fill(code: &str, parts: &[&dyn ToTokens]) -> TokenStream {
    let bytes = code.as_bytes();
    let mut frames = vec![Frame {
        delimiter: Delimiter::None,
        open_at: 0,
        built: true,
        run: 0,
        pieces: Vec::new(),
    }];
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = string_end(bytes, i),
            b'(' | b'[' | b'{' => frames.push(Frame {
                delimiter: match bytes[i] {
                    b'(' => Delimiter::Parenthesis,
                    b'[' => Delimiter::Bracket,
                    _ => Delimiter::Brace,
                },
                open_at: i,
                built: false,
                run: 0,
                pieces: Vec::new(),
            }),
            b')' | b']' | b'}' => {
                let mut frame = frames.pop().expect("template delimiters balance");
                // A group with a hole in it is built, and its parent's run starts after it.
                if frame.built {
                    frame.pieces.push(text(&code[frame.run..i]));
                    let group = Group::new(frame.delimiter, frame.pieces.into_iter().collect());
                    let parent = frames.last_mut().expect("template delimiters balance");
                    parent.pieces.push(TokenTree::Group(group).into());
                    parent.run = i + 1;
                }
            }
            b'#' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                // Every group around the hole is built, not text: each one's parent's run
                // ends at its opening delimiter.
                for at in 1..frames.len() {
                    if !frames[at].built {
                        let open_at = frames[at].open_at;
                        let parent = &mut frames[at - 1];
                        parent.pieces.push(text(&code[parent.run..open_at]));
                        frames[at].built = true;
                        frames[at].run = open_at + 1;
                    }
                }
                let frame = frames.last_mut().expect("the root");
                frame.pieces.push(text(&code[frame.run..i]));
                let digits = bytes[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                let n: usize = code[i + 1..i + 1 + digits].parse().expect("digits");
                frame.pieces.push(parts[n].to_token_stream());
                i += digits;
                frame.run = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let mut root = frames.pop().expect("the root");
    debug_assert!(frames.is_empty(), "template delimiters balance");
    root.pieces.push(text(&code[root.run..]));
    root.pieces.into_iter().collect()
}

/// A delimited group of a template being filled.
struct Frame {
    delimiter: Delimiter,
    /// Where its opening delimiter is.
    open_at: usize,
    /// Whether it is built as a group (a hole was found in it) rather than left as text in its
    /// parent's run.
    built: bool,
    /// Where its current run of text starts, once built.
    run: usize,
    pieces: Vec<TokenStream>,
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
    fn a_hole_after_a_built_group_closes_inside_its_parent() {
        let (a, b, c) = (quote!(x), quote!(y), quote!(z));
        same(
            fill("m { f() { #0 } g() { h({ #1 }); #2 } } n", &[&a, &b, &c]),
            quote!(m { f() { x } g() { h({ y }); z } } n),
        );
    }

    #[test]
    fn holes_past_nine_take_every_digit() {
        let parts: Vec<TokenStream> = (0..12usize).map(|n| quote!(#n)).collect();
        let parts: Vec<&dyn ToTokens> = parts.iter().map(|p| p as &dyn ToTokens).collect();
        same(
            fill(
                "f(#0, #1, #2, #3, #4, #5, #6, #7, #8, #9, #10, #11)",
                &parts,
            ),
            quote!(f(
                0usize, 1usize, 2usize, 3usize, 4usize, 5usize, 6usize, 7usize, 8usize, 9usize,
                10usize, 11usize
            )),
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
