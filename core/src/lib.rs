//! `mjrs-core`: the `no_std`, allocation-free heart of mjrs, a MuJoCo 3.1.6-compatible simulator.
//!
//! * [`Model`] and [`Data`] are views whose arrays are carved from byte buffers that the caller
//!   provides (a `static` on a microcontroller, a `Vec` in `mjrs-alloc`). Every array is declared
//!   once, in the layout table of [`layout`], with MuJoCo's names, element types and lengths.
//! * [`mjb`] reads and writes MuJoCo's binary model format (MJB) on byte slices, validating every
//!   size, address and index before anything else touches them.
//! * [`math`] is MuJoCo's `mju_*` utility library.
//!
//! `Real` is `f64`, or `f32` with the cargo feature `f32` (the package `mjrs-core-f32` builds this
//! same source with the feature on).
#![cfg_attr(not(test), no_std)]
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
pub mod fluid;
pub mod forward;
pub mod integrate;
pub mod inverse;
pub mod io;
pub mod island;
pub mod math;
pub mod mjb;
pub mod model;
pub mod name;
pub mod passive;
mod pod;
pub mod print;
pub mod ray;
pub mod real;
pub mod records;
pub mod rollout;
pub mod sensor;
pub mod setconst;
pub mod smooth;
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
pub use real::Real;
pub use setconst::{set_const, set_length_range, set_total_mass};
pub use state::{get_state, set_state, state_size, StateError};
pub use thread::Parallel;
