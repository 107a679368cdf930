//! [`PromptDeclaration`]: everything a prompt declares once, read at registration, and the
//! `prompts/list` entry it becomes ([`PromptDefinition`]).

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::tool::{Icon, StateRequirement};

/// One argument of a prompt. MCP prompt arguments arrive as strings.
///
/// ```
/// use mcp_tool_runtime::prompt::PromptArgument;
///
/// let argument = PromptArgument::new("language").description("The language to answer in");
/// assert!(!argument.required);
/// ```
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct PromptArgument {
    /// The argument's name.
    pub name: Cow<'static, str>,
    /// A human-readable title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<Cow<'static, str>>,
    /// What the argument is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<Cow<'static, str>>,
    /// Whether a `prompts/get` must give it.
    pub required: bool,
    /// The values it takes when its type says (an enum's variants), offered by
    /// `completion/complete`; called once, at registration.
    #[serde(skip)]
    pub values: Option<fn() -> Vec<String>>,
}

impl PromptArgument {
    /// An optional argument named `name`.
    pub fn new(name: impl Into<Cow<'static, str>>) -> Self {
        PromptArgument {
            name: name.into(),
            title: None,
            description: None,
            required: false,
            values: None,
        }
    }

    /// Makes the argument required.
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// Sets [`description`](Self::description).
    pub fn description(mut self, text: impl Into<Cow<'static, str>>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// Sets [`values`](Self::values).
    pub fn values(mut self, values: fn() -> Vec<String>) -> Self {
        self.values = Some(values);
        self
    }
}

/// Everything about a prompt that is known before it is got.
///
/// ```
/// use mcp_tool_runtime::prompt::{PromptArgument, PromptDeclaration};
///
/// let declaration = PromptDeclaration::new("review")
///     .description("Reviews a change.")
///     .argument(PromptArgument::new("diff").required());
/// assert_eq!(declaration.arguments.len(), 1);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PromptDeclaration {
    /// The prompt's name.
    pub name: Cow<'static, str>,
    /// A human-readable title.
    pub title: Option<Cow<'static, str>>,
    /// What the prompt is for.
    pub description: Option<Cow<'static, str>>,
    /// Icons a client may show.
    pub icons: Vec<Icon>,
    /// The `_meta` of its `prompts/list` entry.
    pub meta: Map<String, Value>,
    /// Its arguments, in order.
    pub arguments: Vec<PromptArgument>,
    /// State the toolbox must hold for it.
    pub state: Cow<'static, [StateRequirement]>,
}

impl PromptDeclaration {
    /// A prompt named `name` without arguments.
    pub fn new(name: impl Into<Cow<'static, str>>) -> Self {
        PromptDeclaration {
            name: name.into(),
            title: None,
            description: None,
            icons: Vec::new(),
            meta: Map::new(),
            arguments: Vec::new(),
            state: Cow::Borrowed(&[]),
        }
    }

    /// Sets [`title`](Self::title).
    pub fn title(mut self, text: impl Into<Cow<'static, str>>) -> Self {
        self.title = Some(text.into());
        self
    }

    /// Sets [`description`](Self::description).
    pub fn description(mut self, text: impl Into<Cow<'static, str>>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// Adds an argument.
    pub fn argument(mut self, argument: PromptArgument) -> Self {
        self.arguments.push(argument);
        self
    }

    /// Adds an icon.
    pub fn icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Sets `key` in the `_meta` of its `prompts/list` entry.
    pub fn meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta.insert(key.into(), value);
        self
    }

    /// Sets the state it needs.
    pub fn state(mut self, state: &'static [StateRequirement]) -> Self {
        self.state = Cow::Borrowed(state);
        self
    }
}

/// A prompt's `prompts/list` entry, built at registration.
///
/// ```
/// use mcp_tool_runtime::prompt::{PromptArgument, PromptDeclaration, PromptDefinition};
///
/// let entry = PromptDefinition::from(PromptDeclaration::new("review").argument(PromptArgument::new("diff").required()));
/// assert_eq!(
///     serde_json::to_value(&entry).unwrap(),
///     serde_json::json!({"name": "review", "arguments": [{"name": "diff", "required": true}]})
/// );
/// ```
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct PromptDefinition {
    /// The name.
    pub name: Cow<'static, str>,
    /// The title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<Cow<'static, str>>,
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<Cow<'static, str>>,
    /// The arguments; omitted when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<PromptArgument>,
    /// The icons; omitted when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// The `_meta`; omitted when empty.
    #[serde(rename = "_meta", skip_serializing_if = "Map::is_empty")]
    pub meta: Map<String, Value>,
}

impl From<PromptDeclaration> for PromptDefinition {
    fn from(declaration: PromptDeclaration) -> Self {
        PromptDefinition {
            name: declaration.name,
            title: declaration.title,
            description: declaration.description,
            arguments: declaration.arguments,
            icons: declaration.icons,
            meta: declaration.meta,
        }
    }
}
