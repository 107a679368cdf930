#!/usr/bin/env bash
# Runs every test of the toolkit: unit, integration, compile-fail (trybuild), doctests, and the
# end-to-end tests with real MCP clients (installed first by scripts/e2e-setup.sh; #[ignore]d in
# a plain `cargo test`, run here with --include-ignored).
# Ends with one line adding up cargo's `test result:` lines.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/e2e-setup.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --all-features 2>&1 | tee "$log"
# The end-to-end tests, and the task store's tests against a real Redis, are #[ignore]d (a plain
# `cargo test` says they did not run); run them here.
# `--workspace` keeps the features of the run above: `-p tests` alone would unify features for
# that one package and build half the workspace a second time.
cargo test --workspace --all-features --test e2e --test task_store -- --include-ignored 2>&1 | tee -a "$log"
awk '/^test result:/ { passed += $4; failed += $6 } END { printf "total: %d passed, %d failed\n", passed, failed }' "$log"
