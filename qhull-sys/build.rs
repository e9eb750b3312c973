//! Compiles qhull's reentrant library and the shim (`src/hull.c`) with the C compiler; nothing
//! else is needed (no libclang: the Rust side declares the shim's two functions by hand).

use std::fs;
use std::path::Path;

const QHULL: &str = "qhull/libqhull_r";

fn main() {
    let mut sources: Vec<_> = fs::read_dir(QHULL)
        .expect("qhull/libqhull_r is part of this crate")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "c"))
        .collect();
    // a fixed order keeps the archive identical from build to build
    sources.sort();
    println!("cargo:rerun-if-changed={QHULL}");
    println!("cargo:rerun-if-changed=src/hull.c");
    println!("cargo:rerun-if-changed=src/hull.h");
    cc::Build::new()
        .files(&sources)
        .file(Path::new("src/hull.c"))
        .include(QHULL)
        // qhull's own sources trip many warnings of modern compilers; they are not ours to fix
        .warnings(false)
        .compile("qhull_r");
}
