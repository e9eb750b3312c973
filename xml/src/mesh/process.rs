//! Mesh processing after loading: face orientation check, vertex normals (`MakeNormal`),
//! transformations, volume and inertia with the principal frame (`Process`), and face
//! circumcenters (`MakeCenter`).
//!
//! Vertices are `float`. Where MuJoCo computes in `float` (triangle centers, the products of
//! coordinates in the inertia integrals, normal lengths) this code does too; where it mixes
//! (a `float` updated by a `double` expression) the expression is evaluated in `f64` and
//! rounded once, as C does.

use mjrs_core::math::eig3::eig3;
use mjrs_core::math::mat::rot_vec_mat_t;
use mjrs_core::math::quat::quat2mat;
use mjrs_core::math::vec::{cross, dot3, norm3, normalize3, normalize4};

use super::{max, min, Inertial, MeshData, MeshOptions, Validity};
use crate::spec::Mesh;
use crate::util::{self, MINVAL};

/// The vertex at `id` as a slice of 3.
fn vertex(vert: &[f32], id: i32) -> &[f32] {
    let i = 3 * id as usize;
    &vert[i..i + 3]
}

/// `_triangle`: area, unit normal and (single-precision) center of a triangle. A triangle
/// with a cross product shorter than `mjMINVAL` has area 0 and keeps the raw cross product
/// as its normal.
fn triangle(v1: &[f32], v2: &[f32], v3: &[f32]) -> (f64, [f64; 3], [f64; 3]) {
    let center = [0, 1, 2].map(|i| f64::from((v1[i] + v2[i] + v3[i]) / 3.0));
    let b = [0, 1, 2].map(|i| f64::from(v2[i] - v1[i]));
    let c = [0, 1, 2].map(|i| f64::from(v3[i] - v1[i]));
    let mut normal = cross(&b, &c);
    let len = norm3(&normal);
    if len < MINVAL {
        return (0.0, normal, center);
    }
    for n in normal.iter_mut() {
        *n /= len;
    }
    (len / 2.0, normal, center)
}

/// The triangle of face `i`.
fn face_triangle(data: &MeshData, i: usize) -> (f64, [f64; 3], [f64; 3]) {
    let f = &data.face[3 * i..3 * i + 3];
    triangle(
        vertex(&data.vert, f[0]),
        vertex(&data.vert, f[1]),
        vertex(&data.vert, f[2]),
    )
}

/// Inconsistently oriented faces (`mjCMesh::Compile`): a directed edge shared by two faces of
/// non-negligible area. Returns the 1-based vertex ids of the smallest such edge.
pub(super) fn inconsistent_orientation(data: &MeshData) -> Option<(i32, i32)> {
    let mut halfedge = Vec::with_capacity(data.face.len());
    for f in data.face.chunks_exact(3) {
        let (a, _, _) = triangle(
            vertex(&data.vert, f[0]),
            vertex(&data.vert, f[1]),
            vertex(&data.vert, f[2]),
        );
        if a > MINVAL.sqrt() {
            halfedge.extend([(f[0], f[1]), (f[1], f[2]), (f[2], f[0])]);
        }
    }
    halfedge.sort_unstable();
    halfedge
        .windows(2)
        .find(|w| w[0] == w[1])
        .map(|w| (w[0].0 + 1, w[0].1 + 1))
}

/// The unit normal and area (the cross product's length) of face `i`, as `MakeNormal`
/// computes them (`mju_normalize3`: a degenerate face gets +x).
fn face_normal(data: &MeshData, i: usize) -> ([f64; 3], f64) {
    let f = &data.face[3 * i..3 * i + 3];
    let (p0, p1, p2) = (
        vertex(&data.vert, f[0]),
        vertex(&data.vert, f[1]),
        vertex(&data.vert, f[2]),
    );
    let v01 = [0, 1, 2].map(|j| f64::from(p1[j] - p0[j]));
    let v02 = [0, 1, 2].map(|j| f64::from(p2[j] - p0[j]));
    let mut nrm = cross(&v01, &v02);
    let area = normalize3(&mut nrm);
    (nrm, area)
}

