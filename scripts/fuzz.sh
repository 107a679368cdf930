#!/usr/bin/env bash
# Runs every fuzz target (cargo-fuzz, libFuzzer, on the stable toolchain with `-s none`: the
# sanitizers need nightly, the coverage instrumentation does not) for SECONDS each (default 30),
# from the committed seeds, and prints the executions each made. Installs cargo-fuzz if missing.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
if ! cargo fuzz --version 2>/dev/null | grep -q "0.13.2"; then
  cargo install cargo-fuzz --locked --version 0.13.2
fi
cd fuzz
cargo fuzz build -s none
for target in jsonrpc_line tool_arguments request_state; do
  mkdir -p "corpus/$target"
  log=$(mktemp)
  cargo fuzz run -s none "$target" "corpus/$target" "seeds/$target" -- -max_total_time="$seconds" 2>"$log" || {
    tail -40 "$log"
    echo "fuzz: $target failed"
    exit 1
  }
  echo "fuzz: $target: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$log")"
  rm -f "$log"
done
