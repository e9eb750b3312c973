//! Memory (issue 8): one `Data` of mjrs takes no more bytes than MuJoCo 3.1.6's `mjData` for the
//! same model (`sizeof(mjData) + nbuffer + narena`, from tests/fixtures/misc/mjdata_bytes.json),
//! on every model of the benchmark set, in both builds.

use mjrs_tests::{fixtures, read_json};
use std::mem::size_of;
use std::path::Path;

/// Bytes of one data of the f32 build for `m`, through the f32 MJB blob a device would load.
fn f32_data_bytes(m: &mjrs_core::Model) -> usize {
    use mjrs_core_f32 as c32;
    let mut blob = vec![0u8; mjrs_core::mjb::save_size(m, 4)];
    mjrs_core::mjb::save(m, &mut blob, 4).unwrap();
    let header = c32::mjb::read_header(&blob).unwrap();
    let mut buf = vec![0u8; header.model_bytes().unwrap()];
    let m = c32::mjb::load(&blob, &mut buf).unwrap();
    c32::Data::bytes_needed(m.sizes()).unwrap() + size_of::<c32::Data>()
}

#[test]
fn data_no_larger_than_mjdata() {
    let reference = read_json(&fixtures().join("misc/mjdata_bytes.json"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    let mut failures = Vec::new();
    for (path, theirs) in reference.as_object().unwrap() {
        let theirs = theirs["data_bytes"].as_u64().unwrap() as usize;
        let mut owned = mjrs_xml::load_xml(root.join(path), None).unwrap().model;
        let m = owned.view();
        let wide = mjrs_core::Data::bytes_needed(m.sizes()).unwrap() + size_of::<mjrs_core::Data>();
        let narrow = f32_data_bytes(&m);
        for (build, ours) in [("f64", wide), ("f32", narrow)] {
            if ours > theirs {
                failures.push(format!("{path} ({build}): {ours} bytes > mjData {theirs}"));
            }
        }
        checked += 1;
    }
    assert!(checked >= 13, "{checked} models in the fixture");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
