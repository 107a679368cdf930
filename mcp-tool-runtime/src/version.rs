//! The protocol-version rule: which [`Revision`] a request's protocol version belongs to, and
//! [`PerRevision`], a value built once for each.
//!
//! Everything that is served differently at 2026-07-28 (SEP-2106's raw `outputSchema` and
//! `structuredContent`, input-required results, `tools/list` caching hints, per-request log
//! levels) chooses here and nowhere else. The next revision that changes what is served is one
//! variant and one field.

/// The protocol revisions whose served forms differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Revision {
    /// 2025-06-18 and 2025-11-25, and a request that names no version: an `outputSchema` root
    /// and `structuredContent` are objects; client requests go out on the session.
    Until2025_11_25,
    /// 2026-07-28 and later: payloads as they are (SEP-2106), input-required results,
    /// `tools/list` caching hints, per-request log levels.
    Since2026_07_28,
}

impl Revision {
    /// The first protocol version of [`Revision::Since2026_07_28`].
    pub(crate) const SINCE_2026_07_28: &'static str = "2026-07-28";

    /// The revision a client speaking `version` is served (versions are dates: they compare as
    /// strings).
    pub(crate) fn of(version: Option<&str>) -> Revision {
        match version {
            Some(version) if version >= Self::SINCE_2026_07_28 => Revision::Since2026_07_28,
            _ => Revision::Until2025_11_25,
        }
    }

    /// Whether this revision is 2026-07-28 or later.
    #[cfg(any(feature = "rmcp", test))]
    pub(crate) fn is_2026_07_28(self) -> bool {
        self == Revision::Since2026_07_28
    }
}

/// One value for each [`Revision`], built once (at registration, or when the tools change) and
/// read by the revision a request speaks.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct PerRevision<T> {
    until_2025_11_25: T,
    since_2026_07_28: T,
}

impl<T> PerRevision<T> {
    /// The value `build` gives for each revision.
    pub(crate) fn new(mut build: impl FnMut(Revision) -> T) -> Self {
        PerRevision {
            until_2025_11_25: build(Revision::Until2025_11_25),
            since_2026_07_28: build(Revision::Since2026_07_28),
        }
    }

    /// The same value for every revision.
    pub(crate) fn all(value: T) -> Self
    where
        T: Clone,
    {
        PerRevision::new(|_| value.clone())
    }

    /// The value for `revision`.
    pub(crate) fn get(&self, revision: Revision) -> &T {
        match revision {
            Revision::Until2025_11_25 => &self.until_2025_11_25,
            Revision::Since2026_07_28 => &self.since_2026_07_28,
        }
    }

    /// The value `build` gives for each revision, or the first error it gives.
    #[cfg(feature = "rmcp")]
    pub(crate) fn try_new<E>(mut build: impl FnMut(Revision) -> Result<T, E>) -> Result<Self, E> {
        Ok(PerRevision {
            until_2025_11_25: build(Revision::Until2025_11_25)?,
            since_2026_07_28: build(Revision::Since2026_07_28)?,
        })
    }

    /// The values, oldest revision first.
    pub(crate) fn into_array(self) -> [T; 2] {
        [self.until_2025_11_25, self.since_2026_07_28]
    }

    /// Every revision's value, to change in place.
    pub(crate) fn each_mut(&mut self) -> [&mut T; 2] {
        [&mut self.until_2025_11_25, &mut self.since_2026_07_28]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_map_to_their_revision() {
        assert_eq!(Revision::of(None), Revision::Until2025_11_25);
        assert_eq!(Revision::of(Some("2025-06-18")), Revision::Until2025_11_25);
        assert_eq!(Revision::of(Some("2025-11-25")), Revision::Until2025_11_25);
        assert_eq!(Revision::of(Some("2026-07-28")), Revision::Since2026_07_28);
        assert_eq!(Revision::of(Some("2027-01-01")), Revision::Since2026_07_28);
    }

    #[test]
    fn each_revision_reads_its_own_value() {
        let values = PerRevision::new(|revision| revision.is_2026_07_28());
        assert!(!values.get(Revision::Until2025_11_25));
        assert!(values.get(Revision::Since2026_07_28));
    }
}
