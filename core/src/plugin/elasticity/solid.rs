//! `mujoco.elasticity.solid`: linear elasticity of a tetrahedral mesh (a flex of dimension 3,
//! or bodies naming the instance), as MuJoCo 3.1.6's plugin computes it.
//!
//! The metric of a tetrahedron is built from one basis tensor per edge: the symmetrized product
//! of the area normals of the two faces that do not touch the edge, over `72 * volume²`; with
//! Lamé's `mu = E / (2 (1 + nu))` and `la = E nu / ((1 + nu) (1 - 2 nu))`, both times the
//! signed reference volume. See the [module notes](super) for what the instance's object keeps.
//!
//! Configuration: `young`, `poisson` (numbers, unset reads as 0, as in MuJoCo), `damping`
//! (see the module notes), and `face`, `edge`, which the compiler writes.

use super::{
    add_forces, check_attrs, check_mesh, init_object, metric_tensor, object_bytes, Material, Mesh,
    TETRAHEDRON,
};
use crate::arena::{ArenaError, Stack};
use crate::data::Data;
use crate::error::StepError;
use crate::math::vec::{cross, dot3, sub3};
use crate::model::Model;
use crate::plugin::{register_plugin, Plugin, PluginError, PLUGIN_PASSIVE};
use crate::real::Real;

/// The plugin object registered by [`register`].
pub static SOLID: Solid = Solid;

/// Registers `mujoco.elasticity.solid` at its fixed slot.
pub fn register() {
    // the only refusal is a different plugin already holding the slot, which then stays
    let _ = register_plugin(&SOLID);
}

/// `mujoco.elasticity.solid` (its instances' data is in their objects).
pub struct Solid;

/// The faces of a tetrahedron, as local vertices, and the two faces away from each edge.
const FACE: [[usize; 3]; 4] = [[2, 1, 0], [0, 1, 3], [1, 2, 3], [2, 0, 3]];
const EDGE_FACES: [[usize; 2]; 6] = [[2, 3], [1, 3], [2, 1], [1, 0], [0, 2], [0, 3]];

/// Signed volume of the tetrahedron `x`.
fn volume(x: &[[Real; 3]; 4]) -> Real {
    let e1 = sub3(&x[1], &x[0]);
    let e2 = sub3(&x[2], &x[0]);
    let e3 = sub3(&x[3], &x[0]);
    dot3(&cross(&e2, &e1), &e3) / 6.0
}

/// Basis tensor of an edge from the two faces away from it.
fn basis(x: &[[Real; 3]; 4], left: &[usize; 3], right: &[usize; 3], volume: Real) -> [Real; 9] {
    let normal = |f: &[usize; 3]| cross(&sub3(&x[f[1]], &x[f[0]]), &sub3(&x[f[2]], &x[f[0]]));
    let (l, r) = (normal(left), normal(right));
    let mut b = [0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            b[3 * i + j] = (l[i] * r[j] + r[i] * l[j]) / (72.0 * volume * volume);
        }
    }
    b
}

/// The metric of a tetrahedron with reference vertices `x`.
fn metric(x: &[[Real; 3]; 4], material: &Material) -> [[Real; 6]; 6] {
    let vol = volume(x);
    let b: [[Real; 9]; 6] =
        core::array::from_fn(|e| basis(x, &FACE[EDGE_FACES[e][0]], &FACE[EDGE_FACES[e][1]], vol));
    let (young, nu) = (material.young, material.poisson);
    let mu = young / (2.0 * (1.0 + nu)) * vol;
    let la = young * nu / ((1.0 + nu) * (1.0 - 2.0 * nu)) * vol;
    metric_tensor(&b, mu, la)
}

impl Plugin for Solid {
    fn name(&self) -> &'static str {
        "mujoco.elasticity.solid"
    }

    fn attributes(&self) -> &'static [&'static str] {
        &["face", "edge", "young", "poisson", "damping"]
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_PASSIVE
    }

    /// MuJoCo's checks when the instance is created (numbers, a flex of dimension 3, the
    /// mesh; see `check_mesh`).
    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        check_attrs(
            m,
            instance,
            &["face", "edge", "poisson", "young"],
            "Invalid parameter specification in solid plugin",
        )?;
        let mesh = Mesh::locate(m, instance)?;
        if let Mesh::Flex { flex } = mesh {
            if m.flex_dim[flex] != 3 {
                return Err(PluginError::fatal(
                    "mujoco.elasticity.solid requires a 3D mesh",
                ));
            }
        }
        check_mesh(m, instance, &mesh, &TETRAHEDRON)
    }

    fn object_bytes(&self, m: &Model, instance: usize) -> usize {
        object_bytes(m, instance, &TETRAHEDRON)
    }

    /// MuJoCo's constructor: elements, metrics, reference lengths, damping.
    fn init_object(
        &self,
        m: &Model,
        instance: usize,
        object: &mut [u8],
        _stack: &mut Stack,
    ) -> Result<(), ArenaError> {
        init_object(m, instance, object, &TETRAHEDRON, metric);
        Ok(())
    }

    fn compute(
        &self,
        m: &Model,
        d: &mut Data,
        instance: usize,
        _capability: u32,
    ) -> Result<(), StepError> {
        add_forces(m, d, instance, &TETRAHEDRON)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_tetrahedron() {
        let x = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ];
        // MuJoCo's ordering gives the right-handed unit tetrahedron a negative volume
        assert_eq!(volume(&x), -1.0 / 6.0);
        let material = Material {
            young: 1.0,
            poisson: 0.0,
            thickness: 0.0,
            damping: 0.0,
        };
        let g = metric(&x, &material);
        for (i, row) in g.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                assert_eq!(*v, g[j][i], "the metric is symmetric");
            }
        }
    }
}