/// `MakeNormal`: vertex normals as area-weighted sums of face normals; unless `smoothnormal`,
/// faces at a large angle (cosine below 0.8) to a vertex's normal are taken back out of it.
/// Face normal ids become the face vertex ids.
pub(super) fn make_normal(data: &mut MeshData, smoothnormal: bool) {
    let nface = data.nface();
    let mut normal = vec![0f32; data.vert.len()];
    for i in 0..nface {
        let (nrm, area) = face_normal(data, i);
        for &v in &data.face[3 * i..3 * i + 3] {
            let n = &mut normal[3 * v as usize..3 * v as usize + 3];
            for k in 0..3 {
                n[k] = (f64::from(n[k]) + nrm[k] * area) as f32;
            }
        }
    }

    if !smoothnormal {
        let mut remove = vec![0f32; normal.len()];
        for i in 0..nface {
            let (nrm, area) = face_normal(data, i);
            for &v in &data.face[3 * i..3 * i + 3] {
                let at = 3 * v as usize;
                let mut vnrm = [0, 1, 2].map(|k| f64::from(normal[at + k]));
                normalize3(&mut vnrm);
                if dot3(&nrm, &vnrm) < 0.8 {
                    for k in 0..3 {
                        remove[at + k] = (f64::from(remove[at + k]) + nrm[k] * area) as f32;
                    }
                }
            }
        }
        for (n, r) in normal.iter_mut().zip(&remove) {
            *n -= r;
        }
    }

    for n in normal.chunks_exact_mut(3) {
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        if f64::from(len) > MINVAL {
            for x in n.iter_mut() {
                *x /= len;
            }
        } else {
            n.copy_from_slice(&[0.0, 0.0, 1.0]);
        }
    }
    data.normal = normal;
    data.facenormal = data.face.clone();
}

/// `ApplyTransformations`: subtract `refpos`, rotate by the inverse of `refquat`, scale, and
/// normalize the normals.
fn apply_transformations(data: &mut MeshData, spec: &Mesh) {
    let refpos = spec.refpos;
    if refpos != [0.0; 3] {
        let rp = refpos.map(|x| x as f32);
        for v in data.vert.chunks_exact_mut(3) {
            for k in 0..3 {
                v[k] -= rp[k];
            }
        }
    }

    let q = spec.refquat;
    if q[0] != 1.0 || q[1] != 0.0 || q[2] != 0.0 || q[3] != 0.0 {
        let mut quat = q;
        normalize4(&mut quat);
        let mat = quat2mat(&quat);
        for v in data
            .vert
            .chunks_exact_mut(3)
            .chain(data.normal.chunks_exact_mut(3))
        {
            let p = rot_vec_mat_t(&[f64::from(v[0]), f64::from(v[1]), f64::from(v[2])], &mat);
            for k in 0..3 {
                v[k] = p[k] as f32;
            }
        }
    }

    let scale = spec.scale;
    if scale != [1.0; 3] {
        for v in data
            .vert
            .chunks_exact_mut(3)
            .chain(data.normal.chunks_exact_mut(3))
        {
            for k in 0..3 {
                v[k] = (f64::from(v[k]) * scale[k]) as f32;
            }
        }
    }

    for n in data.normal.chunks_exact_mut(3) {
        let len = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
        if f64::from(len) > MINVAL {
            let scl = 1.0 / len.sqrt();
            for x in n.iter_mut() {
                *x *= scl;
            }
        } else {
            n.copy_from_slice(&[0.0, 0.0, 1.0]);
        }
    }
}

/// `ComputeFaceCentroid`: the area-weighted mean of the face centers. With a total area below
/// `mjMINVAL` the area is marked invalid and the sum is returned undivided, as MuJoCo leaves it.
fn face_centroid(data: &MeshData) -> ([f64; 3], bool) {
    let mut facecen = [0.0; 3];
    let mut area = 0.0;
    for i in 0..data.nface() {
        let (a, _, cen) = face_triangle(data, i);
        for j in 0..3 {
            facecen[j] += a * cen[j];
        }
        area += a;
    }
    if area < MINVAL {
        return (facecen, false);
    }
    for c in facecen.iter_mut() {
        *c /= area;
    }
    (facecen, true)
}

