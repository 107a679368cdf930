//! [`UriTemplate`]: an RFC 6570 URI template as `resources/read` matches it: parsed once at
//! registration, matched against a URI and decoded into its variables, and compared with the
//! other templates so that no URI is served by two.

use std::collections::HashSet;
use std::fmt;

/// A URI template (RFC 6570): level 1 (`{name}`) and the reserved form of level 2 (`{+path}`),
/// the forms MCP's specification and its SDKs' examples use.
///
/// A `{name}` variable matches one or more characters up to the next `/`, `?` or `#`; a
/// `{+path}` variable matches one or more of any character (slashes included). Values are
/// percent-decoded.
///
/// ```
/// use mcp_tool_runtime::resource::UriTemplate;
///
/// let template = UriTemplate::parse("invoices://{number}/lines/{+rest}").unwrap();
/// assert_eq!(template.variables().collect::<Vec<_>>(), ["number", "rest"]);
/// let matched = template.matches("invoices://INV%2D7/lines/a/b").unwrap();
/// assert_eq!(matched, [("number", "INV-7".to_owned()), ("rest", "a/b".to_owned())]);
/// assert!(template.matches("invoices://INV-7").is_none());
/// assert!(UriTemplate::parse("invoices://{number").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    source: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable { name: String, reserved: bool },
}

/// Why a URI or URI template is refused.
///
/// ```
/// use mcp_tool_runtime::resource::UriTemplate;
/// let error = UriTemplate::parse("a://{x}{y}").unwrap_err();
/// assert!(error.to_string().contains("side by side"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UriError(String);

impl UriTemplate {
    /// Parses `source`.
    ///
    /// # Errors
    /// A URI without a scheme (`name:`), a `{` without its `}`, a stray `}`, an empty or
    /// malformed variable name, an operator other than `+`, a variable named twice, two
    /// variables with nothing between them, or a character a URI cannot hold (space, control).
    pub fn parse(source: &str) -> Result<Self, UriError> {
        check_scheme(source)?;
        let mut parts = Vec::new();
        let mut names = HashSet::new();
        let mut rest = source;
        while !rest.is_empty() {
            let Some(open) = rest.find(['{', '}']) else {
                parts.push(Part::Literal(literal(rest)?));
                break;
            };
            if rest.as_bytes()[open] == b'}' {
                return Err(UriError(format!(
                    "`{source}` has a `}}` that closes no variable"
                )));
            }
            if open > 0 {
                parts.push(Part::Literal(literal(&rest[..open])?));
            }
            let Some(close) = rest[open..].find('}').map(|at| at + open) else {
                return Err(UriError(format!("`{source}` has a `{{` without its `}}`")));
            };
            let expression = &rest[open + 1..close];
            let (name, reserved) = match expression.strip_prefix('+') {
                Some(name) => (name, true),
                None => (expression, false),
            };
            check_variable_name(source, name)?;
            if !names.insert(name) {
                return Err(UriError(format!(
                    "`{source}` names the variable `{name}` twice"
                )));
            }
            if matches!(parts.last(), Some(Part::Variable { .. })) {
                return Err(UriError(format!(
                    "`{source}` has two variables side by side, which no URI can tell apart; put a literal between them"
                )));
            }
            parts.push(Part::Variable {
                name: name.to_owned(),
                reserved,
            });
            rest = &rest[close + 1..];
        }
        Ok(UriTemplate {
            source: source.to_owned(),
            parts,
        })
    }

    /// The template as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the template has no variables: a plain URI.
    pub fn is_plain(&self) -> bool {
        self.variables().next().is_none()
    }

