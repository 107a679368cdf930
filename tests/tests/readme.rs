//! The README tells the truth: its JSON is the example's output, its excerpts are the example's
//! code, and its test command is the one CI runs.

use std::path::Path;

fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    std::fs::read_to_string(root.join(path)).unwrap()
}

#[tokio::test]
async fn the_demo_section_is_the_demo_output() {
    let readme = read("README.md");
    let start = readme.find("<!-- demo:start -->\n").unwrap() + "<!-- demo:start -->\n".len();
    let end = readme.find("<!-- demo:end -->").unwrap();
    let transcript = examples::demo::transcript().await.unwrap();
    assert!(
        readme[start..end] == transcript,
        "README.md's demo section is stale: replace it with `cargo run -p examples --bin invoices -- --demo`"
    );
}

#[test]
fn excerpts_are_the_example_code() {
    let readme = read("README.md");
    let mut found = 0;
    for piece in readme.split("<!-- excerpt: ").skip(1) {
        let (path, rest) = piece.split_once(" -->\n").unwrap();
        let code = rest
            .strip_prefix("```rust,ignore\n")
            .and_then(|r| r.split_once("```\n"))
            .map(|(code, _)| code)
            .unwrap();
        assert!(
            read(path).contains(code),
            "README excerpt not found in {path}:\n{code}"
        );
        found += 1;
    }
    assert!(found >= 3);
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
