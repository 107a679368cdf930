//! The structured-output settings: server-wide defaults, per-tool overrides, and MCP's
//! asymmetric rule that joins them.

use crate::kind::ContentKind;
use crate::options::Mirror;

/// Server-wide defaults: the two halves of structured output, the text mirror, and what is
/// done with arguments a tool does not take.
///
/// ```
/// use mcp_tool_runtime::{ServerDefaults, UnknownArguments};
///
/// let defaults = ServerDefaults::default();
/// assert!(defaults.include_structured_content && defaults.include_output_schema);
/// assert_eq!(defaults.unknown_arguments, UnknownArguments::Ignore);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerDefaults {
    /// Put payloads in `structuredContent` (default on).
    pub include_structured_content: bool,
    /// Advertise an `outputSchema` in `tools/list` (default on).
    pub include_output_schema: bool,
    /// How the text mirror is written for tools that do not say (default pretty).
    pub mirror: Mirror,
    /// What a call's arguments that the tool does not take are: ignored (the default), or
    /// refused, which the `inputSchema` then says with `"additionalProperties": false`.
    pub unknown_arguments: UnknownArguments,
    /// The shape tools' schemas are served in, for tools that do not say (default portable).
    pub schema_profile: SchemaProfile,
}

impl Default for ServerDefaults {
    fn default() -> Self {
        ServerDefaults {
            include_structured_content: true,
            include_output_schema: true,
            mirror: Mirror::Pretty,
            unknown_arguments: UnknownArguments::Ignore,
            schema_profile: SchemaProfile::Portable,
        }
    }
}

/// The shape a tool's `inputSchema` and `outputSchema` are served in. Which client reads which:
/// the [client compatibility table](crate::schema#clients).
///
/// - [`Portable`](Self::Portable) (the default) is written the way agent frameworks and model
///   APIs read a schema (see [`schema`](crate::schema)'s portable shape): a unit enum as
///   `"type": "string"` with its `enum`, definitions inlined unless recursive, `Option`s as
///   `"type": [T, "null"]`, integer bounds instead of schemars' `uint32`-style formats.
/// - [`Strict`](Self::Strict) is the portable shape closed for strict function calling (OpenAI's
///   strict mode): every object `"additionalProperties": false` with every property `required`
///   (an `Option` is sent as `null` to leave it out), and the keywords strict mode refuses
///   (`maxLength`, `uniqueItems`, ...) moved into the description, still enforced. For servers
///   whose callers ask for strict mode through a framework that only does when the schema is
///   already strict (Pydantic AI); the OpenAI Agents SDKs and LangChain close the portable shape
///   themselves. It admits fewer calls than the tool takes: an argument left out instead of sent
///   as `null`, or one the tool does not take, is an `isError`. A tool taking a map (keys of the
///   caller's choosing) cannot be closed, and is refused at registration.
/// - [`AsDerived`](Self::AsDerived) is the schema exactly as schemars derives it (or as a tool
///   declared by hand gives it): `$defs` and `$ref`, `oneOf` of `const`, formats, as written.
///   For a tool whose schema is read by a validator or a client that wants it verbatim (the
///   conformance suite's `json-schema-2020-12` scenario checks that `$defs` are kept).
///
/// Portable and as-derived admit exactly the same values; they differ in how they write them.
/// Set it for a server with [`ServerDefaults::schema_profile`], for one tool with
/// `#[mcp_tool(schema = strict)]` or `#[mcp_tool(schema = as_derived)]` ([`ToolDeclaration::schema_profile`](crate::ToolDeclaration::schema_profile)).
///
/// ```
/// use mcp_tool_runtime::{mcp_tool, SchemaProfile, ServerDefaults, Toolbox};
///
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// enum Status {
///     /// Not paid yet.
///     Open,
///     /// Paid in full.
///     Paid,
/// }
///
/// /// Counts invoices with a status.
/// #[mcp_tool]
/// fn count(status: Status) -> u32 { matches!(status, Status::Open) as u32 }
///
/// let mut portable = Toolbox::new();
/// portable.register(count::tool()).unwrap();
/// let status = &portable.list_tools()[0].input_schema["properties"]["status"];
/// assert_eq!(status["type"], "string");
/// assert_eq!(status["enum"], serde_json::json!(["Open", "Paid"]));
///
/// let derived = ServerDefaults { schema_profile: SchemaProfile::AsDerived, ..ServerDefaults::default() };
/// let mut as_derived = Toolbox::with_defaults(derived);
/// as_derived.register(count::tool()).unwrap();
/// let schema = &as_derived.list_tools()[0].input_schema;
/// assert_eq!(schema["properties"]["status"]["$ref"], "#/$defs/Status");
/// assert!(schema["$defs"]["Status"]["oneOf"].is_array());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SchemaProfile {
    /// Written the way every mainstream client reads it (the default).
    #[default]
    Portable,
    /// The portable shape, closed for strict function calling.
    Strict,
    /// Exactly as derived (or declared).
    AsDerived,
}

