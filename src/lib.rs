//! mjrs: a MuJoCo-compatible physics simulator. This facade re-exports the layers.
pub use mjrs_alloc as alloc_front;
pub use mjrs_core as core;
pub use mjrs_std as std_front;
