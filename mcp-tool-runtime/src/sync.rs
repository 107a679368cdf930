//! Locks that outlive a panic: a tool that panics while another thread holds one of the server's
//! locks must not take every later request down with it.
//!
//! Each lock here guards data that is whole between statements (a list, a map, a value swapped
//! in one assignment), so a poisoned lock's data is still sound and is used as it is.

use std::sync::{Mutex, MutexGuard, PoisonError};
#[cfg(feature = "rmcp")]
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Locks `mutex`, poisoned or not.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Reads `lock`, poisoned or not.
#[cfg(feature = "rmcp")]
pub(crate) fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

/// Writes `lock`, poisoned or not.
#[cfg(feature = "rmcp")]
pub(crate) fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}