/// `ComputeVolume`: the volume (shell: area) as a sum of pyramids from `facecen` to each face
/// (legacy inertia: of their absolute volumes), and the unnormalized center of mass.
fn compute_volume(
    data: &MeshData,
    shell: bool,
    facecen: &[f64; 3],
    exact: bool,
) -> (f64, [f64; 3]) {
    let mut volume = 0.0;
    let mut com = [0.0; 3];
    for i in 0..data.nface() {
        let (a, nrm, cen) = face_triangle(data, i);
        let vec = [
            cen[0] - facecen[0],
            cen[1] - facecen[1],
            cen[2] - facecen[2],
        ];
        let mut vol = if shell {
            a
        } else {
            util::dot3(&vec, &nrm) * a / 3.0
        };
        if !exact && !shell {
            vol = vol.abs();
        }
        volume += vol;
        for j in 0..3 {
            com[j] += vol * (cen[j] * 3.0 / 4.0 + facecen[j] / 4.0);
        }
    }
    (volume, com)
}

/// What [`process`] computes.
pub(super) struct Processed {
    pub volume: Inertial,
    pub shell: Inertial,
    pub aamm: [f64; 6],
    pub valid: Validity,
    pub warnings: Vec<String>,
}

/// Pairs of axes of the products of inertia xx, yy, zz, xy, xz, yz.
const PRODUCTS: [(usize, usize); 6] = [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)];

