//! Textures compiled by `mjrs_xml::texture::compile` against MuJoCo 3.1.6.
//!
//! Each `tests/fixtures/texture/NAME.xml` has a `NAME.json` with the `tex_*` fields `mjref model`
//! printed for it (or MuJoCo's error); `gen.py` there made both, and the PNG and custom files.
//! The spec of each `<texture>` is read here with a minimal attribute reader (the subset of
//! MuJoCo's reader the fixtures use), so these tests depend on nothing but the texture module.

use std::fs;
use std::path::{Path, PathBuf};

use mjrs_xml::asset::AssetFile;
use mjrs_xml::spec::{Info, Texture};
use mjrs_xml::texture::{compile, CRand, CompiledTexture};
use mjrs_xml::XmlError;
use serde_json::Value;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/texture")
}

fn floats<const N: usize>(text: &str) -> [f64; N] {
    let v: Vec<f64> = text
        .split_whitespace()
        .map(|s| s.parse().unwrap())
        .collect();
    v.try_into().unwrap()
}

/// The `mjsTexture` the reader makes of a `<texture>` element.
fn texture_spec(node: roxmltree::Node, doc: &roxmltree::Document) -> Texture {
    let mut t = Texture {
        info: Info {
            line: doc.text_pos_at(node.range().start).row,
            file: None,
        },
        ..Texture::default()
    };
    for a in node.attributes() {
        let v = a.value();
        match a.name() {
            "name" => t.name = v.into(),
            "type" => {
                t.ttype = ["2d", "cube", "skybox"]
                    .iter()
                    .position(|s| *s == v)
                    .unwrap() as i32
            }
            "builtin" => {
                t.builtin = ["none", "gradient", "checker", "flat"]
                    .iter()
                    .position(|s| *s == v)
                    .unwrap() as i32
            }
            "mark" => {
                t.mark = ["none", "edge", "cross", "random"]
                    .iter()
                    .position(|s| *s == v)
                    .unwrap() as i32
            }
            "rgb1" => t.rgb1 = floats(v),
            "rgb2" => t.rgb2 = floats(v),
            "markrgb" => t.markrgb = floats(v),
            "random" => t.random = v.parse().unwrap(),
            "width" => t.width = v.parse().unwrap(),
            "height" => t.height = v.parse().unwrap(),
            "file" => t.file = v.into(),
            "content_type" => t.content_type = v.into(),
            "gridsize" => t.gridsize = floats::<2>(v).map(|x| x as i32),
            "gridlayout" => t.gridlayout[..v.len()].copy_from_slice(v.as_bytes()),
            "hflip" => t.hflip = v == "true",
            "vflip" => t.vflip = v == "true",
            side => {
                let i = [
                    "fileright",
                    "fileleft",
                    "fileup",
                    "filedown",
                    "filefront",
                    "fileback",
                ]
                .iter()
                .position(|s| *s == side)
                .unwrap_or_else(|| panic!("attribute {side}"));
                t.cubefiles[i] = v.into();
            }
        }
    }
    t
}

fn asset(name: &str) -> Option<AssetFile> {
    if name.is_empty() {
        return None;
    }
    let bytes = fs::read(dir().join(name)).ok()?;
    Some(AssetFile {
        path: name.to_string(),
        bytes,
        read_failed: false,
    })
}

/// Compiles every texture of the model in order, as the compiler does (one `rand()` sequence).
fn compile_model(name: &str) -> Result<Vec<CompiledTexture>, XmlError> {
    let text = fs::read_to_string(dir().join(format!("{name}.xml"))).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let mut rng = CRand::mujoco();
    let mut out = Vec::new();
    for (id, node) in doc
        .descendants()
        .filter(|n| n.has_tag_name("texture"))
        .enumerate()
    {
        let spec = texture_spec(node, &doc);
        let file = asset(&spec.file);
        let cubefiles = spec.cubefiles.clone().map(|f| asset(&f));
        out.push(compile(&spec, id, file.as_ref(), &cubefiles, &mut rng)?);
    }
    Ok(out)
}

