//! `mujoco.elasticity.shell`: bending elasticity of a triangle mesh, as MuJoCo 3.1.6's plugin
//! computes it: for every interior edge, the two triangles sharing it (a flap of four vertices)
//! get the force `-K x` of a constant bending Hessian `K` (Wardetzky et al.'s cotangent
//! operator, times `1.5 mu thickness³ / 12 / area of the flap`), from the reference positions.
//!
//! MuJoCo 3.1.6's shell does not read flexes: vertex `v` of `face` is body `i0 + v` (the first
//! body naming the instance plus `v`), its reference position `body_pos`, its position `xpos`,
//! its force on dofs `3 v` to `3 v + 2` after the first body's. Edges are numbered in the order
//! they first appear in the faces; the flap of an edge takes the triangle of its first
//! appearance and the opposite vertex of its last. Like MuJoCo's constructor, the instance's
//! object is built once per `Data`: the flaps (found by sorting the edge appearances in scratch
//! memory of the arena) and their Hessians from the reference positions; a call only applies
//! them. `nstate` is 0, as in MuJoCo.
//!
//! Configuration: `young`, `poisson`, `thickness` (numbers, unset reads as 0, as in MuJoCo),
//! and `face`, `edge`, which the compiler writes (`edge` is only checked to be numbers).

use super::membrane::area;
use super::{check_attrs, Ints, Material, NO_OBJECT, TRIANGLE};
use crate::arena::{ArenaError, Stack};
use crate::data::Data;
use crate::error::StepError;
use crate::math::scalar::pow;
use crate::math::vec::{cross, dot3, norm3, sub3};
use crate::model::Model;
use crate::plugin::{
    instance_bodies, plugin_config, register_plugin, Plugin, PluginError, PLUGIN_PASSIVE,
};
use crate::real::Real;
use crate::support::v3;

/// The plugin object registered by [`register`].
pub static SHELL: Shell = Shell;

/// Registers `mujoco.elasticity.shell` at its fixed slot.
pub fn register() {
    // the only refusal is a different plugin already holding the slot, which then stays
    let _ = register_plugin(&SHELL);
}

/// `mujoco.elasticity.shell` (its instances' flaps are in their objects).
pub struct Shell;

/// The vertex numbers of the `face` text, three per triangle.
fn faces<'m>(m: &'m Model, instance: usize) -> Ints<'m> {
    Ints::new(plugin_config(m, instance, "face").unwrap_or(""))
}

/// Cotangent of the angle at `x[v0]` between the edges to `x[v1]` and `x[v2]`.
fn cot(x: &[[Real; 3]], v0: usize, v1: usize, v2: usize) -> Real {
    let e1 = sub3(&x[v1], &x[v0]);
    let e2 = sub3(&x[v2], &x[v0]);
    dot3(&e1, &e2) / norm3(&cross(&e1, &e2))
}

/// The bending Hessian of a flap (vertices `v`: the edge, its triangle's third vertex, the
/// opposite vertex), from reference positions `x` (indexed by vertex).
fn bending(x: &[[Real; 3]], v: &[usize; 4], mu: Real, thickness: Real) -> [[Real; 4]; 4] {
    let a01 = cot(x, v[0], v[1], v[2]);
    let a02 = cot(x, v[0], v[3], v[1]);
    let a03 = cot(x, v[1], v[2], v[0]);
    let a04 = cot(x, v[1], v[0], v[3]);
    let c = [a03 + a04, a01 + a02, -(a01 + a03), -(a02 + a04)];
    let flap_area = area(&x[v[0]], &x[v[1]], &x[v[2]]) + area(&x[v[1]], &x[v[0]], &x[v[3]]);
    let mut k = [[0.0; 4]; 4];
    for (i, row) in k.iter_mut().enumerate() {
        for (j, entry) in row.iter_mut().enumerate() {
            *entry += 1.5 * c[i] * c[j] / flap_area * mu * pow(thickness, 3.0) / 12.0;
        }
    }
    k
}

/// Subtracts `K x` of one flap (vertices `v`) from the dofs of its vertices, the mesh's
/// positions `xpos` and dofs from `dofadr` on.
fn add_flap_force(
    qfrc: &mut [Real],
    dofadr: usize,
    xpos: &[[Real; 3]],
    v: &[usize; 4],
    k: &[Real],
) {
    let mut force = [[0.0; 3]; 4];
    for i in 0..4 {
        for j in 0..4 {
            for x in 0..3 {
                force[i][x] += k[4 * i + j] * xpos[v[j]][x];
            }
        }
    }
    for i in 0..4 {
        for x in 0..3 {
            qfrc[dofadr + 3 * v[i] + x] -= force[i][x];
        }
    }
}

