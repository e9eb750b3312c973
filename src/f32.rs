//! The command-line pieces on the f32 core (`--f32`): the model converted as
//! `mjrs compile --f32` converts it (an f32 MJB blob, loaded by `mjrs-core-f32`), so the desktop
//! shows what a device computes from that blob.
//!
//! [`control`], [`dump`] and [`stepping`] are the same source files as the f64 modules of the
//! crate root, compiled against `mjrs-core-f32`; [`sdflib`] is `mjrs_alloc::sdflib`'s (the heap
//! builder of the mesh SDF's octrees) compiled against it.

use mjrs_core_f32 as mj;

#[path = "control.rs"]
pub mod control;
#[path = "dump.rs"]
pub mod dump;
#[path = "../alloc-front/src/sdflib.rs"]
pub mod sdflib;
#[path = "stepping.rs"]
pub mod stepping;

/// Converts `m` to the f32 core (through an f32 MJB blob) and calls `f` with it and a fresh
/// data, reset to keyframe `key` if given, and the bytes that data takes (arrays, arena and the
/// `Data` struct).
pub fn with_f32<R>(
    m: &mjrs_core::Model,
    key: Option<i32>,
    f: impl FnOnce(&mj::Model, &mut mj::Data, usize) -> Result<R, String>,
) -> Result<R, String> {
    let mut blob = vec![0u8; mjrs_core::mjb::save_size(m, 4)];
    let n = mjrs_core::mjb::save(m, &mut blob, 4).map_err(|e| e.to_string())?;
    let header = mj::mjb::read_header(&blob[..n]).map_err(|e| e.to_string())?;
    let mut mbuf = vec![0u8; header.model_bytes().map_err(|e| e.to_string())?];
    mj::plugin::register_first_party();
    sdflib::register_builder();
    let m = mj::mjb::load(&blob[..n], &mut mbuf).map_err(|e| format!("f32 model: {e}"))?;
    let mut dbuf = vec![0u8; mj::Data::bytes_needed(m.sizes()).map_err(|e| e.to_string())?];
    let data_bytes = dbuf.len() + size_of::<mj::Data>();
    let mut d = mj::Data::new(&m, &mut dbuf).map_err(|e| e.to_string())?;
    if let Some(k) = key {
        crate::simulate::check_key(k, m.nkey)?;
        mj::io::reset_data_keyframe(&m, &mut d, k);
    }
    f(&m, &mut d, data_bytes)
}
