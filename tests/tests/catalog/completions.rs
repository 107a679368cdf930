//! Completions: derived from an enum's variants, or supplied by a function (sync or async,
//! with the state and the other arguments), filtered by the prefix and capped at 100.

use mcp_tool_runtime::completion::Complete;
use mcp_tool_runtime::toolbox::CompletionRef;
use mcp_tool_runtime::{Toolbox, mcp_prompt};
use serde_json::{Map, Value, json};

use super::fixtures::shop;

fn prompt(name: &str) -> CompletionRef {
    CompletionRef::Prompt(name.into())
}

#[tokio::test]
async fn an_enum_argument_completes_to_its_variants_by_prefix_ignoring_case() {
    let toolbox = shop();
    let none = Map::new();
    let completion = toolbox
        .complete(&prompt("reply"), "tone", "F", &none)
        .await
        .unwrap();
    assert_eq!(completion.values, ["formal", "friendly"]);
    assert_eq!((completion.total, completion.has_more), (2, false));
    // A template variable of an enum type too.
    let of = CompletionRef::Resource("reports://{tone}/latest".into());
    let completion = toolbox.complete(&of, "tone", "t", &none).await.unwrap();
    assert_eq!(completion.values, ["terse"]);
    // A `String` argument without a function has nothing to offer.
    let completion = toolbox
        .complete(&prompt("reply"), "message", "", &none)
        .await
        .unwrap();
    assert!(completion.values.is_empty());
}

#[tokio::test]
async fn a_completion_function_reads_the_state_and_the_other_arguments() {
    let toolbox = shop();
    let none = Map::new();
    let cities = toolbox
        .complete(&prompt("plan_delivery"), "city", "par", &none)
        .await
        .unwrap();
    assert_eq!(
        cities.values,
        ["Paris", "Parma"],
        "from the toolbox's state"
    );
    let any_city = toolbox
        .complete(&prompt("plan_delivery"), "slot", "", &none)
        .await
        .unwrap();
    assert_eq!(any_city.values, ["morning", "midday", "evening"]);
    let paris: Map<String, Value> = [("city".to_owned(), json!("Paris"))].into_iter().collect();
    let in_paris = toolbox
        .complete(&prompt("plan_delivery"), "slot", "", &paris)
        .await
        .unwrap();
    assert_eq!(in_paris.values, ["morning"], "async, and told the city");
}

#[tokio::test]
async fn an_answer_holds_at_most_100_values_and_says_how_many_matched() {
    fn many(_: &Complete<'_>) -> Vec<String> {
        (0..250).map(|i| format!("item-{i:03}")).collect()
    }
    /// Picks an item.
    #[mcp_prompt]
    fn pick(#[arg(complete = many)] item: String) -> String {
        item
    }
    let mut toolbox = Toolbox::new();
    toolbox.register_prompt(pick::prompt()).unwrap();
    let completion = toolbox
        .complete(&prompt("pick"), "item", "item-", &Map::new())
        .await
        .unwrap();
    assert_eq!(completion.values.len(), 100);
    assert_eq!(completion.values[0], "item-000");
    assert_eq!((completion.total, completion.has_more), (250, true));
}

#[tokio::test]
async fn completing_what_does_not_exist_is_invalid_params() {
    let toolbox = shop();
    let none = Map::new();
    for (of, argument) in [
        (prompt("nope"), "x"),
        (prompt("reply"), "nope"),
        (CompletionRef::Resource("nope://{x}".into()), "x"),
        (
            CompletionRef::Resource("invoices://{number}".into()),
            "nope",
        ),
    ] {
        let error = toolbox
            .complete(&of, argument, "", &none)
            .await
            .unwrap_err();
        assert_eq!(error.code, -32602, "{of:?} {argument}: {error:?}");
    }
}
