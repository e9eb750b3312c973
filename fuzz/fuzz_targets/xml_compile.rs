//! Arbitrary text as MJCF (seeded with the conformance models, with a dictionary of element
//! and attribute names): compile; a model that compiles is stepped 20 times.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    // no model directory and no VFS: file references fail as errors, never reach the disk
    if let Ok(mut c) = mjrs_xml::compile_str(text, "fuzz.xml", "/nonexistent/", None) {
        mjrs_fuzz::exercise(&mut c.model, 20);
    }
});
