//! `mujoco.sdf.bowl`: a spherical cap of `radius`, cut at `height`, as a shell of `thickness`
//! (MuJoCo's `plugin/sdf/bowl.cc`, after <https://iquilezles.org/articles/distfunctions/>);
//! the gradient by forward differences.

use super::{attributes_with_defaults, check_attrs, forward_difference};
use crate::math::scalar::{abs, sqrt};
use crate::model::Model;
use crate::plugin::{register_plugin, Plugin, PluginError, PLUGIN_SDF};
use crate::real::Real;

const ATTRIBUTES: [(&str, Real, &str); 3] = [
    ("height", 0.4, "invalid attribute value for 'height'"),
    ("radius", 1.0, "invalid attribute value for 'radius'"),
    ("thickness", 0.02, "invalid attribute value for 'thickness'"),
];

/// The plugin object.
pub struct Bowl;

/// The registered instance.
pub static BOWL: Bowl = Bowl;

/// Registers `mujoco.sdf.bowl` at its fixed slot.
pub fn register() {
    // registering the same static object again is harmless; its slot is fixed
    let _ = register_plugin(&BOWL);
}

fn distance(point: &[Real; 3], attributes: &[Real]) -> Real {
    let (height, radius, thick) = (attributes[0], attributes[1], attributes[2]);
    let width = sqrt(radius * radius - height * height);
    let q = [sqrt(point[0] * point[0] + point[1] * point[1]), point[2]];
    let qdiff = [q[0] - width, q[1] - height];
    let shell = if height * q[0] < width * q[1] {
        sqrt(qdiff[0] * qdiff[0] + qdiff[1] * qdiff[1])
    } else {
        abs(sqrt(q[0] * q[0] + q[1] * q[1]) - radius)
    };
    shell - thick
}

impl Plugin for Bowl {
    fn name(&self) -> &'static str {
        "mujoco.sdf.bowl"
    }

    fn attributes(&self) -> &'static [&'static str] {
        &["height", "radius", "thickness"]
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_SDF
    }

    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        check_attrs(
            m,
            instance,
            &["radius", "height", "thickness"],
            "Invalid parameter specification in Bowl plugin",
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

    fn sdf_aabb(&self, a: &[Real]) -> [Real; 6] {
        let (radius, thick) = (a[1], a[2]);
        let r = radius + thick;
        [0.0, 0.0, 0.0, r, r, r]
    }
}
