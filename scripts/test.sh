#!/usr/bin/env bash
# Runs every test of the toolkit: unit, integration, compile-fail (trybuild), doctests, and the
# end-to-end tests with real MCP clients (installed first by scripts/e2e-setup.sh).
# Ends with one line adding up cargo's `test result:` lines.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/e2e-setup.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
MCP_E2E=1 cargo test --workspace --all-features 2>&1 | tee "$log"
awk '/^test result:/ { passed += $4; failed += $6 } END { printf "total: %d passed, %d failed\n", passed, failed }' "$log"
