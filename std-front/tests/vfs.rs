//! The virtual file system against MuJoCo 3.1.6's `user_vfs.c` semantics and return codes.

mod common;

use mjrs_std::{Vfs, VfsError, MAX_VFS, MAX_VFS_NAME};

#[test]
fn names_are_stored_without_path_in_lower_case() {
    let mut vfs = Vfs::new();
    vfs.add_buffer("assets/meshes\\Arm.STL", b"solid".as_slice())
        .unwrap();
    assert_eq!(vfs.names().collect::<Vec<_>>(), ["arm.stl"]);
    for name in ["arm.stl", "ARM.stl", "other/dir/Arm.STL", "c:\\x\\arm.stl"] {
        assert_eq!(vfs.find(name), Some(&b"solid"[..]), "{name}");
        assert_eq!(vfs.find_index(name), Some(0));
    }
    assert_eq!(vfs.find("arm.st"), None);
    assert_eq!(vfs.len(), 1);
}

#[test]
fn a_repeated_name_is_code_2() {
    let mut vfs = Vfs::new();
    vfs.add_buffer("a/model.xml", vec![1]).unwrap();
    let e = vfs.add_buffer("b/MODEL.XML", vec![2]).unwrap_err();
    assert!(matches!(e, VfsError::RepeatedName(ref n) if n == "model.xml"));
    assert_eq!(e.code(), 2);
    assert_eq!(vfs.find("model.xml"), Some(&[1u8][..]));
}

#[test]
fn the_vfs_is_full_at_mjmaxvfs_minus_one_files_code_1() {
    let mut vfs = Vfs::new();
    for i in 0..MAX_VFS - 1 {
        vfs.add_buffer(&format!("f{i}"), vec![0]).unwrap();
    }
    assert_eq!(vfs.len(), 1999);
    assert_eq!(vfs.add_buffer("one-more", vec![0]).unwrap_err().code(), 1);
    // the capacity check comes first: even a missing file is "full"
    let e = vfs.add_file(None, "/no/such/file").unwrap_err();
    assert!(matches!(e, VfsError::Full));
    vfs.delete("f0").unwrap();
    vfs.add_buffer("one-more", vec![0]).unwrap();
}

#[test]
fn add_file_reads_dir_and_name_and_stores_the_name_only() {
    let dir = common::scratch_dir("add_file");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/Mesh.OBJ"), b"v 0 0 0").unwrap();
    let mut vfs = Vfs::new();
    vfs.add_file(Some(&dir), "sub/Mesh.OBJ").unwrap();
    assert_eq!(vfs.find("mesh.obj"), Some(&b"v 0 0 0"[..]));

    // no directory, or an empty one: the name is the path
    let full = dir.join("sub/Mesh.OBJ");
    let mut vfs = Vfs::new();
    vfs.add_file(Some(std::path::Path::new("")), full.to_str().unwrap())
        .unwrap();
    assert_eq!(
        vfs.add_file(None, full.to_str().unwrap())
            .unwrap_err()
            .code(),
        2
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn add_file_of_a_missing_file_is_code_minus_1() {
    let dir = common::scratch_dir("missing");
    let mut vfs = Vfs::new();
    let e = vfs.add_file(Some(&dir), "absent.xml").unwrap_err();
    assert_eq!(e.code(), -1);
    match &e {
        VfsError::Read { path, .. } => assert_eq!(path, &dir.join("absent.xml")),
        other => panic!("expected a read error, got {other:?}"),
    }
    assert!(e.to_string().contains("absent.xml"));
    assert!(vfs.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn delete_moves_later_files_forward_and_misses_are_minus_1() {
    let mut vfs = Vfs::new();
    for name in ["a", "b", "c"] {
        vfs.add_buffer(name, name.as_bytes()).unwrap();
    }
    vfs.delete("dir/B").unwrap();
    assert_eq!(vfs.find_index("c"), Some(1));
    assert_eq!(vfs.find("b"), None);
    let e = vfs.delete("b").unwrap_err();
    assert!(matches!(e, VfsError::NotFound(_)));
    assert_eq!(e.code(), -1);
    vfs.clear();
    assert!(vfs.is_empty());
}

#[test]
fn names_and_buffers_mujoco_rejects_are_minus_1() {
    let mut vfs = Vfs::new();
    let empty_name = vfs.add_buffer("dir/", vec![1]).unwrap_err();
    assert!(matches!(empty_name, VfsError::EmptyName(_)));
    assert_eq!(empty_name.code(), -1);
    let long = "x".repeat(MAX_VFS_NAME);
    let too_long = vfs.add_buffer(&format!("dir/{long}"), vec![1]).unwrap_err();
    assert!(matches!(too_long, VfsError::NameTooLong(_)));
    assert_eq!(too_long.code(), -1);
    vfs.add_buffer(&long[1..], vec![1]).unwrap();
    let no_bytes = vfs.add_buffer("empty.bin", Vec::new()).unwrap_err();
    assert!(matches!(no_bytes, VfsError::EmptyBuffer(_)));
    assert_eq!(no_bytes.code(), -1);
    assert_eq!(vfs.find(""), None);
    assert_eq!(vfs.len(), 1);
}
