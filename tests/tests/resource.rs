//! Resource providers in the compiler: a whole model (an include that includes another file,
//! OBJ and STL meshes, a PNG texture, PNG and custom height fields, an SKN skin) served from
//! memory under a provider prefix compiles to the same model as from disk, byte for byte, and
//! to MuJoCo 3.1.6's model of the disk files (`fixtures/resource/model.mjb`, from
//! `fixtures/generate-resource.sh`) field by field and byte for byte. Providers that fail to open, fail to read,
//! give odd directories or panic give MuJoCo's errors, and every resource they open is closed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use mjrs_alloc::OwnedModel;
use mjrs_std::{register_resource_provider, Resource, ResourceProvider, Vfs};
use mjrs_tests::fixtures;
use mjrs_tests::model_diff::{differences, fields};
use mjrs_xml::{load_xml, XmlError};

/// The model's folder on disk.
fn model_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models/resource")
}

/// Every file below `dir`, by its path relative to `root` with `/` separators.
fn files_below(root: &Path, dir: &Path, out: &mut HashMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_below(root, &path, out);
        } else {
            let rel = path.strip_prefix(root).unwrap().to_str().unwrap();
            out.insert(rel.replace('\\', "/"), std::fs::read(&path).unwrap());
        }
    }
}

/// How an in-memory file system misbehaves, for the tests of bad providers.
#[derive(Default)]
struct Faults {
    /// A file (relative name) the provider does not open.
    missing: Option<&'static str>,
    /// A file whose read fails (MuJoCo's negative count).
    unreadable: Option<&'static str>,
    /// A file whose read panics.
    read_panics: Option<&'static str>,
    /// What `getdir` answers instead of the resource's directory.
    dir: Option<&'static str>,
}

/// The model's files in memory, named `PREFIX:relative/path` (the prefix in any case); the
/// directory of a resource is its name up to the last `/`, or the prefix and colon.
struct MemFs {
    files: HashMap<String, Vec<u8>>,
    faults: Faults,
    opens: AtomicUsize,
    closes: AtomicUsize,
}

impl MemFs {
    fn new(faults: Faults) -> Arc<Self> {
        let mut files = HashMap::new();
        files_below(&model_dir(), &model_dir(), &mut files);
        Arc::new(MemFs {
            files,
            faults,
            opens: AtomicUsize::new(0),
            closes: AtomicUsize::new(0),
        })
    }

    fn key(name: &str) -> &str {
        name.split_once(':').map_or(name, |(_, k)| k)
    }

    /// Opens and closes so far.
    fn counts(&self) -> (usize, usize) {
        (
            self.opens.load(Ordering::SeqCst),
            self.closes.load(Ordering::SeqCst),
        )
    }
}

impl ResourceProvider for MemFs {
    fn open(&self, resource: &mut Resource) -> bool {
        self.opens.fetch_add(1, Ordering::SeqCst);
        let key = Self::key(resource.name());
        self.files.contains_key(key) && self.faults.missing != Some(key)
    }

    fn read<'a>(&'a self, resource: &'a mut Resource) -> Option<&'a [u8]> {
        let key = Self::key(resource.name());
        if self.faults.read_panics == Some(key) {
            panic!("read of {key} fails");
        }
        if self.faults.unreadable == Some(key) {
            return None;
        }
        self.files.get(key).map(Vec::as_slice)
    }

    fn close(&self, _: &mut Resource) {
        self.closes.fetch_add(1, Ordering::SeqCst);
    }

    fn getdir(&self, resource: &Resource) -> Option<String> {
        if let Some(dir) = self.faults.dir {
            return Some(dir.to_owned());
        }
        let name = resource.name();
        let prefix_end = name.find(':').map_or(0, |i| i + 1);
        let end = name[prefix_end..]
            .rfind('/')
            .map_or(prefix_end, |i| prefix_end + i + 1);
        Some(name[..end].to_owned())
    }
}

/// Registers `fs` under `prefix` and loads `PREFIX:model.xml` (the prefix as `as_written`).
fn load_from(prefix: &str, as_written: &str, fs: &Arc<MemFs>) -> Result<OwnedModel, XmlError> {
    register_resource_provider(prefix, fs.clone()).unwrap();
    load_xml(format!("{as_written}:model.xml"), None).map(|c| c.model)
}

