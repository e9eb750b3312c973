//! Flexes (MuJoCo's flex geoms and flex bounding volumes in `mjv_addGeoms`, the flex arrays
//! of `mjv_makeScene` and `mjv_updateActiveFlex`): one geom per shown flex, whose vertices,
//! edges and triangles the renderer reads from the scene's flex arrays. Faces are either the
//! elements' own triangles with flat normals (`FLEXFACE`) or a skin offset by the flex radius
//! along smoothed vertex normals (`FLEXSKIN`), closed at the sides of a 2D flex.

use super::decor::{bvh_color, bvh_shown};
use super::geom::{group, init_geom, set_material, start_geom, to3};
use super::{flag, label, Perturb, Scene, VisOption, CAT_DECOR, CAT_DYNAMIC};
use mjrs_core::math::vec::{add_scl3, add_to3, cross, normalize3, sub3};
use mjrs_core::types::{GEOM_FLEX, GEOM_LINEBOX, OBJ_FLEX, OBJ_UNKNOWN};
use mjrs_core::{Data, Model, Real};

/// Whether any flex flag is on: only then are flexes drawn and their arrays updated.
pub(super) fn any_shown(opt: &VisOption) -> bool {
    [
        flag::FLEXVERT,
        flag::FLEXEDGE,
        flag::FLEXFACE,
        flag::FLEXSKIN,
    ]
    .iter()
    .any(|&f| opt.flags[f] != 0)
}

/// The flex geoms of the shown groups: a `FLEX` geom at the first vertex with the radius as
/// size; `false` when the scene is full.
pub(super) fn add_flexes(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    pert: &Perturb,
    catmask: i32,
    scn: &mut Scene,
) -> bool {
    if !any_shown(opt) || catmask & CAT_DYNAMIC == 0 {
        return true;
    }
    for i in 0..m.nflex {
        if opt.flexgroup[group(m.flex_group[i])] == 0 {
            continue;
        }
        let Some(start) = start_geom(d, scn, OBJ_FLEX, i, CAT_DYNAMIC) else {
            return false;
        };
        let first = 3 * m.flex_vertadr[i] as usize;
        let mut g = init_geom(
            GEOM_FLEX,
            None,
            Some(&d.flexvert_xpos[first..first + 3]),
            None,
            None,
        );
        g.take_slot(&start);
        g.size[0] = m.flex_radius[i] as f32;
        set_material(
            m,
            &mut g,
            m.flex_matid[i],
            &m.flex_rgba[4 * i..4 * i + 4],
            &opt.flags,
        );
        // a texture needs the flex's own coordinates
        if m.flex_texcoordadr[i] >= 0 {
            g.texcoord = 1;
        } else {
            g.texid = -1;
        }
        if pert.flexselect == i as i32 {
            g.emission += m.vis.global.glow;
        }
        if g.rgba[3] == 0.0 {
            continue;
        }
        if opt.label == label::FLEX {
            g.label = super::labels::make_label(m, OBJ_FLEX, i);
        }
        scn.geoms.push(g);
    }
    true
}

/// The dynamic bounding boxes of the shown flexes at the option's depth (leaves above it
/// too), as line boxes in the bounding-volume colour (the active colour for active nodes
/// when the model marks them). Stops quietly when the scene is full, as MuJoCo does.
pub(super) fn add_flex_bvh(m: &Model, d: &mut Data, opt: &VisOption, scn: &mut Scene) {
    if opt.flags[flag::FLEXBVH] == 0 {
        return;
    }
    for f in 0..m.nflex {
        if m.flex_bvhnum[f] == 0 || opt.flexgroup[group(m.flex_group[f])] == 0 {
            continue;
        }
        let adr = m.flex_bvhadr[f] as usize;
        for i in adr..adr + m.flex_bvhnum[f] as usize {
            if scn.geoms.len() >= scn.maxgeom {
                break;
            }
            if !bvh_shown(m, opt, i) {
                continue;
            }
            let rgba = bvh_color(m, d.bvh_active[i]);
            let Some(start) = start_geom(d, scn, OBJ_UNKNOWN, i, CAT_DECOR) else {
                return;
            };
            let k = 6 * (i - m.nbvhstatic);
            let aabb = &d.bvh_aabb_dyn[k..k + 6];
            let mut g = init_geom(
                GEOM_LINEBOX,
                Some(&aabb[3..6]),
                Some(&aabb[..3]),
                None,
                Some(&rgba),
            );
            g.take_slot(&start);
            scn.geoms.push(g);
        }
    }
}

