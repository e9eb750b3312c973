//! Gives the linker the memory map of the board chosen by feature (`memory.x`, read by
//! cortex-m-rt's `link.x`), and tells the program which tasks it holds: `cfg(lqr)` for the
//! LQR task (feature `lqr`, or no other task chosen), `cfg(pick)` when several tasks are built
//! in and the semihosting command line picks one at run time.
use std::path::PathBuf;

/// The features that each add a task program (`footprint` replaces them all).
const TASKS: [&str; 4] = ["PID", "MPC", "HOPPER", "BAD_BLOB"];

fn main() {
    let feature = |name: &str| std::env::var_os(format!("CARGO_FEATURE_{name}")).is_some();
    let file = if feature("BOARD_NETDUINO") {
        "memory-netduino.x"
    } else {
        "memory-mps2.x"
    };
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    std::fs::copy(file, out.join("memory.x")).expect("copy memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed={file}");
    println!("cargo:rerun-if-changed=build.rs");

    println!("cargo:rustc-check-cfg=cfg(lqr)");
    println!("cargo:rustc-check-cfg=cfg(pick)");
    if feature("FOOTPRINT") {
        return;
    }
    let others = TASKS.iter().filter(|t| feature(t)).count();
    let lqr = feature("LQR") || others == 0;
    if lqr {
        println!("cargo:rustc-cfg=lqr");
    }
    if others + usize::from(lqr) > 1 {
        println!("cargo:rustc-cfg=pick");
    }
}