fn mjb(m: &mut OwnedModel) -> Vec<u8> {
    m.to_mjb(8).unwrap()
}

fn from_disk() -> OwnedModel {
    load_xml(model_dir().join("model.xml"), None).unwrap().model
}

#[test]
fn a_model_served_from_memory_compiles_as_from_disk_and_as_mujoco() {
    let fs = MemFs::new(Faults::default());
    let mut mem = load_from("mjrsmem", "mjrsmem", &fs).unwrap();
    let mut disk = from_disk();
    {
        let m = mem.view();
        assert_eq!((m.nmesh, m.ntex, m.nhfield, m.nskin), (2, 1, 2, 1));
    }
    assert_eq!(mjb(&mut mem), mjb(&mut disk));

    let blob = std::fs::read(fixtures().join("resource/model.mjb")).unwrap();
    let mut reference = OwnedModel::from_mjb(&blob).unwrap();
    let (r, m) = (reference.view(), mem.view());
    let (diffs, _) = differences(&r, &m);
    assert!(diffs.is_empty(), "{diffs:?}");
    assert!(fields(&r).len() > 400, "{}", fields(&r).len());
    drop((r, m));
    // and MuJoCo's bytes exactly
    assert_eq!(mjb(&mut mem), blob);

    // every resource opened was closed: the main file, two includes (one found on the second
    // try), seven assets and the existence checks
    let (opens, closes) = fs.counts();
    assert!(opens >= 10, "{opens}");
    assert_eq!(opens, closes);
}

#[test]
fn the_prefix_matches_in_any_case() {
    let fs = MemFs::new(Faults::default());
    let mut mem = load_from("MjrsCase", "mJRScASE", &fs).unwrap();
    assert_eq!(mjb(&mut mem), mjb(&mut from_disk()));
}

#[test]
fn the_vfs_stays_the_default_provider() {
    // the whole model from a VFS: files by their name without path, any directory
    let mut files = HashMap::new();
    files_below(&model_dir(), &model_dir(), &mut files);
    let mut vfs = Vfs::new();
    for (name, bytes) in &files {
        vfs.add_buffer(name, bytes.clone()).unwrap();
    }
    let mut from_vfs = load_xml("model.xml", Some(&vfs)).unwrap().model;
    assert_eq!(mjb(&mut from_vfs), mjb(&mut from_disk()));

    // a file in the VFS comes before the provider's file of that name
    let fs = MemFs::new(Faults::default());
    register_resource_provider("mjrsvfs", fs.clone()).unwrap();
    let mut tetra = Vfs::new();
    let bigger = String::from_utf8(files["meshes/tetra.obj"].clone())
        .unwrap()
        .replace("0.1", "0.3");
    tetra.add_buffer("tetra.obj", bigger.into_bytes()).unwrap();
    let mut mixed = load_xml("mjrsvfs:model.xml", Some(&tetra)).unwrap().model;
    let mut disk = from_disk();
    let (m, d) = (mixed.view(), disk.view());
    assert_eq!(m.nmeshvert, d.nmeshvert);
    assert!(m.mesh_vert != d.mesh_vert);
    assert_eq!(m.nhfielddata, d.nhfielddata);
    assert_eq!(fs.counts().0, fs.counts().1);
}

/// Loads the model through a provider with `faults` and returns the error text; checks that
/// every resource opened was closed.
fn error_with(prefix: &str, faults: Faults) -> String {
    let fs = MemFs::new(faults);
    let e = load_from(prefix, prefix, &fs).unwrap_err();
    let (opens, closes) = fs.counts();
    assert_eq!(opens, closes, "{prefix}");
    e.to_string()
}

#[test]
fn an_asset_the_provider_does_not_open_is_mujocos_error() {
    let faults = Faults {
        missing: Some("meshes/wedge.stl"),
        ..Faults::default()
    };
    assert_eq!(
        error_with("mjrsmissing", faults),
        "Error: could not open 'mjrsmissing:meshes/wedge.stl'using a resource provider \
         matching prefix 'mjrsmissing'"
    );
    let faults = Faults {
        missing: Some("parts/arm.xml"),
        ..Faults::default()
    };
    let e = error_with("mjrsnoinclude", faults);
    assert!(
        e.starts_with(
            "XML Error: could not open 'mjrsnoinclude:parts/arm.xml'using a resource provider \
             matching prefix 'mjrsnoinclude'\nElement 'include', line 5"
        ),
        "{e}"
    );
}

