//! Height fields compiled by `mjrs_xml::hfield::compile` against MuJoCo 3.1.6.
//!
//! Each `tests/fixtures/hfield/NAME.xml` has a `NAME.json` with the `hfield_*` fields `mjref
//! model` printed for it (or MuJoCo's error); `tests/fixtures/texture/gen.py` made both, and the
//! PNG and custom files. The spec of each `<hfield>` is read here with a minimal attribute
//! reader that does what MuJoCo's reader does with `nrow`, `ncol` and `elevation`.

use std::fs;
use std::path::{Path, PathBuf};

use mjrs_xml::asset::AssetFile;
use mjrs_xml::hfield::{compile, CompiledHField};
use mjrs_xml::spec::{HField, Info};
use mjrs_xml::XmlError;
use serde_json::Value;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hfield")
}

/// The `mjsHField` the reader makes of an `<hfield>` element: elevation rows flipped so the
/// first row is at -y, zeros when `nrow` and `ncol` are given without elevation.
fn hfield_spec(node: roxmltree::Node, doc: &roxmltree::Document) -> HField {
    let mut h = HField {
        info: Info {
            line: doc.text_pos_at(node.range().start).row,
            file: None,
        },
        ..HField::default()
    };
    let mut elevation = None;
    for a in node.attributes() {
        let v = a.value();
        match a.name() {
            "name" => h.name = v.into(),
            "file" => h.file = v.into(),
            "content_type" => h.content_type = v.into(),
            "nrow" => h.nrow = v.parse().unwrap(),
            "ncol" => h.ncol = v.parse().unwrap(),
            "size" => {
                let s: Vec<f64> = v.split_whitespace().map(|x| x.parse().unwrap()).collect();
                h.size = s.try_into().unwrap();
            }
            "elevation" => {
                elevation = Some(
                    v.split_whitespace()
                        .map(|x| x.parse::<f32>().unwrap())
                        .collect::<Vec<_>>(),
                )
            }
            other => panic!("attribute {other}"),
        }
    }
    if h.file.is_empty() && h.nrow > 0 && h.ncol > 0 {
        let (nrow, ncol) = (h.nrow as usize, h.ncol as usize);
        h.userdata = match elevation {
            Some(e) => {
                assert_eq!(e.len(), nrow * ncol);
                e.chunks(ncol).rev().flatten().copied().collect()
            }
            None => vec![0.0; nrow * ncol],
        };
    }
    h
}

fn compile_model(name: &str) -> Result<Vec<CompiledHField>, XmlError> {
    let text = fs::read_to_string(dir().join(format!("{name}.xml"))).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let mut out = Vec::new();
    for (id, node) in doc
        .descendants()
        .filter(|n| n.has_tag_name("hfield"))
        .enumerate()
    {
        let spec = hfield_spec(node, &doc);
        let file = fs::read(dir().join(&spec.file))
            .ok()
            .map(|bytes| AssetFile {
                path: spec.file.clone(),
                bytes,
                read_failed: false,
            });
        let file = if spec.file.is_empty() { None } else { file };
        out.push(compile(&spec, id, file.as_ref())?);
    }
    Ok(out)
}

fn reference(name: &str) -> Value {
    serde_json::from_str(&fs::read_to_string(dir().join(format!("{name}.json"))).unwrap()).unwrap()
}

