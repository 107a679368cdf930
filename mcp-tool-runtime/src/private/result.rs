//! `Result` decided by type, not spelling: a return type that is a `Result` under another name (an
//! alias such as `type Outcome = Result<T, E>`) is found by an autoref probe and refused, since it
//! would serve its `Err` as data instead of as an error result.

use std::marker::PhantomData;

/// Asks, by type, whether a return type is a `Result`: `(&&ResultProbe::<T>::new()).kind()`
/// resolves to [`IsResult`] for any `Result<_, _>` and to [`NotResult`] otherwise (method
/// resolution tries the `&&` receiver first, and only `&ResultProbe<Result<_, _>>` has a method
/// there).
pub struct ResultProbe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> ResultProbe<T> {
    /// A probe for `T`.
    pub const fn new() -> Self {
        ResultProbe(PhantomData)
    }
}

impl<T: ?Sized> Default for ResultProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The probe's answer for a `Result`.
pub struct IsResult;
/// The probe's answer for any other type.
pub struct NotResult;

/// The probe's method for `Result`s.
pub trait ProbeResult {
    /// A `Result`.
    fn kind(&self) -> IsResult {
        IsResult
    }
}
impl<T, E> ProbeResult for &ResultProbe<Result<T, E>> {}

/// The probe's method for every other type.
pub trait ProbeNotResult {
    /// Not a `Result`.
    fn kind(&self) -> NotResult {
        NotResult
    }
}
impl<T: ?Sized> ProbeNotResult for ResultProbe<T> {}

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
