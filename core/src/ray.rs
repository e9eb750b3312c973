//! Ray casting (MuJoCo's `engine_ray.c`; "API Reference › Ray casting"): the distance along a
//! ray `pnt + x * vec, x >= 0` to the nearest geom surface.
//!
//! * [`ray`] (`mj_ray`) tests every geom that the filters keep; [`multi_ray`] (`mj_multiRay`)
//!   casts many rays from one point, culling geoms by bounding spheres, bounding angles and a
//!   cutoff distance first.
//! * [`ray_geom`] (`mju_rayGeom`) tests one primitive shape given by pose and size,
//!   [`ray_mesh`] (`mj_rayMesh`) one mesh geom through its bounding-volume tree, [`ray_hfield`]
//!   (`mj_rayHfield`) one height-field geom.
//!
//! Distances are in units of `vec`'s length (not normalized), and -1 means no intersection, as
//! in MuJoCo. Rays starting inside a shape hit its surface from inside, except planes, which
//! are hit only on their front face, and meshes and height fields, hit on any triangle.
//!
//! Where MuJoCo stops the program (`mjERROR`: a direction shorter than `MINVAL`, a geom of the
//! wrong type, a bounding-volume tree deeper than `MAXTREEDEPTH`), these functions return a
//! [`RayError`]; a geom id out of range is an error as well. NaN in the input never panics:
//! like MuJoCo, every comparison with NaN fails and the ray reports no hit.

use crate::data::Data;
pub use crate::error::RayError;
use crate::math::mat::{rot_vec_mat, rot_vec_mat_t};
use crate::math::misc::{max, min, mj_max, mj_min, round};
use crate::math::quat::quat2mat;
use crate::math::scalar::{abs, atan2, ceil, floor, sqrt};
use crate::math::vec::{add3, add_scl3, cross, dist3, dot3, norm3, normalize3, sub3};
use crate::model::Model;
use crate::real::{Real, MAXVAL, MINVAL, PI};
use crate::support::{v3, v4m, v6, v9};
use crate::types::{
    GEOM_BOX, GEOM_CAPSULE, GEOM_CYLINDER, GEOM_ELLIPSOID, GEOM_HFIELD, GEOM_MESH, GEOM_PLANE,
    GEOM_SDF, GEOM_SPHERE, MAXTREEDEPTH, NGROUP,
};

// ------------------------------------------------------------------------------------------------
// entry points

/// The nearest geom hit by the ray `pnt + x * vec, x >= 0` (`mj_ray`): its distance `x` (-1 when
/// nothing is hit) and geom id (-1 when nothing is hit).
///
/// Geoms are skipped when they belong to body `bodyexclude` (-1 excludes none), are invisible
/// (alpha 0 in `geom_rgba`, or in `mat_rgba` when the geom has a material), are static (welded to
/// the world) while `flg_static` is false, or, with `geomgroup`, when their group's entry is 0
/// (groups outside 0..5 count as the nearest of them).
///
/// Reads `geom_xpos`, `geom_xmat` (from `kinematics`); marks the visited nodes of mesh trees in
/// `bvh_active` when `vis.global.bvactive` is set, as MuJoCo does.
pub fn ray(
    m: &Model,
    d: &mut Data,
    pnt: &[Real; 3],
    vec: &[Real; 3],
    geomgroup: Option<&[u8; NGROUP]>,
    flg_static: bool,
    bodyexclude: i32,
) -> Result<(Real, i32), RayError> {
    if norm3(vec) < MINVAL {
        return Err(RayError::ShortVector);
    }
    let (poses, mut active) = split(m, d);
    let filter = Filter::new(m, geomgroup, flg_static, bodyexclude);
    let mut nearest = (-1.0, -1);
    for g in 0..m.ngeom {
        if filter.eliminated(g) {
            continue;
        }
        let x = cast_geom(m, &poses, active.as_deref_mut(), g, pnt, vec)?;
        if x >= 0.0 && (x < nearest.0 || nearest.0 < 0.0) {
            nearest = (x, g as i32);
        }
    }
    Ok(nearest)
}

/// Many rays from one point (`mj_multiRay`): ray `i` has direction `vec[3i..3i+3]`; its distance
/// goes to `dist[i]` and its geom to `geomid[i]` (-1 both when nothing is hit). The filters are
/// those of [`ray`]; in addition, geoms of bodies with a bounding-volume tree are skipped when
/// their bounding sphere lies beyond `cutoff` from `pnt`, when the ray misses their body's
/// bounding sphere, or when the ray's direction is outside the geom box's spherical angles.
///
/// Scratch arrays (bounding angles and filter flags, `5 ngeom` numbers) come from the arena
/// stack. A direction shorter than `MINVAL` stops the loop with [`RayError::ShortVector`]; the
/// rays before it are written.
pub fn multi_ray(
    m: &Model,
    d: &mut Data,
    pnt: &[Real; 3],
    vec: &[Real],
    geomgroup: Option<&[u8; NGROUP]>,
    flg_static: bool,
    bodyexclude: i32,
    geomid: &mut [i32],
    dist: &mut [Real],
    cutoff: Real,
) -> Result<(), RayError> {
    let nray = dist.len();
    if geomid.len() != nray || vec.len() != 3 * nray {
        return Err(RayError::LengthMismatch);
    }
    d.with_stack(|d, stack| {
        let bounds = v4m(stack.alloc::<Real>(4 * m.ngeom)?);
        let skip = stack.alloc::<i32>(m.ngeom)?;
        let (poses, mut active) = split(m, d);
        let mut culling = Culling { bounds, skip };
        prepare_culling(
            m,
            &poses,
            pnt,
            geomgroup,
            flg_static,
            bodyexclude,
            cutoff,
            &mut culling,
        );
        for (i, (dist, geomid)) in dist.iter_mut().zip(geomid.iter_mut()).enumerate() {
            let dir = [vec[3 * i], vec[3 * i + 1], vec[3 * i + 2]];
            (*dist, *geomid) = single_ray(m, &poses, active.as_deref_mut(), pnt, &dir, &culling)?;
        }
        Ok(())
    })
}

