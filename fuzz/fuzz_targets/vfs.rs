//! Arbitrary operations on a virtual file system (add, find, delete, clear, with arbitrary
//! names and contents), then compiling an MJCF model from it whose assets and includes name
//! those files: stored files read back unchanged, names follow MuJoCo's rules, and nothing
//! reaches the disk.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use mjrs_std::vfs::{vfs_name, Vfs};

#[derive(Arbitrary, Debug)]
enum Op {
    Add(String, Vec<u8>),
    Delete(String),
    Find(String),
    Clear,
}

#[derive(Arbitrary, Debug)]
struct Input {
    ops: Vec<Op>,
    model: String,
}

fuzz_target!(|input: Input| {
    let mut vfs = Vfs::new();
    let mut shadow: Vec<(String, Vec<u8>)> = Vec::new();
    for op in input.ops.iter().take(32) {
        match op {
            Op::Add(name, bytes) => {
                let full = vfs.len() >= mjrs_std::vfs::MAX_VFS - 1;
                let added = vfs.add_buffer(name, bytes.clone());
                match vfs_name(name) {
                    Ok(stored)
                        if !full
                            && !bytes.is_empty()
                            && !shadow.iter().any(|(n, _)| *n == stored) =>
                    {
                        assert!(added.is_ok(), "valid new name {name:?} refused: {added:?}");
                        shadow.push((stored, bytes.clone()));
                    }
                    _ => assert!(added.is_err(), "bad or repeated name {name:?} accepted"),
                }
            }
            Op::Delete(name) => {
                let stored = vfs_name(name).ok();
                let known = shadow.iter().position(|(n, _)| Some(n) == stored.as_ref());
                assert_eq!(vfs.delete(name).is_ok(), known.is_some(), "delete {name:?}");
                if let Some(k) = known {
                    shadow.remove(k);
                }
            }
            Op::Find(name) => {
                let stored = vfs_name(name).ok();
                let expect = shadow
                    .iter()
                    .find(|(n, _)| Some(n) == stored.as_ref())
                    .map(|(_, b)| b.as_slice());
                assert_eq!(vfs.find(name), expect, "find {name:?}");
            }
            Op::Clear => {
                vfs.clear();
                shadow.clear();
            }
        }
        assert_eq!(vfs.len(), shadow.len());
    }
    // a model reading the VFS: includes and assets resolve there or fail as errors
    if let Ok(mut c) = mjrs_xml::compile_str(&input.model, "fuzz.xml", "/nonexistent/", Some(&vfs))
    {
        mjrs_fuzz::exercise(&mut c.model, 5);
    }
});
