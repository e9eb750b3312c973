//! MuJoCo's thread pool (`mjThreadPool`, `mjTask` and the `mju_threadPool*` functions of
//! "API Reference › Thread") on top of `rayon`'s pool.
//!
//! | MuJoCo | mjrs |
//! | --- | --- |
//! | `mju_threadPoolCreate(n)` | [`ThreadPool::create`] |
//! | `mjThreadPool.nworker`, `mju_threadPoolNumberOfThreads` | [`ThreadPool::nworker`] |
//! | `mju_threadPoolCurrentWorkerId` | [`ThreadPool::current_worker_id`] |
//! | `mju_defaultTask` + `mju_threadPoolEnqueue` | [`ThreadPool::enqueue`] (returns the [`Task`]) |
//! | `mjTask.status` | [`Task::status`] |
//! | `mju_taskJoin` | [`Task::join`] |
//! | `mju_bindThreadPool` | [`bind_thread_pool`] |
//! | `mju_threadPoolDestroy` | dropping the pool (queued tasks still run) |
//!
//! A task is a Rust closure that owns what it uses (`'static`), so a task cannot outlive the
//! data it points to as a C `mjTask.args` can. For jobs that borrow (a batch of rollouts writing
//! into the caller's buffers), [`ThreadPool::run_jobs`] runs them and returns only when all are
//! done.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use mjrs_core::{Data, Parallel};

/// Most worker threads a pool may have (`mjMAXTHREAD`).
pub const MAXTHREAD: usize = 128;

/// Why a pool could not be made.
#[derive(Debug)]
pub enum ThreadPoolError {
    /// Zero workers, or more than [`MAXTHREAD`]. (MuJoCo silently makes a pool that never runs
    /// a task for zero and caps larger numbers.)
    BadThreadCount(usize),
    /// The operating system refused a thread.
    Spawn(String),
}

impl std::error::Error for ThreadPoolError {}

impl fmt::Display for ThreadPoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThreadPoolError::BadThreadCount(n) => {
                write!(f, "a thread pool needs 1 to {MAXTHREAD} threads, not {n}")
            }
            ThreadPoolError::Spawn(e) => write!(f, "cannot start the thread pool: {e}"),
        }
    }
}

/// A pool of worker threads (`mjThreadPool`).
pub struct ThreadPool {
    pool: rayon::ThreadPool,
}

impl ThreadPool {
    /// A pool of `nworker` threads (`mju_threadPoolCreate`).
    pub fn create(nworker: usize) -> Result<Self, ThreadPoolError> {
        if !(1..=MAXTHREAD).contains(&nworker) {
            return Err(ThreadPoolError::BadThreadCount(nworker));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(nworker)
            .thread_name(|i| format!("mjrs-worker-{i}"))
            .build()
            .map_err(|e| ThreadPoolError::Spawn(e.to_string()))?;
        Ok(Self { pool })
    }

    /// Number of worker threads (`mjThreadPool.nworker`).
    pub fn nworker(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Index of the calling worker thread in this pool, `None` on a thread outside it
    /// (`mju_threadPoolCurrentWorkerId`).
    pub fn current_worker_id(&self) -> Option<usize> {
        self.pool.current_thread_index()
    }

    /// Queues `func` to run on a worker (`mju_threadPoolEnqueue`); the returned task tells
    /// when it is done. A panic in `func` is caught and reported by [`Task::join`].
    pub fn enqueue(&self, func: impl FnOnce() + Send + 'static) -> Task {
        let shared = Arc::new(TaskShared::default());
        shared
            .status
            .store(TaskStatus::Queued as u8, Ordering::Release);
        let worker_side = Arc::clone(&shared);
        self.pool.spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(func)).map_err(|_| TaskPanicked);
            worker_side.complete(outcome);
        });
        Task { shared }
    }

    /// Runs `job(j, worker)` for every `j` in `0..njobs` on the pool's workers (`worker` is
    /// the index of the thread running it, below [`ThreadPool::nworker`]) and returns when all
    /// have finished. Jobs may borrow from the caller; a panic in one is raised here after the
    /// others are done.
    pub fn run_jobs(&self, njobs: usize, job: impl Fn(usize, usize) + Sync) {
        let job = &job;
        self.pool.scope(|s| {
            for j in 0..njobs {
                s.spawn(move |_| job(j, rayon::current_thread_index().unwrap_or(0)));
            }
        });
    }
}

impl fmt::Debug for ThreadPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadPool")
            .field("nworker", &self.nworker())
            .finish()
    }
}

impl Parallel for ThreadPool {
    fn join(&self, a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)) {
        self.pool.join(a, b);
    }
}

/// Binds `pool` to `d` (`mju_bindThreadPool`): `forward` and `step` on `d` then compute the
/// inertia and the collisions at the same time, with the same results. The binding lasts as
/// long as this view of the data (a new `OwnedData::view` starts unbound). MuJoCo 3.1.6 also
/// solves constraint islands in parallel when islands are enabled with the CG solver; mjrs
/// solves them one after the other.
pub fn bind_thread_pool<'a>(d: &mut Data<'a>, pool: &'a ThreadPool) {
    d.threadpool = Some(pool);
}

/// Where a task is in its life (`mjtTaskStatus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum TaskStatus {
    /// Created, not queued (`mjTASK_NEW`); a task from [`ThreadPool::enqueue`] is never new.
    New = 0,
    /// Waiting or running in a pool (`mjTASK_QUEUED`).
    Queued = 1,
    /// Finished (`mjTASK_COMPLETED`), normally or by a panic.
    Completed = 2,
}

/// A task's function panicked; the pool and its other tasks are unaffected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskPanicked;

impl std::error::Error for TaskPanicked {}

impl fmt::Display for TaskPanicked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the task panicked")
    }
}

/// A task queued in a pool (`mjTask`).
#[derive(Debug)]
pub struct Task {
    shared: Arc<TaskShared>,
}

impl Task {
    /// The task's status (`mjTask.status`).
    pub fn status(&self) -> TaskStatus {
        match self.shared.status.load(Ordering::Acquire) {
            0 => TaskStatus::New,
            1 => TaskStatus::Queued,
            _ => TaskStatus::Completed,
        }
    }

    /// Waits until the task has run (`mju_taskJoin`); an error if its function panicked.
    pub fn join(self) -> Result<(), TaskPanicked> {
        let mut done = self.shared.lock();
        while done.is_none() {
            done = self
                .shared
                .finished
                .wait(done)
                .unwrap_or_else(PoisonError::into_inner);
        }
        done.unwrap_or(Ok(()))
    }
}

/// What a task and the worker running it share.
#[derive(Debug, Default)]
struct TaskShared {
    status: AtomicU8,
    outcome: Mutex<Option<Result<(), TaskPanicked>>>,
    finished: Condvar,
}

impl TaskShared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Result<(), TaskPanicked>>> {
        self.outcome.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn complete(&self, outcome: Result<(), TaskPanicked>) {
        *self.lock() = Some(outcome);
        self.status
            .store(TaskStatus::Completed as u8, Ordering::Release);
        self.finished.notify_all();
    }
}
