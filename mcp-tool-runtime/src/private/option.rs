//! `Option` decided by type, not spelling: `allow_none` requires one, and an `Option` returned
//! without `allow_none` is found by a [`Probe`].

use super::probe::{Others, Probe};

/// A return type declared with `allow_none`: an `Option`, however it is spelled (an alias, a
/// full path, a re-export). `Some` is the type of the value it holds.
#[diagnostic::on_unimplemented(
    message = "`allow_none` is declared, but `{Self}` is never `None`",
    label = "not an `Option`",
    note = "remove `allow_none`, or return `Option<T>` (or `Result<Option<T>, E>`) if the tool may find nothing"
)]
pub trait MayBeNone {
    /// The type inside the `Option`.
    type Some;
}
impl<T> MayBeNone for Option<T> {
    type Some = T;
}

/// The probe's answer for an `Option`.
pub struct IsOption;
/// The probe's answer for any other type.
pub struct NotOption;

impl<T> Probe<Option<T>> {
    /// An `Option`: `Probe::<T>::new().option()` resolves here for any `Option<_>`.
    pub fn option(&self) -> IsOption {
        IsOption
    }
}

impl Others {
    /// Not an `Option`.
    pub fn option(&self) -> NotOption {
        NotOption
    }
}

/// Met by a tool that declared `allow_none` or returns a type that is never `None`.
#[diagnostic::on_unimplemented(
    message = "this tool returns an `Option` but does not declare `allow_none`",
    label = "`None` would be served as `{{}}`, which its `outputSchema` does not admit",
    note = "add `allow_none` to #[mcp_tool(...)] so the schema admits `{{}}`, or set `include_output_schema = false`"
)]
pub trait NoneDeclared {}
impl NoneDeclared for NotOption {}

/// Fails to compile when the probe found an `Option` on a tool without `allow_none`.
pub fn none_declared<K: NoneDeclared>(_: K) {}
