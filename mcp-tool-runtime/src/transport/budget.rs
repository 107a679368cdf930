//! The element budget: a message's syntax, nesting and number of JSON elements, checked without
//! building it, before rmcp parses it into values that take 12 to 25 times its bytes.

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// The default number of JSON elements (values, keys included) a message may hold: 100,000. The
/// values rmcp builds for a message within it take at most about 10 MB beyond its bytes.
pub const DEFAULT_MAX_ELEMENTS: usize = 100_000;

/// Why a message was not handed on.
pub(crate) enum Refused {
    /// Not JSON (or nested past serde_json's limit of 128 levels).
    Unreadable(serde_json::Error),
    /// More elements than the budget.
    OverBudget,
}

/// Checks `bytes` is one JSON value of at most `max_elements` elements, allocating nothing that
/// grows with it (serde_json's scratch for an escaped string aside, freed at once).
pub(crate) fn check(bytes: &[u8], max_elements: usize) -> Result<(), Refused> {
    let left = Cell::new(max_elements);
    let over = Cell::new(false);
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    let counted = Counter {
        left: &left,
        over: &over,
    }
    .deserialize(&mut reader)
    .and_then(|()| reader.end());
    match counted {
        Ok(()) => Ok(()),
        Err(_) if over.get() => Err(Refused::OverBudget),
        Err(error) => Err(Refused::Unreadable(error)),
    }
}

/// Counts one element and everything inside it against `left`.
#[derive(Clone, Copy)]
struct Counter<'a> {
    left: &'a Cell<usize>,
    over: &'a Cell<bool>,
}

impl Counter<'_> {
    fn take<E: serde::de::Error>(self) -> Result<(), E> {
        match self.left.get().checked_sub(1) {
            Some(left) => {
                self.left.set(left);
                Ok(())
            }
            None => {
                self.over.set(true);
                Err(E::custom(
                    "the message has more JSON elements than this server reads",
                ))
            }
        }
    }
}

impl<'de> DeserializeSeed<'de> for Counter<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

macro_rules! scalar {
    ($($method:ident: $ty:ty),* $(,)?) => {
        $(fn $method<E: serde::de::Error>(self, _: $ty) -> Result<(), E> {
            self.take()
        })*
    };
}

impl<'de> Visitor<'de> for Counter<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    scalar!(
        visit_bool: bool,
        visit_i64: i64,
        visit_u64: u64,
        visit_f64: f64,
        visit_str: &str,
        visit_bytes: &[u8],
    );

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.take()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.take()?;
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.take()?;
        while map.next_key_seed(self)?.is_some() {
            map.next_value_seed(self)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Refused, check};

    #[test]
    fn counts_every_value_and_key() {
        // The object, "a", the array, 1, 2, the inner object, "b", null.
        assert!(check(br#"{"a": [1, 2, {"b": null}]}"#, 8).is_ok());
        assert!(matches!(
            check(br#"{"a": [1, 2, {"b": null}]}"#, 7),
            Err(Refused::OverBudget)
        ));
        assert!(check(b"7", 1).is_ok());
        assert!(matches!(check(b"7", 0), Err(Refused::OverBudget)));
    }

    #[test]
    fn refuses_what_is_not_one_json_value() {
        for bad in [&b"{"[..], b"[1,]", b"1 2", b"{\"a\" 1}", b""] {
            assert!(
                matches!(check(bad, 100), Err(Refused::Unreadable(_))),
                "{bad:?}"
            );
        }
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        assert!(matches!(
            check(deep.as_bytes(), 1_000),
            Err(Refused::Unreadable(_))
        ));
    }

    #[test]
    fn a_huge_array_is_refused_at_the_budget_not_at_its_end() {
        let huge = format!("[{}0]", "0,".repeat(1_000_000));
        assert!(matches!(
            check(huge.as_bytes(), 10),
            Err(Refused::OverBudget)
        ));
    }
}
