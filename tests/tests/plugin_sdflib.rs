//! `mujoco.sdf.sdflib`, MuJoCo's mesh distance field, against MuJoCo 3.1.6's plugin library
//! (`fixtures/sdflib/generate-sdflib.sh`): the distances and gradients of MuJoCo's cow
//! (`model/plugin/sdf/cow.xml`) at 400 points near its surface, inside its octree's cube and
//! outside it, from the part of MuJoCo's own octree those queries read, bit for bit; SdfLib's
//! octree construction against MuJoCo's whole tree (its size and hash); bad meshes; the plugin
//! in models (`fixtures/plugin-models-sdflib.txt`): MuJoCo's MJB and mjrs's compilation, field by
//! field and over 1000 steps bit for bit; bad plugin models.

use mjrs_core::plugin::sdf::sdflib::build::Mesh;
use mjrs_core::plugin::sdf::sdflib::{BuildError, OctreeHeader, OctreeSdf};

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

/// The plugin's mesh and MuJoCo's octree summary from a `*.tree.txt` fixture: vertices, faces,
/// the number of octree words, their FNV-1a hash and the header words.
struct TreeFixture {
    vertices: Vec<[f32; 3]>,
    faces: Vec<u32>,
    len: usize,
    hash: u64,
    header: [u32; 8],
}

fn read_tree(name: &str) -> TreeFixture {
    let path = mjrs_tests::fixtures().join("sdflib").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let first: Vec<&str> = lines.next().unwrap().split(' ').collect();
    let len = first[1].parse().unwrap();
    let hash = u64::from_str_radix(first[3], 16).unwrap();
    let header: Vec<u32> = lines
        .next()
        .unwrap()
        .split(' ')
        .skip(1)
        .map(|w| u32::from_str_radix(w, 16).unwrap())
        .collect();
    let nvert: usize = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let vertices = (0..nvert)
        .map(|_| {
            let w: Vec<f32> = lines
                .next()
                .unwrap()
                .split(' ')
                .map(|x| f32::from_bits(u32::from_str_radix(x, 16).unwrap()))
                .collect();
            [w[0], w[1], w[2]]
        })
        .collect();
    let nface: usize = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let faces = (0..nface)
        .flat_map(|_| {
            lines
                .next()
                .unwrap()
                .split(' ')
                .map(|x| x.parse::<u32>().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    TreeFixture {
        vertices,
        faces,
        len,
        hash,
        header: header.try_into().unwrap(),
    }
}

fn fnv1a(words: &[u32]) -> u64 {
    let mut h = mjrs_core::hash::Fnv1a::new();
    for w in words {
        h.write(&w.to_le_bytes());
    }
    h.finish()
}

/// Builds the octree of a mesh with heap memory of `capacity` octree words.
fn build_tree(
    vertices: &[[f32; 3]],
    faces: &[u32],
    capacity: usize,
) -> Result<(OctreeHeader, Vec<u32>), BuildError> {
    mjrs_alloc::sdflib::build_tree(
        Mesh {
            vertices,
            indices: faces,
        },
        capacity,
    )
}

fn header_words(h: &OctreeHeader) -> [u32; 8] {
    [
        h.min[0],
        h.min[1],
        h.min[2],
        h.max[0],
        h.max[1],
        h.max[2],
        h.start_grid_cell_size,
        h.min_border_value,
    ]
    .map(f32::to_bits)
}

/// SdfLib's construction of a box's octree (1.5 million words: the box's edges and corners
/// refine to the maximum depth) is MuJoCo's word for word.
#[test]
fn box_octree_is_mujocos_word_for_word() {
    let f = read_tree("box.tree.txt");
    let (header, tree) = build_tree(&f.vertices, &f.faces, 2 * f.len).unwrap();
    assert_eq!(header_words(&header), f.header);
    assert_eq!(tree.len(), f.len);
    assert_eq!(fnv1a(&tree), f.hash);
}

/// The cow's octree is MuJoCo's word for word. Its nearest-triangle tree sorts triangles by a
/// coordinate of their first vertex, with many ties; the order libc++ (MuJoCo's plugin library is
/// built with clang 17 and libc++) leaves them in decides which of equally near triangles a
/// corner takes (libstdc++'s order took triangle 2000 where MuJoCo takes 1986, 1 ulp apart).
#[test]
fn cow_octree_is_mujocos_word_for_word() {
    let f = read_tree("cow.tree.txt");
    let (header, tree) = build_tree(&f.vertices, &f.faces, 2 * f.len).unwrap();
    assert_eq!(header_words(&header)[..7], f.header[..7]);
    assert_eq!(tree.len(), f.len);
    assert_eq!(fnv1a(&tree), f.hash);
}

#[test]
fn bad_meshes_are_clear_errors() {
    let f = read_tree("box.tree.txt");
    // no faces
    assert_eq!(
        build_tree(&f.vertices, &[], 1 << 16).unwrap_err(),
        BuildError::NoFaces
    );
    // a face naming a vertex the mesh does not have
    let mut bad = f.faces.clone();
    bad[4] = 99;
    assert_eq!(
        build_tree(&f.vertices, &bad, 1 << 16).unwrap_err(),
        BuildError::BadIndex
    );
    // a triangle without area (two corners on one vertex): SdfLib's frame of it is NaN
    let mut flat = f.faces.clone();
    flat[1] = flat[0];
    assert_eq!(
        build_tree(&f.vertices, &flat, 1 << 16).unwrap_err(),
        BuildError::FlatTriangle
    );
    // three corners in a line
    let mut line = f.vertices.clone();
    let (a, b, c) = (
        f.faces[0] as usize,
        f.faces[1] as usize,
        f.faces[2] as usize,
    );
    line[c] = std::array::from_fn(|i| 0.5 * (line[a][i] + line[b][i]));
    assert_eq!(
        build_tree(&line, &f.faces, 1 << 16).unwrap_err(),
        BuildError::FlatTriangle
    );
    // all vertices at one point: no extent
    let point = vec![[0.5f32; 3]; f.vertices.len()];
    assert_eq!(
        build_tree(&point, &f.faces, 1 << 16).unwrap_err(),
        BuildError::Degenerate
    );
    // not finite
    let mut nan = f.vertices.clone();
    nan[0][1] = f32::NAN;
    assert_eq!(
        build_tree(&nan, &f.faces, 1 << 16).unwrap_err(),
        BuildError::Degenerate
    );
    // the tree outgrows the memory given: a clear error, not a panic or an allocation
    assert_eq!(
        build_tree(&f.vertices, &f.faces, 1 << 16).unwrap_err(),
        BuildError::TooLarge
    );
}

// ------------------------------------------------------------------------------------------------
// the plugin in models: MuJoCo's MJB and mjrs's own compilation against MuJoCo 3.1.6

const SDFLIB_MODELS: mjrs_tests::harness::Suite = mjrs_tests::harness::Suite {
    prefix: "plugin-models-sdflib",
    dir: "plugin",
};

/// Builds the octrees of the suite's models once per test process, one after the other (the
/// tests run in parallel and would otherwise each build the same trees at once).
fn trees_built() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for case in SDFLIB_MODELS.cases() {
            let blob = mjrs_tests::plugin_traj::reference_mjb(&case.name);
            mjrs_alloc::OwnedModel::from_mjb(&blob).unwrap();
        }
    });
}

