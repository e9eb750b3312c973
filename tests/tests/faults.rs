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
    mjrs_std::write_file(&file, b"first").unwrap();
    mjrs_std::write_file(&file, b"second, longer").unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), b"second, longer");
    // the target is a directory: the rename fails, the directory and the file stay, no temporary
    let blocked = dir.join("blocked");
    std::fs::create_dir(&blocked).unwrap();
    std::fs::write(blocked.join("keep"), b"kept").unwrap();
    assert!(mjrs_std::write_file(&blocked, b"data").is_err());
    assert_eq!(std::fs::read(blocked.join("keep")).unwrap(), b"kept");
    // a directory that does not exist: an error, nothing written
    assert!(mjrs_std::write_file(dir.join("missing/x"), b"data").is_err());
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

/// `multiple_objects.xml` with an arena of `kb` kilobytes.
fn objects(kb: usize) -> mjrs_alloc::OwnedModel {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/models/");
    let xml = std::fs::read_to_string(format!("{dir}multiple_objects.xml")).unwrap();
    let text = xml.replacen('>', &format!("><size memory=\"{kb}K\"/>"), 1);
    mjrs_xml::compile_str(&text, "objects.xml", dir, None)
        .unwrap()
        .model
}

#[test]
fn an_arena_that_runs_out_mid_step_loses_nothing() {
    // 32K holds the contacts (MuJoCo drops what does not fit, with a warning) but not the
    // solver's scratch once the pile settles: the step fails with an arena error
    let mut small = objects(32);
    let m = small.view();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    let (mut qpos, mut qvel, mut time) = (Vec::new(), Vec::new(), 0.0);
    let mut failed = false;
    for _ in 0..400 {
        (qpos, qvel, time) = (d.qpos.to_vec(), d.qvel.to_vec(), d.time);
        if let Err(e) = mjrs_core::step(&m, &mut d) {
            assert!(matches!(e, mjrs_core::StepError::Arena(_)), "{e}");
            failed = true;
            break;
        }
    }
    assert!(failed, "the 32K arena did not run out");
    // the state of the failed step is what it was before it; the stack is empty again
    assert_eq!(
        (d.qpos.to_vec(), d.qvel.to_vec(), d.time),
        (qpos.clone(), qvel.clone(), time)
    );
    assert_eq!(d.arena.state.pstack, 0);
    // a bigger arena takes the state over and goes on
    let mut big = objects(256);
    let mb = big.view();
    let mut bigdata = mjrs::simulate::new_data(&mb, None).unwrap();
    let mut db = bigdata.view();
    db.qpos.copy_from_slice(&qpos);
    db.qvel.copy_from_slice(&qvel);
    db.time = time;
    for _ in 0..50 {
        mjrs_core::step(&mb, &mut db).unwrap();
    }
    // and reset_data brings the small one back to a state it can step from
    mjrs_core::io::reset_data(&m, &mut d);
    for _ in 0..50 {
        mjrs_core::step(&m, &mut d).unwrap();
    }
}

#[test]
fn files_that_vanish_or_change_underfoot_are_errors() {
    let dir = scratch("vanish");
    let mut owned = mjrs_tests::compile_model("hopper.xml");
    let m = owned.view();
    let file = dir.join("hopper.mjb");
    mjrs_std::save_mjb(&m, &file, 8).unwrap();
    assert!(mjrs_std::load_mjb(&file, None).is_ok());
    // cut short (a writer still at work, a full disk): refused, not half-loaded
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let err = mjrs_std::load_mjb(&file, None).unwrap_err().to_string();
    assert!(err.contains("hopper.mjb"), "{err}");
    // gone: an error naming it
    std::fs::remove_file(&file).unwrap();
    assert!(mjrs_std::load_mjb(&file, None).is_err());
    // a model whose mesh file vanished between writing and compiling
    let mesh = dir.join("wedge.stl");
    std::fs::write(&mesh, b"solid w\nendsolid w\n").unwrap();
    let xml = dir.join("m.xml");
    std::fs::write(
        &xml,
        r#"<mujoco><asset><mesh file="wedge.stl"/></asset><worldbody><geom type="mesh" mesh="wedge"/></worldbody></mujoco>"#,
    )
    .unwrap();
    std::fs::remove_file(&mesh).unwrap();
    let err = mjrs_xml::load_xml(&xml, None)
        .err()
        .expect("a missing mesh is an error")
        .to_string();
    assert!(err.contains("wedge"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
