//! Cortex-M firmware example for mjrs (arrives with the firmware issue): a MuJoCo MJB blob
//! compiled into flash with `include_bytes!`, `Model` and `Data` carved from `static` byte
//! arrays, a fixed-rate control loop calling `mjrs_core::step`, and `defmt` logging, run under
//! QEMU (`mps2-an386`). Nothing here yet.
#![no_std]
