//! Heap buffers for the core's carvers.
//!
//! The core carves arrays from a byte buffer starting at its first byte aligned to the
//! layout's base alignment ([`MAX_ALIGN`] for a model, [`DATA_ALIGN`] for a data), and
//! `bytes_needed` includes the slack for that skip. A `Vec<u8>` has no alignment guarantee
//! beyond 1, so two buffers may skip different amounts: copying an owned model or data byte for
//! byte must move the carved region to the destination's skip.

use alloc::vec::Vec;
#[cfg(doc)]
use mjrs_core::arena::DATA_ALIGN;
use mjrs_core::arena::MAX_ALIGN;
use mjrs_core::ArenaError;

/// Bytes the core skips at the start of `buf` to reach a base aligned to `base` (at least
/// [`MAX_ALIGN`]).
fn align_skip(buf: &[u8], base: usize) -> usize {
    let base = base.max(MAX_ALIGN);
    (base - buf.as_ptr() as usize % base) % base
}

/// A zeroed buffer of `n` bytes; a heap that cannot provide it is an error, not an abort
/// (sizes can come from a file).
pub(crate) fn zeroed(n: usize) -> Result<Vec<u8>, ArenaError> {
    heap_can_provide(n)?;
    // `vec!` takes zeroed memory from calloc, which maps large blocks as zero pages instead of
    // writing every byte: an arena of many megabytes costs nothing until it is used
    Ok(alloc::vec![0u8; n])
}

/// Asks the heap for `n` bytes without aborting and gives them back: the fallible check before
/// the zeroed allocation, which has no fallible form without `unsafe`.
fn heap_can_provide(n: usize) -> Result<(), ArenaError> {
    let mut probe = Vec::<u8>::new();
    probe
        .try_reserve_exact(n)
        .map_err(|_| ArenaError::NoHeap { needed: n })?;
    // an allocation nobody looks at may be removed by the optimizer, and its check with it
    core::hint::black_box(probe.as_mut_ptr());
    Ok(())
}

/// Copies the carved region of `src` into `dst`, a buffer of the same length, so that the core
/// carves the same arrays from `dst` as from `src` whatever the two alignments are; `base` is
/// the layout's base alignment.
pub(crate) fn copy_carved(src: &[u8], dst: &mut [u8], base: usize) {
    debug_assert_eq!(src.len(), dst.len());
    let (from, to) = (align_skip(src, base), align_skip(dst, base));
    // the region is `len - (base - 1)` bytes; this copies at least that many
    let n = src.len().min(dst.len()).saturating_sub(from.max(to));
    dst[to..to + n].copy_from_slice(&src[from..from + n]);
}

/// A copy of `src` (a layout of base alignment `base`) that carves like `src`; allocation
/// failure is an error.
pub(crate) fn try_clone(src: &[u8], base: usize) -> Result<Vec<u8>, ArenaError> {
    let mut dst = zeroed(src.len())?;
    copy_carved(src, &mut dst, base);
    Ok(dst)
}

/// A copy of `src` (a layout of base alignment `base`) that carves like `src` (aborts if the
/// heap is exhausted, as `Clone` does).
pub(crate) fn clone(src: &[u8], base: usize) -> Vec<u8> {
    let mut dst = alloc::vec![0; src.len()];
    copy_carved(src, &mut dst, base);
    dst
}

#[cfg(test)]
mod tests {
    use super::*;
    use mjrs_core::{Model, ModelSizes};

    #[test]
    fn copy_between_differently_aligned_buffers_keeps_the_arrays() {
        let sizes = ModelSizes {
            nq: 3,
            nv: 3,
            nbody: 2,
            ..Default::default()
        };
        let n = Model::bytes_needed(&sizes).unwrap();
        let (mut a, mut b) = (alloc::vec![0u8; n + 8], alloc::vec![0u8; n + 8]);
        for (sa, sb) in [(0, 3), (5, 1), (2, 2), (7, 0)] {
            let src = &mut a[sa..sa + n];
            let mut m = Model::carve(sizes, src).unwrap();
            m.qpos0.copy_from_slice(&[1.0, 2.0, 3.0]);
            m.body_mass[1] = 4.5;
            let header = m.header();
            let dst = &mut b[sb..sb + n];
            copy_carved(&a[sa..sa + n], dst, MAX_ALIGN);
            let copy = Model::view(&header, dst).unwrap();
            assert_eq!(copy.qpos0, &[1.0, 2.0, 3.0]);
            assert_eq!(copy.body_mass, &[0.0, 4.5]);
        }
    }

    #[test]
    fn impossible_allocation_is_an_error() {
        assert_eq!(
            zeroed(usize::MAX),
            Err(ArenaError::NoHeap { needed: usize::MAX })
        );
        // larger than any address space, but a valid layout: the heap itself must say no
        let n = 1usize << 60;
        assert_eq!(zeroed(n), Err(ArenaError::NoHeap { needed: n }));
    }
}
