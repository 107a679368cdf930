//! [`ToolboxServer`]: the rmcp `ServerHandler` serving a [`Toolbox`] (its settings are in
//! `settings`).

use std::sync::{Arc, Mutex, RwLock};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CancelTaskParams, CompleteRequestParams,
    CompleteResult, CustomRequest, CustomResult, GetPromptRequestParams, GetPromptResponse,
    GetTaskParams, GetTaskResult, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ServerConfig, SetLevelRequestParams, SubscribeRequestParams,
    SubscriptionFilter, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{MaybeSendFuture, NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use super::call::{custom_request, router, serve_call};
use super::capabilities::declared;
use super::catalog;
use super::changes::{Changes, Lists, UpdateError, Wants};
use super::convert::{ServeError, Snapshot};
use super::input::Seal;
use super::levels::LogLevels;
use super::limits::Limits;
use super::quota::{CallSlot, Holder, session_of};
use super::request::{CallerKey, verified_caller};
use super::shared::{CacheHints, Shared};
use crate::sync::{lock, write};
use crate::toolbox::Toolbox;
use crate::version::Revision;

/// An rmcp server handler answering `tools/list` and `tools/call` from a [`Toolbox`].
///
/// Entries are converted once, when the tools change; a request does no schema work. An unknown
/// tool is a JSON-RPC error (-32602, invalid params); everything a tool does wrong is an
/// `isError` result. Tools taking a [`ToolContext`](crate::ToolContext) talk to the client
/// through it: progress, cancellation, logging (the `logging` capability is always declared, and
/// `logging/setLevel` honoured), and client requests, sent to the client at protocol 2025-x and
/// returned as input-required results at 2026-07-28.
///
/// Cheap to clone: clones share the tools. rmcp's Streamable HTTP service makes one handler per
/// session from a factory, `move || Ok(server.clone())`; each session keeps its own log level.
/// To serve the tools beside an rmcp handler of your own, [`merge`](Self::merge) it.
///
/// ```no_run
/// use mcp_tool_runtime::{mcp_tool, Toolbox, ToolboxServer};
/// use rmcp::ServiceExt;
///
/// /// Says hello.
/// #[mcp_tool]
/// fn hello(name: String) -> String {
///     format!("Hello, {name}!")
/// }
///
/// #[tokio::main]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     let mut toolbox = Toolbox::new();
///     toolbox.register(hello::tool())?;
///     let server = ToolboxServer::new(toolbox)?;
///     server.serve(mcp_tool_runtime::transport::stdio()).await?.waiting().await?;
///     Ok(())
/// }
/// ```
#[derive(Clone)]
pub struct ToolboxServer {
    pub(crate) shared: Arc<Shared>,
}

impl std::fmt::Debug for ToolboxServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolboxServer")
            .field("toolbox", &self.shared.snapshot().toolbox)
            .finish_non_exhaustive()
    }
}

/// The `tools/list` freshness hint a server gives by default: one minute.
///
/// ```
/// assert_eq!(mcp_tool_runtime::server::DEFAULT_TOOLS_TTL_MS, 60_000);
/// ```
pub const DEFAULT_TOOLS_TTL_MS: u64 = 60_000;

impl ToolboxServer {
    /// A handler serving `toolbox`, introducing itself as this crate.
    ///
    /// # Errors
    /// A tool whose entry rmcp's model refuses.
    pub fn new(toolbox: Toolbox) -> Result<Self, ServeError> {
        Self::with_info(
            toolbox,
            Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        )
    }

    /// A handler serving `toolbox` under the given server name and version.
    ///
    /// # Errors
    /// A tool whose entry rmcp's model refuses.
    pub fn with_info(toolbox: Toolbox, server: Implementation) -> Result<Self, ServeError> {
        let info = ServerConfig::new(declared(&toolbox)).with_server_info(server);
        let snapshot = Snapshot::new(toolbox)?;
        Ok(ToolboxServer {
            shared: Arc::new(Shared {
                snapshot: RwLock::new(Arc::new(snapshot)),
                info,
                cache: Mutex::new(CacheHints {
                    ttl_ms: DEFAULT_TOOLS_TTL_MS,
                    scope: CacheScope::Public,
                }),
                seal: Seal::default(),
                changes: Changes::default(),
                log_levels: Arc::new(LogLevels::default()),
                limits: RwLock::new(Limits::default()),
                quotas: Arc::default(),
                list_by_scope: Default::default(),
                metrics: Default::default(),
                tasks: Default::default(),
            }),
        })
    }

