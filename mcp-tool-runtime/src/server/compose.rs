//! Composition: [`ToolboxServer::merge`] serves the toolbox's tools beside an rmcp handler of
//! your own, in one step that forwards every `ServerHandler` method.

use std::borrow::Cow;
use std::future::Future;

use futures_util::future::Either;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, CancelledNotificationParam,
    CompleteRequestParams, CompleteResult, CustomNotification, CustomRequest, CustomResult,
    DiscoverResult, ErrorCode, GetPromptRequestParams, GetPromptResponse, GetSkillRequestParams,
    GetSkillResult, GetTaskParams, GetTaskResult, InitializeRequestParams, InitializeResult,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult,
    ListToolsResult, PaginatedRequestParams, ProgressNotificationParam, ProtocolVersion,
    ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult, ReadResourceRequestParams,
    ReadResourceResponse, Reference, ServerCapabilities, ServerConfig, SetLevelRequestParams,
    SubscribeRequestParams, SubscriptionFilter, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{MaybeSendFuture, NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};

use super::handler::ToolboxServer;
use super::tasks::is_unknown_task;

/// An rmcp handler of your own with a [`ToolboxServer`]'s tools beside it: what
/// [`ToolboxServer::merge`] makes. Serve it like any rmcp handler.
///
/// Every `ServerHandler` method is forwarded, so none can be forgotten:
/// - `tools/list` lists the toolbox's tools, then the handler's (a name the toolbox has is the
///   toolbox's; a handler that pages its tools keeps its cursors, the toolbox's are on the first
///   page); `tools/call` and `get_tool` go to whichever has the tool; a `tools/call` whose
///   `arguments` is not an object (which rmcp hands over as a custom request) too;
/// - `logging/setLevel`, `notifications/initialized` and the other notifications go to both, so
///   log levels apply to the tools and 2025 sessions hear of tool changes;
/// - a `subscriptions/listen` stream (2026-07-28) accepts what either accepts and hears from
///   both, so clients hear of [`update`](ToolboxServer::update)s;
/// - the capabilities are the handler's with the toolbox's (tools, `listChanged`, logging)
///   added, in `get_info`, `initialize` and `server/discover` alike;
/// - prompts, resources, templates and completions are the toolbox's when it has them, else the
///   handler's; their lists are the toolbox's, then the handler's;
/// - everything else (tasks the toolbox does not hold, skills, ...) is the handler's.
#[derive(Debug, Clone)]
pub struct Merged<H> {
    tools: ToolboxServer,
    handler: H,
}

impl ToolboxServer {
    /// Serves these tools beside `handler`, an rmcp handler of your own (prompts, resources,
    /// `#[tool_router]` tools, ...): one step, in the manner of axum's `Router::merge`, after
    /// which tool changes, log levels and subscriptions all work. See [`Merged`].
    ///
    /// ```
    /// use mcp_tool_runtime::rmcp::ServerHandler;
    /// use mcp_tool_runtime::rmcp::model::{PromptsCapability, ServerCapabilities, ServerConfig};
    /// use mcp_tool_runtime::{mcp_tool, Toolbox, ToolboxServer};
    ///
    /// /// A handler with prompts of its own.
    /// #[derive(Clone)]
    /// struct Shop;
    ///
    /// impl ServerHandler for Shop {
    ///     fn get_info(&self) -> ServerConfig {
    ///         ServerConfig::new(ServerCapabilities::builder().enable_prompts().build())
    ///     }
    /// }
    ///
    /// /// Says hello.
    /// #[mcp_tool]
    /// fn hello() -> String { "hello".into() }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(hello::tool()).unwrap();
    /// let server = ToolboxServer::new(toolbox).unwrap().merge(Shop);
    /// let capabilities = server.get_info().capabilities;
    /// assert!(capabilities.prompts.is_some());
    /// assert_eq!(capabilities.tools.unwrap().list_changed, Some(true));
    /// assert!(server.get_tool("hello").is_some());
    /// ```
    pub fn merge<H: ServerHandler>(self, handler: H) -> Merged<H> {
        Merged {
            tools: self,
            handler,
        }
    }
}

