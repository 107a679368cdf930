//! How a task's end is written: the tool's outcome (a result, a panic, a cancellation, a result
//! larger than a task may keep) becomes the task's final state in the store.

use std::future::Future;
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, TaskPayload};
use serde_json::Value;

use super::channel::InTask;
use super::errors::error_object;
use crate::context::ToolContext;
use crate::server::convert::to_rmcp_result;
use crate::server::errors::unknown_tool;
use crate::toolbox::UnknownTool;

/// How a tool's call ended.
pub(crate) type Outcome = Result<crate::ToolResult, UnknownTool>;

/// Waits for the tool's `call` running as the task `channel` is for, and writes how it ended.
pub(super) async fn settle(
    channel: InTask,
    tool_context: ToolContext,
    call: impl Future<Output = Outcome>,
    ttl: Duration,
    max_result_bytes: usize,
) {
    // Cancelled, the tool's future is dropped, as a cancelled call's is; past its TTL, too (the
    // task is forgotten then, so nothing is written).
    let outcome = tokio::select! {
        outcome = tokio::time::timeout(ttl, call) => outcome,
        () = channel.cancelled_signal() => {
            tool_context.finish();
            channel.end(TaskPayload::Cancelled).await;
            return;
        }
    };
    let payload = match outcome {
        Err(_) => {
            channel.forget();
            return;
        }
        Ok(_) if channel.panicked().is_some() => TaskPayload::Failed {
            error: error_object(&ErrorData::internal_error(
                channel.panicked().unwrap_or_default(),
                None,
            )),
        },
        Ok(Ok(result)) => result_payload(&to_rmcp_result(result), max_result_bytes),
        Ok(Err(unknown)) => TaskPayload::Failed {
            error: error_object(&unknown_tool(unknown)),
        },
    };
    channel.end(payload).await;
}

/// A finished call's task payload: the result, or a failure when it is larger than the store
/// may keep.
fn result_payload(result: &CallToolResult, max_bytes: usize) -> TaskPayload {
    /// Counts the bytes written, keeping none.
    struct Counted(usize);
    impl std::io::Write for Counted {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counted = Counted(0);
    let size = serde_json::to_writer(&mut counted, result).map_or(0, |()| counted.0);
    if size > max_bytes {
        return TaskPayload::Failed {
            error: error_object(&ErrorData::internal_error(
                format!(
                    "the tool's result is {size} bytes, more than a task may keep \
                     (max_task_result_bytes: {max_bytes})"
                ),
                Some(serde_json::json!({ "limit": "max_task_result_bytes", "value": max_bytes })),
            )),
        };
    }
    match serde_json::to_value(result) {
        Ok(Value::Object(result)) => TaskPayload::Completed { result },
        _ => TaskPayload::Failed {
            error: error_object(&ErrorData::internal_error(
                "the tool's result could not be written",
                None,
            )),
        },
    }
}
