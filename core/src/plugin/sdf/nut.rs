//! `mujoco.sdf.nut`: a hexagonal nut whose threaded hole fits the bolt of the same `radius`
//! (MuJoCo's `plugin/sdf/nut.cc`); the gradient by forward differences.

use super::bolt::{head, thread};
use super::{attributes_with_defaults, check_attrs, forward_difference, subtraction, union};
use crate::math::scalar::sqrt;
use crate::model::Model;
use crate::plugin::{register_plugin, Plugin, PluginError, PLUGIN_SDF};
use crate::real::Real;

const ATTRIBUTES: [(&str, Real, &str); 1] =
    [("radius", 0.26, "invalid attribute value for 'radius'")];

/// The plugin object.
pub struct Nut;

/// The registered instance.
pub static NUT: Nut = Nut;

/// Registers `mujoco.sdf.nut` at its fixed slot.
pub fn register() {
    // registering the same static object again is harmless; its slot is fixed
    let _ = register_plugin(&NUT);
}

fn distance(p: &[Real; 3], attributes: &[Real]) -> Real {
    let sqrt12 = sqrt(2.0) / 2.0;
    let radius2 = sqrt(p[0] * p[0] + p[1] * p[1]) - attributes[0];
    let thread2 = thread(p, radius2);

    // the hole: the thread clipped at the top, subtracted from the head
    let cone2 = (p[2] - radius2) * sqrt12;
    let mut hole = subtraction(thread2, cone2 + 0.5 * sqrt12);
    hole = union(hole, -cone2 - 0.05 * sqrt12);
    subtraction(head(p, radius2), hole)
}

impl Plugin for Nut {
    fn name(&self) -> &'static str {
        "mujoco.sdf.nut"
    }

    fn attributes(&self) -> &'static [&'static str] {
        &["radius"]
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_SDF
    }

    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        check_attrs(
            m,
            instance,
            &["radius"],
            "Invalid parameter specification in Nut plugin",
        )
    }

    fn sdf_distance(&self, point: &[Real; 3], attributes: &[Real]) -> Real {
        distance(point, attributes)
    }

    fn sdf_gradient(&self, point: &[Real; 3], attributes: &[Real]) -> [Real; 3] {
        forward_difference(|p| distance(p, attributes), point)
    }

    fn sdf_staticdistance(&self, point: &[Real; 3], attributes: &[Real]) -> Real {
        distance(point, attributes)
    }

    fn sdf_attribute(
        &self,
        attribute: &mut [Real],
        names: &[&str],
        values: &[Option<&str>],
    ) -> Result<(), PluginError> {
        attributes_with_defaults(attribute, names, values, &ATTRIBUTES)
    }

    fn sdf_aabb(&self, _attributes: &[Real]) -> [Real; 6] {
        [0.0, 0.0, 0.0, 0.6, 0.6, 1.0]
    }
}
