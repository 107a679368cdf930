//! `build_tool_result`: the one way a payload becomes a `tools/call` result.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::content::{self, Content, EmbeddedResource, MediaContent, ResourceContents};
use crate::encode::{self, EncodeError, to_checked_value};
use crate::kind::ContentKind;
use crate::media::{Media, MediaMismatch, MediaSerializer};
use crate::message::describe;
use crate::options::{Mirror, ResultOptions};
use crate::result::ToolResult;
use crate::structured::{Shape, is_nothing};

/// Builds the `tools/call` result for `payload`.
///
/// - Text kind: `structuredContent` is the payload, and `content[0]` a text block holding
///   [`encode_json`](crate::encode_json) of it. Nothing (`None`, `()`) is served as `{}`; a
///   non-object as `{"result": ...}`. With structured content off, only the text block carries
///   the payload, as it is: a string as the string itself, any other value as its JSON (the
///   `{"result": ...}` wrapping is for `structuredContent`, which must be an object up to
///   2025-11-25, and there is none).
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
///
/// let text_only = ResultOptions::new("greet").include_structured_content(false);
/// let result = build_tool_result("Hello, Ada!", &text_only);
/// assert_eq!(result.structured_content, None);
/// assert_eq!(result.text(), Some("Hello, Ada!"));
/// ```
pub fn build_tool_result<T: Serialize + ?Sized>(
    payload: &T,
    options: &ResultOptions,
) -> ToolResult {
    within_ceiling(build_result(payload, options), options)
}

/// [`build_tool_result`] without the ceiling, for a toolbox's calls: the toolbox applies it once
/// to every call's result, however the tool built it.
pub(crate) fn build_result<T: Serialize + ?Sized>(
    payload: &T,
    options: &ResultOptions,
) -> ToolResult {
    if options.content_kind.is_media() {
        build_media_result(payload, options)
    } else {
        result_from_value(to_checked_value(payload), options)
    }
}

/// [`build_tool_result`] for the kinds whose payload is JSON (text, resource links, resources,
/// blocks). The payload's serialization is the only code generic over its type; the rest is
/// this one non-generic function, whatever the tool returns.
pub(crate) fn result_from_value(
    checked: Result<Value, EncodeError>,
    options: &ResultOptions,
) -> ToolResult {
    result_with_text(checked, options, None)
}

/// [`result_from_value`], with the tool's own `text` for the mirror when it gives one
/// (`structuredContent` stays the value, exactly).
pub(crate) fn result_with_text(
    checked: Result<Value, EncodeError>,
    options: &ResultOptions,
    text: Option<String>,
) -> ToolResult {
    let built = checked
        .map_err(|e| {
            format!(
                "tool `{}` returned a result that cannot be sent: {e}",
                options.tool_name
            )
        })
        .and_then(|value| match options.content_kind {
            ContentKind::ResourceLink => listed_result(value, options, text, Content::ResourceLink),
            ContentKind::Resource => {
                listed_result(value, options, text, |resource: ResourceContents| {
                    Content::Resource(EmbeddedResource {
                        resource,
                        annotations: None,
                    })
                })
            }
            ContentKind::Blocks => blocks_result(value, options),
            ContentKind::Text | ContentKind::Image | ContentKind::Audio => {
                Ok(text_result(value, options, text))
            }
        });
    finish(built, options)
}

/// [`build_tool_result`] for image and audio: the bytes are read straight from the payload.
pub(crate) fn build_media_result<T: Serialize + ?Sized>(
    payload: &T,
    options: &ResultOptions,
) -> ToolResult {
    finish(
        media_result(payload.serialize(MediaSerializer), options),
        options,
    )
}

/// The flags every result gets, or the error result naming what went wrong.
fn finish(built: Result<ToolResult, String>, options: &ResultOptions) -> ToolResult {
    let mut result = match built {
        Ok(result) => result,
        Err(message) => return options.error(message),
    };
    result.is_error = options.is_error;
    result.meta.clone_from(&options.meta);
    result
}

/// `result`, or an error result if it is over the options' ceiling
/// ([`max_result_bytes`](ResultOptions::max_result_bytes)).
pub(crate) fn within_ceiling(result: ToolResult, options: &ResultOptions) -> ToolResult {
    match options.max_result_bytes {
        Some(limit) => enforce_ceiling(result, options, limit),
        None => result,
    }
}

fn text_result(value: Value, options: &ResultOptions, text: Option<String>) -> ToolResult {
    // Without `structuredContent` the text is all a client gets: the payload as it is.
    if text.is_none() && !options.include_structured_content && !is_nothing(&value) {
        return ToolResult {
            content: vec![Content::text(unstructured_text(value, options))],
            ..ToolResult::default()
        };
    }
    let structured = options
        .shape
        .unwrap_or_else(|| Shape::of_value(&value))
        .structured(value);
    with_mirror(Vec::new(), structured, options, text)
}

/// The text of a result without `structuredContent`: a string payload as it is, any other as
/// its JSON, unwrapped.
fn unstructured_text(value: Value, options: &ResultOptions) -> String {
    match value {
        Value::String(text) => text,
        other => match options.mirror {
            Mirror::Pretty => encode::pretty(&other),
            Mirror::Compact => encode::compact(&other),
        },
    }
}

/// The text mirror goes first, before any blocks of the kind (a resource link, a resource): a
/// client that reads only the first block (smolagents) reads the text, and one that ignores
/// `structuredContent` loses nothing, as it carries the whole structured result; unless the tool
/// wrote its own `text`, which then stands in for it.
fn with_mirror(
    mut content: Vec<Content>,
    structured: Value,
    options: &ResultOptions,
    text: Option<String>,
) -> ToolResult {
    let text = text.unwrap_or_else(|| match options.mirror {
        Mirror::Pretty => encode::pretty(&structured),
        Mirror::Compact => encode::compact(&structured),
    });
    content.insert(0, Content::text(text));
    ToolResult {
        content,
        structured_content: options.include_structured_content.then_some(structured),
        is_error: false,
        meta: Map::new(),
    }
}

fn listed_result<Item>(
    value: Value,
    options: &ResultOptions,
    text: Option<String>,
    block: impl Fn(Item) -> Content,
) -> Result<ToolResult, String>
where
    Item: for<'de> Deserialize<'de>,
{
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
    Ok(with_mirror(blocks, structured, options, text))
}

fn blocks_result(value: Value, options: &ResultOptions) -> Result<ToolResult, String> {
    let content = Vec::<Content>::deserialize(&value)
        .map_err(|e| mismatch(options, &format!("{} ({e})", describe(&value))))?;
    Ok(ToolResult {
        content,
        ..ToolResult::default()
    })
}

fn media_result(
    media: Result<Media, MediaMismatch>,
    options: &ResultOptions,
) -> Result<ToolResult, String> {
    let data = match media {
        Ok(Media::Bytes(bytes)) => content::base64_encode(&bytes),
        Ok(Media::Base64(text)) => {
            content::base64_check(&text).map_err(|e| {
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

/// MCP's result ceiling: a result over `limit` bytes (its whole wire JSON) becomes an error
/// result asking for less.
fn enforce_ceiling(result: ToolResult, options: &ResultOptions, limit: usize) -> ToolResult {
    let size = serde_json::to_vec(&result).map_or(usize::MAX, |bytes| bytes.len());
    if size <= limit {
        return result;
    }
    options.error(format!(
        "the result of tool `{}` is {size} bytes, over this server's limit of {limit} bytes; \
         narrow the request (fewer items, a smaller page or range) and call again",
        options.tool_name
    ))
}
