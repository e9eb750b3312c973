//! `mujoco.sdf.nut`: a hexagonal nut whose threaded hole fits the bolt of the same `radius`
//! (MuJoCo's `plugin/sdf/nut.cc`); the gradient by forward differences.

use super::bolt::{head, thread};
use super::{subtraction, union, SdfPlugin};
use crate::math::scalar::sqrt;
use crate::real::Real;

const ATTRIBUTES: [(&str, Real, &str); 1] =
    [("radius", 0.26, "invalid attribute value for 'radius'")];

/// Registers `mujoco.sdf.nut` at its fixed slot.
pub fn register() {
    NUT.register();
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

fn aabb(_attributes: &[Real]) -> [Real; 6] {
    [0.0, 0.0, 0.0, 0.6, 0.6, 1.0]
}

/// The plugin.
pub static NUT: SdfPlugin = SdfPlugin {
    name: "mujoco.sdf.nut",
    attributes: &["radius"],
    checked: &["radius"],
    warning: "Invalid parameter specification in Nut plugin",
    defaults: &ATTRIBUTES,
    distance,
    gradient: None,
    aabb,
};
