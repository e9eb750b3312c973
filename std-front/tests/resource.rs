//! Resource providers: registration and prefix matching as MuJoCo 3.1.6 does them
//! (`engine_plugin.cc`, its `engine_resource_test.cc` cases), opening and reading through
//! providers, and providers that misbehave. The registry is global to this test binary and
//! tests run in parallel: every test registers its own prefixes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use mjrs_std::resource::{is_valid_prefix, resource_exists, MAX_PREFIX_LENGTH};
use mjrs_std::{
    get_resource_provider, get_resource_provider_at_slot, load_mjb, open_resource,
    register_resource_provider, resource_provider_count, LoadError, RegisterError, Resource,
    ResourceError, ResourceProvider, Vfs,
};

mod common;

/// Serves a fixed set of files; counts opens and closes.
#[derive(Default)]
struct Files {
    files: HashMap<String, Vec<u8>>,
    opens: AtomicUsize,
    closes: AtomicUsize,
}

impl Files {
    fn with(files: &[(&str, &[u8])]) -> Arc<Self> {
        Arc::new(Files {
            files: files
                .iter()
                .map(|(n, b)| (n.to_string(), b.to_vec()))
                .collect(),
            ..Files::default()
        })
    }

    /// The name without its prefix.
    fn key(name: &str) -> &str {
        name.split_once(':').map_or(name, |(_, k)| k)
    }

    fn balanced(&self) -> bool {
        self.opens.load(Ordering::SeqCst) == self.closes.load(Ordering::SeqCst)
    }
}

impl ResourceProvider for Files {
    fn open(&self, resource: &mut Resource) -> bool {
        self.opens.fetch_add(1, Ordering::SeqCst);
        resource.timestamp = "AAAAAAAAAAA=".into();
        self.files.contains_key(Self::key(resource.name()))
    }

    fn read<'a>(&'a self, resource: &'a mut Resource) -> Option<&'a [u8]> {
        self.files
            .get(Self::key(resource.name()))
            .map(Vec::as_slice)
    }

    fn close(&self, _: &mut Resource) {
        self.closes.fetch_add(1, Ordering::SeqCst);
    }
}

/// Opens everything, reads nothing (MuJoCo's test `open_nop`, `read_nop`, `close_nop`).
struct Nop;

impl ResourceProvider for Nop {
    fn open(&self, _: &mut Resource) -> bool {
        true
    }
    fn read<'a>(&'a self, _: &'a mut Resource) -> Option<&'a [u8]> {
        Some(&[])
    }
    fn close(&self, _: &mut Resource) {}
}

fn nop() -> Arc<dyn ResourceProvider> {
    Arc::new(Nop)
}

#[test]
fn valid_prefixes_are_uri_schemes() {
    for p in ["my-prefix.123+45", "a", "Z9", "x+y.z-w"] {
        assert!(is_valid_prefix(p), "{p}");
    }
    for p in [
        "", "1invalid", "invalid:", "-a", "a b", "a_b", "a/b", "é", "a\0",
    ] {
        assert!(!is_valid_prefix(p), "{p:?}");
    }
}

#[test]
fn registering_returns_slots_from_one() {
    let count = resource_provider_count();
    let a = register_resource_provider("my-prefix.123+44", nop()).unwrap();
    let b = register_resource_provider("my-prefix.123+46", nop()).unwrap();
    assert!(a >= 1 && b > a, "{a} {b}");
    assert!(resource_provider_count() >= count + 2);
    assert_eq!(
        get_resource_provider_at_slot(a).unwrap().prefix,
        "my-prefix.123+44"
    );
    assert_eq!(
        get_resource_provider_at_slot(b).unwrap().prefix,
        "my-prefix.123+46"
    );
    for bad in [0, -1, i32::MIN] {
        assert!(get_resource_provider_at_slot(bad).is_none());
    }
    let past = i32::try_from(resource_provider_count()).unwrap() + 1;
    assert!(get_resource_provider_at_slot(past).is_none());
}

#[test]
fn bad_prefixes_are_refused_with_mujocos_text() {
    for p in ["", "1invalid", "invalid:"] {
        let e = register_resource_provider(p, nop()).unwrap_err();
        assert_eq!(e, RegisterError::InvalidPrefix(p.into()));
        assert_eq!(
            e.to_string(),
            format!("provider->prefix is '{p}' which is not a valid URI scheme format")
        );
    }
    let long = "a".repeat(MAX_PREFIX_LENGTH);
    let e = register_resource_provider(&long, nop()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "provider->prefix length exceeds the maximum limit of 1024"
    );
    // one byte shorter fits
    assert!(register_resource_provider(&long[1..], nop()).is_ok());
}

