//! `encode_json`: the deterministic JSON text every tool result carries.
//!
//! A payload is first turned into a [`serde_json::Value`] by [`to_checked_value`], a serializer of
//! our own that sorts object keys, refuses non-finite floats (naming the JSON path) and refuses
//! nesting deeper than [`MAX_DEPTH`] before it could overflow the stack. The checked value is what
//! `structuredContent` carries; its pretty form is what the text mirror carries.

use std::fmt::{self, Display};

use serde::ser::{self, Impossible, Serialize};
use serde_json::{Map, Number, Value};

/// The deepest nesting of arrays and objects [`encode_json`] writes.
///
/// The same limit `serde_json` applies when it reads JSON, so anything this crate writes can be
/// read back by `serde_json` (and by the JSON parsers MCP clients use).
///
/// ```
/// use mcp_tool_runtime::{encode_json, encode::MAX_DEPTH};
///
/// let mut deep = serde_json::json!(1);
/// for _ in 0..MAX_DEPTH + 1 {
///     deep = serde_json::json!([deep]);
/// }
/// assert!(encode_json(&deep).is_err());
/// ```
pub const MAX_DEPTH: usize = 128;

/// Why a payload could not be encoded as JSON.
///
/// ```
/// use mcp_tool_runtime::{encode_json, encode::EncodeError};
///
/// let err = encode_json(&[1.0, f64::INFINITY]).unwrap_err();
/// assert!(matches!(err, EncodeError::NonFiniteFloat { .. }));
/// assert_eq!(err.path(), "$[1]");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// A float that JSON cannot represent (`NaN`, `inf`, `-inf`).
    #[error(
        "the value at `{path}` is {value}, which JSON cannot represent; replace it with a finite number or make the field an Option"
    )]
    NonFiniteFloat {
        /// Where the value sits, as a JSON path (`$.rows[3].ratio`).
        path: String,
        /// The float as Rust prints it (`NaN`, `inf`, `-inf`).
        value: String,
    },
    /// Arrays and objects nested deeper than [`MAX_DEPTH`].
    #[error(
        "the value at `{path}` nests arrays and objects deeper than {limit} levels; flatten the payload"
    )]
    TooDeep {
        /// The path of the first value past the limit.
        path: String,
        /// The limit, [`MAX_DEPTH`].
        limit: usize,
    },
    /// A map key that JSON cannot spell as a string (a struct, a sequence, a float, ...).
    #[error(
        "the map key at `{path}` is {found}; JSON object keys must be strings, integers, bools, chars or unit enum variants"
    )]
    UnsupportedKey {
        /// The path of the map holding the key.
        path: String,
        /// What the key was.
        found: &'static str,
    },
    /// An integer wider than JSON numbers carry here (i128/u128 outside the 64-bit range).
    #[error(
        "the integer at `{path}` ({value}) is outside the 64-bit range JSON numbers carry here; send it as a string"
    )]
    IntegerOutOfRange {
        /// Where the integer sits.
        path: String,
        /// The integer.
        value: String,
    },
    /// The payload's own `Serialize` impl failed.
    #[error("the value at `{path}` could not be serialized: {message}")]
    Custom {
        /// Where the failure happened.
        path: String,
        /// The message the `Serialize` impl gave.
        message: String,
    },
}

impl EncodeError {
    fn path_mut(&mut self) -> &mut String {
        match self {
            EncodeError::NonFiniteFloat { path, .. }
            | EncodeError::TooDeep { path, .. }
            | EncodeError::UnsupportedKey { path, .. }
            | EncodeError::IntegerOutOfRange { path, .. }
            | EncodeError::Custom { path, .. } => path,
        }
    }

    /// The JSON path (`$.rows[3].ratio`) of the value that could not be encoded.
    pub fn path(&self) -> &str {
        match self {
            EncodeError::NonFiniteFloat { path, .. }
            | EncodeError::TooDeep { path, .. }
            | EncodeError::UnsupportedKey { path, .. }
            | EncodeError::IntegerOutOfRange { path, .. }
            | EncodeError::Custom { path, .. } => path,
        }
    }

    /// Paths are built while the error travels back up, so the happy path pays nothing for them.
    fn within(mut self, segment: Segment<'_>) -> Self {
        let path = self.path_mut();
        let rest = path.strip_prefix('$').unwrap_or(path).to_owned();
        *path = format!("${segment}{rest}");
        self
    }
}

/// One step of a JSON path: `[3]`, `.name`, or `["odd key"]`.
pub(crate) enum Segment<'a> {
    Index(usize),
    Key(&'a str),
}

