//! Reads the bytes of an image or audio payload straight from its `Serialize` impl (`Vec<u8>`,
//! `&[u8]`, `serde_bytes`, or a base64 `String`), without building a JSON array of numbers first.

use std::fmt;

use serde::ser::{self, Impossible, Serialize};

/// The bytes of a media payload, as the tool returned them.
pub(crate) enum Media {
    Bytes(Vec<u8>),
    Base64(String),
}

/// What arrived where bytes were declared, for the error message.
pub(crate) struct MediaMismatch(pub(crate) String);

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
pub(crate) struct MediaSerializer;

pub(crate) struct ByteCollector(Vec<u8>);

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
