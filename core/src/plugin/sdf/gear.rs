//! `mujoco.sdf.gear`: an involute spur gear of pitch `diameter` with `teeth` teeth, rotated by
//! `alpha`, extruded to `thickness`, with a bore of `innerdiameter` (negative: a default from
//! the tooth size) (MuJoCo's `plugin/sdf/gear.cc`, after
//! <https://www.shadertoy.com/view/3lG3WR>); the gradient by forward differences.

use super::{intersection, subtraction, SdfPlugin};
use crate::math::misc::{clip, max, min};
use crate::math::scalar::{abs, acos, atan2, cos, floor, sqrt, tan};
use crate::real::{Real, PI};

const ATTRIBUTES: [(&str, Real, &str); 5] = [
    ("alpha", 0.0, "invalid attribute value for 'alpha'"),
    ("diameter", 2.8, "invalid attribute value for 'diameter'"),
    ("teeth", 25.0, "invalid attribute value for 'teeth'"),
    ("thickness", 0.2, "invalid attribute value for 'thickness'"),
    (
        "innerdiameter",
        -1.0,
        "invalid attribute value for 'innerdiameter'",
    ),
];

/// Registers `mujoco.sdf.gear` at its fixed slot.
pub fn register() {
    GEAR.register();
}

fn smooth_union(a: Real, b: Real, k: Real) -> Real {
    let h = clip(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
    b * (1.0 - h) + a * h - k * h * (1.0 - h)
}

fn smooth_intersection(a: Real, b: Real, k: Real) -> Real {
    subtraction(
        intersection(a, b),
        smooth_union(subtraction(a, b), subtraction(b, a), k),
    )
}

/// A 2-d distance `sdf_2d` extruded along z to half height `h`.
fn extrusion(p: &[Real; 3], sdf_2d: Real, h: Real) -> Real {
    let w = [sdf_2d, abs(p[2]) - h];
    let w_abs = [max(w[0], 0.0), max(w[1], 0.0)];
    min(max(w[0], w[1]), 0.0) + sqrt(w_abs[0] * w_abs[0] + w_abs[1] * w_abs[1])
}

/// `x` modulo `y`, with the sign of `y`.
fn modulo(x: Real, y: Real) -> Real {
    x - y * floor(x / y)
}

/// Distance in the plane of the gear's profile.
fn distance_2d(p: &[Real; 3], attributes: &[Real]) -> Real {
    let d = attributes[1];
    let n = attributes[2];
    let psi = 3.096e-5 * n * n - 6.557e-3 * n + 0.551; // pressure angle
    let alpha = attributes[0];
    let r = d / 2.0;
    let rho = sqrt(p[0] * p[0] + p[1] * p[1]);
    let pd = n / d; // diametral pitch: teeth per unit of diameter
    let circular_pitch = PI / pd;
    let addendum = 1.0 / pd;
    let ro = (d + 2.0 * addendum) / 2.0; // outside radius
    let h = 2.2 / pd;

    let mut inner_r = ro - h - 0.14 * d;
    if attributes[4] >= 0.0 {
        inner_r = attributes[4] / 2.0;
    }
    if inner_r - rho > 0.0 {
        return inner_r - rho;
    }
    if ro - rho < -0.2 {
        return rho - ro;
    }

    let rb = d * cos(psi) / 2.0; // base radius
    let fi = atan2(p[1], p[0]) + alpha;
    let alpha_stride = circular_pitch / r;
    let inv_alpha = acos(rb / r);
    let inv_phi = tan(inv_alpha) - inv_alpha;
    let shift = alpha_stride / 2.0 - 2.0 * inv_phi;
    let fia = modulo(fi + shift / 2.0, alpha_stride) - shift / 2.0;
    let fib = modulo(-fi - shift + shift / 2.0, alpha_stride) - shift / 2.0;

    // distance to the involutes of both flanks
    let mut dista = -1.0e6;
    let mut distb = -1.0e6;
    if rb < rho {
        let acos_rb_rho = acos(rb / rho);
        let ta = sqrt(rho * rho - rb * rb);
        dista = ta - rb * (fia + acos_rb_rho);
        distb = ta - rb * (fib + acos_rb_rho);
    }

    let gear_outer = rho - ro;
    let gear_low_base = rho - (ro - h);
    let crown_base = rho - inner_r;
    let mut cogs = intersection(dista, distb);
    let base_walls = intersection(fia - (alpha_stride - shift), fib - (alpha_stride - shift));
    cogs = intersection(base_walls, cogs);
    cogs = smooth_intersection(gear_outer, cogs, 0.0035 * d);
    cogs = smooth_union(gear_low_base, cogs, rb - ro + h);
    subtraction(cogs, crown_base)
}

fn distance(p: &[Real; 3], attributes: &[Real]) -> Real {
    extrusion(p, distance_2d(p, attributes), attributes[3] / 2.0)
}

fn aabb(a: &[Real]) -> [Real; 6] {
    let xy = a[1] / 2.0 * 1.25;
    [0.0, 0.0, 0.0, xy, xy, a[3] / 2.0 * 1.1]
}

/// The plugin.
pub static GEAR: SdfPlugin = SdfPlugin {
    name: "mujoco.sdf.gear",
    attributes: &["alpha", "diameter", "teeth", "thickness", "innerdiameter"],
    // MuJoCo does not check `thickness` here
    checked: &["alpha", "diameter", "teeth", "innerdiameter"],
    warning: "Invalid parameter specification in Gear plugin",
    defaults: &ATTRIBUTES,
    distance,
    gradient: None,
    aabb,
};