#[test]
fn the_same_provider_again_keeps_its_slot_in_any_case() {
    let p = nop();
    let i = register_resource_provider("sameprefix", p.clone()).unwrap();
    let count = resource_provider_count();
    assert_eq!(register_resource_provider("sameprefix", p.clone()), Ok(i));
    assert_eq!(register_resource_provider("SAMEPREFIX", p), Ok(i));
    assert!(resource_provider_count() >= count);
    assert_eq!(
        get_resource_provider_at_slot(i).unwrap().prefix,
        "sameprefix"
    );
}

#[test]
fn another_provider_under_a_taken_prefix_is_refused() {
    register_resource_provider("takenprefix", nop()).unwrap();
    let e = register_resource_provider("TakenPrefix", nop()).unwrap_err();
    assert_eq!(e, RegisterError::AlreadyRegistered("TakenPrefix".into()));
    assert_eq!(
        e.to_string(),
        "resource provider 'TakenPrefix' is already registered"
    );
}

#[test]
fn names_match_the_text_before_their_first_colon_in_any_case() {
    register_resource_provider("nop", nop()).unwrap();
    for name in ["nop:found", "NOP:found", "Nop:", "nop:a:b", "nop:/x/y.xml"] {
        let p = get_resource_provider(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(p.prefix, "nop");
        assert!(open_resource(name, None).is_ok(), "{name}");
    }
    // no colon, another scheme, a prefix that is not a scheme, nothing
    for name in [
        "nopfound", "nope:x", "no p:x", "x/nop:y", "", ":nop", "1nop:x",
    ] {
        assert!(get_resource_provider(name).is_none(), "{name}");
    }
}

#[test]
fn a_provider_serves_bytes_and_closes_what_it_opened() {
    let files = Files::with(&[("file", b"Hello World\0")]);
    register_resource_provider("str", files.clone()).unwrap();
    {
        let mut r = open_resource("str:file", None).unwrap();
        assert_eq!(r.name(), "str:file");
        assert_eq!(r.read().unwrap(), b"Hello World\0");
        // read twice, as MuJoCo's loaders may
        assert_eq!(r.read_to_vec().unwrap(), b"Hello World\0");
        assert_eq!(r.timestamp(), "AAAAAAAAAAA=");
        // without getdir and modified: the empty directory, always modified
        assert_eq!(r.dir(), "");
        assert_eq!(r.is_modified(r.timestamp()), 1);
        assert!(!files.balanced());
    }
    assert!(files.balanced());
}

#[test]
fn a_failed_open_is_closed_and_reported_with_mujocos_text() {
    let files = Files::with(&[]);
    register_resource_provider("strmissing", files.clone()).unwrap();
    let e = open_resource("strmissing:notfound", None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "could not open 'strmissing:notfound'using a resource provider matching prefix 'strmissing'"
    );
    assert_eq!(files.opens.load(Ordering::SeqCst), 1);
    assert!(files.balanced());
    assert!(!resource_exists("strmissing:notfound"));
    assert!(files.balanced());
}

#[test]
fn a_name_with_a_provider_never_falls_back_to_disk() {
    let dir = std::env::temp_dir().join(format!("mjrs-resource-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let on_disk = dir.join("nodisk:file");
    std::fs::write(&on_disk, b"disk").unwrap();
    let name = on_disk.to_str().unwrap().to_owned();
    // the absolute path's prefix is not a scheme ("/tmp/..."): the disk serves it
    assert_eq!(open_resource(&name, None).unwrap().read().unwrap(), b"disk");
    // a relative name with the provider's prefix goes to the provider only
    register_resource_provider("nodisk", Files::with(&[])).unwrap();
    let e = open_resource("nodisk:file", None).unwrap_err();
    assert!(matches!(e, ResourceError::ProviderOpen { .. }), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_vfs_comes_before_providers() {
    register_resource_provider("vfsfirst", Files::with(&[("a.txt", b"provider")])).unwrap();
    let mut vfs = Vfs::new();
    // the VFS stores names without path: this one has none
    vfs.add_buffer("vfsfirst:a.txt", b"vfs".to_vec()).unwrap();
    let mut r = open_resource("VFSFIRST:A.TXT", Some(&vfs)).unwrap();
    assert_eq!(r.read().unwrap(), b"vfs");
    let mut r = open_resource("vfsfirst:a.txt", None).unwrap();
    assert_eq!(r.read().unwrap(), b"provider");
    let empty = Vfs::new();
    let mut r = open_resource("vfsfirst:a.txt", Some(&empty)).unwrap();
    assert_eq!(r.read().unwrap(), b"provider");
}

#[test]
fn disk_and_vfs_resources_take_their_directory_from_the_name() {
    let mut vfs = Vfs::new();
    vfs.add_buffer("x.xml", b"<a/>".to_vec()).unwrap();
    let r = open_resource("some/dir\\x.xml", Some(&vfs)).unwrap();
    assert_eq!(r.dir(), "some/dir\\");
    let e = open_resource("/nowhere/x.xml", None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "resource not found via provider or OS filesystem: '/nowhere/x.xml'"
    );
}

/// A provider whose callbacks misbehave in the ways a C provider can: reads that fail, odd
/// directories, panics; it counts closes.
struct Unruly {
    read: Option<&'static [u8]>,
    dir: Option<String>,
    panic_in: &'static str,
    opens: AtomicUsize,
    closes: AtomicUsize,
}

impl Unruly {
    fn new(read: Option<&'static [u8]>, dir: Option<&str>, panic_in: &'static str) -> Arc<Self> {
        Arc::new(Unruly {
            read,
            dir: dir.map(str::to_owned),
            panic_in,
            opens: AtomicUsize::new(0),
            closes: AtomicUsize::new(0),
        })
    }

    fn maybe_panic(&self, callback: &str) {
        if self.panic_in == callback {
            panic!("the provider's {callback} fails");
        }
    }
}

impl ResourceProvider for Unruly {
    fn open(&self, resource: &mut Resource) -> bool {
        self.opens.fetch_add(1, Ordering::SeqCst);
        // per-resource data is dropped with the resource whatever close does
        resource.data = Some(Box::new(vec![0u8; 64]));
        self.maybe_panic("open");
        true
    }
    fn read<'a>(&'a self, _: &'a mut Resource) -> Option<&'a [u8]> {
        self.maybe_panic("read");
        self.read
    }
    fn close(&self, _: &mut Resource) {
        self.closes.fetch_add(1, Ordering::SeqCst);
        self.maybe_panic("close");
    }
    fn getdir(&self, _: &Resource) -> Option<String> {
        self.maybe_panic("getdir");
        self.dir.clone()
    }
    fn modified(&self, _: &Resource, _: &str) -> i32 {
        self.maybe_panic("modified");
        0
    }
}

#[test]
fn a_read_that_fails_is_an_error_not_an_empty_file() {
    let p = Unruly::new(None, None, "");
    register_resource_provider("noread", p.clone()).unwrap();
    let mut r = open_resource("noread:x", None).unwrap();
    let e = r.read().unwrap_err();
    assert_eq!(e, ResourceError::Read("noread:x".into()));
    assert_eq!(e.to_string(), "error reading file 'noread:x'");
    assert_eq!(r.is_modified("t"), 0);
    drop(r);
    assert_eq!(p.closes.load(Ordering::SeqCst), 1);
}

#[test]
fn directories_are_cut_at_their_first_nul() {
    for (i, (dir, want)) in [
        ("dirs:a/", "dirs:a/"),
        ("\0garbage", ""),
        ("dirs:a/\0\u{1}\u{2}", "dirs:a/"),
        ("", ""),
    ]
    .into_iter()
    .enumerate()
    {
        let prefix = format!("dirs{i}");
        register_resource_provider(&prefix, Unruly::new(Some(b"x"), Some(dir), "")).unwrap();
        let r = open_resource(&format!("{prefix}:a/b.xml"), None).unwrap();
        assert_eq!(r.dir(), want, "{dir:?}");
    }
}

#[test]
fn panicking_callbacks_are_errors_and_resources_still_close() {
    for callback in ["open", "read", "getdir", "modified", "close"] {
        let p = Unruly::new(Some(b"bytes"), Some("pan:"), callback);
        let prefix = format!("panics-{callback}");
        register_resource_provider(&prefix, p.clone()).unwrap();
        let name = format!("{prefix}:file");
        match open_resource(&name, None) {
            Err(e) => {
                assert_eq!(callback, "open");
                assert_eq!(
                    e.to_string(),
                    format!(
                        "resource provider '{prefix}' panicked in its open callback for '{name}'"
                    )
                );
            }
            Ok(mut r) => {
                let read = r.read().map(<[u8]>::to_vec);
                match callback {
                    "read" => assert!(matches!(
                        read,
                        Err(ResourceError::ProviderPanicked {
                            callback: "read",
                            ..
                        })
                    )),
                    _ => assert_eq!(read.unwrap(), b"bytes"),
                }
                assert_eq!(r.dir(), if callback == "getdir" { "" } else { "pan:" });
                assert_eq!(
                    r.is_modified(""),
                    if callback == "modified" { 1 } else { 0 }
                );
            }
        }
        assert_eq!(p.opens.load(Ordering::SeqCst), 1, "{callback}");
        assert_eq!(p.closes.load(Ordering::SeqCst), 1, "{callback}");
    }
}

#[test]
fn providers_may_register_providers_from_their_callbacks() {
    struct Registers;
    impl ResourceProvider for Registers {
        fn open(&self, _: &mut Resource) -> bool {
            register_resource_provider("fromcallback", nop()).is_ok()
        }
        fn read<'a>(&'a self, _: &'a mut Resource) -> Option<&'a [u8]> {
            get_resource_provider("fromcallback:x").map(|_| &b"yes"[..])
        }
        fn close(&self, _: &mut Resource) {}
    }
    register_resource_provider("registers", Arc::new(Registers)).unwrap();
    let mut r = open_resource("registers:x", None).unwrap();
    assert_eq!(r.read().unwrap(), b"yes");
}

#[test]
fn mjb_models_load_through_providers() {
    let blob = std::fs::read(common::pendulum_path()).unwrap();
    register_resource_provider("mjbmem", Files::with(&[("pendulum.mjb", &blob)])).unwrap();
    let mut m = load_mjb("mjbmem:pendulum.mjb", None).unwrap();
    assert_eq!(m.view().key_qpos, &[0.7, 0.2]);
    let e = load_mjb("mjbmem:other.mjb", None).unwrap_err();
    assert!(matches!(e, LoadError::Resource { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "cannot read 'mjbmem:other.mjb': could not open 'mjbmem:other.mjb'using a resource \
         provider matching prefix 'mjbmem'"
    );
    register_resource_provider("mjbnoread", Unruly::new(None, None, "")).unwrap();
    let e = load_mjb("mjbnoread:a.mjb", None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot read 'mjbnoread:a.mjb': error reading file 'mjbnoread:a.mjb'"
    );
}

#[test]
fn disk_timestamps_compare_modification_times() {
    let dir = common::scratch_dir("resource-timestamps");
    let (old, new) = (dir.join("old.txt"), dir.join("new.txt"));
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
    for (path, when) in [(&old, t), (&new, t + std::time::Duration::from_secs(10))] {
        let f = std::fs::File::create(path).unwrap();
        f.set_modified(when).unwrap();
    }
    let old = open_resource(old.to_str().unwrap(), None).unwrap();
    let new = open_resource(new.to_str().unwrap(), None).unwrap();
    assert_eq!(old.timestamp().len(), 12);
    assert_eq!(old.is_modified(old.timestamp()), 0);
    assert_eq!(old.is_modified(new.timestamp()), -1);
    assert_eq!(new.is_modified(old.timestamp()), 1);
    for bad in ["", "not base64", "AAAA"] {
        assert_eq!(old.is_modified(bad), 1, "{bad}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn vfs_timestamps_compare_the_stamps_of_the_bytes() {
    let mut vfs = Vfs::new();
    vfs.add_buffer("a.txt", b"first".to_vec()).unwrap();
    vfs.add_buffer("b.txt", b"second".to_vec()).unwrap();
    vfs.add_buffer("c.txt", b"first".to_vec()).unwrap();
    let a = open_resource("a.txt", Some(&vfs)).unwrap();
    let b = open_resource("dir/B.TXT", Some(&vfs)).unwrap();
    let c = open_resource("c.txt", Some(&vfs)).unwrap();
    assert_eq!(a.timestamp().len(), 12);
    assert_eq!(a.timestamp(), c.timestamp());
    assert_ne!(a.timestamp(), b.timestamp());
    assert_eq!(a.is_modified(c.timestamp()), 0);
    assert_eq!(a.is_modified(b.timestamp()), 1);
    // MuJoCo's codes: not 8 bytes of Base64, a zero stamp
    assert_eq!(a.is_modified(""), 2);
    assert_eq!(a.is_modified("AAAA"), 2);
    assert_eq!(a.is_modified("AAAAAAAAAAA="), 3);
}
