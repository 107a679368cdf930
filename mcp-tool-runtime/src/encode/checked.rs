//! [`to_checked_value`]: a payload as a JSON value with sorted keys, refusing non-finite floats,
//! over-deep nesting and keys JSON cannot spell.

use serde::ser::{self, Impossible, Serialize};
use serde_json::{Map, Number, Value};

use super::error::{EncodeError, Segment};

/// The deepest nesting of arrays and objects [`encode_json`](crate::encode_json) writes.
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

/// Turns `payload` into a JSON value with keys in code-point order, refusing what
/// [`encode_json`](crate::encode_json) refuses. This is the value `structuredContent` carries:
/// `{2: "b", 10: "a"}` becomes `{"10": "a", "2": "b"}`.
pub(crate) fn to_checked_value<T: Serialize + ?Sized>(payload: &T) -> Result<Value, EncodeError> {
    payload.serialize(Checked::ROOT)
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
pub(crate) struct Checked {
    depth: usize,
}

impl Checked {
    /// The serializer of a whole payload: at depth 0.
    pub(crate) const ROOT: Checked = Checked { depth: 0 };

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

pub(crate) struct SeqBuilder {
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

pub(crate) struct MapBuilder {
    inner: Checked,
    entries: Entries,
    next_key: Option<String>,
}

/// The entries of an object being built, held the way that costs least for its size.
enum Entries {
    /// Up to [`FEW`] entries, inserted as they come: a handful of ordered inserts into one leaf
    /// cost less than collecting, sorting and bulk-building.
    Few(Map<String, Value>),
    /// More, or a map of unknown size: collected in the order serialized and sorted into a map
    /// once, at the end (one bulk build instead of an insert, with its comparisons and
    /// rebalancing, per entry).
    Many(Vec<(String, Value)>),
}

/// The most entries an object is built by insertion for. Measured with callgrind, `encode_json`
/// of four structs: inserted, a struct of 4, 5 or 6 fields costs 227, 100 and 49 instructions
/// less than bulk-built; of 7 or 8 fields, 144 and 193 more.
const FEW: usize = 6;

impl Entries {
    fn for_len(len: Option<usize>) -> Entries {
        match len {
            Some(len) if len <= FEW => Entries::Few(Map::new()),
            // A length is the serializer's hint; a map's may be anything, so it is capped.
            len => Entries::Many(Vec::with_capacity(len.unwrap_or(0).min(64))),
        }
    }

    fn push(&mut self, key: String, value: Value) {
        match self {
            Entries::Few(map) => {
                map.insert(key, value);
            }
            Entries::Many(entries) => entries.push((key, value)),
        }
    }

    fn into_object(self) -> Value {
        match self {
            Entries::Few(map) => object(map),
            Entries::Many(entries) => object(entries.into_iter().collect()),
        }
    }
}

impl MapBuilder {
    fn insert<T: Serialize + ?Sized>(&mut self, key: String, value: &T) -> Result<(), EncodeError> {
        let item = value
            .serialize(self.inner)
            .map_err(|e| e.within(Segment::Key(&key)))?;
        self.entries.push(key, item);
        Ok(())
    }
}

/// `{"Variant": ...}` wrappers for externally tagged enum variants.
pub(crate) struct VariantBuilder<B> {
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
    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder, EncodeError> {
        Ok(MapBuilder {
            inner: self.nest()?,
            entries: Entries::for_len(len),
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
        Ok(self.entries.into_object())
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
        Ok(self.entries.into_object())
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
        entries.insert(self.variant.to_owned(), self.body.entries.into_object());
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
mod map_tests {
    use serde::Serializer as _;

    use serde::ser::SerializeMap as _;
    use serde_json::{Value, json};

    /// Serializes `entries` as a map whose length hint is `len`, as a `Serialize` impl would.
    fn map_of(len: Option<usize>, entries: &[(&str, i32)]) -> Value {
        let mut map = super::Checked { depth: 0 }.serialize_map(len).unwrap();
        for (key, value) in entries {
            map.serialize_entry(key, value).unwrap();
        }
        map.end().unwrap()
    }

    #[test]
    fn a_key_written_twice_keeps_its_last_value_as_serde_json_does() {
        let entries = [("b", 1), ("a", 2), ("b", 3)];
        let value = super::Checked { depth: 0 }
            .collect_map(entries.iter().map(|(k, v)| (*k, *v)))
            .unwrap();
        assert_eq!(value, json!({"a": 2, "b": 3}));
        // Built by insertion (a few entries) and by one bulk build (more, or no length known):
        // the same object either way.
        for len in [Some(3), Some(super::FEW + 1), None] {
            assert_eq!(map_of(len, &entries), json!({"a": 2, "b": 3}), "{len:?}");
        }
    }

    #[test]
    fn objects_of_every_size_come_out_sorted() {
        let keys = ["k", "j", "i", "h", "g", "f", "e", "d", "c", "b", "a"];
        for n in 0..=keys.len() {
            let entries: Vec<_> = keys[..n].iter().zip(0..).map(|(k, v)| (*k, v)).collect();
            for len in [Some(n), None] {
                let value = map_of(len, &entries);
                let written: Vec<_> = value.as_object().unwrap().keys().cloned().collect();
                let mut sorted = written.clone();
                sorted.sort();
                assert_eq!(written, sorted, "{n} entries, hint {len:?}");
                assert_eq!(written.len(), n);
            }
        }
    }
}
