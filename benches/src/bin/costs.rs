//! Instruction counts and peak heap of one served call, ours against rmcp's `Json<T>` path and the
//! floor, on the three payloads, in one run.
//!
//! `cargo run --release -p benches --bin costs` prints the table BENCHMARKS.md holds.
//! `--quick` measures the 1 KB payload only (what CI runs, to prove the harness works);
//! `--heap` measures only the peak heap; `--payload NAME` only one payload's instructions.
//!
//! Instructions: the binary runs itself under `valgrind --tool=callgrind` twice per cell, doing
//! the setup and then 0 or N calls; (I(N) - I(0)) / N is the cost of one call, setup excluded.
//! Instruction counts do not depend on what else the machine is doing. Peak heap: a counting
//! global allocator records the highest live heap during one call, over the heap live before it,
//! divided by the bytes sent.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use benches::{Bench, Payload, VARIANTS};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// The one `unsafe` in the project: a global allocator must implement this unsafe trait. It only
// forwards to `System` and counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let live = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                - layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// `costs --calls VARIANT PAYLOAD N`: set up, then N calls (run under callgrind by the driver).
/// `checked` is ours with the result self-check on; `compact` ours with the compact text mirror.
fn calls(variant: &str, payload: Payload, n: usize) {
    let (bench, variant) = bench_for(variant, payload);
    for _ in 0..n {
        std::hint::black_box(bench.run(variant));
    }
}

/// The bench serving `variant` (`checked`: ours with the result self-check on; `compact`: ours
/// with the compact text mirror), and the path it runs.
fn bench_for(variant: &str, payload: Payload) -> (Bench, &str) {
    match variant {
        "checked" => (Bench::with_check(payload, true), "ours"),
        "compact" => (
            Bench::with(payload, false, mcp_tool_runtime::Mirror::Compact),
            "ours",
        ),
        other => (Bench::new(payload), other),
    }
}

/// Peak heap of one call, over what was live before it, and the bytes it produced.
fn peak_heap(variant: &str, payload: Payload) -> (usize, usize) {
    let (bench, variant) = bench_for(variant, payload);
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let sent = bench.run(variant);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    (peak, sent.len())
}

fn instructions(variant: &str, payload: Payload, n: usize) -> u64 {
    benches::instructions_per_call(&["--calls", variant, payload.name()], n)
}

/// The first `tools/list` and the first call on a new thread, with the tool registered on
/// another: wall time, median of 21 threads (rmcp's router caches schemas per thread).
fn first_use() {
    use std::time::{Duration, Instant};
    fn median(mut samples: Vec<Duration>) -> Duration {
        samples.sort();
        samples[samples.len() / 2]
    }
    let bench = std::sync::Arc::new(Bench::new(Payload::Small));
    let on_new_threads = |work: fn(&Bench)| -> Duration {
        median(
            (0..21)
                .map(|_| {
                    let bench = bench.clone();
                    std::thread::spawn(move || {
                        let start = Instant::now();
                        work(&bench);
                        start.elapsed()
                    })
                    .join()
                    .unwrap()
                })
                .collect(),
        )
    };
    let ours_list = on_new_threads(|bench| {
        std::hint::black_box(bench.list());
    });
    let ours_call = on_new_threads(|bench| {
        std::hint::black_box(bench.ours());
    });
    let tools = benches::RmcpTools::new();
    let rmcp: Vec<Duration> = (0..21)
        .map(|_| {
            let tools = tools.clone();
            std::thread::spawn(move || {
                let start = Instant::now();
                std::hint::black_box(tools.list());
                start.elapsed()
            })
            .join()
            .unwrap()
        })
        .collect();
    println!();
    println!("| on a new thread (median of 21) | ours | rmcp |");
    println!("| --- | --- | --- |");
    println!("| first tools/list | {ours_list:?} | {:?} |", median(rmcp));
    println!("| first call (1 KB payload, framed) | {ours_call:?} | |");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, variant, payload, n] = args.as_slice()
        && flag == "--calls"
    {
        calls(
            variant,
            Payload::parse(payload).unwrap(),
            n.parse().unwrap(),
        );
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let heap_only = args.iter().any(|a| a == "--heap");
    let only = args
        .iter()
        .position(|a| a == "--payload")
        .and_then(|i| args.get(i + 1))
        .map(|name| Payload::parse(name).expect("a payload: 1KB, 1000rows or 10MB"));
    let payloads: Vec<Payload> = match (quick, only) {
        (true, _) => vec![Payload::Small],
        (false, Some(payload)) => vec![payload],
        (false, None) => Payload::ALL.to_vec(),
    };
    println!("| payload | ours (instr/call) | rmcp Json<T> | floor | ours / rmcp | ours / floor |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for &payload in payloads.iter().filter(|_| !heap_only) {
        let n = match payload {
            Payload::Small => 200,
            Payload::Rows => 10,
            Payload::Large => 2,
        };
        let [ours, rmcp, floor] = VARIANTS.map(|v| instructions(v, payload, n));
        println!(
            "| {} | {ours} | {rmcp} | {floor} | {:.2}x | {:.2}x |",
            payload.name(),
            ours as f64 / rmcp as f64,
            ours as f64 / floor as f64
        );
    }
    if !heap_only {
        println!();
        println!(
            "| compact mirror | ours, pretty | ours, compact | rmcp Json<T> | compact / rmcp |"
        );
        println!("| --- | --- | --- | --- | --- |");
        for &payload in payloads.iter().filter(|p| **p != Payload::Large) {
            let n = if payload == Payload::Small { 200 } else { 10 };
            let pretty = instructions("ours", payload, n);
            let compact = instructions("compact", payload, n);
            let rmcp = instructions("rmcp", payload, n);
            println!(
                "| {} | {pretty} | {compact} | {rmcp} | {:.2}x |",
                payload.name(),
                compact as f64 / rmcp as f64
            );
        }
    }
    if !heap_only {
        println!();
        println!("| result self-check | ours, check off | ours, check on | on / off |");
        println!("| --- | --- | --- | --- |");
        for &payload in payloads.iter().filter(|p| **p != Payload::Large) {
            let n = if payload == Payload::Small { 200 } else { 10 };
            let off = instructions("ours", payload, n);
            let on = instructions("checked", payload, n);
            println!(
                "| {} | {off} | {on} | {:.2}x |",
                payload.name(),
                on as f64 / off as f64
            );
        }
    }
    first_use();
    let heap_payload = if quick {
        Payload::Small
    } else {
        Payload::Large
    };
    println!();
    println!(
        "| peak heap, {} payload | bytes | x bytes sent |",
        heap_payload.name()
    );
    println!("| --- | --- | --- |");
    for variant in ["ours", "compact", "rmcp", "floor"] {
        let (peak, sent) = peak_heap(variant, heap_payload);
        println!("| {variant} | {peak} | {:.1}x |", peak as f64 / sent as f64);
    }
}
