//! Bad arguments: error results that name the argument and its path, bounded quotes, deep nesting.

use mcp_tool_runtime::{Toolbox, mcp_tool};
use serde_json::{Value, json};

use super::fixtures::*;

/// The fixtures' tools on a server that refuses unknown arguments.
fn refusing() -> Toolbox {
    let defaults = mcp_tool_runtime::ServerDefaults {
        unknown_arguments: mcp_tool_runtime::UnknownArguments::Refuse,
        ..Default::default()
    };
    let mut toolbox = Toolbox::with_defaults(defaults);
    toolbox.insert_state(Store {
        invoices: std::sync::Mutex::new(Vec::new()),
    });
    toolbox
        .register(add::tool())
        .unwrap()
        .register(ping::tool())
        .unwrap()
        .register(create_invoice::tool())
        .unwrap();
    toolbox
}

#[tokio::test]
async fn bad_arguments_are_error_results_naming_the_argument() {
    let toolbox = toolbox();
    let missing = call(&toolbox, "add", json!({"a": 1})).await;
    assert_eq!(
        error_text(&missing),
        "missing required argument `b` of tool `add`"
    );

    let wrong = call(&toolbox, "add", json!({"a": 1, "b": "two"})).await;
    let text = error_text(&wrong);
    assert!(
        text.contains("argument `b`") && text.contains("expected i64"),
        "{text}"
    );
    assert!(text.contains("a string `\"two\"`"), "{text}");

    // Unknown arguments are ignored by default (the schema says nothing against them); a
    // server that refuses them names them.
    let unknown = call(&toolbox, "add", json!({"a": 1, "b": 2, "c": 3})).await;
    assert_eq!(unknown.structured_content, Some(json!({"result": 3})));
    let refusing = refusing();
    let unknown = call(&refusing, "add", json!({"a": 1, "b": 2, "c": 3})).await;
    assert_eq!(
        error_text(&unknown),
        "unknown argument `c` for tool `add`; expected one of: `a`, `b`"
    );

    let none_taken = call(&refusing, "ping", json!({"x": 1})).await;
    assert!(error_text(&none_taken).contains("it takes no arguments"));
    assert!(!call(&toolbox, "ping", json!({"x": 1})).await.is_error);

    let struct_missing = call(&toolbox, "create_invoice", json!({"customer": "x"})).await;
    assert!(error_text(&struct_missing).contains("missing field `total`"));
    let struct_wrong = call(
        &toolbox,
        "create_invoice",
        json!({"customer": "x", "total": "many"}),
    )
    .await;
    let text = error_text(&struct_wrong);
    assert!(text.contains("at `total`"), "{text}");
    let struct_unknown = call(
        &refusing,
        "create_invoice",
        json!({"customer": "x", "total": 1, "vat": 2}),
    )
    .await;
    assert!(error_text(&struct_unknown).contains("unknown argument `vat`"));

    let not_object = call(&toolbox, "add", json!([1, 2])).await;
    assert!(error_text(&not_object).contains("must be a JSON object"));
}

/// Adds up amounts.
#[mcp_tool]
fn total(amounts: Vec<Invoice>) -> u64 {
    amounts.iter().map(|i| i.total_cents).sum()
}

#[tokio::test]
async fn an_error_inside_an_argument_names_its_path() {
    let mut toolbox = Toolbox::new();
    toolbox.register(total::tool()).unwrap();
    let bad = json!({"amounts": [{"number": "1", "total_cents": 1}, {"number": "2", "total_cents": "x"}]});
    let result = call(&toolbox, "total", bad).await;
    let text = error_text(&result);
    assert!(
        text.starts_with("invalid argument `amounts` at `amounts[1].total_cents` of tool `total`"),
        "{text}"
    );
}

// `Option` is decided by the type: an alias, a full path and `Option<T>` serve alike.

#[tokio::test]
async fn error_messages_quote_a_bounded_part_of_the_input() {
    let mut toolbox = Toolbox::new();
    toolbox.register(numbers::tool()).unwrap();
    let huge = "9".repeat(10_000_000) + "x";
    let result = call(&toolbox, "numbers", json!({ "count": huge })).await;
    let text = error_text(&result);
    assert!(
        text.len() < 600,
        "{} bytes: {}",
        text.len(),
        &text[..600.min(text.len())]
    );
    assert!(text.contains("invalid argument `count`"), "{text}");
    assert!(text.contains("more bytes)"), "{text}");
    // An unknown argument is named, cut short, by a server that refuses them.
    let mut refusing = Toolbox::with_defaults(mcp_tool_runtime::ServerDefaults {
        unknown_arguments: mcp_tool_runtime::UnknownArguments::Refuse,
        ..Default::default()
    });
    refusing.register(numbers::tool()).unwrap();
    let unknown_key = "k".repeat(1_000_000);
    let result = call(
        &refusing,
        "numbers",
        json!({ "count": 1, unknown_key.clone(): 1 }),
    )
    .await;
    assert!(error_text(&result).len() < 600);
}

#[test]
fn deeply_nested_arguments_are_refused_without_overflowing_a_2_mib_stack() {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let mut toolbox = Toolbox::new();
            toolbox.register(numbers::tool()).unwrap();
            let runtime = tokio::runtime::Builder::new_current_thread()
                .build()
                .unwrap();
            for (depth, wrap) in [(100_000, "array"), (100_000, "object"), (129, "array")] {
                let mut nested = json!(1);
                for _ in 0..depth {
                    // Built by moving (`json!` would serialize its operand, recursively).
                    nested = if wrap == "array" {
                        Value::Array(vec![nested])
                    } else {
                        Value::Object([("a".to_owned(), nested)].into_iter().collect())
                    };
                }
                let result = runtime
                    .block_on(toolbox.call_tool("numbers", count(nested)))
                    .unwrap();
                let text = error_text(&result);
                assert!(
                    text.contains("nested more than 128 levels deep"),
                    "{depth} {wrap}: {text}"
                );
            }
            // A whole-arguments value nested deep is refused the same way.
            let mut nested = json!(1);
            for _ in 0..100_000 {
                nested = Value::Array(vec![nested]);
            }
            let result = runtime
                .block_on(toolbox.call_tool("numbers", nested))
                .unwrap();
            assert!(error_text(&result).contains("levels deep"));
            // At the limit, arguments are read as usual.
            let mut nested = json!(1);
            for _ in 0..126 {
                nested = Value::Array(vec![nested]);
            }
            let result = runtime
                .block_on(toolbox.call_tool("numbers", count(nested)))
                .unwrap();
            assert!(error_text(&result).contains("invalid argument `count`"));
        })
        .unwrap()
        .join()
        .unwrap();
}
