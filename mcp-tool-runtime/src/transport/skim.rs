//! The skim: a message's [`Outline`] read by serde_json's own skipping, for a message too short to
//! exceed its element budget, so nothing in it needs counting.
//!
//! The counting pass visits every value; the skim reads `method`, `id` and `params.name` and
//! skips the rest with serde_json's skipping (`IgnoredAny`), which neither counts nor builds.
//! It answers only where it reads the message plainly: UTF-8, one JSON value, no key escaped or
//! repeated at the two levels it reads. Anything else is left to the counting pass, which says
//! why. What serde_json's skipping lets through that a full parse does not (a lone surrogate
//! escape or nesting past 128 levels, inside a skipped value) rmcp's parse refuses, and the
//! guard answers it as it answers every message rmcp cannot read.

use std::fmt;

use rmcp::model::{NumberOrString, RequestId};
use serde::de::{DeserializeSeed, Deserializer, Error, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::budget::Outline;

/// The outline of `bytes`, if they are plainly one JSON value.
pub(crate) fn skim(bytes: &[u8]) -> Option<Outline> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut reader = serde_json::Deserializer::from_str(text);
    let outline = Level::Message.deserialize(&mut reader).ok()?;
    reader.end().ok()?;
    Some(outline)
}

/// The level of the message an object is read at: the two where fields are read.
#[derive(Clone, Copy)]
enum Level {
    Message,
    Params,
}

impl<'de> DeserializeSeed<'de> for Level {
    type Value = Outline;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Outline, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Level {
    type Value = Outline;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: Error>(self, _: bool) -> Result<Outline, E> {
        Ok(Outline::default())
    }

    fn visit_i64<E: Error>(self, _: i64) -> Result<Outline, E> {
        Ok(Outline::default())
    }

    fn visit_u64<E: Error>(self, _: u64) -> Result<Outline, E> {
        Ok(Outline::default())
    }

    fn visit_f64<E: Error>(self, _: f64) -> Result<Outline, E> {
        Ok(Outline::default())
    }

    fn visit_str<E: Error>(self, _: &str) -> Result<Outline, E> {
        Ok(Outline::default())
    }

    fn visit_unit<E: Error>(self) -> Result<Outline, E> {
        Ok(Outline::default())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Outline, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Outline::default())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Outline, A::Error> {
        let mut outline = Outline::default();
        // A key escaped (not borrowable) fails here, and the counting pass reads the message.
        while let Some(key) = map.next_key::<&'de str>()? {
            match (self, key) {
                (Level::Message, "method") => {
                    let Field(value) = map.next_value()?;
                    set(&mut outline.method, value.and_then(Scalar::text))?;
                }
                (Level::Message, "id") => {
                    let Field(value) = map.next_value()?;
                    set(&mut outline.id, value.and_then(Scalar::id))?;
                }
                (Level::Message, "params") => {
                    let params = map.next_value_seed(Level::Params)?;
                    set(&mut outline.name, params.name)?;
                }
                (Level::Params, "name") => {
                    let Field(value) = map.next_value()?;
                    set(&mut outline.name, value.and_then(Scalar::text))?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(outline)
    }
}

/// Fills `slot` once. A field the outline reads that comes twice makes the skim give up, so the
/// counting pass notes it and the guard reads the message whole.
fn set<T, E: Error>(slot: &mut Option<T>, value: Option<T>) -> Result<(), E> {
    if slot.is_some() {
        return Err(E::custom("a field the outline reads came twice"));
    }
    *slot = value;
    Ok(())
}

/// A field's value, if it is one the outline keeps: a string or an integer within `i64`.
struct Field(Option<Scalar>);

enum Scalar {
    Text(String),
    Integer(i64),
}

impl Scalar {
    fn text(self) -> Option<String> {
        match self {
            Scalar::Text(text) => Some(text),
            Scalar::Integer(_) => None,
        }
    }

    fn id(self) -> Option<RequestId> {
        Some(match self {
            Scalar::Text(text) => NumberOrString::String(text.into()),
            Scalar::Integer(number) => NumberOrString::Number(number),
        })
    }
}

impl<'de> serde::Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Field, D::Error> {
        deserializer.deserialize_any(FieldVisitor)
    }
}

struct FieldVisitor;

impl<'de> Visitor<'de> for FieldVisitor {
    type Value = Field;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: Error>(self, _: bool) -> Result<Field, E> {
        Ok(Field(None))
    }

