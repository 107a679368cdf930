//! The `tools/call` result and `build_tool_result`, the one way a payload becomes one.

use std::borrow::Cow;
use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::ser::{self, Impossible, Serialize};
use serde::{Deserialize, Serialize as SerializeDerive};
use serde_json::{Map, Value};

use crate::content::{Content, EmbeddedResource, MediaContent, ResourceContents, ResourceLink};
use crate::encode::{self, to_checked_value};
use crate::structured::Shape;

/// A `tools/call` result, with MCP's wire names.
///
/// ```
/// use mcp_tool_runtime::ToolResult;
///
/// let result = ToolResult::error("invoice 7 does not exist");
/// assert_eq!(
///     serde_json::to_value(&result).unwrap(),
///     serde_json::json!({
///         "content": [{"type": "text", "text": "invoice 7 does not exist"}],
///         "isError": true
///     })
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, SerializeDerive, Deserialize)]
pub struct ToolResult {
    /// The blocks a client shows or reads.
    pub content: Vec<Content>,
    /// The structured result, conforming to the tool's `outputSchema` when it has one.
    #[serde(
        rename = "structuredContent",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub structured_content: Option<Value>,
    /// Whether the tool failed. Omitted when `false`.
    #[serde(rename = "isError", default, skip_serializing_if = "is_false")]
    pub is_error: bool,
    /// Metadata for the client. Omitted when empty.
    #[serde(rename = "_meta", default, skip_serializing_if = "Map::is_empty")]
    pub meta: Map<String, Value>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl ToolResult {
    /// A tool execution error: one text block and `isError: true`, no structured content.
    pub fn error(message: impl Into<String>) -> Self {
        ToolResult {
            content: vec![Content::text(message)],
            structured_content: None,
            is_error: true,
            meta: Map::new(),
        }
    }

    /// The text of the first block, if it is a text block.
    ///
    /// ```
    /// use mcp_tool_runtime::ToolResult;
    /// assert_eq!(ToolResult::error("boom").text(), Some("boom"));
    /// ```
    pub fn text(&self) -> Option<&str> {
        self.content.first().and_then(Content::as_text)
    }
}

/// What kind of content a tool's payload becomes.
///
/// ```
/// use mcp_tool_runtime::ContentKind;
///
/// assert!(ContentKind::Image.is_media());
/// assert!(ContentKind::ResourceLink.carries_structured_content());
/// assert_eq!(ContentKind::ResourceLink.to_string(), "resource_link");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContentKind {
    /// Any JSON: `structuredContent` plus a pretty JSON text mirror.
    #[default]
    Text,
    /// Bytes (or a base64 string) served as an `image` block.
    Image,
    /// Bytes (or a base64 string) served as an `audio` block.
    Audio,
    /// One [`ResourceLink`] or a list of them, served as `resource_link` blocks.
    ResourceLink,
    /// One [`ResourceContents`] or a list of them, served as embedded `resource` blocks.
    Resource,
    /// A list of [`Content`] blocks served as they are, for results that mix kinds.
    Blocks,
}

impl ContentKind {
    /// Image and audio carry bytes, not JSON: no `structuredContent`, so no `outputSchema`.
    pub fn is_media(self) -> bool {
        matches!(self, ContentKind::Image | ContentKind::Audio)
    }

    /// Whether results of this kind can carry `structuredContent` at all.
    pub fn carries_structured_content(self) -> bool {
        !matches!(
            self,
            ContentKind::Image | ContentKind::Audio | ContentKind::Blocks
        )
    }

    /// The keyword `#[mcp_tool(content = ...)]` uses for this kind.
    pub fn keyword(self) -> &'static str {
        match self {
            ContentKind::Text => "text",
            ContentKind::Image => "image",
            ContentKind::Audio => "audio",
            ContentKind::ResourceLink => "resource_link",
            ContentKind::Resource => "resource",
            ContentKind::Blocks => "blocks",
        }
    }
}

