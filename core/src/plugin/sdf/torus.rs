//! `mujoco.sdf.torus`: a torus around the z axis with major radius `radius1` and minor radius
//! `radius2` (MuJoCo's `plugin/sdf/torus.cc`), with an analytic gradient.

use super::SdfPlugin;
use crate::math::misc::max;
use crate::math::scalar::sqrt;
use crate::real::{Real, MINVAL};

/// Attributes, their defaults and the error for an unreadable value.
const ATTRIBUTES: [(&str, Real, &str); 2] = [
    ("radius1", 0.35, "invalid attribute value for 'radius1'"),
    ("radius2", 0.15, "invalid attribute value for 'radius2'"),
];

/// Registers `mujoco.sdf.torus` at its fixed slot.
pub fn register() {
    TORUS.register();
}

fn distance(p: &[Real; 3], radius: &[Real]) -> Real {
    let q = sqrt(p[0] * p[0] + p[1] * p[1]) - radius[0];
    sqrt(q * q + p[2] * p[2]) - radius[1]
}

fn gradient(p: &[Real; 3], attributes: &[Real]) -> [Real; 3] {
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

fn aabb(a: &[Real]) -> [Real; 6] {
    [0.0, 0.0, 0.0, a[0] + a[1], a[0] + a[1], a[1]]
}

/// The plugin.
pub static TORUS: SdfPlugin = SdfPlugin {
    name: "mujoco.sdf.torus",
    attributes: &["radius1", "radius2"],
    checked: &["radius1", "radius2"],
    warning: "Invalid radius1 or radius2 parameters in Torus plugin",
    defaults: &ATTRIBUTES,
    distance,
    gradient: Some(gradient),
    aabb,
};