#[test]
fn unreadable_files_are_mujocos_errors_for_each_kind() {
    let cases = [
        (
            "model.xml",
            "error reading file 'P:model.xml' (file 'P:model.xml')",
        ),
        (
            "parts/bodies.xml",
            "XML Error: Error reading file 'P:parts/bodies.xml'",
        ),
        (
            "meshes/tetra.obj",
            "Error: could not read OBJ file 'P:meshes/tetra.obj'",
        ),
        (
            "meshes/wedge.stl",
            "Error: could not read STL file 'P:meshes/wedge.stl'",
        ),
        (
            "meshes/patch.skn",
            "Error: could not read SKN file 'P:meshes/patch.skn'",
        ),
        (
            "meshes/terrain.png",
            "Error: could not read PNG file 'P:meshes/terrain.png'",
        ),
        (
            "meshes/terrain.bin",
            "Error: could not read hfield file 'P:meshes/terrain.bin'",
        ),
        (
            "textures/checker.png",
            "Error: could not read PNG file 'P:textures/checker.png'",
        ),
    ];
    for (i, (file, want)) in cases.into_iter().enumerate() {
        let prefix = format!("mjrsunreadable{i}");
        let faults = Faults {
            unreadable: Some(file),
            ..Faults::default()
        };
        let e = error_with(&prefix, faults);
        let want = want.replace("P:", &format!("{prefix}:"));
        assert!(e.starts_with(&want), "{file}: {e}");
    }
}

#[test]
fn a_panicking_read_is_an_error() {
    let faults = Faults {
        read_panics: Some("meshes/wedge.stl"),
        ..Faults::default()
    };
    assert_eq!(
        error_with("mjrspanics", faults),
        "Error: resource provider 'mjrspanics' panicked in its read callback for \
         'mjrspanics:meshes/wedge.stl'"
    );
}

#[test]
fn odd_directories_resolve_nothing_but_break_nothing() {
    // a directory of garbage after a NUL is the empty directory: the include is looked for on
    // disk, relative to the working directory, and is not there
    let faults = Faults {
        dir: Some("\0\u{7f}garbage"),
        ..Faults::default()
    };
    let e = error_with("mjrsnuldir", faults);
    assert!(
        e.starts_with(
            "XML Error: resource not found via provider or OS filesystem: 'parts/bodies.xml'"
        ),
        "{e}"
    );
    // a directory of another provider's prefix: its files are looked for there
    let faults = Faults {
        dir: Some("mjrsnowhere:"),
        ..Faults::default()
    };
    let e = error_with("mjrsotherdir", faults);
    assert!(
        e.starts_with(
            "XML Error: resource not found via provider or OS filesystem: \
             'mjrsnowhere:parts/bodies.xml'"
        ),
        "{e}"
    );
}

#[test]
fn prefixed_names_are_absolute_in_a_model_from_anywhere() {
    // a model from text names the provider's files itself: the asset directory is not put in
    // front of them (mjuu_isabspath), includes and assets come from the provider
    let fs = MemFs::new(Faults::default());
    register_resource_provider("mjrsabs", fs.clone()).unwrap();
    let xml = r#"<mujoco>
      <compiler meshdir="nowhere" texturedir="nowhere"/>
      <asset>
        <mesh name="tetra" file="mjrsabs:meshes/tetra.obj"/>
        <mesh name="wedge" file="MJRSABS:meshes/wedge.stl" scale="1 2 1"/>
        <texture name="checker" type="2d" file="mjrsabs:textures/checker.png"/>
        <material name="checker" texture="checker" texrepeat="2 2"/>
      </asset>
      <worldbody>
        <include file="mjrsabs:parts/arm.xml"/>
      </worldbody>
    </mujoco>"#;
    let mut c = mjrs_xml::compile_str(xml, "text.xml", "", None).unwrap();
    let mut disk = from_disk();
    let (m, d) = (c.model.view(), disk.view());
    assert_eq!(m.nbody, 3);
    assert_eq!(m.mesh_vert, d.mesh_vert);
    assert_eq!(m.tex_rgb, d.tex_rgb);
    let paths = String::from_utf8_lossy(&m.paths);
    assert!(paths.contains("MJRSABS:meshes/wedge.stl"), "{paths}");
    drop((m, d));
    assert_eq!(fs.counts().0, fs.counts().1);
}
