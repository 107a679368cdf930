//! `Option` decided by type, not spelling: `allow_none` requires one, and an `Option` returned
//! without `allow_none` is found by an autoref probe.

use std::marker::PhantomData;

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

/// Asks, by type, whether a return type is an `Option`: `(&&OptionProbe::<T>::new()).kind()`
/// resolves to [`IsOption`] for any `Option<_>` and to [`NotOption`] otherwise (method
/// resolution tries the `&&` receiver first, and only `&OptionProbe<Option<_>>` has a method there).
pub struct OptionProbe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> OptionProbe<T> {
    /// A probe for `T`.
    pub const fn new() -> Self {
        OptionProbe(PhantomData)
    }
}

impl<T: ?Sized> Default for OptionProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The probe's answer for an `Option`.
pub struct IsOption;
/// The probe's answer for any other type.
pub struct NotOption;

/// The probe's method for `Option`s.
pub trait ProbeOption {
    /// An `Option`.
    fn kind(&self) -> IsOption {
        IsOption
    }
}
impl<T> ProbeOption for &OptionProbe<Option<T>> {}

/// The probe's method for every other type.
pub trait ProbeOther {
    /// Not an `Option`.
    fn kind(&self) -> NotOption {
        NotOption
    }
}
impl<T: ?Sized> ProbeOther for OptionProbe<T> {}

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
