//! `mujoco.sdf.bolt`: a threaded bolt with a hexagonal head, thread radius `radius`
//! (MuJoCo's `plugin/sdf/bolt.cc`, after <https://www.shadertoy.com/view/XtffzX>); the
//! gradient by forward differences.

use super::{fract, intersection, subtraction, union, SdfPlugin};
use crate::math::scalar::{abs, atan2, floor, sin, sqrt};
use crate::real::{Real, PI};

const ATTRIBUTES: [(&str, Real, &str); 1] =
    [("radius", 0.26, "invalid attribute value for 'radius'")];

/// Registers `mujoco.sdf.bolt` at its fixed slot.
pub fn register() {
    BOLT.register();
}

/// The thread: a triangle wave spun around z, advancing with the azimuth; `radius` is the
/// distance from the thread's cylinder.
pub(crate) fn thread(p: &[Real; 3], radius: Real) -> Real {
    let screw: Real = 12.0;
    let sqrt12 = sqrt(2.0) / 2.0;
    let azimuth = atan2(p[1], p[0]);
    let triangle = abs(fract(p[2] * screw - azimuth / PI / 2.0) - 0.5);
    (radius - triangle / screw) * sqrt12
}

/// The hexagonal head, cut by a cone at the top; `radius` as in [`thread`].
pub(crate) fn head(p: &[Real; 3], radius: Real) -> Real {
    let sqrt12 = sqrt(2.0) / 2.0;
    let k = 6.0 / PI / 2.0;
    let angle = -floor(atan2(p[1], p[0]) * k + 0.5) / k;
    let s = [sin(angle), sin(angle + PI * 0.5)];
    // the first coordinate of the point rotated by `angle`, as MuJoCo's 2x2 mju_mulMatVec
    let x = s[1] * p[0] + -s[0] * p[1];
    let mut head = x - 0.5;
    head = intersection(head, abs(p[2] + 0.25) - 0.25);
    intersection(head, (p[2] + radius - 0.22) * sqrt12)
}

fn distance(p: &[Real; 3], attributes: &[Real]) -> Real {
    let sqrt12 = sqrt(2.0) / 2.0;
    let radius = sqrt(p[0] * p[0] + p[1] * p[1]) - attributes[0];
    let thread = thread(p, radius);

    // clip the top and bottom, then the diagonal chamfer
    let mut bolt = subtraction(thread, 0.5 - abs(p[2] + 0.5));
    let cone = (p[2] - radius) * sqrt12;
    bolt = subtraction(bolt, cone + 1.0 * sqrt12);
    union(bolt, head(p, radius))
}

fn aabb(_attributes: &[Real]) -> [Real; 6] {
    [0.0, 0.0, 0.0, 0.6, 0.6, 1.0]
}

/// The plugin.
pub static BOLT: SdfPlugin = SdfPlugin {
    name: "mujoco.sdf.bolt",
    attributes: &["radius"],
    checked: &["radius"],
    warning: "Invalid parameter specification in Bolt plugin",
    defaults: &ATTRIBUTES,
    distance,
    gradient: None,
    aabb,
};
