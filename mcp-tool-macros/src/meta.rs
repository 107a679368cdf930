//! `meta(...)` on `#[mcp_tool]`: the `_meta` of the tool's `tools/list` entry, each key checked
//! against MCP's `_meta` key format and reserved prefixes, each value a JSON literal.

use syn::meta::ParseNestedMeta;
use syn::{Expr, Lit, LitStr, Token};

use crate::ctxt::Ctxt;
use crate::keys::{describe_expr, list};

/// One `"key" = value` of `meta(...)`.
struct MetaEntry {
    key: LitStr,
    value: Expr,
}

impl syn::parse::Parse for MetaEntry {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let key = input.parse()?;
        input.parse::<Token![=]>()?;
        Ok(MetaEntry {
            key,
            value: input.parse()?,
        })
    }
}

/// `meta("com.example/key" = "value", ...)`: each key a `_meta` key MCP allows and does not
/// reserve, once; each value a string, number or bool literal. Each mistake at its token.
pub(crate) fn meta_entries(
    cx: &mut Ctxt,
    meta: &ParseNestedMeta<'_>,
) -> syn::Result<Vec<(LitStr, Expr)>> {
    const EXAMPLE: &str = "meta(\"com.example/tier\" = \"gold\")";
    let usage = format!("`meta` takes a list of `\"key\" = value`: `{EXAMPLE}`");
    let Some(list) = list::<MetaEntry>(cx, meta, &usage)? else {
        return Ok(Vec::new());
    };
    let mut entries: Vec<(LitStr, Expr)> = Vec::new();
    for MetaEntry { key, value } in list {
        let name = key.value();
        if let Err(problem) = meta_key(&name) {
            cx.error_spanned_by(&key, format!("the `_meta` key `{name}` {problem}"));
            continue;
        }
        if entries.iter().any(|(seen, _)| seen.value() == name) {
            cx.error_spanned_by(&key, format!("the `_meta` key `{name}` is given twice"));
            continue;
        }
        if !is_json_literal(&value) {
            cx.error_spanned_by(
                &value,
                format!(
                    "a `meta` value is a string, number or bool literal, found {}; write `{EXAMPLE}` \
                     (`ToolDeclaration::meta` takes any JSON)",
                    describe_expr(&value)
                ),
            );
            continue;
        }
        entries.push((key, value));
    }
    Ok(entries)
}

/// A string, number (possibly negative) or bool literal.
fn is_json_literal(expr: &Expr) -> bool {
    match expr {
        Expr::Lit(lit) => matches!(
            lit.lit,
            Lit::Str(_) | Lit::Int(_) | Lit::Float(_) | Lit::Bool(_)
        ),
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => matches!(
            &**expr,
            Expr::Lit(syn::ExprLit {
                lit: Lit::Int(_) | Lit::Float(_),
                ..
            })
        ),
        _ => false,
    }
}

/// MCP's `_meta` key format: an optional prefix of dot-separated labels and a slash (a label
/// starts with a letter, ends with a letter or digit, holds letters, digits and hyphens), whose
/// second label is not `modelcontextprotocol` or `mcp` (reserved for MCP); then a name that,
/// unless empty, starts and ends with a letter or digit and holds letters, digits, `-`, `_`, `.`.
fn meta_key(key: &str) -> Result<(), String> {
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    if let Some(prefix) = prefix {
        let labels: Vec<&str> = prefix.split('.').collect();
        let good_label = |label: &&str| {
            let bytes = label.as_bytes();
            !bytes.is_empty()
                && bytes[0].is_ascii_alphabetic()
                && bytes[bytes.len() - 1].is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        };
        if !labels.iter().all(good_label) {
            return Err(format!(
                "has the prefix `{prefix}/`; a prefix is dot-separated labels, each starting with a \
                 letter, ending with a letter or digit, of letters, digits and `-` (`com.example/`)"
            ));
        }
        if let Some(second) = labels.get(1)
            && matches!(*second, "modelcontextprotocol" | "mcp")
        {
            return Err(format!(
                "uses the prefix `{prefix}/`, which MCP reserves for itself; use your own \
                 (`com.example/`)"
            ));
        }
    }
    let bytes = name.as_bytes();
    let good_name = bytes.is_empty()
        || (bytes[0].is_ascii_alphanumeric()
            && bytes[bytes.len() - 1].is_ascii_alphanumeric()
            && bytes
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')));
    if !good_name {
        return Err(format!(
            "has the name `{name}`; a name starts and ends with a letter or digit and holds \
             letters, digits, `-`, `_` and `.`"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::meta_key;

    #[test]
    fn meta_keys_follow_mcps_format() {
        for good in [
            "tier",
            "com.example/tier",
            "com.example.mcp/x",
            "a-b.c/n_1.2",
            "x/",
            "a1/b",
        ] {
            assert!(meta_key(good).is_ok(), "{good}");
        }
        for bad in [
            "io.modelcontextprotocol/ui",
            "dev.mcp/x",
            "com.mcp.tools/x",
            "1com/x",
            "com-/x",
            "com..example/x",
            "/x",
            "com.example/-x",
            "com.example/x-",
            "com.example/a b",
            "_x",
        ] {
            assert!(meta_key(bad).is_err(), "{bad}");
        }
    }
}