impl Display for Segment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Segment::Index(i) => write!(f, "[{i}]"),
            Segment::Key(k) if is_identifier(k) => write!(f, ".{k}"),
            Segment::Key(k) => write!(f, "[{}]", Value::String((*k).to_owned())),
        }
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl ser::Error for EncodeError {
    fn custom<T: Display>(msg: T) -> Self {
        EncodeError::Custom {
            path: "$".to_owned(),
            message: msg.to_string(),
        }
    }
}

/// Encodes `payload` as stable, pretty JSON: two-space indent, object keys sorted by code point at
/// every depth (struct fields included), non-ASCII written as UTF-8.
///
/// The output is the same bytes on every run and platform. For a payload whose keys are already
/// sorted it equals `serde_json::to_string_pretty`. Map keys that are integers, bools, chars or
/// unit enum variants become key strings, sorted as strings.
///
/// # Errors
/// Refuses, rather than writes something else: a non-finite float (serde_json would write
/// `null`), nesting deeper than [`MAX_DEPTH`], a map key JSON cannot spell. The error names the
/// JSON path of the offending value.
///
/// # Examples
/// ```
/// use mcp_tool_runtime::encode_json;
///
/// #[derive(serde::Serialize)]
/// struct Invoice { total: f64, customer: &'static str }
///
/// let text = encode_json(&Invoice { total: 12.5, customer: "Zoë" }).unwrap();
/// assert_eq!(text, "{\n  \"customer\": \"Zoë\",\n  \"total\": 12.5\n}");
///
/// let err = encode_json(&vec![1.0, f64::NAN]).unwrap_err();
/// assert_eq!(err.path(), "$[1]");
/// ```
pub fn encode_json<T: Serialize + ?Sized>(payload: &T) -> Result<String, EncodeError> {
    let value = to_checked_value(payload)?;
    Ok(pretty(&value))
}

/// Pretty-prints a value produced by [`to_checked_value`] (keys already sorted, depth bounded).
pub(crate) fn pretty(value: &Value) -> String {
    let mut bytes = Vec::with_capacity(128);
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, Pretty::default());
    value
        .serialize(&mut serializer)
        .expect("a checked value always serializes");
    // The buffer grew by doubling; the text lives until the response is written, so give back
    // the spare capacity (for large texts the allocator shrinks in place).
    bytes.shrink_to_fit();
    String::from_utf8(bytes).expect("serde_json writes UTF-8")
}

/// serde_json's pretty layout (`to_string_pretty`: two-space indent, `": "`), byte for byte,
/// writing each line break and its indentation in one write instead of one write per level.
#[derive(Default)]
struct Pretty {
    level: usize,
    has_value: bool,
}

/// A line break followed by enough indentation for every depth a checked value reaches.
const LINE: &[u8] = {
    const LEN: usize = 1 + 2 * (MAX_DEPTH + 8);
    let mut line = [b' '; LEN];
    line[0] = b'\n';
    &{ line }
};

impl Pretty {
    fn line<W: ?Sized + std::io::Write>(&self, writer: &mut W) -> std::io::Result<()> {
        match LINE.get(..1 + 2 * self.level) {
            Some(line) => writer.write_all(line),
            None => {
                writer.write_all(b"\n")?;
                (0..self.level).try_for_each(|_| writer.write_all(b"  "))
            }
        }
    }

    fn open<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.line(writer)?;
        }
        writer.write_all(bracket)
    }

    fn item<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        self.line(writer)
    }
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"]")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(writer, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"}")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(writer, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Turns `payload` into a JSON value with keys in code-point order, refusing what
/// [`encode_json`] refuses. This is the value `structuredContent` carries.
///
/// ```
/// use mcp_tool_runtime::encode::to_checked_value;
///
/// let value = to_checked_value(&std::collections::BTreeMap::from([(2, "b"), (10, "a")])).unwrap();
/// assert_eq!(value, serde_json::json!({"10": "a", "2": "b"}));
/// ```
pub fn to_checked_value<T: Serialize + ?Sized>(payload: &T) -> Result<Value, EncodeError> {
    payload.serialize(Checked { depth: 0 })
}

/// An object whose keys are in code-point order. Without serde_json's `preserve_order` feature a
/// `Map` is always sorted and `sort_keys` does nothing; with it (somewhere in the dependency
/// graph), `sort_keys` sorts once, here. Either way each object is built once, in place.
fn object(mut entries: Map<String, Value>) -> Value {
    entries.sort_keys();
    Value::Object(entries)
}

fn float(v: f64) -> Result<Value, EncodeError> {
    Number::from_f64(v)
        .map(Value::Number)
        .ok_or_else(|| EncodeError::NonFiniteFloat {
            path: "$".to_owned(),
            value: v.to_string(),
        })
}

#[derive(Clone, Copy)]
struct Checked {
    depth: usize,
}

impl Checked {
    fn nest(self) -> Result<Checked, EncodeError> {
        if self.depth >= MAX_DEPTH {
            return Err(EncodeError::TooDeep {
                path: "$".to_owned(),
                limit: MAX_DEPTH,
            });
        }
        Ok(Checked {
            depth: self.depth + 1,
        })
    }
}

struct SeqBuilder {
    inner: Checked,
    items: Vec<Value>,
}

impl SeqBuilder {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        let index = self.items.len();
        let item = value
            .serialize(self.inner)
            .map_err(|e| e.within(Segment::Index(index)))?;
        self.items.push(item);
        Ok(())
    }
}

