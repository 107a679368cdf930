//! The cost of the result self-check (`Toolbox::check_results`): one served call with the check on
//! and off, on the 1 KB and 1,000-row payloads.
//!
//! `cargo bench -p benches --bench self_check` prints the time per call and the ratio (release,
//! best of five, interleaved). With `--quick` (what CI runs) it makes a handful of calls, only to
//! prove the bench still works.

use std::time::{Duration, Instant};

use benches::{Bench, Payload};

fn per_call(bench: &Bench, calls: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..calls {
        std::hint::black_box(bench.ours());
    }
    start.elapsed() / calls
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    for (payload, calls) in [(Payload::Small, 20_000), (Payload::Rows, 200)] {
        let (off, on) = (
            Bench::with_check(payload, false),
            Bench::with_check(payload, true),
        );
        let calls = if quick { 3 } else { calls };
        let mut best = (Duration::MAX, Duration::MAX);
        for _ in 0..if quick { 1 } else { 5 } {
            best.0 = best.0.min(per_call(&off, calls));
            best.1 = best.1.min(per_call(&on, calls));
        }
        println!(
            "{}: check off {:?}/call, check on {:?}/call, ratio {:.2}x",
            payload.name(),
            best.0,
            best.1,
            best.1.as_secs_f64() / best.0.as_secs_f64()
        );
    }
}
