//! [`ResourceDeclaration`]: everything a resource declares once, read at registration, and the
//! `resources/list` and `resources/templates/list` entries it becomes.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::content::Annotations;
use crate::tool::{Icon, StateRequirement};

/// One variable of a URI template, as the resource declares it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct TemplateVariable {
    /// Its name in the template.
    pub name: Cow<'static, str>,
    /// The values it takes when its type says (an enum's variants), offered by
    /// `completion/complete`; called once, at registration.
    pub values: Option<fn() -> Vec<String>>,
}

impl TemplateVariable {
    /// The variable `name`.
    pub fn new(name: impl Into<Cow<'static, str>>) -> Self {
        TemplateVariable {
            name: name.into(),
            values: None,
        }
    }

    /// Sets [`values`](Self::values).
    pub fn values(mut self, values: fn() -> Vec<String>) -> Self {
        self.values = Some(values);
        self
    }
}

/// Everything about a resource that is known before it is read.
///
/// Its `uri` is a URI (a resource, listed by `resources/list`) or an RFC 6570 URI template (listed
/// by `resources/templates/list`, its variables the declared [`variables`](Self::variables)).
///
/// ```
/// use mcp_tool_runtime::resource::{ResourceDeclaration, TemplateVariable};
///
/// let invoice = ResourceDeclaration::new("invoices://{number}", "invoice")
///     .mime_type("application/json")
///     .variable(TemplateVariable::new("number"));
/// assert_eq!(invoice.variables.len(), 1);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ResourceDeclaration {
    /// The URI or URI template.
    pub uri: Cow<'static, str>,
    /// A short name.
    pub name: Cow<'static, str>,
    /// A human-readable title.
    pub title: Option<Cow<'static, str>>,
    /// What it is.
    pub description: Option<Cow<'static, str>>,
    /// The MIME type of its contents.
    pub mime_type: Option<Cow<'static, str>>,
    /// Its size in bytes, when known (a resource, not a template).
    pub size: Option<u64>,
    /// Hints for the client: audience, priority, last modified.
    pub annotations: Option<Annotations>,
    /// Icons a client may show.
    pub icons: Vec<Icon>,
    /// The `_meta` of its list entry.
    pub meta: Map<String, Value>,
    /// A template's variables (none for a plain URI).
    pub variables: Vec<TemplateVariable>,
    /// State the toolbox must hold for it.
    pub state: Cow<'static, [StateRequirement]>,
}

impl ResourceDeclaration {
    /// A resource at `uri` (or a template) named `name`.
    pub fn new(uri: impl Into<Cow<'static, str>>, name: impl Into<Cow<'static, str>>) -> Self {
        ResourceDeclaration {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            icons: Vec::new(),
            meta: Map::new(),
            variables: Vec::new(),
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

    /// Sets [`mime_type`](Self::mime_type).
    pub fn mime_type(mut self, mime_type: impl Into<Cow<'static, str>>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets [`size`](Self::size).
    pub fn size(mut self, bytes: u64) -> Self {
        self.size = Some(bytes);
        self
    }

    /// Sets [`annotations`](Self::annotations).
    pub fn annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// Adds an icon.
    pub fn icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Sets `key` in the `_meta` of its list entry.
    pub fn meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta.insert(key.into(), value);
        self
    }

    /// Makes the resource an MCP Apps view with these settings: its `_meta.ui` (in the list
    /// entry and on every content it reads). A `ui://` resource without a MIME type is served as
    /// [`VIEW_MIME_TYPE`](crate::apps::VIEW_MIME_TYPE).
    pub fn view(mut self, settings: &crate::apps::ViewSettings) -> Self {
        self.meta.insert("ui".to_owned(), settings.to_meta());
        self
    }

    /// Adds a template variable.
    pub fn variable(mut self, variable: TemplateVariable) -> Self {
        self.variables.push(variable);
        self
    }

    /// Sets the state it needs.
    pub fn state(mut self, state: &'static [StateRequirement]) -> Self {
        self.state = Cow::Borrowed(state);
        self
    }
}

/// A resource's `resources/list` entry, built at registration.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceDefinition {
    /// The URI.
    pub uri: Cow<'static, str>,
    /// The name.
    pub name: Cow<'static, str>,
    /// The title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<Cow<'static, str>>,
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<Cow<'static, str>>,
    /// The MIME type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<Cow<'static, str>>,
    /// The size in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// The annotations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// The icons; omitted when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// The `_meta`; omitted when empty.
    #[serde(rename = "_meta", skip_serializing_if = "Map::is_empty")]
    pub meta: Map<String, Value>,
}

/// A template's `resources/templates/list` entry, built at registration.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceTemplateDefinition {
    /// The URI template.
    pub uri_template: Cow<'static, str>,
    /// The name.
    pub name: Cow<'static, str>,
    /// The title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<Cow<'static, str>>,
    /// The description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<Cow<'static, str>>,
    /// The MIME type of what it reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<Cow<'static, str>>,
    /// The annotations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// The icons; omitted when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// The `_meta`; omitted when empty.
    #[serde(rename = "_meta", skip_serializing_if = "Map::is_empty")]
    pub meta: Map<String, Value>,
}

impl ResourceDeclaration {
    pub(crate) fn definition(&self) -> ResourceDefinition {
        ResourceDefinition {
            uri: self.uri.clone(),
            name: self.name.clone(),
            title: self.title.clone(),
            description: self.description.clone(),
            mime_type: self.mime_type.clone(),
            size: self.size,
            annotations: self.annotations.clone(),
            icons: self.icons.clone(),
            meta: self.meta.clone(),
        }
    }

    pub(crate) fn template_definition(&self) -> ResourceTemplateDefinition {
        ResourceTemplateDefinition {
            uri_template: self.uri.clone(),
            name: self.name.clone(),
            title: self.title.clone(),
            description: self.description.clone(),
            mime_type: self.mime_type.clone(),
            annotations: self.annotations.clone(),
            icons: self.icons.clone(),
            meta: self.meta.clone(),
        }
    }
}
