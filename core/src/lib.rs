//! `mjrs-core`: the `no_std`, allocation-free heart of mjrs, a MuJoCo 3.1.6-compatible simulator.
//!
//! * [`Model`] and [`Data`] are views whose arrays are carved from byte buffers that the caller
//!   provides (a `static` on a microcontroller, a `Vec` in `mjrs-alloc`). Every array is declared
//!   once, in the layout table of [`layout`], with MuJoCo's names, element types and lengths.
//! * [`mjb`] reads and writes MuJoCo's binary model format (MJB) on byte slices, validating every
//!   size, address and index before anything else touches them.
//! * [`math`] is MuJoCo's `mju_*` utility library.
//! * The pipeline, bit for bit with MuJoCo: [`step`](fn@step) and [`forward`](fn@forward)
//!   (`mj_step`, `mj_forward`), [`inverse`](fn@inverse), finite-difference derivatives
//!   ([`transition_fd`], [`inverse_fd`]), the state API ([`get_state`], [`set_state`]), [`ray`]
//!   casting, [`rollout`]s, [`print`]ing in MuJoCo's text formats. Errors are values
//!   ([`StepError`], ...), never panics, and nothing allocates.
//!
//! ```
//! use mjrs_core::{mjb, Data};
//!
//! # fn main() -> Result<(), Box<dyn core::error::Error>> {
//! # let blob = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../alloc-front/tests/data/pendulum.mjb"))?;
//! # let blob = &blob[..];
//! let header = mjb::read_header(blob)?; // sizes, to size the buffers
//! let mut model_mem = [0u8; 16 * 1024]; // any alignment; a `static` on a microcontroller
//! let m = mjb::load(blob, &mut model_mem[..header.model_bytes()?])?;
//! let mut data_mem = vec![0u8; Data::bytes_needed(m.sizes())?];
//! let mut d = Data::new(&m, &mut data_mem)?; // mj_makeData + mj_resetData
//! mjrs_core::step(&m, &mut d)?;
//! # Ok(()) }
//! ```
//!
//! `Real` is `f64`, or `f32` with the cargo feature `f32` (the package `mjrs-core-f32` builds this
//! same source with the feature on). The feature `std` uses the platform's C math functions, the
//! ones MuJoCo calls, for bit-exact results (without it: `libm`, within an ulp); `defmt` formats
//! errors for firmware logs; `lean-stats` keeps solver statistics of 8 iterations per island for
//! a smaller `Data`; `micromath` approximates the transcendental functions of f32 without `std`;
//! `fast` is the opt-in fast build, not bit for bit with MuJoCo (`math::fast`: fused
//! multiply-adds with `std` and the target feature `fma`, sums in several accumulators).
#![cfg_attr(
    feature = "f32",
    doc = "\n**This build: `Real = f32`** (the package `mjrs-core-f32`, or `mjrs-core` with the \
           feature `f32`): it loads MJB blobs with 4-byte `mjtNum`, as `mjrs compile --f32` \
           writes them, and is what the firmware example runs."
)]
#![cfg_attr(not(test), no_std)]
#![cfg_attr(feature = "core-float-math", feature(core_float_math))]
#![warn(clippy::std_instead_of_core)]
#![allow(non_snake_case)] // MuJoCo's field names (qM, efc_J, D_rownnz) are kept as they are.

// the platform's math functions, for bit-exact agreement with MuJoCo (feature `std`)
#[cfg(all(feature = "std", not(test)))]
extern crate std;

#[macro_use]
pub mod layout;

pub mod actuation;
pub mod arena;
pub mod collision;
pub mod constraint;
pub mod data;
pub mod derivative;
pub mod derivative_fd;
pub mod error;
pub mod flex;
pub mod fluid;
pub mod forward;
pub mod hash;
pub mod integrate;
pub mod inverse;
pub mod io;
pub mod island;
pub mod math;
pub mod mjb;
pub mod model;
pub mod name;
pub mod passive;
pub mod plugin;
mod pod;
pub mod print;
pub mod ray;
pub mod real;
pub mod records;
pub mod rollout;
pub mod sensor;
pub mod setconst;
pub mod smooth;
#[cfg(feature = "fast")]
mod smooth_fast;
pub mod solver;
pub mod state;
pub mod support;
pub mod tendon;
pub mod thread;
mod timer;
pub mod transmission;
pub mod types;
pub mod validate;

pub use arena::{Arena, ArenaError, Stack};
pub use data::Callbacks;
pub use data::{Data, DataHeader};
pub use derivative_fd::{inverse_fd, transition_fd, FdError, InverseJacobians};
pub use error::StepError;
pub use forward::{forward, step, step1, step2, step_skip};
pub use inverse::{compare_fwd_inv, inverse, inverse_skip};
pub use model::{Model, ModelHeader, ModelSizes, Options, Statistic, Visual};
pub use pod::{Field, ReadOnly};
pub use real::Real;
pub use setconst::{set_const, set_length_range, set_total_mass};
pub use state::{get_state, set_state, state_size, StateError};
pub use thread::Parallel;
