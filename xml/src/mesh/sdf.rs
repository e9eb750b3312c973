//! Meshes of signed distance fields (the SDF half of MuJoCo 3.1.6's `mjCMesh::LoadSDF`): the
//! plugin's static distance sampled on a grid over its bounding box, then the zero level set
//! by marching cubes, as the MarchingCubeCpp library that MuJoCo uses (single precision,
//! vertices shared along grid edges, triangles from its packed table, normals accumulated from
//! the triangles and normalized). The results are the mesh's own vertices, normals and faces.

use mjrs_core::plugin::Plugin;
use mjrs_core::Real;

/// Vertices (3 per vertex), vertex normals (3 per vertex) and faces (3 vertex indices each).
pub type SdfSurface = (Vec<f32>, Vec<f32>, Vec<i32>);

/// Grid points along the three axes together (MuJoCo's `n`), split in proportion to the box.
const GRID_TOTAL: f64 = 300.0;

/// The surface of `plugin`'s field with numeric attributes `attributes` (MuJoCo's `LoadSDF`
/// after the attributes are known).
pub fn sdf_surface(plugin: &dyn Plugin, attributes: &[Real]) -> SdfSurface {
    let aabb = plugin.sdf_aabb(attributes);
    let total = aabb[3] + aabb[4] + aabb[5];
    let count = |half: f64| (GRID_TOTAL / total * half).floor() as i64 + 1;
    let n = [count(aabb[3]), count(aabb[4]), count(aabb[5])];
    // a box of no extent (or NaN) gives no grid, hence no surface
    if n.iter().any(|&k| !(2..=1 << 20).contains(&k)) {
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let grid = Grid {
        nx: n[0] as usize,
        ny: n[1] as usize,
        nz: n[2] as usize,
    };
    let field = sample(plugin, attributes, &aabb, &grid);
    let mc = marching_cubes(&field, &grid);

    // grid coordinates back to the box
    let scale = |c: f32, k: usize| -> f32 {
        let steps = (n[k] - 1) as f64;
        (2.0 * aabb[3 + k] * f64::from(c) / steps + aabb[k] - aabb[3 + k]) as f32
    };
    let vert = mc
        .vertices
        .iter()
        .flat_map(|v| [scale(v[0], 0), scale(v[1], 1), scale(v[2], 2)])
        .collect();
    let normal = mc.normals.iter().flatten().copied().collect();
    let face = mc.indices.iter().map(|&i| i as i32).collect();
    (vert, normal, face)
}

/// Grid points per axis.
struct Grid {
    nx: usize,
    ny: usize,
    nz: usize,
}

impl Grid {
    /// Index of grid point `(i, j, k)` in the field, x fastest.
    fn index(&self, i: usize, j: usize, k: usize) -> usize {
        (k * self.ny + j) * self.nx + i
    }

    /// Index in the two-layer slab of shared edge vertices.
    fn slab(&self, i: usize, j: usize, k: usize) -> usize {
        self.nx * self.ny * (k % 2) + j * self.nx + i
    }
}

/// The static distance at every grid point, in single precision.
fn sample(plugin: &dyn Plugin, attributes: &[Real], aabb: &[Real; 6], g: &Grid) -> Vec<f32> {
    let mut field = vec![0.0f32; g.nx * g.ny * g.nz];
    let coord = |k: usize, i: usize, n: usize| {
        aabb[k] - aabb[3 + k] + 2.0 * aabb[3 + k] * i as f64 / (n - 1) as f64
    };
    for i in 0..g.nx {
        for j in 0..g.ny {
            for k in 0..g.nz {
                let point = [coord(0, i, g.nx), coord(1, j, g.ny), coord(2, k, g.nz)];
                field[g.index(i, j, k)] = plugin.sdf_staticdistance(&point, attributes) as f32;
            }
        }
    }
    field
}

/// A marching-cubes mesh in grid coordinates.
#[derive(Default)]
struct McMesh {
    vertices: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    indices: Vec<u32>,
}

impl McMesh {
    /// Adds the vertex where the field crosses zero on the edge from grid point `(x, y, z)`
    /// along `axis` (values `va`, `vb` at its ends), if it does, and records it in the slab.
    #[allow(clippy::too_many_arguments)]
    fn edge(
        &mut self,
        slab: &mut [[u32; 3]],
        g: &Grid,
        va: f32,
        vb: f32,
        axis: usize,
        x: usize,
        y: usize,
        z: usize,
    ) {
        if (va < 0.0) == (vb < 0.0) {
            return;
        }
        let mut v = [x as f32, y as f32, z as f32];
        v[axis] += va / (va - vb);
        slab[g.slab(x, y, z)][axis] = self.vertices.len() as u32;
        self.vertices.push(v);
        self.normals.push([0.0; 3]);
    }

    /// Adds the triangle's (unnormalized) normal to its three vertices.
    fn accumulate_normal(&mut self, a: u32, b: u32, c: u32) {
        let (va, vb, vc) = (
            self.vertices[a as usize],
            self.vertices[b as usize],
            self.vertices[c as usize],
        );
        let ab = [va[0] - vb[0], va[1] - vb[1], va[2] - vb[2]];
        let cb = [vc[0] - vb[0], vc[1] - vb[1], vc[2] - vb[2]];
        let n = [
            cb[1] * ab[2] - cb[2] * ab[1],
            cb[2] * ab[0] - cb[0] * ab[2],
            cb[0] * ab[1] - cb[1] * ab[0],
        ];
        for i in [a, b, c] {
            let normal = &mut self.normals[i as usize];
            for k in 0..3 {
                normal[k] += n[k];
            }
        }
    }
}

/// The zero level set of `field` (MarchingCubeCpp's `marching_cube`).
fn marching_cubes(field: &[f32], g: &Grid) -> McMesh {
    let mut mesh = McMesh::default();
    let mut slab = vec![[0u32; 3]; g.nx * g.ny * 2];
    for z in 0..g.nz - 1 {
        for y in 0..g.ny - 1 {
            for x in 0..g.nx - 1 {
                let vs: [f32; 8] = core::array::from_fn(|c| {
                    field[g.index(x + (c & 1), y + (c >> 1 & 1), z + (c >> 2))]
                });
                let config = vs
                    .iter()
                    .enumerate()
                    .fold(0usize, |acc, (c, &v)| acc | (usize::from(v < 0.0) << c));
                if config == 0 || config == 255 {
                    continue;
                }
                cube_edges(&mut mesh, &mut slab, g, &vs, x, y, z);
                add_triangles(&mut mesh, &slab, g, config, x, y, z);
            }
        }
    }
    for n in &mut mesh.normals {
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        *n = [n[0] / len, n[1] / len, n[2] / len];
    }
    mesh
}

/// The vertices on the cube's edges that no earlier cube made: the edges at the low faces of
/// the grid only for the first cube that touches them.
#[allow(clippy::too_many_arguments)]
fn cube_edges(
    mesh: &mut McMesh,
    slab: &mut [[u32; 3]],
    g: &Grid,
    vs: &[f32; 8],
    x: usize,
    y: usize,
    z: usize,
) {
    let (x0, y0, z0) = (x == 0, y == 0, z == 0);
    // x edges
    if y0 && z0 {
        mesh.edge(slab, g, vs[0], vs[1], 0, x, y, z);
    }
    if z0 {
        mesh.edge(slab, g, vs[2], vs[3], 0, x, y + 1, z);
    }
    if y0 {
        mesh.edge(slab, g, vs[4], vs[5], 0, x, y, z + 1);
    }
    mesh.edge(slab, g, vs[6], vs[7], 0, x, y + 1, z + 1);
    // y edges
    if x0 && z0 {
        mesh.edge(slab, g, vs[0], vs[2], 1, x, y, z);
    }
    if z0 {
        mesh.edge(slab, g, vs[1], vs[3], 1, x + 1, y, z);
    }
    if x0 {
        mesh.edge(slab, g, vs[4], vs[6], 1, x, y, z + 1);
    }
    mesh.edge(slab, g, vs[5], vs[7], 1, x + 1, y, z + 1);
    // z edges
    if x0 && y0 {
        mesh.edge(slab, g, vs[0], vs[4], 2, x, y, z);
    }
    if y0 {
        mesh.edge(slab, g, vs[1], vs[5], 2, x + 1, y, z);
    }
    if x0 {
        mesh.edge(slab, g, vs[2], vs[6], 2, x, y + 1, z);
    }
    mesh.edge(slab, g, vs[3], vs[7], 2, x + 1, y + 1, z);
}

/// The cube's triangles from the table, and their normals.
fn add_triangles(
    mesh: &mut McMesh,
    slab: &[[u32; 3]],
    g: &Grid,
    config: usize,
    x: usize,
    y: usize,
    z: usize,
) {
    let s =
        |dx: usize, dy: usize, dz: usize, axis: usize| slab[g.slab(x + dx, y + dy, z + dz)][axis];
    let edge_indices = [
        s(0, 0, 0, 0),
        s(0, 1, 0, 0),
        s(0, 0, 1, 0),
        s(0, 1, 1, 0),
        s(0, 0, 0, 1),
        s(1, 0, 0, 1),
        s(0, 0, 1, 1),
        s(1, 0, 1, 1),
        s(0, 0, 0, 2),
        s(1, 0, 0, 2),
        s(0, 1, 0, 2),
        s(1, 1, 0, 2),
    ];
    let code = TRIANGLES[config];
    let ntriangles = (code & 0xF) as usize;
    let base = mesh.indices.len();
    for i in 0..3 * ntriangles {
        let edge = (code >> (4 + 4 * i)) & 0xF;
        mesh.indices.push(edge_indices[edge as usize]);
    }
    for t in 0..ntriangles {
        let [a, b, c] = [0, 1, 2].map(|k| mesh.indices[base + 3 * t + k]);
        mesh.accumulate_normal(a, b, c);
    }
}

/// The triangles of each of the 256 sign configurations of a cube's corners (bit c set: corner
/// c, at `(c & 1, c >> 1 & 1, c >> 2)`, is inside), packed: the count in the low 4 bits, then
/// 4 bits per triangle corner naming one of the 12 edges (0-3 along x, 4-7 along y, 8-11 along
/// z). The table of MarchingCubeCpp (Axel Paris, public domain or MIT), which MuJoCo uses.
#[rustfmt::skip]
const TRIANGLES: [u64; 256] = [
    0, 33793, 36945, 159668546,
    18961, 144771090, 5851666, 595283255635,
    20913, 67640146, 193993474, 655980856339,
    88782242, 736732689667, 797430812739, 194554754,
    26657, 104867330, 136709522, 298069416227,
    109224258, 8877909667, 318136408323, 1567994331701604,
    189884450, 350847647843, 559958167731, 3256298596865604,
    447393122899, 651646838401572, 2538311371089956, 737032694307,
    29329, 43484162, 91358498, 374810899075,
    158485010, 178117478419, 88675058979, 433581536604804,
    158486962, 649105605635, 4866906995, 3220959471609924,
    649165714851, 3184943915608436, 570691368417972, 595804498035,
    124295042, 431498018963, 508238522371, 91518530,
    318240155763, 291789778348404, 1830001131721892, 375363605923,
    777781811075, 1136111028516116, 3097834205243396, 508001629971,
    2663607373704004, 680242583802939237, 333380770766129845, 179746658,
    42545, 138437538, 93365810, 713842853011,
    73602098, 69575510115, 23964357683, 868078761575828,
    28681778, 713778574611, 250912709379, 2323825233181284,
    302080811955, 3184439127991172, 1694042660682596, 796909779811,
    176306722, 150327278147, 619854856867, 1005252473234484,
    211025400963, 36712706, 360743481544788, 150627258963,
    117482600995, 1024968212107700, 2535169275963444, 4734473194086550421,
    628107696687956, 9399128243, 5198438490361643573, 194220594,
    104474994, 566996932387, 427920028243, 2014821863433780,
    492093858627, 147361150235284, 2005882975110676, 9671606099636618005,
    777701008947, 3185463219618820, 482784926917540, 2900953068249785909,
    1754182023747364, 4274848857537943333, 13198752741767688709, 2015093490989156,
    591272318771, 2659758091419812, 1531044293118596, 298306479155,
    408509245114388, 210504348563, 9248164405801223541, 91321106,
    2660352816454484, 680170263324308757, 8333659837799955077, 482966828984116,
    4274926723105633605, 3184439197724820, 192104450, 15217,
    45937, 129205250, 129208402, 529245952323,
    169097138, 770695537027, 382310500883, 2838550742137652,
    122763026, 277045793139, 81608128403, 1991870397907988,
    362778151475, 2059003085103236, 2132572377842852, 655681091891,
    58419234, 239280858627, 529092143139, 1568257451898804,
    447235128115, 679678845236084, 2167161349491220, 1554184567314086709,
    165479003923, 1428768988226596, 977710670185060, 10550024711307499077,
    1305410032576132, 11779770265620358997, 333446212255967269, 978168444447012,
    162736434, 35596216627, 138295313843, 891861543990356,
    692616541075, 3151866750863876, 100103641866564, 6572336607016932133,
    215036012883, 726936420696196, 52433666, 82160664963,
    2588613720361524, 5802089162353039525, 214799000387, 144876322,
    668013605731, 110616894681956, 1601657732871812, 430945547955,
    3156382366321172, 7644494644932993285, 3928124806469601813, 3155990846772900,
    339991010498708, 10743689387941597493, 5103845475, 105070898,
    3928064910068824213, 156265010, 1305138421793636, 27185,
    195459938, 567044449971, 382447549283, 2175279159592324,
    443529919251, 195059004769796, 2165424908404116, 1554158691063110021,
    504228368803, 1436350466655236, 27584723588724, 1900945754488837749,
    122971970, 443829749251, 302601798803, 108558722,
    724700725875, 43570095105972, 2295263717447940, 2860446751369014181,
    2165106202149444, 69275726195, 2860543885641537797, 2165106320445780,
    2280890014640004, 11820349930268368933, 8721082628082003989, 127050770,
    503707084675, 122834978, 2538193642857604, 10129,
    801441490467, 2923200302876740, 1443359556281892, 2901063790822564949,
    2728339631923524, 7103874718248233397, 12775311047932294245, 95520290,
    2623783208098404, 1900908618382410757, 137742672547, 2323440239468964,
    362478212387, 727199575803140, 73425410, 34337,
    163101314, 668566030659, 801204361987, 73030562,
    591509145619, 162574594, 100608342969108, 5553,
    724147968595, 1436604830452292, 176259090, 42001,
    143955266, 2385, 18433, 0,
];