impl<H> Merged<H> {
    /// The toolbox server (for [`update`](ToolboxServer::update) and its settings).
    pub fn tools(&self) -> &ToolboxServer {
        &self.tools
    }

    /// Your handler.
    pub fn handler(&self) -> &H {
        &self.handler
    }
}

/// The handler's capabilities with the toolbox's added.
fn merge_capabilities(
    mut capabilities: ServerCapabilities,
    tools: ServerCapabilities,
) -> ServerCapabilities {
    capabilities.tools = tools.tools;
    if capabilities.logging.is_none() {
        capabilities.logging = tools.logging;
    }
    // The toolbox's prompts and resources are declared beside the handler's (both may list
    // changes; subscriptions go to whichever serves the resource).
    if tools.prompts.is_some() {
        capabilities.prompts = tools.prompts;
    }
    if tools.resources.is_some() {
        capabilities.resources = tools.resources;
    }
    if capabilities.completions.is_none() {
        capabilities.completions = tools.completions;
    }
    for (id, extension) in tools.extensions.into_iter().flatten() {
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .entry(id)
            .or_insert(extension);
    }
    capabilities
}

/// Whether a handler answered that it does not serve the method (rmcp's default answer).
fn not_served(error: &ErrorData) -> bool {
    error.code == ErrorCode::METHOD_NOT_FOUND
}

impl<H: ServerHandler> Merged<H> {
    /// A `tasks/*` request: the toolbox's when its store has the task (one read of it, in the
    /// toolbox's answer), else the handler's; a task neither has is unknown, and the toolbox
    /// answers so (-32602).
    async fn route_task<T, Tools, Handler>(
        &self,
        tools: Tools,
        handler: impl FnOnce() -> Handler,
    ) -> Result<T, ErrorData>
    where
        Tools: Future<Output = Result<T, ErrorData>>,
        Handler: Future<Output = Result<T, ErrorData>>,
    {
        match tools.await {
            Err(unknown) if is_unknown_task(&unknown) => match handler().await {
                Err(error) if not_served(&error) => Err(unknown),
                other => other,
            },
            other => other,
        }
    }

    fn capabilities(&self, capabilities: ServerCapabilities) -> ServerCapabilities {
        merge_capabilities(capabilities, self.tools.get_info().capabilities)
    }
}

impl<H: ServerHandler> ServerHandler for Merged<H> {
    // The toolbox's, or both.

    fn get_info(&self) -> ServerConfig {
        let mut info = self.handler.get_info();
        info.capabilities = self.capabilities(info.capabilities);
        info
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        let mut result = self.handler.initialize(request, context).await?;
        result.capabilities = self.capabilities(result.capabilities);
        Ok(result)
    }

    fn negotiate_initialize(
        &self,
        request: &InitializeRequestParams,
    ) -> Result<InitializeResult, ErrorData> {
        let mut result = self.handler.negotiate_initialize(request)?;
        result.capabilities = self.capabilities(result.capabilities);
        Ok(result)
    }

    async fn discover(
        &self,
        context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        let mut result = self.handler.discover(context).await?;
        result.capabilities = self.capabilities(result.capabilities);
        Ok(result)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // The toolbox's tools make the first page (with its caching hints); a request with a
        // cursor asks for a later page of the handler's.
        let later_page = request.as_ref().is_some_and(|r| r.cursor.is_some());
        let mut listed = self.tools.list_tools(None, context.clone()).await?;
        if later_page {
            listed.tools.clear();
        }
        match self.handler.list_tools(request, context).await {
            Ok(theirs) => {
                listed.tools.extend(
                    theirs
                        .tools
                        .into_iter()
                        .filter(|tool| !self.tools.serves(&tool.name)),
                );
                listed.next_cursor = theirs.next_cursor;
            }
            Err(e) if not_served(&e) => {}
            Err(e) => return Err(e),
        }
        Ok(listed)
    }