    /// The variables' names, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|part| match part {
            Part::Variable { name, .. } => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The variables' values in `uri`, percent-decoded, in template order; `None` when `uri`
    /// does not match. Where a literal could end a variable at several places, each variable
    /// takes the shortest value that lets the rest match. Linear in the URI's length times the
    /// template's: no URI makes it retry a place.
    pub fn matches<'t>(&'t self, uri: &str) -> Option<Vec<(&'t str, String)>> {
        // Character boundaries, and whether each character may be in a simple variable.
        let bounds: Vec<usize> = uri
            .char_indices()
            .map(|(at, _)| at)
            .chain([uri.len()])
            .collect();
        let simple: Vec<bool> = uri.chars().map(|c| !matches!(c, '/' | '?' | '#')).collect();
        let n = simple.len();
        // `ok[p][i]`: parts `p..` match the characters `i..`. Filled from the end.
        let mut ok = vec![vec![false; n + 1]; self.parts.len() + 1];
        ok[self.parts.len()][n] = true;
        for (p, part) in self.parts.iter().enumerate().rev() {
            match part {
                Part::Literal(text) => {
                    let len = text.chars().count();
                    for i in 0..=n {
                        ok[p][i] = i + len <= n
                            && uri[bounds[i]..].starts_with(text.as_str())
                            && ok[p + 1][i + len];
                    }
                }
                Part::Variable { reserved, .. } => {
                    for i in (0..n).rev() {
                        ok[p][i] = (*reserved || simple[i]) && (ok[p + 1][i + 1] || ok[p][i + 1]);
                    }
                }
            }
        }
        if !ok[0][0] {
            return None;
        }
        let mut values = Vec::new();
        let mut i = 0;
        for (p, part) in self.parts.iter().enumerate() {
            match part {
                Part::Literal(text) => i += text.chars().count(),
                Part::Variable { name, .. } => {
                    let end = (i + 1..=n).find(|&end| ok[p + 1][end])?;
                    values.push((name.as_str(), decode(&uri[bounds[i]..bounds[end]])?));
                    i = end;
                }
            }
        }
        Some(values)
    }

    /// Whether some URI matches both templates: then `resources/read` could not say which
    /// serves it. Exact for these forms: the two templates are run side by side over every
    /// kind of character that could tell them apart.
    pub fn overlaps(&self, other: &UriTemplate) -> bool {
        let (a, b) = (Atoms::of(self), Atoms::of(other));
        // The characters either template names, and one of each class that neither names:
        // every other character behaves as one of these.
        let mut alphabet: Vec<char> = a.literals().chain(b.literals()).collect();
        alphabet.sort_unstable();
        alphabet.dedup();
        if let Some(plain) = ('a'..='z').chain('0'..='9').find(|c| !alphabet.contains(c)) {
            alphabet.push(plain);
        }
        for stop in ['/', '?', '#'] {
            if !alphabet.contains(&stop) {
                alphabet.push(stop);
            }
        }
        let mut seen = HashSet::new();
        let mut frontier = vec![(State::default(), State::default())];
        while let Some((x, y)) = frontier.pop() {
            if !seen.insert((x, y)) {
                continue;
            }
            if a.accepts(x) && b.accepts(y) {
                return true;
            }
            for &c in &alphabet {
                for next_x in a.step(x, c) {
                    for next_y in b.step(y, c) {
                        frontier.push((next_x, next_y));
                    }
                }
            }
        }
        false
    }
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

/// Where a template's automaton is: at atom `at`, and whether the variable there has taken a
/// character yet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
struct State {
    at: usize,
    inside: bool,
}

/// A template as characters and variables, for [`UriTemplate::overlaps`].
struct Atoms(Vec<Atom>);

enum Atom {
    Char(char),
    Variable { reserved: bool },
}

impl Atoms {
    fn of(template: &UriTemplate) -> Self {
        let mut atoms = Vec::new();
        for part in &template.parts {
            match part {
                Part::Literal(text) => atoms.extend(text.chars().map(Atom::Char)),
                Part::Variable { reserved, .. } => atoms.push(Atom::Variable {
                    reserved: *reserved,
                }),
            }
        }
        Atoms(atoms)
    }

    fn literals(&self) -> impl Iterator<Item = char> + '_ {
        self.0.iter().filter_map(|atom| match atom {
            Atom::Char(c) => Some(*c),
            Atom::Variable { .. } => None,
        })
    }

    /// Whether the whole template has matched at `state`.
    fn accepts(&self, state: State) -> bool {
        let mut state = state;
        // A variable that has taken its character may end here.
        if state.inside {
            state = State {
                at: state.at + 1,
                inside: false,
            };
        }
        state.at == self.0.len()
    }

    /// The states after reading `c` at `state`.
    fn step(&self, state: State, c: char) -> Vec<State> {
        let mut next = Vec::new();
        let mut consider = vec![state];
        if state.inside {
            consider.push(State {
                at: state.at + 1,
                inside: false,
            });
        }
        for state in consider {
            match self.0.get(state.at) {
                Some(Atom::Char(expected)) if *expected == c && !state.inside => next.push(State {
                    at: state.at + 1,
                    inside: false,
                }),
                Some(Atom::Variable { reserved }) if *reserved || !matches!(c, '/' | '?' | '#') => {
                    next.push(State {
                        at: state.at,
                        inside: true,
                    });
                }
                _ => {}
            }
        }
        next
    }
}

/// A URI or template must start with a scheme: a letter, then letters, digits, `+`, `-` or `.`,
/// then `:`.
fn check_scheme(source: &str) -> Result<(), UriError> {
    let scheme = source.split_once(':').map(|(scheme, _)| scheme);
    let valid = scheme.is_some_and(|scheme| {
        let mut chars = scheme.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    if valid {
        Ok(())
    } else {
        Err(UriError(format!(
            "`{source}` does not start with a scheme (`name:`, such as `invoices://` or `file:///`)"
        )))
    }
}

/// A literal part: any character a URI holds (percent-encoded text is kept as written).
fn literal(text: &str) -> Result<String, UriError> {
    if let Some(bad) = text
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '\\'))
    {
        return Err(UriError(format!(
            "`{text}` holds {bad:?}, which a URI cannot; percent-encode it"
        )));
    }
    Ok(text.to_owned())
}

