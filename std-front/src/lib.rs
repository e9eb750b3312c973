//! `mjrs-std`: what needs an operating system, around the `no_std` core.
//!
//! * [`vfs`]: MuJoCo's virtual file system (`mjVFS` and its functions).
//! * [`file`]: reading a whole file as MuJoCo does, refusing what it refuses.
//! * [`mjb_file`]: MJB model files on disk or in a VFS (`mj_loadModel`, `mj_saveModel`).
//! * [`thread_pool`]: MuJoCo's thread pool (`mju_threadPoolCreate`, `mju_bindThreadPool`, ...).
//! * [`rollout`]: batches of rollouts on a thread pool.
//! * [`handlers`]: error, warning and log handlers (`mju_user_error`, `mju_user_warning`),
//!   warning texts and the report of warnings raised during simulation.
//!
//! Owned models and datas come from `mjrs-alloc` and are re-exported here.

#![warn(missing_docs)]

pub mod file;
pub mod handlers;
pub mod mjb_file;
pub mod rollout;
pub mod thread_pool;
pub mod vfs;

pub use file::{read_file, MAX_FILE_BYTES};
pub use handlers::{
    clear_handlers, error, log, set_error_handler, set_log_handler, set_warning_handler, warning,
    warning_text, write_num_bytes, Handler, WarningReporter,
};
pub use mjb_file::{load_mjb, save_mjb, LoadError, SaveError};
pub use mjrs_alloc::{DataGuard, ModelGuard, OwnedData, OwnedModel};
pub use rollout::rollout_threaded;
pub use thread_pool::{
    bind_thread_pool, Task, TaskPanicked, TaskStatus, ThreadPool, ThreadPoolError,
};
pub use vfs::{vfs_name, Vfs, VfsError, MAX_VFS, MAX_VFS_NAME};

/// Writes `bytes` to `path` so that the file is either the old one or the whole new one: into
/// a temporary file beside it, flushed to disk, then renamed over it. On failure the
/// temporary file is removed and `path` is untouched.
pub fn write_atomic(
    path: impl AsRef<std::path::Path>,
    bytes: impl AsRef<[u8]>,
) -> std::io::Result<()> {
    use std::io::Write as _;
    let (path, bytes) = (path.as_ref(), bytes.as_ref());
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "no file name to write")
    })?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