    /// The toolbox being served now.
    pub fn toolbox(&self) -> Arc<Toolbox> {
        self.shared.snapshot().toolbox.clone()
    }

    /// Changes the tools while serving: `change` gets a copy of the toolbox to register tools in
    /// or [`remove`](Toolbox::remove) them from; the new list is served from the next request on,
    /// calls already running finish with the tools they started with, and every connected client
    /// is sent `notifications/tools/list_changed` (the server declares `tools.listChanged`): a
    /// 2025 client on its session, a 2026-07-28 client on each `subscriptions/listen` stream that
    /// asked for `toolsListChanged`.
    ///
    /// # Errors
    /// What `change` returns, or a tool rmcp's model refuses; the served tools are then unchanged.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use mcp_tool_runtime::{mcp_tool, Toolbox, ToolboxServer};
    ///
    /// /// Says hello.
    /// #[mcp_tool]
    /// fn hello() -> String { "hello".into() }
    ///
    /// let server = ToolboxServer::new(Toolbox::new()).unwrap();
    /// server.update(|toolbox| toolbox.register(hello::tool()).map(drop)).await.unwrap();
    /// assert_eq!(server.toolbox().list_tools().len(), 1);
    /// # });
    /// ```
    pub async fn update<E>(
        &self,
        change: impl FnOnce(&mut Toolbox) -> Result<(), E>,
    ) -> Result<(), UpdateError<E>> {
        let before = self.shared.snapshot();
        let mut toolbox = Toolbox::clone(&before.toolbox);
        change(&mut toolbox).map_err(UpdateError::Change)?;
        let snapshot = Snapshot::new(toolbox).map_err(UpdateError::Serve)?;
        let declared = &self.shared.info.capabilities;
        // Every update is announced for the tools; the prompts and resources when their lists
        // changed and the server declares them.
        let lists = Lists {
            tools: true,
            prompts: declared.prompts.is_some() && before.listed.prompts != snapshot.listed.prompts,
            resources: declared.resources.is_some()
                && (before.listed.resources != snapshot.listed.resources
                    || before.listed.templates != snapshot.listed.templates),
        };
        *write(&self.shared.snapshot) = Arc::new(snapshot);
        let timeout = self.shared.limits().notify_timeout;
        self.shared
            .changes
            .announce(lists, timeout, &self.shared.quotas.refused)
            .await;
        Ok(())
    }

    /// Tells every client subscribed to the resource at `uri` that it changed
    /// (`notifications/resources/updated`): a 2025 client that sent `resources/subscribe` for
    /// it, a 2026-07-28 client whose `subscriptions/listen` stream named it. Each is told at
    /// once, none waits on another; one that does not accept the notice within
    /// [`Limits::notify_timeout`] is counted in [`Refusals::notices_dropped`](super::Refusals::notices_dropped).
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use mcp_tool_runtime::{Toolbox, ToolboxServer};
    ///
    /// let server = ToolboxServer::new(Toolbox::new()).unwrap();
    /// // No one is subscribed: nothing is sent, nothing waits.
    /// server.notify_resource_updated("invoices://7").await;
    /// # });
    /// ```
    pub async fn notify_resource_updated(&self, uri: &str) {
        let timeout = self.shared.limits().notify_timeout;
        self.shared
            .changes
            .resource_updated(uri, timeout, &self.shared.quotas.refused)
            .await;
    }

