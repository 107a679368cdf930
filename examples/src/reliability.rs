//! The reliability server: a fast tool for load, and three tools that misbehave (one panics, one
//! never returns, one returns a value JSON cannot carry), so the end-to-end load run can prove the
//! server answers each and goes on serving.

use mcp_tool_runtime::{RegistrationError, Toolbox, mcp_tool};

/// Returns its argument: the call the load run makes by the thousand.
#[mcp_tool(annotations(read_only, idempotent))]
pub fn echo(n: u64) -> u64 {
    n
}

/// Panics: the server answers with an `isError` result and serves the next call.
#[mcp_tool]
pub fn panics() -> u64 {
    panic!("this tool always panics")
}

/// Never returns: the client gives up and cancels; the server drops the call.
#[mcp_tool]
pub async fn never_returns() -> u64 {
    std::future::pending().await
}

/// Returns NaN, which JSON cannot carry: an `isError` result naming the problem.
#[mcp_tool]
pub fn not_a_number() -> f64 {
    f64::NAN
}

/// The reliability toolbox.
pub fn toolbox() -> Result<Toolbox, RegistrationError> {
    let mut toolbox = Toolbox::new();
    toolbox
        .register(echo::tool())?
        .register(panics::tool())?
        .register(never_returns::tool())?
        .register(not_a_number::tool())?;
    Ok(toolbox)
}
