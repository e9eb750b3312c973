//! The main place of `unsafe` code in the core (the others: the write-once cell of
//! `plugin::once`, the arena arrays' views in `arena`, which rely on the invariant of
//! `ArenaTable`, and `math::fast`): viewing a byte buffer as a slice of plain numbers, and
//! [`Field`], the slice type of `Model`'s arrays, which may point into read-only bytes (a blob
//! in flash).
//!
//! Audit notes. [`cast_mut`] hands out `&mut [T]` over caller bytes. That is sound when
//! 1. the start is aligned for `T` and the length is a whole number of `T` (checked at run time),
//! 2. every bit pattern is a valid `T` (true for the [`Pod`] types: integers, floats, and
//!    `#[repr(C)]` structs made only of them),
//! 3. `T` has no padding bytes, so writing a `T` never leaves bytes uninitialized that a later
//!    `&[u8]` view could read (checked by the `const` assertions beside each struct impl), and
//! 4. the result borrows the input, so the bytes cannot be reached any other way meanwhile.
#![allow(unsafe_code)]

use core::marker::PhantomData;
use core::mem::{align_of, size_of};
use core::ptr::NonNull;

mod sealed {
    pub trait Sealed {}
}

/// Plain old data: `Copy`, valid for every bit pattern, without padding.
///
/// # Safety
/// Implement only for types that meet points 2 and 3 of the module's audit notes. The trait is
/// sealed; the implementations are all in this crate.
pub unsafe trait Pod: Copy + Default + 'static + sealed::Sealed {}

macro_rules! pod_primitive {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        // SAFETY: primitive integers and floats have no padding and no invalid bit patterns.
        unsafe impl Pod for $t {}
    )*};
}
pod_primitive!(u8, i8, i32, u32, u64, f32, f64);

/// Implements [`Pod`] for a `#[repr(C)]` struct of `Pod` fields, with a compile-time proof
/// that it has no padding: its size must equal the sum of its fields' sizes.
macro_rules! pod_struct {
    ($t:ty { $($f:ty),* $(,)? }) => {
        impl sealed::Sealed for $t {}
        const _: () = assert!(size_of::<$t>() == 0 $(+ size_of::<$f>())*);
        // SAFETY: repr(C) struct of Pod fields without padding (asserted above).
        unsafe impl Pod for $t {}
    };
}
pod_struct!(crate::records::Contact { [crate::Real; 65], [i32; 14] });
pod_struct!(crate::records::SolverStat { [crate::Real; 3], [i32; 4] });

/// Views `bytes` as `&mut [T]`, or `None` when the start is misaligned for `T` or the length is
/// not a multiple of `size_of::<T>()`.
#[inline]
pub fn cast_mut<T: Pod>(bytes: &mut [u8]) -> Option<&mut [T]> {
    let (ptr, len) = (bytes.as_mut_ptr(), bytes.len());
    if size_of::<T>() == 0
        || !(ptr as usize).is_multiple_of(align_of::<T>())
        || !len.is_multiple_of(size_of::<T>())
    {
        return None;
    }
    // SAFETY: aligned and sized (checked above), every bit pattern valid and no padding (Pod),
    // and the returned slice reborrows `bytes` for its whole lifetime.
    Some(unsafe { core::slice::from_raw_parts_mut(ptr.cast::<T>(), len / size_of::<T>()) })
}

/// Views `bytes` as `&[T]`; `None` as for [`cast_mut`].
#[inline]
pub fn cast<T: Pod>(bytes: &[u8]) -> Option<&[T]> {
    let (ptr, len) = (bytes.as_ptr(), bytes.len());
    if size_of::<T>() == 0
        || !(ptr as usize).is_multiple_of(align_of::<T>())
        || !len.is_multiple_of(size_of::<T>())
    {
        return None;
    }
    // SAFETY: as in `cast_mut`, for a shared borrow.
    Some(unsafe { core::slice::from_raw_parts(ptr.cast::<T>(), len / size_of::<T>()) })
}

/// Views a slice of plain numbers as its bytes.
pub fn as_bytes_mut<T: Pod>(s: &mut [T]) -> &mut [u8] {
    let len = core::mem::size_of_val(s);
    // SAFETY: `T` is Pod, so every byte of `s` is initialized (no padding) and any byte values
    // written through the view leave valid `T`s; u8 needs no alignment; the view reborrows `s`.
    unsafe { core::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<u8>(), len) }
}

