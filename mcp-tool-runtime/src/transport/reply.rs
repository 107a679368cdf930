//! The replies JSON-RPC 2.0 asks for to a message that cannot be read, with the request's `id`
//! whenever one can be found, even in a line too deep or too malformed to parse.

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ErrorCode, ErrorData, NumberOrString, RequestId};
use rmcp::service::TxJsonRpcMessage;
use serde_json::Value;

use super::budget::{self, Refused};
use crate::message::quote;

/// How much of an over-long message is kept to look for its `id`.
pub(crate) const ID_SEARCH_BYTES: usize = 64 << 10;

/// One message as the line transport reads it: counted against the element budget without being
/// built, then parsed into rmcp's model. `Err` holds the reply it is owed, if any (a
/// notification that cannot be read gets none).
pub(crate) fn read_message(
    bytes: &[u8],
    max_elements: usize,
) -> Result<ClientJsonRpcMessage, Option<Box<TxJsonRpcMessage<RoleServer>>>> {
    match budget::check(bytes, max_elements) {
        Err(refused) => Err(refusal(bytes, refused, max_elements)),
        Ok(()) => parse(bytes),
    }
}

/// `bytes` parsed into rmcp's model, or the reply a message that is not one is owed, if any.
pub(crate) fn parse(
    bytes: &[u8],
) -> Result<ClientJsonRpcMessage, Option<Box<TxJsonRpcMessage<RoleServer>>>> {
    serde_json::from_slice(bytes).map_err(|error| answer_unreadable(bytes, &error).map(Box::new))
}

/// The reply owed to a message the budget refused, if any.
pub(crate) fn refusal(
    bytes: &[u8],
    refused: Refused,
    max_elements: usize,
) -> Option<Box<TxJsonRpcMessage<RoleServer>>> {
    match refused {
        Refused::OverBudget => Some(over_budget(bytes, max_elements)),
        Refused::Unreadable(error) => answer_unreadable(bytes, &error),
    }
    .map(Box::new)
}

/// The reply to a line rmcp could not read, if it is owed one.
fn answer_unreadable(
    line: &[u8],
    error: &serde_json::Error,
) -> Option<TxJsonRpcMessage<RoleServer>> {
    let reason = quote(&error.to_string()).into_owned();
    match serde_json::from_slice::<Value>(line) {
        Ok(Value::Object(message)) => {
            // A notification or a response gets no reply, readable or not.
            let id = request_id(message.get("id")?)?;
            message.get("method")?;
            Some(TxJsonRpcMessage::<RoleServer>::error(
                ErrorData::invalid_request(
                    format!("the request could not be read: {reason}"),
                    None,
                ),
                Some(id),
            ))
        }
        Ok(Value::Array(_)) => Some(TxJsonRpcMessage::<RoleServer>::error(
            ErrorData::invalid_request("JSON-RPC batches are not supported by MCP", None),
            None,
        )),
        Ok(_) => Some(TxJsonRpcMessage::<RoleServer>::error(
            ErrorData::invalid_request("a JSON-RPC message is a JSON object", None),
            None,
        )),
        // Not JSON this server reads (malformed, or nested past serde_json's limit): a parse
        // error, with the id when the line has a readable one.
        Err(_) => Some(TxJsonRpcMessage::<RoleServer>::error(
            ErrorData::new(
                ErrorCode::PARSE_ERROR,
                format!("the message could not be parsed: {reason}"),
                None,
            ),
            find_id(line),
        )),
    }
}

/// The reply to a message with more JSON elements than `limit`, with its id when one is found
/// near its beginning.
fn over_budget(message: &[u8], limit: usize) -> TxJsonRpcMessage<RoleServer> {
    TxJsonRpcMessage::<RoleServer>::error(
        ErrorData::invalid_request(
            format!("the message holds more than this server's limit of {limit} JSON elements"),
            None,
        ),
        find_id(message),
    )
}

fn request_id(id: &Value) -> Option<RequestId> {
    match id {
        Value::Number(n) => n.as_i64().map(NumberOrString::Number),
        Value::String(s) => Some(NumberOrString::String(s.as_str().into())),
        _ => None,
    }
}

/// The `id` of the top-level object in `line`, found without parsing the line (which may be
/// malformed or nested too deep to parse): a scan for the key `"id"` at depth one, whose value
/// is then read alone.
pub(crate) fn find_id(line: &[u8]) -> Option<RequestId> {
    let mut depth = 0_usize;
    let mut at = 0;
    // Whether the string just closed at depth one sits in key position.
    let mut expecting_key = false;
    while at < line.len() {
        match line[at] {
            b'{' => {
                depth += 1;
                expecting_key = depth == 1;
            }
            b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => expecting_key = true,
            b'"' => {
                let end = string_end(line, at)?;
                if depth == 1 && expecting_key {
                    expecting_key = false;
                    if &line[at..=end] == b"\"id\"" {
                        return value_after_colon(line, end + 1);
                    }
                }
                at = end;
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// The index of the quote closing the string that opens at `open`.
fn string_end(line: &[u8], open: usize) -> Option<usize> {
    let mut at = open + 1;
    while at < line.len() {
        match line[at] {
            b'\\' => at += 2,
            b'"' => return Some(at),
            _ => at += 1,
        }
    }
    None
}

fn value_after_colon(line: &[u8], from: usize) -> Option<RequestId> {
    let rest = &line[from..];
    let colon = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    if rest[colon] != b':' {
        return None;
    }
    let rest = &rest[colon + 1..];
    let start = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    let rest = &rest[start..];
    let end = if rest.first() == Some(&b'"') {
        string_end(rest, 0)? + 1
    } else {
        rest.iter()
            .position(|b| !(b.is_ascii_digit() || *b == b'-'))
            .unwrap_or(rest.len())
    };
    request_id(&serde_json::from_slice(&rest[..end]).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_found_in_lines_that_do_not_parse() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","method":"tools/call","params":{}1{},"id":7}}"#,
            "[".repeat(10_000),
            "]".repeat(10_000)
        );
        assert_eq!(find_id(deep.as_bytes()), Some(NumberOrString::Number(7)));
        assert_eq!(
            find_id(br#"{"params":{"id":1},"id" : "a\"b", "x": }"#),
            Some(NumberOrString::String("a\"b".into()))
        );
        assert_eq!(find_id(br#"{"method":"id","params":["id"]"#), None);
        assert_eq!(find_id(b"not json"), None);
    }
}