fn list(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Every `hfield_*` field equals MuJoCo's, the elevations bit for bit.
fn check_model(name: &str) {
    let r = reference(name);
    let hf = compile_model(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        hf.len() as i64,
        r["nhfield"].as_i64().unwrap(),
        "{name}: nhfield"
    );
    let size: Vec<f64> = hf.iter().flat_map(|h| h.size).collect();
    assert_eq!(size, list(&r["hfield_size"]), "{name}: hfield_size");
    let nrow: Vec<f64> = hf.iter().map(|h| f64::from(h.nrow)).collect();
    let ncol: Vec<f64> = hf.iter().map(|h| f64::from(h.ncol)).collect();
    assert_eq!(nrow, list(&r["hfield_nrow"]), "{name}: hfield_nrow");
    assert_eq!(ncol, list(&r["hfield_ncol"]), "{name}: hfield_ncol");
    let mut adr = Vec::new();
    let mut data = Vec::new();
    for h in &hf {
        assert_eq!(h.data.len(), (h.nrow * h.ncol) as usize);
        adr.push(data.len() as f64);
        data.extend(h.data.iter().map(|&x| f64::from(x)));
    }
    assert_eq!(adr, list(&r["hfield_adr"]), "{name}: hfield_adr");
    let want = list(&r["hfield_data"]);
    assert_eq!(data.len(), want.len(), "{name}: nhfielddata");
    for (i, (a, b)) in data.iter().zip(&want).enumerate() {
        assert_eq!(
            a.to_bits(),
            b.to_bits(),
            "{name}: hfield_data[{i}] {a} != {b}"
        );
    }
}

fn check_error(name: &str, prefix_only: bool) {
    let r = reference(name);
    let want = r["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{name}: MuJoCo compiled it"));
    let got = compile_model(name).expect_err(name).to_string();
    if prefix_only {
        let cut = |s: &str| s[..s.find("': ").unwrap() + 3].to_string();
        let tail = |s: &str| s[s.rfind('\n').unwrap()..].to_string();
        assert_eq!(cut(&got), cut(want), "{name}");
        assert_eq!(tail(&got), tail(want), "{name}");
    } else {
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn from_png_of_every_color_type_and_custom_files() {
    // Grey 8/16/2-bit interlaced, RGB (red channel), palette, grey+alpha, RGBA 16-bit,
    // MuJoCo's own test image, a constant image, custom float files, explicit content types.
    check_model("hfield_files");
}

#[test]
fn from_xml_elevation() {
    // Given elevations, zero elevation (no attribute), constant, one sample, values the f32
    // arithmetic rounds, and magnitudes beyond MuJoCo's +-1e10 starting bounds.
    check_model("hfield_elevation");
}

#[test]
fn errors_like_mujoco() {
    for name in [
        "err_size",
        "err_size_neg",
        "err_unspecified",
        "err_custom_size",
        "err_custom_dims",
        "err_custom_header",
        "err_custom_empty",
        "err_png_empty",
        "err_png_signature",
        "err_content_type",
        "err_content_type_format",
    ] {
        check_error(name, false);
    }
    check_error("err_png_truncated", true);
}

fn spec(file: &str) -> HField {
    HField {
        name: "h".into(),
        file: file.into(),
        size: [1.0; 4],
        ..HField::default()
    }
}

#[test]
fn missing_file_is_resource_error() {
    let e = compile(&spec("nowhere.png"), 0, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Error: resource not found via provider or OS filesystem: 'nowhere.png'"
    );
}

#[test]
fn userdata_shorter_than_nrow_ncol_is_an_error() {
    let mut h = spec("");
    h.nrow = 3;
    h.ncol = 3;
    h.userdata = vec![1.0; 8];
    assert!(compile(&h, 0, None).is_err());
    h.userdata = vec![1.0; 9];
    assert!(compile(&h, 0, None).is_ok());
    // Overflowing nrow*ncol.
    h.nrow = 1 << 20;
    h.ncol = 1 << 20;
    assert!(compile(&h, 0, None).is_err());
}

#[test]
fn custom_file_with_overflowing_size_is_an_error() {
    let mut bytes = 65536i32.to_le_bytes().to_vec();
    bytes.extend(65537i32.to_le_bytes());
    bytes.extend([0u8; 8]);
    let file = AssetFile {
        path: "x.bin".into(),
        bytes,
        read_failed: false,
    };
    let e = compile(&spec("x.bin"), 0, Some(&file)).unwrap_err();
    assert!(e.to_string().contains("unexpected file size"), "{e}");
}

#[test]
fn damaged_pngs_never_panic() {
    let good = fs::read(dir().join("h_g2i.png")).unwrap();
    for n in 0..good.len() {
        let file = AssetFile {
            path: "h.png".into(),
            bytes: good[..n].to_vec(),
            read_failed: false,
        };
        assert!(compile(&spec("h.png"), 0, Some(&file)).is_err());
    }
}