fn reference(name: &str) -> Value {
    serde_json::from_str(&fs::read_to_string(dir().join(format!("{name}.json"))).unwrap()).unwrap()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

fn fnv(data: &[u8]) -> String {
    let mut h = mjrs_core::hash::Fnv1a::new();
    h.write(data);
    format!("{:016x}", h.finish())
}

fn hex(data: &[u8]) -> String {
    data.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every `tex_*` field equals MuJoCo's.
fn check_model(name: &str) {
    let r = reference(name);
    let tex = compile_model(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        tex.len() as i64,
        r["ntex"].as_i64().unwrap(),
        "{name}: ntex"
    );
    let field = |f: fn(&CompiledTexture) -> i64| tex.iter().map(f).collect::<Vec<_>>();
    assert_eq!(
        field(|t| i64::from(t.ttype)),
        ints(&r["tex_type"]),
        "{name}: tex_type"
    );
    assert_eq!(
        field(|t| i64::from(t.width)),
        ints(&r["tex_width"]),
        "{name}: tex_width"
    );
    assert_eq!(
        field(|t| i64::from(t.height)),
        ints(&r["tex_height"]),
        "{name}: tex_height"
    );
    let mut adr = Vec::new();
    let mut rgb = Vec::new();
    for t in &tex {
        assert_eq!(t.rgb.len(), 3 * (t.width * t.height) as usize);
        adr.push(rgb.len() as i64);
        rgb.extend_from_slice(&t.rgb);
    }
    assert_eq!(adr, ints(&r["tex_adr"]), "{name}: tex_adr");
    assert_eq!(
        rgb.len() as i64,
        r["ntexdata"].as_i64().unwrap(),
        "{name}: ntexdata"
    );
    if let Some(h) = r.get("tex_rgb_hex") {
        let want = h.as_str().unwrap();
        if hex(&rgb) != want {
            // Point at the first differing texture and pixel.
            let want: Vec<u8> = (0..want.len() / 2)
                .map(|i| u8::from_str_radix(&want[2 * i..2 * i + 2], 16).unwrap())
                .collect();
            let i = rgb.iter().zip(&want).position(|(a, b)| a != b).unwrap();
            let t = adr.iter().rposition(|&a| a <= i as i64).unwrap();
            panic!(
                "{name}: tex_rgb differs in texture {t} at byte {}: {} != {}",
                i as i64 - adr[t],
                rgb[i],
                want[i]
            );
        }
    } else {
        assert_eq!(
            hex(&rgb[..256]),
            r["tex_rgb_head"].as_str().unwrap(),
            "{name}: head"
        );
        assert_eq!(
            fnv(&rgb),
            r["tex_rgb_fnv"].as_str().unwrap(),
            "{name}: tex_rgb hash"
        );
    }
}

/// MuJoCo's error text. PNG decoding errors past the header carry the `png` crate's words
/// instead of lodepng's, so `prefix_only` compares up to the decoder's own text.
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
fn builtin_2d_every_builtin_and_mark() {
    check_model("builtin_2d");
}

#[test]
fn builtin_cube_every_builtin_and_mark() {
    check_model("builtin_cube");
}

#[test]
fn builtin_skybox_every_builtin_and_mark() {
    check_model("builtin_skybox");
}

#[test]
fn builtin_edge_cases() {
    // One-pixel gradients (0/0), colors outside [0, 1] (C's double -> byte conversion), random
    // probabilities 0, 1 and negative, a hashed large gradient, a file texture after them.
    check_model("builtin_misc");
}

#[test]
fn png_2d_every_color_type_flips_and_custom() {
    check_model("png_2d");
}

#[test]
fn cube_from_one_file() {
    // Grids 3x4, 2x3, 1x6, 6x1, 2x2 (partial: rgb1 fills), 4x3, a repeated square, flips, and
    // a custom-format grid.
    check_model("cube_single");
}

#[test]
fn cube_from_six_files() {
    check_model("cube_separate");
}

#[test]
fn errors_like_mujoco() {
    for name in [
        "err_builtin_size",
        "err_builtin_size_cube",
        "err_2d_separate",
        "err_no_files",
        "err_gridsize",
        "err_grid_multiple",
        "err_grid_repeat_nonsquare",
        "err_grid_symbol",
        "err_nonsquare",
        "err_incompatible",
        "err_custom_size",
        "err_custom_dims",
        "err_custom_empty",
        "err_png_empty",
        "err_png_signature",
        "err_png_short",
        "err_png_zero",
        "err_png_depth",
        "err_png_header_crc",
        "err_png_huge",
        "err_content_type",
        "err_content_type_format",
        "err_cube_content_type",
        "err_second",
    ] {
        check_error(name, false);
    }
    check_error("err_png_truncated", true);
    check_error("err_png_no_iend", true);
}

fn spec_2d(file: &str) -> Texture {
    Texture {
        name: "t".into(),
        ttype: mjrs_core::types::TEXTURE_2D,
        file: file.into(),
        ..Texture::default()
    }
}

const NO_FILES: [Option<AssetFile>; 6] = [None, None, None, None, None, None];

#[test]
fn missing_file_is_resource_error() {
    let spec = spec_2d("nowhere.png");
    let e = compile(&spec, 0, None, &NO_FILES, &mut CRand::mujoco()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Error: resource not found via provider or OS filesystem: 'nowhere.png'"
    );
}

#[test]
fn huge_sizes_are_errors_not_allocations() {
    let mut spec = Texture {
        builtin: mjrs_xml::spec::builtin::FLAT,
        width: 100_000,
        height: 100_000,
        ..Texture::default()
    };
    for ttype in [0, 1, 2] {
        spec.ttype = ttype;
        let e = compile(&spec, 0, None, &NO_FILES, &mut CRand::mujoco()).unwrap_err();
        assert!(
            e.to_string()
                .contains("Could not allocate memory for texture"),
            "{e}"
        );
    }
    // Custom files whose 3*w*h wraps around in 32 bits.
    let spec = spec_2d("wrap.tex");
    let mut bytes = 65536i32.to_le_bytes().to_vec();
    bytes.extend(65536i32.to_le_bytes());
    let file = AssetFile {
        path: "wrap.tex".into(),
        bytes,
        read_failed: false,
    };
    let e = compile(&spec, 0, Some(&file), &NO_FILES, &mut CRand::mujoco()).unwrap_err();
    assert!(e.to_string().contains("unexpected file size"), "{e}");
    // A header shorter than two ints.
    let file = AssetFile {
        path: "short.tex".into(),
        bytes: vec![1, 0, 0],
        read_failed: false,
    };
    assert!(compile(&spec, 0, Some(&file), &NO_FILES, &mut CRand::mujoco()).is_err());
}

#[test]
fn damaged_pngs_never_panic() {
    let mut seed = 12345u32;
    for name in [
        "rgb8.png",
        "p2i.png",
        "g16i.png",
        "p8.png",
        "cross_34.png",
        "mujoco_hfield.png",
    ] {
        let good = fs::read(dir().join(name)).unwrap();
        let mut cases: Vec<Vec<u8>> = (0..good.len()).map(|n| good[..n].to_vec()).collect();
        for _ in 0..300 {
            let mut bad = good.clone();
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let at = (seed >> 8) as usize % bad.len();
            bad[at] ^= 1 << (seed % 8);
            cases.push(bad);
        }
        for bytes in cases {
            let file = AssetFile {
                path: name.into(),
                bytes,
                read_failed: false,
            };
            for ttype in [0, 1] {
                let mut spec = spec_2d(name);
                spec.ttype = ttype;
                let _ = compile(&spec, 0, Some(&file), &NO_FILES, &mut CRand::mujoco());
            }
        }
    }
}

#[test]
fn random_marks_continue_one_sequence() {
    // The second of two identical random textures differs from the first: one rand() sequence
    // per model compilation, seeded once, as MuJoCo's srand(123) in mjCModel::Compile.
    let spec = Texture {
        ttype: 0,
        builtin: mjrs_xml::spec::builtin::FLAT,
        mark: mjrs_xml::spec::mark::RANDOM,
        random: 0.5,
        width: 8,
        height: 8,
        ..Texture::default()
    };
    let mut rng = CRand::mujoco();
    let a = compile(&spec, 0, None, &NO_FILES, &mut rng).unwrap();
    let b = compile(&spec, 1, None, &NO_FILES, &mut rng).unwrap();
    let c = compile(&spec, 0, None, &NO_FILES, &mut CRand::mujoco()).unwrap();
    assert_ne!(a.rgb, b.rgb);
    assert_eq!(a.rgb, c.rgb);
}