impl fmt::Display for ContentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// How [`build_tool_result`] builds a result. Tools registered in a [`Toolbox`](crate::Toolbox)
/// get theirs resolved once, at registration.
///
/// ```
/// use mcp_tool_runtime::{ContentKind, ResultOptions};
///
/// let options = ResultOptions::new("render_chart")
///     .content_kind(ContentKind::Image)
///     .mime_type("image/png");
/// assert!(options.include_structured_content);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ResultOptions {
    /// The tool's name, for messages.
    pub tool_name: Cow<'static, str>,
    /// Mark the result as a tool execution error.
    pub is_error: bool,
    /// Put the payload in `structuredContent` (default on). Off, only the text mirror carries it.
    pub include_structured_content: bool,
    /// `_meta` of the result.
    pub meta: Map<String, Value>,
    /// What the payload becomes.
    pub content_kind: ContentKind,
    /// The `mimeType` of image and audio blocks.
    pub mime_type: Option<Cow<'static, str>>,
    /// The largest encoded result, in bytes, the tool may send; over it the call is an error.
    pub max_result_bytes: Option<usize>,
    /// Whether the payload is wrapped under `result`. `None` decides from each value; tools with a
    /// known output type use the shape of its schema, so payload and schema always agree.
    pub shape: Option<Shape>,
}

impl ResultOptions {
    /// Text results for the tool `tool_name`, structured content on.
    pub fn new(tool_name: impl Into<Cow<'static, str>>) -> Self {
        ResultOptions {
            tool_name: tool_name.into(),
            is_error: false,
            include_structured_content: true,
            meta: Map::new(),
            content_kind: ContentKind::Text,
            mime_type: None,
            max_result_bytes: None,
            shape: None,
        }
    }

    /// Sets [`content_kind`](Self::content_kind).
    pub fn content_kind(mut self, kind: ContentKind) -> Self {
        self.content_kind = kind;
        self
    }

