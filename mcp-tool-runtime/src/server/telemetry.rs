//! What a served call leaves behind: a `tracing` span per call (tool, request id, protocol
//! version, caller, outcome, duration), parented on the request's `_meta.traceparent`, and
//! with feature `otel`, call metrics on the global OpenTelemetry meter provider.

use std::time::Instant;

use tracing::field::Empty;

use super::request::Request;
use crate::auth::Caller;

/// How a served call ended, as its span and metrics record it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// A result that is not an error.
    Ok,
    /// An `isError` result (bad arguments, the tool's error, a refusal by a layer).
    ToolError,
    /// A JSON-RPC error (unknown tool, a limit, a missing capability).
    Error,
    /// An input-required result (2026-07-28): the call waits on the client.
    InputRequired,
    /// The client cancelled it.
    Cancelled,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::ToolError => "tool_error",
            Outcome::Error => "error",
            Outcome::InputRequired => "input_required",
            Outcome::Cancelled => "cancelled",
        }
    }
}

/// One served call's span and clock.
pub(crate) struct CallSpan {
    pub(crate) span: tracing::Span,
    started: Instant,
    /// The tool's metrics label, once the call is known to name a registered tool: a name a
    /// client made up is never a label (each label value is a series a metrics backend keeps).
    #[cfg(feature = "otel")]
    tool: Option<opentelemetry::StringValue>,
}

/// The longest `traceparent` recorded: the W3C format is 55 characters.
const MAX_TRACEPARENT: usize = 55;

impl CallSpan {
    /// The span of a call of `tool` (`tools/call {tool}`), with what the request says; a
    /// subscriber that does not want it costs one check. Not inlined, so a profile shows its
    /// cost apart (BENCHMARKS.md).
    #[inline(never)]
    pub(crate) fn start(tool: &str, request: &Request) -> CallSpan {
        let span = tracing::info_span!(
            target: "mcp_tool_runtime::call",
            "tools/call",
            otel.name = %format_args!("tools/call {tool}"),
            otel.kind = "server",
            otel.status_code = Empty,
            mcp.method.name = "tools/call",
            gen_ai.operation.name = "execute_tool",
            gen_ai.tool.name = tool,
            jsonrpc.request.id = %RequestIdDisplay(&request.id),
            mcp.protocol.version = Empty,
            enduser.id = Empty,
            traceparent = Empty,
            mcp.tool.outcome = Empty,
            mcp.tool.duration_ms = Empty,
        );
        if !span.is_disabled() {
            if let Some(version) = request.protocol_version() {
                span.record("mcp.protocol.version", version);
            }
            if let Some(subject) = request.caller.as_deref().and_then(Caller::subject) {
                span.record("enduser.id", subject);
            }
            if let Some(parent) = traceparent(&request.meta) {
                span.record("traceparent", parent);
                #[cfg(feature = "otel")]
                set_parent(&span, &request.meta);
            }
        }
        CallSpan {
            span,
            started: Instant::now(),
            #[cfg(feature = "otel")]
            tool: None,
        }
    }

    /// The call names a registered tool, whose metrics label is `label` (built once, when the
    /// tool was registered: a copy, not an allocation, per call).
    #[cfg(feature = "otel")]
    pub(crate) fn registered(&mut self, label: &opentelemetry::StringValue) {
        self.tool = Some(label.clone());
    }

    /// Records how the call ended and how long it took, in the span and in `metrics`.
    #[inline(never)]
    pub(crate) fn finish(self, outcome: Outcome, metrics: &Metrics) {
        let elapsed = self.started.elapsed();
        if !self.span.is_disabled() {
            self.span.record("mcp.tool.outcome", outcome.as_str());
            self.span
                .record("mcp.tool.duration_ms", elapsed.as_secs_f64() * 1e3);
            if matches!(outcome, Outcome::ToolError | Outcome::Error) {
                self.span.record("otel.status_code", "ERROR");
            }
        }
        #[cfg(feature = "otel")]
        metrics.record(self.tool, outcome, elapsed);
        #[cfg(not(feature = "otel"))]
        let _ = metrics;
    }
}

