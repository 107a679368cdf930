//! Serving `tools/call`: the tool runs with a context connected to the client, until it
//! finishes, waits on the client (an input-required result, 2026-07-28), or the client cancels;
//! and what goes wrong around a call becomes the JSON-RPC error MCP asks for.

use std::sync::Arc;

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResponse, CustomRequest, CustomResult, ErrorCode, InputResponses};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;
use tracing::Instrument;

use super::convert::to_rmcp_result;
use super::input::{Binding, Input};
use super::live::Live;
use super::shared::Shared;
use super::tasks;
use super::telemetry::{CallSpan, Outcome};
use super::version::is_2026_07_28;
use crate::auth::Caller;
use crate::context::{Capability, RequestInfo, ToolContext};
use crate::message::describe;
use crate::toolbox::UnknownTool;

/// Serves one `tools/call` of the tool `name`, well-formed or not: every call, whatever its
/// shape, runs here, where the client's cancellation drops it, inside its `tracing` span.
pub(crate) async fn serve_call(
    shared: &Arc<Shared>,
    name: &str,
    arguments: Value,
    input_responses: Option<InputResponses>,
    request_state: Option<String>,
    context: RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    let call = CallSpan::start(name, &context, verified_caller(&context).as_deref());
    let span = call.span.clone();
    let response: Result<CallToolResponse, ErrorData> = async move {
        let limits = shared.limits();
        let _slot = shared.quotas.call(
            &context.peer,
            limits.max_calls_per_session,
            limits.max_calls,
        )?;
        let snapshot = shared.snapshot();
        let support = snapshot.toolbox.task_support(name).unwrap_or_default();
        let mut escalating = None;
        if tasks::runs_as_task(support, &context)? {
            let owner = caller(&context);
            if snapshot.toolbox.task_escalates(name) {
                escalating = Some((tasks::request_info(&context), owner));
            } else {
                let toolbox = snapshot.toolbox.clone();
                return shared
                    .tasks
                    .start(shared, toolbox, name, arguments, context, owner)
                    .await;
            }
        }
        let binding = is_2026_07_28(&context)
            .then(|| Binding::new(name, &arguments, caller(&context).as_deref()));
        let input = match &binding {
            Some(binding) => Some(Arc::new(shared.seal.open(
                binding,
                input_responses,
                request_state,
            )?)),
            None => None,
        };
        let ct = context.ct.clone();
        let live = Live::new(context, shared.clone(), input.clone());
        if let Some((info, owner)) = escalating {
            return escalating_call(
                shared,
                snapshot.toolbox.clone(),
                name,
                arguments,
                live,
                ct.cancelled_owned(),
                &input,
                &binding,
                info,
                owner,
            )
            .await;
        }
        let tool_context = ToolContext::new(Box::new(live));
        let call = snapshot
            .toolbox
            .call_tool_with(name, arguments, tool_context.clone());
        let waiting = waiting_for_input(&input, &binding);
        let outcome = tokio::select! {
            biased;
            outcome = call => outcome,
            (input, binding) = waiting => {
                tool_context.finish();
                return shared.seal.input_required(binding, input);
            }
            () = ct.cancelled() => {
                tool_context.finish();
                return Err(cancelled(name));
            }
        };
        answer(outcome, input.as_deref())
    }
    .instrument(span)
    .await;
    call.finish(
        match &response {
            Ok(CallToolResponse::Complete(result)) if result.is_error == Some(true) => {
                Outcome::ToolError
            }
            Ok(CallToolResponse::InputRequired(_)) => Outcome::InputRequired,
            Ok(_) => Outcome::Ok,
            Err(error) if error.code == CANCELLED => Outcome::Cancelled,
            Err(_) => Outcome::Error,
        },
        &shared.metrics,
    );
    response
}

/// Completes, with the call's input, when the tool waits on a client request (2026-07-28); never
/// for a call without input (2025 versions).
async fn waiting_for_input<'a>(
    input: &'a Option<Arc<Input>>,
    binding: &'a Option<Binding>,
) -> (&'a Arc<Input>, &'a Binding) {
    match (input, binding) {
        (Some(input), Some(binding)) => {
            input.waiting.notified().await;
            (input, binding)
        }
        _ => std::future::pending().await,
    }
}

