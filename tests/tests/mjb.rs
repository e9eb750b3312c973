//! MJB conformance: for every fixture blob written by MuJoCo 3.1.6 (`mjref mjb`), mjrs loads it,
//! dumps every Model field exactly as `mjref model` does (same bits), writes it back byte for
//! byte, and the f32 build loads it and round-trips 4-byte-mjtNum blobs. Bad blobs are errors.

use mjrs_core::mjb::{self, MjbError};
use mjrs_tests::{compare, fixtures, mjb_fixture_names, read_json};
use std::collections::BTreeMap;

fn blob(name: &str) -> Vec<u8> {
    std::fs::read(fixtures().join("mjb").join(format!("{name}.mjb"))).unwrap()
}

fn model_buffer(blob: &[u8]) -> Vec<u8> {
    vec![0u8; mjb::read_header(blob).unwrap().model_bytes().unwrap()]
}

#[test]
fn at_least_ten_fixtures() {
    assert!(mjb_fixture_names().len() >= 10, "{:?}", mjb_fixture_names());
}

#[test]
fn model_dump_equals_reference_exactly() {
    for name in mjb_fixture_names() {
        let blob = blob(&name);
        let mut buf = model_buffer(&blob);
        let m = mjb::load(&blob, &mut buf).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours: serde_json::Value = serde_json::from_str(&mjrs::dump::model_json(&m)).unwrap();
        let reference = read_json(&fixtures().join("model").join(format!("{name}.json")));
        compare(&reference, &ours).assert_match(0.0, &name);
    }
}

#[test]
fn save_reproduces_mujoco_bytes() {
    for name in mjb_fixture_names() {
        let blob = blob(&name);
        let mut buf = model_buffer(&blob);
        let m = mjb::load(&blob, &mut buf).unwrap();
        let mut out = vec![0u8; mjb::save_size(&m, 8)];
        let n = mjb::save(&m, &mut out, 8).unwrap();
        assert_eq!(n, blob.len(), "{name}");
        let first = out.iter().zip(&blob).position(|(a, b)| a != b);
        assert_eq!(first, None, "{name}: first differing byte");
    }
}

