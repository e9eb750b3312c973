//! `mjrs-std`: what needs an operating system, around the `no_std` core.
//!
//! * [`vfs`]: MuJoCo's virtual file system (`mjVFS` and its functions).
//! * [`mod@file`]: reading a whole file as MuJoCo does, refusing what it refuses.
//! * [`output`]: writing output files safely (atomic replacement, devices in place, links and
//!   read-only files refused).
//! * [`resource`]: MuJoCo's resource providers (`mjp_registerResourceProvider`, ...): names with a
//!   registered prefix (`mem:model.xml`) are read through the provider's callbacks; the
//!   loaders read everything (models, includes, assets, MJB files) through [`resource::open_resource`].
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
pub mod output;
pub mod resource;
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
pub use output::write_file;
pub use resource::{
    get_resource_provider, get_resource_provider_at_slot, open_resource,
    register_resource_provider, resource_provider_count, OpenResource, RegisterError,
    RegisteredProvider, Resource, ResourceError, ResourceProvider,
};
pub use rollout::rollout_threaded;
pub use thread_pool::{
    bind_thread_pool, Task, TaskPanicked, TaskStatus, ThreadPool, ThreadPoolError,
};
pub use vfs::{vfs_name, Vfs, VfsError, MAX_VFS, MAX_VFS_NAME};