/// Views a slice of plain numbers as its bytes, read-only.
pub fn as_bytes<T: Pod>(s: &[T]) -> &[u8] {
    let len = core::mem::size_of_val(s);
    // SAFETY: `T` is Pod, so every byte of `s` is initialized (no padding); u8 needs no
    // alignment; the view borrows `s` immutably.
    unsafe { core::slice::from_raw_parts(s.as_ptr().cast::<u8>(), len) }
}

/// One array of a `Model`: a slice of `T` that reads as `&[T]` (`m.body_pos[i]`, `.iter()`,
/// `&m.body_pos[a..b]`) and writes as `&mut [T]` through `&mut Model`.
///
/// A `Model` is either writable (every field made by [`Field::from`] a `&mut [T]`: the
/// compiler, `set_const`, desktop programs) or read-only (some fields made by `Field::shared`
/// over bytes that must never be written, such as an MJB blob in flash; such a model exists only
/// inside a [`ReadOnly`], which hands out `&Model` and never `&mut Model`).
///
/// Audit notes. A field is a pointer and a length with the lifetime of the borrow it was made
/// from. It is neither `Copy` nor `Clone` and gives out no `&'a [T]`, only borrows of itself:
/// whoever holds `&Model` reads the arrays for as long as that borrow lasts and cannot keep a
/// slice beyond it, and writes need `&mut Field`, hence `&mut Model`, which a [`ReadOnly`]
/// never gives. So a field made from `&'a mut [T]` behaves exactly like that `&'a mut [T]`, and
/// a shared field is only ever read.
pub struct Field<'a, T> {
    ptr: NonNull<T>,
    len: usize,
    life: PhantomData<&'a mut [T]>,
}

// SAFETY: a Field is a `&mut [T]` or a `&[T]` that is only read (see the audit notes): it may be
// sent or shared across threads as those may.
unsafe impl<T: Send> Send for Field<'_, T> {}
// SAFETY: as above; `&Field` only reads.
unsafe impl<T: Sync> Sync for Field<'_, T> {}

impl<'a, T> From<&'a mut [T]> for Field<'a, T> {
    fn from(s: &'a mut [T]) -> Self {
        Self {
            len: s.len(),
            ptr: NonNull::from(s).cast::<T>(),
            life: PhantomData,
        }
    }
}

impl<'a, T> Field<'a, T> {
    /// A field over bytes that must not be written. Private to this module: only
    /// [`ReadOnly::assemble_into`] makes them, inside a model it keeps read-only.
    fn shared(s: &'a [T]) -> Self {
        Self {
            len: s.len(),
            ptr: NonNull::from(s).cast::<T>(),
            life: PhantomData,
        }
    }

    /// An empty field: what a model being assembled in place holds before its arrays are
    /// placed (a zero-length slice may dangle).
    pub(crate) const fn empty() -> Self {
        Self {
            len: 0,
            ptr: NonNull::dangling(),
            life: PhantomData,
        }
    }

    /// The array as a slice, for as long as the field is borrowed.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        self
    }
}

impl<T> core::ops::Deref for Field<'_, T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` and `len` come from a live slice borrowed for 'a, which outlives
        // `&self`; reading is allowed for both kinds of field.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> core::ops::DerefMut for Field<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: `&mut self` is exclusive. A field reached mutably was made from a
        // `&'a mut [T]` (shared fields live only in a `ReadOnly` model, which gives out no
        // `&mut`), so writing is allowed and nothing else reads the slice meanwhile.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

// Indexing directly (not through `Deref`) keeps `m.x[i(m)] = v` compiling as it does for a
// `&mut [T]` field: the index is evaluated before the field is borrowed mutably.
impl<T, I: core::slice::SliceIndex<[T]>> core::ops::Index<I> for Field<'_, T> {
    type Output = I::Output;

    #[inline]
    fn index(&self, i: I) -> &I::Output {
        &self.as_slice()[i]
    }
}