/// Every array of a model as numbers, by name (works for both precisions).
#[derive(Default)]
struct Collect(BTreeMap<&'static str, Vec<f64>>);

macro_rules! collect_for {
    ($($layout:ident)::+) => {
        impl $($layout)::+::ArrayVisitor for Collect {
            fn array<T: $($layout)::+::Elem>(&mut self, info: &$($layout)::+::FieldInfo, data: &[T]) {
                let v = data.iter().map(|x| match x.to_scalar() {
                    $($layout)::+::Scalar::Int(i) => i as f64,
                    $($layout)::+::Scalar::Real(r) => r,
                });
                self.0.insert(info.name, v.collect());
            }
        }
    };
}
collect_for!(mjrs_core::layout);
collect_for!(mjrs_core_f32::layout);

/// Boxes (center, half sizes) of an f32 model against the f64 model's: each side rounded to
/// f32, except a half-space side (finite half size of 1e9 or more, a plane's), which is cut at
/// 4096 from the box's origin with its finite face kept within 2^-12, outward.
fn check_narrowed_boxes(name: &str, field: &str, wide: &[f64], narrow: &[f64]) {
    for (w, n) in wide.chunks_exact(6).zip(narrow.chunks_exact(6)) {
        for k in 0..3 {
            let (c, h, c32, h32) = (w[k], w[k + 3], n[k], n[k + 3]);
            if (1e9..1e10).contains(&h) {
                let face = if c + h < 4096.0 { c + h } else { c - h };
                let near = if c + h < 4096.0 { c32 + h32 } else { c32 - h32 };
                assert!(
                    (near - face).abs() <= 1.0 / 4096.0 + 1e-6 && h32 <= 4096.0,
                    "{name}.{field}: half-space side {c} {h} narrowed to {c32} {h32}"
                );
            } else {
                assert!(
                    f64::from(c as f32) == c32 && f64::from(h as f32) == h32,
                    "{name}.{field}: {c} {h} vs {c32} {h32}"
                );
            }
        }
    }
}

#[test]
fn f32_build_loads_mujoco_blobs_and_round_trips_its_own() {
    for name in mjb_fixture_names() {
        let blob = blob(&name);
        let mut buf64 = model_buffer(&blob);
        let m64 = mjb::load(&blob, &mut buf64).unwrap();
        let mut buf32 = vec![
            0u8;
            mjrs_core_f32::mjb::read_header(&blob)
                .unwrap()
                .model_bytes()
                .unwrap()
        ];
        let m32 =
            mjrs_core_f32::mjb::load(&blob, &mut buf32).unwrap_or_else(|e| panic!("{name}: {e}"));

        // every value is the f64 value rounded to f32, except the half-space sides of boxes
        let (mut a, mut b) = (Collect::default(), Collect::default());
        m64.visit(&mut a);
        m32.visit(&mut b);
        for (field, x) in &a.0 {
            let y = &b.0[field];
            if *field == "geom_aabb" || *field == "bvh_aabb" {
                check_narrowed_boxes(&name, field, x, y);
                continue;
            }
            for (p, q) in x.iter().zip(y) {
                assert!(
                    p.is_nan() && q.is_nan() || f64::from(*p as f32) == *q,
                    "{name}.{field}: {p} vs {q}"
                );
            }
        }
        assert_eq!(m32.opt.timestep, m64.opt.timestep as f32);

        // a 4-byte blob reads back to the same model and writes the same bytes again
        let mut out = vec![0u8; mjrs_core_f32::mjb::save_size(&m32, 4)];
        let n = mjrs_core_f32::mjb::save(&m32, &mut out, 4).unwrap();
        assert_eq!(
            mjrs_core_f32::mjb::read_header(&out[..n])
                .unwrap()
                .real_bytes,
            4
        );
        let mut again = vec![
            0u8;
            mjrs_core_f32::mjb::read_header(&out[..n])
                .unwrap()
                .model_bytes()
                .unwrap()
        ];
        let m32b = mjrs_core_f32::mjb::load(&out[..n], &mut again).unwrap();
        let mut out2 = vec![0u8; n];
        assert_eq!(mjrs_core_f32::mjb::save(&m32b, &mut out2, 4).unwrap(), n);
        assert!(out[..n] == out2[..], "{name}: f32 blob round trip");

        // the f64 build reads the 4-byte blob too
        let mut buf = model_buffer(&out[..n]);
        let m64b = mjb::load(&out[..n], &mut buf).unwrap();
        assert_eq!(m64b.nv, m64.nv);
    }
}

#[test]
fn bad_blobs_are_errors() {
    let good = blob("hopper");
    let mut buf = model_buffer(&good);

    let mut bad = good.clone();
    bad[0] ^= 1;
    assert!(matches!(
        mjb::load(&bad, &mut buf),
        Err(MjbError::BadMagic(_))
    ));

    let mut bad = good.clone();
    bad[4] = 16;
    assert_eq!(
        mjb::load(&bad, &mut buf).err(),
        Some(MjbError::BadRealSize(16))
    );

    let mut bad = good.clone();
    bad[8] = 70; // number of ints of another MuJoCo version
    assert!(matches!(
        mjb::load(&bad, &mut buf),
        Err(MjbError::VersionMismatch { .. })
    ));

    for cut in [0, 3, 19, 100, 400, good.len() / 2, good.len() - 1] {
        let e = mjb::load(&good[..cut], &mut buf).unwrap_err();
        assert!(matches!(e, MjbError::Truncated { .. }), "cut at {cut}: {e}");
    }

    let mut long = good.clone();
    long.extend_from_slice(&[0; 8]);
    assert_eq!(
        mjb::load(&long, &mut buf).err(),
        Some(MjbError::TrailingBytes(8))
    );

    // a negative size
    let mut bad = good.clone();
    bad[20..24].copy_from_slice(&(-1i32).to_le_bytes()); // nq
    assert!(matches!(
        mjb::load(&bad, &mut buf),
        Err(MjbError::BadSize { name: "nq", .. })
    ));

    // nbuffer disagreeing with the sizes
    let mut bad = good.clone();
    let nbuffer_at = 20 + 4 * 76 + 8;
    bad[nbuffer_at] ^= 0x40;
    assert!(matches!(
        mjb::load(&bad, &mut buf),
        Err(MjbError::NbufferMismatch { .. })
    ));

    // a destination buffer too small
    let mut small = vec![0u8; buf.len() / 2];
    assert!(matches!(
        mjb::load(&good, &mut small),
        Err(MjbError::Memory(_))
    ));

    // errors print one clear line
    let msg = mjb::load(&good[..100], &mut buf).unwrap_err().to_string();
    assert!(msg.starts_with("truncated MJB"), "{msg}");
}

#[test]
fn data_on_too_small_buffer_is_an_error() {
    let good = blob("hopper");
    let mut buf = model_buffer(&good);
    let m = mjb::load(&good, &mut buf).unwrap();
    let need = mjrs_core::Data::bytes_needed(m.sizes()).unwrap();
    // the need's last `DATA_ALIGN - 1` bytes are slack for the buffer's alignment
    let mut dbuf = vec![0u8; need - mjrs_core::arena::DATA_ALIGN.max(8)];
    assert!(matches!(
        mjrs_core::Data::new(&m, &mut dbuf),
        Err(mjrs_core::ArenaError::BufferTooSmall { .. })
    ));
    let mut dbuf = vec![0u8; need];
    assert!(mjrs_core::Data::new(&m, &mut dbuf).is_ok());
}

/// `blob` copied to an 8-byte-aligned start (as a blob in flash is placed), with the buffer
/// that holds it.
fn aligned(blob: &[u8]) -> (Vec<u8>, usize) {
    let mut v = vec![0u8; blob.len() + 8];
    let off = v.as_ptr().align_offset(8);
    v[off..off + blob.len()].copy_from_slice(blob);
    (v, off)
}

/// Every array's values as bits, for exact comparisons.
fn bits(c: Collect) -> BTreeMap<&'static str, Vec<u64>> {
    c.0.into_iter()
        .map(|(k, v)| (k, v.iter().map(|x| x.to_bits()).collect()))
        .collect()
}

