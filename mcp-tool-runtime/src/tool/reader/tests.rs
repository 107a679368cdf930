//! The reader against serde_json and serde_path_to_error: the same values, messages and paths.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::*;

#[derive(Debug, PartialEq, Deserialize)]
struct Line {
    sku: String,
    quantity: u32,
    #[serde(default)]
    note: Option<String>,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Order {
    customer: String,
    lines: Vec<Line>,
    #[serde(default)]
    tags: BTreeMap<String, u8>,
    priority: Option<Priority>,
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Priority {
    Low,
    High,
}

#[derive(Debug, PartialEq, Deserialize)]
enum Shape {
    Dot,
    Circle(f64),
    Rect(u32, u32),
    Poly { points: Vec<(i32, i32)> },
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(tag = "kind")]
enum Tagged {
    Card { last4: String },
    Cash,
}

#[derive(Debug, PartialEq, Deserialize)]
#[serde(untagged)]
enum Either {
    Number(i64),
    Words(Vec<String>),
}

#[derive(Debug, PartialEq, Deserialize)]
struct Flat {
    id: u64,
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[derive(Debug, PartialEq, Deserialize)]
struct Cents(u64);

#[derive(Debug, PartialEq, Deserialize)]
struct Unit;

/// What serde_json and serde_path_to_error make of `value` as `T`: the value or the message,
/// and the path to an error (`None` at the root).
fn reference<T: DeserializeOwned>(value: &Value) -> Result<T, (String, Option<String>)> {
    let plain = T::deserialize(value).map_err(|e| e.to_string());
    let tracked = serde_path_to_error::deserialize::<_, T>(value);
    match (plain, tracked) {
        (Ok(value), Ok(_)) => Ok(value),
        (Err(message), Err(error)) => {
            let path = error.path().to_string();
            Err((message, (path != ".").then_some(path)))
        }
        _ => panic!("serde_json and serde_path_to_error disagree on {value}"),
    }
}

fn same<T: DeserializeOwned + PartialEq + Debug>(values: &[Value]) {
    for value in values {
        let ours = from_value::<T>(value).map_err(|e| (e.inner().to_string(), e.path()));
        let mut theirs = reference::<T>(value);
        // Where serde_path_to_error cannot name a key that failed to read (`?`), the reader
        // names it as it was sent.
        if let (Err((_, Some(ours))), Err((_, Some(path)))) = (&ours, &mut theirs)
            && let Some(parent) = path.strip_suffix('?')
        {
            let key = ours.strip_prefix(parent).expect("the same parent");
            assert!(!key.is_empty(), "{ours}");
            *path = ours.clone();
        }
        assert_eq!(ours, theirs, "{} from {value}", std::any::type_name::<T>());
        if let Value::Object(map) = value {
            let ours = T::deserialize(Object(map)).map_err(|e| (e.inner().to_string(), e.path()));
            let theirs = T::deserialize(map).map_err(|e| e.to_string());
            assert_eq!(ours.map_err(|(m, _)| m), theirs, "from the map {value}");
        }
    }
}

#[test]
fn structs_read_and_fail_as_serde_json_reads_them_with_the_path_serde_path_to_error_finds() {
    same::<Order>(&[
        json!({"customer": "ACME", "lines": [{"sku": "A", "quantity": 2}], "priority": "high"}),
        json!({"customer": "ACME", "lines": [{"sku": "A", "quantity": 2, "note": "x"}, {"sku": "B", "quantity": "3"}]}),
        json!({"customer": "ACME", "lines": [{"sku": "A", "quantity": -1}]}),
        json!({"customer": "ACME", "lines": [{"sku": "A"}]}),
        json!({"customer": "ACME", "lines": [], "tags": {"vip": 300}}),
        json!({"customer": "ACME", "lines": [], "colour": "red"}),
        json!({"customer": "ACME", "lines": [], "priority": "urgent"}),
        json!({"customer": 7, "lines": []}),
        json!({"lines": []}),
        json!({"customer": "ACME", "lines": {"sku": "A"}}),
        json!(["ACME", [], {}, null]),
        json!(["ACME", [["A", 1.5]]]),
        json!(null),
        json!("ACME"),
        json!({"customer": "ACME", "customer": "B", "lines": []}),
    ]);
}

#[test]
fn enums_of_every_representation_read_as_serde_json_reads_them() {
    same::<Vec<Shape>>(&[
        json!(["Dot", {"Circle": 1.5}, {"Rect": [1, 2]}, {"Poly": {"points": [[1, -2]]}}]),
        json!([{"Dot": null}, {"Rect": [1]}]),
        json!([{"Rect": [1, 2, 3]}]),
        json!([{"Circle": "wide"}]),
        json!([{"Poly": {"points": [[1, 2], [3, "x"]]}}]),
        json!([{"Poly": [1]}]),
        json!(["Circle"]),
        json!(["Rect"]),
        json!(["Poly"]),
        json!([{"Dot": 1}]),
        json!([{"Square": 1}]),
        json!([{"Dot": null, "Circle": 1.0}]),
        json!([{}]),
        json!([7]),
        json!([{"Rect": []}]),
    ]);
    same::<Tagged>(&[
        json!({"kind": "Card", "last4": "4242"}),
        json!({"kind": "Cash"}),
        json!({"kind": "Card"}),
        json!({"kind": "Cheque"}),
        json!({"last4": "4242"}),
    ]);
    same::<Vec<Either>>(&[json!([1, ["a", "b"]]), json!([1.5]), json!([["a", 2]])]);
}

#[test]
fn maps_keys_and_scalars_read_as_serde_json_reads_them() {
    same::<HashMap<u32, String>>(&[json!({"1": "one", "20": "twenty"}), json!({"1": 1})]);
    // serde_path_to_error cannot say which key was not a number (`?`); the reader names it.
    for key in ["x", "1x", "1 ", "-1", "1.5", ""] {
        let error = from_value::<HashMap<u32, String>>(&json!({ key: "one" })).unwrap_err();
        let theirs = serde_json::from_value::<HashMap<u32, String>>(json!({ key: "one" }));
        assert_eq!(error.inner().to_string(), theirs.unwrap_err().to_string());
        assert_eq!(error.path().as_deref(), Some(key));
    }
    same::<BTreeMap<bool, i8>>(&[
        json!({"true": 1, "false": -1}),
        json!({"yes": 1}),
        json!({"true": 200}),
    ]);
    same::<BTreeMap<Priority, f64>>(&[json!({"low": 1.0}), json!({"mid": 1.0})]);
    same::<(u8, String, char, bool)>(&[
        json!([1, "a", "c", true]),
        json!([256, "a", "c", true]),
        json!([1, "a", "cc", true]),
        json!([1, "a"]),
        json!([1, "a", "c", true, null]),
    ]);
    same::<[i16; 2]>(&[json!([1, 2]), json!([1]), json!([1, 2, 3])]);
    same::<Vec<f32>>(&[json!([1, -2, 0.5, 1e40])]);
    same::<(i128, u128, i64, u64)>(&[
        json!([-1, 1, i64::MIN, u64::MAX]),
        json!([1.5, 1, 1, 1]),
        json!([1, -1, 1, 1]),
    ]);
    same::<Option<Cents>>(&[json!(null), json!(5), json!(-5), json!("5")]);
    same::<Vec<Unit>>(&[json!([null]), json!([1])]);
    same::<()>(&[json!(null), json!(0)]);
    same::<Value>(&[json!({"a": [1, {"b": null}], "c": "d"})]);
    same::<Flat>(&[
        json!({"id": 1, "x": [1], "y": {}}),
        json!({"x": 1}),
        json!({"id": "1"}),
    ]);
    same::<Vec<u8>>(&[json!([1, 2, 255]), json!([1, 256]), json!("bytes")]);
}

#[test]
fn a_path_names_keys_and_indexes_from_the_root_out() {
    let error = from_value::<Order>(
        &json!({"customer": "ACME", "lines": [{"sku": "A", "quantity": 1}, {"sku": "B", "quantity": true}]}),
    )
    .unwrap_err();
    assert_eq!(error.path().as_deref(), Some("lines[1].quantity"));
    assert_eq!(
        error.to_string(),
        "lines[1].quantity: invalid type: boolean `true`, expected u32"
    );
    let error = from_value::<Vec<Vec<u8>>>(&json!([[1], [2, "x"]])).unwrap_err();
    assert_eq!(error.path().as_deref(), Some("[1][1]"));
    let error = from_value::<u8>(&json!("x")).unwrap_err();
    assert_eq!(error.path(), None);
    assert_eq!(error.to_string(), "invalid type: string \"x\", expected u8");
}

/// A map visitor that asks for a value before any key: by `next_value` (`SEED` false) or by
/// `next_value_seed`, as a hand-written `Deserialize` might.
#[derive(Debug, PartialEq)]
struct ValueFirst<const SEED: bool>(u32);

impl<'de, const SEED: bool> Deserialize<'de> for ValueFirst<SEED> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Asks<const SEED: bool>;
        impl<'de, const SEED: bool> Visitor<'de> for Asks<SEED> {
            type Value = ValueFirst<SEED>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let value = match SEED {
                    false => map.next_value::<u32>()?,
                    true => map.next_value_seed(std::marker::PhantomData::<u32>)?,
                };
                Ok(ValueFirst(value))
            }
        }
        deserializer.deserialize_map(Asks::<SEED>)
    }
}

#[test]
fn a_value_asked_for_before_its_key_fails_as_serde_json_fails_it() {
    same::<ValueFirst<false>>(&[json!({"a": 1}), json!({})]);
    same::<ValueFirst<true>>(&[json!({"a": 1}), json!({})]);
    let error = from_value::<ValueFirst<false>>(&json!({"a": 1})).unwrap_err();
    assert_eq!(error.inner().to_string(), "value is missing");
}
