//! Every keyword the attribute accepts, in one place.

pub const NAME: &str = "name";
pub const TITLE: &str = "title";
pub const DESCRIPTION: &str = "description";
pub const INCLUDE_OUTPUT_SCHEMA: &str = "include_output_schema";
pub const INCLUDE_STRUCTURED_CONTENT: &str = "include_structured_content";
pub const ALLOW_NONE: &str = "allow_none";
pub const ANNOTATIONS: &str = "annotations";
pub const CONTENT: &str = "content";
pub const MIME_TYPE: &str = "mime_type";
pub const ICONS: &str = "icons";
pub const META: &str = "meta";
pub const MIRROR: &str = "mirror";
pub const SCHEMA: &str = "schema";
pub const TEXT: &str = "text";
pub const SCOPES: &str = "scopes";
pub const TASK: &str = "task";
pub const ESCALATES: &str = "escalates";
pub const CRATE: &str = "crate";
pub const UI: &str = "ui";
pub const VISIBILITY: &str = "visibility";

/// The keys of `#[mcp_tool(...)]`, in the order messages list them.
pub const TOOL_KEYS: &[&str] = &[
    NAME,
    TITLE,
    DESCRIPTION,
    INCLUDE_OUTPUT_SCHEMA,
    INCLUDE_STRUCTURED_CONTENT,
    ALLOW_NONE,
    ANNOTATIONS,
    CONTENT,
    MIME_TYPE,
    MIRROR,
    SCHEMA,
    TEXT,
    ICONS,
    META,
    SCOPES,
    TASK,
    ESCALATES,
    UI,
    VISIBILITY,
    CRATE,
];

pub const READ_ONLY: &str = "read_only";
pub const DESTRUCTIVE: &str = "destructive";
pub const IDEMPOTENT: &str = "idempotent";
pub const OPEN_WORLD: &str = "open_world";

/// The keys of `annotations(...)`.
pub const ANNOTATION_KEYS: &[&str] = &[READ_ONLY, DESTRUCTIVE, IDEMPOTENT, OPEN_WORLD];

/// Attributes on parameters.
pub const ARG: &str = "arg";
pub const ARGS: &str = "args";
pub const STATE: &str = "state";
pub const RENAME: &str = "rename";
pub const HEADER: &str = "header";
pub const COMPLETE: &str = "complete";

/// The type of the call-context parameter.
pub const TOOL_CONTEXT: &str = "ToolContext";

/// The keys of `#[arg(...)]`.
pub const ARG_KEYS: &[&str] = &[RENAME, DESCRIPTION, HEADER, COMPLETE];

pub const URI: &str = "uri";
pub const SIZE: &str = "size";
pub const AUDIENCE: &str = "audience";
pub const PRIORITY: &str = "priority";
pub const LAST_MODIFIED: &str = "last_modified";

/// The keys of `#[mcp_prompt(...)]`.
pub const PROMPT_KEYS: &[&str] = &[NAME, TITLE, DESCRIPTION, ICONS, META, CRATE];

/// The keys of `#[mcp_resource(...)]`.
pub const RESOURCE_KEYS: &[&str] = &[
    URI,
    UI,
    NAME,
    TITLE,
    DESCRIPTION,
    MIME_TYPE,
    SIZE,
    ANNOTATIONS,
    ICONS,
    META,
    CRATE,
];

/// The keys of a resource's `annotations(...)`.
pub const RESOURCE_ANNOTATION_KEYS: &[&str] = &[AUDIENCE, PRIORITY, LAST_MODIFIED];

pub const CONNECT_DOMAINS: &str = "connect_domains";
pub const RESOURCE_DOMAINS: &str = "resource_domains";
pub const FRAME_DOMAINS: &str = "frame_domains";
pub const BASE_URI_DOMAINS: &str = "base_uri_domains";
pub const CAMERA: &str = "camera";
pub const MICROPHONE: &str = "microphone";
pub const GEOLOCATION: &str = "geolocation";
pub const CLIPBOARD_WRITE: &str = "clipboard_write";
pub const PREFERS_BORDER: &str = "prefers_border";
pub const DOMAIN: &str = "domain";

/// The keys of a view resource's `ui(...)`.
pub const VIEW_KEYS: &[&str] = &[
    CONNECT_DOMAINS,
    RESOURCE_DOMAINS,
    FRAME_DOMAINS,
    BASE_URI_DOMAINS,
    CAMERA,
    MICROPHONE,
    GEOLOCATION,
    CLIPBOARD_WRITE,
    PREFERS_BORDER,
    DOMAIN,
];
