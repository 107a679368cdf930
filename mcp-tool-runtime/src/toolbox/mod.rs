//! The toolbox: tools, prompts and resources registered once, then listed and called.

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use crate::context::ToolContext;
use crate::options::ResultOptions;
use crate::result::ToolResult;
use crate::schema::{OutputSchema, portable_input, strict_input};
use crate::settings::{SchemaProfile, ServerDefaults, UnknownArguments, resolve};
use crate::structured::shape_at;
use crate::tool::{State, Tool, ToolDefinition};
use crate::version::{PerRevision, Revision};

mod arguments;
mod call;
mod call_layer;
mod catalog;
mod error;
mod header;
pub mod layers;
mod mount;
mod name;
#[cfg(feature = "self-check")]
mod self_check;
/// Without the `self-check` feature, a check that lets every result through.
#[cfg(not(feature = "self-check"))]
mod self_check {
    #[derive(Clone, Default)]
    pub(crate) struct ToolCheck;

    impl ToolCheck {
        pub(crate) fn new(_: Option<&crate::schema::SchemaObject>, _: bool) -> Self {
            ToolCheck
        }

        pub(crate) fn check(
            &self,
            _: bool,
            _: &crate::options::ResultOptions,
            result: crate::result::ToolResult,
        ) -> crate::result::ToolResult {
            result
        }
    }
}

use arguments::ArgumentCheck;
use call::Registered;
pub use call_layer::{CallLayer, FromFn, Next, from_fn};
pub use catalog::CompletionRef;
pub use error::{RegistrationError, UnknownTool};
pub use mount::DEFAULT_MOUNT_SEPARATOR;
use name::check_tool_name;
use self_check::ToolCheck;

/// A set of tools served together, with the server-wide structured-output defaults.
///
/// Everything that depends on the defaults is decided here once, at registration: the asymmetric
/// rule is checked, schemas are built and the `tools/list` entries cached. A request does no
/// schema work.
///
/// ```
/// use mcp_tool_runtime::{mcp_tool, Toolbox};
///
/// /// Adds two numbers.
/// #[mcp_tool]
/// fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let mut toolbox = Toolbox::new();
/// toolbox.register(add::tool()).unwrap();
/// let result = toolbox
///     .call_tool("add", serde_json::json!({"a": 2, "b": 3}))
///     .await
///     .unwrap();
/// assert_eq!(result.structured_content, Some(serde_json::json!({"result": 5})));
/// # });
/// ```
#[derive(Default, Clone)]
pub struct Toolbox {
    defaults: ServerDefaults,
    /// The result ceiling, also in each tool's [`ResultOptions`](crate::ResultOptions).
    max_result_bytes: Option<usize>,
    /// Whether results are validated before they are sent (feature `self-check`); `None`: in
    /// debug builds.
    check_results: Option<bool>,
    state: State,
    /// Sorted by name: the `tools/list` order; from 2026-07-28 each `outputSchema` is the
    /// type's own.
    definitions: PerRevision<Vec<ToolDefinition>>,
    /// Hashed with Fx: the keys are the names the server registered, so a caller's name can
    /// only be looked up, never make the table's probes longer (it is looked up on every call).
    tools: HashMap<String, Registered, rustc_hash::FxBuildHasher>,
    /// Run around every call, the first outermost.
    layers: Vec<Arc<dyn CallLayer>>,
    /// The prompts and resources.
    catalog: catalog::Catalog,
}