    /// The tools as rmcp routes, for a `#[tool_router]` of your own:
    /// `Self::tool_router() + toolbox_server.router()`. Each route runs the tool exactly as
    /// [`ToolboxServer`] does (context, cancellation, input-required results included). The
    /// routes are the tools of now, and a route carries no log level, subscription or
    /// list-changed notice: to serve the tools beside a handler of your own, prefer
    /// [`merge`](Self::merge), which does all of it.
    ///
    /// ```
    /// use mcp_tool_runtime::{mcp_tool, Toolbox, ToolboxServer};
    /// use mcp_tool_runtime::rmcp::handler::server::router::tool::ToolRouter;
    ///
    /// /// Says hello.
    /// #[mcp_tool]
    /// fn hello() -> String { "hello".into() }
    ///
    /// struct MyServer;
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(hello::tool()).unwrap();
    /// let router: ToolRouter<MyServer> = ToolboxServer::new(toolbox).unwrap().router();
    /// assert!(router.has_route("hello"));
    /// ```
    pub fn router<S: Send + Sync + 'static>(&self) -> ToolRouter<S> {
        router(&self.shared)
    }

    /// Whether the tool `name` is served now: [`get_tool`](ServerHandler::get_tool) without
    /// cloning its entry, for [`Merged`](super::Merged)'s routing of every call.
    pub(crate) fn serves(&self, name: &str) -> bool {
        self.shared.snapshot().tool(name).is_some()
    }

    /// What a `subscriptions/listen` stream hears of the tools: every change, if it `wants`
    /// them, until `cancelled`. For [`Merged`](super::Merged), which hands the same stream to
    /// the handler beside the tools.
    pub(crate) async fn listen_on(
        &self,
        wants: &Wants,
        sink: &rmcp::service::SubscriptionSink,
        context: &RequestContext<RoleServer>,
        cancelled: impl Future<Output = ()>,
    ) -> Result<(), ErrorData> {
        let limits = self.shared.limits();
        let holder = Holder::of(
            verified_caller(context).as_deref(),
            session_of(&context.peer).is_some(),
        );
        self.shared
            .changes
            .listen(wants, sink, cancelled, || {
                self.shared
                    .quotas
                    .acquire_listen_stream(holder.as_ref(), &limits)
            })
            .await
    }

    /// The caller's key for a tasks method, and the request's place among the calls running:
    /// the tasks methods read the task store (and `tasks/update` may wait on it), so each
    /// counts against the caller's share of calls while it is served.
    fn task_request(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<(Option<CallerKey>, CallSlot), ErrorData> {
        let caller = verified_caller(context);
        let slot = self.shared.quotas.acquire_call(
            &context.peer,
            caller.as_deref(),
            &self.shared.limits(),
        )?;
        Ok((CallerKey::of(context, caller.as_deref()), slot))
    }
}

/// The resource server looks each tool's scopes up in the tools as they are when a call arrives.
#[cfg(feature = "auth")]
impl crate::auth::ToolScopes for ToolboxServer {
    fn scopes(&self, tool: &str) -> Option<Vec<&'static str>> {
        self.shared
            .snapshot()
            .toolbox
            .scopes(tool)
            .map(<[_]>::to_vec)
    }
}