/// Sizes the scene's flex arrays for `m` and copies the model's vertex and edge ranges
/// (the flex part of `mjv_makeScene`): room for the most faces each flex can show, a 2D flex
/// two per element and two per shell fragment, a 3D flex its shell or four per element of
/// its largest layer.
pub(super) fn make_flex_arrays(m: &Model, scn: &mut Scene) {
    let nflex = m.nflex;
    let ints = |v: &[i32]| v[..nflex].to_vec();
    scn.nflex = nflex;
    scn.flexedgeadr = ints(&m.flex_edgeadr);
    scn.flexedgenum = ints(&m.flex_edgenum);
    scn.flexvertadr = ints(&m.flex_vertadr);
    scn.flexvertnum = ints(&m.flex_vertnum);
    scn.flexedge = m.flex_edge[..2 * m.nflexedge].to_vec();
    scn.flexfacenum = (0..nflex).map(|f| max_faces(m, f)).collect();
    scn.flexfaceadr = scn
        .flexfacenum
        .iter()
        .scan(0, |adr, &n| {
            let here = *adr;
            *adr += n;
            Some(here)
        })
        .collect();
    scn.flexfaceused = vec![0; nflex];
    let nface = scn.flexfacenum.iter().map(|&n| n as usize).sum::<usize>();
    scn.flexvert = vec![0.0; 3 * m.nflexvert];
    scn.flexface = vec![0.0; 9 * nface];
    scn.flexnormal = vec![0.0; 9 * nface];
    scn.flextexcoord = vec![0.0; 6 * nface];
}

/// Whether the scene's flex arrays were made for `m`'s flexes: the same sizes, ranges, edges
/// and room for faces.
pub(super) fn arrays_match(m: &Model, scn: &Scene) -> bool {
    let n = m.nflex;
    scn.nflex == n
        && scn.flexvert.len() == 3 * m.nflexvert
        && scn.flexedge[..] == m.flex_edge[..2 * m.nflexedge]
        && scn.flexedgeadr[..] == m.flex_edgeadr[..n]
        && scn.flexedgenum[..] == m.flex_edgenum[..n]
        && scn.flexvertadr[..] == m.flex_vertadr[..n]
        && scn.flexvertnum[..] == m.flex_vertnum[..n]
        && scn
            .flexfacenum
            .iter()
            .enumerate()
            .all(|(f, &n)| n == max_faces(m, f))
}

/// The most faces flex `f` shows (`flexfacenum`). MuJoCo tests `dim == 0`, which no flex
/// has, so a 1D flex is sized as a 3D one and uses none of its room.
fn max_faces(m: &Model, f: usize) -> i32 {
    let (elemnum, shellnum) = (m.flex_elemnum[f], m.flex_shellnum[f]);
    match m.flex_dim[f] {
        0 => 0,
        2 => 2 * shellnum + 2 * elemnum,
        _ => shellnum.max(4 * largest_layer(m, f)),
    }
}

/// The number of elements in the most populous layer of flex `f` (layers counted up from 0
/// until one is empty).
fn largest_layer(m: &Model, f: usize) -> i32 {
    let adr = m.flex_elemadr[f] as usize;
    let layers = &m.flex_elemlayer[adr..adr + m.flex_elemnum[f] as usize];
    let mut largest = 0;
    for layer in 0.. {
        let n = layers.iter().filter(|&&l| l == layer).count() as i32;
        largest = largest.max(n);
        if n == 0 {
            return largest;
        }
    }
    largest
}

/// Recomputes the flex arrays the renderer reads (`mjv_updateActiveFlex`): the options, the
/// vertices as floats, and each flex's faces, normals and texture coordinates.
pub(super) fn update_flexes(m: &Model, d: &Data, opt: &VisOption, scn: &mut Scene) {
    scn.flexvertopt = opt.flags[flag::FLEXVERT];
    scn.flexedgeopt = opt.flags[flag::FLEXEDGE];
    scn.flexfaceopt = opt.flags[flag::FLEXFACE];
    scn.flexskinopt = opt.flags[flag::FLEXSKIN];
    for (dst, &src) in scn.flexvert.iter_mut().zip(d.flexvert_xpos.iter()) {
        *dst = src as f32;
    }
    for f in 0..m.nflex {
        let mut out = FaceWriter::new(m, scn, f);
        if m.flex_dim[f] == 1 || (opt.flags[flag::FLEXFACE] == 0 && opt.flags[flag::FLEXSKIN] == 0)
        {
            // a line flex has no faces, and neither does a flex shown as points and edges
        } else if opt.flags[flag::FLEXSKIN] == 0 {
            element_faces(m, d, f, opt.flex_layer, &mut out);
        } else {
            skin_faces(m, d, f, &mut out);
        }
        let nface = out.nface as i32;
        scn.flexfaceused[f] = nface;
    }
}

