//! Serving the toolbox's prompts, resources and completions through rmcp: `prompts/list`,
//! `prompts/get`, `resources/list`, `resources/templates/list`, `resources/read`,
//! `completion/complete` and (up to 2025-11-25) `resources/subscribe`. A get and a read run like
//! a tool's call: counted against the caller's share of calls, with a context that may ask the
//! client (an input-required result at 2026-07-28, a request on the session before), stopped
//! when the client cancels.

use std::sync::Arc;

use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, ErrorCode, GetPromptRequestParams,
    GetPromptResponse, GetPromptResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, Prompt, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Reference, Resource, ResourceContents, ResourceTemplate,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Map, Value};

use super::call::{Opened, open, race};
use super::request::Request;
use super::shared::{CacheHints, Shared};
use crate::context::ToolContext;
use crate::protocol_error::ProtocolError;
use crate::toolbox::{CompletionRef, Toolbox};
use crate::version::Revision;

/// The toolbox's prompts and resources in rmcp's model, converted once per change.
#[derive(Default)]
pub(crate) struct Listed {
    pub(crate) prompts: Vec<Prompt>,
    pub(crate) resources: Vec<Resource>,
    pub(crate) templates: Vec<ResourceTemplate>,
}

impl Listed {
    /// Converts `toolbox`'s entries; an entry rmcp's model refuses is named in the error.
    pub(crate) fn new(toolbox: &Toolbox) -> Result<Self, (String, serde_json::Error)> {
        fn convert<D: serde::Serialize, R: serde::de::DeserializeOwned>(
            entries: &[D],
            name: impl Fn(&D) -> String,
        ) -> Result<Vec<R>, (String, serde_json::Error)> {
            entries
                .iter()
                .map(|entry| {
                    serde_json::to_value(entry)
                        .and_then(serde_json::from_value)
                        .map_err(|e| (name(entry), e))
                })
                .collect()
        }
        Ok(Listed {
            prompts: convert(toolbox.list_prompts(), |d| d.name.to_string())?,
            resources: convert(toolbox.list_resources(), |d| d.uri.to_string())?,
            templates: convert(toolbox.list_resource_templates(), |d| {
                d.uri_template.to_string()
            })?,
        })
    }
}

/// A [`ProtocolError`] as rmcp's error.
fn to_error(error: ProtocolError) -> ErrorData {
    ErrorData::new(ErrorCode(error.code), error.message, error.data)
}

/// A read's error as served: from 2026-07-28 a resource not found is `-32602` (SEP-2164), before
/// it `-32002`; its `data` names the URI either way.
fn not_found_at(error: ProtocolError, at_2026_07_28: bool) -> ErrorData {
    let mut error = to_error(error);
    if at_2026_07_28 && error.code == ErrorCode::RESOURCE_NOT_FOUND {
        error.code = ErrorCode::INVALID_PARAMS;
    }
    error
}

fn internal(error: impl std::fmt::Display) -> ErrorData {
    ErrorData::internal_error(error.to_string(), None)
}

/// The caching hints (SEP-2549) a 2026-07-28 list or read carries: the server's, as for
/// `tools/list` ([`ToolboxServer::set_cache_hints`](crate::ToolboxServer::set_cache_hints));
/// none before.
fn hints(shared: &Shared, context: &RequestContext<RoleServer>) -> Option<CacheHints> {
    let version = context.protocol_version();
    Revision::of(version.as_ref().map(|v| v.as_str()))
        .is_2026_07_28()
        .then(|| *crate::sync::lock(&shared.cache))
}

/// Sets a 2026-07-28 result's `ttlMs` and `cacheScope`.
macro_rules! with_hints {
    ($result:expr, $hints:expr) => {{
        let mut result = $result;
        if let Some(hints) = $hints {
            result.ttl_ms = Some(hints.ttl_ms);
            result.cache_scope = Some(hints.scope);
        }
        result
    }};
}

