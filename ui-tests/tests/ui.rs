//! Compile-fail and compile-pass cases of `#[mcp_tool]`.
//!
//! Compiler messages drift between rustc releases, so the `.stderr` files are pinned to the
//! toolchain they were written on (the workspace's CI toolchain, below). Regenerate them with:
//! `TRYBUILD=overwrite cargo test -p ui-tests --test ui`

use std::path::Path;

const PINNED_RUSTC: &str = "rustc 1.95.";

#[test]
fn ui() {
    let version =
        std::process::Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
    let cases = trybuild::TestCases::new();
    cases.pass("tests/pass/*.rs");
    if version.starts_with(PINNED_RUSTC) {
        cases.compile_fail("tests/ui/*.rs");
        return;
    }
    eprintln!(
        "compile-fail messages are pinned to {PINNED_RUSTC}x; found {version}; checking only that each case fails"
    );
    // trybuild compares a case's output with its `.stderr` whenever the file exists, so the
    // cases are copied without theirs, and trybuild is told to write what it sees: a case
    // that compiles still fails the test, one that is refused passes, whatever the message.
    let unpinned = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ui-unpinned");
    let _ = std::fs::remove_dir_all(&unpinned);
    std::fs::create_dir_all(&unpinned).unwrap();
    for entry in std::fs::read_dir("tests/ui").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            std::fs::copy(&path, unpinned.join(path.file_name().unwrap())).unwrap();
        }
    }
    // SAFETY: this test binary runs this one test, and nothing else reads the environment now.
    unsafe { std::env::set_var("TRYBUILD", "overwrite") };
    cases.compile_fail(unpinned.join("*.rs"));
}
