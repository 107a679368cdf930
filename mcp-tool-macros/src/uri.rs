//! A resource's URI or URI template, checked at compile time by the rules the runtime's
//! `UriTemplate::parse` applies at registration (a proc-macro crate cannot call the runtime):
//! its variables, or what is wrong with it.

/// The template's variables in order, or the problem.
pub fn variables(source: &str) -> Result<Vec<String>, String> {
    let scheme_ok = source.split_once(':').is_some_and(|(scheme, _)| {
        let mut chars = scheme.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    });
    if !scheme_ok {
        return Err(format!(
            "`{source}` does not start with a scheme (`name:`, such as `invoices://` or `file:///`)"
        ));
    }
    if let Some(bad) = source
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '"' | '\\'))
    {
        return Err(format!(
            "`{source}` holds {bad:?}, which a URI cannot; percent-encode it"
        ));
    }
    let mut names: Vec<String> = Vec::new();
    let mut rest = source;
    let mut last_was_variable = false;
    while let Some(open) = rest.find(['{', '}']) {
        if rest.as_bytes()[open] == b'}' {
            return Err(format!("`{source}` has a `}}` that closes no variable"));
        }
        if open > 0 {
            last_was_variable = false;
        }
        let Some(close) = rest[open..].find('}').map(|at| at + open) else {
            return Err(format!("`{source}` has a `{{` without its `}}`"));
        };
        let expression = &rest[open + 1..close];
        let name = expression.strip_prefix('+').unwrap_or(expression);
        if let Some(operator) = name.chars().next().filter(|c| "#./;?&=,!@|".contains(*c)) {
            return Err(format!(
                "`{source}` uses the operator `{operator}`, which is not supported; use `{{name}}` or `{{+name}}`"
            ));
        }
        let valid = !name.is_empty()
            && !name.starts_with('.')
            && !name.ends_with('.')
            && !name.contains("..")
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.'));
        if !valid {
            return Err(format!(
                "`{source}` has a malformed variable `{{{name}}}`: a name is letters, digits and `_` (no lists, `*` or `:n`)"
            ));
        }
        if names.iter().any(|n| n == name) {
            return Err(format!("`{source}` names the variable `{name}` twice"));
        }
        if last_was_variable {
            return Err(format!(
                "`{source}` has two variables side by side, which no URI can tell apart; put a literal between them"
            ));
        }
        names.push(name.to_owned());
        last_was_variable = true;
        rest = &rest[close + 1..];
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::variables;

    #[test]
    fn the_rules_are_the_runtimes() {
        assert_eq!(variables("x://{a}/b/{+c}").unwrap(), ["a", "c"]);
        assert!(variables("x://plain").unwrap().is_empty());
        for (bad, says) in [
            ("nope/{a}", "scheme"),
            ("x://{a", "without"),
            ("x://a}", "closes no"),
            ("x://{?a}", "operator"),
            ("x://{a*}", "malformed"),
            ("x://{a}/{a}", "twice"),
            ("x://{a}{b}", "side by side"),
            ("x://a b", "cannot"),
        ] {
            let problem = variables(bad).unwrap_err();
            assert!(problem.contains(says), "{bad}: {problem}");
        }
    }
}
