//! `Result` decided by type, not spelling: a return type that is a `Result` under another name (an
//! alias such as `type Outcome = Result<T, E>`) is found by a [`Probe`] and refused, since it
//! would serve its `Err` as data instead of as an error result.

use super::probe::{Others, Probe};

/// The probe's answer for a `Result`.
pub struct IsResult;
/// The probe's answer for any other type.
pub struct NotResult;

impl<T, E> Probe<Result<T, E>> {
    /// A `Result`: `Probe::<T>::new().result()` resolves here for any `Result<_, _>`.
    pub fn result(&self) -> IsResult {
        IsResult
    }
}

impl Others {
    /// Not a `Result`.
    pub fn result(&self) -> NotResult {
        NotResult
    }
}

/// Met by a return type not spelled `Result` that is not a `Result` either.
#[diagnostic::on_unimplemented(
    message = "this tool returns a `Result` under another name, which `#[mcp_tool]` cannot see",
    label = "a `Result`: its `Err` would be served as data, not as an error result",
    note = "write the return type as `Result<T, E>` (a path or an alias named `Result`, such as `io::Result<T>`, works too), so `Ok` is served and `Err` becomes an `isError` result"
)]
pub trait ResultSpelled {}
impl ResultSpelled for NotResult {}

/// Fails to compile when the probe found a `Result` the macro did not see by its spelling.
pub fn result_spelled<K: ResultSpelled>(_: K) {}
