//! Arbitrary JSON as `tools/call` arguments, to every tool of the invoices example.
//!
//! Checks: no panic escapes `Toolbox::call_tool`; every known tool answers with a result; an
//! error result quotes a bounded part of the input; a result that is not an error satisfies the
//! tool's advertised `outputSchema` (the self-check is on).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mcp_tool_runtime::Toolbox;
use serde_json::Value;

fn toolbox() -> &'static Toolbox {
    static TOOLBOX: OnceLock<Toolbox> = OnceLock::new();
    TOOLBOX.get_or_init(|| {
        let mut toolbox = fuzz::invoices::toolbox().expect("the example registers");
        toolbox.check_results(true);
        toolbox
    })
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        // Timers on, and paused: a tool that waits (`audit_invoices`) waits in virtual time, so
        // an input costs no wall time.
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap()
    })
}

fuzz_target!(|data: &[u8]| {
    // JSON when the bytes are JSON; otherwise the bytes as a string, so every input is a value.
    let arguments: Value = serde_json::from_slice(data)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(data).into_owned()));
    let toolbox = toolbox();
    for tool in toolbox.list_tools() {
        let result = runtime()
            .block_on(toolbox.call_tool(&tool.name, arguments.clone()))
            .expect("a listed tool is known");
        if result.is_error {
            let text = result.text().unwrap_or_default();
            assert!(
                text.len() < 2_000,
                "an error message of {} bytes",
                text.len()
            );
        } else if tool.output_schema.is_some() {
            assert!(
                result.structured_content.is_some(),
                "`{}` advertised a schema",
                tool.name
            );
        }
    }
});
