//! Arbitrary bytes as an MJB file: header, load, validation; a model that loads is stepped
//! (forward and 50 steps) under the invariants of `mjrs_fuzz::check_data`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mjrs_alloc::OwnedModel;

fuzz_target!(|bytes: &[u8]| {
    // a refused blob is an error value, which is fine; a panic is the bug
    if let Ok(mut owned) = OwnedModel::from_mjb(bytes) {
        // what loads saves, and loads back to the same bytes
        let saved = owned.to_mjb(8).expect("a loaded model saves");
        let mut again = OwnedModel::from_mjb(&saved).expect("a saved model loads");
        assert_eq!(
            again.to_mjb(8).expect("saves again"),
            saved,
            "MJB save-load-save changed bytes"
        );
        mjrs_fuzz::exercise(&mut owned, 50);
    }
});