/// The tree the plugin built for the suite's model `case` (MuJoCo's MJB) is the one MuJoCo built,
/// word for word (`fixture`: its size, hash and header), from the mesh the fixture names.
fn assert_model_tree_is_mujocos(case: &str, fixture: &str, nvert: usize) {
    use mjrs_core::plugin::sdf::sdflib::plugin::{find_tree, instance_mesh, mesh_key, tree};
    trees_built();
    let f = read_tree(fixture);
    let blob = mjrs_tests::plugin_traj::reference_mjb(case);
    let mut model = mjrs_alloc::OwnedModel::from_mjb(&blob).unwrap();
    let m = model.view();
    let t = tree(find_tree(mesh_key(&m, instance_mesh(&m, 0).unwrap())).unwrap()).unwrap();
    assert_eq!(header_words(&t.header), f.header);
    assert_eq!(t.nodes.len(), f.len);
    assert_eq!(fnv1a(t.nodes), f.hash);
    assert_eq!(f.vertices.len(), nvert);
}

/// The tree of a mesh whose faces have their own vertices is MuJoCo's word for word: SdfLib
/// finds no edge with two faces, merges the copies of vertices within its tolerance (1e-5 over
/// the largest extent; two copies here are 1e-6 and 2e-6 apart), pairs the edges between merged
/// vertices (in the order of their old keys) and gives merged vertices the sum of their normals.
#[test]
fn octree_of_a_mesh_with_copied_vertices_is_mujocos() {
    assert_model_tree_is_mujocos("sdflib_split_wedge", "split_wedge.tree.txt", 24);
}

/// The tree of a wedge with a small hole (three edges with one face, which SdfLib cannot merge)
/// is MuJoCo's word for word. Some of its nodes walk to a neighbour from two or more levels
/// above (a coarse leaf refined since), where SdfLib follows the node's path cut to 8 bits (its
/// node constructor's `uint8_t`).
#[test]
fn octree_of_an_open_mesh_is_mujocos() {
    assert_model_tree_is_mujocos("sdflib_open_wedge", "open_wedge.tree.txt", 9);
}

/// The tree of a wedge with a fin (an edge with three faces) is MuJoCo's word for word.
#[test]
fn octree_of_a_finned_mesh_is_mujocos() {
    assert_model_tree_is_mujocos("sdflib_fin_wedge", "fin_wedge.tree.txt", 10);
}

/// After 20 steps and a forward pass, the state, forces and poses are MuJoCo's bit for bit.
#[test]
fn data_after_steps_is_bit_for_bit() {
    trees_built();
    let fields = mjrs_tests::plugin_traj::check_recorded_data(&SDFLIB_MODELS, "qpos");
    println!("{fields} Data fields compared bit for bit");
    assert!(fields > 20, "only {fields} fields compared");
}

