//! MCP Apps (SEP-1865, the `io.modelcontextprotocol/ui` extension): a tool linked to an
//! interactive view, the view served as a `ui://` resource with its sandbox settings, and who may
//! call the tool.
//!
//! A tool declares its view with `#[mcp_tool(ui = "ui://invoices/view")]` and who calls it with
//! `visibility(model, app)`; the view is a resource, `#[mcp_resource(uri = "ui://invoices/view",
//! ui(...))]`, its HTML the contents. The host (Claude, ChatGPT, VS Code, ...) reads the tool's
//! `_meta.ui`, fetches the view, renders it in a sandboxed iframe, and hands it the tool's input
//! and result; the view may call the server's tools back through the host.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Map, Value};

/// The extension's identifier, under `capabilities.extensions`.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/ui";

/// The MIME type of a view: HTML for an MCP App.
pub const VIEW_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The `_meta` key hosts read a tool's view from before `_meta.ui.resourceUri` (still written:
/// the extension asks hosts to read both).
pub const LEGACY_RESOURCE_URI_KEY: &str = "ui/resourceUri";

/// Who may call a tool.
///
/// ```
/// use mcp_tool_runtime::apps::Visibility;
/// assert_eq!(serde_json::to_value(Visibility::App).unwrap(), "app");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Visibility {
    /// The model (the agent): the tool is in its list.
    Model,
    /// The tool's views, through the host.
    App,
}

/// A tool's part in MCP Apps: the view shown beside its result, and who may call it.
///
/// ```
/// use mcp_tool_runtime::apps::{ToolUi, Visibility};
///
/// let ui = ToolUi::view("ui://invoices/view");
/// assert_eq!(
///     serde_json::to_value(&ui).unwrap(),
///     serde_json::json!({"resourceUri": "ui://invoices/view"})
/// );
/// let back = ToolUi::default().visibility(&[Visibility::App]);
/// assert!(back.is_app_only());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolUi {
    /// The `ui://` resource rendered for the tool's results.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_uri: Option<Cow<'static, str>>,
    /// Who may call it; empty is the extension's default, both.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub visibility: Cow<'static, [Visibility]>,
}

impl ToolUi {
    /// A tool shown with the view at `uri`.
    pub fn view(uri: impl Into<Cow<'static, str>>) -> Self {
        ToolUi {
            resource_uri: Some(uri.into()),
            visibility: Cow::Borrowed(&[]),
        }
    }

    /// Sets who may call the tool.
    pub fn visibility(mut self, visibility: &'static [Visibility]) -> Self {
        self.visibility = Cow::Borrowed(visibility);
        self
    }

    /// Whether only views may call it: the model does not see it.
    pub fn is_app_only(&self) -> bool {
        !self.visibility.is_empty() && !self.visibility.contains(&Visibility::Model)
    }
}

/// The browser capabilities a view asks its host for (the iframe's permission policy).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Permissions {
    /// The camera.
    pub camera: bool,
    /// The microphone.
    pub microphone: bool,
    /// The device's location.
    pub geolocation: bool,
    /// Writing to the clipboard.
    pub clipboard_write: bool,
}

/// A view's sandbox and rendering settings, its resource's `_meta.ui`: the origins its content
/// security policy allows, the permissions it asks for, whether it wants a border, and a
/// dedicated origin. Hosts read them from the `resources/read` contents (and the list entry).
///
/// ```
/// use mcp_tool_runtime::apps::ViewSettings;
///
/// let settings = ViewSettings::new()
///     .connect_domains(&["https://api.example.com"])
///     .prefers_border(true);
/// assert_eq!(
///     settings.to_meta(),
///     serde_json::json!({"csp": {"connectDomains": ["https://api.example.com"]}, "prefersBorder": true})
/// );
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ViewSettings {
    /// Origins it may fetch from (CSP `connect-src`).
    pub connect_domains: Cow<'static, [&'static str]>,
    /// Origins of its scripts, styles, images and fonts (CSP `img-src`, `script-src`, ...).
    pub resource_domains: Cow<'static, [&'static str]>,
    /// Origins of iframes it nests (CSP `frame-src`).
    pub frame_domains: Cow<'static, [&'static str]>,
    /// Base URIs its document may use (CSP `base-uri`).
    pub base_uri_domains: Cow<'static, [&'static str]>,
    /// The permissions it asks for.
    pub permissions: Permissions,
    /// Whether it wants a border and background; `None` lets the host decide.
    pub prefers_border: Option<bool>,
    /// A dedicated sandbox origin, in the host's format.
    pub domain: Option<Cow<'static, str>>,
}