/// What a call's arguments that the tool does not take are.
///
/// The `inputSchema` always says what the server does, so a client never sends what it will
/// not take. [`Ignore`](Self::Ignore) is the default because the schema then carries no
/// `"additionalProperties": false`: google-genai's MCP converter (what
/// `generate_content(tools=[session])` runs) fails on a boolean there, and converts every tool at
/// once, so a Gemini user would get no tool at all. The official Python SDK and FastMCP servers
/// ignore unknown arguments too. [`Refuse`](Self::Refuse) is for clients that want the
/// keyword (OpenAI's strict function calling) or servers that want a typo to be an error: an
/// unknown argument is then an `isError` result naming it and listing the known ones.
///
/// A type that refuses unknown fields itself (`#[serde(deny_unknown_fields)]`) is refused
/// whatever this says, and its schema says so.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use mcp_tool_runtime::{mcp_tool, ServerDefaults, Toolbox, UnknownArguments};
///
/// /// Adds two numbers.
/// #[mcp_tool]
/// fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let mut lenient = Toolbox::new();
/// lenient.register(add::tool()).unwrap();
/// assert!(lenient.list_tools()[0].input_schema.get("additionalProperties").is_none());
/// let result = lenient.call_tool("add", serde_json::json!({"a": 1, "b": 2, "c": 3})).await.unwrap();
/// assert!(!result.is_error);
///
/// let defaults = ServerDefaults { unknown_arguments: UnknownArguments::Refuse, ..ServerDefaults::default() };
/// let mut strict = Toolbox::with_defaults(defaults);
/// strict.register(add::tool()).unwrap();
/// assert_eq!(strict.list_tools()[0].input_schema["additionalProperties"], false);
/// let result = strict.call_tool("add", serde_json::json!({"a": 1, "b": 2, "c": 3})).await.unwrap();
/// assert!(result.is_error);
/// # });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum UnknownArguments {
    /// Ignored: the call runs with the arguments the tool takes (the default).
    #[default]
    Ignore,
    /// Refused with an `isError` result; the `inputSchema` says `"additionalProperties": false`.
    Refuse,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Resolved {
    /// Whether results carry `structuredContent`.
    pub(crate) include_structured_content: bool,
    /// Whether the `tools/list` entry carries `outputSchema`.
    pub(crate) include_output_schema: bool,
}

/// A resolution that would advertise an `outputSchema` while omitting `structuredContent`.
///
/// ```
/// use mcp_tool_runtime::settings::{Origin, SettingsError};
/// use mcp_tool_runtime::{mcp_tool, RegistrationError, ServerDefaults, Toolbox};
///
/// /// Looks an invoice up.
/// #[mcp_tool(include_output_schema)]
/// fn get_invoice(number: String) -> String { number }
///
/// let server = ServerDefaults { include_structured_content: false, ..ServerDefaults::default() };
/// let err = Toolbox::with_defaults(server).register(get_invoice::tool()).unwrap_err();
/// let RegistrationError::Settings(SettingsError::AsymmetricRule(err)) = err else {
///     panic!("refused by the asymmetric rule");
/// };
/// assert_eq!((err.schema_origin, err.content_origin), (Origin::Tool, Origin::ServerDefault));
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

