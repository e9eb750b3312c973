//! The firmware example embeds checked-in f32 MJB blobs; each must be what
//! `mjrs compile --f32 firmware-example/model/NAME.xml` writes today.

use std::path::Path;

#[test]
fn firmware_blob_is_current() {
    check_blob("inverted_double_pendulum");
}

/// The `pid` build's arm, whose actuators are MuJoCo's PID plugin.
#[test]
fn pid_firmware_blob_is_current() {
    mjrs_core::plugin::register_first_party();
    check_blob("pid_arm");
}

/// The `mpc` build's planning model and its plant (masses 10% off).
#[test]
fn mpc_firmware_blobs_are_current() {
    check_blob("cartpole");
    check_blob("cartpole_plant");
}

/// The `hopper` build's planning model and its plant (masses 10% off).
#[test]
fn hopper_firmware_blobs_are_current() {
    check_blob("hopper");
    check_blob("hopper_plant");
}

fn check_blob(name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware-example/model");
    let xml = dir.join(format!("{name}.xml"));
    let mut c = mjrs_xml::load_xml(&xml, None).unwrap_or_else(|e| panic!("{}: {e}", xml.display()));
    let blob = mjrs::f32::blob(&c.model.view()).unwrap();
    let checked_in = std::fs::read(dir.join(format!("{name}.mjb"))).unwrap();
    assert!(
        blob == checked_in,
        "firmware-example/model/{name}.mjb is stale: regenerate it with \
         `cargo run --release -- compile --f32 firmware-example/model/{name}.xml \
         -o firmware-example/model/{name}.mjb`"
    );
}
