//! `encode_json`: stable bytes, sorted keys, refusals with paths.

use std::collections::{BTreeMap, HashMap};

use mcp_tool_runtime::{encode::EncodeError, encode::MAX_DEPTH, encode_json};
use proptest::prelude::*;
use serde::Serialize;
use serde::ser::{SerializeSeq, Serializer};
use serde_json::{Value, json};

#[derive(Serialize)]
struct Unordered {
    zebra: u8,
    apple: Inner,
    mango: Vec<Inner>,
}

#[derive(Serialize)]
struct Inner {
    y: &'static str,
    b: bool,
}

#[test]
fn keys_are_sorted_at_every_depth_whatever_the_declaration_order() {
    let payload = Unordered {
        zebra: 1,
        apple: Inner { y: "é", b: true },
        mango: vec![Inner { y: "z", b: false }],
    };
    let text = encode_json(&payload).unwrap();
    assert_eq!(
        text,
        "{\n  \"apple\": {\n    \"b\": true,\n    \"y\": \"é\"\n  },\n  \"mango\": [\n    {\n      \"b\": false,\n      \"y\": \"z\"\n    }\n  ],\n  \"zebra\": 1\n}"
    );
}

#[test]
fn keys_sort_by_code_point_and_non_ascii_is_written_as_utf8() {
    let mut map = HashMap::new();
    for key in ["é", "z", "Z", "a", "日本", "_"] {
        map.insert(key, "ü");
    }
    let text = encode_json(&map).unwrap();
    let keys: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix('"'))
        .map(|l| l.split('"').next().unwrap())
        .collect();
    assert_eq!(keys, ["Z", "_", "a", "z", "é", "日本"]);
    assert!(text.contains("\"ü\""));
    assert!(!text.contains("\\u"));
}

#[test]
fn the_same_payload_gives_the_same_bytes_every_time() {
    let mut map = HashMap::new();
    for i in 0..200 {
        map.insert(format!("key{i}"), i);
    }
    let first = encode_json(&map).unwrap();
    for _ in 0..5 {
        let rebuilt: HashMap<String, i32> = map.clone().into_iter().collect();
        assert_eq!(encode_json(&rebuilt).unwrap(), first);
    }
}

