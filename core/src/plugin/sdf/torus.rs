//! `mujoco.sdf.torus`: a torus around the z axis with major radius `radius1` and minor radius
//! `radius2` (MuJoCo's `plugin/sdf/torus.cc`), with an analytic gradient.

use super::{attributes_with_defaults, check_attrs};
use crate::math::misc::max;
use crate::math::scalar::sqrt;
use crate::model::Model;
use crate::plugin::{register_plugin, Plugin, PluginError, PLUGIN_SDF};
use crate::real::{Real, MINVAL};

/// Attributes, their defaults and the error for an unreadable value.
const ATTRIBUTES: [(&str, Real, &str); 2] = [
    ("radius1", 0.35, "invalid attribute value for 'radius1'"),
    ("radius2", 0.15, "invalid attribute value for 'radius2'"),
];

/// The plugin object.
pub struct Torus;

/// The registered instance.
pub static TORUS: Torus = Torus;

/// Registers `mujoco.sdf.torus` at its fixed slot.
pub fn register() {
    // registering the same static object again is harmless; its slot is fixed
    let _ = register_plugin(&TORUS);
}

fn distance(p: &[Real; 3], radius: &[Real]) -> Real {
    let q = sqrt(p[0] * p[0] + p[1] * p[1]) - radius[0];
    sqrt(q * q + p[2] * p[2]) - radius[1]
}

impl Plugin for Torus {
    fn name(&self) -> &'static str {
        "mujoco.sdf.torus"
    }

    fn attributes(&self) -> &'static [&'static str] {
        &["radius1", "radius2"]
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_SDF
    }

    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        check_attrs(
            m,
            instance,
            &["radius1", "radius2"],
            "Invalid radius1 or radius2 parameters in Torus plugin",
        )
    }

    fn sdf_distance(&self, point: &[Real; 3], attributes: &[Real]) -> Real {
        distance(point, attributes)
    }

    fn sdf_gradient(&self, p: &[Real; 3], attributes: &[Real]) -> [Real; 3] {
        let len_xy = sqrt(p[0] * p[0] + p[1] * p[1]);
        let q = len_xy - attributes[0];
        let grad_q = [p[0] / len_xy, p[1] / len_xy];
        let len_qz = max(sqrt(q * q + p[2] * p[2]), MINVAL);
        [
            q * grad_q[0] / len_qz,
            q * grad_q[1] / len_qz,
            p[2] / len_qz,
        ]
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

    fn sdf_aabb(&self, a: &[Real]) -> [Real; 6] {
        [0.0, 0.0, 0.0, a[0] + a[1], a[0] + a[1], a[1]]
    }
}