/// The request's `_meta.traceparent`, when it has the W3C format's length.
fn traceparent(meta: &serde_json::Map<String, serde_json::Value>) -> Option<&str> {
    meta.get("traceparent")
        .and_then(serde_json::Value::as_str)
        .filter(|p| p.len() <= MAX_TRACEPARENT)
}

struct RequestIdDisplay<'a>(&'a rmcp::model::RequestId);

impl std::fmt::Display for RequestIdDisplay<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            rmcp::model::NumberOrString::Number(n) => write!(f, "{n}"),
            rmcp::model::NumberOrString::String(s) => f.write_str(s),
        }
    }
}

/// Parents `span` on the trace context in the request's `_meta` (`traceparent`, `tracestate`),
/// read with OpenTelemetry's W3C Trace Context propagator.
#[cfg(feature = "otel")]
fn set_parent(span: &tracing::Span, meta: &serde_json::Map<String, serde_json::Value>) {
    use opentelemetry::propagation::{Extractor, TextMapPropagator};
    use tracing_opentelemetry::OpenTelemetrySpanExt;

    struct Meta<'a>(&'a serde_json::Map<String, serde_json::Value>);
    impl Extractor for Meta<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.get(key).and_then(serde_json::Value::as_str)
        }
        fn keys(&self) -> Vec<&str> {
            self.0.keys().map(String::as_str).collect()
        }
    }
    let parent = opentelemetry_sdk::propagation::TraceContextPropagator::new().extract(&Meta(meta));
    // Without tracing-opentelemetry's layer there is nothing to parent.
    let _ = span.set_parent(parent);
}

/// A server's call metrics (feature `otel`): instruments made from the meter the server was
/// given, or the global meter provider's when the first call is recorded.
#[derive(Default)]
pub(crate) struct Metrics {
    #[cfg(feature = "otel")]
    instruments: std::sync::OnceLock<Instruments>,
}

#[cfg(feature = "otel")]
struct Instruments {
    calls: opentelemetry::metrics::Counter<u64>,
    errors: opentelemetry::metrics::Counter<u64>,
    duration: opentelemetry::metrics::Histogram<f64>,
}

#[cfg(feature = "otel")]
impl Metrics {
    /// Makes the instruments from `meter`; false if calls were already recorded elsewhere.
    pub(crate) fn set_meter(&self, meter: &opentelemetry::metrics::Meter) -> bool {
        self.instruments.set(Instruments::new(meter)).is_ok()
    }

    /// Records a call of the registered tool `tool` (`None`: the call named no registered
    /// tool, and is recorded without a tool).
    fn record(
        &self,
        tool: Option<opentelemetry::StringValue>,
        outcome: Outcome,
        elapsed: std::time::Duration,
    ) {
        use opentelemetry::KeyValue;

        let instruments = self
            .instruments
            .get_or_init(|| Instruments::new(&opentelemetry::global::meter("mcp-tool-runtime")));
        let tool = tool.map(|tool| KeyValue::new("gen_ai.tool.name", tool));
        let outcome_label = KeyValue::new("mcp.tool.outcome", outcome.as_str());
        match &tool {
            Some(tool) => instruments.calls.add(1, &[tool.clone(), outcome_label]),
            None => instruments.calls.add(1, &[outcome_label]),
        }
        if matches!(outcome, Outcome::ToolError | Outcome::Error) {
            instruments.errors.add(1, tool.as_slice());
        }
        instruments
            .duration
            .record(elapsed.as_secs_f64(), tool.as_slice());
    }
}

#[cfg(feature = "otel")]
impl Instruments {
    fn new(meter: &opentelemetry::metrics::Meter) -> Instruments {
        Instruments {
            calls: meter
                .u64_counter("mcp.tool.calls")
                .with_description("Tool calls served, by tool and outcome")
                .build(),
            errors: meter
                .u64_counter("mcp.tool.errors")
                .with_description("Tool calls that ended in an error, by tool")
                .build(),
            duration: meter
                .f64_histogram("mcp.tool.duration")
                .with_unit("s")
                .with_description("How long tool calls took, by tool")
                .build(),
        }
    }
}
