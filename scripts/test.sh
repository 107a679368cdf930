#!/usr/bin/env bash
# Runs every test of the toolkit: unit, integration, compile-fail (trybuild), doctests, and the
# end-to-end tests with real MCP clients (installed first by scripts/e2e-setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/e2e-setup.sh
MCP_E2E=1 cargo test --workspace --all-features
