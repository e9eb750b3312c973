//! mjrs: a MuJoCo-compatible physics simulator. This facade re-exports the layers and holds
//! the pieces of the command-line tool that tests reuse (the JSON dumps).
// control.rs, dump.rs and stepping.rs are compiled once per precision (here and in `f32`), on
// purpose: one source, two cores
#![allow(clippy::duplicate_mod)]
pub use mjrs_alloc as alloc_front;
pub use mjrs_core as core;
pub use mjrs_std as std_front;

// the core of the root modules' precision (the shared files name it `super::mj`)
use mjrs_core as mj;

pub mod control;
pub mod dump;
pub mod f32;
pub mod render;
pub mod rollout;
pub mod scene;
pub mod simulate;
pub mod stepping;