/// The answer to a call that ended as an ordinary call.
fn answer(
    outcome: Result<crate::ToolResult, UnknownTool>,
    input: Option<&Input>,
) -> Result<CallToolResponse, ErrorData> {
    match outcome {
        // At 2026-07-28 a call that failed after the tool was refused a request for want of a
        // capability the client did not declare is answered as the spec asks: -32021, naming it.
        Ok(result)
            if result.is_error
                && let Some(missing) = input.and_then(Input::missing) =>
        {
            Err(missing_capability(missing))
        }
        Ok(result) => Ok(to_rmcp_result(result).into()),
        Err(unknown) => Err(unknown_tool(unknown)),
    }
}

/// A call of a tool declared `escalates`, from a client that declared the tasks extension: an
/// ordinary call (its questions asked with input-required results) until the body calls
/// `ctx.escalate()`, then answered with a task the body goes on as. The body runs on a task of
/// its own, so that it outlives this request once escalated; until then, it is stopped with it.
#[allow(clippy::too_many_arguments)]
async fn escalating_call(
    shared: &Arc<Shared>,
    toolbox: Arc<crate::Toolbox>,
    name: &str,
    arguments: Value,
    live: Live,
    cancelled_by_client: impl std::future::Future<Output = ()>,
    input: &Option<Arc<Input>>,
    binding: &Option<Binding>,
    info: RequestInfo,
    owner: Option<Vec<u8>>,
) -> Result<CallToolResponse, ErrorData> {
    /// Stops the body when the call ends other than as a task (dropped, too).
    struct StopUnlessTask(Option<tokio::task::AbortHandle>);
    impl Drop for StopUnlessTask {
        fn drop(&mut self) {
            if let Some(body) = self.0.take() {
                body.abort();
            }
        }
    }
    let escalation = tasks::Escalation::new();
    let tool_context = escalation.context(Box::new(live));
    let (answer_tx, answered) = tokio::sync::oneshot::channel();
    let body = tokio::spawn({
        let (escalation, tool_context, tool) =
            (escalation.clone(), tool_context.clone(), name.to_owned());
        async move {
            let call = toolbox.call_tool_with(&tool, arguments, tool_context.clone());
            escalation.run(call, tool_context, answer_tx).await;
        }
    });
    let mut stop = StopUnlessTask(Some(body.abort_handle()));
    let waiting = waiting_for_input(input, binding);
    tokio::select! {
        biased;
        outcome = answered => match outcome {
            Ok(outcome) => answer(outcome, input.as_deref()),
            Err(_) => Err(ErrorData::internal_error("the tool stopped without an answer", None)),
        },
        (input, binding) = waiting => {
            tool_context.finish();
            shared.seal.input_required(binding, input)
        }
        () = escalation.requested() => {
            let task = shared.tasks.adopt(shared, &escalation, info, owner).await;
            if task.is_ok() {
                stop.0 = None;
            }
            task
        }
        () = cancelled_by_client => {
            tool_context.finish();
            Err(cancelled(name))
        }
    }
}

/// JSON-RPC -32021 (MissingRequiredClientCapability, HTTP 400 over Streamable HTTP), with
/// `data.requiredCapabilities` naming `capability`.
fn missing_capability(capability: Capability) -> ErrorData {
    let mut required = serde_json::Map::new();
    required.insert(
        capability.name().to_owned(),
        Value::Object(Default::default()),
    );
    ErrorData::new(
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!(
            "the tool needs the client's `{}` capability, which the request did not declare",
            capability.name()
        ),
        Some(serde_json::json!({ "requiredCapabilities": required })),
    )
}

