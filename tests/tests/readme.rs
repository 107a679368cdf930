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
