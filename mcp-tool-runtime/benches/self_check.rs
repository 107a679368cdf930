//! The cost of the result self-check (`Toolbox::check_results`): one `tools/call` through a
//! toolbox with the check on and off, on a 1 KB object and a 1,000-row (about 250 KB) list.
//!
//! `cargo bench -p mcp-tool-runtime --bench self_check` prints the time per call and the ratio.
//! With `--quick` (what CI runs) it does a handful of calls, only to prove the bench still works.

use std::hint::black_box;
use std::time::{Duration, Instant};

use mcp_tool_runtime::{Toolbox, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;

#[derive(Clone, Serialize, JsonSchema)]
pub struct Row {
    id: u64,
    customer: String,
    email: String,
    total_cents: u64,
    paid: bool,
    tags: Vec<String>,
    note: Option<String>,
}

fn row(i: u64) -> Row {
    Row {
        id: i,
        customer: format!("Customer number {i} of the benchmark"),
        email: format!("customer{i}@example.com"),
        total_cents: i * 1_337,
        paid: i.is_multiple_of(2),
        tags: vec![
            "net-30".into(),
            "priority".into(),
            format!("region-{}", i % 7),
        ],
        note: i
            .is_multiple_of(3)
            .then(|| "Deliver to the back door, ring twice.".to_owned()),
    }
}

#[derive(Serialize, JsonSchema)]
pub struct Page {
    rows: Vec<Row>,
}

/// About 1 KB: four rows.
#[mcp_tool]
fn small() -> Page {
    Page {
        rows: (0..4).map(row).collect(),
    }
}

/// About 250 KB: 1,000 rows.
#[mcp_tool]
fn large() -> Page {
    Page {
        rows: (0..1_000).map(row).collect(),
    }
}

fn per_call(toolbox: &Toolbox, tool: &str, calls: u32) -> Duration {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let start = Instant::now();
    for _ in 0..calls {
        let result = runtime
            .block_on(toolbox.call_tool(tool, serde_json::Value::Null))
            .unwrap();
        assert!(!result.is_error, "{:?}", result.text());
        black_box(result);
    }
    start.elapsed() / calls
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let toolbox = |check| {
        let mut toolbox = Toolbox::new();
        toolbox.check_results(check);
        toolbox.register(small::tool()).unwrap();
        toolbox.register(large::tool()).unwrap();
        toolbox
    };
    let (on, off) = (toolbox(true), toolbox(false));
    for (tool, calls) in [("small", 20_000), ("large", 200)] {
        let calls = if quick { 3 } else { calls };
        // Interleaved, best of five, so a noisy neighbour costs both sides alike.
        let mut best = (Duration::MAX, Duration::MAX);
        for _ in 0..if quick { 1 } else { 5 } {
            best.0 = best.0.min(per_call(&off, tool, calls));
            best.1 = best.1.min(per_call(&on, tool, calls));
        }
        println!(
            "{tool}: check off {:?}/call, check on {:?}/call, ratio {:.2}x",
            best.0,
            best.1,
            best.1.as_secs_f64() / best.0.as_secs_f64()
        );
    }
}