struct MapBuilder {
    inner: Checked,
    entries: Map<String, Value>,
    next_key: Option<String>,
}

impl MapBuilder {
    fn insert<T: Serialize + ?Sized>(&mut self, key: String, value: &T) -> Result<(), EncodeError> {
        let item = value
            .serialize(self.inner)
            .map_err(|e| e.within(Segment::Key(&key)))?;
        self.entries.insert(key, item);
        Ok(())
    }
}

/// `{"Variant": ...}` wrappers for externally tagged enum variants.
struct VariantBuilder<B> {
    variant: &'static str,
    body: B,
}

impl ser::Serializer for Checked {
    type Ok = Value;
    type Error = EncodeError;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = VariantBuilder<SeqBuilder>;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = VariantBuilder<MapBuilder>;

    fn serialize_bool(self, v: bool) -> Result<Value, EncodeError> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, EncodeError> {
        Ok(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<Value, EncodeError> {
        Ok(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<Value, EncodeError> {
        Ok(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<Value, EncodeError> {
        Ok(v.into())
    }
    fn serialize_i128(self, v: i128) -> Result<Value, EncodeError> {
        if let Ok(small) = i64::try_from(v) {
            Ok(small.into())
        } else if let Ok(unsigned) = u64::try_from(v) {
            Ok(unsigned.into())
        } else {
            Err(EncodeError::IntegerOutOfRange {
                path: "$".to_owned(),
                value: v.to_string(),
            })
        }
    }
    fn serialize_u8(self, v: u8) -> Result<Value, EncodeError> {
        Ok(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<Value, EncodeError> {
        Ok(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<Value, EncodeError> {
        Ok(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<Value, EncodeError> {
        Ok(v.into())
    }
    fn serialize_u128(self, v: u128) -> Result<Value, EncodeError> {
        u64::try_from(v)
            .map(Value::from)
            .map_err(|_| EncodeError::IntegerOutOfRange {
                path: "$".to_owned(),
                value: v.to_string(),
            })
    }
    fn serialize_f32(self, v: f32) -> Result<Value, EncodeError> {
        // Widen through the shortest decimal form, so 0.1f32 is written `0.1`, as serde_json
        // writes an f32, not `0.10000000149011612`.
        if !v.is_finite() {
            return float(f64::from(v));
        }
        float(v.to_string().parse().unwrap_or(f64::from(v)))
    }
    fn serialize_f64(self, v: f64) -> Result<Value, EncodeError> {
        float(v)
    }
    fn serialize_char(self, v: char) -> Result<Value, EncodeError> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, EncodeError> {
        Ok(Value::String(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, EncodeError> {
        // serde_json's own choice: bytes are an array of numbers.
        Ok(Value::Array(v.iter().map(|&b| b.into()).collect()))
    }
    fn serialize_none(self) -> Result<Value, EncodeError> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, EncodeError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, EncodeError> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, EncodeError> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, EncodeError> {
        Ok(Value::String(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Value, EncodeError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, EncodeError> {
        let mut map = self.serialize_map(Some(1))?;
        map.insert(variant.to_owned(), value)?;
        ser::SerializeMap::end(map)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder, EncodeError> {
        Ok(SeqBuilder {
            inner: self.nest()?,
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder, EncodeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqBuilder, EncodeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantBuilder<SeqBuilder>, EncodeError> {
        // The `{"Variant": [...]}` wrapper is one level; its array is the next.
        let body = self.nest()?.serialize_seq(Some(len))?;
        Ok(VariantBuilder { variant, body })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapBuilder, EncodeError> {
        Ok(MapBuilder {
            inner: self.nest()?,
            entries: Map::new(),
            next_key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapBuilder, EncodeError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantBuilder<MapBuilder>, EncodeError> {
        let body = self.nest()?.serialize_map(Some(len))?;
        Ok(VariantBuilder { variant, body })
    }
}

impl ser::SerializeSeq for SeqBuilder {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.push(value)
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(Value::Array(self.items))
    }
}

impl ser::SerializeTuple for SeqBuilder {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.push(value)
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(Value::Array(self.items))
    }
}

impl ser::SerializeTupleStruct for SeqBuilder {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.push(value)
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(Value::Array(self.items))
    }
}

impl ser::SerializeTupleVariant for VariantBuilder<SeqBuilder> {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.body
            .push(value)
            .map_err(|e| e.within(Segment::Key(self.variant)))
    }
    fn end(self) -> Result<Value, EncodeError> {
        let mut entries = Map::new();
        entries.insert(self.variant.to_owned(), Value::Array(self.body.items));
        Ok(object(entries))
    }
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), EncodeError> {
        self.next_key = Some(key.serialize(KeySerializer)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        let key = self
            .next_key
            .take()
            .ok_or_else(|| ser::Error::custom("serialize_value called before serialize_key"))?;
        self.insert(key, value)
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(object(self.entries))
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.insert(key.to_owned(), value)
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(object(self.entries))
    }
}

impl ser::SerializeStructVariant for VariantBuilder<MapBuilder> {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.body
            .insert(key.to_owned(), value)
            .map_err(|e| e.within(Segment::Key(self.variant)))
    }
    fn end(self) -> Result<Value, EncodeError> {
        let mut entries = Map::new();
        entries.insert(self.variant.to_owned(), object(self.body.entries));
        Ok(object(entries))
    }
}

/// Spells a map key as a JSON key string.
struct KeySerializer;

fn unsupported_key(found: &'static str) -> EncodeError {
    EncodeError::UnsupportedKey {
        path: "$".to_owned(),
        found,
    }
}

macro_rules! key_via_to_string {
    ($($method:ident: $ty:ty),* $(,)?) => {
        $(fn $method(self, v: $ty) -> Result<String, EncodeError> { Ok(v.to_string()) })*
    };
}

impl ser::Serializer for KeySerializer {
    type Ok = String;
    type Error = EncodeError;
    type SerializeSeq = Impossible<String, EncodeError>;
    type SerializeTuple = Impossible<String, EncodeError>;
    type SerializeTupleStruct = Impossible<String, EncodeError>;
    type SerializeTupleVariant = Impossible<String, EncodeError>;
    type SerializeMap = Impossible<String, EncodeError>;
    type SerializeStruct = Impossible<String, EncodeError>;
    type SerializeStructVariant = Impossible<String, EncodeError>;

    key_via_to_string!(
        serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_char: char,
        serialize_str: &str,
    );

    fn serialize_f32(self, _v: f32) -> Result<String, EncodeError> {
        Err(unsupported_key("a float"))
    }
    fn serialize_f64(self, _v: f64) -> Result<String, EncodeError> {
        Err(unsupported_key("a float"))
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<String, EncodeError> {
        Err(unsupported_key("bytes"))
    }
    fn serialize_none(self) -> Result<String, EncodeError> {
        Err(unsupported_key("None"))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<String, EncodeError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<String, EncodeError> {
        Err(unsupported_key("()"))
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<String, EncodeError> {
        Err(unsupported_key("a unit struct"))
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String, EncodeError> {
        Ok(variant.to_owned())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String, EncodeError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<String, EncodeError> {
        Err(unsupported_key("an enum variant with data"))
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, EncodeError> {
        Err(unsupported_key("a sequence"))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, EncodeError> {
        Err(unsupported_key("a tuple"))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, EncodeError> {
        Err(unsupported_key("a tuple struct"))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, EncodeError> {
        Err(unsupported_key("an enum variant with data"))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, EncodeError> {
        Err(unsupported_key("a map"))
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, EncodeError> {
        Err(unsupported_key("a struct"))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, EncodeError> {
        Err(unsupported_key("an enum variant with data"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pretty_layout_is_serde_jsons_byte_for_byte() {
        let mut deep = serde_json::json!({"leaf": [1, {}, [], "x"]});
        for i in 0..(MAX_DEPTH + 20) {
            deep = if i % 2 == 0 {
                serde_json::json!([deep, null])
            } else {
                serde_json::json!({"k": deep, "e": {}})
            };
        }
        for value in [
            serde_json::json!({}),
            serde_json::json!([]),
            serde_json::json!({"a": [1, 2, {"b": null, "c": "é\n\"q\""}], "d": {"e": []}}),
            serde_json::json!(["x", 1.5, true]),
            deep,
        ] {
            assert_eq!(
                pretty(&value),
                serde_json::to_string_pretty(&value).unwrap()
            );
        }
    }

    #[test]
    fn paths_name_fields_indices_and_quoted_keys() {
        let mut rows = std::collections::BTreeMap::new();
        rows.insert("odd key", vec![1.0, f64::INFINITY]);
        let err = encode_json(&rows).unwrap_err();
        assert_eq!(err.path(), "$[\"odd key\"][1]");
        assert!(err.to_string().contains("inf"), "{err}");
    }
}
