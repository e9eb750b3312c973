//! The firmware example embeds a checked-in f32 MJB blob; it must be what
//! `mjrs compile --f32 firmware-example/model/inverted_double_pendulum.xml` writes today.

use std::path::Path;

#[test]
fn firmware_blob_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../firmware-example/model");
    let xml = dir.join("inverted_double_pendulum.xml");
    let mut c = mjrs_xml::load_xml(&xml, None).unwrap_or_else(|e| panic!("{}: {e}", xml.display()));
    let m = c.model.view();
    let mut blob = vec![0u8; mjrs_core::mjb::save_size(&m, 4)];
    let n = mjrs_core::mjb::save(&m, &mut blob, 4).unwrap();
    let checked_in = std::fs::read(dir.join("inverted_double_pendulum.mjb")).unwrap();
    assert!(
        blob[..n] == checked_in[..],
        "firmware-example/model/inverted_double_pendulum.mjb is stale: regenerate it with \
         `cargo run --release -- compile --f32 firmware-example/model/inverted_double_pendulum.xml \
         -o firmware-example/model/inverted_double_pendulum.mjb`"
    );
}
