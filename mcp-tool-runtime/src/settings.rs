//! The structured-output settings: server-wide defaults, per-tool overrides, and MCP's
//! asymmetric rule that joins them.

use crate::kind::ContentKind;
use crate::options::Mirror;

/// Server-wide defaults for the two halves of structured output.
///
/// ```
/// use mcp_tool_runtime::ServerDefaults;
///
/// let defaults = ServerDefaults::default();
/// assert!(defaults.include_structured_content && defaults.include_output_schema);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerDefaults {
    /// Put payloads in `structuredContent` (default on).
    pub include_structured_content: bool,
    /// Advertise an `outputSchema` in `tools/list` (default on).
    pub include_output_schema: bool,
    /// How the text mirror is written for tools that do not say (default pretty).
    pub mirror: Mirror,
}

impl Default for ServerDefaults {
    fn default() -> Self {
        ServerDefaults {
            include_structured_content: true,
            include_output_schema: true,
            mirror: Mirror::Pretty,
        }
    }
}

/// A tool's own structured-output flags: each unset (`None`, defer to the server), on or off.
///
/// ```
/// use mcp_tool_runtime::ToolFlags;
///
/// // `#[mcp_tool(include_output_schema = false)]`
/// let flags = ToolFlags { include_output_schema: Some(false), ..ToolFlags::default() };
/// assert_eq!(flags.include_structured_content, None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ToolFlags {
    /// `include_structured_content` as the tool declared it.
    pub include_structured_content: Option<bool>,
    /// `include_output_schema` as the tool declared it.
    pub include_output_schema: Option<bool>,
}

/// Where a resolved value came from, for messages.
///
/// ```
/// use mcp_tool_runtime::settings::Origin;
/// assert_eq!(Origin::ServerDefault.to_string(), "the server default");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The tool's own declaration.
    Tool,
    /// The server default.
    ServerDefault,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Origin::Tool => "set by the tool",
            Origin::ServerDefault => "the server default",
        })
    }
}

/// The decision for one tool: whether it sends `structuredContent` and advertises `outputSchema`.
///
/// ```
/// use mcp_tool_runtime::settings::resolve;
/// use mcp_tool_runtime::{ContentKind, ServerDefaults, ToolFlags};
///
/// let resolved = resolve("t", ToolFlags::default(), ServerDefaults::default(), ContentKind::Audio).unwrap();
/// assert!(!resolved.include_output_schema && !resolved.include_structured_content);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved {
    /// Whether results carry `structuredContent`.
    pub include_structured_content: bool,
    /// Whether the `tools/list` entry carries `outputSchema`.
    pub include_output_schema: bool,
}

/// A resolution that would advertise an `outputSchema` while omitting `structuredContent`.
///
/// ```
/// use mcp_tool_runtime::settings::{resolve, Origin, SettingsError};
/// use mcp_tool_runtime::{ContentKind, ServerDefaults, ToolFlags};
///
/// let flags = ToolFlags { include_output_schema: Some(true), include_structured_content: Some(false) };
/// let Err(SettingsError::AsymmetricRule(err)) = resolve("t", flags, ServerDefaults::default(), ContentKind::Text) else {
///     panic!("refused");
/// };
/// assert_eq!((err.schema_origin, err.content_origin), (Origin::Tool, Origin::Tool));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "tool `{tool}` would advertise an `outputSchema` ({schema_origin}) but omit `structuredContent` \
     ({content_origin}); MCP requires a tool with an output schema to return structured content \
     that conforms to it. Turn structured content on, or output schemas off, for this tool or for \
     the server"
)]
pub struct AsymmetricRuleViolation {
    /// The tool.
    pub tool: String,
    /// Where `include_output_schema = true` came from.
    pub schema_origin: Origin,
    /// Where `include_structured_content = false` came from.
    pub content_origin: Origin,
}

/// Why a tool's structured-output settings cannot be served.
///
/// ```
/// use mcp_tool_runtime::settings::{resolve, SettingsError};
/// use mcp_tool_runtime::{ContentKind, ServerDefaults, ToolFlags};
///
/// let flags = ToolFlags { include_output_schema: Some(true), ..ToolFlags::default() };
/// let err = resolve("chart", flags, ServerDefaults::default(), ContentKind::Image).unwrap_err();
/// assert!(matches!(err, SettingsError::NoStructuredContent { .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// The settings would advertise an `outputSchema` without `structuredContent`.
    #[error(transparent)]
    AsymmetricRule(#[from] AsymmetricRuleViolation),
    /// A tool whose content kind carries no structured content turns a half of it on.
    #[error(
        "tool `{tool}` declares `content = {kind}`, which carries no structured content, but sets \
         `{flag} = true`; remove that flag"
    )]
    NoStructuredContent {
        /// The tool.
        tool: String,
        /// Its content kind.
        kind: ContentKind,
        /// The flag it set.
        flag: &'static str,
    },
}

/// Resolves a tool's flags against the server defaults, and checks MCP's asymmetric rule: a tool
/// that advertises an `outputSchema` MUST return conforming `structuredContent` (the reverse is
/// allowed). Kinds that carry no structured content (image, audio, blocks) never advertise a
/// schema; a tool of such a kind that turns either half on explicitly is refused.
///
/// ```
/// use mcp_tool_runtime::settings::resolve;
/// use mcp_tool_runtime::{ContentKind, ServerDefaults, ToolFlags};
///
/// let server = ServerDefaults { include_structured_content: false, ..ServerDefaults::default() };
/// let tool = ToolFlags::default();
/// let err = resolve("get_invoice", tool, server, ContentKind::Text).unwrap_err();
/// assert!(err.to_string().contains("`get_invoice`"));
///
/// let tool = ToolFlags { include_structured_content: Some(true), ..ToolFlags::default() };
/// assert!(resolve("get_invoice", tool, server, ContentKind::Text).is_ok());
/// ```
pub fn resolve(
    tool: &str,
    flags: ToolFlags,
    server: ServerDefaults,
    kind: ContentKind,
) -> Result<Resolved, SettingsError> {
    if !kind.carries_structured_content() {
        let set = [
            (
                "include_structured_content",
                flags.include_structured_content,
            ),
            ("include_output_schema", flags.include_output_schema),
        ];
        if let Some((flag, _)) = set.into_iter().find(|(_, value)| *value == Some(true)) {
            return Err(SettingsError::NoStructuredContent {
                tool: tool.to_owned(),
                kind,
                flag,
            });
        }
        return Ok(Resolved {
            include_structured_content: false,
            include_output_schema: false,
        });
    }
    let pick = |own: Option<bool>, default: bool| match own {
        Some(value) => (value, Origin::Tool),
        None => (default, Origin::ServerDefault),
    };
    let (structured, content_origin) = pick(
        flags.include_structured_content,
        server.include_structured_content,
    );
    let (schema, schema_origin) = pick(flags.include_output_schema, server.include_output_schema);
    if schema && !structured {
        return Err(AsymmetricRuleViolation {
            tool: tool.to_owned(),
            schema_origin,
            content_origin,
        }
        .into());
    }
    Ok(Resolved {
        include_structured_content: structured,
        include_output_schema: schema,
    })
}
