//! `mujoco.elasticity.membrane`: in-plane (stretching) elasticity of a triangle mesh (a flex
//! of dimension 2, or bodies naming the instance), as MuJoCo 3.1.6's plugin computes it.
//!
//! The metric of a triangle is built from one basis tensor per edge: the symmetrized product of
//! the in-plane normals of the other two edges, over `8 * area²`; with Lamé's coefficients times
//! `|area| / 4 * thickness`. See the [module notes](super) for what the instance's object keeps.
//!
//! Configuration: `young`, `poisson`, `thickness` (numbers, unset reads as 0, as in MuJoCo),
//! `damping` (see the module notes), and `face`, `edge`, which the compiler writes.

use super::{
    add_forces, check_attrs, check_mesh, init_object, metric_tensor, object_bytes, Material, Mesh,
    TRIANGLE,
};
use crate::arena::{ArenaError, Stack};
use crate::data::Data;
use crate::error::StepError;
use crate::math::vec::{cross, norm3, normalize3, sub3};
use crate::model::Model;
use crate::plugin::{register_plugin, Plugin, PluginError, PLUGIN_PASSIVE};
use crate::real::Real;

/// The plugin object registered by [`register`].
pub static MEMBRANE: Membrane = Membrane;

/// Registers `mujoco.elasticity.membrane` at its fixed slot.
pub fn register() {
    // the only refusal is a different plugin already holding the slot, which then stays
    let _ = register_plugin(&MEMBRANE);
}

/// `mujoco.elasticity.membrane` (its instances' data is in their objects).
pub struct Membrane;

/// Area of the triangle `x` (its first three points).
pub(crate) fn area(x: &[Real; 3], y: &[Real; 3], z: &[Real; 3]) -> Real {
    norm3(&cross(&sub3(y, x), &sub3(z, x))) / 2.0
}

/// Basis tensor of an edge from the other two edges (`left`, `right`, as vertex pairs).
fn basis(x: &[[Real; 3]; 4], left: &[usize; 2], right: &[usize; 2], area: Real) -> [Real; 9] {
    let edge_l = sub3(&x[left[0]], &x[left[1]]);
    let edge_r = sub3(&x[right[1]], &x[right[0]]);
    let mut normal = cross(&edge_r, &edge_l);
    normalize3(&mut normal);
    let l = cross(&normal, &edge_l);
    let r = cross(&edge_r, &normal);
    let mut b = [0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            b[3 * i + j] = (l[i] * r[j] + r[i] * l[j]) / (8.0 * area * area);
        }
    }
    b
}

/// The metric of a triangle with reference vertices `x`.
fn metric(x: &[[Real; 3]; 4], material: &Material) -> [[Real; 6]; 6] {
    let a = area(&x[0], &x[1], &x[2]);
    let edges = TRIANGLE.edges;
    let b: [[Real; 9]; 3] =
        core::array::from_fn(|e| basis(x, &edges[edges[e][0]], &edges[edges[e][1]], a));
    let (young, nu, thickness) = (material.young, material.poisson, material.thickness);
    let mu = young / (2.0 * (1.0 + nu)) * a.abs() / 4.0 * thickness;
    let la = young * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)) * a.abs() / 4.0 * thickness;
    metric_tensor(&b, mu, la)
}

impl Plugin for Membrane {
    fn name(&self) -> &'static str {
        "mujoco.elasticity.membrane"
    }

    fn attributes(&self) -> &'static [&'static str] {
        &["face", "edge", "young", "poisson", "thickness", "damping"]
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_PASSIVE
    }

    /// MuJoCo's checks when the instance is created (numbers, the mesh; see `check_mesh`;
    /// MuJoCo's warning names the shell plugin).
    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        check_attrs(
            m,
            instance,
            &["face", "poisson", "young", "thickness"],
            "Invalid parameter specification in shell plugin",
        )?;
        let mesh = Mesh::locate(m, instance)?;
        check_mesh(m, instance, &mesh, &TRIANGLE)
    }

    fn object_bytes(&self, m: &Model, instance: usize) -> usize {
        object_bytes(m, instance, &TRIANGLE)
    }

    /// MuJoCo's constructor: elements, metrics, reference lengths, damping.
    fn init_object(
        &self,
        m: &Model,
        instance: usize,
        object: &mut [u8],
        _stack: &mut Stack,
    ) -> Result<(), ArenaError> {
        init_object(m, instance, object, &TRIANGLE, metric);
        Ok(())
    }

    fn compute(
        &self,
        m: &Model,
        d: &mut Data,
        instance: usize,
        _capability: u32,
    ) -> Result<(), StepError> {
        add_forces(m, d, instance, &TRIANGLE)
    }
}