/// The ray against mesh geom `id` (`mj_rayMesh`): its bounding box, then the triangles of its
/// bounding-volume tree; -1 when it misses. Marks visited tree nodes in `bvh_active` when
/// `vis.global.bvactive` is set. The geom's filters (group, alpha) are not applied.
pub fn ray_mesh(
    m: &Model,
    d: &mut Data,
    id: usize,
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Result<Real, RayError> {
    check_geom(m, id, GEOM_MESH)?;
    let (poses, active) = split(m, d);
    mesh(m, &poses, active, id, pnt, vec)
}

/// The ray against height-field geom `id` (`mj_rayHfield`): its base box, then the triangles
/// under the part of the ray inside its top box, then the top box's sides; -1 when it misses.
pub fn ray_hfield(
    m: &Model,
    d: &Data,
    id: usize,
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Result<Real, RayError> {
    check_geom(m, id, GEOM_HFIELD)?;
    Ok(hfield(m, &Poses::of(m, d), id, pnt, vec))
}

/// The ray against a triangle soup such as a skin's current mesh (`mju_raySkin`): `face` holds
/// 3 vertex indices per triangle, `vert` 3 coordinates per vertex (single precision, as skins
/// store them), all in the ray's frame. Returns the distance to the nearest triangle hit and the
/// vertex of that triangle nearest to the hit point, or `(-1, None)` when no triangle is hit
/// (first a test against the vertices' bounding box).
pub fn ray_skin(
    face: &[i32],
    vert: &[f32],
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Result<(Real, Option<usize>), RayError> {
    let nvert = vert.len() / 3;
    let face = &face[..face.len() / 3 * 3];
    let outside = |&v: &i32| usize::try_from(v).map_or(true, |v| v >= nvert);
    if let Some(at) = face.iter().position(outside) {
        return Err(RayError::FaceOutOfRange {
            face: at / 3,
            vertex: face[at],
            nvert,
        });
    }
    let corner = |v: usize| -> [Real; 3] { core::array::from_fn(|k| Real::from(vert[3 * v + k])) };
    if nvert == 0 || bounds_cuboid(nvert, corner, 0.0, pnt, vec) < 0.0 {
        return Ok((-1.0, None));
    }
    let (b0, b1) = normal_basis(vec);
    let mut nearest = (-1.0, None);
    for tri in face.chunks_exact(3) {
        let ids = [tri[0] as usize, tri[1] as usize, tri[2] as usize];
        let v = ids.map(corner);
        let sol = triangle(&v, pnt, vec, &b0, &b1);
        if sol >= 0.0 && (nearest.0 < 0.0 || sol < nearest.0) {
            let hit = add_scl3(pnt, vec, sol);
            let mut best = (dist3(&hit, &v[0]), ids[0]);
            for k in 1..3 {
                let dist = dist3(&hit, &v[k]);
                if dist < best.0 {
                    best = (dist, ids[k]);
                }
            }
            nearest = (sol, Some(best.1));
        }
    }
    Ok(nearest)
}

/// Which parts of a flex a ray can hit: those the visualization options show (`mjvOption`'s
/// flex flags and layer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlexParts {
    /// Vertex spheres (`mjVIS_FLEXVERT`).
    pub vert: bool,
    /// Edge capsules (`mjVIS_FLEXEDGE`).
    pub edge: bool,
    /// Element faces (`mjVIS_FLEXFACE`).
    pub face: bool,
    /// The skin (`mjVIS_FLEXSKIN`).
    pub skin: bool,
    /// The layer of a 3D flex whose faces are shown without a skin.
    pub layer: i32,
}

/// The ray against flex `flexid` as drawn (`mju_rayFlex`), after a test against its vertices'
/// bounding box grown by the radius: its edges as capsules of the flex radius (when edges or a
/// skin of a 2D or 3D flex are shown), else its vertices as spheres (when shown), and the
/// triangles of its elements (when faces or a skin are shown; a 3D flex's outer layer for a
/// skin, the chosen layer otherwise). Returns the distance to the nearest hit and the vertex
/// (within the flex) nearest to it, or `(-1, None)`.
///
/// Reads `flexvert_xpos` (from `flex`).
pub fn ray_flex(
    m: &Model,
    d: &Data,
    parts: FlexParts,
    flexid: usize,
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Result<(Real, Option<usize>), RayError> {
    if flexid >= m.nflex {
        return Err(RayError::FlexOutOfRange {
            id: flexid,
            nflex: m.nflex,
        });
    }
    let dim = m.flex_dim[flexid];
    let radius = m.flex_radius[flexid];
    let xpos = &d.flexvert_xpos[3 * m.flex_vertadr[flexid] as usize..];
    let vert = |v: usize| -> [Real; 3] { core::array::from_fn(|k| xpos[3 * v + k]) };
    let nvert = m.flex_vertnum[flexid] as usize;
    if bounds_cuboid(nvert, vert, radius, pnt, vec) < 0.0 {
        return Ok((-1.0, None));
    }
    let (b0, b1) = normal_basis(vec);
    let mut nearest: (Real, Option<usize>) = (-1.0, None);
    let mut closer = |sol: Real, v: usize| {
        if sol >= 0.0 && (nearest.0 < 0.0 || sol < nearest.0) {
            nearest = (sol, Some(v));
        }
    };
    let skin = dim > 1 && parts.skin;
    if parts.edge || skin {
        let adr = m.flex_edgeadr[flexid] as usize;
        for e in adr..adr + m.flex_edgenum[flexid] as usize {
            let ends = [m.flex_edge[2 * e] as usize, m.flex_edge[2 * e + 1] as usize];
            let (v1, v2) = (vert(ends[0]), vert(ends[1]));
            let pos = add3(&v1, &v2).map(|x| 0.5 * x);
            let mut dif = sub3(&v2, &v1);
            let size = [radius, 0.5 * normalize3(&mut dif), 0.0];
            let mat = quat2mat(&crate::math::quat::quat_z2vec(&dif));
            let sol = capsule(&pos, &mat, &size, pnt, vec);
            let hit = add_scl3(pnt, vec, sol);
            let near = if dist3(&v1, &hit) < dist3(&v2, &hit) {
                ends[0]
            } else {
                ends[1]
            };
            closer(sol, near);
        }
    } else if parts.vert {
        for v in 0..nvert {
            closer(sphere(&vert(v), radius * radius, pnt, vec), v);
        }
    }
    if dim > 1 && (parts.face || parts.skin) {
        let dim = dim as usize;
        for e in 0..m.flex_elemnum[flexid] as usize {
            let layer = m.flex_elemlayer[m.flex_elemadr[flexid] as usize + e];
            let hidden = if parts.skin {
                layer > 0
            } else {
                layer != parts.layer
            };
            if dim == 3 && hidden {
                continue;
            }
            let adr = m.flex_elemdataadr[flexid] as usize + e * (dim + 1);
            let elem = &m.flex_elem[adr..adr + dim + 1];
            let sides: &[[usize; 3]] = if dim == 2 {
                &[[0, 1, 2]]
            } else {
                &[[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]
            };
            for side in sides {
                let ids = side.map(|k| elem[k] as usize);
                let v = ids.map(vert);
                let sol = triangle(&v, pnt, vec, &b0, &b1);
                let hit = add_scl3(pnt, vec, sol);
                let dist = v.map(|p| dist3(&p, &hit));
                let near = if dist[0] <= dist[1] && dist[0] <= dist[2] {
                    ids[0]
                } else if dist[1] <= dist[2] {
                    ids[1]
                } else {
                    ids[2]
                };
                closer(sol, near);
            }
        }
    }
    Ok(nearest)
}

/// The ray against the axis-aligned bounding box of `nvert` vertices, grown by `margin` on
/// every side (the filter of [`ray_skin`] and [`ray_flex`]).
fn bounds_cuboid(
    nvert: usize,
    vert: impl Fn(usize) -> [Real; 3],
    margin: Real,
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Real {
    let mut lo = [0.0; 3];
    let mut hi = [0.0; 3];
    for i in 0..nvert {
        let p = vert(i);
        for j in 0..3 {
            let x = p[j];
            if lo[j] > x || i == 0 {
                lo[j] = x;
            }
            if hi[j] < x || i == 0 {
                hi[j] = x;
            }
        }
    }
    for j in 0..3 {
        lo[j] -= margin;
        hi[j] += margin;
    }
    let pos = core::array::from_fn(|j| 0.5 * (lo[j] + hi[j]));
    let size = core::array::from_fn(|j| 0.5 * (hi[j] - lo[j]));
    let eye = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    cuboid(&pos, &eye, &size, pnt, vec)
}

/// The ray against a primitive shape of `geomtype` (plane, sphere, capsule, ellipsoid, cylinder
/// or box) with pose `pos`/`mat` and `size` (`mju_rayGeom`); -1 when it misses. A plane is hit
/// only on its front face, within its size (an infinite side when a size is not positive).
pub fn ray_geom(
    pos: &[Real; 3],
    mat: &[Real; 9],
    size: &[Real; 3],
    pnt: &[Real; 3],
    vec: &[Real; 3],
    geomtype: i32,
) -> Result<Real, RayError> {
    primitive(pos, mat, size, pnt, vec, geomtype).ok_or(RayError::UnsupportedGeomType(geomtype))
}

/// [`ray_geom`], `None` for a type that is not a primitive shape (a plain return value: the
/// per-geom loops call it for most geoms). Always inlined: its dispatch then merges with
/// [`cast_geom`]'s, and the sphere test needs no call.
#[inline(always)]
fn primitive(
    pos: &[Real; 3],
    mat: &[Real; 9],
    size: &[Real; 3],
    pnt: &[Real; 3],
    vec: &[Real; 3],
    geomtype: i32,
) -> Option<Real> {
    Some(match geomtype {
        GEOM_PLANE => plane(pos, mat, size, pnt, vec),
        GEOM_SPHERE => sphere(pos, size[0] * size[0], pnt, vec),
        GEOM_CAPSULE => capsule(pos, mat, size, pnt, vec),
        GEOM_ELLIPSOID => ellipsoid(pos, mat, size, pnt, vec),
        GEOM_CYLINDER => cylinder(pos, mat, size, pnt, vec),
        GEOM_BOX => cuboid(pos, mat, size, pnt, vec),
        _ => return None,
    })
}

// ------------------------------------------------------------------------------------------------
// geoms of a model

/// What ray tests read per geom, every row cut to `ngeom` (so that the per-geom loops index
/// them without bounds checks): the types and sizes from the model, the poses from `Data`;
/// and body centers of mass and the plugin objects (for SDF geoms).
struct Poses<'a> {
    geom_type: &'a [i32],
    geom_size: &'a [[Real; 3]],
    geom_xpos: &'a [[Real; 3]],
    geom_xmat: &'a [[Real; 9]],
    xipos: &'a [[Real; 3]],
    plugin_data: &'a [u64],
    plugin_objects: &'a [u8],
}

impl<'a> Poses<'a> {
    fn of(m: &'a Model, d: &'a Data) -> Self {
        Self::new(
            m,
            d.geom_xpos,
            d.geom_xmat,
            d.xipos,
            d.plugin_data,
            d.plugin_objects(),
        )
    }

    /// From `Data`'s arrays (which [`split`] borrows apart from `bvh_active`).
    #[inline(always)]
    fn new(
        m: &'a Model,
        geom_xpos: &'a [Real],
        geom_xmat: &'a [Real],
        xipos: &'a [Real],
        plugin_data: &'a [u64],
        plugin_objects: &'a [u8],
    ) -> Self {
        let n = m.ngeom;
        Poses {
            geom_type: &m.geom_type[..n],
            geom_size: &v3(&m.geom_size)[..n],
            geom_xpos: &v3(geom_xpos)[..n],
            geom_xmat: &v9(geom_xmat)[..n],
            xipos: v3(xipos),
            plugin_data,
            plugin_objects,
        }
    }
}

/// The poses, and `bvh_active` when the model asks for visited tree nodes to be marked.
/// Always inlined: the per-geom loops then see that the rows' lengths are `ngeom`.
#[inline(always)]
fn split<'d>(m: &'d Model, d: &'d mut Data) -> (Poses<'d>, Option<&'d mut [u8]>) {
    let Data {
        geom_xpos,
        geom_xmat,
        xipos,
        bvh_active,
        plugin_data,
        arena,
        ..
    } = d;
    let poses = Poses::new(m, geom_xpos, geom_xmat, xipos, plugin_data, arena.objects());
    let active = (m.vis.global.bvactive != 0).then_some(&mut **bvh_active);
    (poses, active)
}

fn check_geom(m: &Model, id: usize, expected: i32) -> Result<(), RayError> {
    if id >= m.ngeom {
        return Err(RayError::GeomOutOfRange { id, ngeom: m.ngeom });
    }
    if m.geom_type[id] != expected {
        return Err(RayError::WrongGeomType { id, expected });
    }
    Ok(())
}

/// The filters of [`ray`] (`ray_eliminate`), with the per-geom rows they read cut to `ngeom`
/// once per call, so that the loops over the geoms index them without bounds checks.
struct Filter<'a> {
    body_weldid: &'a [i32],
    mat_rgba: &'a [[f32; 4]],
    bodyid: &'a [i32],
    matid: &'a [i32],
    rgba: &'a [[f32; 4]],
    group: &'a [i32],
    geomgroup: Option<&'a [u8; NGROUP]>,
    flg_static: bool,
    bodyexclude: i32,
}

impl<'a> Filter<'a> {
    /// Always inlined, as [`split`].
    #[inline(always)]
    fn new(
        m: &'a Model,
        geomgroup: Option<&'a [u8; NGROUP]>,
        flg_static: bool,
        bodyexclude: i32,
    ) -> Self {
        let n = m.ngeom;
        Self {
            body_weldid: &m.body_weldid,
            mat_rgba: m.mat_rgba.as_chunks::<4>().0,
            bodyid: &m.geom_bodyid[..n],
            matid: &m.geom_matid[..n],
            rgba: &m.geom_rgba.as_chunks::<4>().0[..n],
            group: &m.geom_group[..n],
            geomgroup,
            flg_static,
            bodyexclude,
        }
    }

    /// Whether geom `g` is skipped. Always inlined into the per-geom loops, where the call cost
    /// as much as the filter (callgrind, bench quadruped).
    #[inline(always)]
    fn eliminated(&self, g: usize) -> bool {
        let body = self.bodyid[g];
        if body == self.bodyexclude {
            return true;
        }
        let invisible = match usize::try_from(self.matid[g]) {
            Err(_) => self.rgba[g][3] == 0.0,
            Ok(mat) => self.mat_rgba[mat][3] == 0.0,
        };
        if invisible || (!self.flg_static && self.body_weldid[body as usize] == 0) {
            return true;
        }
        self.geomgroup.is_some_and(|groups| {
            let group = self.group[g].clamp(0, NGROUP as i32 - 1) as usize;
            groups[group] == 0
        })
    }
}

/// The ray against geom `g` of any type. Always inlined into the per-geom loops, where its
/// call cost a third of a primitive's test (callgrind, bench quadruped).
#[inline(always)]
fn cast_geom(
    m: &Model,
    poses: &Poses,
    active: Option<&mut [u8]>,
    g: usize,
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Result<Real, RayError> {
    match poses.geom_type[g] {
        GEOM_MESH => mesh(m, poses, active, g, pnt, vec),
        GEOM_HFIELD => Ok(hfield(m, poses, g, pnt, vec)),
        GEOM_SDF => sdf(m, poses, g, pnt, vec),
        ty => primitive(
            &poses.geom_xpos[g],
            &poses.geom_xmat[g],
            &poses.geom_size[g],
            pnt,
            vec,
            ty,
        )
        .ok_or(RayError::UnsupportedGeomType(ty)),
    }
}

/// Ray marching against SDF geom `g` (`ray_sdf`): up to 40 steps along the unit direction in the
/// field's frame, each as long as the distance there, until the distance is below 1e-7 (a hit,
/// at the distance travelled, in units of the unit direction as MuJoCo) or above 1e6 (a miss);
/// -1 when the geom's box is missed or no step lands on the surface.
fn sdf(
    m: &Model,
    poses: &Poses,
    g: usize,
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Result<Real, RayError> {
    const MIN_DIST: Real = 1e-7;
    let (xpos, xmat) = (&poses.geom_xpos[g], &poses.geom_xmat[g]);
    if cuboid(xpos, xmat, &poses.geom_size[g], pnt, vec) < 0.0 {
        return Ok(-1.0);
    }
    let instance = usize::try_from(m.geom_plugin[g]).map_err(|_| RayError::Sdf)?;
    let plugin = crate::plugin::instance_plugin(m, instance)
        .filter(|p| p.capabilities() & crate::plugin::PLUGIN_SDF != 0)
        .ok_or(RayError::Sdf)?;
    let attributes = crate::plugin::sdf_attributes(m, instance).map_err(|_| RayError::Sdf)?;
    let object =
        crate::plugin::instance_object_ref(poses.plugin_data, poses.plugin_objects, instance);
    let (sdf_xpos, sdf_quat) = crate::collision::sdf::field_frame(m, xpos, xmat, g);
    let (lpnt, mut lvec) = ray_map(&sdf_xpos, &quat2mat(&sdf_quat), pnt, vec);
    normalize3(&mut lvec);
    let mut total = 0.0;
    for _ in 0..40 {
        let p = add_scl3(&lpnt, &lvec, total);
        let distance = plugin.sdf_distance(&p, &attributes, object);
        total += distance;
        if abs(distance) < MIN_DIST {
            return Ok(total);
        }
        if distance > 1e6 {
            break;
        }
    }
    Ok(-1.0)
}

// ------------------------------------------------------------------------------------------------
// many rays from one point

/// Per-geom culling data of [`multi_ray`]: the spherical angles of the geom's bounding box seen
/// from the ray origin (azimuth min, elevation min, azimuth max, elevation max), and whether the
/// geom is skipped.
struct Culling<'s> {
    bounds: &'s mut [[Real; 4]],
    skip: &'s mut [i32],
}

/// Azimuth of a direction (`longitude`).
fn longitude(v: &[Real; 3]) -> Real {
    atan2(v[1], v[0])
}

/// Angle from the z axis of a direction (`latitude`).
fn latitude(v: &[Real; 3]) -> Real {
    atan2(sqrt(v[0] * v[0] + v[1] * v[1]), v[2])
}

/// Fills the culling data (`mju_multiRayPrepare`): the filters of [`ray`]; then, for geoms of
/// bodies with a tree, the cutoff test and the bounding angles (the whole sphere when the
/// origin is inside the geom's box, or when the box's azimuths span more than π).
fn prepare_culling(
    m: &Model,
    poses: &Poses,
    pnt: &[Real; 3],
    geomgroup: Option<&[u8; NGROUP]>,
    flg_static: bool,
    bodyexclude: i32,
    cutoff: Real,
    culling: &mut Culling,
) {
    const WHOLE_SPHERE: [Real; 4] = [-PI, 0.0, PI, PI];
    let filter = Filter::new(m, geomgroup, flg_static, bodyexclude);
    for g in 0..m.ngeom {
        culling.skip[g] = i32::from(filter.eliminated(g));
    }
    for b in (0..m.nbody).filter(|&b| m.body_bvhadr[b] != -1) {
        for g in body_geoms(m, b) {
            if culling.skip[g] != 0 {
                continue;
            }
            let (xpos, xmat) = (&poses.geom_xpos[g], &poses.geom_xmat[g]);
            if dist3(xpos, pnt) > cutoff + m.geom_rbound[g] {
                culling.skip[g] = 1;
                continue;
            }
            let aabb = &v6(&m.geom_aabb)[g];
            if point_in_box(aabb, xpos, xmat, pnt) {
                culling.bounds[g] = WHOLE_SPHERE;
                continue;
            }
            let mut angles: [Real; 4] = [MAXVAL, MAXVAL, -MAXVAL, -MAXVAL];
            for v in 0..8 {
                let corner: [Real; 3] = core::array::from_fn(|k| {
                    if v & (1 << k) != 0 {
                        aabb[k] + aabb[k + 3]
                    } else {
                        aabb[k] - aabb[k + 3]
                    }
                });
                let world = add3(&rot_vec_mat(&corner, xmat), xpos);
                let dir = sub3(&world, pnt);
                let (azimuth, elevation) = (longitude(&dir), latitude(&dir));
                angles = [
                    min(angles[0], azimuth),
                    min(angles[1], elevation),
                    max(angles[2], azimuth),
                    max(angles[3], elevation),
                ];
            }
            // elevations lie in [0, π], so only the azimuth can wrap around
            culling.bounds[g] = if angles[2] - angles[0] > PI {
                WHOLE_SPHERE
            } else {
                angles
            };
        }
    }
}

/// Geoms of body `b`.
fn body_geoms(m: &Model, b: usize) -> core::ops::Range<usize> {
    let adr = m.body_geomadr[b].max(0) as usize;
    adr..adr + m.body_geomnum[b].max(0) as usize
}

/// Whether `pnt` is inside the box `aabb` (center and half sizes in the frame `xpos`/`xmat`)
/// (`point_in_box`).
fn point_in_box(aabb: &[Real; 6], xpos: &[Real; 3], xmat: &[Real; 9], pnt: &[Real; 3]) -> bool {
    let local = rot_vec_mat_t(&sub3(pnt, xpos), xmat);
    (0..3).all(|j| abs(local[j] - aabb[j]) <= aabb[3 + j])
}

/// One ray of [`multi_ray`] (`mju_singleRay`).
fn single_ray(
    m: &Model,
    poses: &Poses,
    mut active: Option<&mut [u8]>,
    pnt: &[Real; 3],
    vec: &[Real; 3],
    culling: &Culling,
) -> Result<(Real, i32), RayError> {
    if norm3(vec) < MINVAL {
        return Err(RayError::ShortVector);
    }
    let (azimuth, elevation) = (longitude(vec), latitude(vec));
    let mut nearest = (-1.0, -1);
    for b in 0..m.nbody {
        let has_tree = m.body_bvhadr[b] != -1;
        if has_tree {
            let aabb = &v6(&m.bvh_aabb)[m.body_bvhadr[b] as usize];
            let center = add3(&[aabb[0], aabb[1], aabb[2]], &poses.xipos[b]);
            let ssz = aabb[3] * aabb[3] + aabb[4] * aabb[4] + aabb[5] * aabb[5];
            if sphere(&center, ssz, pnt, vec) < 0.0 {
                continue;
            }
        }
        for g in body_geoms(m, b) {
            if culling.skip[g] != 0 {
                continue;
            }
            let ba = &culling.bounds[g];
            if has_tree
                && (azimuth < ba[0] || elevation < ba[1] || azimuth > ba[2] || elevation > ba[3])
            {
                continue;
            }
            let x = cast_geom(m, poses, active.as_deref_mut(), g, pnt, vec)?;
            if x >= 0.0 && (x < nearest.0 || nearest.0 < 0.0) {
                nearest = (x, g as i32);
            }
        }
    }
    Ok(nearest)
}

// ------------------------------------------------------------------------------------------------
// meshes and height fields

/// A basis `(b0, b1)` of the plane normal to `lvec`, for projecting triangles.
fn normal_basis(lvec: &[Real; 3]) -> ([Real; 3], [Real; 3]) {
    let mut b0 = [1.0; 3];
    let a = lvec.map(abs);
    if a[0] >= a[1] && a[0] >= a[2] {
        b0[0] = 0.0;
    } else if a[1] >= a[2] {
        b0[1] = 0.0;
    } else {
        b0[2] = 0.0;
    }
    let mut b1 = add_scl3(&b0, lvec, -dot3(lvec, &b0) / dot3(lvec, lvec));
    normalize3(&mut b1);
    let mut b0 = cross(&b1, lvec);
    normalize3(&mut b0);
    (b0, b1)
}

/// The ray (in the triangle's frame) against triangle `v` (`ray_triangle`): the triangle is
/// projected on the plane `b0`, `b1` normal to the ray, the ray's foot must be inside it, and
/// the distance is that to the triangle's plane; -1 when it misses. Always inlined: in a
/// mesh's leaf loop most triangles are rejected after a few products, and the call cost as
/// much as the test (callgrind, bench quadruped).
#[inline(always)]
fn triangle(
    v: &[[Real; 3]; 3],
    lpnt: &[Real; 3],
    lvec: &[Real; 3],
    b0: &[Real; 3],
    b1: &[Real; 3],
) -> Real {
    let planar = v.map(|vi| project(&vi, lpnt, b0, b1));
    projected_triangle(v, &planar, lpnt, lvec)
}

/// Vertex `v` relative to the ray's origin `lpnt`, on the plane `b0`, `b1` normal to the ray.
#[inline(always)]
fn project(v: &[Real; 3], lpnt: &[Real; 3], b0: &[Real; 3], b1: &[Real; 3]) -> [Real; 2] {
    let dif = sub3(v, lpnt);
    [dot3(b0, &dif), dot3(b1, &dif)]
}

/// [`triangle`] with its vertices already projected ([`project`]): a height field projects
/// each grid vertex once for the triangles that share it. Always inlined, as [`triangle`].
#[inline(always)]
fn projected_triangle(
    v: &[[Real; 3]; 3],
    planar: &[[Real; 2]; 3],
    lpnt: &[Real; 3],
    lvec: &[Real; 3],
) -> Real {
    let coordinate = |k: usize| [planar[0][k], planar[1][k], planar[2][k]];
    if beside(&coordinate(0), &coordinate(1)) {
        return -1.0;
    }
    through_triangle(v, planar, lpnt, lvec)
}

/// Whether the projected triangle, with first coordinates `u` and second coordinates `w`, lies
/// on one side of a coordinate axis of the plane normal to the ray (the ray misses it): the
/// first, cheap test of [`projected_triangle`].
#[inline(always)]
fn beside(u: &[Real; 3], w: &[Real; 3]) -> bool {
    // the comparisons combined without short-circuits: their outcomes vary from triangle to
    // triangle, and branching on each mispredicted (the quadruped's rangefinders); one branch
    // on the whole test remains, which mostly says "beside"
    let one_side = |q: &[Real; 3]| {
        ((q[0] > 0.0) & (q[1] > 0.0) & (q[2] > 0.0)) | ((q[0] < 0.0) & (q[1] < 0.0) & (q[2] < 0.0))
    };
    one_side(u) | one_side(w)
}

/// The rest of [`projected_triangle`] after [`beside`]: whether the ray's foot is inside the
/// projected triangle, and the distance to the triangle's plane; -1 when it misses.
#[inline(always)]
fn through_triangle(
    v: &[[Real; 3]; 3],
    planar: &[[Real; 2]; 3],
    lpnt: &[Real; 3],
    lvec: &[Real; 3],
) -> Real {
    // solve [p0 - p2, p1 - p2] t = -p2 for the barycentric coordinates of the ray's foot
    let a = [
        planar[0][0] - planar[2][0],
        planar[1][0] - planar[2][0],
        planar[0][1] - planar[2][1],
        planar[1][1] - planar[2][1],
    ];
    let rhs = [-planar[2][0], -planar[2][1]];
    let det = a[0] * a[3] - a[1] * a[2];
    if abs(det) < MINVAL {
        return -1.0;
    }
    let t0 = (a[3] * rhs[0] - a[1] * rhs[1]) / det;
    let t1 = (-a[2] * rhs[0] + a[0] * rhs[1]) / det;
    if (t0 < 0.0) | (t1 < 0.0) | (t0 + t1 > 1.0) {
        return -1.0;
    }
    let nrm = cross(&sub3(&v[0], &v[2]), &sub3(&v[1], &v[2]));
    let denom = dot3(lvec, &nrm);
    if abs(denom) < MINVAL {
        return -1.0;
    }
    -dot3(&sub3(lpnt, &v[2]), &nrm) / denom
}

/// Mesh geom `g`: its bounding box, then its tree (`mj_rayMesh`).
fn mesh(
    m: &Model,
    poses: &Poses,
    active: Option<&mut [u8]>,
    g: usize,
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Result<Real, RayError> {
    let (xpos, xmat) = (&poses.geom_xpos[g], &poses.geom_xmat[g]);
    if cuboid(xpos, xmat, &poses.geom_size[g], pnt, vec) < 0.0 {
        return Ok(-1.0);
    }
    tree(m, poses, active, g, pnt, vec)
}

/// Slab test of the ray against box `aabb` (center and half sizes) in the frame `xpos`/`xmat`
/// (`mju_raySlab`).
fn slab(
    aabb: &[Real; 6],
    xpos: &[Real; 3],
    xmat: &[Real; 9],
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> bool {
    let (src, dir) = ray_map(xpos, xmat, pnt, vec);
    let (mut tmin, mut tmax): (Real, Real) = (0.0, Real::INFINITY);
    for k in 0..3 {
        let inv = 1.0 / dir[k];
        let t1 = (aabb[k] - aabb[k + 3] - src[k]) * inv;
        let t2 = (aabb[k] + aabb[k + 3] - src[k]) * inv;
        let (lo, hi) = if t1 < t2 { (t1, t2) } else { (t2, t1) };
        tmin = if tmin > lo { tmin } else { lo };
        tmax = if tmax < hi { tmax } else { hi };
    }
    tmin < tmax
}

/// The triangles of mesh geom `g` met by the ray, through the mesh's bounding-volume tree
/// (`mju_rayTree`); visited nodes are marked in `active`.
fn tree(
    m: &Model,
    poses: &Poses,
    mut active: Option<&mut [u8]>,
    g: usize,
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Result<Real, RayError> {
    let Ok(meshid) = usize::try_from(m.geom_dataid[g]) else {
        return Err(RayError::WrongGeomType {
            id: g,
            expected: GEOM_MESH,
        });
    };
    let bvhadr = m.mesh_bvhadr[meshid] as usize;
    let (faceadr, vertadr) = (m.mesh_faceadr[meshid], m.mesh_vertadr[meshid]);
    let (xpos, xmat) = (&poses.geom_xpos[g], &poses.geom_xmat[g]);
    let (lpnt, lvec) = ray_map(xpos, xmat, pnt, vec);
    let (b0, b1) = normal_basis(&lvec);
    let mut mark = |node: usize| {
        if let Some(a) = active.as_deref_mut() {
            a[bvhadr + node] = 1;
        }
    };

    let mut stack = [0usize; MAXTREEDEPTH];
    let mut nstack = 1;
    let mut x = -1.0;
    while nstack > 0 {
        nstack -= 1;
        let node = stack[nstack];
        let n = bvhadr + node;
        if !slab(&v6(&m.bvh_aabb)[n], xpos, xmat, pnt, vec) {
            continue;
        }
        if m.bvh_nodeid[n] != -1 {
            let face = (m.bvh_nodeid[n] + faceadr) as usize;
            let v: [[Real; 3]; 3] = core::array::from_fn(|k| {
                let vert = (m.mesh_face[3 * face + k] + vertadr) as usize;
                core::array::from_fn(|j| Real::from(m.mesh_vert[3 * vert + j]))
            });
            let sol = triangle(&v, &lpnt, &lvec, &b0, &b1);
            if sol >= 0.0 && (x < 0.0 || sol < x) {
                x = sol;
                mark(node);
            }
            continue;
        }
        mark(node);
        for child in [m.bvh_child[2 * n], m.bvh_child[2 * n + 1]] {
            if child != -1 {
                if nstack >= MAXTREEDEPTH {
                    return Err(RayError::TreeTooDeep { geom: g });
                }
                stack[nstack] = child as usize;
                nstack += 1;
            }
        }
    }
    Ok(x)
}

/// Height-field geom `g` (`mj_rayHfield`). Its base box is solid; above it, the ray is tested
/// against the triangles of the grid cells under its segment inside the top box, padded by one
/// cell, and against the top box's four sides below the height profile of their edge.
///
/// MuJoCo 3.1.6 reads the profile of the sides normal to x at row stride `nrow` instead of
/// `ncol`; mjrs reads the same heights, so that results agree for every grid. Where that read
/// would fall past the model's height data, the side is not hit.
fn hfield(m: &Model, poses: &Poses, g: usize, pnt: &[Real; 3], vec: &[Real; 3]) -> Real {
    let Ok(hid) = usize::try_from(m.geom_dataid[g]) else {
        return -1.0;
    };
    let (nrow, ncol) = (m.hfield_nrow[hid], m.hfield_ncol[hid]);
    let size = [
        m.hfield_size[4 * hid],
        m.hfield_size[4 * hid + 1],
        m.hfield_size[4 * hid + 2],
        m.hfield_size[4 * hid + 3],
    ];
    let adr = m.hfield_adr[hid] as usize;
    let data = &m.hfield_data[adr..];
    let height = |i: usize| data.get(i).map(|&h| Real::from(h));
    let (xpos, xmat) = (&poses.geom_xpos[g], &poses.geom_xmat[g]);
    let zaxis = [xmat[2], xmat[5], xmat[8]];

    let base_size = [size[0], size[1], size[3] * 0.5];
    let base_pos: [Real; 3] = core::array::from_fn(|k| xpos[k] - zaxis[k] * size[3] * 0.5);
    let top_size = [size[0], size[1], size[2] * 0.5];
    let top_pos: [Real; 3] = core::array::from_fn(|k| xpos[k] + zaxis[k] * size[2] * 0.5);

    let mut x = cuboid(&base_pos, xmat, &base_size, pnt, vec);
    let mut all = [-1.0; 6];
    let top = cuboid_faces(&top_pos, xmat, &top_size, pnt, vec, &mut all);
    if top < 0.0 {
        return x;
    }

    let (lpnt, lvec) = ray_map(xpos, xmat, pnt, vec);
    let (b0, b1) = normal_basis(&lvec);

    // the segment of the ray inside the top box: from the origin or the entry face, to the
    // farthest face hit
    let mut seg = [0.0, top];
    for &a in &all {
        if a > seg[1] {
            seg = [top, a];
        }
    }

    // grid cells under the segment, padded by one
    let dx = (2.0 * size[0]) / int_to_real(ncol - 1);
    let dy = (2.0 * size[1]) / int_to_real(nrow - 1);
    let sx = seg.map(|s| (lpnt[0] + s * lvec[0] + size[0]) / dx);
    let sy = seg.map(|s| (lpnt[1] + s * lvec[1] + size[1]) / dy);
    let lower = |s: [Real; 2]| (floor(mj_min(s[0], s[1])) as i32).saturating_sub(1);
    let upper = |s: [Real; 2]| (ceil(mj_max(s[0], s[1])) as i32).saturating_add(1);
    let (cmin, cmax) = (lower(sx).max(0), upper(sx).min(ncol - 1));
    let (rmin, rmax) = (lower(sy).max(0), upper(sy).min(nrow - 1));

    let grid = Grid {
        heights: data
            .get(..nrow as usize * ncol as usize)
            .unwrap_or_default(),
        ncol: ncol as usize,
        dx,
        dy,
        size,
    };
    let ray = LocalRay {
        pnt: lpnt,
        vec: lvec,
        b0,
        b1,
    };
    x = cells(&grid, &ray, rmin..rmax, cmin..cmax, x);

    // the four sides of the top box, where the hit lies below the edge's height profile
    for (i, &a) in all.iter().enumerate().take(4) {
        if a >= 0.0 && (a < x || x < 0.0) {
            let z = (lpnt[2] + a * lvec[2]) / size[2];
            // position along the edge in cells, and the edge's heights: (stride, offset)
            let (y, y0, stride, offset) = if i < 2 {
                let y = (lpnt[1] + a * lvec[1] + size[1]) / dy;
                let y0 = mj_max(0.0, mj_min(int_to_real(nrow - 2), floor(y)));
                (y, y0, nrow, if i == 1 { ncol - 1 } else { 0 })
            } else {
                let y = (lpnt[0] + a * lvec[0] + size[0]) / dx;
                let y0 = mj_max(0.0, mj_min(int_to_real(ncol - 2), floor(y)));
                (y, y0, 1, if i == 3 { (nrow - 1) * ncol } else { 0 })
            };
            let profile = |k: i32| {
                let index = k.checked_mul(stride)?.checked_add(offset)?;
                usize::try_from(index).ok().and_then(height)
            };
            if let (Some(z0), Some(z1)) = (profile(round(y0)), profile(round(y0 + 1.0))) {
                if z < z0 * (y0 + 1.0 - y) + z1 * (y - y0) {
                    x = a;
                }
            }
        }
    }
    x
}

/// A height field's grid as [`cells`] reads it: the heights (row-major, `ncol` per row; the
/// validator keeps `nrow * ncol` of them in the model), the spacing and `hfield_size`.
struct Grid<'a> {
    heights: &'a [f32],
    ncol: usize,
    dx: Real,
    dy: Real,
    size: [Real; 4],
}

/// A ray in a height field's frame with the basis of the plane normal to it.
struct LocalRay {
    pnt: [Real; 3],
    vec: [Real; 3],
    b0: [Real; 3],
    b1: [Real; 3],
}

/// The nearer of `x` (-1 before any hit) and the hits of the ray on the two triangles of each
/// grid cell of `rows` and `cols` (a cell is named by its corner of smallest indices).
///
/// Each corner is computed and projected once per row (a cell's right corners are the next
/// cell's left ones: the same expressions for every triangle that shares them, so sharing
/// them changes no result).
fn cells(
    grid: &Grid,
    ray: &LocalRay,
    rows: core::ops::Range<i32>,
    cols: core::ops::Range<i32>,
    mut x: Real,
) -> Real {
    if cols.is_empty() {
        return x;
    }
    let size = &grid.size;
    let (c0, c1) = (cols.start as usize, cols.end as usize);
    let grid_x = |c: usize| grid.dx * int_to_real(c as i32) - size[0];
    let corner = |c: usize, y: Real, h: f32| {
        let v = [grid_x(c), y, Real::from(h) * size[2]];
        let [p0, p1] = project(&v, &ray.pnt, &ray.b0, &ray.b1);
        Corner { v, p0, p1 }
    };
    // the heights of the corners `c0..=c1` of each row from `rows.start` on, `None` where the
    // grid's heights end early: one pass over the rows, rather than two bounds-checked slices
    // of the heights per row
    let width = c1 - c0 + 1;
    let first = rows.start.max(0) as usize * grid.ncol + c0;
    let mut row_heights = grid
        .heights
        .get(first..)
        .unwrap_or_default()
        .chunks(grid.ncol.max(1))
        .map(|h| h.get(..width));
    let mut below = row_heights.next().flatten();
    for r in rows {
        let above = row_heights.next().flatten();
        if let (Some(h0), Some(h1)) = (below, above) {
            let r = r as usize;
            let (y0, y1) = (grid_y(grid, r), grid_y(grid, r + 1));
            let (mut c00, mut c01) = (corner(c0, y0, h0[0]), corner(c0, y1, h1[0]));
            for (c, (&z0, &z1)) in (c0 + 1..).zip(h0[1..].iter().zip(&h1[1..])) {
                let (c10, c11) = (corner(c, y0, z0), corner(c, y1, z1));
                // the cell's two triangles
                x = nearer_hit(x, [&c00, &c11, &c10], ray);
                x = nearer_hit(x, [&c00, &c11, &c01], ray);
                (c00, c01) = (c10, c11);
            }
        }
        below = above;
    }
    x
}

/// A grid corner of [`cells`] and its projection `(p0, p1)` on the plane normal to the ray
/// (two fields rather than an array: LLVM would carry an `[f32; 2]` from cell to cell in one
/// 64-bit integer register, packing and unpacking it at every cell).
#[derive(Clone, Copy)]
struct Corner {
    v: [Real; 3],
    p0: Real,
    p1: Real,
}

/// The y coordinate of grid row `r`.
#[inline(always)]
fn grid_y(grid: &Grid, r: usize) -> Real {
    grid.dy * int_to_real(r as i32) - grid.size[1]
}

/// The nearer of `x` (-1 before any hit) and the ray's hit on the triangle `t`, whose corners
/// are gathered only when its projection does not lie [`beside`] the ray's foot.
#[inline(always)]
fn nearer_hit(x: Real, t: [&Corner; 3], ray: &LocalRay) -> Real {
    if beside(&t.map(|c| c.p0), &t.map(|c| c.p1)) {
        return x;
    }
    let planar = t.map(|c| [c.p0, c.p1]);
    let sol = through_triangle(&t.map(|c| c.v), &planar, &ray.pnt, &ray.vec);
    if sol >= 0.0 {
        nearer(x, sol)
    } else {
        x
    }
}

/// An integer as `Real` (exact for f64; rounded once for f32).
fn int_to_real(x: i32) -> Real {
    f64::from(x) as Real
}

// ------------------------------------------------------------------------------------------------
// primitive shapes

/// The ray in the frame `pos`/`mat` (`ray_map`).
fn ray_map(
    pos: &[Real; 3],
    mat: &[Real; 9],
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> ([Real; 3], [Real; 3]) {
    (rot_vec_mat_t(&sub3(pnt, pos), mat), rot_vec_mat_t(vec, mat))
}

/// Roots of `a x^2 + 2 b x + c` in increasing order (-1 both without real roots), and the
/// smallest non-negative one or -1 (`ray_quad`).
fn quad(a: Real, b: Real, c: Real) -> (Real, [Real; 2]) {
    let det = b * b - a * c;
    if det < MINVAL {
        return (-1.0, [-1.0, -1.0]);
    }
    let det = sqrt(det);
    let x = [(-b - det) / a, (-b + det) / a];
    let first = if x[0] >= 0.0 {
        x[0]
    } else if x[1] >= 0.0 {
        x[1]
    } else {
        -1.0
    };
    (first, x)
}

/// The nearer of a hit `x` (-1 before the first) and a new non-negative hit `sol`.
fn nearer(x: Real, sol: Real) -> Real {
    if x < 0.0 || sol < x {
        sol
    } else {
        x
    }
}

/// Plane: its front face, within its size (`ray_plane`).
fn plane(
    pos: &[Real; 3],
    mat: &[Real; 9],
    size: &[Real; 3],
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Real {
    let (lpnt, lvec) = ray_map(pos, mat, pnt, vec);
    if lvec[2] > -MINVAL {
        return -1.0;
    }
    let x = -lpnt[2] / lvec[2];
    if x < 0.0 {
        return -1.0;
    }
    let p0 = lpnt[0] + x * lvec[0];
    let p1 = lpnt[1] + x * lvec[1];
    let inside = |p: Real, s: Real| s <= 0.0 || abs(p) <= s;
    if inside(p0, size[0]) && inside(p1, size[1]) {
        x
    } else {
        -1.0
    }
}

/// Sphere of squared radius `dist_sqr` (`ray_sphere`).
fn sphere(pos: &[Real; 3], dist_sqr: Real, pnt: &[Real; 3], vec: &[Real; 3]) -> Real {
    let dif = sub3(pnt, pos);
    let a = vec[0] * vec[0] + vec[1] * vec[1] + vec[2] * vec[2];
    let b = vec[0] * dif[0] + vec[1] * dif[1] + vec[2] * dif[2];
    let c = dif[0] * dif[0] + dif[1] * dif[1] + dif[2] * dif[2] - dist_sqr;
    quad(a, b, c).0
}

/// Capsule: its bounding sphere, then the round side between the caps and the outer halves of
/// the two cap spheres (`ray_capsule`).
fn capsule(
    pos: &[Real; 3],
    mat: &[Real; 9],
    size: &[Real; 3],
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Real {
    let ssz = size[0] + size[1];
    if sphere(pos, ssz * ssz, pnt, vec) < 0.0 {
        return -1.0;
    }
    let (lpnt, lvec) = ray_map(pos, mat, pnt, vec);
    let mut x = -1.0;
    let a = lvec[0] * lvec[0] + lvec[1] * lvec[1];
    let b = lvec[0] * lpnt[0] + lvec[1] * lpnt[1];
    let c = lpnt[0] * lpnt[0] + lpnt[1] * lpnt[1] - size[0] * size[0];
    let (sol, _) = quad(a, b, c);
    if sol >= 0.0 && abs(lpnt[2] + sol * lvec[2]) <= size[1] {
        x = nearer(x, sol);
    }
    let a = lvec[0] * lvec[0] + lvec[1] * lvec[1] + lvec[2] * lvec[2];
    for side in [1.0, -1.0] {
        let ldif = [lpnt[0], lpnt[1], lpnt[2] - side * size[1]];
        let b = lvec[0] * ldif[0] + lvec[1] * ldif[1] + lvec[2] * ldif[2];
        let c = ldif[0] * ldif[0] + ldif[1] * ldif[1] + ldif[2] * ldif[2] - size[0] * size[0];
        let (_, xx) = quad(a, b, c);
        for xi in xx {
            let z = lpnt[2] + xi * lvec[2];
            let outer = if side > 0.0 {
                z >= size[1]
            } else {
                z <= -size[1]
            };
            if xi >= 0.0 && outer {
                x = nearer(x, xi);
            }
        }
    }
    x
}

/// Ellipsoid (`ray_ellipsoid`).
fn ellipsoid(
    pos: &[Real; 3],
    mat: &[Real; 9],
    size: &[Real; 3],
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Real {
    let (lpnt, lvec) = ray_map(pos, mat, pnt, vec);
    let s = size.map(|r| 1.0 / (r * r));
    let a = s[0] * lvec[0] * lvec[0] + s[1] * lvec[1] * lvec[1] + s[2] * lvec[2] * lvec[2];
    let b = s[0] * lvec[0] * lpnt[0] + s[1] * lvec[1] * lpnt[1] + s[2] * lvec[2] * lpnt[2];
    let c = s[0] * lpnt[0] * lpnt[0] + s[1] * lpnt[1] * lpnt[1] + s[2] * lpnt[2] * lpnt[2] - 1.0;
    quad(a, b, c).0
}

/// Cylinder: its bounding sphere, then the flat sides within the radius and the round side
/// between them (`ray_cylinder`).
fn cylinder(
    pos: &[Real; 3],
    mat: &[Real; 9],
    size: &[Real; 3],
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Real {
    let ssz = size[0] * size[0] + size[1] * size[1];
    if sphere(pos, ssz, pnt, vec) < 0.0 {
        return -1.0;
    }
    let (lpnt, lvec) = ray_map(pos, mat, pnt, vec);
    let mut x = -1.0;
    if abs(lvec[2]) > MINVAL {
        for side in [-1.0, 1.0] {
            let sol = (side * size[1] - lpnt[2]) / lvec[2];
            if sol >= 0.0 {
                let p0 = lpnt[0] + sol * lvec[0];
                let p1 = lpnt[1] + sol * lvec[1];
                if p0 * p0 + p1 * p1 <= size[0] * size[0] {
                    x = nearer(x, sol);
                }
            }
        }
    }
    let a = lvec[0] * lvec[0] + lvec[1] * lvec[1];
    let b = lvec[0] * lpnt[0] + lvec[1] * lpnt[1];
    let c = lpnt[0] * lpnt[0] + lpnt[1] * lpnt[1] - size[0] * size[0];
    let (sol, _) = quad(a, b, c);
    if sol >= 0.0 && abs(lpnt[2] + sol * lvec[2]) <= size[1] {
        x = nearer(x, sol);
    }
    x
}

/// Box: its bounding sphere, then each face within its rectangle (`ray_box`).
fn cuboid(
    pos: &[Real; 3],
    mat: &[Real; 9],
    size: &[Real; 3],
    pnt: &[Real; 3],
    vec: &[Real; 3],
) -> Real {
    cuboid_faces(pos, mat, size, pnt, vec, &mut [-1.0; 6])
}

/// [`cuboid`], writing the hit of every face (-x, +x, -y, +y, -z, +z; -1 where missed) to
/// `all`.
fn cuboid_faces(
    pos: &[Real; 3],
    mat: &[Real; 9],
    size: &[Real; 3],
    pnt: &[Real; 3],
    vec: &[Real; 3],
    all: &mut [Real; 6],
) -> Real {
    *all = [-1.0; 6];
    let ssz = size[0] * size[0] + size[1] * size[1] + size[2] * size[2];
    if sphere(pos, ssz, pnt, vec) < 0.0 {
        return -1.0;
    }
    const FACE: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];
    let (lpnt, lvec) = ray_map(pos, mat, pnt, vec);
    let mut x = -1.0;
    // every face is solved and its hit selected without branching: which faces a ray hits
    // changes from ray to ray, and the branches mispredicted (the quadruped's rangefinders)
    for (i, [f0, f1]) in FACE.into_iter().enumerate() {
        // axes along which the ray moves (NaN moves along none, as in MuJoCo)
        let moves = abs(lvec[i]) > MINVAL;
        for (s, side) in [-1.0, 1.0].into_iter().enumerate() {
            let sol = (side * size[i] - lpnt[i]) / lvec[i];
            let p0 = lpnt[f0] + sol * lvec[f0];
            let p1 = lpnt[f1] + sol * lvec[f1];
            let hit = moves & (sol >= 0.0) & (abs(p0) <= size[f0]) & (abs(p1) <= size[f1]);
            // `nearer`, as a selection
            let take = hit & ((x < 0.0) | (sol < x));
            x = if take { sol } else { x };
            all[2 * i + s] = if hit { sol } else { -1.0 };
        }
    }
    x
}