#[test]
fn values_that_serialize_as_strings_stay_strings() {
    #[derive(Serialize)]
    struct Stamped {
        id: uuid::Uuid,
        at: chrono::DateTime<chrono::Utc>,
        #[serde(with = "time::serde::rfc3339")]
        at_time: time::OffsetDateTime,
        amount: rust_decimal::Decimal,
    }
    let payload = Stamped {
        id: uuid::Uuid::parse_str("67e55044-10b1-426f-9247-bb680e5fe0c8").unwrap(),
        at: chrono::DateTime::parse_from_rfc3339("2026-11-30T08:00:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc),
        at_time: time::macros::datetime!(2026-11-30 08:00 UTC),
        amount: "12.50".parse().unwrap(),
    };
    let value: Value = serde_json::from_str(&encode_json(&payload).unwrap()).unwrap();
    assert_eq!(
        value,
        json!({
            "amount": "12.50",
            "at": "2026-11-30T08:00:00Z",
            "at_time": "2026-11-30T08:00:00Z",
            "id": "67e55044-10b1-426f-9247-bb680e5fe0c8",
        })
    );
}

#[test]
fn non_string_map_keys_become_key_strings_sorted_as_strings() {
    let ints: BTreeMap<i32, &str> = [(10, "ten"), (9, "nine"), (-1, "minus")].into();
    assert_eq!(
        encode_json(&ints).unwrap(),
        "{\n  \"-1\": \"minus\",\n  \"10\": \"ten\",\n  \"9\": \"nine\"\n}"
    );
    let bools: BTreeMap<bool, u8> = [(true, 1), (false, 0)].into();
    assert_eq!(
        encode_json(&bools).unwrap(),
        "{\n  \"false\": 0,\n  \"true\": 1\n}"
    );

    #[derive(Serialize, PartialEq, Eq, Hash)]
    enum Color {
        Red,
        Blue,
    }
    let colors: HashMap<Color, u8> = [(Color::Red, 1), (Color::Blue, 2)].into();
    assert_eq!(
        encode_json(&colors).unwrap(),
        "{\n  \"Blue\": 2,\n  \"Red\": 1\n}"
    );
}

#[test]
fn a_non_finite_float_is_refused_with_its_path() {
    #[derive(Serialize)]
    struct Row {
        ratio: f64,
    }
    #[derive(Serialize)]
    struct Report {
        rows: Vec<Row>,
    }
    let rows = (0..5)
        .map(|i| Row {
            ratio: if i == 3 { f64::NAN } else { 0.5 },
        })
        .collect();
    let err = encode_json(&Report { rows }).unwrap_err();
    assert!(matches!(err, EncodeError::NonFiniteFloat { .. }));
    assert_eq!(err.path(), "$.rows[3].ratio");
    assert!(err.to_string().contains("$.rows[3].ratio"), "{err}");
    assert!(err.to_string().contains("NaN"), "{err}");

    assert_eq!(
        encode_json(&vec![f32::NEG_INFINITY]).unwrap_err().path(),
        "$[0]"
    );
}

/// A list nested `depth` levels deep, produced by `Serialize` itself rather than a
/// `serde_json::Value` (whose own drop would overflow the stack first).
struct Nested {
    depth: usize,
}

impl Serialize for Nested {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(1))?;
        if self.depth > 1 {
            seq.serialize_element(&Nested {
                depth: self.depth - 1,
            })?;
        }
        seq.end()
    }
}

#[test]
fn nesting_past_the_limit_is_an_error_not_a_stack_overflow() {
    let err = encode_json(&Nested { depth: 100_000 }).unwrap_err();
    assert!(
        matches!(
            err,
            EncodeError::TooDeep {
                limit: MAX_DEPTH,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.path().starts_with("$[0][0]"));

    // The limit itself is fine, one more level is not.
    assert!(encode_json(&Nested { depth: MAX_DEPTH }).is_ok());
    assert!(
        encode_json(&Nested {
            depth: MAX_DEPTH + 1
        })
        .is_err()
    );
}

#[test]
fn integers_outside_64_bits_are_refused() {
    assert!(encode_json(&u128::MAX).is_err());
    assert_eq!(
        encode_json(&(u64::MAX as u128)).unwrap(),
        u64::MAX.to_string()
    );
    assert_eq!(
        encode_json(&i128::from(i64::MIN)).unwrap(),
        i64::MIN.to_string()
    );
}

#[test]
fn f32_is_written_in_its_shortest_form() {
    assert_eq!(encode_json(&0.1f32).unwrap(), "0.1");
}

/// A payload type whose objects are `BTreeMap`s: keys already in code-point order.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
enum Payload {
    Null(()),
    Bool(bool),
    Signed(i64),
    Unsigned(u64),
    Float(f64),
    Text(String),
    List(Vec<Payload>),
    Object(BTreeMap<String, Payload>),
}

fn payload() -> impl Strategy<Value = Payload> {
    let leaf = prop_oneof![
        Just(Payload::Null(())),
        any::<bool>().prop_map(Payload::Bool),
        any::<i64>().prop_map(Payload::Signed),
        any::<u64>().prop_map(Payload::Unsigned),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Payload::Float),
        "\\PC{0,12}".prop_map(Payload::Text),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Payload::List),
            prop::collection::btree_map("\\PC{0,8}", inner, 0..6).prop_map(Payload::Object),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn sorted_payloads_encode_exactly_as_serde_json_pretty(payload in payload()) {
        prop_assert_eq!(
            encode_json(&payload).unwrap(),
            serde_json::to_string_pretty(&payload).unwrap()
        );
    }
}
