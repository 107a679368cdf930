//! Wall time of one served call, ours against rmcp's `Json<T>` path and the floor, on the three
//! payloads (`cargo bench -p benches --bench served`). Wall time is noisy on shared machines: the
//! ratios in BENCHMARKS.md come from instruction counts (`cargo run --release -p benches --bin
//! costs`); this is the human-scale view of the same paths.

use benches::{Bench, Payload, VARIANTS};
use criterion::{Criterion, criterion_group, criterion_main};

fn served(c: &mut Criterion) {
    for payload in Payload::ALL {
        let bench = Bench::new(payload);
        let mut group = c.benchmark_group(payload.name());
        if payload == Payload::Large {
            group.sample_size(10);
        }
        for variant in VARIANTS {
            group.bench_function(variant, |b| b.iter(|| bench.run(variant)));
        }
        group.finish();
    }
}

criterion_group!(benches, served);
criterion_main!(benches);
