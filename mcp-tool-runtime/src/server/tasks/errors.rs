//! The JSON-RPC errors of the tasks extension: an unknown task, a store that failed, a limit
//! reached, and a task's error as its `failed` payload carries it.

use rmcp::ErrorData;
use rmcp::model::{ErrorCode, JsonObject};
use serde_json::Value;

use super::store::StoreError;
use crate::server::quota::{Counters, count, reached};

/// Whether `error` is [`unknown_task`]'s: this server's store has no task by that id for the
/// caller (a handler merged beside the tools may have one).
pub(crate) fn is_unknown_task(error: &ErrorData) -> bool {
    error.code == ErrorCode::INVALID_PARAMS
        && error.message.starts_with(UNKNOWN_TASK)
        && error
            .data
            .as_ref()
            .is_some_and(|data| data.get("taskId").is_some())
}

/// How [`unknown_task`]'s message starts.
const UNKNOWN_TASK: &str = "no task `";

/// JSON-RPC -32602 for a task id this caller has no task under.
pub(super) fn unknown_task(id: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::INVALID_PARAMS,
        format!("{UNKNOWN_TASK}{id}`: it never existed, has expired, or is another caller's"),
        Some(serde_json::json!({ "taskId": id })),
    )
}

/// The answer to a request the store could not serve.
pub(super) fn store_failed(error: StoreError) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}

/// The answer to a task the store refused to create: `-32029` naming the limit, counted in
/// `refused`; any other failure of the store as it is.
pub(super) fn not_created(error: StoreError, refused: &Counters) -> ErrorData {
    match error {
        StoreError::Full(limit) => {
            count(&refused.tasks);
            reached(
                "max_tasks",
                limit,
                format!(
                    "this server already keeps {limit} tasks, its limit; try again when some \
                     have expired"
                ),
            )
        }
        StoreError::OwnerFull(limit) => {
            count(&refused.tasks_per_caller);
            reached(
                "max_tasks_per_caller",
                limit,
                format!(
                    "you already have {limit} tasks on this server, the limit for one caller; \
                     try again when some have expired"
                ),
            )
        }
        error => store_failed(error),
    }
}

/// `error` as a `failed` task's `error` object.
pub(super) fn error_object(error: &ErrorData) -> JsonObject {
    match serde_json::to_value(error) {
        Ok(Value::Object(object)) => object,
        _ => JsonObject::new(),
    }
}
