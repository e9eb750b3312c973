//! Owned models and datas whose core views live as long as they do.
//!
//! `mjrs_alloc`'s [`OwnedModel`] and [`OwnedData`] lend a core `Model`/`Data` through a guard
//! that borrows them. A Python object cannot hold a borrow, and carving the ~470 arrays again for
//! every `mj_step` would cost more than MuJoCo's whole call overhead. So each owner here is put
//! on the heap once, its guard taken for the heap address's lifetime and kept next to it; the
//! NumPy views point into the same buffer. The guard is dropped before the owner it borrows.

use core::mem::ManuallyDrop;
use core::ops::{Deref, DerefMut};

use mjrs_alloc::{DataGuard, ModelGuard, OwnedData, OwnedModel};

/// Leaks `owner` to the heap for the lifetime of its guard; `free` gives the memory back.
fn leak<T>(owner: T) -> (&'static mut T, usize) {
    let leaked = Box::leak(Box::new(owner));
    let address = core::ptr::from_mut(leaked) as usize;
    (leaked, address)
}

/// Frees what [`leak`] leaked at `address`.
///
/// # Safety
/// `address` came from `leak::<T>`, is freed once, and nothing borrows the value any more.
#[allow(unsafe_code)]
unsafe fn free<T>(address: usize) {
    // SAFETY: the caller's contract: a live `Box<T>` leaked at `address`, no borrows left
    drop(unsafe { Box::from_raw(address as *mut T) });
}

/// An [`OwnedModel`] with its view: what a Python `MjModel` holds.
pub struct ModelCell {
    view: ManuallyDrop<ModelGuard<'static>>,
    /// The leaked `OwnedModel` the view borrows (an address, so the cell stays `Send`).
    owner: usize,
}

impl ModelCell {
    /// Takes ownership of `model` and keeps its view.
    pub fn new(model: OwnedModel) -> Self {
        let (leaked, owner) = leak(model);
        Self {
            view: ManuallyDrop::new(leaked.view()),
            owner,
        }
    }
}

impl Drop for ModelCell {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: the view borrowing the owner is dropped first and never used again; the
        // owner was leaked by `new` and is freed only here
        unsafe {
            ManuallyDrop::drop(&mut self.view);
            free::<OwnedModel>(self.owner);
        }
    }
}

impl Deref for ModelCell {
    type Target = mjrs_core::Model<'static>;

    fn deref(&self) -> &Self::Target {
        &self.view
    }
}

impl DerefMut for ModelCell {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.view
    }
}

/// An [`OwnedData`] with its view: what a Python `MjData` holds.
pub struct DataCell {
    view: ManuallyDrop<DataGuard<'static>>,
    /// The leaked `OwnedData` the view borrows (an address, so the cell stays `Send`).
    owner: usize,
}

impl DataCell {
    /// Takes ownership of `data` and keeps its view.
    pub fn new(data: OwnedData) -> Self {
        let (leaked, owner) = leak(data);
        Self {
            view: ManuallyDrop::new(leaked.view()),
            owner,
        }
    }
}

impl Drop for DataCell {
    #[allow(unsafe_code)]
    fn drop(&mut self) {
        // SAFETY: as for `ModelCell`
        unsafe {
            ManuallyDrop::drop(&mut self.view);
            free::<OwnedData>(self.owner);
        }
    }
}

impl Deref for DataCell {
    type Target = mjrs_core::Data<'static>;

    fn deref(&self) -> &Self::Target {
        &self.view
    }
}

impl DerefMut for DataCell {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.view
    }
}