/// Where one flex's faces go: its slices of the scene's face, normal and texture arrays, and
/// its texture coordinates in the model (if it has any).
struct FaceWriter<'a> {
    face: &'a mut [f32],
    normal: &'a mut [f32],
    texcoord: Option<(&'a mut [f32], &'a [f32])>,
    nface: usize,
}

impl<'a> FaceWriter<'a> {
    fn new(m: &'a Model, scn: &'a mut Scene, f: usize) -> Self {
        let (adr, num) = (scn.flexfaceadr[f] as usize, scn.flexfacenum[f] as usize);
        let texcoord = usize::try_from(m.flex_texcoordadr[f]).ok().map(|t| {
            (
                &mut scn.flextexcoord[6 * adr..6 * (adr + num)],
                &m.flex_texcoord[2 * t..],
            )
        });
        FaceWriter {
            face: &mut scn.flexface[9 * adr..9 * (adr + num)],
            normal: &mut scn.flexnormal[9 * adr..9 * (adr + num)],
            texcoord,
            nface: 0,
        }
    }

    /// Appends a triangle of three positions, each with its normal, and the texture
    /// coordinates of vertices `tex` (`copyTex`).
    fn push(&mut self, pos: [[Real; 3]; 3], normal: [[Real; 3]; 3], tex: [usize; 3]) {
        let n = self.nface;
        for k in 0..3 {
            for c in 0..3 {
                self.face[9 * n + 3 * k + c] = pos[k][c] as f32;
                self.normal[9 * n + 3 * k + c] = normal[k][c] as f32;
            }
        }
        if let Some((dst, src)) = self.texcoord.as_mut() {
            for k in 0..3 {
                dst[6 * n + 2 * k] = src[2 * tex[k]];
                dst[6 * n + 2 * k + 1] = src[2 * tex[k] + 1];
            }
        }
        self.nface += 1;
    }
}

/// Vertex `i` of a flex whose first vertex's position starts `xpos`.
fn vertex(xpos: &[Real], i: usize) -> [Real; 3] {
    to3(&xpos[3 * i..])
}

/// The unit normal of triangle `v` (`[1, 0, 0]` when degenerate).
fn triangle_normal(xpos: &[Real], v: [usize; 3]) -> [Real; 3] {
    let v0 = vertex(xpos, v[0]);
    let mut nrm = cross(
        &sub3(&vertex(xpos, v[1]), &v0),
        &sub3(&vertex(xpos, v[2]), &v0),
    );
    normalize3(&mut nrm);
    nrm
}

/// The vertex indices (within the flex) of element `e` of flex `f`, `dim + 1` of them.
fn element<'m>(m: &'m Model, f: usize, e: usize) -> &'m [i32] {
    let dim = m.flex_dim[f] as usize;
    let adr = m.flex_elemdataadr[f] as usize + e * (dim + 1);
    &m.flex_elem[adr..adr + dim + 1]
}

/// The vertex indices of shell fragment `s` of flex `f`, `dim` of them.
fn shell<'m>(m: &'m Model, f: usize, s: usize) -> &'m [i32] {
    let dim = m.flex_dim[f] as usize;
    let adr = m.flex_shelldataadr[f] as usize + s * dim;
    &m.flex_shell[adr..adr + dim]
}

/// The flex's first vertex position onward.
fn flex_xpos<'d>(m: &Model, d: &'d Data, f: usize) -> &'d [Real] {
    &d.flexvert_xpos[3 * m.flex_vertadr[f] as usize..]
}

/// Faces from the elements, each triangle offset by the radius along its own normal
/// (`makeFace`): both sides of a triangle, the four sides of each tetrahedron in the option's
/// layer.
fn element_faces(m: &Model, d: &Data, f: usize, layer: i32, out: &mut FaceWriter) {
    let xpos = flex_xpos(m, d, f);
    let radius = m.flex_radius[f];
    let dim = m.flex_dim[f];
    let mut face = |v: [usize; 3]| {
        let nrm = triangle_normal(xpos, v);
        let pos = v.map(|i| add_scl3(&vertex(xpos, i), &nrm, radius));
        out.push(pos, [nrm; 3], v);
    };
    for e in 0..m.flex_elemnum[f] as usize {
        let elemlayer = m.flex_elemlayer[m.flex_elemadr[f] as usize + e];
        if dim != 2 && elemlayer != layer {
            continue;
        }
        let el = element(m, f, e);
        let v: [usize; 4] = core::array::from_fn(|k| el.get(k).map_or(0, |&i| i as usize));
        if dim == 2 {
            face([v[0], v[1], v[2]]);
            face([v[0], v[2], v[1]]);
        } else {
            face([v[0], v[1], v[2]]);
            face([v[0], v[2], v[3]]);
            face([v[0], v[3], v[1]]);
            face([v[1], v[3], v[2]]);
        }
    }
}