/// Key of the edge `(a, b)`: the smaller vertex, then the larger.
fn edge_key(a: i32, b: i32) -> u64 {
    (u64::from(a.min(b) as u32) << 32) | u64::from(a.max(b) as u32)
}

/// The arrays of an object with room for `nflap` flaps: head (flap count, first body, room),
/// vertices (four per flap), Hessians (sixteen per flap).
fn object_layout(nflap: usize) -> [Option<usize>; 3] {
    [Some(3), nflap.checked_mul(4), nflap.checked_mul(16)]
}

/// At most one flap per interior edge, and an interior edge appears in two triangles or more.
fn max_flaps(m: &Model, instance: usize) -> usize {
    faces(m, instance).count() / 3 * 3 / 2
}

/// The object's arrays in `bytes`, for at most `nflap` flaps.
fn carve(bytes: &mut [u8], nflap: usize) -> Option<(&mut [u64], &mut [i32], &mut [Real])> {
    let [head, verts, hessians] = object_layout(nflap);
    let mut c = crate::arena::Carver::new(bytes, 0);
    Some((
        c.take::<u64>(head).ok()?,
        c.take::<i32>(verts).ok()?,
        c.take::<Real>(hessians).ok()?,
    ))
}

/// The flaps of instance `instance`, in the order of their edges' first appearances, each as
/// `f(flap vertices)`; scratch from `stack`.
fn for_each_flap(
    m: &Model,
    instance: usize,
    stack: &mut Stack,
    mut f: impl FnMut([usize; 4]),
) -> Result<(), ArenaError> {
    let nt = faces(m, instance).count() / 3;
    let n = 3 * nt;
    let mut frame = stack.frame();
    let tri = frame.alloc::<i32>(n)?;
    for (t, v) in tri.iter_mut().zip(faces(m, instance)) {
        *t = v;
    }
    // the appearances of edges (3 t + local edge), grouped by edge, in order within each
    let keys = frame.alloc::<u64>(n)?;
    let order = frame.alloc::<u32>(n)?;
    let edges = TRIANGLE.edges;
    for k in 0..n {
        let (t, e) = (k / 3, k % 3);
        keys[k] = edge_key(tri[3 * t + edges[e][0]], tri[3 * t + edges[e][1]]);
        order[k] = k as u32;
    }
    order.sort_unstable_by_key(|&k| (keys[k as usize], k));
    // at an edge's first appearance: the opposite vertex of its last (-1: boundary);
    // i32::MIN at the other appearances
    let opposite = frame.alloc::<i32>(n)?;
    opposite.fill(i32::MIN);
    let third = |k: usize| tri[3 * (k / 3) + (edges[k % 3][1] + 1) % 3];
    let mut i = 0;
    while i < n {
        let key = keys[order[i] as usize];
        let j = i + order[i..]
            .iter()
            .take_while(|&&k| keys[k as usize] == key)
            .count();
        let (first_k, last_k) = (order[i] as usize, order[j - 1] as usize);
        opposite[first_k] = if j - i > 1 { third(last_k) } else { -1 };
        i = j;
    }
    for k in 0..n {
        if opposite[k] < 0 {
            continue; // not a first appearance, or a boundary edge
        }
        let (t, e) = (k / 3, k % 3);
        f([
            tri[3 * t + edges[e][0]],
            tri[3 * t + edges[e][1]],
            third(k),
            opposite[k],
        ]
        .map(|v| v as usize));
    }
    Ok(())
}

/// MuJoCo's constructor: the flaps and their bending Hessians. An instance that `init` refuses
/// gets none.
fn build_object(
    m: &Model,
    instance: usize,
    bytes: &mut [u8],
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let (first, count) = instance_bodies(m, instance);
    let room = max_flaps(m, instance);
    let Some((head, verts, hessians)) = carve(bytes, room) else {
        return Ok(());
    };
    if count == 0 || check_faces(m, instance).is_err() {
        return Ok(());
    }
    let material = Material::from_model(m, instance);
    let mu = material.young / (2.0 * (1.0 + material.poisson));
    let reference = &v3(&m.body_pos)[first..];
    let mut nflap = 0;
    for_each_flap(m, instance, stack, |v| {
        if let Some(slot) = verts.get_mut(4 * nflap..4 * nflap + 4) {
            let k = bending(reference, &v, mu, material.thickness);
            for (s, &x) in slot.iter_mut().zip(&v) {
                *s = x as i32;
            }
            for (i, row) in k.iter().enumerate() {
                hessians[16 * nflap + 4 * i..16 * nflap + 4 * i + 4].copy_from_slice(row);
            }
            nflap += 1;
        }
    })?;
    head.copy_from_slice(&[nflap as u64, first as u64, room as u64]);
    Ok(())
}

