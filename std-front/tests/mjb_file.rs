//! MJB files from disk and from the VFS.

mod common;

use mjrs_core::mjb::MjbError;
use mjrs_std::{load_mjb, save_mjb, LoadError, OwnedModel, SaveError, Vfs};

#[test]
fn loads_from_disk() {
    let mut model = load_mjb(common::pendulum_path(), None).unwrap();
    assert_eq!(model.view().key_qpos, &[0.7, 0.2]);
}

#[test]
fn the_vfs_comes_before_the_disk() {
    let blob = std::fs::read(common::pendulum_path()).unwrap();
    let mut edited = OwnedModel::from_mjb(&blob).unwrap();
    edited.view().opt.timestep = 0.123;
    let mut vfs = Vfs::new();
    vfs.add_buffer("pendulum.mjb", edited.to_mjb(8).unwrap())
        .unwrap();
    // the VFS matches the stripped name: the disk file of that path is not read
    let from_vfs = load_mjb(common::pendulum_path(), Some(&vfs)).unwrap();
    assert_eq!(from_vfs.header().opt.timestep, 0.123);
    let only_in_vfs = load_mjb("/nowhere/PENDULUM.mjb", Some(&vfs)).unwrap();
    assert_eq!(only_in_vfs.header().opt.timestep, 0.123);
    // not in the VFS: the disk
    let empty = Vfs::new();
    let from_disk = load_mjb(common::pendulum_path(), Some(&empty)).unwrap();
    assert_eq!(from_disk.header().opt.timestep, 0.01);
}

#[test]
fn a_missing_file_is_an_io_error_naming_the_path() {
    let e = load_mjb("/nowhere/model.mjb", Some(&Vfs::new())).unwrap_err();
    assert!(matches!(e, LoadError::Io { .. }));
    assert_eq!(e.path(), std::path::Path::new("/nowhere/model.mjb"));
    let text = e.to_string();
    assert!(
        text.starts_with("cannot read '/nowhere/model.mjb': "),
        "{text}"
    );
    assert!(!text.contains('\n'));
}

#[test]
fn a_bad_blob_is_an_mjb_error_naming_the_path() {
    let mut vfs = Vfs::new();
    vfs.add_buffer("bad.mjb", vec![1, 2, 3, 4, 5, 6, 7, 8])
        .unwrap();
    let e = load_mjb("bad.mjb", Some(&vfs)).unwrap_err();
    assert!(matches!(
        e,
        LoadError::Mjb {
            source: MjbError::BadMagic(_),
            ..
        }
    ));
    let text = e.to_string();
    assert!(
        text.starts_with("cannot load 'bad.mjb': not an MJB file"),
        "{text}"
    );
    assert!(!text.contains('\n'));
}

#[test]
fn save_then_load_gives_mujocos_bytes() {
    let dir = common::scratch_dir("save");
    let original = std::fs::read(common::pendulum_path()).unwrap();
    let mut model = OwnedModel::from_mjb(&original).unwrap();
    let out = dir.join("copy.mjb");
    save_mjb(&model.view(), &out, 8).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), original);
    save_mjb(&model.view(), &out, 4).unwrap();
    let compact = load_mjb(&out, None).unwrap();
    // same model; only `nbuffer`, MuJoCo's byte count for the width, differs
    assert_eq!(compact.sizes().nq, model.sizes().nq);
    assert_eq!(compact.sizes().nkey, model.sizes().nkey);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn save_errors_name_the_path() {
    let mut model = load_mjb(common::pendulum_path(), None).unwrap();
    let e = save_mjb(&model.view(), "/nowhere/dir/m.mjb", 8).unwrap_err();
    assert!(matches!(e, SaveError::Io { .. }));
    assert!(e
        .to_string()
        .starts_with("cannot write '/nowhere/dir/m.mjb': "));
    let e = save_mjb(&model.view(), "/tmp/unused.mjb", 2).unwrap_err();
    assert!(matches!(
        e,
        SaveError::Mjb {
            source: MjbError::BadRealSize(2),
            ..
        }
    ));
}
