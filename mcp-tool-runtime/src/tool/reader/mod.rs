//! The deserializer a call's arguments are read through: serde_json's reading of a `Value`, with
//! the path to an error.
//!
//! serde_json reads every scalar here, so what a value deserializes to, and every message, is
//! serde_json's; this file only walks arrays, objects and enums, so that an error raised inside
//! one learns the index or key it was raised under on its way out. That costs nothing on a call
//! that reads well (no path is kept until something fails), and it compiles to a few small
//! functions per argument type: `serde_path_to_error`, which does the same for any deserializer by
//! wrapping every visitor, compiled about 400 lines of LLVM IR per argument struct, most of what a
//! crate of tools spent building its argument reading.

mod key;

use std::fmt::{self, Display, Write as _};

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, Expected, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Number, Value};

use key::Key;

/// Reads `value` as `T`.
pub(crate) fn from_value<'de, T: de::Deserialize<'de>>(value: &'de Value) -> Result<T, PathError> {
    T::deserialize(Node(value))
}

/// One step from a value into a part of it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Index(usize),
    Key(String),
}

/// A serde_json error, and where in the value read it was raised.
#[derive(Debug)]
pub(crate) struct PathError {
    /// From the innermost step out: each level pushes its own as the error leaves it.
    outward: Vec<Segment>,
    inner: serde_json::Error,
}

impl PathError {
    fn under(mut self, segment: Segment) -> Self {
        self.outward.push(segment);
        self
    }

    fn under_key(self, key: &str) -> Self {
        self.under(Segment::Key(key.to_owned()))
    }

    /// serde_json's error.
    pub(crate) fn inner(&self) -> &serde_json::Error {
        &self.inner
    }

    /// Where the error was raised, as `lines[1].quantity`; `None` at the root.
    pub(crate) fn path(&self) -> Option<String> {
        if self.outward.is_empty() {
            return None;
        }
        let mut path = String::new();
        for segment in self.outward.iter().rev() {
            match segment {
                Segment::Index(index) => {
                    let _ = write!(path, "[{index}]");
                }
                Segment::Key(key) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(key);
                }
            }
        }
        Some(path)
    }
}

impl From<serde_json::Error> for PathError {
    fn from(inner: serde_json::Error) -> Self {
        PathError {
            outward: Vec::new(),
            inner,
        }
    }
}

impl Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.path() {
            Some(path) => write!(f, "{path}: {}", self.inner),
            None => self.inner.fmt(f),
        }
    }
}

impl std::error::Error for PathError {}

/// Every message is serde_json's own: its error formats `null` and floats the JSON way.
impl de::Error for PathError {
    fn custom<T: Display>(message: T) -> Self {
        serde_json::Error::custom(message).into()
    }

    fn invalid_type(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        <serde_json::Error as de::Error>::invalid_type(unexpected, expected).into()
    }

    fn invalid_value(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        <serde_json::Error as de::Error>::invalid_value(unexpected, expected).into()
    }

    fn invalid_length(len: usize, expected: &dyn Expected) -> Self {
        <serde_json::Error as de::Error>::invalid_length(len, expected).into()
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        <serde_json::Error as de::Error>::unknown_variant(variant, expected).into()
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        <serde_json::Error as de::Error>::unknown_field(field, expected).into()
    }

    fn missing_field(field: &'static str) -> Self {
        <serde_json::Error as de::Error>::missing_field(field).into()
    }

    fn duplicate_field(field: &'static str) -> Self {
        <serde_json::Error as de::Error>::duplicate_field(field).into()
    }
}

fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => number_unexpected(n),
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

fn number_unexpected(n: &Number) -> Unexpected<'static> {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => Unexpected::Unsigned(u),
        (None, Some(i)) => Unexpected::Signed(i),
        _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
    }
}

/// Not generic over the visitor: only its `Expected` is needed.
fn invalid_type(value: &Value, expected: &dyn Expected) -> PathError {
    de::Error::invalid_type(unexpected(value), expected)
}