/// RFC 6570 variable names: letters, digits, `_` and percent-encoded triplets; dots between
/// them. Modifiers (`:3`, `*`) and other operators are refused with the forms supported.
fn check_variable_name(source: &str, name: &str) -> Result<(), UriError> {
    if let Some(operator) = name.chars().next().filter(|c| {
        matches!(
            c,
            '#' | '.' | '/' | ';' | '?' | '&' | '=' | ',' | '!' | '@' | '|'
        )
    }) {
        return Err(UriError(format!(
            "`{source}` uses the operator `{operator}`, which is not supported; use `{{name}}` or `{{+name}}`"
        )));
    }
    let valid = !name.is_empty()
        && !name.starts_with('.')
        && !name.ends_with('.')
        && !name.contains("..")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'));
    if valid {
        Ok(())
    } else {
        Err(UriError(format!(
            "`{source}` has a malformed variable `{{{name}}}`: a name is letters, digits and `_` (no lists, `*` or `:n`)"
        )))
    }
}

/// Percent-decodes a variable's value; `None` when the result is not UTF-8 or a `%` starts no
/// triplet.
fn decode(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = value.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Checks that `uri` is one a resource may be served at: a scheme and nothing a URI cannot hold.
pub(crate) fn check_uri(uri: &str) -> Result<(), UriError> {
    check_scheme(uri)?;
    literal(uri).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(source: &str) -> UriTemplate {
        UriTemplate::parse(source).unwrap()
    }

    #[test]
    fn simple_variables_stop_at_slashes_and_reserved_ones_do_not() {
        let template = t("test://template/{id}/data");
        assert_eq!(
            template.matches("test://template/42/data"),
            Some(vec![("id", "42".to_owned())])
        );
        assert_eq!(template.matches("test://template/4/2/data"), None);
        assert_eq!(template.matches("test://template//data"), None);
        assert_eq!(
            t("file:///{+path}").matches("file:///a/b%20c.txt"),
            Some(vec![("path", "a/b c.txt".to_owned())])
        );
    }

    #[test]
    fn the_shortest_value_that_lets_the_rest_match_is_taken() {
        let template = t("x://{a}-{b}");
        assert_eq!(
            template.matches("x://p-q-r"),
            Some(vec![("a", "p".to_owned()), ("b", "q-r".to_owned())])
        );
        assert_eq!(template.matches("x://p-"), None);
    }

    #[test]
    fn undecodable_values_do_not_match() {
        assert_eq!(t("x://{a}").matches("x://%zz"), None);
        assert_eq!(t("x://{a}").matches("x://%ff"), None);
    }

    #[test]
    fn malformed_templates_are_refused_with_the_reason() {
        for (source, says) in [
            ("no-scheme/{a}", "scheme"),
            ("x://{a", "without its"),
            ("x://a}", "closes no variable"),
            ("x://{}", "malformed variable"),
            ("x://{a*}", "malformed variable"),
            ("x://{a:3}", "malformed variable"),
            ("x://{?q}", "operator `?`"),
            ("x://{a}/{a}", "twice"),
            ("x://{a}{b}", "side by side"),
            ("x://a b", "cannot"),
        ] {
            let error = UriTemplate::parse(source).unwrap_err().to_string();
            assert!(error.contains(says), "{source}: {error}");
        }
    }

    #[test]
    fn templates_that_share_a_uri_overlap_and_others_do_not() {
        let overlapping = [
            ("x://{a}/data", "x://{b}/data"),
            ("x://{a}", "x://item-{b}"),
            ("x://{+a}", "x://{b}/c"),
            ("x://{a}-{b}", "x://{c}"),
        ];
        for (a, b) in overlapping {
            assert!(t(a).overlaps(&t(b)), "{a} and {b}");
            assert!(t(b).overlaps(&t(a)), "{b} and {a}");
        }
        let apart = [
            ("x://{a}/data", "x://{b}/meta"),
            ("x://{a}", "x://{b}/c"),
            ("x://{a}", "y://{a}"),
            ("x://item-{a}", "x://order-{a}"),
        ];
        for (a, b) in apart {
            assert!(!t(a).overlaps(&t(b)), "{a} and {b}");
            assert!(!t(b).overlaps(&t(a)), "{b} and {a}");
        }
    }

    #[test]
    fn a_long_uri_is_matched_without_retrying_places() {
        let template = t("x://{a}-{b}-{c}-end");
        let uri = format!("x://{}", "-".repeat(200_000));
        assert_eq!(template.matches(&uri), None);
        let uri = format!("x://{}end", "-".repeat(200_000));
        let values = template.matches(&uri).unwrap();
        assert_eq!(
            values[2].1.len(),
            200_000 - 5,
            "a, b and the three dashes take 5"
        );
    }
}