/// MuJoCo's MJB of each model (the tree built when the model is validated) runs MuJoCo's 1000
/// steps bit for bit: a box SDF falling on a plane and resting there, a sphere and a box dropped
/// on a wedge SDF.
#[test]
fn trajectories_are_bit_for_bit_for_1000_steps() {
    trees_built();
    let failures = SDFLIB_MODELS.traj_failures(0.0, 0.0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The models compiled by mjrs from MJCF are MuJoCo's field by field and run its trajectories
/// bit for bit, with contacts against the field.
#[test]
fn compiled_models_are_mujocos_and_run_its_trajectories() {
    trees_built();
    let (n, fields, contacts) = SDFLIB_MODELS.check_compiled_models();
    println!("{n} models: {fields} fields identical, 1000 steps each, {contacts} contacts");
    assert!(n == 5 && contacts > 1000, "{n} models, {contacts} contacts");
}

/// The wedge model with `change` applied to its text, compiled from the wedge's folder, with
/// `files` in a VFS.
fn compile_wedge(
    change: impl Fn(&str) -> String,
    files: &[(&str, &str)],
) -> Result<mjrs_xml::compiler::Compilation, mjrs_xml::XmlError> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models/plugin/sdflib/");
    let text = change(&std::fs::read_to_string(dir.join("wedge.xml")).unwrap());
    let mut vfs = mjrs_std::Vfs::new();
    for (name, body) in files {
        vfs.add_buffer(name, body.as_bytes().to_vec()).unwrap();
    }
    mjrs_xml::compile_str(&text, "wedge.xml", dir.to_str().unwrap(), Some(&vfs))
}

#[test]
fn bad_plugin_models_are_clear_errors() {
    // a config key the plugin does not have: MuJoCo's message
    let e = compile_wedge(|t| t.replace("key=\"aabb\"", "key=\"depth\""), &[])
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("unrecognized attribute 'plugin:depth' for plugin mujoco.sdf.sdflib"),
        "{e}"
    );
    // a value the plugin never reads is accepted, as MuJoCo accepts it
    assert!(compile_wedge(|t| t.replace("value=\"0\"", "value=\"lots\""), &[]).is_ok());
    // a mesh without a file (MuJoCo 3.1.6 crashes calling the plugin's missing bounding box)
    let e = compile_wedge(
        |t| {
            t.replace(
                "file=\"wedge.obj\"",
                "vertex=\"0 0 0 1 0 0 0 1 0 0 0 1\" face=\"0 2 1 0 1 3 0 3 2 1 2 3\"",
            )
        },
        &[],
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("needs a mesh file"), "{e}");
    // a mesh with a face on one vertex twice: its distances would be NaN
    let flat = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 3\n";
    let e = compile_wedge(
        |t| t.replace("wedge.obj", "flat.obj"),
        &[("flat.obj", flat)],
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("has no area"), "{e}");
    // an instance no geom uses
    let e = compile_wedge(
        |t| t.replace("<geom type=\"sdf\" mesh=\"wedge\" euler=\"0 0 30\">\n      <plugin instance=\"wedge\"/>\n    </geom>", ""),
        &[],
    )
    .err()
    .unwrap()
    .to_string();
    assert!(e.contains("no geom uses the plugin instance"), "{e}");
}

/// The instance's tree is found through its object: every Data of a model shares the tree
/// built once for the mesh, and the plugin's distance there is the octree's.
#[test]
fn the_tree_is_built_once_per_mesh_and_reached_through_the_object() {
    use mjrs_core::plugin::sdf::sdflib::plugin::{find_tree, instance_mesh, mesh_key, tree};
    use mjrs_core::plugin::{instance_object_ref, instance_plugin};
    let mut c = compile_wedge(|t| t.to_string(), &[]).unwrap();
    let m = c.model.view();
    let key = mesh_key(&m, instance_mesh(&m, 0).unwrap());
    let index = find_tree(key).expect("the compiler's init built the tree");
    let t = tree(index).unwrap();
    assert!(t.nodes.len() > 512);
    let mut a = mjrs_std::OwnedData::new(&m).unwrap();
    let mut b = mjrs_std::OwnedData::new(&m).unwrap();
    let (a, b) = (a.view(), b.view());
    let plugin = instance_plugin(&m, 0).unwrap();
    let p = [0.1, 0.05, 0.02];
    let oa = instance_object_ref(a.plugin_data, a.plugin_objects(), 0);
    let ob = instance_object_ref(b.plugin_data, b.plugin_objects(), 0);
    let d = plugin.sdf_distance(&p, &[], oa);
    assert_eq!(d, plugin.sdf_distance(&p, &[], ob));
    assert_eq!(d, t.sdf().plugin_distance(&p));
    assert!(d < 0.0, "{d}: inside the wedge");
    // without its object (a Data made for a model whose plugins were not initialized) the
    // distance is NaN, not a panic
    assert!(plugin.sdf_distance(&p, &[], &[]).is_nan());
    assert_eq!(find_tree(key), Some(index));
}