// rmcp's future for a request is as large as its largest handler's, and tokio moves it three
// times on every request (`http sizes` in `benches` prints them): the handlers whose futures
// are larger than a call's are boxed, one allocation on requests far rarer than calls.
impl ServerHandler for ToolboxServer {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let snapshot = self.shared.snapshot();
        let version = context.protocol_version();
        let revision = Revision::of(version.as_ref().map(|v| v.as_str()));
        let listed = snapshot.tools_for(revision);
        let by_scope = self
            .shared
            .list_by_scope
            .load(std::sync::atomic::Ordering::Relaxed);
        let caller = by_scope.then(|| verified_caller(&context)).flatten();
        // A tool only views may call (MCP Apps `visibility: ["app"]`) is listed to a host that
        // renders views, never to a client that would hand it to its model.
        let hides_app_only = snapshot.has_app_only
            && !context
                .client_capabilities()
                .and_then(|c| serde_json::to_value(c).ok())
                .and_then(|c| c.as_object().map(crate::apps::declares_apps))
                .unwrap_or(false);
        let tools = match (&caller, hides_app_only) {
            (None, false) => listed.to_vec(),
            _ => listed
                .iter()
                .filter(|tool| !hides_app_only || !snapshot.toolbox.is_app_only(&tool.name))
                .filter(|tool| {
                    caller.as_ref().is_none_or(|caller| {
                        snapshot
                            .toolbox
                            .scopes(&tool.name)
                            .is_none_or(|scopes| caller.missing_scopes(scopes).is_empty())
                    })
                })
                .cloned()
                .collect(),
        };
        let mut result = ListToolsResult::with_all_items(tools);
        if revision.is_2026_07_28() {
            let hints = *lock(&self.shared.cache);
            result.ttl_ms = Some(hints.ttl_ms);
            result.cache_scope = Some(if by_scope {
                CacheScope::Private
            } else {
                hints.scope
            });
        }
        Ok(result)
    }

    /// Runs the tool until it finishes or the client cancels the request
    /// (`notifications/cancelled`): then the tool's future is dropped, so a tool that never
    /// returns holds nothing once its caller gave up.
    ///
    /// Not an `async fn`: that would hold the request twice (as its argument and as moved
    /// into the call), in the future rmcp moves on every call.
    fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CallToolResponse, ErrorData>> + MaybeSendFuture + '_ {
        serve_call(
            &self.shared,
            request.name,
            request.arguments.map_or(Value::Null, Value::Object),
            (request.input_responses, request.request_state),
            context,
        )
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.shared.log_levels.set(&context.peer, request.level);
        Ok(())
    }

    /// Of what a `subscriptions/listen` request (MCP 2026-07-28) asks for, the server accepts
    /// the list-changed notifications it declares (tools; prompts and resources when it has
    /// them) and the resources it serves.
    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = self
            .shared
            .changes
            .accept(requested, &self.shared.info.capabilities);
        if let Some(uris) = &mut accepted.resource_subscriptions {
            let snapshot = self.shared.snapshot();
            uris.retain(|uri| snapshot.toolbox.serves_uri(uri));
            if uris.is_empty() {
                accepted.resource_subscriptions = None;
            }
        }
        Some(accepted)
    }

    /// Sends the list-changed notifications the stream asked for after every
    /// [`update`](Self::update) that changed the list, and `notifications/resources/updated`
    /// for each resource it named after every
    /// [`notify_resource_updated`](Self::notify_resource_updated), until the client cancels the
    /// subscription or the stream closes.
    fn listen(
        &self,
        context: SubscriptionContext,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        Box::pin(async move {
            let wants = Wants::of(context.accepted());
            self.listen_on(
                &wants,
                context.sink(),
                context.request_context(),
                context.cancelled(),
            )
            .await
        })
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.shared.changes.initialized(context.peer);
    }

    /// A `tools/call` whose `arguments` is not an object, which rmcp hands here: an `isError`
    /// result naming the problem. Any other unknown method is JSON-RPC -32601.
    fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CustomResult, ErrorData>> + MaybeSendFuture + '_ {
        Box::pin(custom_request(&self.shared, request, context))
    }

    /// The state of a task this server runs for the caller (the tasks extension).
    fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<GetTaskResult, ErrorData>> + MaybeSendFuture + '_ {
        Box::pin(async move {
            let (caller, _slot) = self.task_request(&context)?;
            self.shared
                .tasks
                .get(&request.task_id, caller.as_ref())
                .await
        })
    }

    /// Answers a task's questions (`inputResponses`); unknown or answered keys are ignored.
    fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        Box::pin(async move {
            let (caller, _slot) = self.task_request(&context)?;
            let wait = self.shared.limits().task_update_wait;
            self.shared
                .tasks
                .update(
                    &request.task_id,
                    caller.as_ref(),
                    request.input_responses,
                    wait,
                )
                .await
        })
    }

    /// Cancels a task: its tool's future is dropped and it ends `cancelled`.
    fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        Box::pin(async move {
            let (caller, _slot) = self.task_request(&context)?;
            self.shared
                .tasks
                .cancel(&request.task_id, caller.as_ref())
                .await
        })
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.shared.snapshot().tool(name).cloned()
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(catalog::list_prompts(&self.shared, &context))
    }

    /// Gets the prompt like a tool's call: within the caller's share of calls, asking the
    /// client with input-required results at 2026-07-28, stopped when the client cancels.
    fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<GetPromptResponse, ErrorData>> + MaybeSendFuture + '_ {
        Box::pin(catalog::get_prompt(&self.shared, request, context))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(catalog::list_resources(&self.shared, &context))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(catalog::list_resource_templates(&self.shared, &context))
    }

    /// Reads the resource like a tool's call (see [`get_prompt`](Self::get_prompt)).
    fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ReadResourceResponse, ErrorData>> + MaybeSendFuture + '_ {
        Box::pin(catalog::read_resource(&self.shared, request, context))
    }

    fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CompleteResult, ErrorData>> + MaybeSendFuture + '_ {
        Box::pin(catalog::complete(&self.shared, request, context))
    }

    /// Subscribes the session (up to 2025-11-25) to a resource this server serves, within
    /// [`Limits::max_resource_subscriptions_per_session`].
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        catalog::subscribe(&self.shared, &request.uri, &context)
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        catalog::unsubscribe(&self.shared, &request.uri, &context)
    }
}
