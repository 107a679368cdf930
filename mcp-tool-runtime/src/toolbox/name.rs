//! Tool names: what MCP clients accept.

/// Checks a tool name against what MCP clients accept: 1 to 64 characters of `A-Za-z0-9_.-`;
/// `Err` says what is wrong. (The macro checks the same rule at compile time, in
/// `mcp-tool-macros`' `valid.rs`: a proc-macro crate cannot call this one.)
pub(crate) fn check_tool_name(name: &str) -> Result<(), String> {
    let reason = if name.is_empty() {
        Some("it is empty".to_owned())
    } else if name.chars().count() > 64 {
        Some(format!("it is {} characters long", name.chars().count()))
    } else {
        name.chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
            .map(|c| format!("it contains {c:?}"))
    };
    reason.map_or(Ok(()), Err)
}
