//! Serving `tools/call`: the tool runs with a context connected to the client, until it
//! finishes, waits on the client (an input-required result, 2026-07-28), or the client cancels;
//! and what goes wrong around a call becomes the JSON-RPC error MCP asks for.

use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;

use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Either};
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResponse, CustomRequest, CustomResult, ErrorCode, InputResponses};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use super::convert::to_rmcp_result;
use super::errors::{CANCELLED, cancelled, missing_capability, unknown_tool};
use super::input::{Binding, Input};
use super::live::Live;
use super::quota::CallSlot;
use super::request::Request;
use super::shared::Shared;
use super::tasks::{self, Escalation};
use super::telemetry::{CallSpan, Outcome};
use crate::context::ToolContext;
use crate::message::describe;
use crate::tool::TaskSupport;
use crate::toolbox::{Toolbox, UnknownTool};
use crate::version::Revision;

/// Serves one `tools/call` of the tool `name`, well-formed or not: every call, whatever its
/// shape, enters here. The request is read once, the call is counted against the limits and
/// runs inside its `tracing` span, the tool is looked up once, and the call is served as its
/// kind says: [`ordinary`], [`as_task`] or [`escalating`].
///
/// Everything up to the tool's run is done when this is called, not in the future it returns:
/// what the preparation consumes (the request, its context) is then never part of the future,
/// which rmcp moves into a task of its own (the copies showed in callgrind). The future is a
/// combinator over the prepared call, polled where it lies: an `async` block would hold the
/// prepared call twice, once captured and once awaited.
pub(crate) fn serve_call<'a>(
    shared: &'a Arc<Shared>,
    name: Cow<'static, str>,
    arguments: Value,
    input: (Option<InputResponses>, Option<String>),
    mut context: RequestContext<RoleServer>,
) -> impl Future<Output = Result<CallToolResponse, ErrorData>> + Send + 'a {
    let request = Request::read(&mut context);
    let mut span = CallSpan::start(&name, &request);
    let (slot, served) = match prepare(shared, name, arguments, input, request, context, &mut span)
    {
        Ok((slot, served)) => (Some(slot), Either::Left(served)),
        Err(refused) => (None, Either::Right(std::future::ready(Err(refused)))),
    };
    served.instrument(span.span.clone()).map(move |response| {
        drop(slot);
        span.finish(outcome_of(&response), &shared.metrics);
        response
    })
}

/// A call ready to run, as its kind serves it: an ordinary call inline, the rarer kinds boxed
/// (a call's future is as large as the largest kind it may be).
type Served<'a, O> = Either<O, BoxFuture<'a, Result<CallToolResponse, ErrorData>>>;

/// Looks the tool up, takes the call's slot, and prepares the call as its kind says; `span`
/// learns whether the call names a registered tool.
fn prepare<'a>(
    shared: &'a Arc<Shared>,
    name: Cow<'static, str>,
    arguments: Value,
    input: (Option<InputResponses>, Option<String>),
    request: Request,
    context: RequestContext<RoleServer>,
    span: &mut CallSpan,
) -> Result<
    (
        CallSlot,
        Served<'a, impl Future<Output = Result<CallToolResponse, ErrorData>> + Send + use<'a>>,
    ),
    ErrorData,
> {
    let toolbox = shared.snapshot().toolbox.clone();
    let registered = toolbox.registered(&name);
    #[cfg(feature = "otel")]
    if let Some(registered) = registered {
        span.registered(&registered.label);
    }
    #[cfg(not(feature = "otel"))]
    let _ = span;
    // The call counts against the limits before anything else, an unknown tool's too.
    let slot =
        shared
            .quotas
            .acquire_call(&context.peer, request.caller.as_deref(), &shared.limits())?;
    let registered = registered.ok_or_else(|| {
        unknown_tool(UnknownTool {
            name: name.clone().into_owned(),
        })
    })?;
    let (support, escalates) = (registered.task, registered.escalates);
    // A caller without a scope the tool needs is answered before anything is spent on the call:
    // as an ordinary call, whose refusal comes before every layer and creates no task.
    let refused = request
        .caller
        .as_deref()
        .is_some_and(|caller| !caller.missing_scopes(&registered.scopes).is_empty());
    let kind = match refused {
        true => Kind::Ordinary,
        false => Kind::of(support, escalates, request.declares_tasks())?,
    };
    let call = Call {
        shared,
        toolbox,
        name,
        arguments,
        request,
        context,
    };
    let served: Served<'a, _> = match kind {
        Kind::Ordinary => Either::Left(ordinary(call, input)?),
        Kind::Task => Either::Right(Box::pin(as_task(call))),
        Kind::Escalating => Either::Right(Box::pin(escalating(call, input))),
    };
    Ok((slot, served))
}

