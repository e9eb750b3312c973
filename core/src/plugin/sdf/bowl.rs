//! `mujoco.sdf.bowl`: a spherical cap of `radius`, cut at `height`, as a shell of `thickness`
//! (MuJoCo's `plugin/sdf/bowl.cc`, after <https://iquilezles.org/articles/distfunctions/>);
//! the gradient by forward differences.

use super::SdfPlugin;
use crate::math::scalar::{abs, sqrt};
use crate::real::Real;

const ATTRIBUTES: [(&str, Real, &str); 3] = [
    ("height", 0.4, "invalid attribute value for 'height'"),
    ("radius", 1.0, "invalid attribute value for 'radius'"),
    ("thickness", 0.02, "invalid attribute value for 'thickness'"),
];

/// Registers `mujoco.sdf.bowl` at its fixed slot.
pub fn register() {
    BOWL.register();
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

fn aabb(a: &[Real]) -> [Real; 6] {
    let (radius, thick) = (a[1], a[2]);
    let r = radius + thick;
    [0.0, 0.0, 0.0, r, r, r]
}

/// The plugin.
pub static BOWL: SdfPlugin = SdfPlugin {
    name: "mujoco.sdf.bowl",
    attributes: &["height", "radius", "thickness"],
    checked: &["radius", "height", "thickness"],
    warning: "Invalid parameter specification in Bowl plugin",
    defaults: &ATTRIBUTES,
    distance,
    gradient: None,
    aabb,
};
