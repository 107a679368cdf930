//! The element budget: a message's syntax, nesting and number of JSON elements, checked without
//! building it, before rmcp parses it into values that take 12 to 25 times its bytes; the same
//! pass reads the few fields the HTTP guard decides on (its [`Outline`]), so a message is parsed
//! into rmcp's model once, by rmcp.

use std::cell::{Cell, RefCell};
use std::fmt;

use rmcp::model::{NumberOrString, RequestId};
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

/// What a message says of itself at its top: its `method`, its `id` and its `params.name`, read
/// as the budget is counted. Nothing here says the message is one rmcp reads; only that, if it
/// is, these are its fields.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Outline {
    /// `method`, when it is a string.
    pub(crate) method: Option<String>,
    /// `id`, when it is a string or an integer within `i64`.
    pub(crate) id: Option<RequestId>,
    /// `params.name`, when it is a string.
    pub(crate) name: Option<String>,
    /// One of those keys came twice: the fields are not to be trusted, and the message is to be
    /// read whole.
    pub(crate) repeated: bool,
}

#[cfg(feature = "http")]
impl Outline {
    /// The id of an `initialize` request.
    pub(crate) fn initialize_id(&self) -> Option<&RequestId> {
        (self.method.as_deref() == Some("initialize"))
            .then_some(self.id.as_ref())
            .flatten()
    }

    /// The tool a `tools/call` names.
    pub(crate) fn called_tool(&self) -> Option<&str> {
        (self.method.as_deref() == Some("tools/call"))
            .then_some(self.name.as_deref())
            .flatten()
    }
}

/// Whether `bytes` may hold the JSON string `word` (plain ASCII, its searcher built once): only
/// if they hold its bytes, or an escape, which could spell it otherwise. Where they hold
/// neither, no parse can read `word` from them, so the message is not, say, an `initialize`,
/// without reading it. The word is looked for first: a message that names it is usually told
/// within its first hundred bytes.
#[cfg(feature = "http")]
pub(crate) fn may_name(bytes: &[u8], word: &memchr::memmem::Finder<'_>) -> bool {
    word.find(bytes).is_some() || memchr::memchr(b'\\', bytes).is_some()
}

/// Checks `bytes` is within `max_elements` elements, allocating nothing that grows with it
/// (serde_json's scratch for an escaped string aside, freed at once). A message no longer than
/// the budget cannot exceed it, since every element starts at a byte of its own: it passes
/// unread, and the parse that follows says whether it is JSON. A longer one is counted, and
/// refused if it is not one JSON value.
pub(crate) fn check(bytes: &[u8], max_elements: usize) -> Result<(), Refused> {
    if within(bytes, max_elements) {
        return Ok(());
    }
    counted(bytes, max_elements).map(drop)
}

/// Like [`check`], and returns the message's [`Outline`]. A message within the budget by its
/// length is skimmed (`transport/skim.rs`): serde_json reads the three fields and skips the rest
/// with its own skipping, which neither counts nor builds (about two thirds of the counting
/// pass's cost on a call). One it cannot skim plainly (not UTF-8, not JSON, a key escaped or repeated) is
/// counted instead, which says why.
#[cfg(feature = "http")]
pub(crate) fn outline(bytes: &[u8], max_elements: usize) -> Result<Outline, Refused> {
    if within(bytes, max_elements)
        && let Some(outline) = super::skim::skim(bytes)
    {
        return Ok(outline);
    }
    counted(bytes, max_elements)
}

/// Whether `bytes` are too few to hold more than `max_elements` elements.
fn within(bytes: &[u8], max_elements: usize) -> bool {
    bytes.len() <= max_elements
}

/// The outline and the budget, from one pass counting every element.
pub(crate) fn counted(bytes: &[u8], max_elements: usize) -> Result<Outline, Refused> {
    let left = Cell::new(max_elements);
    let over = Cell::new(false);
    let found = RefCell::new(Outline::default());
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    let counted = Counter {
        left: &left,
        over: &over,
        found: &found,
        spot: Spot::Root,
    }
    .deserialize(&mut reader)
    .and_then(|()| reader.end());
    match counted {
        Ok(()) => Ok(found.into_inner()),
        Err(_) if over.get() => Err(Refused::OverBudget),
        Err(error) => Err(Refused::Unreadable(error)),
    }
}

/// Where in the message a value is.
#[derive(Clone, Copy, PartialEq)]
enum Spot {
    /// The message itself.
    Root,
    /// The top-level `method`.
    Method,
    /// The top-level `id`.
    Id,
    /// The top-level `params`.
    Params,
    /// `params.name`.
    Name,
    /// Anywhere else.
    Elsewhere,
}

