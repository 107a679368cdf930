//! The toolbox's prompts and resources: registered once (names, URIs and templates checked,
//! list entries built, derived completions computed), then listed, got, read and completed.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures_util::FutureExt as _;
use serde_json::{Map, Value};

use super::name::check_tool_name;
use super::{RegistrationError, Toolbox};
use crate::completion::{Complete, Completion};
use crate::content::ResourceContents;
use crate::context::ToolContext;
use crate::message::{describe, quote};
use crate::prompt::{Prompt, PromptDefinition, PromptGet, PromptResult};
use crate::protocol_error::ProtocolError;
use crate::resource::{
    MAX_URI_BYTES, Resource, ResourceDefinition, ResourceRead, ResourceTemplateDefinition,
    UriTemplate, check_uri,
};
use crate::tool::{State, StateRequirement};

/// What `completion/complete` completes: a prompt's argument, or a resource template's variable.
///
/// ```
/// use mcp_tool_runtime::toolbox::CompletionRef;
/// let of = CompletionRef::Prompt("review".into());
/// assert_eq!(of, CompletionRef::Prompt("review".to_owned()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompletionRef {
    /// `ref/prompt`, by the prompt's name.
    Prompt(String),
    /// `ref/resource`, by the template's URI template (or a resource's URI).
    Resource(String),
}

/// The prompts and resources of a toolbox.
#[derive(Clone, Default)]
pub(crate) struct Catalog {
    prompts: HashMap<String, RegisteredPrompt>,
    /// Sorted by name: the `prompts/list` order.
    prompt_list: Vec<PromptDefinition>,
    /// Plain URIs, by URI.
    resources: HashMap<String, RegisteredResource>,
    /// Sorted by URI: the `resources/list` order.
    resource_list: Vec<ResourceDefinition>,
    /// Sorted by template: the `resources/templates/list` order.
    templates: Vec<(UriTemplate, RegisteredResource)>,
    template_list: Vec<ResourceTemplateDefinition>,
}

#[derive(Clone)]
struct RegisteredPrompt {
    prompt: Arc<dyn Prompt>,
    required: Vec<String>,
    /// Each argument's derived values, for completions.
    values: HashMap<String, Vec<String>>,
}

#[derive(Clone)]
struct RegisteredResource {
    resource: Arc<dyn Resource>,
    values: HashMap<String, Vec<String>>,
}

#[cfg(feature = "rmcp")]
impl Catalog {
    pub(crate) fn has_prompts(&self) -> bool {
        !self.prompts.is_empty()
    }

    pub(crate) fn has_resources(&self) -> bool {
        !self.resources.is_empty() || !self.templates.is_empty()
    }

    /// Whether `uri` is served by a resource or a template: what a subscription may name.
    pub(crate) fn serves_uri(&self, uri: &str) -> bool {
        self.resources.contains_key(uri)
            || (uri.len() <= MAX_URI_BYTES
                && self.templates.iter().any(|(t, _)| t.matches(uri).is_some()))
    }
}

fn missing_state(
    state: &State,
    needs: &[StateRequirement],
    item: impl FnOnce() -> String,
) -> Result<(), RegistrationError> {
    match needs.iter().find(|need| !state.contains((need.id)())) {
        Some(missing) => Err(RegistrationError::NeedsState {
            item: item(),
            type_name: missing.type_name,
        }),
        None => Ok(()),
    }
}

fn derived(
    values: impl Iterator<Item = (String, Option<fn() -> Vec<String>>)>,
) -> HashMap<String, Vec<String>> {
    values
        .filter_map(|(name, values)| Some((name, values?())))
        .filter(|(_, values)| !values.is_empty())
        .collect()
}

#[cfg(feature = "rmcp")]
impl Toolbox {
    /// Whether it has prompts.
    pub(crate) fn has_prompts(&self) -> bool {
        self.catalog.has_prompts()
    }

    /// Whether it has resources or resource templates.
    pub(crate) fn has_resources(&self) -> bool {
        self.catalog.has_resources()
    }

    /// Whether a resource or template serves `uri`.
    pub(crate) fn serves_uri(&self, uri: &str) -> bool {
        self.catalog.serves_uri(uri)
    }
}

impl Toolbox {
    /// Whether a plain resource serves the view `uri`.
    pub(crate) fn serves_view(&self, uri: &str) -> bool {
        self.catalog.resources.contains_key(uri)
    }