impl ViewSettings {
    /// No network, no permissions, the host's border and origin.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets [`connect_domains`](Self::connect_domains).
    pub fn connect_domains(mut self, domains: &'static [&'static str]) -> Self {
        self.connect_domains = Cow::Borrowed(domains);
        self
    }

    /// Sets [`resource_domains`](Self::resource_domains).
    pub fn resource_domains(mut self, domains: &'static [&'static str]) -> Self {
        self.resource_domains = Cow::Borrowed(domains);
        self
    }

    /// Sets [`frame_domains`](Self::frame_domains).
    pub fn frame_domains(mut self, domains: &'static [&'static str]) -> Self {
        self.frame_domains = Cow::Borrowed(domains);
        self
    }

    /// Sets [`base_uri_domains`](Self::base_uri_domains).
    pub fn base_uri_domains(mut self, domains: &'static [&'static str]) -> Self {
        self.base_uri_domains = Cow::Borrowed(domains);
        self
    }

    /// Sets [`permissions`](Self::permissions).
    pub fn permissions(mut self, permissions: Permissions) -> Self {
        self.permissions = permissions;
        self
    }

    /// Sets [`prefers_border`](Self::prefers_border).
    pub fn prefers_border(mut self, border: bool) -> Self {
        self.prefers_border = Some(border);
        self
    }

    /// Sets [`domain`](Self::domain).
    pub fn domain(mut self, domain: impl Into<Cow<'static, str>>) -> Self {
        self.domain = Some(domain.into());
        self
    }

    /// The resource's `_meta.ui`, as the extension writes it (empty members left out).
    pub fn to_meta(&self) -> Value {
        let mut ui = Map::new();
        let mut csp = Map::new();
        for (key, domains) in [
            ("connectDomains", &self.connect_domains),
            ("resourceDomains", &self.resource_domains),
            ("frameDomains", &self.frame_domains),
            ("baseUriDomains", &self.base_uri_domains),
        ] {
            if !domains.is_empty() {
                csp.insert(key.to_owned(), Value::from(domains.to_vec()));
            }
        }
        if !csp.is_empty() {
            ui.insert("csp".to_owned(), Value::Object(csp));
        }
        let mut permissions = Map::new();
        let p = self.permissions;
        for (key, asked) in [
            ("camera", p.camera),
            ("microphone", p.microphone),
            ("geolocation", p.geolocation),
            ("clipboardWrite", p.clipboard_write),
        ] {
            if asked {
                permissions.insert(key.to_owned(), Value::Object(Map::new()));
            }
        }
        if !permissions.is_empty() {
            ui.insert("permissions".to_owned(), Value::Object(permissions));
        }
        if let Some(border) = self.prefers_border {
            ui.insert("prefersBorder".to_owned(), Value::Bool(border));
        }
        if let Some(domain) = &self.domain {
            ui.insert("domain".to_owned(), Value::from(domain.as_ref()));
        }
        Value::Object(ui)
    }
}

/// Whether client capabilities (`initialize`'s, or a 2026-07-28 request's) declare the
/// extension with the view MIME type (or with no list of types).
///
/// ```
/// use mcp_tool_runtime::apps::declares_apps;
///
/// let host = serde_json::json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}});
/// assert!(declares_apps(host.as_object().unwrap()));
/// assert!(!declares_apps(serde_json::json!({}).as_object().unwrap()));
/// ```
pub fn declares_apps(capabilities: &Map<String, Value>) -> bool {
    let Some(declared) = capabilities
        .get("extensions")
        .and_then(|extensions| extensions.get(EXTENSION_ID))
    else {
        return false;
    };
    match declared.get("mimeTypes").and_then(Value::as_array) {
        Some(types) => types.iter().any(|t| t == VIEW_MIME_TYPE),
        None => declared.is_object(),
    }
}

/// Whether `uri` is a view's: `ui://`.
pub(crate) fn is_view_uri(uri: &str) -> bool {
    uri.starts_with("ui://")
}
