#!/usr/bin/env bash
# Build cost of 100 tools, side by side: generates four crates with the same 100 argument and
# return types (ours: #[mcp_tool]; rmcp: rmcp 3.11's #[tool_router]/#[tool] returning Json<T>;
# floor: the same functions and types with no tool macro at all; serde_floor: the floor plus, per
# function, the least any tool needs: its arguments read from and its result written to a
# serde_json::Value, so the types' own Deserialize and Serialize are compiled), then times, paired
# and interleaved, a clean debug build of each crate (dependencies built and cached first) and an
# incremental rebuild after editing one tool. Prints medians and ratios to the floor.
#   scripts/build-cost.sh [ROUNDS]        (default 3)
# RUNTIME=path/to/mcp-tool-runtime measures another checkout of the runtime (e.g. an older one).
# INSTRUCTIONS=1 counts instead of timing: rustc's instructions (valgrind's callgrind) for a clean
# build of each crate and for its rebuild after the same edit, one run each, as instruction counts
# do not depend on what else the machine is doing (minutes per crate under callgrind).
# FUNCTIONS=1 counts the functions each crate compiles (rustc's -Zprint-mono-items, allowed on a
# stable rustc by RUSTC_BOOTSTRAP=1), in all and per tool (those compiled once for each of the 100).
# CRATES="floor ours" measures only those crates (the floor must be one of them).
# GENERATE_ONLY=1 generates and builds the crates (in target/build-cost) without timing them,
# e.g. for `cargo llvm-lines -p ours` there.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
crates=${CRATES:-"ours rmcp_tools floor serde_floor"}
[[ " $crates " == *" floor "* ]] || { echo "CRATES must include floor: ratios are to it"; exit 1; }
runtime=$(realpath "${RUNTIME:-mcp-tool-runtime}")
rmcp_version=$(awk '/^name = "rmcp"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock)
root=target/build-cost
rm -rf "$root"
mkdir -p "$root"
cat > "$root/Cargo.toml" <<TOML
[workspace]
resolver = "3"
members = ["ours", "rmcp_tools", "floor", "serde_floor"]
[workspace.dependencies]
serde = { version = "1", features = ["derive"] }
serde_json = "1"
schemars = "1"
TOML

types() {
  for i in $(seq 0 99); do
    cat <<RS
#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args$i { pub name: String, pub count: u32 }
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Out$i { pub id: u64, pub label: String, pub tags: Vec<String> }
RS
  done
}

body() { echo "Out$1 { id: u64::from(args.count) + $1, label: args.name, tags: vec![] }"; }

mkdir -p "$root/floor/src" "$root/serde_floor/src" "$root/ours/src" "$root/rmcp_tools/src"
for crate in floor serde_floor ours rmcp_tools; do
  cat > "$root/$crate/Cargo.toml" <<TOML
[package]
name = "$crate"
version = "0.0.0"
edition = "2024"
[dependencies]
serde.workspace = true
serde_json.workspace = true
schemars.workspace = true
TOML
done
echo "mcp-tool-runtime = { path = \"$runtime\" }" >> "$root/ours/Cargo.toml"
echo "rmcp = { version = \"=$rmcp_version\", default-features = false, features = [\"server\", \"macros\"] }" >> "$root/rmcp_tools/Cargo.toml"

{
  types
  for i in $(seq 0 99); do echo "/// Tool $i."; echo "pub fn tool_$i(args: Args$i) -> Out$i { $(body $i) }"; done
} > "$root/floor/src/lib.rs"

{
  cat "$root/floor/src/lib.rs"
  for i in $(seq 0 99); do
    echo "pub fn call_$i(v: serde_json::Value) -> serde_json::Result<serde_json::Value> { serde_json::to_value(tool_$i(serde_json::from_value(v)?)) }"
  done
} > "$root/serde_floor/src/lib.rs"

{
  echo "use mcp_tool_runtime::{mcp_tool, Toolbox, RegistrationError};"
  types
  for i in $(seq 0 99); do echo "/// Tool $i."; echo "#[mcp_tool]"; echo "pub fn tool_$i(#[args] args: Args$i) -> Out$i { $(body $i) }"; done
  echo "pub fn toolbox() -> Result<Toolbox, RegistrationError> {"
  echo "    let mut toolbox = Toolbox::new();"
  for i in $(seq 0 99); do echo "    toolbox.register(tool_$i::tool())?;"; done
  echo "    Ok(toolbox)"
  echo "}"
} > "$root/ours/src/lib.rs"

{
  echo "use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};"
  echo "use rmcp::{Json, ServerHandler, tool, tool_handler, tool_router};"
  types
  echo "#[derive(Clone)]"
  echo "#[allow(dead_code)] // the router is read by the generated handler, which rustc does not count"
  echo "pub struct Tools { tool_router: ToolRouter<Self> }"
  echo "#[tool_router]"
  echo "impl Tools {"
  echo "    pub fn new() -> Self { Self { tool_router: Self::tool_router() } }"
  for i in $(seq 0 99); do echo "    /// Tool $i."; echo "    #[tool]"; echo "    pub async fn tool_$i(&self, Parameters(args): Parameters<Args$i>) -> Json<Out$i> { Json($(body $i)) }"; done
  echo "}"
  echo "#[tool_handler]"
  echo "impl ServerHandler for Tools {}"
} > "$root/rmcp_tools/src/lib.rs"

cd "$root"
export CARGO_TARGET_DIR=$PWD/target
# Measure what a user's crate gets: cargo's default full debug info, not this repository's
# line tables (.cargo/config.toml, which reaches this generated workspace too).
export CARGO_PROFILE_DEV_DEBUG=true
echo "building the dependencies once..."
cargo build --quiet --workspace 2>&1 | tail -5
if [ -n "${GENERATE_ONLY:-}" ]; then
  echo "generated and built in $PWD"
  exit 0
fi

# Edit one tool of crate $1: a literal in the body of tool_7, made `+ 7 + $2`.
edit() {
  sed -E -i "/fn tool_7\(/ s/\+ 7( \+ [0-9]+)?,/+ 7 + $2,/" "$1/src/lib.rs"
  grep -q "+ 7 + $2," "$1/src/lib.rs" || { echo "the edit of tool_7 failed in $1"; exit 1; }
}
if [ -n "${FUNCTIONS:-}" ]; then
  echo "| crate (100 tools) | functions compiled | per tool |"
  echo "| --- | --- | --- |"
  for crate in $crates; do
    edit "$crate" 1
    command=$(cargo build -v -p "$crate" 2>&1 | sed -n "s/^ *Running \`\(.*--crate-name $crate .*\)\`$/\1/p" |
      sed -E 's/-C incremental=[^ ]*//; s/--out-dir [^ ]*//')
    [ -n "$command" ] || { echo "no rustc command seen for $crate"; exit 1; }
    out=$(mktemp -d)
    items=$(eval "RUSTC_BOOTSTRAP=1 $command -Zprint-mono-items --out-dir $out" 2>&1 | grep '^MONO_ITEM' |
      sed -E 's/ @@ .*//')
    rm -rf "$out"
    # A function of one tool names its types or its function, numbered 0 to 99.
    per_tool=$(echo "$items" | sed -E 's/(Args|Out|tool_)[0-9]+/\1N/g' | sort | uniq -c | awk '$1 == 100' | wc -l)
    echo "| $crate | $(echo "$items" | wc -l) | $per_tool |"
  done
  exit 0
fi
if [ -n "${INSTRUCTIONS:-}" ]; then
  # rustc's own command for a crate, as cargo runs it, then run again by hand under callgrind:
  # first with no incremental state (the clean build), then after the edit (the rebuild).
  counted() {
    eval "valgrind --tool=callgrind --callgrind-out-file=/dev/null $1" 2>&1 >/dev/null |
      awk '/I +refs:/ { gsub(",", "", $NF); print $NF }'
  }
  declare -A clean incremental
  for crate in $crates; do
    edit "$crate" 1
    command=$(cargo build -v -p "$crate" 2>&1 | sed -n "s/^ *Running \`\(.*--crate-name $crate .*\)\`$/\1/p")
    [ -n "$command" ] || { echo "no rustc command seen for $crate"; exit 1; }
    rm -rf "$CARGO_TARGET_DIR/debug/incremental/$crate"-*
    clean[$crate]=$(counted "$command")
    edit "$crate" 2
    incremental[$crate]=$(counted "$command")
  done
  echo "| crate (100 tools) | clean (instructions) | x floor | incremental | x floor |"
  echo "| --- | --- | --- | --- | --- |"
  for crate in $crates; do
    printf "| %s | %s | %.2fx | %s | %.2fx |\n" "$crate" "${clean[$crate]}" \
      "$(echo "${clean[$crate]} / ${clean[floor]}" | bc -l)" "${incremental[$crate]}" \
      "$(echo "${incremental[$crate]} / ${incremental[floor]}" | bc -l)"
  done
  exit 0
fi

# One build of `crate`: its wall time and the CPU seconds (user + system) of cargo and rustc, which
# moves less than wall time when the machine has other work.
TIMEFORMAT='%R %U %S'
build() {
  local times
  times=$({ time cargo build --quiet -p "$1" 2>>build.log; } 2>&1) ||
    { echo "the build of $1 failed: $PWD/build.log" >&2; return 1; }
  read -r wall user sys <<<"$times"
  echo "$wall $(echo "$user + $sys" | bc)"
}
declare -A clean clean_cpu incremental incremental_cpu
for round in $(seq 1 "$rounds"); do
  for crate in $crates; do
    cargo clean --quiet -p "$crate"
    measured=$(build "$crate")
    read -r wall cpu <<<"$measured"
    clean[$crate]+="$wall "; clean_cpu[$crate]+="$cpu "
    edit "$crate" "$round"
    measured=$(build "$crate")
    read -r wall cpu <<<"$measured"
    incremental[$crate]+="$wall "; incremental_cpu[$crate]+="$cpu "
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
declare -A floor
for kind in clean clean_cpu incremental incremental_cpu; do
  declare -n times=$kind
  floor[$kind]=$(echo "${times[floor]}" | median)
done
echo "Medians of $rounds rounds; CPU is user + system seconds."
echo
echo "| crate (100 tools) | clean (s) | x floor | clean CPU (s) | x floor | incremental (s) | x floor | incremental CPU (s) | x floor |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for crate in $crates; do
  row="| $crate "
  for kind in clean clean_cpu incremental incremental_cpu; do
    declare -n times=$kind
    m=$(echo "${times[$crate]}" | median)
    row+=$(printf "| %.2f | %.2fx " "$m" "$(echo "$m / ${floor[$kind]}" | bc -l)")
  done
  echo "$row|"
done
