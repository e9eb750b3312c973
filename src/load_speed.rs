//! `mjrs speed M.mjb --load N`: the cost of loading an MJB blob (`mj_loadModel` from memory),
//! beside the cost of copying the same bytes, so the loader can be held to "close to a copy".

use mjrs_alloc::OwnedModel;
use std::hint::black_box;
use std::time::Instant;

/// Result of [`load_speed`].
pub struct LoadSpeed {
    /// Bytes of the blob.
    pub bytes: usize,
    /// Loads timed.
    pub loads: usize,
    /// Best wall time of one load, in seconds (heap allocation unless f32, copy, validation).
    pub seconds_per_load: f64,
    /// Best wall time of one copy of the blob's bytes into a fresh heap buffer, in seconds.
    pub seconds_per_copy: f64,
}

impl LoadSpeed {
    /// One line of JSON.
    pub fn to_json(&self, model: &str) -> String {
        let mb = self.bytes as f64 / 1e6;
        format!(
            "{{\"model\": \"{model}\", \"bytes\": {}, \"loads\": {}, \"seconds_per_load\": {:.9}, \"load_megabytes_per_second\": {:.1}, \"seconds_per_copy\": {:.9}, \"copy_megabytes_per_second\": {:.1}, \"load_over_copy\": {:.2}}}",
            self.bytes,
            self.loads,
            self.seconds_per_load,
            mb / self.seconds_per_load,
            self.seconds_per_copy,
            mb / self.seconds_per_copy,
            self.seconds_per_load / self.seconds_per_copy
        )
    }
}

/// Loads `blob` `loads` times and copies it as many times into new buffers; the best time of
/// each, as noise only adds time. Each load makes a new owned model, as `mj_loadModel` does;
/// with `f32`, the f32 core loads into one buffer allocated beforehand, as a device does.
pub fn load_speed(blob: &[u8], loads: usize, f32: bool) -> Result<LoadSpeed, String> {
    let mut best_load = f64::INFINITY;
    if f32 {
        let header = mjrs_core_f32::mjb::read_header(blob).map_err(|e| e.to_string())?;
        let mut buf = vec![0u8; header.model_bytes().map_err(|e| e.to_string())?];
        mjrs_core_f32::plugin::register_first_party();
        for _ in 0..loads {
            let t = Instant::now();
            let m = mjrs_core_f32::mjb::load(black_box(blob), &mut buf);
            best_load = best_load.min(t.elapsed().as_secs_f64());
            black_box(m.map_err(|e| e.to_string())?);
        }
    } else {
        for _ in 0..loads {
            let t = Instant::now();
            let m = OwnedModel::from_mjb(black_box(blob)).map_err(|e| e.to_string())?;
            best_load = best_load.min(t.elapsed().as_secs_f64());
            drop(black_box(m));
        }
    }
    let mut best_copy = f64::INFINITY;
    for _ in 0..loads {
        let t = Instant::now();
        let copy = black_box(blob).to_vec();
        best_copy = best_copy.min(t.elapsed().as_secs_f64());
        drop(black_box(copy));
    }
    Ok(LoadSpeed {
        bytes: blob.len(),
        loads,
        seconds_per_load: best_load,
        seconds_per_copy: best_copy,
    })
}
