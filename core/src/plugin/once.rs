//! A write-once cell for static tables (the plugin registry, the SDF octrees): no heap, no lock
//! held while reading.
//!
//! A cell is written once, under its own flag, and published with a release store; readers
//! load the flag with acquire and never see a half-written value. Values are never freed.
//! With `pod`, this is the only `unsafe` code of mjrs: a lock-free write-once cell, which `core`
//! does not offer.
#![allow(unsafe_code)]

use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicU8, Ordering};

const EMPTY: u8 = 0;
const WRITING: u8 = 1;
const READY: u8 = 2;

/// A value written at most once, then read by any thread.
pub(crate) struct Once<T: Copy> {
    state: AtomicU8,
    value: UnsafeCell<Option<T>>,
}

// SAFETY: `value` is written only by the thread that moved `state` from EMPTY to WRITING, and
// read only after `state` is READY (release/acquire), after which it never changes.
unsafe impl<T: Copy + Send + Sync> Sync for Once<T> {}

impl<T: Copy> Once<T> {
    pub(crate) const fn new() -> Self {
        Self {
            state: AtomicU8::new(EMPTY),
            value: UnsafeCell::new(None),
        }
    }

    /// The value, once it is written.
    pub(crate) fn get(&self) -> Option<T> {
        if self.state.load(Ordering::Acquire) == READY {
            // SAFETY: READY means the write happened before and no other write follows.
            unsafe { *self.value.get() }
        } else {
            None
        }
    }

    /// Writes `v` into the empty cell; false if another value got there first.
    pub(crate) fn claim(&self, v: T) -> bool {
        if self
            .state
            .compare_exchange(EMPTY, WRITING, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return false;
        }
        // SAFETY: this thread alone holds WRITING; readers ignore the cell until READY.
        unsafe { *self.value.get() = Some(v) };
        self.state.store(READY, Ordering::Release);
        true
    }

    /// Waits out a write in progress (a few stores on another thread).
    pub(crate) fn settled(&self) -> Option<T> {
        while self.state.load(Ordering::Acquire) == WRITING {
            core::hint::spin_loop();
        }
        self.get()
    }
}