    fn visit_i64<E: Error>(self, value: i64) -> Result<Field, E> {
        Ok(Field(Some(Scalar::Integer(value))))
    }

    fn visit_u64<E: Error>(self, value: u64) -> Result<Field, E> {
        Ok(Field(i64::try_from(value).ok().map(Scalar::Integer)))
    }

    fn visit_f64<E: Error>(self, _: f64) -> Result<Field, E> {
        Ok(Field(None))
    }

    fn visit_str<E: Error>(self, value: &str) -> Result<Field, E> {
        Ok(Field(Some(Scalar::Text(value.to_owned()))))
    }

    fn visit_unit<E: Error>(self) -> Result<Field, E> {
        Ok(Field(None))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Field, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Field(None))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Field, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Field(None))
    }
}

#[cfg(test)]
mod tests {
    use super::skim;
    use crate::transport::budget::{Refused, counted};

    /// Wherever the skim answers, it answers as the counting pass does; where it does not, the
    /// counting pass has something to say (a repeat, an error, an escaped key).
    #[test]
    fn the_skim_reads_what_the_counting_pass_reads() {
        let messages = [
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get","arguments":{"name":"no","method":"x","id":3}}}"#,
            r#"{"params":{"arguments":{"name":"not this"},"name":"getA"},"id":"s","method":"tools/call"}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{}}"#,
            r#"{"method":"tools/call","id":-3,"params":{"name":7}}"#,
            r#"{"method":["tools/call"],"id":{"n":1},"params":{"name":{"x":"y"}}}"#,
            r#"{"method":null,"id":null,"params":null}"#,
            r#"{"params":[{"name":"x"}],"id":1.5,"method":true}"#,
            r#"{"id":18446744073709551615}"#,
            r#"{"id":9223372036854775807,"method":"ping"}"#,
            r#"[{"method":"tools/call","id":1}]"#,
            r#"{"x":{"method":"initialize","id":1}}"#,
            r#""tools/call""#,
            "7",
            "null",
            r#"{"method":"tools/call","params":{"name":"a","name":"b"}}"#,
            r#"{"id":1,"method":"tools/call","id":2}"#,
            r#"{"params":{},"params":{"name":"b"}}"#,
            r#"{"\u006dethod":"initialize","id":1}"#,
            r#"{"method":"get\u0041","params":{"name":"a\nb"}}"#,
            r#"{"method":"tools/call","#,
            "[1,]",
            "1 2",
            "",
        ];
        let mut skimmed = 0;
        for message in messages {
            let counted = counted(message.as_bytes(), usize::MAX);
            match (skim(message.as_bytes()), counted) {
                (Some(skim), Ok(counted)) => {
                    skimmed += 1;
                    assert_eq!(skim, counted, "{message}");
                }
                (Some(_), Err(_)) => panic!("{message}: skimmed, but the counting pass refused it"),
                (None, Ok(counted)) => assert!(
                    counted.repeated || message.contains(r"\u006d"),
                    "{message}: the skim gave up where the counting pass saw nothing"
                ),
                (None, Err(_)) => {}
            }
        }
        assert_eq!(skimmed, 16);
    }

    /// serde_json's skipping has no depth limit: a value nested past serde_json's 128 levels is
    /// skimmed, and left to rmcp's parse to refuse (as it does, and the guard answers it).
    #[test]
    fn what_is_deep_inside_a_skipped_value_is_left_to_the_parse() {
        let deep = format!(r#"{{"id":1,"a":{}1{}}}"#, "[".repeat(200), "]".repeat(200));
        assert_eq!(
            skim(deep.as_bytes()).and_then(|o| o.id),
            Some(rmcp::model::NumberOrString::Number(1))
        );
        assert!(matches!(
            counted(deep.as_bytes(), usize::MAX),
            Err(Refused::Unreadable(_))
        ));
        assert!(serde_json::from_str::<rmcp::model::ClientJsonRpcMessage>(&deep).is_err());
    }

    #[test]
    fn bytes_that_are_not_utf_8_are_not_skimmed() {
        assert_eq!(skim(b"{\"x\":\"\xff\"}"), None);
        assert!(skim(br#"{"x":"a"}"#).is_some());
    }
}