impl std::fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolbox")
            .field("defaults", &self.defaults)
            .field(
                "tools",
                &self
                    .list_tools()
                    .iter()
                    .map(|d| &d.name)
                    .collect::<Vec<_>>(),
            )
            .field(
                "prompts",
                &self
                    .list_prompts()
                    .iter()
                    .map(|d| &d.name)
                    .collect::<Vec<_>>(),
            )
            .field(
                "resources",
                &self
                    .list_resources()
                    .iter()
                    .map(|d| &d.uri)
                    .chain(
                        self.list_resource_templates()
                            .iter()
                            .map(|d| &d.uri_template),
                    )
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Toolbox {
    /// An empty toolbox with the default settings (structured content and output schemas on).
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty toolbox with these server-wide defaults.
    pub fn with_defaults(defaults: ServerDefaults) -> Self {
        Toolbox {
            defaults,
            ..Self::default()
        }
    }

    /// Refuses results larger than `limit` bytes (the whole encoded result) with an `isError`
    /// result. Read at call time: it applies to every tool, whenever it was registered.
    pub fn set_max_result_bytes(&mut self, limit: usize) -> &mut Self {
        self.max_result_bytes = Some(limit);
        for registered in self.tools.values_mut() {
            for options in registered.options.each_mut() {
                options.max_result_bytes = Some(limit);
            }
        }
        self
    }

    /// Validates every structured result against the tool's own advertised `outputSchema` before
    /// it is sent (formats checked), and sends an `isError` result naming the tool, the JSON path
    /// and what was advertised instead of a result that breaks MCP's rule. On by default in debug
    /// builds (tests included), off in release builds; this call decides either way.
    ///
    /// Measured cost (`cargo run --release -p benches --bin costs`, callgrind): a served call
    /// returning a 1,000-row (250 KB) list takes 1.09x the instructions with the check on; for a
    /// 1 KB result the difference is within what the allocator's state moves (1.00x). The
    /// `self-check` feature (on by default) brings in `jsonschema`; BENCHMARKS.md has its build
    /// cost.
    ///
    /// ```
    /// use mcp_tool_runtime::{mcp_tool, Toolbox};
    ///
    /// /// Adds two numbers.
    /// #[mcp_tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.check_results(true).register(add::tool()).unwrap();
    /// ```
    #[cfg(feature = "self-check")]
    #[cfg_attr(docsrs, doc(cfg(feature = "self-check")))]
    pub fn check_results(&mut self, on: bool) -> &mut Self {
        self.check_results = Some(on);
        self
    }

    fn checks_results(&self) -> bool {
        self.check_results.unwrap_or(cfg!(debug_assertions))
    }

    /// Runs `layer` around every call of this toolbox's tools, inside the layers added before
    /// it (see [`CallLayer`]). Applies to every tool, whenever it was registered, and to clones
    /// made after.
    pub fn layer(&mut self, layer: impl CallLayer) -> &mut Self {
        self.layers.push(Arc::new(layer));
        self
    }

    /// Adds state that tools take as a `#[state]` parameter; one value per type.
    pub fn insert_state<S: Any + Send + Sync>(&mut self, value: S) -> &mut Self {
        self.state.insert(value);
        self
    }

    /// The state of type `S` this toolbox holds, if any.
    ///
    /// ```
    /// use mcp_tool_runtime::Toolbox;
    ///
    /// struct Greeting(&'static str);
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.insert_state(Greeting("Hello"));
    /// assert_eq!(toolbox.state::<Greeting>().map(|g| g.0), Some("Hello"));
    /// ```
    pub fn state<S: Any + Send + Sync>(&self) -> Option<&S> {
        self.state.get::<S>()
    }

    /// Registers a tool: resolves its settings against the server defaults, checks the
    /// asymmetric rule and its name, builds its `tools/list` entry.
    ///
    /// # Errors
    /// A duplicate or invalid name, a resolution that would advertise an `outputSchema` without
    /// `structuredContent`, or state the tool needs and the toolbox lacks.
    pub fn register(&mut self, tool: impl Tool) -> Result<&mut Self, RegistrationError> {
        // Everything but the boxing is one non-generic function, not one copy per tool; and
        // `Box::new` is one function per tool where `Arc::new` is two.
        self.register_boxed(Box::new(tool))
    }

    fn register_boxed(&mut self, tool: Box<dyn Tool>) -> Result<&mut Self, RegistrationError> {
        self.register_shared(Arc::from(tool))
    }

    /// Registers several tools at once, in order, stopping at the first that cannot be: with
    /// [`tools!`](crate::tools), one line for a whole toolbox.
    ///
    /// A tool declared and never registered is reported by rustc: its function is never used
    /// (the `dead_code` lint, which `#![deny(dead_code)]` makes an error). A `pub` tool of a
    /// library is exempt from the lint, as every public item is; register those where the
    /// library builds its toolbox, and let a test compare `list_tools()` with the names you
    /// expect.
    ///
    /// ```
    /// use mcp_tool_runtime::{mcp_tool, tools, Toolbox};
    ///
    /// /// Adds two numbers.
    /// #[mcp_tool]
    /// fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// /// Subtracts `b` from `a`.
    /// #[mcp_tool]
    /// fn sub(a: i64, b: i64) -> i64 { a - b }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register_all(tools![add, sub]).unwrap();
    /// assert_eq!(toolbox.list_tools().len(), 2);
    /// ```
    ///
    /// # Errors
    /// The first tool [`register`](Self::register) refuses; the tools before it stay registered.
    pub fn register_all(
        &mut self,
        tools: impl IntoIterator<Item = Box<dyn Tool>>,
    ) -> Result<&mut Self, RegistrationError> {
        for tool in tools {
            self.register_shared(Arc::from(tool))?;
        }
        Ok(self)
    }

    fn register_shared(&mut self, tool: Arc<dyn Tool>) -> Result<&mut Self, RegistrationError> {
        let declaration = tool.declaration();
        let name = declaration.name.to_string();
        if let Err(reason) = check_tool_name(&name) {
            return Err(RegistrationError::InvalidName { name, reason });
        }
        if self.tools.contains_key(&name) {
            return Err(RegistrationError::DuplicateName(name));
        }
        let resolved = resolve(
            &name,
            declaration.flags,
            self.defaults,
            declaration.content_kind,
        )?;
        if let Some(missing) = declaration
            .state
            .iter()
            .find(|need| !self.state.contains((need.id)()))
        {
            return Err(RegistrationError::MissingState {
                tool: name,
                type_name: missing.type_name,
            });
        }

        // Served in the portable shape unless the tool or the server says otherwise: the same
        // values admitted, written the way every mainstream client reads them.
        let profile = declaration
            .schema_profile
            .unwrap_or(self.defaults.schema_profile);
        let output = declaration.output_schema.map(|build| match profile {
            SchemaProfile::AsDerived => build(),
            _ => build().portable(),
        });
        let derived = (declaration.input_schema)();
        header::check_header_arguments(&derived).map_err(|reason| {
            RegistrationError::InvalidHeader {
                tool: name.clone(),
                reason,
            }
        })?;
        let uncheckable = |reason| RegistrationError::UncheckableArguments {
            tool: name.clone(),
            reason,
        };
        // The strict shape moves rules into descriptions: calls are checked against the schema
        // with them in place (`enforced`), and it states rules serde does not check (every
        // property required, no other), so it always has a validator.
        let (mut input_schema, enforced) = match profile {
            SchemaProfile::AsDerived => (derived.clone(), None),
            SchemaProfile::Strict => {
                let (served, enforced) = strict_input(&derived).map_err(uncheckable)?;
                (served, Some(enforced))
            }
            _ => (portable_input(&derived), None),
        };
        if self.defaults.unknown_arguments == UnknownArguments::Refuse {
            Arc::make_mut(&mut input_schema)
                .insert("additionalProperties".to_owned(), Value::Bool(false));
        }
        let arguments = match &enforced {
            Some(enforced) => ArgumentCheck::always(&derived, enforced),
            None => ArgumentCheck::new(&derived, &input_schema),
        }
        .map_err(uncheckable)?;
        let known_arguments =
            (input_schema.get("additionalProperties") == Some(&Value::Bool(false))).then(|| {
                input_schema
                    .get("properties")
                    .and_then(Value::as_object)
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default()
            });
        let options = declaration.result_options(
            resolved.include_structured_content,
            output.as_ref().map(OutputSchema::shape),
            self.max_result_bytes,
            self.defaults.mirror,
        );
        let options = PerRevision::new(|revision| ResultOptions {
            shape: shape_at(options.shape, revision),
            ..options.clone()
        });
        let (meta, app_only) = self.view_meta(&name, &declaration)?;
        let advertised = output.filter(|_| resolved.include_output_schema);
        let schemas = advertised.as_ref().map(OutputSchema::schemas);
        let check = PerRevision::new(|revision| {
            ToolCheck::new(
                schemas.map(|schemas| schemas.get(revision)),
                self.checks_results(),
            )
        });
        let definition = PerRevision::new(|revision| ToolDefinition {
            name: declaration.name.clone(),
            title: declaration.title.clone(),
            description: declaration.description.clone(),
            input_schema: input_schema.clone(),
            output_schema: schemas.map(|schemas| schemas.get(revision).clone()),
            annotations: declaration.annotations.clone(),
            icons: declaration.icons.clone(),
            meta: meta.clone(),
        });
        let at = self
            .list_tools()
            .partition_point(|d| d.name.as_ref() < name.as_str());
        for (definitions, definition) in self
            .definitions
            .each_mut()
            .into_iter()
            .zip(definition.into_array())
        {
            definitions.insert(at, definition);
        }
        self.tools.insert(
            name,
            Registered {
                tool,
                options,
                known_arguments,
                arguments,
                check,
                scopes: declaration.scopes,
                task: declaration.task,
                escalates: declaration.escalates,
                app_only,
                has_ui: declaration.ui.is_some(),
                #[cfg(feature = "otel")]
                label: match declaration.name {
                    std::borrow::Cow::Borrowed(name) => name.into(),
                    std::borrow::Cow::Owned(name) => Arc::<str>::from(name).into(),
                },
            },
        );
        Ok(self)
    }

    /// The `_meta` of a tool's entry with its MCP Apps part written in (`_meta.ui`, and the
    /// legacy `_meta["ui/resourceUri"]` hosts also read), and whether only views may call it.
    /// A view must be a `ui://` resource this toolbox already serves.
    fn view_meta(
        &self,
        name: &str,
        declaration: &crate::ToolDeclaration,
    ) -> Result<(serde_json::Map<String, Value>, bool), RegistrationError> {
        let mut meta = declaration.meta.clone();
        let Some(ui) = &declaration.ui else {
            return Ok((meta, false));
        };
        if let Some(uri) = &ui.resource_uri {
            let refused = |reason: String| RegistrationError::InvalidView {
                tool: name.to_owned(),
                reason,
            };
            if !crate::apps::is_view_uri(uri) {
                return Err(refused(format!(
                    "its view `{uri}` is not a `ui://` URI, which MCP Apps hosts require"
                )));
            }
            if !self.serves_view(uri) {
                return Err(refused(format!(
                    "no resource serves its view `{uri}`; register the view's resource (`register_resource`) before the tool"
                )));
            }
            meta.insert(
                crate::apps::LEGACY_RESOURCE_URI_KEY.to_owned(),
                Value::from(uri.as_ref()),
            );
        }
        let written = serde_json::to_value(ui).unwrap_or_default();
        meta.insert("ui".to_owned(), written);
        Ok((meta, ui.is_app_only()))
    }

    /// Whether only the tool's views may call the tool `name` (`visibility(app)`): it is left
    /// out of `tools/list` for a client that did not declare MCP Apps.
    pub fn is_app_only(&self, name: &str) -> bool {
        self.tools.get(name).is_some_and(|r| r.app_only)
    }

    /// Whether a tool has a view or a resource is one: the server then declares MCP Apps.
    #[cfg(feature = "rmcp")]
    pub(crate) fn has_views(&self) -> bool {
        self.tools.values().any(|r| r.has_ui) || self.has_view_resources()
    }

    /// Removes the tool `name`; whether there was one.
    ///
    /// ```
    /// use mcp_tool_runtime::{mcp_tool, Toolbox};
    ///
    /// /// Says hello.
    /// #[mcp_tool]
    /// fn hello() -> String { "hello".into() }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(hello::tool()).unwrap();
    /// assert!(toolbox.remove("hello"));
    /// assert!(toolbox.list_tools().is_empty());
    /// ```
    pub fn remove(&mut self, name: &str) -> bool {
        for definitions in self.definitions.each_mut() {
            definitions.retain(|d| d.name != name);
        }
        self.tools.remove(name).is_some()
    }

    /// The `tools/list` entries, sorted by name, as served up to MCP 2025-11-25 (an
    /// `outputSchema`'s root always an object). Built at registration; nothing is computed here.
    pub fn list_tools(&self) -> &[ToolDefinition] {
        self.definitions.get(Revision::Until2025_11_25)
    }

    /// The `tools/list` entries for a client speaking `version`: from 2026-07-28 (SEP-2106) each
    /// `outputSchema` is the return type's own schema, whatever its root, and results are
    /// served the same way; before, [`list_tools`](Self::list_tools). Both are built at
    /// registration.
    ///
    /// ```
    /// use mcp_tool_runtime::{mcp_tool, Toolbox};
    ///
    /// /// Lists the invoice numbers.
    /// #[mcp_tool(include_output_schema)]
    /// fn numbers() -> Vec<String> { vec!["INV-1".into()] }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(numbers::tool()).unwrap();
    /// let old = toolbox.list_tools_for(Some("2025-11-25"))[0].output_schema.clone().unwrap();
    /// assert_eq!(old["properties"]["result"]["type"], "array");
    /// let new = toolbox.list_tools_for(Some("2026-07-28"))[0].output_schema.clone().unwrap();
    /// assert_eq!(new["type"], "array");
    /// ```
    pub fn list_tools_for(&self, version: Option<&str>) -> &[ToolDefinition] {
        self.definitions.get(Revision::of(version))
    }

    /// The `tools/list` entries served at `revision`.
    #[cfg(feature = "rmcp")]
    pub(crate) fn definitions(&self, revision: Revision) -> &[ToolDefinition] {
        self.definitions.get(revision)
    }

    /// The OAuth scopes a caller needs to call the tool `name` (empty when it needs none), or
    /// `None` when there is no such tool.
    ///
    /// ```
    /// use mcp_tool_runtime::{mcp_tool, Toolbox};
    ///
    /// /// Voids an invoice.
    /// #[mcp_tool(scopes("invoices:write"))]
    /// fn void_invoice(number: String) -> String { number }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(void_invoice::tool()).unwrap();
    /// assert_eq!(toolbox.scopes("void_invoice"), Some(&["invoices:write"][..]));
    /// assert_eq!(toolbox.scopes("nothing"), None);
    /// ```
    pub fn scopes(&self, name: &str) -> Option<&[&'static str]> {
        self.tools.get(name).map(|r| &*r.scopes)
    }

    /// Whether the tool `name` runs as a task (`task = ...` on `#[mcp_tool]`), or `None` when
    /// there is no such tool.
    pub fn task_support(&self, name: &str) -> Option<crate::tool::TaskSupport> {
        self.tools.get(name).map(|r| r.task)
    }

    /// The tool `name` as registered: how it runs as a task, the scopes it needs, its metrics
    /// label, in a served call's one lookup; `None` when there is no such tool.
    #[cfg(feature = "rmcp")]
    pub(crate) fn registered(&self, name: &str) -> Option<&call::Registered> {
        self.tools.get(name)
    }

    /// Whether the task tool `name`'s calls become tasks only where its body calls
    /// [`ToolContext::escalate`](crate::ToolContext::escalate) (`escalates` on `#[mcp_tool]`).
    pub fn task_escalates(&self, name: &str) -> bool {
        self.tools.get(name).is_some_and(|r| r.escalates)
    }

    /// Calls the tool `name` with `arguments` (a JSON object, or `null` for none).
    ///
    /// Everything that goes wrong inside the call (bad arguments, an error the tool returns, a
    /// panic, a payload that cannot be sent) is an `isError` result naming the problem.
    /// Arguments nested deeper than [`MAX_DEPTH`](crate::encode::MAX_DEPTH) levels are refused
    /// before anything recursive touches them, so no nesting overflows the stack.
    ///
    /// # Errors
    /// Only an unknown tool, which MCP answers with a JSON-RPC error rather than a result.
    pub async fn call_tool(&self, name: &str, arguments: Value) -> Result<ToolResult, UnknownTool> {
        self.call_tool_with(name, arguments, ToolContext::detached())
            .await
    }

    /// Calls the tool `name` like [`call_tool`](Self::call_tool), with `context` as its
    /// [`ToolContext`]: a [`Recording`](crate::context::Recording) in tests, or a context
    /// [`ToolboxServer`](crate::ToolboxServer) built for a served request. The context is
    /// marked finished when the result exists, so nothing is sent for the call after it.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use mcp_tool_runtime::context::{LogLevel, Recording};
    /// use mcp_tool_runtime::{mcp_tool, ToolContext, Toolbox};
    ///
    /// /// Says hello, and logs it.
    /// #[mcp_tool]
    /// async fn hello(ctx: &ToolContext) -> String {
    ///     ctx.log(LogLevel::Info, "said hello").await;
    ///     "hello".into()
    /// }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register(hello::tool()).unwrap();
    /// let recording = Recording::new();
    /// toolbox.call_tool_with("hello", serde_json::Value::Null, recording.context()).await.unwrap();
    /// assert_eq!(recording.logs().len(), 1);
    /// # });
    /// ```
    ///
    /// # Errors
    /// Only an unknown tool.
    pub async fn call_tool_with(
        &self,
        name: &str,
        arguments: Value,
        context: ToolContext,
    ) -> Result<ToolResult, UnknownTool> {
        let result = self.run(name, arguments, context.clone()).await;
        context.finish();
        result
    }

    async fn run(
        &self,
        name: &str,
        arguments: Value,
        context: ToolContext,
    ) -> Result<ToolResult, UnknownTool> {
        let Some((name, registered)) = self.tools.get_key_value(name) else {
            return Err(UnknownTool {
                name: name.to_owned(),
            });
        };
        // A caller without a scope the tool needs reaches no layer (no rate limit, no timeout).
        if let Some(refusal) = registered.refuse_caller(name, &context) {
            return Ok(refusal);
        }
        // Without layers, the call runs as it is: no boxed future on the hot path.
        if self.layers.is_empty() {
            return Ok(registered
                .call(arguments, &self.state, context, self.checks_results())
                .await);
        }
        let next = Next {
            layers: &self.layers,
            tool: name,
            registered,
            arguments,
            state: &self.state,
            context,
            check_results: self.checks_results(),
        };
        Ok(next.run().await)
    }
}