    /// The future of the handler it routes to, not an `async fn` holding the request beside it
    /// (see [`ToolboxServer::call_tool`]).
    fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CallToolResponse, ErrorData>> + MaybeSendFuture + '_ {
        if self.tools.serves(&request.name) {
            Either::Left(self.tools.call_tool(request, context))
        } else {
            Either::Right(self.handler.call_tool(request, context))
        }
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools
            .get_tool(name)
            .or_else(|| self.handler.get_tool(name))
    }

    fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CustomResult, ErrorData>> + MaybeSendFuture + '_ {
        let ours = request.method == "tools/call"
            && request
                .params
                .as_ref()
                .and_then(|params| params.get("name"))
                .and_then(|name| name.as_str())
                .is_some_and(|name| self.tools.serves(name));
        if ours {
            Either::Left(self.tools.on_custom_request(request, context))
        } else {
            Either::Right(self.handler.on_custom_request(request, context))
        }
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tools
            .set_level(request.clone(), context.clone())
            .await?;
        match self.handler.set_level(request, context).await {
            Err(e) if !not_served(&e) => Err(e),
            _ => Ok(()),
        }
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let ours = self.tools.accepted_subscription_filter(requested);
        let theirs = self.handler.accepted_subscription_filter(requested);
        match (ours, theirs) {
            (Some(ours), Some(theirs)) => {
                let mut both = theirs;
                both.tools_list_changed = ours.tools_list_changed.or(both.tools_list_changed);
                both.prompts_list_changed = ours.prompts_list_changed.or(both.prompts_list_changed);
                both.resources_list_changed =
                    ours.resources_list_changed.or(both.resources_list_changed);
                match (
                    ours.resource_subscriptions,
                    &mut both.resource_subscriptions,
                ) {
                    (Some(ours), Some(theirs)) => {
                        theirs.extend(ours);
                        theirs.sort();
                        theirs.dedup();
                    }
                    (Some(ours), theirs @ None) => *theirs = Some(ours),
                    (None, _) => {}
                }
                Some(both)
            }
            (ours, theirs) => ours.or(theirs),
        }
    }

    /// Boxed: both streams' futures, in the future of every request (see
    /// [`ToolboxServer::listen`]).
    fn listen(
        &self,
        context: SubscriptionContext,
    ) -> impl Future<Output = Result<(), ErrorData>> + MaybeSendFuture + '_ {
        Box::pin(async move {
            let wants = super::changes::Wants::of(context.accepted());
            let sink = context.sink().clone();
            let ct = context.request_context().ct.clone();
            let request = context.request_context().clone();
            let (ours, theirs) = tokio::join!(
                self.tools
                    .listen_on(&wants, &sink, &request, ct.cancelled()),
                self.handler.listen(context),
            );
            ours.and(theirs)
        })
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.tools.on_initialized(context.clone()).await;
        self.handler.on_initialized(context).await;
    }

    async fn on_cancelled(
        &self,
        notification: CancelledNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.tools
            .on_cancelled(notification.clone(), context.clone())
            .await;
        self.handler.on_cancelled(notification, context).await;
    }

    async fn on_progress(
        &self,
        notification: ProgressNotificationParam,
        context: NotificationContext<RoleServer>,
    ) {
        self.tools
            .on_progress(notification.clone(), context.clone())
            .await;
        self.handler.on_progress(notification, context).await;
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.tools.on_roots_list_changed(context.clone()).await;
        self.handler.on_roots_list_changed(context).await;
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        context: NotificationContext<RoleServer>,
    ) {
        self.tools
            .on_custom_notification(notification.clone(), context.clone())
            .await;
        self.handler
            .on_custom_notification(notification, context)
            .await;
    }

    // The handler's.

    async fn ping(&self, context: RequestContext<RoleServer>) -> Result<(), ErrorData> {
        self.handler.ping(context).await
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        self.handler.supported_protocol_versions()
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let toolbox = self.tools.toolbox();
        let ours = match &request.r#ref {
            Reference::Prompt(prompt) => toolbox
                .list_prompts()
                .iter()
                .any(|p| p.name == prompt.name.as_str()),
            Reference::Resource(resource) => toolbox
                .list_resource_templates()
                .iter()
                .any(|t| t.uri_template == resource.uri.as_str()),
            _ => false,
        };
        if ours {
            self.tools.complete(request, context).await
        } else {
            self.handler.complete(request, context).await
        }
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let ours = self
            .tools
            .toolbox()
            .list_prompts()
            .iter()
            .any(|p| p.name == request.name.as_str());
        if ours {
            self.tools.get_prompt(request, context).await
        } else {
            self.handler.get_prompt(request, context).await
        }
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        // The toolbox's make the first page; a later page is the handler's.
        let later_page = request.as_ref().is_some_and(|r| r.cursor.is_some());
        let mut listed = self.tools.list_prompts(None, context.clone()).await?;
        if later_page {
            listed.prompts.clear();
        }
        match self.handler.list_prompts(request, context).await {
            Ok(theirs) => {
                let ours: Vec<String> = listed.prompts.iter().map(|p| p.name.clone()).collect();
                listed.prompts.extend(
                    theirs
                        .prompts
                        .into_iter()
                        .filter(|p| !ours.contains(&p.name)),
                );
                listed.next_cursor = theirs.next_cursor;
            }
            Err(e) if not_served(&e) => {}
            Err(e) => return Err(e),
        }
        Ok(listed)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let later_page = request.as_ref().is_some_and(|r| r.cursor.is_some());
        let mut listed = self.tools.list_resources(None, context.clone()).await?;
        if later_page {
            listed.resources.clear();
        }
        match self.handler.list_resources(request, context).await {
            Ok(theirs) => {
                let ours: Vec<String> = listed.resources.iter().map(|r| r.uri.clone()).collect();
                listed.resources.extend(
                    theirs
                        .resources
                        .into_iter()
                        .filter(|r| !ours.contains(&r.uri)),
                );
                listed.next_cursor = theirs.next_cursor;
            }
            Err(e) if not_served(&e) => {}
            Err(e) => return Err(e),
        }
        Ok(listed)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let later_page = request.as_ref().is_some_and(|r| r.cursor.is_some());
        let mut listed = self
            .tools
            .list_resource_templates(None, context.clone())
            .await?;
        if later_page {
            listed.resource_templates.clear();
        }
        match self.handler.list_resource_templates(request, context).await {
            Ok(theirs) => {
                let ours: Vec<String> = listed
                    .resource_templates
                    .iter()
                    .map(|t| t.uri_template.clone())
                    .collect();
                listed.resource_templates.extend(
                    theirs
                        .resource_templates
                        .into_iter()
                        .filter(|t| !ours.contains(&t.uri_template)),
                );
                listed.next_cursor = theirs.next_cursor;
            }
            Err(e) if not_served(&e) => {}
            Err(e) => return Err(e),
        }
        Ok(listed)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if self.tools.toolbox().serves_uri(&request.uri) {
            self.tools.read_resource(request, context).await
        } else {
            self.handler.read_resource(request, context).await
        }
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if self.tools.toolbox().serves_uri(&request.uri) {
            self.tools.subscribe(request, context).await
        } else {
            self.handler.subscribe(request, context).await
        }
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if self.tools.toolbox().serves_uri(&request.uri) {
            self.tools.unsubscribe(request, context).await
        } else {
            self.handler.unsubscribe(request, context).await
        }
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.route_task(
            self.tools.get_task(request.clone(), context.clone()),
            || self.handler.get_task(request.clone(), context.clone()),
        )
        .await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.route_task(
            self.tools.update_task(request.clone(), context.clone()),
            || self.handler.update_task(request.clone(), context.clone()),
        )
        .await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.route_task(
            self.tools.cancel_task(request.clone(), context.clone()),
            || self.handler.cancel_task(request.clone(), context.clone()),
        )
        .await
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        self.handler.list_skills(request, context).await
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        self.handler.get_skill(request, context).await
    }

    async fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        self.handler.read_resource_directory(request, context).await
    }
}