    /// Sets [`mime_type`](Self::mime_type).
    pub fn mime_type(mut self, mime_type: impl Into<Cow<'static, str>>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets [`include_structured_content`](Self::include_structured_content).
    pub fn include_structured_content(mut self, on: bool) -> Self {
        self.include_structured_content = on;
        self
    }

    /// Sets [`is_error`](Self::is_error).
    pub fn is_error(mut self, is_error: bool) -> Self {
        self.is_error = is_error;
        self
    }

    /// Sets [`meta`](Self::meta).
    pub fn meta(mut self, meta: Map<String, Value>) -> Self {
        self.meta = meta;
        self
    }

    /// Sets [`max_result_bytes`](Self::max_result_bytes).
    pub fn max_result_bytes(mut self, limit: usize) -> Self {
        self.max_result_bytes = Some(limit);
        self
    }

    /// Sets [`shape`](Self::shape).
    pub fn shape(mut self, shape: Shape) -> Self {
        self.shape = Some(shape);
        self
    }
}

/// Builds the `tools/call` result for `payload`.
///
/// - Text kind: `structuredContent` is the payload, and `content[0]` a text block holding
///   [`encode_json`](crate::encode_json) of it. With structured content off, only the text block
///   carries it. Nothing (`None`, `()`) is served as `{}`; a non-object as `{"result": ...}`.
/// - Image and audio: the payload is bytes (or a base64 string); one block with base64 `data`.
/// - Resource links and embedded resources: one or a list; blocks, plus the structured result.
/// - Blocks: a list of [`Content`] served as it is.
///
/// A payload that does not fit, cannot be encoded, or is larger than the ceiling is never a panic:
/// it becomes an `isError` result that names the tool and the problem.
///
/// ```
/// use mcp_tool_runtime::{build_tool_result, ResultOptions};
/// use serde_json::json;
///
/// let result = build_tool_result(&vec!["a", "b"], &ResultOptions::new("letters"));
/// assert_eq!(result.structured_content, Some(json!({"result": ["a", "b"]})));
/// assert_eq!(result.text(), Some("{\n  \"result\": [\n    \"a\",\n    \"b\"\n  ]\n}"));
/// ```
pub fn build_tool_result<T: Serialize + ?Sized>(
    payload: &T,
    options: &ResultOptions,
) -> ToolResult {
    let built = match options.content_kind {
        ContentKind::Text => text_result(payload, options),
        ContentKind::Image | ContentKind::Audio => media_result(payload, options),
        ContentKind::ResourceLink => listed_result(payload, options, |link: ResourceLink| {
            Content::ResourceLink(link)
        }),
        ContentKind::Resource => listed_result(payload, options, |resource: ResourceContents| {
            Content::Resource(EmbeddedResource {
                resource,
                annotations: None,
            })
        }),
        ContentKind::Blocks => blocks_result(payload, options),
    };
    let mut result = match built {
        Ok(result) => result,
        Err(message) => return ToolResult::error(message),
    };
    result.is_error = options.is_error;
    result.meta = options.meta.clone();
    enforce_ceiling(result, options)
}

fn text_result<T: Serialize + ?Sized>(
    payload: &T,
    options: &ResultOptions,
) -> Result<ToolResult, String> {
    let value = checked(payload, options)?;
    let structured = options
        .shape
        .unwrap_or_else(|| Shape::of_value(&value))
        .structured(value);
    Ok(with_mirror(Vec::new(), structured, options))
}

/// The text mirror goes last, after any blocks of the kind, and always carries the whole
/// structured result, so a client that ignores `structuredContent` loses nothing.
fn with_mirror(
    mut content: Vec<Content>,
    structured: Value,
    options: &ResultOptions,
) -> ToolResult {
    content.push(Content::text(encode::pretty(&structured)));
    ToolResult {
        content,
        structured_content: options.include_structured_content.then_some(structured),
        is_error: false,
        meta: Map::new(),
    }
}

fn checked<T: Serialize + ?Sized>(payload: &T, options: &ResultOptions) -> Result<Value, String> {
    to_checked_value(payload).map_err(|e| {
        format!(
            "tool `{}` returned a result that cannot be sent: {e}",
            options.tool_name
        )
    })
}

fn listed_result<T, Item>(
    payload: &T,
    options: &ResultOptions,
    block: impl Fn(Item) -> Content,
) -> Result<ToolResult, String>
where
    T: Serialize + ?Sized,
    Item: for<'de> Deserialize<'de>,
{
    let value = checked(payload, options)?;
    let items: Vec<&Value> = match &value {
        Value::Array(items) => items.iter().collect(),
        one => vec![one],
    };
    let blocks = items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            Item::deserialize(item)
                .map(&block)
                .map_err(|e| mismatch(options, &format!("{} at index {i} ({e})", describe(item))))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let structured = options
        .shape
        .unwrap_or_else(|| Shape::of_value(&value))
        .structured(value);
    Ok(with_mirror(blocks, structured, options))
}

fn blocks_result<T: Serialize + ?Sized>(
    payload: &T,
    options: &ResultOptions,
) -> Result<ToolResult, String> {
    let value = checked(payload, options)?;
    let content = Vec::<Content>::deserialize(&value)
        .map_err(|e| mismatch(options, &format!("{} ({e})", describe(&value))))?;
    Ok(ToolResult {
        content,
        ..ToolResult::default()
    })
}

fn media_result<T: Serialize + ?Sized>(
    payload: &T,
    options: &ResultOptions,
) -> Result<ToolResult, String> {
    let data = match payload.serialize(MediaSerializer) {
        Ok(Media::Bytes(bytes)) => BASE64.encode(bytes),
        Ok(Media::Base64(text)) => {
            BASE64.decode(text.as_bytes()).map_err(|e| {
                mismatch(options, &format!("a string that is not valid base64 ({e})"))
            })?;
            text
        }
        Err(MediaMismatch(found)) => return Err(mismatch(options, &found)),
    };
    let mime_type = options
        .mime_type
        .as_deref()
        .ok_or_else(|| {
            format!(
                "tool `{}` declares `{}` content without a `mime_type`; declare one",
                options.tool_name, options.content_kind
            )
        })?
        .to_owned();
    let media = MediaContent {
        data,
        mime_type,
        annotations: None,
    };
    let block = if options.content_kind == ContentKind::Audio {
        Content::Audio(media)
    } else {
        Content::Image(media)
    };
    Ok(ToolResult {
        content: vec![block],
        ..ToolResult::default()
    })
}

fn mismatch(options: &ResultOptions, found: &str) -> String {
    let expected = match options.content_kind {
        ContentKind::Image | ContentKind::Audio => "bytes or a base64 string",
        ContentKind::ResourceLink => {
            "a resource link (an object with string `uri` and `name`) or a list of them"
        }
        ContentKind::Resource => {
            "resource contents (an object with `uri` and `text` or `blob`) or a list of them"
        }
        ContentKind::Blocks => "a list of content blocks",
        ContentKind::Text => "JSON",
    };
    format!(
        "tool `{}` declares `{}` content, which expects {expected}, but returned {found}",
        options.tool_name, options.content_kind
    )
}

/// Names a JSON value for a message: its type and its text, cut to about 120 characters.
pub(crate) fn describe(value: &Value) -> String {
    let kind = match value {
        Value::Null => "null",
        Value::Bool(_) => "a bool",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    format!("{kind} `{}`", truncate(&value.to_string(), 120))
}

pub(crate) fn truncate(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}…", &text[..end]))
}

fn enforce_ceiling(result: ToolResult, options: &ResultOptions) -> ToolResult {
    let Some(limit) = options.max_result_bytes else {
        return result;
    };
    let size = serde_json::to_vec(&result).map_or(usize::MAX, |bytes| bytes.len());
    if size <= limit {
        return result;
    }
    let mut error = ToolResult::error(format!(
        "the result of tool `{}` is {size} bytes, over this server's limit of {limit} bytes; \
         narrow the request (fewer items, a smaller page or range) and call again",
        options.tool_name
    ));
    error.meta = options.meta.clone();
    error
}

pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    BASE64.encode(bytes)
}

