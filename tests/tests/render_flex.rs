//! Flexes drawn by the OpenGL renderer against MuJoCo 3.1.6's offscreen images
//! (`generate-render-flex.py`, at the states of the flex scene fixtures): segmentation images
//! equal on at least 99% of the pixels, colour images within a mean absolute difference of
//! 6/255 per channel, as in `render.rs`; with skins, element faces, vertices and edges, and a
//! cloth fallen onto a sphere (600 steps with contacts and the membrane elasticity plugin).

use mjrs::render::{Options, Renderer};
use mjrs_gl::vis::{flag, VisOption};
use mjrs_tests::{fixtures, plugin_traj, read_json};

/// A case: name, model, state fixture, flags on, flags off (as in the generator).
type Case = (
    &'static str,
    &'static str,
    &'static str,
    &'static [usize],
    &'static [usize],
);

const CASES: [Case; 5] = [
    ("shapes_skin", "shapes", "shapes_default", &[], &[]),
    (
        "shapes_faces",
        "shapes",
        "shapes_faces",
        &[flag::FLEXFACE, flag::FLEXVERT, flag::FLEXEDGE],
        &[flag::FLEXSKIN],
    ),
    ("flex_skin", "flex", "flex_default", &[], &[]),
    (
        "flex_vert_edge",
        "flex",
        "flex_vert_edge",
        &[flag::FLEXVERT, flag::FLEXEDGE],
        &[flag::FLEXSKIN],
    ),
    ("cloth_fallen", "cloth", "steps:600", &[], &[]),
];

fn read_png(name: &str) -> Vec<u8> {
    let path = fixtures().join("render").join(format!("{name}.png"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (320, 240), "{name}");
    buf.truncate(info.buffer_size());
    buf
}

/// Our image of a case: the fixture's state, forward, then the renderer.
fn image(case: &Case, segment: bool) -> Vec<u8> {
    let (name, model, state, on, off) = *case;
    let blob = std::fs::read(fixtures().join("scene").join(format!("flex-{model}.mjb"))).unwrap();
    let mut buf = Vec::new();
    let m = plugin_traj::load(&blob, &mut buf);
    let mut data = mjrs::simulate::new_data(&m, None).unwrap();
    let mut d = data.view();
    if let Some(steps) = state.strip_prefix("steps:") {
        mjrs::stepping::run_control(&m, &mut d, steps.parse().unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    } else {
        let reference = read_json(&fixtures().join("scene").join(format!("flex-{state}.json")));
        for (q, v) in d.qpos.iter_mut().zip(reference["qpos"].as_array().unwrap()) {
            *q = v.as_f64().unwrap();
        }
    }
    mjrs_core::forward(&m, &mut d).unwrap();
    let mut vis = VisOption::default();
    for &f in on {
        vis.flags[f] = 1;
    }
    for &f in off {
        vis.flags[f] = 0;
    }
    let opt = Options {
        width: 320,
        height: 240,
        segment,
        vis,
        ..Options::default()
    };
    let mut r = Renderer::new(&m, opt).unwrap_or_else(|e| panic!("{name}: {e}"));
    r.image(&m, &mut d)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn flex_segmentation_images_match_the_reference() {
    for case in &CASES {
        let ours = image(case, true);
        let theirs = read_png(&format!("flex-{}-seg", case.0));
        let same = ours
            .chunks(3)
            .zip(theirs.chunks(3))
            .filter(|(a, b)| a == b)
            .count();
        let share = same as f64 / (ours.len() / 3) as f64;
        assert!(share >= 0.99, "{}: {:.2}% equal", case.0, 100.0 * share);
        // flexes are in the picture: some pixel has the flex object type (mjOBJ_FLEX + 1)
        let flex = mjrs_core::types::OBJ_FLEX as u8 + 1;
        assert!(theirs.chunks(3).any(|p| p[2] == flex), "{}", case.0);
        assert!(ours.chunks(3).any(|p| p[2] == flex), "{}", case.0);
    }
}

#[test]
fn flex_colour_images_match_the_reference() {
    for case in &CASES {
        let ours = image(case, false);
        let theirs = read_png(&format!("flex-{}", case.0));
        let mut sum = [0u64; 3];
        for (a, b) in ours.chunks(3).zip(theirs.chunks(3)) {
            for c in 0..3 {
                sum[c] += u64::from(a[c].abs_diff(b[c]));
            }
        }
        let n = (ours.len() / 3) as f64;
        let mad = sum.map(|s| s as f64 / n);
        assert!(mad.iter().all(|&x| x <= 6.0), "{}: MAD {mad:?}", case.0);
    }
}
