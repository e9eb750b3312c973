//! `mjrs-alloc`: owned [`Model`](mjrs_core::Model) and [`Data`](mjrs_core::Data) on heap buffers.
//!
//! The core's `Model` and `Data` are views over byte buffers the caller provides. This crate
//! provides those buffers from the heap, sized from the layout, and keeps what lives outside the
//! buffer (sizes, options, scalars, arena bookkeeping) in a header next to it:
//!
//! * [`OwnedModel`]: MuJoCo's `mjModel*` as returned by `mj_loadModel` / `mj_copyModel`.
//! * [`OwnedData`]: MuJoCo's `mjData*` as returned by `mj_makeData` / `mj_copyData`.
//!
//! Both hand out the core views through guards ([`ModelGuard`], [`DataGuard`]) that
//! dereference to `Model` / `Data` and, when dropped, write the view's header back into the
//! owner, so edits to `opt`, `time` or the warning counters persist like edits to the arrays.
//!
//! ```
//! # fn demo(blob: &[u8]) -> Result<(), mjrs_core::mjb::MjbError> {
//! use mjrs_alloc::{OwnedData, OwnedModel};
//! let mut model = OwnedModel::from_mjb(blob)?;
//! let mut m = model.view();
//! m.opt.timestep = 0.001; // kept in `model` when `m` is dropped
//! let mut data = OwnedData::new(&m)?;
//! data.view().qpos[0] = 0.5; // a `Data` for the duration of the statement
//! # Ok(()) }
//! ```
#![no_std]
#![warn(missing_docs)]

extern crate alloc;

/// The core, under the name the files shared with the f32 command line use.
use mjrs_core as mj;

mod buffer;
mod data;
mod model;
pub mod sdflib;

pub use data::{DataGuard, OwnedData};
pub use model::{ModelGuard, OwnedModel};

/// Registers every first-party plugin of the core ([`mjrs_core::plugin::register_first_party`])
/// and the heap builder of the mesh SDF's octrees ([`sdflib::register_builder`]).
pub fn register_first_party() {
    mjrs_core::plugin::register_first_party();
    sdflib::register_builder();
}