    /// Whether a resource is a view (`ui://`).
    #[cfg(feature = "rmcp")]
    pub(crate) fn has_view_resources(&self) -> bool {
        self.catalog
            .resources
            .keys()
            .any(|uri| crate::apps::is_view_uri(uri))
    }

    /// Registers a prompt: checks its name and the state it needs, builds its `prompts/list`
    /// entry, and computes the completions its argument types give (an enum's variants).
    ///
    /// # Errors
    /// A name taken by another prompt or one MCP clients refuse (1 to 128 characters of
    /// `A-Za-z0-9_.-`), an argument declared twice, or state the toolbox lacks.
    pub fn register_prompt(&mut self, prompt: impl Prompt) -> Result<&mut Self, RegistrationError> {
        self.register_prompt_shared(Arc::new(prompt), None)
    }

    pub(crate) fn register_prompt_shared(
        &mut self,
        prompt: Arc<dyn Prompt>,
        served_as: Option<String>,
    ) -> Result<&mut Self, RegistrationError> {
        let mut declaration = prompt.declaration();
        if let Some(name) = served_as {
            declaration.name = name.into();
        }
        let name = declaration.name.to_string();
        let refused = |reason: String| RegistrationError::InvalidPrompt {
            prompt: name.clone(),
            reason,
        };
        check_tool_name(&name)
            .map_err(|reason| refused(format!("its name is invalid: {reason}")))?;
        if self.catalog.prompts.contains_key(&name) {
            return Err(refused(
                "a prompt of this name is already registered; give one a `name = \"...\"`".into(),
            ));
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(twice) = declaration
            .arguments
            .iter()
            .find(|argument| !seen.insert(argument.name.as_ref()))
        {
            return Err(refused(format!(
                "it declares the argument `{}` twice",
                twice.name
            )));
        }
        missing_state(&self.state, &declaration.state, || {
            format!("prompt `{name}`")
        })?;
        let registered = RegisteredPrompt {
            prompt,
            required: declaration
                .arguments
                .iter()
                .filter(|a| a.required)
                .map(|a| a.name.to_string())
                .collect(),
            values: derived(
                declaration
                    .arguments
                    .iter()
                    .map(|a| (a.name.to_string(), a.values)),
            ),
        };
        let catalog = &mut self.catalog;
        let at = catalog
            .prompt_list
            .partition_point(|d| d.name.as_ref() < name.as_str());
        catalog.prompt_list.insert(at, declaration.into());
        catalog.prompts.insert(name, registered);
        Ok(self)
    }

    /// Registers a resource: a URI (listed by `resources/list`) or a URI template (listed by
    /// `resources/templates/list`, read for every URI it matches).
    ///
    /// # Errors
    /// A malformed URI or template, a template whose variables are not the ones the resource
    /// declares, a URI already served, a template that matches a URI another template matches
    /// (`resources/read` could not tell which to read), or state the toolbox lacks.
    pub fn register_resource(
        &mut self,
        resource: impl Resource,
    ) -> Result<&mut Self, RegistrationError> {
        self.register_resource_shared(Arc::new(resource))
    }

    pub(crate) fn register_resource_shared(
        &mut self,
        resource: Arc<dyn Resource>,
    ) -> Result<&mut Self, RegistrationError> {
        let mut declaration = resource.declaration();
        let uri = declaration.uri.to_string();
        if crate::apps::is_view_uri(&uri) && declaration.mime_type.is_none() {
            declaration.mime_type = Some(crate::apps::VIEW_MIME_TYPE.into());
        }
        let refused = |reason: String| RegistrationError::InvalidResource {
            uri: uri.clone(),
            reason,
        };
        let template = UriTemplate::parse(&uri).map_err(|e| refused(e.to_string()))?;
        missing_state(&self.state, &declaration.state, || {
            format!("resource `{uri}`")
        })?;
        let mut in_template: Vec<&str> = template.variables().collect();
        let mut declared: Vec<&str> = declaration
            .variables
            .iter()
            .map(|v| v.name.as_ref())
            .collect();
        in_template.sort_unstable();
        declared.sort_unstable();
        if in_template != declared {
            return Err(refused(format!(
                "its template's variables are {{{}}}, but the resource reads {{{}}}; name each variable once in the template and take it as a parameter",
                in_template.join(", "),
                declared.join(", ")
            )));
        }
        let registered = RegisteredResource {
            resource,
            values: derived(
                declaration
                    .variables
                    .iter()
                    .map(|v| (v.name.to_string(), v.values)),
            ),
        };
        let catalog = &mut self.catalog;
        if template.is_plain() {
            check_uri(&uri).map_err(|e| refused(e.to_string()))?;
            if catalog.resources.contains_key(&uri) {
                return Err(refused(
                    "a resource at this URI is already registered".into(),
                ));
            }
            let at = catalog
                .resource_list
                .partition_point(|d| d.uri.as_ref() < uri.as_str());
            catalog.resource_list.insert(at, declaration.definition());
            catalog.resources.insert(uri, registered);
            return Ok(self);
        }
        if let Some((other, _)) = catalog
            .templates
            .iter()
            .find(|(t, _)| t.overlaps(&template))
        {
            return Err(refused(format!(
                "some URIs match both it and the template `{other}`, and `resources/read` could not tell which to read; make their literal parts differ"
            )));
        }
        let at = catalog
            .templates
            .partition_point(|(t, _)| t.as_str() < uri.as_str());
        catalog
            .template_list
            .insert(at, declaration.template_definition());
        catalog.templates.insert(at, (template, registered));
        Ok(self)
    }

    /// Removes the prompt `name`; whether there was one.
    ///
    /// ```
    /// use mcp_tool_runtime::{mcp_prompt, Toolbox};
    ///
    /// /// Says hello.
    /// #[mcp_prompt]
    /// fn hello() -> &'static str { "Hello!" }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register_prompt(hello::prompt()).unwrap();
    /// assert!(toolbox.remove_prompt("hello"));
    /// assert!(toolbox.list_prompts().is_empty());
    /// ```
    pub fn remove_prompt(&mut self, name: &str) -> bool {
        self.catalog.prompt_list.retain(|d| d.name != name);
        self.catalog.prompts.remove(name).is_some()
    }

    /// Removes the resource at `uri`, or the template written `uri`; whether there was one.
    pub fn remove_resource(&mut self, uri: &str) -> bool {
        let catalog = &mut self.catalog;
        catalog.resource_list.retain(|d| d.uri != uri);
        catalog.template_list.retain(|d| d.uri_template != uri);
        let templates = catalog.templates.len();
        catalog.templates.retain(|(t, _)| t.as_str() != uri);
        catalog.resources.remove(uri).is_some() || catalog.templates.len() != templates
    }

    /// The `prompts/list` entries, sorted by name. Built at registration.
    pub fn list_prompts(&self) -> &[PromptDefinition] {
        &self.catalog.prompt_list
    }

    /// The `resources/list` entries, sorted by URI. Built at registration.
    pub fn list_resources(&self) -> &[ResourceDefinition] {
        &self.catalog.resource_list
    }

    /// The `resources/templates/list` entries, sorted by template. Built at registration.
    pub fn list_resource_templates(&self) -> &[ResourceTemplateDefinition] {
        &self.catalog.template_list
    }

    /// Gets the prompt `name` with `arguments` (a JSON object of strings, or `null`), with a
    /// detached context: what a test calls.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use mcp_tool_runtime::{mcp_prompt, Toolbox};
    ///
    /// /// Asks for a review of a change.
    /// #[mcp_prompt]
    /// fn review(diff: String) -> String {
    ///     format!("Review this change:\n{diff}")
    /// }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register_prompt(review::prompt()).unwrap();
    /// let got = toolbox.get_prompt("review", serde_json::json!({"diff": "+1"})).await.unwrap();
    /// assert_eq!(got.messages[0].content.as_text(), Some("Review this change:\n+1"));
    /// let missing = toolbox.get_prompt("review", serde_json::Value::Null).await.unwrap_err();
    /// assert_eq!(missing.code, -32602);
    /// # });
    /// ```
    ///
    /// # Errors
    /// `-32602` for an unknown prompt, arguments that are not an object, a required argument
    /// missing or one that does not parse; `-32603` when the prompt fails or panics; what the
    /// prompt returns.
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<PromptResult, ProtocolError> {
        self.get_prompt_with(name, arguments, ToolContext::detached())
            .await
    }

    /// Gets the prompt `name` like [`get_prompt`](Self::get_prompt), with `context` (a
    /// [`Recording`](crate::context::Recording) in tests).
    ///
    /// # Errors
    /// As [`get_prompt`](Self::get_prompt).
    pub async fn get_prompt_with(
        &self,
        name: &str,
        arguments: Value,
        context: ToolContext,
    ) -> Result<PromptResult, ProtocolError> {
        let Some((name, registered)) = self.catalog.prompts.get_key_value(name) else {
            return Err(ProtocolError::invalid_params(format!(
                "unknown prompt `{}`",
                quote(name)
            )));
        };
        let arguments = match arguments {
            Value::Null => Map::new(),
            Value::Object(arguments) => arguments,
            other => {
                return Err(ProtocolError::invalid_params(format!(
                    "the arguments of prompt `{name}` must be an object of strings; got {}",
                    describe(&other)
                )));
            }
        };
        if let Some(missing) = registered
            .required
            .iter()
            .find(|r| !arguments.contains_key(*r))
        {
            return Err(ProtocolError::invalid_params(format!(
                "missing required argument `{missing}` of prompt `{name}`"
            )));
        }
        let get = PromptGet::new(name, arguments, &self.state, context.clone());
        let outcome = AssertUnwindSafe(registered.prompt.get(get))
            .catch_unwind()
            .await;
        context.finish();
        outcome
            .unwrap_or_else(|_| Err(ProtocolError::internal(format!("prompt `{name}` panicked"))))
    }

    /// Reads the resource at `uri`, with a detached context: what a test calls.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use mcp_tool_runtime::{mcp_resource, Toolbox};
    ///
    /// /// An invoice, by its number.
    /// #[mcp_resource(uri = "invoices://{number}", mime_type = "application/json")]
    /// fn invoice(number: u32) -> Option<serde_json::Value> {
    ///     (number == 7).then(|| serde_json::json!({"number": 7, "total": 12}))
    /// }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register_resource(invoice::resource()).unwrap();
    /// let contents = toolbox.read_resource("invoices://7").await.unwrap();
    /// assert_eq!(contents.len(), 1);
    /// let missing = toolbox.read_resource("invoices://8").await.unwrap_err();
    /// assert_eq!(missing.code, -32002);
    /// # });
    /// ```
    ///
    /// # Errors
    /// Not found (`-32002`, the URI in its `data`) for a URI no resource or template serves, or
    /// a `None`; `-32602` for a variable that does not parse; `-32603` when the resource fails
    /// or panics; what the resource returns.
    pub async fn read_resource(&self, uri: &str) -> Result<Vec<ResourceContents>, ProtocolError> {
        self.read_resource_with(uri, ToolContext::detached()).await
    }

    /// Reads the resource at `uri` like [`read_resource`](Self::read_resource), with `context`.
    ///
    /// # Errors
    /// As [`read_resource`](Self::read_resource).
    pub async fn read_resource_with(
        &self,
        uri: &str,
        context: ToolContext,
    ) -> Result<Vec<ResourceContents>, ProtocolError> {
        let catalog = &self.catalog;
        let (registered, variables) = match catalog.resources.get(uri) {
            Some(registered) => (registered, Map::new()),
            None if uri.len() <= MAX_URI_BYTES => {
                let found = catalog.templates.iter().find_map(|(template, registered)| {
                    template.matches(uri).map(|values| (registered, values))
                });
                let Some((registered, values)) = found else {
                    return Err(ProtocolError::resource_not_found(uri));
                };
                let variables = values
                    .into_iter()
                    .map(|(name, value)| (name.to_owned(), Value::String(value)))
                    .collect();
                (registered, variables)
            }
            None => return Err(ProtocolError::resource_not_found(uri)),
        };
        let read = ResourceRead::new(uri, variables, &self.state, context.clone());
        let outcome = AssertUnwindSafe(registered.resource.read(read))
            .catch_unwind()
            .await;
        context.finish();
        outcome.unwrap_or_else(|_| {
            Err(ProtocolError::internal(format!(
                "resource `{}` panicked",
                quote(uri)
            )))
        })
    }

    /// Completes `argument` of what `of` names, from `value` as typed so far, with `arguments`
    /// the other values already given: the item's completion function if the argument has one,
    /// else the values its type gives (an enum's variants), else none. Filtered by the prefix
    /// (ignoring ASCII case), at most 100 values.
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use mcp_tool_runtime::toolbox::CompletionRef;
    /// use mcp_tool_runtime::{mcp_prompt, Toolbox};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// #[serde(rename_all = "lowercase")]
    /// enum Tone { Formal, Friendly, Terse }
    ///
    /// /// Writes a reply in a tone.
    /// #[mcp_prompt]
    /// fn reply(tone: Tone) -> String {
    ///     let _ = tone;
    ///     "Reply.".into()
    /// }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.register_prompt(reply::prompt()).unwrap();
    /// let of = CompletionRef::Prompt("reply".into());
    /// let completion = toolbox.complete(&of, "tone", "f", &Default::default()).await.unwrap();
    /// assert_eq!(completion.values, ["formal", "friendly"]);
    /// # });
    /// ```
    ///
    /// # Errors
    /// `-32602` for a prompt or template this toolbox does not have, or an argument it does
    /// not take.
    pub async fn complete(
        &self,
        of: &CompletionRef,
        argument: &str,
        value: &str,
        arguments: &Map<String, Value>,
    ) -> Result<Completion, ProtocolError> {
        let complete = Complete::new(argument, value, arguments, &self.state);
        let (offered, derived) = match of {
            CompletionRef::Prompt(name) => {
                let Some(registered) = self.catalog.prompts.get(name) else {
                    return Err(ProtocolError::invalid_params(format!(
                        "unknown prompt `{}`",
                        quote(name)
                    )));
                };
                let declared = self
                    .catalog
                    .prompt_list
                    .iter()
                    .find(|d| d.name == name.as_str())
                    .is_some_and(|d| d.arguments.iter().any(|a| a.name == argument));
                if !declared {
                    return Err(ProtocolError::invalid_params(format!(
                        "prompt `{name}` has no argument `{}`",
                        quote(argument)
                    )));
                }
                let offered = AssertUnwindSafe(registered.prompt.complete(&complete))
                    .catch_unwind()
                    .await;
                (offered, registered.values.get(argument))
            }
            CompletionRef::Resource(uri) => {
                let found = self
                    .catalog
                    .templates
                    .iter()
                    .find(|(t, _)| t.as_str() == uri)
                    .map(|(t, r)| (t.variables().any(|v| v == argument), r))
                    .or_else(|| self.catalog.resources.get(uri).map(|r| (false, r)));
                let Some((declared, registered)) = found else {
                    return Err(ProtocolError::invalid_params(format!(
                        "no resource template `{}`",
                        quote(uri)
                    )));
                };
                if !declared {
                    return Err(ProtocolError::invalid_params(format!(
                        "resource template `{}` has no variable `{}`",
                        quote(uri),
                        quote(argument)
                    )));
                }
                let offered = AssertUnwindSafe(registered.resource.complete(&complete))
                    .catch_unwind()
                    .await;
                (offered, registered.values.get(argument))
            }
        };
        let values = match offered {
            Ok(Some(values)) => values,
            Ok(None) => derived.cloned().unwrap_or_default(),
            Err(_) => {
                return Err(ProtocolError::internal(format!(
                    "the completion of `{}` panicked",
                    quote(argument)
                )));
            }
        };
        Ok(Completion::filtered(values, value))
    }

    /// Mounts `other`'s prompts (renamed as its tools are) and resources (URIs untouched) into
    /// `next`, the toolbox being built by [`mount`](Self::mount).
    pub(crate) fn mount_catalog(
        next: &mut Toolbox,
        prefix: &str,
        separator: &str,
        other: &Toolbox,
    ) -> Result<(), RegistrationError> {
        let mut names: Vec<&String> = other.catalog.prompts.keys().collect();
        names.sort();
        for name in names {
            let prompt = other.catalog.prompts[name].prompt.clone();
            next.register_prompt_shared(prompt, Some(format!("{prefix}{separator}{name}")))?;
        }
        let mut uris: Vec<&String> = other.catalog.resources.keys().collect();
        uris.sort();
        for uri in uris {
            next.register_resource_shared(other.catalog.resources[uri].resource.clone())?;
        }
        for (_, registered) in &other.catalog.templates {
            next.register_resource_shared(registered.resource.clone())?;
        }
        Ok(())
    }
}
