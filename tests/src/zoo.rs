//! The zoo: return types of every kind a tool may have, each served by a `#[mcp_tool]` tool, with
//! a proptest strategy that generates its values. `tests/zoo.rs` checks every served result against
//! the advertised schema with the runtime's own validator; the end-to-end run checks the same JSON
//! with Python's `jsonschema` (Draft 2020-12, formats checked).
//!
//! Values are generated over each type's whole range, including values no schema derived from the
//! type admits (a flattened map key colliding with a field, a date past year 9999, a float that is
//! not finite): the promise is that such a value is refused with an `isError` result naming the
//! problem, never served broken.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Mutex;

use mcp_tool_runtime::context::Recording;
use mcp_tool_runtime::{Toolbox, mcp_tool};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use proptest_derive::Arbitrary;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

/// The value the next call of a zoo tool returns.
pub struct Slot<T>(Mutex<Option<T>>);

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot(Mutex::new(None))
    }
}

impl<T> Slot<T> {
    fn put(&self, value: T) {
        *self.0.lock().unwrap() = Some(value);
    }

    fn take(&self) -> T {
        self.0.lock().unwrap().take().expect("a value was put")
    }
}

// ---- the types -------------------------------------------------------------------------------

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct Scalars {
    pub flag: bool,
    pub small: u8,
    pub signed: i32,
    pub big: u64,
    pub negative: i64,
    pub ratio: f64,
    pub single: f32,
    pub text: String,
    pub letter: char,
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
#[serde(rename_all = "camelCase")]
pub struct CamelCase {
    pub invoice_number: String,
    pub total_cents: u32,
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct Renamed {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(rename = "@id")]
    pub id: u16,
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct OptionalAbsent {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct OptionalNull {
    pub name: String,
    pub note: Option<String>,
    pub count: Option<u32>,
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct Defaulted {
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(skip)]
    #[allow(dead_code)]
    pub secret: u8,
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct Inner {
    pub x: i16,
    pub y: i16,
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct Flattened {
    pub label: String,
    #[serde(flatten)]
    pub point: Inner,
}

/// A flattened map beside a field: a map key equal to `title` collides with it.
#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct FlattenedMap {
    pub title: String,
    #[serde(flatten)]
    #[proptest(strategy = "colliding_map()")]
    pub extra: BTreeMap<String, i64>,
}

fn colliding_map() -> impl Strategy<Value = BTreeMap<String, i64>> {
    prop::collection::btree_map(
        prop_oneof![Just("title".to_owned()), "[a-z]{1,6}"],
        any::<i64>(),
        0..3,
    )
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct Newtype(pub u32);

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct TupleStruct(pub String, pub i8, pub bool);

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct UnitStruct;

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
#[serde(transparent)]
pub struct Transparent {
    pub inner: Vec<u8>,
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub enum External {
    Open,
    Paid(String),
    Split { parts: u8, note: Option<String> },
    Pair(u8, bool),
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
#[serde(tag = "kind")]
pub enum Internal {
    Cash,
    Card { last4: String },
    Wire(Inner),
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
#[serde(tag = "t", content = "c")]
pub enum Adjacent {
    Amount(i64),
    Note(String),
    Nothing,
    Both { a: u8, b: u8 },
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
#[serde(untagged)]
pub enum Untagged {
    Number(i64),
    Text(String),
    Record { id: u32 },
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    Draft,
    Sent,
    PaidInFull,
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Tree {
    pub name: String,
    pub children: Vec<Tree>,
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = ".{0,8}".prop_map(|name| Tree {
        name,
        children: vec![],
    });
    leaf.prop_recursive(4, 24, 4, |inner| {
        (".{0,8}", prop::collection::vec(inner, 0..4))
            .prop_map(|(name, children)| Tree { name, children })
    })
}

#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Linked {
    pub value: u8,
    pub next: Option<Box<Linked>>,
}

fn linked() -> impl Strategy<Value = Linked> {
    prop::collection::vec(any::<u8>(), 1..12).prop_map(|values| {
        values
            .into_iter()
            .rev()
            .fold(None, |next, value| Some(Box::new(Linked { value, next })))
            .map(|first| *first)
            .expect("at least one value")
    })
}

#[derive(Debug, Clone, Serialize, JsonSchema, Arbitrary)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next: Option<u32>,
}

/// A date as `time` writes it (RFC 3339), described by hand: schemars has no `time` support.
#[derive(Debug, Clone, Serialize)]
pub struct TimeStamp(#[serde(with = "time::serde::rfc3339")] pub time::OffsetDateTime);

impl JsonSchema for TimeStamp {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TimeStamp".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string", "format": "date-time"})
    }
}

fn time_stamp() -> impl Strategy<Value = TimeStamp> {
    // Half within years 0001-9999, half over `time`'s default range (years -9999 to 9999, of
    // which RFC 3339 writes 0000 to 9999 and the rest is refused by the server). Never year
    // 0000, as for `date_time` below: it fits RFC 3339's grammar, but Python's checker refuses
    // it (a CI run drew it and failed the Python comparison).
    let seconds = prop_oneof![
        -62_135_596_800_i64..253_402_300_799,
        -377_705_116_800_i64..253_402_300_799
    ];
    (seconds, 0_u32..1_000_000_000).prop_map(|(seconds, nanos)| {
        let at = time::OffsetDateTime::from_unix_timestamp(seconds).unwrap()
            + time::Duration::nanoseconds(nanos.into());
        TimeStamp(if at.year() == 0 {
            at + time::Duration::days(366)
        } else {
            at
        })
    })
}

/// Half within years 0001-9999 (what RFC 3339 writes; year 0000 fits its grammar, but Python's
/// checker refuses it, and the two checkers are compared here), half over chrono's whole range.
fn date_time() -> impl Strategy<Value = chrono::DateTime<chrono::Utc>> {
    let seconds = prop_oneof![-62_135_596_800_i64..253_402_300_799, any::<i64>()];
    (seconds, 0_u32..1_000_000_000).prop_map(|(seconds, nanos)| {
        let at = chrono::DateTime::from_timestamp(seconds % 8_210_266_876_799, nanos)
            .unwrap_or_default();
        // Never year 0000, whichever half drew it.
        if chrono::Datelike::year(&at) == 0 {
            at + chrono::TimeDelta::days(366)
        } else {
            at
        }
    })
}

/// Half within years 0001-9999 (see `date_time`), half over chrono's whole range.
fn naive_date() -> impl Strategy<Value = chrono::NaiveDate> {
    let year = prop_oneof![1_i32..10_000, -262_000_i32..262_000];
    (year, 1_u32..366).prop_map(|(year, day)| {
        // Never year 0000, whichever half drew it.
        let year = if year == 0 { 1 } else { year };
        chrono::NaiveDate::from_yo_opt(year, day).unwrap_or_default()
    })
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
            prop::collection::btree_map(".{0,6}", inner, 0..5)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

fn decimal() -> impl Strategy<Value = rust_decimal::Decimal> {
    (any::<i64>(), 0_u32..28)
        .prop_map(|(mantissa, scale)| rust_decimal::Decimal::new(mantissa, scale))
}

// ---- the tools ---------------------------------------------------------------------------------

/// A run of generated values through one tool, at a protocol version, recording each result.
type Run = fn(&Toolbox, &mut TestRunner, Option<&'static str>, &mut dyn FnMut(Served));

/// One zoo tool: its name, and a run of generated values through it.
pub struct Exhibit {
    pub tool: &'static str,
    run: Run,
}

/// One served case: the tool, its `tools/list` entry and the `tools/call` result, as wire JSON.
#[derive(Debug, Clone, Serialize)]
pub struct Served {
    pub tool: &'static str,
    /// The protocol version it was listed and served at (`None`: 2025-11-25 and before).
    pub version: Option<&'static str>,
    pub entry: Value,
    pub result: Value,
}

fn serve_all<T: Send + Sync + 'static + std::fmt::Debug>(
    toolbox: &Toolbox,
    runner: &mut TestRunner,
    tool: &'static str,
    strategy: impl Strategy<Value = T>,
    version: Option<&'static str>,
    record: &mut dyn FnMut(Served),
) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let entry = serde_json::to_value(
        toolbox
            .list_tools_for(version)
            .iter()
            .find(|t| t.name == tool)
            .expect("registered"),
    )
    .unwrap();
    let slot = toolbox
        .state::<Slot<T>>()
        .expect("each exhibit's slot is in the toolbox");
    let mut tree_runner = runner.clone();
    let cases = runner.config().cases;
    for _ in 0..cases {
        let value = strategy
            .new_tree(&mut tree_runner)
            .expect("a value")
            .current();
        slot.put(value);
        let mut recording = Recording::new();
        if let Some(version) = version {
            recording = recording.protocol_version(version);
        }
        let result = runtime
            .block_on(toolbox.call_tool_with(tool, json!({}), recording.context()))
            .unwrap();
        record(Served {
            tool,
            version,
            entry: entry.clone(),
            result: serde_json::to_value(&result).unwrap(),
        });
    }
    *runner = tree_runner;
}

macro_rules! zoo {
    ($( $(#[$attr:meta])* $tool:ident -> $ty:ty = $strategy:expr; )*) => {
        $(
            #[mcp_tool]
            $(#[$attr])*
            pub fn $tool(#[state] slot: &Slot<$ty>) -> $ty {
                slot.take()
            }
        )*

        /// Every exhibit of the zoo.
        pub fn exhibits() -> Vec<Exhibit> {
            vec![$(Exhibit {
                tool: stringify!($tool),
                run: |toolbox, runner, version, record| {
                    serve_all::<$ty>(toolbox, runner, stringify!($tool), $strategy, version, record)
                },
            }),*]
        }

        /// A toolbox serving every exhibit, with the result self-check on.
        pub fn toolbox() -> Toolbox {
            let mut toolbox = Toolbox::new();
            toolbox.check_results(true);
            $(toolbox.insert_state(Slot::<$ty>::default());)*
            toolbox.insert_state(Slot::<Option<Scalars>>::default());
            $(toolbox.register($tool::tool()).unwrap();)*
            toolbox.register(maybe_scalars::tool()).unwrap();
            toolbox
        }
    };
}

zoo! {
    scalars -> Scalars = any::<Scalars>();
    camel_case -> CamelCase = any::<CamelCase>();
    renamed -> Renamed = any::<Renamed>();
    optional_absent -> OptionalAbsent = any::<OptionalAbsent>();
    optional_null -> OptionalNull = any::<OptionalNull>();
    defaulted -> Defaulted = any::<Defaulted>();
    flattened -> Flattened = any::<Flattened>();
    flattened_map -> FlattenedMap = any::<FlattenedMap>();
    newtype -> Newtype = any::<Newtype>();
    tuple_struct -> TupleStruct = any::<TupleStruct>();
    unit_struct -> UnitStruct = any::<UnitStruct>();
    transparent -> Transparent = any::<Transparent>();
    external -> External = any::<External>();
    internal -> Internal = any::<Internal>();
    adjacent -> Adjacent = any::<Adjacent>();
    untagged -> Untagged = any::<Untagged>();
    status -> Status = any::<Status>();
    tree_of -> Tree = tree();
    linked_list -> Linked = linked();
    page_of_bytes -> Page<u8> = any::<Page<u8>>();
    page_of_inner -> Page<Inner> = any::<Page<Inner>>();
    string_map -> BTreeMap<String, u32> = any::<BTreeMap<String, u32>>();
    integer_map -> HashMap<u32, String> = any::<HashMap<u32, String>>();
    signed_key_map -> BTreeMap<i64, bool> = any::<BTreeMap<i64, bool>>();
    list_of_records -> Vec<Inner> = any::<Vec<Inner>>();
    tuple -> (u8, String, bool) = any::<(u8, String, bool)>();
    string_set -> HashSet<String> = any::<HashSet<String>>();
    integer_set -> BTreeSet<i32> = any::<BTreeSet<i32>>();
    array -> [u16; 4] = any::<[u16; 4]>();
    unsigned_bounds -> u64 = prop_oneof![Just(0_u64), Just(u64::MAX), any::<u64>()];
    signed_bounds -> i64 = prop_oneof![Just(i64::MIN), Just(i64::MAX), any::<i64>()];
    wide -> u128 = prop_oneof![any::<u64>().prop_map(u128::from), any::<u128>()];
    float -> f64 = prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(f64::MAX),
        Just(f64::MIN_POSITIVE),
        Just(-0.0),
        any::<f64>(),
    ];
    single_float -> f32 = any::<f32>();
    text -> String = any::<String>();
    control_text -> Vec<String> = prop::collection::vec("[\\x00-\\x1f\\x7f\"\\\\\u{2028}\u{2029}\u{FEFF}é漢🦀]{0,12}", 0..4);
    character -> char = any::<char>();
    uuid_value -> uuid::Uuid = any::<u128>().prop_map(uuid::Uuid::from_u128);
    chrono_date_time -> chrono::DateTime<chrono::Utc> = date_time();
    chrono_date -> chrono::NaiveDate = naive_date();
    time_date_time -> TimeStamp = time_stamp();
    decimal_number -> rust_decimal::Decimal = decimal();
    json -> Value = json_value();
    unit -> () = Just(());
    optional_list -> Vec<Option<u32>> = any::<Vec<Option<u32>>>();
    boolean -> bool = any::<bool>();
}

/// `Option<T>` with `allow_none`.
#[mcp_tool(allow_none)]
pub fn maybe_scalars(#[state] slot: &Slot<Option<Scalars>>) -> Option<Scalars> {
    slot.take()
}

/// The protocol versions the zoo serves at: 2025-11-25 (objects only) and 2026-07-28 (any
/// value, SEP-2106), whose schemas and results differ.
pub const VERSIONS: [Option<&str>; 2] = [None, Some("2026-07-28")];

/// Serves `cases` generated values through every exhibit (and `maybe_scalars`) at `version`,
/// calling `record` with each served result.
pub fn serve(cases: u32, version: Option<&'static str>, record: &mut dyn FnMut(Served)) {
    let toolbox = toolbox();
    let mut runner = TestRunner::new(Config {
        cases,
        ..Config::default()
    });
    for exhibit in exhibits() {
        (exhibit.run)(&toolbox, &mut runner, version, record);
    }
    serve_all::<Option<Scalars>>(
        &toolbox,
        &mut runner,
        "maybe_scalars",
        proptest::option::of(any::<Scalars>()),
        version,
        record,
    );
}
