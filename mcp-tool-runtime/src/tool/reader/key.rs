//! An object's key, read as serde_json reads one: a string, or the number or `bool` it spells.

use serde::de::{self, Deserializer, Unexpected, Visitor};
use serde::forward_to_deserialize_any;

use super::{PathError, Variant};

/// An object's key, read as serde_json reads one: a string, or the number or `bool` it spells.
pub(super) struct Key<'de>(pub(super) &'de str);

/// A key read as a number is read by serde_json's own parser, and must be a number and nothing
/// else (a JSON number starts with `-` or a digit and ends with a digit).
macro_rules! numeric_key {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
            let numeric = self.0.starts_with(|c: char| c == '-' || c.is_ascii_digit())
                && self.0.ends_with(|c: char| c.is_ascii_digit());
            if !numeric {
                return Err(not_numeric());
            }
            let mut parser = serde_json::Deserializer::from_str(self.0);
            let value = parser.$method(visitor)?;
            parser.end().map_err(|_| not_numeric())?;
            Ok(value)
        }
    )*};
}

/// serde_json's words for a key that is not the number it must be.
fn not_numeric() -> PathError {
    de::Error::custom("invalid value: expected key to be a number in quotes")
}

impl<'de> Deserializer<'de> for Key<'de> {
    type Error = PathError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        visitor.visit_borrowed_str(self.0)
    }

    // A derived struct's field names and a map's `String` keys: read directly, not through
    // `deserialize_any` (one function less per type).
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        visitor.visit_borrowed_str(self.0)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        visitor.visit_borrowed_str(self.0)
    }

    numeric_key! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        match self.0 {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            other => Err(de::Error::invalid_type(Unexpected::Str(other), &visitor)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, PathError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, PathError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, PathError> {
        visitor.visit_enum(Variant {
            name: self.0,
            value: None,
        })
    }

    forward_to_deserialize_any! {
        char str bytes byte_buf unit unit_struct seq tuple tuple_struct map struct ignored_any
    }
}