/// The token serde_json's `RawValue` deserializes through, which only serde_json can read.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// A value being read.
#[derive(Clone, Copy)]
struct Node<'de>(&'de Value);

/// serde_json reads a scalar; its error has no path yet.
macro_rules! scalar {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
            Ok(self.0.$method(visitor)?)
        }
    )*};
}

impl<'de> Deserializer<'de> for Node<'de> {
    type Error = PathError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Array(items) => visit_array(items, visitor),
            Value::Object(map) => visit_object(map, visitor),
            scalar => Ok(scalar.deserialize_any(visitor)?),
        }
    }

    scalar! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_unit deserialize_identifier
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Array(items) => visit_array(items, visitor),
            other => Ok(other.deserialize_bytes(visitor)?),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, PathError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, PathError> {
        if name == RAW_VALUE_TOKEN {
            return Ok(self.0.deserialize_newtype_struct(name, visitor)?);
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Array(items) => visit_array(items, visitor),
            other => Err(invalid_type(other, &visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, PathError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, PathError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Object(map) => visit_object(map, visitor),
            other => Err(invalid_type(other, &visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Array(items) => visit_array(items, visitor),
            Value::Object(map) => visit_object(map, visitor),
            other => Err(invalid_type(other, &visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        match self.0 {
            Value::Object(map) => Object(map).deserialize_enum(name, variants, visitor),
            Value::String(variant) => visitor.visit_enum(Variant {
                name: variant,
                value: None,
            }),
            other => Err(invalid_type(other, &"string or map")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        visitor.visit_unit()
    }
}

/// An object read as a whole: what serde_json's `&Map` deserializer does.
pub(crate) struct Object<'de>(pub(crate) &'de Map<String, Value>);

impl<'de> Deserializer<'de> for Object<'de> {
    type Error = PathError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        visit_object(self.0, visitor)
    }

    // A struct or a map is what `#[args]` types are: read directly, not through
    // `deserialize_any` (one function less per type).
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        visit_object(self.0, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        visit_object(self.0, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        let mut entries = self.0.iter();
        match (entries.next(), entries.next()) {
            (Some((name, value)), None) => visitor.visit_enum(Variant {
                name,
                value: Some(value),
            }),
            _ => Err(de::Error::invalid_value(
                Unexpected::Map,
                &"map with a single key",
            )),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct identifier
    }
}

// The functions generic over a visitor or seed are compiled once per argument type: they hold
// only what needs the type, with matches instead of `?` and closures (each one more function per
// type), and leave the rest to the non-generic functions beside them.

fn visit_array<'de, V: Visitor<'de>>(
    items: &'de [Value],
    visitor: V,
) -> Result<V::Value, PathError> {
    let mut seq = Items {
        items: items.iter(),
        index: 0,
    };
    match visitor.visit_seq(&mut seq) {
        Ok(value) => match seq.left_over(items.len()) {
            None => Ok(value),
            Some(error) => Err(error),
        },
        Err(error) => Err(error),
    }
}

fn visit_object<'de, V: Visitor<'de>>(
    map: &'de Map<String, Value>,
    visitor: V,
) -> Result<V::Value, PathError> {
    let mut entries = Entries {
        entries: map.iter(),
        value: None,
    };
    match visitor.visit_map(&mut entries) {
        Ok(value) => match entries.left_over(map.len()) {
            None => Ok(value),
            Some(error) => Err(error),
        },
        Err(error) => Err(error),
    }
}

struct Items<'de> {
    items: std::slice::Iter<'de, Value>,
    index: usize,
}

impl Items<'_> {
    /// serde_json's error for a visitor that stopped before the end of the array.
    fn left_over(&self, len: usize) -> Option<PathError> {
        (self.items.len() != 0).then(|| de::Error::invalid_length(len, &"fewer elements in array"))
    }
}

impl<'de> SeqAccess<'de> for Items<'de> {
    type Error = PathError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, PathError> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        self.index += 1;
        match seed.deserialize(Node(item)) {
            Ok(value) => Ok(Some(value)),
            Err(error) => Err(error.under(Segment::Index(self.index - 1))),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Entries<'de> {
    entries: serde_json::map::Iter<'de>,
    /// The key and value of the entry whose key was read last.
    value: Option<(&'de str, &'de Value)>,
}

impl<'de> Entries<'de> {
    /// The next entry's key, its value kept for `next_value_seed` or `next_value`.
    fn advance(&mut self) -> Option<&'de str> {
        let (key, value) = self.entries.next()?;
        self.value = Some((key, value));
        Some(key)
    }

    /// The entry whose key was read last, for `next_value_seed` or `next_value`; an error if no
    /// key was read before it.
    fn held(&mut self) -> Result<(&'de str, &'de Value), PathError> {
        self.value
            .take()
            .ok_or_else(|| de::Error::custom("value is missing"))
    }

    /// serde_json's error for a visitor that stopped before the end of the object.
    fn left_over(&self, len: usize) -> Option<PathError> {
        (self.entries.len() != 0).then(|| de::Error::invalid_length(len, &"fewer elements in map"))
    }
}

impl<'de> MapAccess<'de> for Entries<'de> {
    type Error = PathError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, PathError> {
        let Some(key) = self.advance() else {
            return Ok(None);
        };
        // A key that cannot be read (an unknown field, a key that is not the number it must be)
        // is where the error is, named as it was sent.
        match seed.deserialize(Key(key)) {
            Ok(key) => Ok(Some(key)),
            Err(error) => Err(error.under_key(key)),
        }
    }

    // `next_key` and `next_value` as `next_key_seed` and `next_value_seed` do them, without the
    // `PhantomData` seed: what a derived `Deserialize` calls, each one function less per type.
    fn next_key<K: de::Deserialize<'de>>(&mut self) -> Result<Option<K>, PathError> {
        let Some(key) = self.advance() else {
            return Ok(None);
        };
        match K::deserialize(Key(key)) {
            Ok(key) => Ok(Some(key)),
            Err(error) => Err(error.under_key(key)),
        }
    }

    fn next_value<T: de::Deserialize<'de>>(&mut self) -> Result<T, PathError> {
        let (key, value) = self.held()?;
        match T::deserialize(Node(value)) {
            Ok(value) => Ok(value),
            Err(error) => Err(error.under_key(key)),
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, PathError> {
        let (key, value) = self.held()?;
        match seed.deserialize(Node(value)) {
            Ok(value) => Ok(value),
            Err(error) => Err(error.under_key(key)),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// An enum's variant: its name, and the value beside it in a one-key object.
struct Variant<'de> {
    name: &'de str,
    value: Option<&'de Value>,
}

impl<'de> EnumAccess<'de> for Variant<'de> {
    type Error = PathError;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), PathError> {
        let name = de::value::BorrowedStrDeserializer::<PathError>::new(self.name);
        Ok((seed.deserialize(name)?, self))
    }
}

impl Variant<'_> {
    fn under<T>(&self, read: Result<T, PathError>) -> Result<T, PathError> {
        match read {
            Ok(value) => Ok(value),
            Err(error) => Err(error.under_key(self.name)),
        }
    }
}

impl<'de> VariantAccess<'de> for Variant<'de> {
    type Error = PathError;

    fn unit_variant(self) -> Result<(), PathError> {
        match self.value {
            Some(value) => self.under(de::Deserialize::deserialize(Node(value))),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, PathError> {
        self.under(match self.value {
            Some(value) => seed.deserialize(Node(value)),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"newtype variant",
            )),
        })
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, PathError> {
        self.under(match self.value {
            Some(Value::Array(items)) if items.is_empty() => visitor.visit_unit(),
            Some(Value::Array(items)) => visit_array(items, visitor),
            Some(other) => Err(invalid_type(other, &"tuple variant")),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            )),
        })
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        self.under(match self.value {
            Some(Value::Object(map)) => visit_object(map, visitor),
            Some(other) => Err(invalid_type(other, &"struct variant")),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"struct variant",
            )),
        })
    }
}

#[cfg(test)]
mod tests;