impl<T, I: core::slice::SliceIndex<[T]>> core::ops::IndexMut<I> for Field<'_, T> {
    #[inline]
    fn index_mut(&mut self, i: I) -> &mut I::Output {
        &mut (**self)[i]
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for Field<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl<T: PartialEq> PartialEq for Field<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: PartialEq> PartialEq<[T]> for Field<'_, T> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialEq> PartialEq<&[T]> for Field<'_, T> {
    fn eq(&self, other: &&[T]) -> bool {
        self.as_slice() == *other
    }
}

impl<T: PartialEq, const N: usize> PartialEq<&[T; N]> for Field<'_, T> {
    fn eq(&self, other: &&[T; N]) -> bool {
        self.as_slice() == *other
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T; N]> for Field<'_, T> {
    fn eq(&self, other: &[T; N]) -> bool {
        self.as_slice() == other
    }
}

/// Where one array of a model being assembled lives: in read-only bytes, viewed in place
/// (which must hold `len` elements of `T`, aligned), or in writable memory.
pub enum Place<'a, T> {
    /// Bytes viewed in place, never written.
    Shared(&'a [u8]),
    /// An array in writable memory (filled by the caller before or after).
    Owned(&'a mut [T]),
}

/// A model whose arrays may view read-only bytes: it dereferences to `&M` and never gives
/// `&mut M`, so its [`Field`]s are only read. Built only by [`ReadOnly::assemble_into`].
pub struct ReadOnly<M>(M);

impl<M> core::ops::Deref for ReadOnly<M> {
    type Target = M;

    #[inline]
    fn deref(&self) -> &M {
        &self.0
    }
}

impl<M: core::fmt::Debug> core::fmt::Debug for ReadOnly<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

/// Chooses the [`Place`] of each array of a model being assembled (`info` describes the
/// array, `n` is its element count).
pub trait Places<'a, I> {
    /// Where the `n` elements of `T` of the array `info` live.
    fn place<T: Pod>(&mut self, info: I, n: usize) -> Place<'a, T>;
}

/// Turns the [`Place`]s of a model's arrays into [`Field`]s: handed to the model's assembler
/// by [`ReadOnly::assemble_into`], the only way shared fields are made.
pub struct Fields<'s, P> {
    places: &'s mut P,
}

impl<P> Fields<'_, P> {
    /// The field of `n` elements of `T` at the place chosen for `info`, or `None` when shared
    /// bytes are misaligned for `T` or the place does not hold `n` elements.
    #[inline]
    pub fn field<'a, T: Pod, I>(&mut self, info: I, n: usize) -> Option<Field<'a, T>>
    where
        P: Places<'a, I>,
    {
        match self.places.place::<T>(info, n) {
            Place::Shared(bytes) => {
                let s = cast::<T>(bytes)?;
                (s.len() == n).then(|| Field::shared(s))
            }
            Place::Owned(s) => (s.len() == n).then(|| Field::from(s)),
        }
    }
}

impl<M> ReadOnly<M> {
    /// Builds a read-only model in `slot`, where it stays: `empty()` is written there first
    /// (a model without arrays), then `fill` makes every array with `Fields::field` at the
    /// places `places` chooses and puts it into the model. Nothing as large as the model passes
    /// through the stack, so a microcontroller can assemble one into a `static` with a few KiB
    /// of stack. On `None` from `fill`, `slot` is left empty. (`fill` must only put the fields
    /// it makes into the model, as the layout macro's assembler does: the model it is handed
    /// is the one kept read-only.)
    pub fn assemble_into<'s, P>(
        slot: &'s mut Option<Self>,
        empty: impl FnOnce() -> M,
        places: &mut P,
        fill: impl FnOnce(&mut M, &mut Fields<'_, P>) -> Option<()>,
    ) -> Option<&'s Self> {
        let model = &mut slot.insert(ReadOnly(empty())).0;
        if fill(model, &mut Fields { places }).is_none() {
            *slot = None;
        }
        slot.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cast_checks_alignment_and_length() {
        #[repr(align(8))]
        struct Aligned([u8; 32]);
        let mut buf = Aligned([0; 32]);
        let bytes = &mut buf.0[..];
        assert!(
            cast_mut::<f64>(&mut bytes[1..9]).is_none(),
            "misaligned start"
        );
        assert!(
            cast_mut::<f64>(&mut bytes[0..12]).is_none(),
            "partial element"
        );
        let f = cast_mut::<f64>(&mut bytes[8..24]).unwrap();
        f[1] = 2.5;
        assert_eq!(cast::<f64>(&bytes[16..24]).unwrap(), &[2.5]);
    }
}
