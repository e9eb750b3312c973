//! Helpers shared by the test files.
#![allow(dead_code)] // each test binary uses part of it

use std::path::{Path, PathBuf};

/// The pendulum test model, compiled by MuJoCo 3.1.6 (`alloc-front/tests/data/pendulum.xml`).
pub fn pendulum_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../alloc-front/tests/data/pendulum.mjb")
}

/// A fresh empty directory for one test, under the system's temporary directory.
pub fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mjrs-std-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}