/// One call, as [`serve_call`] hands it to the function serving its kind.
struct Call<'a> {
    shared: &'a Arc<Shared>,
    /// The tools as they were when the call arrived: the call runs in them.
    toolbox: Arc<Toolbox>,
    name: Cow<'static, str>,
    arguments: Value,
    request: Request,
    context: RequestContext<RoleServer>,
}

/// What a call becomes.
enum Kind {
    /// Answered when the tool ends (or asks the client, at 2026-07-28).
    Ordinary,
    /// Answered at once with a task the tool runs as.
    Task,
    /// Ordinary until the body escalates, then a task.
    Escalating,
}

impl Kind {
    /// The kind of a call of a tool with `support` (escalating or not), from a client that
    /// `declares_tasks` or not; the spec's -32021 for a task-only tool the client cannot have.
    fn of(support: TaskSupport, escalates: bool, declares_tasks: bool) -> Result<Kind, ErrorData> {
        Ok(match tasks::runs_as_task(support, declares_tasks)? {
            false => Kind::Ordinary,
            true if escalates => Kind::Escalating,
            true => Kind::Task,
        })
    }
}

/// How a served call ended, as its span and metrics record it.
fn outcome_of(response: &Result<CallToolResponse, ErrorData>) -> Outcome {
    match response {
        Ok(CallToolResponse::Complete(result)) if result.is_error == Some(true) => {
            Outcome::ToolError
        }
        Ok(CallToolResponse::InputRequired(_)) => Outcome::InputRequired,
        Ok(_) => Outcome::Ok,
        Err(error) if error.code == CANCELLED => Outcome::Cancelled,
        Err(_) => Outcome::Error,
    }
}

/// A call answered when its tool ends: its channel is opened here, and the future returned
/// runs the tool.
fn ordinary<'a>(
    call: Call<'a>,
    input: (Option<InputResponses>, Option<String>),
) -> Result<impl Future<Output = Result<CallToolResponse, ErrorData>> + Send + 'a, ErrorData> {
    let Call {
        shared,
        toolbox,
        name,
        arguments,
        request,
        context,
    } = call;
    let live = open(shared, &name, &arguments, request, context, input)?;
    let tool_context = ToolContext::new(live.channel);
    let (input, cancelled) = (live.input, live.cancelled);
    Ok(async move {
        let answered = std::pin::pin!(async {
            let outcome = toolbox
                .call_tool_with(&name, arguments, tool_context.clone())
                .await;
            answer(outcome, input.as_ref().map(|(input, _)| &**input))
        });
        race(answered, &tool_context, shared, &name, &input, &cancelled).await
    })
}

/// A call answered at once with a task the tool runs as, owned by the caller.
async fn as_task(call: Call<'_>) -> Result<CallToolResponse, ErrorData> {
    let Call {
        shared,
        toolbox,
        name,
        arguments,
        mut request,
        context,
    } = call;
    let limits = shared.limits();
    let owner = request.key(&context);
    let meta = std::mem::take(&mut request.meta);
    let info = request.info(meta);
    shared
        .tasks
        .start(
            &limits,
            &shared.quotas.refused,
            info,
            owner.as_ref(),
            move |context| async move { toolbox.call_tool_with(&name, arguments, context).await },
        )
        .await
}

