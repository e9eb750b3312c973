//! `mujoco.sdf.sdflib`, MuJoCo's mesh distance field, against MuJoCo 3.1.6's plugin library
//! (`fixtures/sdflib/generate-sdflib.sh`): the distances and gradients of MuJoCo's cow
//! (`model/plugin/sdf/cow.xml`) at 400 points near its surface, inside its octree's cube and
//! outside it, from the part of MuJoCo's own octree those queries read, bit for bit.

use mjrs_core::plugin::sdf::sdflib::OctreeSdf;

/// MuJoCo's octree (only the nodes the queries read; the others are leaves pointing past the
/// end, which a query would answer with NaN), the query points and MuJoCo's answers.
struct Fixture {
    min: [f32; 3],
    max: [f32; 3],
    cell: f32,
    min_border: f32,
    grid: i32,
    nodes: Vec<u32>,
    points: Vec<[f64; 3]>,
    answers: Vec<[f64; 4]>,
}

fn read(path: &std::path::Path) -> Fixture {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut at = 0;
    let mut word = || {
        let w = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        at += 4;
        w
    };
    let mut corners = [0.0f32; 6];
    for c in &mut corners {
        *c = f32::from_bits(word());
    }
    let cell = f32::from_bits(word());
    let min_border = f32::from_bits(word());
    let grid = word() as i32;
    let n = word() as usize;
    let mut nodes = vec![(1u32 << 31) | 0x3fff_ffff; n];
    for _ in 0..word() {
        let i = word() as usize;
        nodes[i] = word();
    }
    let npoint = word() as usize;
    let mut doubles = |k: usize| -> Vec<f64> {
        (0..k)
            .map(|_| {
                let lo = u64::from(word());
                let hi = u64::from(word());
                f64::from_bits(lo | hi << 32)
            })
            .collect()
    };
    let points = doubles(3 * npoint)
        .chunks(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let answers = doubles(4 * npoint)
        .chunks(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect();
    Fixture {
        min: [corners[0], corners[1], corners[2]],
        max: [corners[3], corners[4], corners[5]],
        cell,
        min_border,
        grid,
        nodes,
        points,
        answers,
    }
}

#[test]
fn cow_distances_and_gradients_match_mujoco_bit_for_bit() {
    let f = read(&mjrs_tests::fixtures().join("sdflib/cow.bin"));
    let tree = OctreeSdf {
        min: f.min,
        max: f.max,
        start_grid_size: f.grid,
        start_grid_cell_size: f.cell,
        min_border_value: f.min_border,
        nodes: &f.nodes,
    };
    assert_eq!(f.points.len(), 400);
    let (mut outside, mut nonzero_fd) = (0, 0);
    for (p, theirs) in f.points.iter().zip(&f.answers) {
        let d = tree.plugin_distance(p);
        let g = tree.plugin_gradient(p);
        let ours = [d, g[0], g[1], g[2]];
        assert_eq!(
            ours.map(f64::to_bits),
            theirs.map(f64::to_bits),
            "at {p:?}: ours {ours:?}, MuJoCo's {theirs:?}"
        );
        let inside = (0..3).all(|i| p[i] as f32 >= f.min[i] && p[i] as f32 <= f.max[i]);
        if !inside {
            outside += 1;
            nonzero_fd += usize::from(g.iter().any(|&v| v != 0.0));
        }
    }
    // the points cover the projection and the finite differences outside the cube
    assert!(outside >= 40, "{outside} points outside");
    println!("{outside} points outside the cube, {nonzero_fd} with a nonzero difference");
}
