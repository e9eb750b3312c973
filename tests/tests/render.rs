//! The OpenGL renderer against MuJoCo 3.1.6's images (`fixtures/render-scenes.txt`, made by
//! `generate-render.py` with `mujoco.Renderer`): segmentation images equal on at least 99% of
//! the pixels, colour images within a mean absolute difference of 6/255 per channel. Rendering
//! is headless (EGL; Mesa's software device on machines without a GPU).

use mjrs::render::{self, Options, Renderer};
use mjrs_alloc::OwnedModel;
use mjrs_tests::fixtures;
use std::path::Path;

fn compile(xml: &str) -> OwnedModel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(xml);
    mjrs_xml::load_xml(&path, None)
        .unwrap_or_else(|e| panic!("{xml}: {e}"))
        .model
}

fn read_png(path: &Path) -> (u32, u32, Vec<u8>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb, "{}", path.display());
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

struct Case {
    name: String,
    xml: String,
    steps: usize,
    opt: Options,
}

fn cases() -> Vec<Case> {
    let list = std::fs::read_to_string(fixtures().join("render-scenes.txt")).unwrap();
    let none = |s: &str| -> Vec<String> {
        if s == "-" {
            Vec::new()
        } else {
            s.split(',').map(String::from).collect()
        }
    };
    list.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (camera, track) = match f[3].strip_prefix("track:") {
                Some(body) => ("-1".to_string(), Some(body.to_string())),
                None => (f[3].to_string(), None),
            };
            Case {
                name: f[0].into(),
                xml: f[1].into(),
                steps: f[2].parse().unwrap(),
                opt: Options {
                    camera,
                    track,
                    width: 320,
                    height: 240,
                    vis: mjrs::scene::options(&none(f[4]), f[6], "none").unwrap(),
                    rnd: render::rnd_flags(&none(f[5])).unwrap(),
                    ..Options::default()
                },
            }
        })
        .collect()
}

fn image(case: &Case, segment: bool) -> Vec<u8> {
    let mut owned = compile(&case.xml);
    let m = owned.view();
    let opt = Options {
        segment,
        ..case.opt.clone()
    };
    let mut r = Renderer::new(&m, opt).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs::stepping::run_control(&m, &mut d, case.steps).unwrap();
    mjrs_core::forward(&m, &mut d).unwrap();
    r.image(&m, &mut d).unwrap()
}

fn reference(name: &str) -> Vec<u8> {
    let (w, h, px) = read_png(&fixtures().join("render").join(format!("{name}.png")));
    assert_eq!((w, h), (320, 240), "{name}");
    px
}

#[test]
fn segmentation_images_match_the_reference() {
    let cases = cases();
    assert!(cases.len() >= 10);
    for case in &cases {
        let ours = image(case, true);
        let theirs = reference(&format!("{}-seg", case.name));
        let same = ours
            .chunks(3)
            .zip(theirs.chunks(3))
            .filter(|(a, b)| a == b)
            .count();
        let share = same as f64 / (ours.len() / 3) as f64;
        assert!(share >= 0.99, "{}: {:.2}% equal", case.name, 100.0 * share);
        // the encoding is of real objects: some pixel is not background
        assert!(theirs.iter().any(|&b| b != 0), "{}", case.name);
    }
}

#[test]
fn colour_images_match_the_reference() {
    for case in &cases() {
        let ours = image(case, false);
        let theirs = reference(&case.name);
        let mut sum = [0u64; 3];
        for (a, b) in ours.chunks(3).zip(theirs.chunks(3)) {
            for c in 0..3 {
                sum[c] += u64::from(a[c].abs_diff(b[c]));
            }
        }
        let n = (ours.len() / 3) as f64;
        let mad = sum.map(|s| s as f64 / n);
        assert!(mad.iter().all(|&x| x <= 6.0), "{}: MAD {mad:?}", case.name);
    }
}

#[test]
fn bad_options_are_clear_errors() {
    let mut owned = compile("render_effects.xml");
    let m = owned.view();
    let err = |opt: Options| Renderer::new(&m, opt).err().unwrap();
    let too_wide = err(Options {
        width: 641,
        ..Options::default()
    });
    assert!(too_wide.contains("offwidth"), "{too_wide}");
    let too_high = err(Options {
        height: 481,
        ..Options::default()
    });
    assert!(too_high.contains("offheight"), "{too_high}");
    let zero = err(Options {
        width: 0,
        ..Options::default()
    });
    assert!(zero.contains("positive"), "{zero}");
    let missing = err(Options {
        camera: "nope".into(),
        ..Options::default()
    });
    assert!(missing.contains("does not exist"), "{missing}");
    let range = err(Options {
        camera: "7".into(),
        ..Options::default()
    });
    assert!(range.contains("out of range"), "{range}");
    let track = err(Options {
        track: Some("nobody".into()),
        ..Options::default()
    });
    assert!(track.contains("no body"), "{track}");
    let flag = render::rnd_flags(&["shadows".into()]).unwrap_err();
    assert!(flag.contains("wireframe"), "{flag}");
}

#[test]
fn images_are_written_as_png_atomically() {
    let dir = std::env::temp_dir().join(format!("mjrs-render-png-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut owned = compile("hopper.xml");
    let m = owned.view();
    let opt = Options {
        width: 160,
        height: 120,
        rnd: render::rnd_flags(&["-shadow".into()]).unwrap(),
        ..Options::default()
    };
    let mut r = Renderer::new(&m, opt).unwrap();
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    mjrs_core::forward(&m, &mut d).unwrap();
    let img = r.image(&m, &mut d).unwrap();
    assert_eq!(img.len(), 160 * 120 * 3);
    assert!(img.iter().any(|&b| b != 0));
    let out = dir.join("hopper.png");
    render::write_png(&out, 160, 120, &img).unwrap();
    assert_eq!(read_png(&out), (160, 120, img.clone()));
    // a write that fails (image data too short) leaves the earlier file and no temporary
    assert!(render::write_png(&out, 160, 121, &img).is_err());
    assert_eq!(read_png(&out).2, img);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    assert!(render::write_png(&dir.join("missing/x.png"), 160, 120, &img).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
