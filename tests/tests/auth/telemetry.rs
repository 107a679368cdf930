//! What a served call leaves behind: its span, parented on the request's `traceparent`, with
//! the call's attributes, and the call metrics, both read back from in-memory exporters.

use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider};
use std::sync::OnceLock;

use serde_json::json;
use tracing_subscriber::layer::SubscriberExt as _;

use super::fixtures::*;

const TRACE_ID: &str = "0af7651916cd43dd8448eb211c80319c";
const FAILED_TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID: &str = "b7ad6b7169203331";

/// The process's subscriber, exporting to memory: set once, for every test of this binary
/// (a subscriber set for one thread races with the others over tracing's callsite cache).
fn exported() -> &'static (SdkTracerProvider, InMemorySpanExporter) {
    static EXPORTED: OnceLock<(SdkTracerProvider, InMemorySpanExporter)> = OnceLock::new();
    EXPORTED.get_or_init(|| {
        let exporter = InMemorySpanExporter::default();
        let provider = SdkTracerProvider::builder()
            .with_simple_exporter(exporter.clone())
            .build();
        let subscriber = tracing_subscriber::registry()
            .with(tracing_opentelemetry::layer().with_tracer(provider.tracer("test")));
        tracing::subscriber::set_global_default(subscriber).unwrap();
        (provider, exporter)
    })
}

#[tokio::test]
async fn every_call_is_a_span_parented_on_the_requests_traceparent() {
    let (provider, exporter) = exported();

    let server = Protected::start().await;
    let bearer = format!("Bearer {}", server.token(BASE_SCOPE));
    let traceparent = format!("00-{TRACE_ID}-{PARENT_ID}-01");
    let reply = server
        .call_with_meta(
            Some(&bearer),
            "whoami",
            json!({}),
            json!({"traceparent": traceparent}),
        )
        .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    // A tool error: `number` is not a string.
    let bearer = format!("Bearer {}", server.token("mcp:tools invoices:write"));
    let failed = server
        .call_with_meta(
            Some(&bearer),
            "void_invoice",
            json!({"number": 7}),
            json!({"traceparent": format!("00-{FAILED_TRACE_ID}-{PARENT_ID}-01")}),
        )
        .await;
    assert_eq!(failed.message["result"]["isError"], true, "{failed:?}");
    provider.force_flush().unwrap();

    let spans = exporter.get_finished_spans().unwrap();
    let span = spans
        .iter()
        .find(|s| s.span_context.trace_id().to_string() == TRACE_ID)
        .unwrap_or_else(|| panic!("no span for the call: {spans:?}"));
    assert_eq!(span.name, "tools/call whoami");
    assert_eq!(span.parent_span_id.to_string(), PARENT_ID);
    let attribute = |name: &str| {
        span.attributes
            .iter()
            .find(|kv| kv.key.as_str() == name)
            .map(|kv| kv.value.to_string())
    };
    assert_eq!(attribute("gen_ai.tool.name").as_deref(), Some("whoami"));
    assert_eq!(attribute("jsonrpc.request.id").as_deref(), Some("1"));
    assert_eq!(
        attribute("mcp.protocol.version").as_deref(),
        Some("2026-07-28")
    );
    assert_eq!(attribute("enduser.id").as_deref(), Some("alice"));
    assert_eq!(attribute("mcp.tool.outcome").as_deref(), Some("ok"));
    let duration: f64 = attribute("mcp.tool.duration_ms").unwrap().parse().unwrap();
    assert!(duration >= 0.0);

    // The failed call is a span with its outcome.
    let failed = spans
        .iter()
        .filter(|s| s.span_context.trace_id().to_string() == FAILED_TRACE_ID)
        .collect::<Vec<_>>();
    assert_eq!(failed.len(), 1, "{spans:?}");
    assert_eq!(failed[0].name, "tools/call void_invoice");
    assert!(
        failed[0]
            .attributes
            .iter()
            .any(|kv| kv.key.as_str() == "mcp.tool.outcome" && kv.value.to_string() == "tool_error")
    );
}

#[tokio::test]
async fn call_metrics_count_calls_and_errors_and_time_them_per_registered_tool() {
    let exporter = InMemoryMetricExporter::default();
    let provider = SdkMeterProvider::builder()
        .with_reader(PeriodicReader::builder(exporter.clone()).build())
        .build();
    let meter = provider.meter("test");
    let server = Protected::start_with(
        move |server| {
            assert!(server.set_meter(&meter));
            server
        },
        |verifier| verifier,
    )
    .await;
    let bearer = format!("Bearer {}", server.token("mcp:tools invoices:write"));
    for _ in 0..3 {
        server.call(Some(&bearer), "whoami", json!({})).await;
    }
    server
        .call(Some(&bearer), "void_invoice", json!({"number": 7}))
        .await;
    // Names a client makes up are counted, but never become labels: each label value is a
    // series the metrics backend keeps.
    for made_up in ["no_such_tool", "another_made_up_name"] {
        server.call(Some(&bearer), made_up, json!({})).await;
    }
    provider.force_flush().unwrap();

    let mut sums = Vec::new();
    let mut histogram_count = 0;
    for resource in exporter.get_finished_metrics().unwrap() {
        for scope in resource.scope_metrics() {
            for metric in scope.metrics() {
                match metric.data() {
                    AggregatedMetrics::U64(MetricData::Sum(sum)) => {
                        for point in sum.data_points() {
                            let mut labels: Vec<String> = point
                                .attributes()
                                .map(|kv| format!("{}={}", kv.key, kv.value))
                                .collect();
                            labels.sort();
                            sums.push((metric.name().to_owned(), labels.join(","), point.value()));
                        }
                    }
                    AggregatedMetrics::F64(MetricData::Histogram(histogram)) => {
                        assert_eq!(metric.name(), "mcp.tool.duration");
                        histogram_count += histogram.data_points().map(|p| p.count()).sum::<u64>();
                    }
                    _ => {}
                }
            }
        }
    }
    sums.sort();
    assert_eq!(
        sums,
        [
            (
                "mcp.tool.calls".to_owned(),
                "gen_ai.tool.name=void_invoice,mcp.tool.outcome=tool_error".to_owned(),
                1
            ),
            (
                "mcp.tool.calls".to_owned(),
                "gen_ai.tool.name=whoami,mcp.tool.outcome=ok".to_owned(),
                3
            ),
            (
                "mcp.tool.calls".to_owned(),
                "mcp.tool.outcome=error".to_owned(),
                2
            ),
            ("mcp.tool.errors".to_owned(), String::new(), 2),
            (
                "mcp.tool.errors".to_owned(),
                "gen_ai.tool.name=void_invoice".to_owned(),
                1
            ),
        ]
    );
    assert_eq!(histogram_count, 6);
    assert!(
        !server.server.set_meter(&provider.meter("late")),
        "a second meter was taken"
    );
}
