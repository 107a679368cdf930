//! The README tells the truth: the demo it points to is the example's output, and its test
//! command is the one CI runs. (Its Rust examples are doctests of `mcp-tool-runtime`, as the
//! guides' are.)

use std::path::Path;

fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    std::fs::read_to_string(root.join(path)).unwrap()
}

#[tokio::test]
async fn the_demo_file_is_the_demo_output() {
    let readme = read("examples/DEMO.md");
    let start = readme.find("<!-- demo:start -->\n").unwrap() + "<!-- demo:start -->\n".len();
    let end = readme.find("<!-- demo:end -->").unwrap();
    let transcript = examples::demo::transcript().await.unwrap();
    assert!(
        readme[start..end] == transcript,
        "examples/DEMO.md is stale: replace its demo section with `cargo run -p examples --bin invoices -- --demo`"
    );
}

#[test]
fn the_test_command_is_what_ci_runs() {
    let readme = read("README.md");
    assert!(readme.contains("```sh\nscripts/test.sh\n```"));
    assert!(
        read(".ci/run")
            .lines()
            .any(|l| l.trim() == "scripts/test.sh")
    );
    assert!(readme.contains("```sh\ncargo run -p examples --bin invoices -- --demo\n```"));
}

/// The section between `<!-- keys:start -->` and `<!-- keys:end -->`.
fn keys_table(text: &str) -> &str {
    let start = text.find("<!-- keys:start -->").expect("a keys table");
    let end = text
        .find("<!-- keys:end -->")
        .expect("the end of the keys table");
    &text[start..end]
}

#[test]
fn the_keys_table_is_one_table_listing_every_key_the_macro_takes() {
    let table = read("mcp-tool-runtime/docs/keys.md");
    let readme = read("README.md");
    assert_eq!(
        keys_table(&readme),
        keys_table(&table),
        "README.md's keys table differs from mcp-tool-runtime/docs/keys.md: copy the file's table"
    );
    // The keys the macro accepts, as its symbol table names them.
    let symbols = read("mcp-tool-macros/src/symbol.rs");
    let list = &symbols[symbols.find("pub const TOOL_KEYS").unwrap()..];
    let list = &list[..list.find("];").unwrap()];
    let constants: Vec<&str> = list
        .lines()
        .skip(1)
        .map(|line| line.trim().trim_end_matches(','))
        .filter(|name| !name.is_empty())
        .collect();
    assert_eq!(constants.len(), 20, "{constants:?}");
    for constant in constants {
        let definition = format!("pub const {constant}: &str = \"");
        let at = symbols.find(&definition).expect(constant) + definition.len();
        let key = &symbols[at..at + symbols[at..].find('"').unwrap()];
        assert!(
            keys_table(&table).contains(&format!("`{key}")),
            "the keys table does not list `{key}`"
        );
    }
}

/// The keys of one list constant (`pub const NAME: &[&str] = &[...]`) of the macro's symbol
/// table, as the strings the macro accepts.
fn keys_of(symbols: &str, list: &str) -> Vec<String> {
    let at = symbols.find(&format!("pub const {list}")).expect(list);
    let body = &symbols[at..];
    let body = &body[body.find("= &[").unwrap() + 4..body.find("];").unwrap()];
    body.split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|constant| {
            let definition = format!("pub const {constant}: &str = \"");
            let at = symbols.find(&definition).expect(constant) + definition.len();
            symbols[at..at + symbols[at..].find('"').unwrap()].to_owned()
        })
        .collect()
}

#[test]
fn the_prompt_and_resource_keys_table_lists_every_key_both_macros_take() {
    let readme = read("README.md");
    let start = readme
        .find("<!-- catalog-keys:start -->")
        .expect("a catalog keys table");
    let table = &readme[start..readme.find("<!-- catalog-keys:end -->").unwrap()];
    let symbols = read("mcp-tool-macros/src/symbol.rs");
    let keys: Vec<String> = [
        "PROMPT_KEYS",
        "RESOURCE_KEYS",
        "RESOURCE_ANNOTATION_KEYS",
        "ARG_KEYS",
    ]
    .iter()
    .flat_map(|list| keys_of(&symbols, list))
    .filter(|key| key != "header")
    .collect();
    assert!(keys.len() >= 14, "{keys:?}");
    for key in keys {
        assert!(
            table.contains(&format!("`{key}"))
                || table.contains(&format!(" {key} ="))
                || table.contains(&format!("({key}"))
                || table.contains(&format!(", {key}")),
            "the prompt and resource keys table does not list `{key}`"
        );
    }
}
