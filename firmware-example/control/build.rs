//! Puts the MJB blob the firmware embeds into OUT_DIR: the checked-in inverted double pendulum,
//! or the f32 blob named by MJRS_FIRMWARE_BLOB (the footprint runs of run.sh).
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=MJRS_FIRMWARE_BLOB");
    let default =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../model/inverted_double_pendulum.mjb");
    let blob = std::env::var_os("MJRS_FIRMWARE_BLOB").map_or(default, PathBuf::from);
    println!("cargo:rerun-if-changed={}", blob.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("model.mjb");
    std::fs::copy(&blob, &out)
        .unwrap_or_else(|e| panic!("cannot copy the blob {}: {e}", blob.display()));
}