pub(crate) fn list_prompts(
    shared: &Shared,
    context: &RequestContext<RoleServer>,
) -> ListPromptsResult {
    let listed = ListPromptsResult::with_all_items(shared.snapshot().listed.prompts.clone());
    with_hints!(listed, hints(shared, context))
}

pub(crate) fn list_resources(
    shared: &Shared,
    context: &RequestContext<RoleServer>,
) -> ListResourcesResult {
    let listed = ListResourcesResult::with_all_items(shared.snapshot().listed.resources.clone());
    with_hints!(listed, hints(shared, context))
}

pub(crate) fn list_resource_templates(
    shared: &Shared,
    context: &RequestContext<RoleServer>,
) -> ListResourceTemplatesResult {
    let listed =
        ListResourceTemplatesResult::with_all_items(shared.snapshot().listed.templates.clone());
    with_hints!(listed, hints(shared, context))
}

/// Runs `body` (a get or a read) with a context connected to the client, like an ordinary tool
/// call: within the caller's share of calls, its questions asked as input-required results at
/// 2026-07-28 (their state bound to `bound_to` and `arguments`), stopped when the client
/// cancels.
async fn run<R, F>(
    shared: &Arc<Shared>,
    bound_to: &str,
    arguments: &Value,
    input: (Option<rmcp::model::InputResponses>, Option<String>),
    mut context: RequestContext<RoleServer>,
    body: impl FnOnce(Arc<Toolbox>, ToolContext) -> F,
) -> Result<R, ErrorData>
where
    R: From<rmcp::model::InputRequiredResult>,
    F: Future<Output = Result<R, ErrorData>>,
{
    let request = Request::read(&mut context);
    let _slot =
        shared
            .quotas
            .acquire_call(&context.peer, request.caller.as_deref(), &shared.limits())?;
    let toolbox = shared.snapshot().toolbox.clone();
    // Taken apart at once: the channel moves into the context, and this future holds no room
    // for it.
    let Opened {
        shared,
        channel,
        input,
        cancelled,
    } = open(shared, bound_to, arguments, request, context, input)?;
    let tool_context = ToolContext::new(channel);
    let ended = std::pin::pin!(body(toolbox, tool_context.clone()));
    race(ended, &tool_context, shared, bound_to, &input, &cancelled).await
}

