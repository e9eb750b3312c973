//! A model on your own static memory, as a microcontroller runs it:
//! `cargo run --release --example static_memory`.
//!
//! The MJB blob is compiled into the program (`include_bytes!`: flash on a device), and `Model`
//! and `Data` are carved from one fixed-size `static` arena. Nothing is allocated on the heap for
//! them: `mjrs-core` is `no_std` without `alloc` and takes the memory it is given. (A device
//! declares the arena as a `static mut` handed out once by its runtime, see `firmware-example/`;
//! here a `Mutex` gives the same `&mut [u8]` without `unsafe`.)

use std::sync::Mutex;

use mjrs_core::{mjb, Data};

/// The model: Gymnasium's hopper as MuJoCo 3.1.6 wrote it (`mj_saveModel`).
static BLOB: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/mjb/hopper.mjb"
));

/// Bytes for the model and the data together (the data's arena, `<size memory>`, is most of it).
const ARENA_BYTES: usize = 4 << 20;

/// The arena: zeros in `.bss`, no heap.
static ARENA: Mutex<[u8; ARENA_BYTES]> = Mutex::new([0; ARENA_BYTES]);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut arena = ARENA.lock().map_err(|_| "arena poisoned")?;

    // the header tells how much memory the model and the data need, before anything is loaded
    let header = mjb::read_header(BLOB)?;
    let model_bytes = header.model_bytes()?;
    let data_bytes = Data::bytes_needed(&header.sizes)?;
    println!("hopper: model {model_bytes} bytes, data {data_bytes} bytes, arena {ARENA_BYTES}");
    if model_bytes + data_bytes > ARENA_BYTES {
        return Err("the arena is too small for this model".into());
    }

    // load validates every size, address and index of the blob: a damaged blob is an error
    let (model_mem, data_mem) = arena.split_at_mut(model_bytes);
    let m = mjb::load(BLOB, model_mem)?;
    let mut d = Data::new(&m, &mut data_mem[..data_bytes])?; // mj_makeData + mj_resetData

    // a hop: push the three joints for 0.1 s, then let go, 1 s in all
    let steps = (1.0 / m.opt.timestep).round() as usize;
    for k in 0..steps {
        let push = if d.time < 0.1 { 1.0 } else { 0.0 };
        d.ctrl.fill(push);
        mjrs_core::step(&m, &mut d)?;
        if (k + 1) % (steps / 4).max(1) == 0 {
            // qpos[0..2]: the torso's x and z (slide joints)
            println!(
                "t = {:.3} s  x {:+.4} m  z {:.4} m",
                d.time, d.qpos[0], d.qpos[1]
            );
        }
    }
    Ok(())
}