enum Media {
    Bytes(Vec<u8>),
    Base64(String),
}

/// What arrived where bytes were declared, for the error message.
struct MediaMismatch(String);

impl fmt::Debug for MediaMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for MediaMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MediaMismatch {}

impl ser::Error for MediaMismatch {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        MediaMismatch(format!("a value that failed to serialize ({msg})"))
    }
}

fn found(what: impl Into<String>) -> MediaMismatch {
    MediaMismatch(what.into())
}

/// Reads bytes straight out of a payload (`Vec<u8>`, `&[u8]`, `serde_bytes`, or a base64
/// `String`) without building a JSON array of numbers first.
struct MediaSerializer;

struct ByteCollector(Vec<u8>);

impl ser::SerializeSeq for ByteCollector {
    type Ok = Media;
    type Error = MediaMismatch;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), MediaMismatch> {
        match value.serialize(ByteSerializer) {
            Ok(byte) => {
                self.0.push(byte);
                Ok(())
            }
            Err(_) => Err(found("a list whose items are not bytes")),
        }
    }
    fn end(self) -> Result<Media, MediaMismatch> {
        Ok(Media::Bytes(self.0))
    }
}

macro_rules! refuse {
    ($($method:ident($($arg:ty),*) -> $ret:ty: $what:expr;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ret, MediaMismatch> { Err(found($what)) })*
    };
}

impl ser::Serializer for MediaSerializer {
    type Ok = Media;
    type Error = MediaMismatch;
    type SerializeSeq = ByteCollector;
    type SerializeTuple = Impossible<Media, MediaMismatch>;
    type SerializeTupleStruct = Impossible<Media, MediaMismatch>;
    type SerializeTupleVariant = Impossible<Media, MediaMismatch>;
    type SerializeMap = Impossible<Media, MediaMismatch>;
    type SerializeStruct = Impossible<Media, MediaMismatch>;
    type SerializeStructVariant = Impossible<Media, MediaMismatch>;

