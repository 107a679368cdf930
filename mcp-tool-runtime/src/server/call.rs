//! Serving `tools/call`: the tool runs with a context connected to the client, until it
//! finishes, waits on the client (an input-required result, 2026-07-28), or the client cancels;
//! and what goes wrong around a call becomes the JSON-RPC error MCP asks for.

use std::sync::Arc;

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResponse, CustomRequest, CustomResult, ErrorCode, InputResponses};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Map, Value};

use super::convert::to_rmcp_result;
use super::live::Live;
use super::shared::Shared;
use super::version::is_2026_07_28;
use crate::context::ToolContext;
use crate::toolbox::UnknownTool;

/// Serves one `tools/call` of the tool `name`.
pub(crate) async fn serve_call(
    shared: &Arc<Shared>,
    name: &str,
    arguments: Option<Map<String, Value>>,
    input_responses: Option<InputResponses>,
    request_state: Option<String>,
    context: RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let snapshot = shared.snapshot();
    let input = if is_2026_07_28(&context) {
        Some(Arc::new(shared.seal.open(
            name,
            input_responses,
            request_state,
        )?))
    } else {
        None
    };
    let ct = context.ct.clone();
    let live = Live {
        context,
        log_levels: shared.log_levels.clone(),
        input: input.clone(),
    };
    let tool_context = ToolContext::new(Box::new(live));
    let arguments = arguments.map_or(Value::Null, Value::Object);
    let call = snapshot
        .toolbox
        .call_tool_with(name, arguments, tool_context.clone());
    // Completes, with the call's input, when the tool waits on a client request (2026-07-28).
    let waiting = async {
        match &input {
            Some(input) => {
                input.waiting.notified().await;
                input
            }
            None => std::future::pending().await,
        }
    };
    let outcome = tokio::select! {
        biased;
        outcome = call => outcome,
        input = waiting => {
            tool_context.finish();
            return shared.seal.input_required(name, input);
        }
        () = ct.cancelled() => {
            tool_context.finish();
            return Err(cancelled(name));
        }
    };
    match outcome {
        Ok(result) => Ok(to_rmcp_result(result).into()),
        Err(unknown) => Err(unknown_tool(unknown)),
    }
}

/// The tools being served now, as rmcp routes that serve each call like [`serve_call`].
pub(crate) fn router<S: Send + Sync + 'static>(shared: &Arc<Shared>) -> ToolRouter<S> {
    let mut router = ToolRouter::new();
    for tool in &shared.snapshot().tools {
        let shared = shared.clone();
        router.add_route(ToolRoute::new_dyn(
            tool.clone(),
            move |call: ToolCallContext<'_, S>| {
                let shared = shared.clone();
                let ToolCallContext {
                    request_context,
                    name,
                    arguments,
                    input_responses,
                    request_state,
                    ..
                } = call;
                Box::pin(async move {
                    serve_call(
                        &shared,
                        &name,
                        arguments,
                        input_responses,
                        request_state,
                        request_context,
                    )
                    .await
                })
            },
        ));
    }
    router
}

/// rmcp parses a `tools/call` whose `arguments` is not an object (an array, a string, a number)
/// as no `tools/call` at all, and hands it to the handler as a custom request; its default is
/// JSON-RPC -32601 "method not found". Such a call is a tool execution error (MCP 2025-11-25):
/// it goes to the toolbox, which answers with an `isError` result naming the problem. Any other
/// unknown method is still -32601.
pub(crate) async fn custom_request(
    shared: &Shared,
    request: CustomRequest,
) -> Result<CustomResult, ErrorData> {
    if request.method != "tools/call" {
        return Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            request.method,
            None,
        ));
    }
    let mut params = match request.params {
        Some(Value::Object(params)) => params,
        _ => {
            return Err(ErrorData::invalid_params(
                "`tools/call` needs params: an object with the tool's `name`",
                None,
            ));
        }
    };
    let Some(Value::String(name)) = params.remove("name") else {
        return Err(ErrorData::invalid_params(
            "`tools/call` needs the tool's `name`, a string",
            None,
        ));
    };
    let arguments = params.remove("arguments").unwrap_or(Value::Null);
    match shared.snapshot().toolbox.call_tool(&name, arguments).await {
        Ok(result) => serde_json::to_value(to_rmcp_result(result))
            .map(CustomResult)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None)),
        Err(unknown) => Err(unknown_tool(unknown)),
    }
}

/// What the handler returns for a call the client cancelled. MCP says a cancelled request SHOULD
/// get no response, and rmcp sends none (the `over_the_wire` tests check it); this value only
/// ends the handler.
fn cancelled(tool: &str) -> ErrorData {
    ErrorData::new(
        // JSON-RPC reserves no code for it; -32800 is the one LSP uses.
        ErrorCode(-32800),
        format!("the call of tool `{tool}` was cancelled by the client"),
        None,
    )
}

/// An unknown tool: a JSON-RPC error (-32602, invalid params) naming it.
fn unknown_tool(UnknownTool { name }: UnknownTool) -> ErrorData {
    ErrorData::invalid_params(
        format!("unknown tool `{name}`"),
        Some(serde_json::json!({ "tool": name })),
    )
}
