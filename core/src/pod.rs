//! One of the two places of `unsafe` code in mjrs (the other is the write-once cell of `plugin::once`): viewing a byte buffer as a slice of plain numbers.
//!
//! Audit notes. [`cast_mut`] hands out `&mut [T]` over caller bytes. That is sound when
//! 1. the start is aligned for `T` and the length is a whole number of `T` (checked at run time),
//! 2. every bit pattern is a valid `T` (true for the [`Pod`] types: integers, floats, and
//!    `#[repr(C)]` structs made only of them),
//! 3. `T` has no padding bytes, so writing a `T` never leaves bytes uninitialized that a later
//!    `&[u8]` view could read (checked by the `const` assertions beside each struct impl), and
//! 4. the result borrows the input, so the bytes cannot be reached any other way meanwhile.
#![allow(unsafe_code)]

use core::mem::{align_of, size_of};

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