/// Why a tool's structured-output settings cannot be served, as
/// [`Toolbox::register`](crate::Toolbox::register) reports it
/// ([`RegistrationError::Settings`](crate::RegistrationError::Settings)).
///
/// ```
/// use mcp_tool_runtime::settings::SettingsError;
/// use mcp_tool_runtime::{mcp_tool, RegistrationError, ServerDefaults, Toolbox};
///
/// /// Looks an invoice up.
/// #[mcp_tool]
/// fn get_invoice(number: String) -> String { number }
///
/// // Output schemas on, structured content off, both by the server: refused at registration.
/// let server = ServerDefaults { include_structured_content: false, ..ServerDefaults::default() };
/// let err = Toolbox::with_defaults(server).register(get_invoice::tool()).unwrap_err();
/// assert!(matches!(err, RegistrationError::Settings(SettingsError::AsymmetricRule(_))));
/// assert!(err.to_string().contains("`get_invoice`"));
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
/// schema; a tool of such a kind that turns either half on explicitly is refused. Run once per
/// tool, by [`Toolbox::register`](crate::Toolbox::register).
pub(crate) fn resolve(
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

#[cfg(test)]
mod tests {
    use super::{Origin, SettingsError, ToolFlags, resolve};
    use crate::{ContentKind, ServerDefaults};

    #[test]
    fn resolution_matrix() {
        let on = Some(true);
        let off = Some(false);
        for server_content in [true, false] {
            for server_schema in [true, false] {
                let server = ServerDefaults {
                    include_structured_content: server_content,
                    include_output_schema: server_schema,
                    ..ServerDefaults::default()
                };
                for tool_content in [None, on, off] {
                    for tool_schema in [None, on, off] {
                        let flags = ToolFlags {
                            include_structured_content: tool_content,
                            include_output_schema: tool_schema,
                        };
                        let content = tool_content.unwrap_or(server_content);
                        let schema = tool_schema.unwrap_or(server_schema);
                        let outcome = resolve("t", flags, server, ContentKind::Text);
                        if schema && !content {
                            let Err(SettingsError::AsymmetricRule(err)) = outcome else {
                                panic!(
                                    "expected the asymmetric rule to refuse {flags:?}, got {outcome:?}"
                                );
                            };
                            let expect_schema = if tool_schema.is_some() {
                                Origin::Tool
                            } else {
                                Origin::ServerDefault
                            };
                            let expect_content = if tool_content.is_some() {
                                Origin::Tool
                            } else {
                                Origin::ServerDefault
                            };
                            assert_eq!(
                                (err.schema_origin, err.content_origin),
                                (expect_schema, expect_content)
                            );
                        } else {
                            let resolved = outcome.unwrap();
                            assert_eq!(resolved.include_structured_content, content);
                            assert_eq!(resolved.include_output_schema, schema);
                        }
                    }
                }
                for kind in [ContentKind::Image, ContentKind::Audio, ContentKind::Blocks] {
                    let resolved = resolve("t", ToolFlags::default(), server, kind).unwrap();
                    assert!(
                        !resolved.include_output_schema && !resolved.include_structured_content
                    );
                    // An explicit flag the kind cannot honour is refused, not silently dropped.
                    for flags in [
                        ToolFlags {
                            include_output_schema: Some(true),
                            ..ToolFlags::default()
                        },
                        ToolFlags {
                            include_structured_content: Some(true),
                            ..ToolFlags::default()
                        },
                    ] {
                        let err = resolve("t", flags, server, kind).unwrap_err();
                        assert!(
                            matches!(err, SettingsError::NoStructuredContent { kind: k, .. } if k == kind),
                            "{err}"
                        );
                    }
                }
            }
        }
    }
}
