//! Batches of rollouts on a thread pool: [`mjrs_core::rollout::rollout`] with one data per
//! worker, the batch cut into chunks that workers take as they become free.

use std::sync::{Mutex, PoisonError};

use mjrs_core::rollout::{rollout, RolloutBuffers, RolloutError, RolloutShape};
use mjrs_core::Model;

use crate::thread_pool::ThreadPool;
use crate::OwnedData;

/// Rollouts per chunk for MuJoCo's default `chunk_divisor` of 10: about ten chunks per worker,
/// so that workers which finish early take over the rest.
pub fn chunk_size(nroll: usize, nworker: usize) -> usize {
    (nroll / (10 * nworker.max(1))).max(1)
}

/// Runs `nroll` rollouts of `nstep` steps on `pool`, worker `w` stepping `datas[w]` (one data
/// per worker, each made for `m`). The outputs are the bits [`rollout`] writes on one data,
/// whatever the number of threads, because every rollout starts from its own initial state with
/// the same inputs. A failed step stops the batch with the error of the lowest rollout index
/// that failed.
pub fn rollout_threaded(
    pool: &ThreadPool,
    m: &Model,
    datas: &mut [OwnedData],
    nroll: usize,
    nstep: usize,
    control_spec: i32,
    b: RolloutBuffers,
) -> Result<(), RolloutError> {
    let shape = RolloutShape::new(m, nstep, control_spec)?;
    shape.check(nroll, &b)?;
    let needed = pool.nworker();
    if datas.len() < needed {
        return Err(RolloutError::DataCount {
            needed,
            got: datas.len(),
        });
    }
    if datas.iter().any(|d| d.sizes() != m.sizes()) {
        return Err(RolloutError::ModelMismatch);
    }
    let jobs = chunks(b, nroll, chunk_size(nroll, needed), &shape);
    let datas: Vec<Mutex<&mut OwnedData>> = datas.iter_mut().map(Mutex::new).collect();
    let failed: Mutex<Option<RolloutError>> = Mutex::new(None);
    pool.run_jobs(jobs.len(), |j, worker| {
        let Some((first, n, b)) = lock(&jobs[j]).take() else {
            return;
        };
        let mut data = lock(&datas[worker]);
        let done = rollout(m, &mut data.view(), n, nstep, control_spec, b);
        if let Err(e) = done {
            keep_first(&mut lock(&failed), offset(e, first));
        }
    });
    failed
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .map_or(Ok(()), Err)
}

/// A job: index of its first rollout, number of rollouts, and their buffers.
type Job<'b> = Mutex<Option<(usize, usize, RolloutBuffers<'b>)>>;

fn chunks<'b>(
    mut rest: RolloutBuffers<'b>,
    nroll: usize,
    size: usize,
    shape: &RolloutShape,
) -> Vec<Job<'b>> {
    let mut jobs = Vec::with_capacity(nroll.div_ceil(size));
    for first in (0..nroll).step_by(size) {
        let n = size.min(nroll - first);
        let (head, tail) = rest.split_at(n, shape);
        jobs.push(Mutex::new(Some((first, n, head))));
        rest = tail;
    }
    jobs
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A chunk's error with its rollout index counted from the start of the batch.
fn offset(e: RolloutError, first: usize) -> RolloutError {
    match e {
        RolloutError::Step { roll, step, error } => RolloutError::Step {
            roll: roll + first,
            step,
            error,
        },
        e => e,
    }
}

fn keep_first(slot: &mut Option<RolloutError>, e: RolloutError) {
    let roll = |e: &RolloutError| match e {
        RolloutError::Step { roll, .. } => *roll,
        _ => 0,
    };
    if slot.as_ref().is_none_or(|kept| roll(&e) < roll(kept)) {
        *slot = Some(e);
    }
}