/// A model used in place from its blob (`mjb::load_in_place`) equals the loaded copy in every
/// array, size and option, in both precisions (MuJoCo's 8-byte blobs for the f64 build, the
/// f32 build's own 4-byte blobs), and the RAM it needs for the arrays it cannot view (packed
/// after odd-length byte arrays, or of another width) stays below what the loaded copy takes.
#[test]
fn in_place_model_equals_the_loaded_copy() {
    let (mut viewed, mut total) = (0, 0);
    for name in mjb_fixture_names() {
        let blob64 = blob(&name);
        let mut buf = model_buffer(&blob64);
        let copy = mjb::load(&blob64, &mut buf).unwrap();
        let (store, off) = aligned(&blob64);
        let flash = &store[off..off + blob64.len()];
        let ram_bytes = mjb::in_place_ram_bytes(flash).unwrap();
        let mut ram = vec![0u8; ram_bytes];
        let m = mjb::load_in_place(flash, &mut ram).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(m.header(), copy.header(), "{name}");
        let (mut a, mut b) = (Collect::default(), Collect::default());
        copy.visit(&mut a);
        m.visit(&mut b);
        assert!(bits(a) == bits(b), "{name}: arrays differ");
        let ram64 = ram_bytes;
        assert!(ram64 < buf.len(), "{name}: {ram64} B of RAM");

        // the f32 build on its own 4-byte blob
        let header32 = mjrs_core_f32::mjb::read_header(&blob64).unwrap();
        let copy32_bytes = header32.model_bytes().unwrap();
        let mut buf32 = vec![0u8; copy32_bytes];
        let m32 = mjrs_core_f32::mjb::load(&blob64, &mut buf32).unwrap();
        let mut blob32 = vec![0u8; mjrs_core_f32::mjb::save_size(&m32, 4)];
        let n = mjrs_core_f32::mjb::save(&m32, &mut blob32, 4).unwrap();
        let (store, off) = aligned(&blob32[..n]);
        let flash = &store[off..off + n];
        let ram_bytes = mjrs_core_f32::mjb::in_place_ram_bytes(flash).unwrap();
        let mut ram = vec![0u8; ram_bytes];
        let m = mjrs_core_f32::mjb::load_in_place(flash, &mut ram).unwrap();
        assert!(
            ram_bytes < copy32_bytes,
            "{name} (f32): {ram_bytes} B of RAM"
        );
        let (mut a, mut b) = (Collect::default(), Collect::default());
        m32.visit(&mut a);
        m.visit(&mut b);
        assert!(bits(a) == bits(b), "{name} (f32): arrays differ");
        viewed += n - ram_bytes.min(n);
        total += n;
        eprintln!(
            "{name}: f64 blob {} B needs {ram64} B of RAM in place, f32 blob {n} B needs {ram_bytes} B",
            blob64.len()
        );
    }
    // more than a third of the f32 blobs' bytes are used where they are
    assert!(viewed > total / 3, "{viewed} of {total} B viewed");

    // too little RAM for the arrays that need it is an error, not a panic
    let blob64 = blob("humanoid");
    let (store, off) = aligned(&blob64);
    let flash = &store[off..off + blob64.len()];
    let needed = mjb::in_place_ram_bytes(flash).unwrap();
    if needed > 0 {
        let mut ram = vec![0u8; needed - 1];
        assert!(matches!(
            mjb::load_in_place(flash, &mut ram),
            Err(MjbError::Memory(_))
        ));
    }
}

