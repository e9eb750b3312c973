//! Memory (issue 8): one `Data` of mjrs takes no more bytes than MuJoCo 3.1.6's `mjData` for the
//! same model (`sizeof(mjData) + nbuffer + narena`, from tests/fixtures/misc/mjdata_bytes.json),
//! on every model of the benchmark set, in both builds.

use mjrs_tests::{fixtures, read_json};
use std::mem::size_of;
use std::path::Path;

/// Bytes of one data of the f32 build for `m`, through the f32 MJB blob a device would load.
fn f32_data_bytes(m: &mjrs_core::Model) -> usize {
    use mjrs_core_f32 as c32;
    let mut blob = vec![0u8; mjrs_core::mjb::save_size(m, 4)];
    mjrs_core::mjb::save(m, &mut blob, 4).unwrap();
    let header = c32::mjb::read_header(&blob).unwrap();
    let mut buf = vec![0u8; header.model_bytes().unwrap()];
    let m = c32::mjb::load(&blob, &mut buf).unwrap();
    c32::Data::bytes_needed(m.sizes()).unwrap() + size_of::<c32::Data>()
}

#[test]
fn data_no_larger_than_mjdata() {
    let reference = read_json(&fixtures().join("misc/mjdata_bytes.json"));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    let mut failures = Vec::new();
    for (path, theirs) in reference.as_object().unwrap() {
        let theirs = theirs["data_bytes"].as_u64().unwrap() as usize;
        let mut owned = mjrs_xml::load_xml(root.join(path), None).unwrap().model;
        let m = owned.view();
        let wide = mjrs_core::Data::bytes_needed(m.sizes()).unwrap() + size_of::<mjrs_core::Data>();
        let narrow = f32_data_bytes(&m);
        for (build, ours) in [("f64", wide), ("f32", narrow)] {
            if ours > theirs {
                failures.push(format!("{path} ({build}): {ours} bytes > mjData {theirs}"));
            }
        }
        checked += 1;
    }
    assert!(checked >= 13, "{checked} models in the fixture");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Records where the wide `f64` arrays of a data start (those of two or more AVX vectors, which
/// [`mjrs_core::arena::DATA_ALIGN`] places at vector boundaries).
struct WideStarts(Vec<(&'static str, usize)>);

impl mjrs_core::layout::ArrayVisitor for WideStarts {
    fn array<T: mjrs_core::layout::Elem>(
        &mut self,
        info: &mjrs_core::layout::FieldInfo,
        data: &[T],
    ) {
        let bytes = std::mem::size_of_val(data);
        if std::mem::align_of::<T>() == 8 && bytes >= 2 * mjrs_core::arena::DATA_ALIGN {
            self.0.push((info.name, data.as_ptr() as usize));
        }
    }
}

/// Every wide `f64` array of a data, and its arena, start at a vector boundary whatever the
/// alignment of the buffer (caller buffers at every 8-byte offset, an owned data and its clone),
/// so that a model's speed does not depend on where the heap put its data; and the clone keeps
/// the values.
#[test]
fn wide_arrays_start_at_vectors_from_any_buffer() {
    use mjrs_core::arena::DATA_ALIGN;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut owned = mjrs_xml::load_xml(root.join("tests/models/hopper.xml"), None)
        .unwrap()
        .model;
    let m = owned.view();
    let check = |d: &mjrs_core::Data, at: &str| {
        let mut starts = WideStarts(Vec::new());
        d.visit(&mut starts);
        assert!(starts.0.len() > 20, "{at}: {} wide arrays", starts.0.len());
        for (name, start) in starts.0 {
            assert_eq!(start % DATA_ALIGN, 0, "{at}: {name} starts at {start:#x}");
        }
    };
    let n = mjrs_core::Data::bytes_needed(m.sizes()).unwrap();
    let mut buf = vec![0u8; n + 2 * DATA_ALIGN];
    let line = buf.as_ptr() as usize % DATA_ALIGN;
    for into in (0..DATA_ALIGN).step_by(8) {
        let skip = (DATA_ALIGN + into - line) % DATA_ALIGN;
        let d = mjrs_core::Data::new(&m, &mut buf[skip..skip + n]).unwrap();
        check(&d, &format!("buffer {into} bytes into a vector"));
    }
    let mut d = mjrs_alloc::OwnedData::new(&m).unwrap();
    d.view().qpos[2] = 0.25;
    let mut copy = d.try_clone().unwrap();
    check(&copy.view(), "clone");
    assert_eq!(copy.view().qpos[2], 0.25);
}

/// An arena beyond `MAX_ARENA` (16 GiB) is MuJoCo's "Could not allocate memory" with the limit,
/// from the core and from the XML compiler (which makes a data, as MuJoCo's does), never a
/// truncated arena or an attempt to allocate it; at the limit the data's size is known.
#[test]
fn arena_beyond_the_limit_is_a_clear_error() {
    use mjrs_core::arena::{ArenaError, MAX_ARENA};
    let xml = |memory: usize| {
        format!(
            r#"<mujoco><size memory="{memory}"/><worldbody><body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>"#
        )
    };
    let mut owned = mjrs_xml::compile_str(&xml(1 << 20), "m.xml", ".", None)
        .unwrap()
        .model;
    let mut sizes = *owned.view().sizes();
    sizes.narena = MAX_ARENA;
    assert!(mjrs_core::Data::bytes_needed(&sizes).unwrap() > MAX_ARENA);
    sizes.narena = MAX_ARENA + 64;
    let err = mjrs_core::Data::bytes_needed(&sizes).unwrap_err();
    assert_eq!(err, ArenaError::ArenaTooLarge { narena: 1 << 34 });
    assert_eq!(
        err.to_string(),
        "Could not allocate memory: 17179869184 bytes of arena (<size memory=...>); mjrs \
         supports at most 17179869120 bytes per data"
    );
    let Err(err) = mjrs_xml::compile_str(&xml(MAX_ARENA + 64), "m.xml", ".", None) else {
        panic!("an arena beyond the limit compiled");
    };
    assert_eq!(
        err.to_string(),
        "Error: engine error: Could not allocate memory\nmjData with an arena of 17179869184 \
         bytes (<size memory>): more than mjrs's largest arena, 17179869120 bytes"
    );
}