/// `mjCMesh::Process`: transformations, then for the volume and then the shell: volume and
/// center of mass, recentering (on the volume's center, or the shell's when the volume is
/// invalid), inertia, principal axes, equivalent box, and rotation of the vertices and normals
/// into the principal frame (the shell reuses the volume's frame when the volume is valid).
pub(super) fn process(data: &mut MeshData, spec: &Mesh, opts: &MeshOptions) -> Processed {
    let mut out = Processed {
        volume: Inertial::default(),
        shell: Inertial::default(),
        aamm: [1e10, 1e10, 1e10, -1e10, -1e10, -1e10],
        valid: Validity {
            orientation: None,
            area: true,
            volume: 1,
            eigenvalue: true,
            inequality: true,
        },
        warnings: Vec::new(),
    };

    apply_transformations(data, spec);
    let (facecen, area_ok) = face_centroid(data);
    out.valid.area = area_ok;
    let density = opts.density;

    for shell in [false, true] {
        let mut exact = opts.exactmeshinertia;
        let (mut volume, mut com) = compute_volume(data, shell, &facecen, exact);
        if volume <= 0.0 && exact {
            out.warnings.push(format!(
                "Malformed mesh {}, computing mesh inertia from convex hull",
                spec.name
            ));
            exact = false;
            (volume, com) = compute_volume(data, shell, &facecen, exact);
        }
        let volume_quat = out.volume.quat;
        let inertial = if shell {
            &mut out.shell
        } else {
            &mut out.volume
        };
        inertial.volume = volume;
        if volume < MINVAL {
            out.valid.volume = if volume < 0.0 { -1 } else { 0 };
            continue;
        }

        for c in com.iter_mut() {
            *c /= volume;
        }
        inertial.pos = com;

        if !shell || out.valid.volume <= 0 {
            for v in data.vert.chunks_exact_mut(3) {
                for j in 0..3 {
                    v[j] = (f64::from(v[j]) - com[j]) as f32;
                }
            }
        }

        // products of inertia over the tetrahedra (shell: triangles), recomputing the volume
        let mut p = [0.0f64; 6];
        volume = 0.0;
        for i in 0..data.nface() {
            let f = &data.face[3 * i..3 * i + 3];
            let (d, e, g) = (
                vertex(&data.vert, f[0]),
                vertex(&data.vert, f[1]),
                vertex(&data.vert, f[2]),
            );
            let (a, nrm, cen) = triangle(d, e, g);
            let mut vol = if shell {
                a
            } else {
                util::dot3(&cen, &nrm) * a / 3.0
            };
            if !exact && !shell {
                vol = vol.abs();
            }
            volume += vol;
            let scale = density * vol / if shell { 12.0 } else { 20.0 };
            for (j, &(k0, k1)) in PRODUCTS.iter().enumerate() {
                let sum: f32 = 2.0 * (d[k0] * d[k1] + e[k0] * e[k1] + g[k0] * g[k1])
                    + d[k0] * e[k1]
                    + d[k1] * e[k0]
                    + d[k0] * g[k1]
                    + d[k1] * g[k0]
                    + e[k0] * g[k1]
                    + e[k1] * g[k0];
                p[j] += scale * f64::from(sum);
            }
        }
        inertial.volume = volume;

        let inert = [p[1] + p[2], p[0] + p[2], p[0] + p[1], -p[3], -p[4], -p[5]];
        let full = [
            inert[0], inert[3], inert[4], inert[3], inert[1], inert[5], inert[4], inert[5],
            inert[2],
        ];
        let eig = eig3(&full);
        let ev = eig.eigval;
        if ev[2] <= 0.0 {
            out.valid.eigenvalue = false;
            return out;
        }
        if ev[0] + ev[1] < ev[2] || ev[0] + ev[2] < ev[1] || ev[1] + ev[2] < ev[0] {
            out.valid.inequality = false;
            return out;
        }

        let mass = volume * density;
        inertial.boxsz = [
            (6.0 * (ev[1] + ev[2] - ev[0]) / mass).sqrt() / 2.0,
            (6.0 * (ev[0] + ev[2] - ev[1]) / mass).sqrt() / 2.0,
            (6.0 * (ev[0] + ev[1] - ev[2]) / mass).sqrt() / 2.0,
        ];

        if shell && out.valid.volume > 0 {
            inertial.quat = volume_quat;
            continue;
        }

        // rotate into the principal frame
        inertial.quat = eig.quat;
        let q = eig.quat;
        let mat = util::quat2mat(&[q[0], -q[1], -q[2], -q[3]]);
        for v in data.vert.chunks_exact_mut(3) {
            let res = util::mulvecmat(&[f64::from(v[0]), f64::from(v[1]), f64::from(v[2])], &mat);
            for j in 0..3 {
                v[j] = res[j] as f32;
                out.aamm[j] = min(out.aamm[j], res[j]);
                out.aamm[j + 3] = max(out.aamm[j + 3], res[j]);
            }
        }
        for n in data.normal.chunks_exact_mut(3) {
            let res = util::mulvecmat(&[f64::from(n[0]), f64::from(n[1]), f64::from(n[2])], &mat);
            for j in 0..3 {
                n[j] = res[j] as f32;
            }
        }
    }
    out
}

/// `MakeCenter`: the circumcenter of each face, 3 per face (non-finite for degenerate faces,
/// as in MuJoCo).
pub(super) fn make_center(data: &MeshData) -> Vec<f64> {
    let mut center = Vec::with_capacity(data.face.len());
    for f in data.face.chunks_exact(3) {
        let (p0, p1, p2) = (
            vertex(&data.vert, f[0]),
            vertex(&data.vert, f[1]),
            vertex(&data.vert, f[2]),
        );
        let a = [0, 1, 2].map(|j| f64::from(p0[j] - p2[j]));
        let b = [0, 1, 2].map(|j| f64::from(p1[j] - p2[j]));
        let nrm = cross(&a, &b);
        let norm_a_2 = dot3(&a, &a);
        let norm_b_2 = dot3(&b, &b);
        let area = norm3(&nrm);
        let vec = [0, 1, 2].map(|j| norm_a_2 * b[j] - norm_b_2 * a[j]);
        let res = cross(&vec, &nrm);
        for j in 0..3 {
            center.push(res[j] / (2.0 * area * area) + f64::from(p2[j]));
        }
    }
    center
}