/// Counts one element and everything inside it against `left`, noting the outline's fields.
#[derive(Clone, Copy)]
struct Counter<'a> {
    left: &'a Cell<usize>,
    over: &'a Cell<bool>,
    found: &'a RefCell<Outline>,
    spot: Spot,
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

    fn at(self, spot: Spot) -> Self {
        Counter { spot, ..self }
    }

    /// Notes `id`, unless an id was noted already.
    fn note_id(self, id: RequestId) {
        let mut found = self.found.borrow_mut();
        if found.id.replace(id).is_some() {
            found.repeated = true;
        }
    }

    fn note_str(self, value: &str) {
        let mut found = self.found.borrow_mut();
        let slot = match self.spot {
            Spot::Method => &mut found.method,
            Spot::Name => &mut found.name,
            Spot::Id => {
                drop(found);
                return self.note_id(NumberOrString::String(value.into()));
            }
            _ => return,
        };
        if slot.replace(value.to_owned()).is_some() {
            found.repeated = true;
        }
    }

    fn note_integer(self, value: Option<i64>) {
        if self.spot == Spot::Id
            && let Some(value) = value
        {
            self.note_id(NumberOrString::Number(value));
        }
    }

    /// A key of an object at `self.spot`, and the spot of its value.
    fn value_spot(self, key: &str) -> Spot {
        match (self.spot, key) {
            (Spot::Root, "method") => Spot::Method,
            (Spot::Root, "id") => Spot::Id,
            (Spot::Root, "params") => Spot::Params,
            (Spot::Params, "name") => Spot::Name,
            _ => Spot::Elsewhere,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Counter<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// A key, counted, and the spot of the value it names.
struct Key<'a>(Counter<'a>);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = Spot;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Spot, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key<'_> {
    type Value = Spot;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Spot, E> {
        self.0.take()?;
        Ok(self.0.value_spot(key))
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

    scalar!(visit_bool: bool, visit_f64: f64, visit_bytes: &[u8]);

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<(), E> {
        self.take()?;
        self.note_integer(Some(value));
        Ok(())
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<(), E> {
        self.take()?;
        self.note_integer(i64::try_from(value).ok());
        Ok(())
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<(), E> {
        self.take()?;
        self.note_str(value);
        Ok(())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.take()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.take()?;
        let inside = self.at(Spot::Elsewhere);
        while seq.next_element_seed(inside)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.take()?;
        let inside = match self.spot {
            Spot::Root | Spot::Params => self,
            _ => self.at(Spot::Elsewhere),
        };
        while let Some(spot) = map.next_key_seed(Key(inside))? {
            map.next_value_seed(inside.at(spot))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Refused, check, counted};
    #[cfg(feature = "http")]
    use {
        super::{Outline, outline},
        rmcp::model::NumberOrString,
    };

    #[cfg(feature = "http")]
    #[test]
    fn a_word_may_be_named_by_its_bytes_or_by_an_escape_and_only_so() {
        let word = memchr::memmem::Finder::new("initialize");
        let may = |text: &str| super::may_name(text.as_bytes(), &word);
        assert!(may(r#"{"method":"initialize","id":1}"#));
        // Escaped, the word's bytes are not there, but a parse reads it.
        assert!(may(r#"{"method":"\u0069nitialize","id":1}"#));
        // Any escape, anywhere, may spell it.
        assert!(may(r#"{"method":"tools/list","params":{"x":"\n"}}"#));
        assert!(!may(r#"{"method":"tools/list","id":1}"#));
        assert!(!may(r#"{"method":"initializ","id":1}"#));
        assert!(!may(""));
    }

    #[cfg(feature = "http")]
    #[test]
    fn the_outline_is_read_where_the_fields_are_and_nowhere_else() {
        let read = |text: &str| outline(text.as_bytes(), 1_000).ok().unwrap();
        let call = read(
            r#"{"params":{"arguments":{"name":"not this","method":"x"},"name":"get\u0041"},
                "jsonrpc":"2.0","id":7,"method":"tools/call"}"#,
        );
        assert_eq!(call.called_tool(), Some("getA"));
        assert_eq!(call.id, Some(NumberOrString::Number(7)));
        assert!(!call.repeated);
        let initialize = read(r#"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{}}"#);
        assert_eq!(
            initialize.initialize_id(),
            Some(&NumberOrString::String("a".into()))
        );
        assert_eq!(initialize.called_tool(), None);
        // Not at the top: no field.
        assert_eq!(
            read(r#"[{"method":"tools/call","id":1}]"#),
            Outline::default()
        );
        assert_eq!(
            read(r#"{"x":{"method":"initialize","id":1}}"#),
            Outline::default()
        );
        // An id out of range, or of another type, is no id.
        assert_eq!(read(r#"{"id":18446744073709551615}"#).id, None);
        assert_eq!(read(r#"{"id":1.5}"#).id, None);
        // A repeated key is noticed, whichever its place.
        assert!(read(r#"{"method":"tools/call","params":{"name":"a","name":"b"}}"#).repeated);
        assert!(read(r#"{"id":1,"method":"tools/call","id":2}"#).repeated);
        assert!(read(r#"{"method":"a","method":"b"}"#).repeated);
    }

    #[cfg(feature = "http")]
    #[test]
    fn keys_count_against_the_budget_in_the_outline_too() {
        assert!(outline(br#"{"method":"x"}"#, 3).is_ok());
        assert!(matches!(
            outline(br#"{"method":"x"}"#, 2),
            Err(Refused::OverBudget)
        ));
    }

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
                matches!(counted(bad, 100), Err(Refused::Unreadable(_))),
                "{bad:?}"
            );
        }
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        assert!(matches!(
            counted(deep.as_bytes(), 1_000),
            Err(Refused::Unreadable(_))
        ));
        // Longer than its budget, it is counted by `check` too, and refused there.
        assert!(matches!(
            check(deep.as_bytes(), 300),
            Err(Refused::Unreadable(_))
        ));
    }

    #[test]
    fn a_message_no_longer_than_its_budget_is_not_counted() {
        // Every element starts at a byte of its own: 11 bytes hold at most 11 elements.
        let dense = b"[0,0,0,0,0]";
        assert!(matches!(counted(dense, 5), Err(Refused::OverBudget)));
        assert!(counted(dense, 6).is_ok());
        assert!(check(dense, 11).is_ok());
        // What is not JSON passes, to be refused by the parse that follows.
        assert!(check(b"[1,]", 4).is_ok());
        assert!(matches!(check(b"[1,]", 3), Err(Refused::Unreadable(_))));
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