    fn serialize_bytes(self, v: &[u8]) -> Result<Media, MediaMismatch> {
        Ok(Media::Bytes(v.to_vec()))
    }
    fn serialize_str(self, v: &str) -> Result<Media, MediaMismatch> {
        Ok(Media::Base64(v.to_owned()))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<ByteCollector, MediaMismatch> {
        Ok(ByteCollector(Vec::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Media, MediaMismatch> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Media, MediaMismatch> {
        value.serialize(self)
    }
    fn serialize_struct(
        self,
        name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, MediaMismatch> {
        Err(found(format!("a struct `{name}`")))
    }
    refuse! {
        serialize_bool(bool) -> Media: "a bool";
        serialize_i8(i8) -> Media: "a number";
        serialize_i16(i16) -> Media: "a number";
        serialize_i32(i32) -> Media: "a number";
        serialize_i64(i64) -> Media: "a number";
        serialize_u8(u8) -> Media: "a number";
        serialize_u16(u16) -> Media: "a number";
        serialize_u32(u32) -> Media: "a number";
        serialize_u64(u64) -> Media: "a number";
        serialize_f32(f32) -> Media: "a number";
        serialize_f64(f64) -> Media: "a number";
        serialize_char(char) -> Media: "a char";
        serialize_none() -> Media: "nothing (None)";
        serialize_unit() -> Media: "nothing (())";
        serialize_unit_struct(&'static str) -> Media: "a unit struct";
        serialize_unit_variant(&'static str, u32, &'static str) -> Media: "an enum";
        serialize_tuple(usize) -> Self::SerializeTuple: "a tuple";
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct: "a tuple struct";
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant: "an enum";
        serialize_map(Option<usize>) -> Self::SerializeMap: "a map";
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant: "an enum";
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<Media, MediaMismatch> {
        Err(found("an enum"))
    }
}

/// Accepts exactly one `u8`.
struct ByteSerializer;

impl ser::Serializer for ByteSerializer {
    type Ok = u8;
    type Error = MediaMismatch;
    type SerializeSeq = Impossible<u8, MediaMismatch>;
    type SerializeTuple = Impossible<u8, MediaMismatch>;
    type SerializeTupleStruct = Impossible<u8, MediaMismatch>;
    type SerializeTupleVariant = Impossible<u8, MediaMismatch>;
    type SerializeMap = Impossible<u8, MediaMismatch>;
    type SerializeStruct = Impossible<u8, MediaMismatch>;
    type SerializeStructVariant = Impossible<u8, MediaMismatch>;

    fn serialize_u8(self, v: u8) -> Result<u8, MediaMismatch> {
        Ok(v)
    }
    refuse! {
        serialize_bool(bool) -> u8: "";
        serialize_i8(i8) -> u8: "";
        serialize_i16(i16) -> u8: "";
        serialize_i32(i32) -> u8: "";
        serialize_i64(i64) -> u8: "";
        serialize_u16(u16) -> u8: "";
        serialize_u32(u32) -> u8: "";
        serialize_u64(u64) -> u8: "";
        serialize_f32(f32) -> u8: "";
        serialize_f64(f64) -> u8: "";
        serialize_char(char) -> u8: "";
        serialize_str(&str) -> u8: "";
        serialize_bytes(&[u8]) -> u8: "";
        serialize_none() -> u8: "";
        serialize_unit() -> u8: "";
        serialize_unit_struct(&'static str) -> u8: "";
        serialize_unit_variant(&'static str, u32, &'static str) -> u8: "";
        serialize_seq(Option<usize>) -> Self::SerializeSeq: "";
        serialize_tuple(usize) -> Self::SerializeTuple: "";
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct: "";
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant: "";
        serialize_map(Option<usize>) -> Self::SerializeMap: "";
        serialize_struct(&'static str, usize) -> Self::SerializeStruct: "";
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant: "";
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<u8, MediaMismatch> {
        Err(found(""))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<u8, MediaMismatch> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<u8, MediaMismatch> {
        Err(found(""))
    }
}
