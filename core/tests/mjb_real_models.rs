//! Every MJB blob in `tests/data` (written by MuJoCo 3.1.6 itself, see `tests/data/README.md`)
//! loads, passes validation, and gives a `Data` whose sparse structures fit.

use std::path::{Path, PathBuf};

use mjrs_core::{mjb, Data, Model};

fn blobs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mjb"))
        .collect();
    v.sort();
    v
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Loads `path`, returning the error text on failure.
fn load_and_make_data(path: &Path) -> Result<(), String> {
    let blob = std::fs::read(path).map_err(|e| e.to_string())?;
    let header = mjb::read_header(&blob).map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; header.model_bytes().map_err(|e| e.to_string())?];
    let m: Model = mjb::load(&blob, &mut buf).map_err(|e| e.to_string())?;
    let mut dbuf = vec![0u8; Data::bytes_needed(m.sizes()).map_err(|e| e.to_string())?];
    let d = Data::new(&m, &mut dbuf).map_err(|e| e.to_string())?;
    // D and B rows tile their arrays exactly
    let d_end = d.D_rowadr.last().copied().unwrap_or(0) + d.D_rownnz.last().copied().unwrap_or(0);
    assert_eq!(d_end as usize, m.nD, "{}", path.display());
    let b_end = d.B_rowadr.last().copied().unwrap_or(0) + d.B_rownnz.last().copied().unwrap_or(0);
    assert_eq!(b_end as usize, m.nB, "{}", path.display());
    Ok(())
}

#[test]
fn every_real_blob_validates() {
    let paths = blobs(&data_dir());
    assert!(paths.len() >= 10, "expected the blobs of tests/data");
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|p| {
            load_and_make_data(p)
                .err()
                .map(|e| format!("{}: {e}", p.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Scans a directory of extra blobs given by `MJRS_MJB_DIR` (for trying many models by hand).
#[test]
#[ignore]
fn scan_extra_blobs() {
    let Ok(dir) = std::env::var("MJRS_MJB_DIR") else {
        return;
    };
    let mut bad = 0;
    for p in blobs(Path::new(&dir)) {
        if let Err(e) = load_and_make_data(&p) {
            println!("{}: {e}", p.display());
            bad += 1;
        }
    }
    println!("{bad} of {} failed", blobs(Path::new(&dir)).len());
}
