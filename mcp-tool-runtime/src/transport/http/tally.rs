//! [`Tally`]: how much each key holds of a bounded share, a key forgotten once it holds nothing.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

use crate::sync::lock;

/// How much each key (a peer, a sender) holds now. Only keys holding something are kept, so
/// the map has as many entries as holdings at most, whatever keys clients make up.
pub(super) struct Tally<K> {
    held: Mutex<HashMap<K, usize>>,
}

impl<K> Default for Tally<K> {
    fn default() -> Self {
        Tally {
            held: Mutex::new(HashMap::new()),
        }
    }
}

impl<K: Hash + Eq + Clone> Tally<K> {
    /// Adds `n` to what `key` holds, unless that would pass `limit`.
    pub(super) fn take(&self, key: &K, n: usize, limit: usize) -> bool {
        let mut held = lock(&self.held);
        let mine = held.entry(key.clone()).or_default();
        if mine.saturating_add(n) > limit {
            if *mine == 0 {
                held.remove(key);
            }
            return false;
        }
        *mine += n;
        true
    }

    /// Gives back `n` of what `key` holds.
    pub(super) fn give(&self, key: &K, n: usize) {
        let mut held = lock(&self.held);
        if let Some(mine) = held.get_mut(key) {
            *mine = mine.saturating_sub(n);
            if *mine == 0 {
                held.remove(key);
            }
        }
    }

    /// Whether no key holds anything.
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        lock(&self.held).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_takes_up_to_its_limit_and_is_forgotten_when_it_gives_all_back() {
        let tally = Tally::default();
        assert!(tally.take(&"a", 2, 3));
        assert!(!tally.take(&"a", 2, 3));
        assert!(tally.take(&"a", 1, 3));
        assert!(!tally.take(&"b", 4, 3));
        tally.give(&"a", 3);
        assert!(tally.is_empty());
    }
}
