//! `mujoco.elasticity.shell`: bending elasticity of a triangle mesh, as MuJoCo 3.1.6's plugin
//! computes it: for every interior edge, the two triangles sharing it (a flap of four vertices)
//! get the force `-K x` of a constant bending Hessian `K` (Wardetzky et al.'s cotangent
//! operator, times `1.5 mu thickness³ / 12 / area of the flap`), from the reference positions.
//!
//! MuJoCo 3.1.6's shell does not read flexes: vertex `v` of `face` is body `i0 + v` (the first
//! body naming the instance plus `v`), its reference position `body_pos`, its position `xpos`,
//! its force on dofs `3 v` to `3 v + 2` after the first body's. Edges are numbered in the order
//! they first appear in the faces; the flap of an edge takes the triangle of its first
//! appearance and the opposite vertex of its last. mjrs rebuilds this table on each call in
//! scratch memory of the `Data`'s arena (sorting the edge appearances), and the Hessians from
//! the reference positions; `nstate` is 0, as in MuJoCo.
//!
//! Configuration: `young`, `poisson`, `thickness` (numbers, unset reads as 0, as in MuJoCo),
//! and `face`, `edge`, which the compiler writes (`edge` is only checked to be numbers).

use super::membrane::area;
use super::{check_attrs, Ints, Material, TRIANGLE};
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

/// `mujoco.elasticity.shell` (stateless: everything is derived from the Model).
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

/// Subtracts `K x` of one flap from the dofs of its vertices.
fn add_flap_force(m: &Model, d: &mut Data, first: usize, v: &[usize; 4], material: &Material) {
    let reference = &v3(m.body_pos)[first..];
    let mu = material.young / (2.0 * (1.0 + material.poisson));
    let k = bending(reference, v, mu, material.thickness);
    let xpos = &v3(d.xpos)[first..];
    let mut force = [[0.0; 3]; 4];
    for i in 0..4 {
        for j in 0..4 {
            for x in 0..3 {
                force[i][x] += k[i][j] * xpos[v[j]][x];
            }
        }
    }
    let dofadr = m.body_dofadr[first] as usize;
    for i in 0..4 {
        for x in 0..3 {
            d.qfrc_passive[dofadr + 3 * v[i] + x] -= force[i][x];
        }
    }
}

/// Key of the edge `(a, b)`: the smaller vertex, then the larger.
fn edge_key(a: i32, b: i32) -> u64 {
    (u64::from(a.min(b) as u32) << 32) | u64::from(a.max(b) as u32)
}

/// The bending forces of instance `instance`, added to `qfrc_passive` edge by edge.
fn add_forces(m: &Model, d: &mut Data, instance: usize) -> Result<(), StepError> {
    let (first, count) = instance_bodies(m, instance);
    if count == 0 {
        return Ok(()); // refused by init
    }
    let material = Material::from_model(m, instance);
    let nt = faces(m, instance).count() / 3;
    let n = 3 * nt;
    d.with_stack(|d, stack| -> Result<(), StepError> {
        let tri = stack.alloc::<i32>(n)?;
        for (t, v) in tri.iter_mut().zip(faces(m, instance)) {
            *t = v;
        }
        // the appearances of edges (3 t + local edge), grouped by edge, in order within each
        let keys = stack.alloc::<u64>(n)?;
        let order = stack.alloc::<u32>(n)?;
        let edges = TRIANGLE.edges;
        for k in 0..n {
            let (t, e) = (k / 3, k % 3);
            keys[k] = edge_key(tri[3 * t + edges[e][0]], tri[3 * t + edges[e][1]]);
            order[k] = k as u32;
        }
        order.sort_unstable_by_key(|&k| (keys[k as usize], k));
        // at an edge's first appearance: the opposite vertex of its last (-1: boundary);
        // i32::MIN at the other appearances
        let opposite = stack.alloc::<i32>(n)?;
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
            let flap = [
                tri[3 * t + edges[e][0]],
                tri[3 * t + edges[e][1]],
                third(k),
                opposite[k],
            ]
            .map(|v| v as usize);
            add_flap_force(m, d, first, &flap, &material);
        }
        Ok(())
    })
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
