//! `assert_tool_result_conforms`: check in your own tests that a tool keeps its promise.

use serde_json::Value;

use crate::message::truncate;

/// Panics unless the `tools/call` result's `structuredContent` satisfies the `outputSchema` of the
/// `tools/list` entry, both given as wire JSON.
///
/// Validation is by the `jsonschema` crate, JSON Schema 2020-12 unless the schema names another
/// `$schema`, with formats checked (`date-time`, `date`, `uuid`, `email`, `uri`, ...). The panic
/// lists every problem sorted by path, one a line: where, what was advertised, what arrived. It
/// also panics when the entry advertises no `outputSchema`, or advertises one and the result has
/// no `structuredContent`.
///
/// ```
/// use mcp_tool_runtime::assert_tool_result_conforms;
/// use serde_json::json;
///
/// let entry = json!({
///     "name": "get_invoice",
///     "inputSchema": {"type": "object"},
///     "outputSchema": {
///         "type": "object",
///         "properties": {"issued": {"type": "string", "format": "date"}},
///         "required": ["issued"]
///     }
/// });
/// let result = json!({"content": [], "structuredContent": {"issued": "2026-11-30"}});
/// assert_tool_result_conforms(&entry, &result);
///
/// let wrong = json!({"content": [], "structuredContent": {"issued": "yesterday"}});
/// let panic = std::panic::catch_unwind(|| assert_tool_result_conforms(&entry, &wrong));
/// assert!(panic.is_err());
/// ```
#[track_caller]
pub fn assert_tool_result_conforms(tool: &Value, result: &Value) {
    if let Err(message) = check_conforms(tool, result) {
        panic!("{message}");
    }
}

/// What [`assert_tool_result_conforms`] checks, as a `Result` with its message.
///
/// ```
/// use mcp_tool_runtime::check_conforms;
/// use serde_json::json;
///
/// let entry = json!({"name": "t", "outputSchema": {"type": "object", "required": ["a"]}});
/// let message = check_conforms(&entry, &json!({"structuredContent": {}})).unwrap_err();
/// assert!(message.contains("required property \"a\""), "{message}");
/// ```
pub fn check_conforms(tool: &Value, result: &Value) -> Result<(), String> {
    let name = tool
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("<unnamed>");
    let Some(schema) = tool.get("outputSchema") else {
        return Err(format!(
            "tool `{name}` advertises no `outputSchema`, so there is nothing for its result to conform to"
        ));
    };
    let Some(structured) = result.get("structuredContent") else {
        let was_error = if result.get("isError") == Some(&Value::Bool(true)) {
            format!(
                " (the result is an error: {})",
                result
                    .pointer("/content/0/text")
                    .and_then(Value::as_str)
                    .map_or_else(|| "no text".to_owned(), |t| truncate(t, 120).into_owned())
            )
        } else {
            String::new()
        };
        return Err(format!(
            "tool `{name}` advertises an `outputSchema` but its result has no `structuredContent`{was_error}"
        ));
    };
    let validator = crate::conform::compile(schema).map_err(|e| {
        format!("the `outputSchema` of tool `{name}` is not a valid JSON Schema: {e}")
    })?;
    let problems = crate::conform::problems(&validator, structured);
    if problems.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the `structuredContent` of tool `{name}` does not conform to its `outputSchema`:\n{}",
        problems.join("\n")
    ))
}