/// Byte offset in the blob, element count and element width of every array, by name, for a
/// blob of `m` (8-byte `mjtNum`): the arrays end the blob, in table order, without padding.
fn array_offsets(
    m: &mjrs_core::Model,
    blob_len: usize,
) -> BTreeMap<&'static str, (usize, usize, usize)> {
    use mjrs_core::layout::{ArrayVisitor, Elem, FieldInfo};
    #[derive(Default)]
    struct Offsets(Vec<(&'static str, usize, usize, usize)>, usize);
    impl ArrayVisitor for Offsets {
        fn array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) {
            let width = match info.kind {
                mjrs_core::layout::Kind::Num => 8,
                _ => size_of::<T>(),
            };
            self.0.push((info.name, self.1, data.len(), width));
            self.1 += width * data.len();
        }
    }
    let mut o = Offsets::default();
    m.visit(&mut o);
    let start = blob_len - o.1;
    o.0.into_iter()
        .map(|(name, off, n, width)| (name, (start + off, n, width)))
        .collect()
}

/// Every `int` and `byte` array of two fixtures corrupted at its first and last element: the
/// loader refuses exactly the blobs it refused before it copied arrays in bulk, with the same
/// messages, and loads the rest (`tests/fixtures/mjb-corrupt/`, written by
/// `generate-mjb-corrupt.py` with the per-element loader).
#[test]
fn corrupted_blobs_are_refused_as_before() {
    for name in ["hopper", "kitchen_sink"] {
        let good = blob(name);
        let mut buf = model_buffer(&good);
        let offsets = array_offsets(&mjb::load(&good, &mut buf).unwrap(), good.len());
        let path = fixtures().join("mjb-corrupt").join(format!("{name}.txt"));
        let expected = std::fs::read_to_string(&path).unwrap();
        let (mut refused, mut cases) = (0, 0);
        for line in expected.lines() {
            let (case, verdict) = line.split_once('\t').unwrap();
            let mut parts = case.split(' ');
            let field = parts.next().unwrap();
            let i: usize = parts.next().unwrap().parse().unwrap();
            let value: i32 = parts.next().unwrap().parse().unwrap();
            let (off, n, width) = offsets[field];
            assert!(i < n, "{name}: {case}");
            let mut bad = good.clone();
            let at = off + width * i;
            bad[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
            let got = match mjb::load(&bad, &mut buf) {
                Ok(_) => "ok".to_string(),
                Err(e) => {
                    refused += 1;
                    e.to_string()
                }
            };
            assert_eq!(got, verdict, "{name}: {case}");
            // the in-place loader validates the blob's arrays where they are, with the same verdict
            let (store, off) = aligned(&bad);
            let flash = &store[off..off + bad.len()];
            let mut ram = vec![0u8; mjb::in_place_ram_bytes(flash).unwrap()];
            let in_place = match mjb::load_in_place(flash, &mut ram) {
                Ok(_) => "ok".to_string(),
                Err(e) => e.to_string(),
            };
            assert_eq!(in_place, verdict, "{name} in place: {case}");
            cases += 1;
        }
        // the files are not empty, and most corruptions are caught
        assert!(
            cases > 250 && refused > cases / 2,
            "{name}: {refused} of {cases}"
        );
    }
}
