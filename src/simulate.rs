//! `mjrs simulate` and `mjrs speed` on the f64 core: a data for the model (on the heap, at a
//! keyframe), then the loops of [`crate::stepping`].

pub use crate::speed::{timed, Speed};
use mjrs_core::{Data, Model};
use std::mem::size_of;

/// A fresh data for `m` on a heap buffer, reset to keyframe `key` if given.
fn with_data<R>(
    m: &Model,
    key: Option<i32>,
    f: impl FnOnce(&mut Data) -> Result<R, String>,
) -> Result<R, String> {
    let mut owned = new_data(m, key)?;
    let result = f(&mut owned.view());
    result
}

/// A fresh data for `m`, reset to keyframe `key` if given. MuJoCo resets without a word for a
/// key the model does not have; on the command line a typo deserves an error.
pub fn new_data(m: &Model, key: Option<i32>) -> Result<mjrs_alloc::OwnedData, String> {
    let mut owned = mjrs_alloc::OwnedData::new(m).map_err(|e| e.to_string())?;
    if let Some(k) = key {
        check_key(k, m.nkey)?;
        owned.reset_keyframe(m, k).map_err(|e| e.to_string())?;
    }
    Ok(owned)
}

/// Keyframe `k` must exist among the model's `nkey`.
pub fn check_key(k: i32, nkey: usize) -> Result<(), String> {
    if usize::try_from(k).map_or(true, |k| k >= nkey) {
        return Err(format!(
            "keyframe {k} does not exist (the model has {nkey})"
        ));
    }
    Ok(())
}

/// Simulates `duration` seconds of `m` (control law on if `control`), showing progress, then
/// prints simulated time, steps per second, energy and warnings.
pub fn run(
    m: &Model,
    name: &str,
    duration: f64,
    key: Option<i32>,
    control: bool,
) -> Result<(), String> {
    with_data(m, key, |d| {
        crate::stepping::simulate(m, d, name, duration, control)
    })
}

/// Step rate under the control law, timed like `mjref speed` (control + step in the loop,
/// nothing else): on one thread, or with a pool of `threads` workers bound to the data.
pub fn speed(
    m: &Model,
    steps: usize,
    key: Option<i32>,
    threads: Option<usize>,
) -> Result<Speed, String> {
    let data_bytes = Data::bytes_needed(m.sizes()).map_err(|e| e.to_string())? + size_of::<Data>();
    let pool = match threads {
        Some(n) => Some(mjrs_std::ThreadPool::create(n).map_err(|e| e.to_string())?),
        None => None,
    };
    let mut owned = new_data(m, key)?;
    let mut d = owned.view();
    if let Some(pool) = &pool {
        mjrs_std::bind_thread_pool(&mut d, pool);
    }
    crate::stepping::speed(m, &mut d, steps, data_bytes)
}
