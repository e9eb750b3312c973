//! mjrs: a MuJoCo-compatible physics simulator. This facade re-exports the layers and holds
//! the pieces of the command-line tool that tests reuse (the JSON dumps).
pub use mjrs_alloc as alloc_front;
pub use mjrs_core as core;
pub use mjrs_std as std_front;

pub mod control;
pub mod dump;
pub mod rollout;
pub mod simulate;
