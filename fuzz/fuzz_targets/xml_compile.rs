//! Arbitrary bytes as MJCF (seeded with the conformance models, with a dictionary of element
//! and attribute names): compile; a model that compiles is stepped 20 times.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    // bytes, not text: the reader takes files in any encoding, as MuJoCo's does (issue 22).
    // No model directory and no VFS: relative file references fail as errors
    if let Ok(mut c) = mjrs_xml::compile_bytes(bytes, "fuzz.xml", "/nonexistent/", None) {
        mjrs_fuzz::exercise(&mut c.model, 20);
    }
});
