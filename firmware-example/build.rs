//! Gives the linker the memory map of the board chosen by feature (`memory.x`, read by
//! cortex-m-rt's `link.x`).
use std::path::PathBuf;

fn main() {
    let netduino = std::env::var_os("CARGO_FEATURE_BOARD_NETDUINO").is_some();
    let file = if netduino {
        "memory-netduino.x"
    } else {
        "memory-mps2.x"
    };
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    std::fs::copy(file, out.join("memory.x")).expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed={file}");
    println!("cargo:rerun-if-changed=build.rs");
}