/// A call of a tool declared `escalates`, from a client that declared the tasks extension: an
/// ordinary call (its questions asked with input-required results) until the body calls
/// `ctx.escalate()`, then answered with a task the body goes on as. The body runs on a task of
/// its own, so that it outlives this request once escalated; until then, it is stopped with it.
async fn escalating(
    call: Call<'_>,
    input: (Option<InputResponses>, Option<String>),
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
    let Call {
        shared,
        toolbox,
        name,
        arguments,
        request,
        context,
    } = call;
    let limits = shared.limits();
    let owner = request.key(&context);
    let info = request.info(request.meta.clone());
    // Taken apart at once: the channel moves into the context before the first await, so this
    // future holds no room for it.
    let Opened {
        shared,
        channel,
        input,
        cancelled,
    } = open(shared, &name, &arguments, request, context, input)?;
    let escalation = Escalation::new();
    let tool_context = escalation.context(channel);
    let (answer_tx, answered) = tokio::sync::oneshot::channel();
    let body = tokio::spawn({
        let (escalation, tool_context, tool) =
            (escalation.clone(), tool_context.clone(), name.clone());
        async move {
            let call = toolbox.call_tool_with(&tool, arguments, tool_context.clone());
            escalation.run(call, tool_context, answer_tx).await;
        }
    });
    let mut stop = StopUnlessTask(Some(body.abort_handle()));
    let ended = std::pin::pin!(async {
        let missing = input.as_ref().map(|(input, _)| &**input);
        tokio::select! {
            biased;
            outcome = answered => match outcome {
                Ok(outcome) => answer(outcome, missing),
                Err(_) => Err(ErrorData::internal_error("the tool stopped without an answer", None)),
            },
            () = escalation.requested() => {
                let task = shared
                    .tasks
                    .adopt(&limits, &shared.quotas.refused, &escalation, info, owner.as_ref())
                    .await;
                if task.is_ok() {
                    stop.0 = None;
                }
                task
            }
        }
    });
    race(ended, &tool_context, shared, &name, &input, &cancelled).await
}

/// What an ordinary or escalating call (or a prompt's get, a resource's read) talks to the
/// client through, opened from its request.
pub(crate) struct Opened<'a> {
    pub(crate) shared: &'a Arc<Shared>,
    /// Moved into the call's context (one allocation with it) before the call's future
    /// begins; no future holds it.
    pub(crate) channel: Live,
    /// At 2026-07-28: the call's input (answers it may use, questions it asks) and what a
    /// `requestState` of it is bound to.
    pub(crate) input: Option<(Arc<Input>, Option<Binding>)>,
    pub(crate) cancelled: CancellationToken,
}

/// Whether a tool may ask this request's client anything: it declared elicitation, sampling or
/// roots, or declared nothing at all (a tool then asks, and learns from the answer).
fn may_be_asked(request: &Request) -> bool {
    request
        .client_capabilities
        .as_ref()
        .is_none_or(|c| c.elicitation.is_some() || c.sampling.is_some() || c.roots.is_some())
}

/// The channel of a call of `name` with `arguments`: at 2026-07-28, with the answers its
/// `input` (`inputResponses`, `requestState`) brings, refused when the state does not verify
/// for this call.
pub(crate) fn open<'a>(
    shared: &'a Arc<Shared>,
    name: &str,
    arguments: &Value,
    request: Request,
    context: RequestContext<RoleServer>,
    (responses, state): (Option<InputResponses>, Option<String>),
) -> Result<Opened<'a>, ErrorData> {
    let input = match request.revision.is_2026_07_28() {
        true => {
            // The digest of the arguments is for a state to verify against, or to seal a state
            // the call's questions go out with: a call that brings none and whose client can
            // be asked nothing needs none (7,000 instructions of a 263,000-instruction call).
            let binding = (state.is_some() || may_be_asked(&request))
                .then(|| Binding::new(name, arguments, request.key(&context).as_ref()));
            let input = Arc::new(shared.seal.open(binding.as_ref(), responses, state)?);
            Some((input, binding))
        }
        false => None,
    };
    let cancelled = context.ct.clone();
    let channel = Live::new(
        context,
        request,
        shared.clone(),
        input.as_ref().map(|(input, _)| input.clone()),
    );
    Ok(Opened {
        shared,
        channel,
        input,
        cancelled,
    })
}