/// A smooth skin: vertex normals summed from the unit normals of the 2D elements (or the 3D
/// shell), normalized; top and bottom triangles (2D) or the shell (3D) offset by the radius
/// along them (`makeSmooth`); then the side walls of a 2D flex along its boundary
/// (`makeSide`).
fn skin_faces(m: &Model, d: &Data, f: usize, out: &mut FaceWriter) {
    let xpos = flex_xpos(m, d, f);
    let radius = m.flex_radius[f];
    let flat = m.flex_flatskin[f] != 0;
    let dim = m.flex_dim[f];
    let triangles: Vec<[usize; 3]> = if dim == 2 {
        (0..m.flex_elemnum[f] as usize)
            .map(|e| triple(element(m, f, e)))
            .collect()
    } else {
        (0..m.flex_shellnum[f] as usize)
            .map(|s| triple(shell(m, f, s)))
            .collect()
    };
    let mut vertnorm = vec![[0.0; 3]; m.flex_vertnum[f] as usize];
    for &v in &triangles {
        let nrm = triangle_normal(xpos, v);
        for i in v {
            add_to3(&mut vertnorm[i], &nrm);
        }
    }
    for n in &mut vertnorm {
        normalize3(n);
    }
    for &[a, b, c] in &triangles {
        smooth_face(out, xpos, &vertnorm, radius, flat, [a, b, c]);
        if dim == 2 {
            smooth_face(out, xpos, &vertnorm, -radius, flat, [a, c, b]);
        }
    }
    if dim == 2 {
        for s in 0..m.flex_shellnum[f] as usize {
            let sh = shell(m, f, s);
            let (a, b) = (sh[0] as usize, sh[1] as usize);
            side_face(out, xpos, &vertnorm, radius, a, b);
            side_face(out, xpos, &vertnorm, -radius, b, a);
        }
    }
}

/// The first three indices of an element or shell fragment.
fn triple(v: &[i32]) -> [usize; 3] {
    [v[0] as usize, v[1] as usize, v[2] as usize]
}

/// A skin triangle offset by `radius` along the smoothed vertex normals; its normals are the
/// smoothed ones or, for a flat skin, the triangle's own, pointing away from the offset side.
fn smooth_face(
    out: &mut FaceWriter,
    xpos: &[Real],
    vertnorm: &[[Real; 3]],
    radius: Real,
    flat: bool,
    v: [usize; 3],
) {
    let sign: Real = if radius > 0.0 { 1.0 } else { -1.0 };
    let normal = if flat {
        let nrm = triangle_normal(xpos, v);
        [nrm; 3]
    } else {
        v.map(|i| vertnorm[i])
    };
    let normal = normal.map(|n| n.map(|x| sign * x));
    let pos = v.map(|i| {
        let p = vertex(xpos, i);
        core::array::from_fn(|c| p[c] + radius * vertnorm[i][c])
    });
    out.push(pos, normal, v);
}

/// A side wall triangle of a 2D skin along boundary edge `a`-`b`: from `a` on one side to `b`
/// on the other and back, facing outward.
fn side_face(
    out: &mut FaceWriter,
    xpos: &[Real],
    vertnorm: &[[Real; 3]],
    radius: Real,
    a: usize,
    b: usize,
) {
    let mut nrm = cross(&sub3(&vertex(xpos, b), &vertex(xpos, a)), &vertnorm[b]);
    if radius < 0.0 {
        nrm = nrm.map(|x| -x);
    }
    normalize3(&mut nrm);
    let ind = [a, b, b];
    let pos = core::array::from_fn(|k| {
        let sign: Real = if k == 1 { -1.0 } else { 1.0 };
        let p = vertex(xpos, ind[k]);
        core::array::from_fn(|c| p[c] + sign * radius * vertnorm[ind[k]][c])
    });
    out.push(pos, [nrm; 3], ind);
}