/// The bending forces of instance `instance`, added to `qfrc_passive` flap by flap.
fn add_forces(m: &Model, d: &mut Data, instance: usize) -> Result<(), StepError> {
    d.with_objects_and_stack(|d, objects, _| add_flap_forces(m, d, objects, instance))
}

/// [`add_forces`] with the plugin objects moved out of `d`.
fn add_flap_forces(
    m: &Model,
    d: &mut Data,
    objects: &mut [u8],
    instance: usize,
) -> Result<(), StepError> {
    let bytes = super::super::instance_object(d.plugin_data, objects, instance);
    let head = bytes
        .get(..24)
        .and_then(crate::pod::cast::<u64>)
        .map(|h| (h[0] as usize, h[1] as usize, h[2] as usize));
    let carved = head.and_then(|(nflap, first, room)| {
        let (_, verts, hessians) = carve(bytes, room)?;
        Some((verts.get(..4 * nflap)?, hessians.get(..16 * nflap)?, first))
    });
    match carved {
        Some((verts, hessians, first)) => {
            let dofadr = usize::try_from(m.body_dofadr.get(first).copied().unwrap_or(-1));
            let xpos = v3(d.xpos).get(first..).unwrap_or(&[]);
            let fits = |v: &[usize; 4]| {
                dofadr.is_ok_and(|a| v.iter().all(|&v| v < xpos.len() && a + 3 * v + 3 <= m.nv))
            };
            for (v, k) in verts.chunks_exact(4).zip(hessians.chunks_exact(16)) {
                let v = [v[0], v[1], v[2], v[3]].map(|x| x as usize);
                if let (true, Ok(adr)) = (fits(&v), dofadr) {
                    add_flap_force(d.qfrc_passive, adr, xpos, &v, k);
                }
            }
            Ok(())
        }
        None => Err(NO_OBJECT),
    }
}

/// MuJoCo's check of the faces' bodies (fatal), and beyond MuJoCo, which would read outside its
/// arrays: the vertices' bodies and dofs exist.
fn check_faces(m: &Model, instance: usize) -> Result<(), PluginError> {
    let (first, count) = instance_bodies(m, instance);
    if count == 0 {
        return Err(PluginError::fatal(
            "an elasticity plugin instance must be used by a body or flex",
        ));
    }
    let nt = faces(m, instance).count() / 3;
    for v in faces(m, instance).take(3 * nt) {
        let body = usize::try_from(v)
            .ok()
            .map(|v| first + v)
            .filter(|&b| b < m.nbody);
        let Some(body) = body else {
            return Err(PluginError::fatal(
                "a face of an elasticity plugin names a vertex the mesh does not have",
            ));
        };
        if usize::try_from(m.body_plugin[body]).ok() != Some(instance) {
            return Err(PluginError::fatal(
                "This body does not have the requested plugin instance",
            ));
        }
        let dofs = usize::try_from(m.body_dofadr[first]).map(|a| a + 3 * (body - first) + 3);
        if !dofs.is_ok_and(|end| end <= m.nv) {
            return Err(PluginError::fatal(
                "the vertices of an elasticity plugin need three slider dofs each",
            ));
        }
    }
    Ok(())
}

impl Plugin for Shell {
    fn name(&self) -> &'static str {
        "mujoco.elasticity.shell"
    }

    fn attributes(&self) -> &'static [&'static str] {
        &["face", "edge", "young", "poisson", "thickness"]
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_PASSIVE
    }

    /// MuJoCo's checks when the instance is created: numbers, the faces' bodies.
    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        check_attrs(
            m,
            instance,
            &["face", "edge", "poisson", "young", "thickness"],
            "Invalid parameter specification in shell plugin",
        )?;
        check_faces(m, instance)
    }

    fn object_bytes(&self, m: &Model, instance: usize) -> usize {
        let [head, verts, hessians] = object_layout(max_flaps(m, instance));
        let mut c = crate::arena::LayoutCounter::new();
        c.add::<u64>(head);
        c.add::<i32>(verts);
        c.add::<Real>(hessians);
        c.total().unwrap_or(usize::MAX)
    }

    /// MuJoCo's constructor: the flaps and their bending Hessians.
    fn init_object(
        &self,
        m: &Model,
        instance: usize,
        object: &mut [u8],
        stack: &mut Stack,
    ) -> Result<(), ArenaError> {
        build_object(m, instance, object, stack)
    }

    fn compute(
        &self,
        m: &Model,
        d: &mut Data,
        instance: usize,
        _capability: u32,
    ) -> Result<(), StepError> {
        add_forces(m, d, instance)
    }
}
