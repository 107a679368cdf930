//! Asking, by type, what a return type is, with no trait in scope: `Probe::<T>::new().option()`
//! (or `.result()`) finds an inherent method of `Probe<Option<_>>` (or `Probe<Result<_, _>>`)
//! when `T` is one, and otherwise, through `Deref`, the method of [`Others`].
//!
//! Method resolution tries the inherent methods of `Probe<T>` before it dereferences, and an
//! inherent method whose impl does not match `T` is passed over. So the generated code needs no
//! `use` of probe traits and no trait selection, which every tool paid on every build (about
//! 1 M instructions per tool, `scripts/build-cost.sh` counted).

use std::marker::PhantomData;
use std::ops::Deref;

/// A question about the type `T`, answered by which method a call on it resolves to.
pub struct Probe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> Probe<T> {
    /// A probe for `T`.
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

impl<T: ?Sized> Default for Probe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Where a probe of a type that matched no inherent method lands: its methods give the answers
/// for every other type.
pub struct Others;

impl<T: ?Sized> Deref for Probe<T> {
    type Target = Others;

    fn deref(&self) -> &Others {
        &Others
    }
}
