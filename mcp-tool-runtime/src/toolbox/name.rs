//! Tool names: what MCP clients accept (SEP-986).

/// Checks a tool name against what MCP clients accept: 1 to 128 characters of `A-Za-z0-9_.-`;
/// `Err` says what is wrong. (The macro checks the same rule at compile time, in
/// `mcp-tool-macros`' `valid.rs`: a proc-macro crate cannot call this one.)
pub(crate) fn check_tool_name(name: &str) -> Result<(), String> {
    let reason = if name.is_empty() {
        Some("it is empty".to_owned())
    } else if name.chars().count() > 128 {
        Some(format!("it is {} characters long", name.chars().count()))
    } else {
        name.chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .map(|c| format!("it contains {c:?}"))
    };
    reason.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::check_tool_name;

    #[test]
    fn names_of_1_to_128_allowed_characters_pass() {
        assert!(check_tool_name("a").is_ok());
        assert!(check_tool_name(&"a".repeat(128)).is_ok());
        assert!(check_tool_name("list.invoices-v2_beta").is_ok());
        assert_eq!(
            check_tool_name(&"a".repeat(129)),
            Err("it is 129 characters long".to_owned())
        );
        assert_eq!(check_tool_name(""), Err("it is empty".to_owned()));
        assert_eq!(check_tool_name("a b"), Err("it contains ' '".to_owned()));
    }
}
