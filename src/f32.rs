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

/// `m` as an f32 MJB blob (`mjrs compile --f32`): its reals rounded to f32, then the flexes'
/// rest configuration measured by the f32 core in `qpos0` (`setconst::set_flex0`), so that a
/// flex at rest is at rest in f32: edge lengths rounded from f64 differ from those the f32 core
/// computes from the rounded vertex positions by an ulp of those positions, a residual every
/// edge equality constraint then pulls on.
pub fn blob(m: &mjrs_core::Model) -> Result<Vec<u8>, String> {
    let mut blob = vec![0u8; mjrs_core::mjb::save_size(m, 4)];
    let n = mjrs_core::mjb::save(m, &mut blob, 4).map_err(|e| e.to_string())?;
    blob.truncate(n);
    if m.nflex == 0 {
        return Ok(blob);
    }
    let mut mbuf = model_buffer(&blob)?;
    let mut m = load(&blob, &mut mbuf)?;
    let mut dbuf = vec![0u8; mj::Data::bytes_needed(m.sizes()).map_err(|e| e.to_string())?];
    let mut d = mj::Data::new(&m, &mut dbuf).map_err(|e| e.to_string())?;
    mj::setconst::set_flex0(&mut m, &mut d).map_err(|e| format!("f32 flex rest: {e}"))?;
    let mut out = vec![0u8; mj::mjb::save_size(&m, 4)];
    let n = mj::mjb::save(&m, &mut out, 4).map_err(|e| e.to_string())?;
    out.truncate(n);
    Ok(out)
}

/// A buffer of the size the f32 core's model from `blob` needs.
fn model_buffer(blob: &[u8]) -> Result<Vec<u8>, String> {
    let header = mj::mjb::read_header(blob).map_err(|e| e.to_string())?;
    Ok(vec![0u8; header.model_bytes().map_err(|e| e.to_string())?])
}

/// The f32 core's model from `blob` in `buf`, with the plugins the command line registers.
fn load<'a>(blob: &[u8], buf: &'a mut [u8]) -> Result<mj::Model<'a>, String> {
    mj::plugin::register_first_party();
    sdflib::register_builder();
    mj::mjb::load(blob, buf).map_err(|e| format!("f32 model: {e}"))
}

/// Converts `m` to the f32 core (through its f32 MJB blob, [`blob`]) and calls `f` with it and
/// a fresh data, reset to keyframe `key` if given, and the bytes that data takes (arrays, arena
/// and the `Data` struct).
pub fn with_f32<R>(
    m: &mjrs_core::Model,
    key: Option<i32>,
    f: impl FnOnce(&mj::Model, &mut mj::Data, usize) -> Result<R, String>,
) -> Result<R, String> {
    let blob = blob(m)?;
    let mut mbuf = model_buffer(&blob)?;
    let m = load(&blob, &mut mbuf)?;
    let mut dbuf = vec![0u8; mj::Data::bytes_needed(m.sizes()).map_err(|e| e.to_string())?];
    let data_bytes = dbuf.len() + size_of::<mj::Data>();
    let mut d = mj::Data::new(&m, &mut dbuf).map_err(|e| e.to_string())?;
    if let Some(k) = key {
        crate::simulate::check_key(k, m.nkey)?;
        mj::io::reset_data_keyframe(&m, &mut d, k);
    }
    f(&m, &mut d, data_bytes)
}