/// Who is calling, for binding a `requestState` to its caller: the verified caller's subject and
/// client when the request was authorized, otherwise the credential the HTTP request came with
/// (its `Authorization` header), if any. Over stdio, and over HTTP without credentials, there is
/// none: one process serves one client, or anyone who can reach the server is the same caller
/// to it.
pub(crate) fn caller(context: &RequestContext<RoleServer>) -> Option<Vec<u8>> {
    if let Some(caller) = verified_caller(context) {
        // Stable across token refreshes; the two parts cannot run together (NUL between).
        let mut key = b"verified\0".to_vec();
        key.extend_from_slice(caller.subject().unwrap_or_default().as_bytes());
        key.push(0);
        key.extend_from_slice(caller.client().unwrap_or_default().as_bytes());
        return Some(key);
    }
    #[cfg(feature = "http")]
    {
        let parts = context.extensions.get::<http::request::Parts>()?;
        let credential = parts.headers.get(http::header::AUTHORIZATION)?;
        Some(credential.as_bytes().to_vec())
    }
    #[cfg(not(feature = "http"))]
    {
        None
    }
}

/// The caller an authorizing HTTP layer verified for this request (see
/// [`auth`](crate::auth)), if any: it travels in the HTTP request's extensions.
pub(crate) fn verified_caller(context: &RequestContext<RoleServer>) -> Option<Arc<Caller>> {
    #[cfg(feature = "http")]
    {
        let parts = context.extensions.get::<http::request::Parts>()?;
        parts.extensions.get::<Arc<Caller>>().cloned()
    }
    #[cfg(not(feature = "http"))]
    {
        let _ = context;
        None
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
                        arguments.map_or(Value::Null, Value::Object),
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

/// rmcp parses a `tools/call` of the wrong shape (`arguments` not an object, `inputResponses`
/// not an object, `requestState` not a string) as no `tools/call` at all, and hands it to the
/// handler as a custom request; its default is JSON-RPC -32601 "method not found". Such a call
/// runs through [`serve_call`] like any other, cancellable: `arguments` of the wrong type are a
/// tool execution error (MCP 2025-11-25), an `isError` result naming the problem; a wrongly typed
/// `inputResponses` or `requestState` is a JSON-RPC error naming it. Any other unknown method is
/// still -32601.
pub(crate) async fn custom_request(
    shared: &Arc<Shared>,
    request: CustomRequest,
    context: RequestContext<RoleServer>,
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
    let input_responses = match params.remove("inputResponses") {
        None | Some(Value::Null) => None,
        Some(Value::Object(responses)) => Some(responses.into_iter().collect()),
        Some(other) => {
            return Err(ErrorData::invalid_params(
                format!(
                    "`inputResponses` must be an object of the client's results; got {}",
                    describe(&other)
                ),
                None,
            ));
        }
    };
    let request_state = match params.remove("requestState") {
        None | Some(Value::Null) => None,
        Some(Value::String(state)) => Some(state),
        Some(other) => {
            return Err(ErrorData::invalid_params(
                format!(
                    "`requestState` must be the string the server sent; got {}",
                    describe(&other)
                ),
                None,
            ));
        }
    };
    let arguments = params.remove("arguments").unwrap_or(Value::Null);
    let response = serve_call(
        shared,
        &name,
        arguments,
        input_responses,
        request_state,
        context,
    )
    .await?;
    match response {
        CallToolResponse::Complete(result) => serde_json::to_value(result),
        CallToolResponse::InputRequired(result) => serde_json::to_value(result),
        CallToolResponse::Task(result) => serde_json::to_value(result),
        // rmcp's enum may grow; this server makes no other kind of result.
        _ => return Err(ErrorData::internal_error("an unknown kind of result", None)),
    }
    .map(CustomResult)
    .map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

/// The code of [`cancelled`]: JSON-RPC reserves none for it; -32800 is the one LSP uses.
const CANCELLED: ErrorCode = ErrorCode(-32800);

/// What the handler returns for a call the client cancelled. MCP says a cancelled request SHOULD
/// get no response, and rmcp sends none (the `over_the_wire` tests check it); this value only
/// ends the handler.
fn cancelled(tool: &str) -> ErrorData {
    ErrorData::new(
        CANCELLED,
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