pub(crate) async fn get_prompt(
    shared: &Arc<Shared>,
    request: GetPromptRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<GetPromptResponse, ErrorData> {
    let arguments = request.arguments.map_or(Value::Null, Value::Object);
    let name = request.name;
    let bound_to = format!("prompts/get {name}");
    run(
        shared,
        &bound_to,
        &arguments.clone(),
        (request.input_responses, request.request_state),
        context,
        |toolbox, tool_context| async move {
            let got = toolbox
                .get_prompt_with(&name, arguments, tool_context)
                .await
                .map_err(to_error)?;
            let mut result: GetPromptResult = serde_json::to_value(&got)
                .and_then(serde_json::from_value)
                .map_err(internal)?;
            // As rmcp's constructors do: rmcp clears it for a client of an older version.
            result.result_type = Some(rmcp::model::ResultType::COMPLETE);
            Ok(result.into())
        },
    )
    .await
}

pub(crate) async fn read_resource(
    shared: &Arc<Shared>,
    request: ReadResourceRequestParams,
    context: RequestContext<RoleServer>,
) -> Result<ReadResourceResponse, ErrorData> {
    let uri = request.uri;
    let bound_to = format!("resources/read {uri}");
    let hints = hints(shared, &context);
    run(
        shared,
        &bound_to,
        &Value::Null,
        (request.input_responses, request.request_state),
        context,
        |toolbox, tool_context| async move {
            let contents = toolbox
                .read_resource_with(&uri, tool_context)
                .await
                .map_err(|error| not_found_at(error, hints.is_some()))?;
            let mut contents = serde_json::to_value(&contents).map_err(internal)?;
            // A view's settings go on its contents too: hosts read them there first.
            let view = toolbox
                .list_resources()
                .iter()
                .find(|r| r.uri == uri.as_str())
                .and_then(|r| r.meta.get("ui"));
            if let (Some(view), Some(items)) = (view, contents.as_array_mut()) {
                for item in items.iter_mut().filter_map(Value::as_object_mut) {
                    item.insert("_meta".to_owned(), serde_json::json!({ "ui": view }));
                }
            }
            let contents: Vec<ResourceContents> =
                serde_json::from_value(contents).map_err(internal)?;
            Ok(with_hints!(ReadResourceResult::new(contents), hints).into())
        },
    )
    .await
}

/// `completion/complete`: the completion function runs within the caller's share of calls, as a
/// tool does.
pub(crate) async fn complete(
    shared: &Arc<Shared>,
    request: CompleteRequestParams,
    mut context: RequestContext<RoleServer>,
) -> Result<CompleteResult, ErrorData> {
    let caller = Request::read(&mut context).caller;
    let _slot = shared
        .quotas
        .acquire_call(&context.peer, caller.as_deref(), &shared.limits())?;
    let of = match request.r#ref {
        Reference::Prompt(prompt) => CompletionRef::Prompt(prompt.name),
        Reference::Resource(resource) => CompletionRef::Resource(resource.uri),
        _ => return Err(ErrorData::invalid_params("an unknown kind of `ref`", None)),
    };
    let arguments: Map<String, Value> = request
        .context
        .and_then(|context| context.arguments)
        .into_iter()
        .flatten()
        .map(|(name, value)| (name, Value::String(value)))
        .collect();
    let toolbox = shared.snapshot().toolbox.clone();
    let completion = toolbox
        .complete(
            &of,
            &request.argument.name,
            &request.argument.value,
            &arguments,
        )
        .await
        .map_err(to_error)?;
    let mut info = CompletionInfo::new(completion.values).map_err(internal)?;
    info.total = Some(u32::try_from(completion.total).unwrap_or(u32::MAX));
    info.has_more = Some(completion.has_more);
    Ok(CompleteResult::new(info))
}

/// `resources/subscribe` (up to 2025-11-25; the method is gone at 2026-07-28, where
/// `subscriptions/listen` names the resources): accepted for a URI the toolbox serves, within
/// the session's share of subscriptions.
pub(crate) fn subscribe(
    shared: &Shared,
    uri: &str,
    context: &RequestContext<RoleServer>,
) -> Result<(), ErrorData> {
    check_subscription(shared, uri, context)?;
    let max = shared.limits().max_resource_subscriptions_per_session;
    if shared.changes.subscribe(&context.peer, uri, max) {
        return Ok(());
    }
    super::quota::count(&shared.quotas.refused.subscriptions);
    Err(ErrorData::new(
        ErrorCode(super::quota::LIMIT_REACHED),
        format!(
            "this session has {max} resource subscriptions, the most it may have (the server's max_resource_subscriptions_per_session); unsubscribe from one first"
        ),
        Some(serde_json::json!({
            "limit": "max_resource_subscriptions_per_session",
            "max": max,
        })),
    ))
}

pub(crate) fn unsubscribe(
    shared: &Shared,
    uri: &str,
    context: &RequestContext<RoleServer>,
) -> Result<(), ErrorData> {
    check_subscription(shared, uri, context)?;
    shared.changes.unsubscribe(&context.peer, uri);
    Ok(())
}

fn check_subscription(
    shared: &Shared,
    uri: &str,
    context: &RequestContext<RoleServer>,
) -> Result<(), ErrorData> {
    if hints(shared, context).is_some() {
        return Err(ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            "resources/subscribe and resources/unsubscribe are not part of MCP 2026-07-28; name the resources in `subscriptions/listen`",
            None,
        ));
    }
    if shared.snapshot().toolbox.serves_uri(uri) {
        Ok(())
    } else {
        Err(not_found_at(ProtocolError::resource_not_found(uri), false))
    }
}
