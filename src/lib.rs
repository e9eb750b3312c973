//! mjrs: a MuJoCo 3.1.6-compatible physics simulator in Rust. This package is the `mjrs`
//! command-line tool (`cargo install --path .`, then `mjrs simulate`, `mjrs render`,
//! `mjrs view`, ...) and a small facade over the layers:
//!
//! * [`core`] (`mjrs-core`): the `no_std`, allocation-free simulator:
//!   `Model`/`Data` on caller memory, MJB, the pipeline, derivatives, rollouts; `mjrs-core-f32`
//!   is the same source with `Real = f32` ([`f32`](mod@f32) holds the tool's f32 paths);
//! * [`alloc_front`] (`mjrs-alloc`): owned models and datas on the heap;
//! * [`std_front`] (`mjrs-std`): files, the VFS, handlers, the thread pool,
//!   threaded rollouts;
//! * `mjrs-xml`: the MJCF/URDF compiler; `mjrs-gl`: visualization, the OpenGL renderer, the
//!   viewer (depend on them directly).
//!
//! The other modules are the command-line tool's pieces that tests reuse (JSON dumps in the
//! shape of MuJoCo's reference tool, the control law, the renderer driver). Runnable examples of
//! the library are in the repository's `examples/` (`cargo run --release --example simulate`);
//! the README's snippets are compiled and run as doctests of this package.
// control.rs, dump.rs and stepping.rs are compiled once per precision (here and in `f32`), on
// purpose: one source, two cores
#![allow(clippy::duplicate_mod)]
// the f32 octree builder of the mesh SDF is mjrs-alloc's source file, which names `alloc`
extern crate alloc;

pub use mjrs_alloc as alloc_front;
pub use mjrs_core as core;
pub use mjrs_std as std_front;

// the core of the root modules' precision (the shared files name it `super::mj`)
use mjrs_core as mj;

pub mod control;
pub mod dump;
pub mod f32;
/// MuJoCo's API functions and their counterparts in mjrs: the page `docs/functions.md`.
#[doc = include_str!("../docs/functions.md")]
pub mod functions {}
pub mod limits;
pub mod load_speed;
pub mod render;
pub mod rollout;
pub mod scene;
pub mod simulate;
pub mod speed;
pub mod stdout;
pub mod stepping;

/// The README's Rust snippets, compiled and run as doctests so that they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The line the tool prints once when it is the fast build (feature `fast`, issue 25) but cannot
/// run at the fast build's full speed: compiled without a hardware fused multiply-add (the
/// target feature `fma`, e.g. `RUSTFLAGS="-C target-cpu=x86-64-v3"`). It then runs the fast
/// build's reordered sums with separate multiplies and adds: nothing is refused, results stay
/// within the fast build's measured accuracy. `None` for the exact build and a full fast build.
pub fn fast_notice() -> Option<&'static str> {
    if cfg!(feature = "fast") && !FAST_FUSED {
        Some(
            "fast build without hardware fused multiply-add (build it with RUSTFLAGS=\"-C \
             target-cpu=x86-64-v3\" or native): multiply-adds round twice, at about the exact \
             build's speed",
        )
    } else {
        None
    }
}

/// Whether the fast build's multiply-adds are fused (`mjrs_core::math::fast::FUSED`).
#[cfg(feature = "fast")]
const FAST_FUSED: bool = mjrs_core::math::fast::FUSED;
#[cfg(not(feature = "fast"))]
const FAST_FUSED: bool = false;
