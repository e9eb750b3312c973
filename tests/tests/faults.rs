//! Faults lose nothing: files are written whole or not at all (temporary file, then rename),
//! so a failed save never leaves a half-written or clobbered output.

use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mjrs-faults-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn entries(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn atomic_writes_replace_whole_files_and_leave_nothing_on_failure() {
    let dir = scratch("atomic");
    let file = dir.join("out.bin");
    mjrs_std::write_atomic(&file, b"first").unwrap();
    mjrs_std::write_atomic(&file, b"second, longer").unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), b"second, longer");
    // the target is a directory: the rename fails, the directory and the file stay, no temporary
    let blocked = dir.join("blocked");
    std::fs::create_dir(&blocked).unwrap();
    std::fs::write(blocked.join("keep"), b"kept").unwrap();
    assert!(mjrs_std::write_atomic(&blocked, b"data").is_err());
    assert_eq!(std::fs::read(blocked.join("keep")).unwrap(), b"kept");
    // a directory that does not exist: an error, nothing written
    assert!(mjrs_std::write_atomic(dir.join("missing/x"), b"data").is_err());
    assert_eq!(entries(&dir), ["blocked", "out.bin"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_mjb_save_keeps_the_previous_file() {
    let dir = scratch("mjb");
    let mut owned = mjrs_tests::compile_model("hopper.xml");
    let m = owned.view();
    let file = dir.join("hopper.mjb");
    mjrs_std::save_mjb(&m, &file, 8).unwrap();
    let before = std::fs::read(&file).unwrap();
    // an invalid request fails before touching the file
    assert!(mjrs_std::save_mjb(&m, &file, 5).is_err());
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // a save over a directory fails and leaves no temporary beside it
    let blocked = dir.join("blocked.mjb");
    std::fs::create_dir(&blocked).unwrap();
    assert!(mjrs_std::save_mjb(&m, &blocked, 8).is_err());
    assert_eq!(entries(&dir), ["blocked.mjb", "hopper.mjb"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