/// Runs a call until `ended` answers it, its tool waits on the client (an input-required
/// result, 2026-07-28), or the client cancels: the race every call that answers its request
/// runs.
pub(crate) async fn race<R: From<rmcp::model::InputRequiredResult>>(
    ended: std::pin::Pin<&mut impl Future<Output = Result<R, ErrorData>>>,
    tool_context: &ToolContext,
    shared: &Shared,
    name: &str,
    input: &Option<(Arc<Input>, Option<Binding>)>,
    cancelled_by_client: &CancellationToken,
) -> Result<R, ErrorData> {
    tokio::select! {
        biased;
        response = ended => response,
        (input, binding) = waiting_for_input(input) => {
            tool_context.finish();
            shared.seal.input_required(binding.as_ref(), input).map(R::from)
        }
        () = cancelled_by_client.cancelled() => {
            tool_context.finish();
            Err(cancelled(name))
        }
    }
}

/// Completes, with the call's input, when the tool waits on a client request (2026-07-28); never
/// for a call without input (2025 versions).
async fn waiting_for_input(
    input: &Option<(Arc<Input>, Option<Binding>)>,
) -> (&Arc<Input>, &Option<Binding>) {
    match input {
        Some((input, binding)) => {
            input.waiting.notified().await;
            (input, binding)
        }
        None => std::future::pending().await,
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

/// The tools being served now, as rmcp routes that serve each call like [`serve_call`].
pub(crate) fn router<S: Send + Sync + 'static>(shared: &Arc<Shared>) -> ToolRouter<S> {
    let mut router = ToolRouter::new();
    for tool in shared.snapshot().tools_for(Revision::Until2025_11_25) {
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
                        name,
                        arguments.map_or(Value::Null, Value::Object),
                        (input_responses, request_state),
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
        name.into(),
        arguments,
        (input_responses, request_state),
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

#[cfg(test)]
mod tests {
    /// The size of the future `serve` returns, whatever its five arguments.
    fn future_size<A, B, C, D, E, F>(_serve: fn(A, B, C, D, E) -> F) -> usize {
        std::mem::size_of::<F>()
    }

    /// rmcp moves each request's future into a task of its own, so every byte of it is copied
    /// on every call: when this future doubled (6 KB, with the preparation inside it and the
    /// rarer kinds inline), a served call took 1.84x the instructions (`observe`, callgrind),
    /// most of them `memcpy`. A debug build's size, with every feature on; 1,088 bytes once the
    /// prepared call was polled where it lies (2,056 as an `async` block holding it twice).
    #[test]
    fn a_served_call_future_stays_small() {
        let size = future_size(super::serve_call);
        assert!(size <= 1280, "serve_call's future is {size} bytes");
    }

    /// The size of what `f` returns, called with a `&'a H`.
    fn returned<'a, H: 'a, A, B, R>(_f: impl Fn(&'a H, A, B) -> R) -> usize {
        std::mem::size_of::<R>()
    }

    /// The future rmcp spawns for each request (`Service::handle_request`) is as large as the
    /// largest handler's: ours is no larger than a handler that answers nothing, so no handler
    /// of ours adds to what tokio moves three times per call, alone or merged with a handler.
    /// It was 4,664 bytes against 3,328 when `listen`, `on_custom_request` and `call_tool` were
    /// `async fn`s (merged with a handler, 5,296 when only `ToolboxServer`'s were mended).
    #[test]
    fn the_request_future_is_rmcps_own() {
        use rmcp::Service;
        use rmcp::service::RoleServer;
        struct Bare;
        impl rmcp::ServerHandler for Bare {}
        let ours = returned(<crate::ToolboxServer as Service<RoleServer>>::handle_request);
        let bare = returned(<Bare as Service<RoleServer>>::handle_request);
        assert_eq!(ours, bare, "ours {ours} bytes, a bare handler's {bare}");
        type Merged = super::super::Merged<Bare>;
        let merged = returned(<Merged as Service<RoleServer>>::handle_request);
        assert_eq!(
            merged, bare,
            "merged {merged} bytes, a bare handler's {bare}"
        );
    }
}
