//! A model on your own static memory, as a microcontroller runs it:
//! `cargo run --release --example static_memory`.
//!
//! The MJB blob is compiled into the program (`include_bytes!`: flash on a device), and `Model`
//! and `Data` are carved from one fixed-size `static` arena: nothing is allocated for them. This
//! is the firmware example's setup (`firmware-example/`) on the desktop: the f32 core
//! (`mjrs-core-f32`, `no_std` without `alloc`) and the f32 blob of an inverted double pendulum
//! whose `<size memory="16K"/>` keeps its `Data` small. (A device declares the arena as a
//! `static mut` that its runtime hands out once; here a `Mutex` gives the same `&mut [u8]`
//! without `unsafe`.)

use std::sync::Mutex;

use mjrs_core_f32::{mjb, Data};

/// The model: `firmware-example/model/inverted_double_pendulum.mjb`, written by
/// `mjrs compile --f32` (4-byte `mjtNum`).
static BLOB: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/firmware-example/model/inverted_double_pendulum.mjb"
));

/// Bytes for the model and the data together: the RAM a board sets aside for them. (Most of the
/// data is solver statistics of 200 iterations; the core's feature `lean-stats`, which the
/// firmware enables, keeps 8 and saves 107 KiB.)
const ARENA_BYTES: usize = 160 * 1024;

/// The arena: zeros (in `.bss`), never on the heap.
static ARENA: Mutex<[u8; ARENA_BYTES]> = Mutex::new([0; ARENA_BYTES]);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut arena = ARENA.lock().map_err(|_| "arena poisoned")?;

    // the header says how much memory the model and the data need, before anything is loaded
    let header = mjb::read_header(BLOB)?;
    let model_bytes = header.model_bytes()?;
    let data_bytes = Data::bytes_needed(&header.sizes)?;
    println!("model {model_bytes} bytes + data {data_bytes} bytes of a {ARENA_BYTES}-byte arena");
    if model_bytes + data_bytes > ARENA_BYTES {
        return Err("the arena is too small for this model".into());
    }

    // `load` validates every size, address and index of the blob: a damaged blob is an error
    let (model_mem, data_mem) = arena.split_at_mut(model_bytes);
    let m = mjb::load(BLOB, model_mem)?;
    let mut d = Data::new(&m, &mut data_mem[..data_bytes])?; // mj_makeData + mj_resetData

    // nudge the lower pole and let the pendulum fall for two seconds, the motor off
    d.qvel[1] = 0.1;
    let steps = (2.0 / m.opt.timestep).round() as usize;
    for k in 1..=steps {
        mjrs_core_f32::step(&m, &mut d)?; // errors are values, never panics
        if k % (steps / 8).max(1) == 0 {
            // qpos: the cart's position, the two hinge angles
            println!(
                "t = {:.2} s  cart {:+.4} m  poles {:+.4} {:+.4} rad",
                d.time, d.qpos[0], d.qpos[1], d.qpos[2]
            );
        }
    }
    Ok(())
}
