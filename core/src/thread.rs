//! Running independent pipeline stages at the same time (MuJoCo's `mjData.threadpool`,
//! "Programming › Thread").
//!
//! The core has no threads of its own: a caller binds something that can run two jobs at once
//! to [`Data::threadpool`](crate::Data::threadpool) (`mjrs_std::ThreadPool`, via
//! `mjrs_std::bind_thread_pool`), and `forward` then computes the inertia
//! (`mj_crb`, `mj_factorM`) and the collisions (`mj_collision`) concurrently, as MuJoCo 3.1.6
//! does with a bound pool. The two stages read and write disjoint parts of `Data`, so the
//! results are the same bits with or without a pool.

/// Something that can run two jobs, possibly at the same time, and returns when both are done.
pub trait Parallel: Sync {
    /// Runs `a` and `b` to completion (concurrently if it can).
    fn join(&self, a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send));
}
