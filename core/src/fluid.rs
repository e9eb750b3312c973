//! Fluid forces (MuJoCo's fluid models in `engine_passive.c`, "Computation › Fluid forces"):
//! the inertia-box model per body and the ellipsoid model per geom.
//!
//! Each model works in a local frame: the body's inertial frame (inertia box) or the geom's
//! frame (ellipsoid). The pieces are split so that the velocity derivatives (`mjd_passive_vel`)
//! can reuse them:
//! * the local velocity relative to the wind: `body_fluid_velocity`, `geom_fluid_velocity`;
//! * the shape: `inertia_box`, `geom_semi_axes`, and the per-geom coefficients
//!   `FluidCoefs`;
//! * the local force `[torque; force]` from those: `inertia_box_force`, `ellipsoid_force`
//!   (made of `added_mass_forces` and `viscous_forces`);
//! * `fluid` rotates the local forces to the world and maps them to joint space.
//!
//! Every product and sum is evaluated in MuJoCo's order so results round as in the reference.

use crate::arena::{ArenaError, Stack};
use crate::data::Data;
use crate::math::mat::rot_vec_mat;
use crate::math::misc::{max, min};
use crate::math::scalar::{abs, sqrt};
use crate::math::spatial::transform_spatial;
use crate::math::vec::{cross, norm3, sub_from3};
use crate::model::Model;
use crate::real::{Real, MINVAL, PI};
use crate::support::{apply_ft, object_velocity, v3, v9};
use crate::types::*;

/// Adds the fluid forces of every body to `qfrc` (MuJoCo's `mj_fluid` loop): bodies lighter than
/// `MINVAL` feel nothing; a body with any geom whose `geom_fluid[0]` (interaction coefficient)
/// is positive uses the ellipsoid model for all its geoms, the others the inertia-box model.
/// The caller checks that the fluid has density or viscosity.
pub(crate) fn fluid(
    m: &Model,
    d: &Data,
    qfrc: &mut [Real],
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    for body in 1..m.nbody {
        if m.body_mass[body] < MINVAL {
            continue;
        }
        if uses_ellipsoid_model(m, body) {
            ellipsoid_fluid_model(m, d, body, qfrc, stack)?;
        } else {
            inertia_box_fluid_model(m, d, body, qfrc, stack)?;
        }
    }
    Ok(())
}

/// Whether `body` uses the ellipsoid model: one of its geoms has a positive interaction
/// coefficient (`fluidshape="ellipsoid"`), which switches the inertia-box model off for the body.
pub(crate) fn uses_ellipsoid_model(m: &Model, body: usize) -> bool {
    let adr = m.body_geomadr[body].max(0) as usize;
    let num = m.body_geomnum[body] as usize;
    (adr..adr + num).any(|g| m.geom_fluid[NFLUID * g] > 0.0)
}

// ------------------------------------------------------------------------------------------------
// inertia-box model

/// Inertia-box model of one body (`mj_inertiaBoxFluidModel`): drag and viscous resistance of the
/// box with the body's mass and inertia, applied at the body's center of mass.
fn inertia_box_fluid_model(
    m: &Model,
    d: &Data,
    body: usize,
    qfrc: &mut [Real],
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let lvel = body_fluid_velocity(m, d, body);
    let lfrc = inertia_box_force(&lvel, &inertia_box(m, body), m.opt.density, m.opt.viscosity);
    let point = &v3(d.xipos)[body];
    apply_local_force(m, d, &lfrc, &v9(d.ximat)[body], point, body, qfrc, stack)
}

/// Full side lengths of the uniform box with the mass and principal inertia of `body`:
/// `box[i] = sqrt(6 (I_j + I_k - I_i) / mass)`, with the difference kept above `MINVAL`.
pub(crate) fn inertia_box(m: &Model, body: usize) -> [Real; 3] {
    let inertia = &v3(&m.body_inertia)[body];
    let mass = m.body_mass[body];
    let side = |i: usize, j: usize, k: usize| {
        sqrt(max(MINVAL, inertia[j] + inertia[k] - inertia[i]) / mass * 6.0)
    };
    [side(0, 1, 2), side(1, 0, 2), side(2, 0, 1)]
}

/// Velocity `[angular; linear]` of `body`'s center of mass relative to the wind, in the body's
/// inertial frame: the input of the inertia-box model.
pub(crate) fn body_fluid_velocity(m: &Model, d: &Data, body: usize) -> [Real; 6] {
    let lvel = object_velocity(m, d, OBJ_BODY, body, true).unwrap_or([0.0; 6]);
    relative_to_wind(m, d, lvel, body, &v3(d.xipos)[body], &v9(d.ximat)[body])
}

/// Local force `[torque; force]` of the inertia-box model on a box with side lengths `bx`
/// moving with local velocity `lvel` (see [`body_fluid_velocity`]): Stokes drag of the sphere
/// with the box's mean side as diameter when `viscosity > 0`, quadratic drag on the box faces
/// when `density > 0`.
pub(crate) fn inertia_box_force(
    lvel: &[Real; 6],
    bx: &[Real; 3],
    density: Real,
    viscosity: Real,
) -> [Real; 6] {
    let mut lfrc = [0.0; 6];
    if viscosity > 0.0 {
        let diam = (bx[0] + bx[1] + bx[2]) / 3.0;
        let ang = -PI * diam * diam * diam * viscosity;
        let lin = -3.0 * PI * diam * viscosity;
        for k in 0..3 {
            lfrc[k] = lvel[k] * ang;
            lfrc[3 + k] = lvel[3 + k] * lin;
        }
    }
    if density > 0.0 {
        // force on the face normal to axis k: its area is the product of the other two sides
        let (b0, b1, b2) = (bx[0], bx[1], bx[2]);
        lfrc[3] -= 0.5 * density * b1 * b2 * abs(lvel[3]) * lvel[3];
        lfrc[4] -= 0.5 * density * b0 * b2 * abs(lvel[4]) * lvel[4];
        lfrc[5] -= 0.5 * density * b0 * b1 * abs(lvel[5]) * lvel[5];
        // MuJoCo multiplies x x x x left to right here, unlike `pow4`
        let fourth = |x: Real| x * x * x * x;
        lfrc[0] -= density * b0 * (fourth(b1) + fourth(b2)) * abs(lvel[0]) * lvel[0] / 64.0;
        lfrc[1] -= density * b1 * (fourth(b0) + fourth(b2)) * abs(lvel[1]) * lvel[1] / 64.0;
        lfrc[2] -= density * b2 * (fourth(b0) + fourth(b1)) * abs(lvel[2]) * lvel[2] / 64.0;
    }
    lfrc
}

// ------------------------------------------------------------------------------------------------
// ellipsoid model

/// The fluid-interaction coefficients of a geom, MuJoCo's `geom_fluid` row
/// (`readFluidGeomInteraction`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FluidCoefs {
    /// Scales all forces; 1 for `fluidshape="ellipsoid"`, 0 (geom ignored) otherwise.
    pub interaction: Real,
    /// Quadratic drag on the projected area (`fluidcoef[0]`).
    pub blunt_drag: Real,
    /// Quadratic drag on the area not projected, and angular drag of the slender part
    /// (`fluidcoef[1]`).
    pub slender_drag: Real,
    /// Quadratic angular drag (`fluidcoef[2]`).
    pub ang_drag: Real,
    /// Kutta-Joukowski lift (`fluidcoef[3]`).
    pub kutta_lift: Real,
    /// Magnus lift (`fluidcoef[4]`).
    pub magnus_lift: Real,
    /// Virtual (added) mass of the ellipsoid per unit fluid density, along its axes.
    pub virtual_mass: [Real; 3],
    /// Virtual (added) inertia per unit fluid density, about its axes.
    pub virtual_inertia: [Real; 3],
}

impl FluidCoefs {
    /// The coefficients of `geom` (`readFluidGeomInteraction`).
    pub(crate) fn of(m: &Model, geom: usize) -> Self {
        let f = &m.geom_fluid[NFLUID * geom..NFLUID * (geom + 1)];
        FluidCoefs {
            interaction: f[0],
            blunt_drag: f[1],
            slender_drag: f[2],
            ang_drag: f[3],
            kutta_lift: f[4],
            magnus_lift: f[5],
            virtual_mass: [f[6], f[7], f[8]],
            virtual_inertia: [f[9], f[10], f[11]],
        }
    }
}

/// Ellipsoid model of one body (`mj_ellipsoidFluidModel`): every geom with a non-zero
/// interaction coefficient is an ellipsoid feeling added-mass, lift and drag forces, applied at
/// the geom's center.
fn ellipsoid_fluid_model(
    m: &Model,
    d: &Data,
    body: usize,
    qfrc: &mut [Real],
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let adr = m.body_geomadr[body].max(0) as usize;
    for geom in adr..adr + m.body_geomnum[body] as usize {
        let coefs = FluidCoefs::of(m, geom);
        if coefs.interaction == 0.0 {
            continue;
        }
        let lvel = geom_fluid_velocity(m, d, geom);
        let lfrc = ellipsoid_force(
            &lvel,
            m.opt.density,
            m.opt.viscosity,
            &geom_semi_axes(m, geom),
            &coefs,
        );
        let (point, rot) = (&v3(d.geom_xpos)[geom], &v9(d.geom_xmat)[geom]);
        apply_local_force(m, d, &lfrc, rot, point, body, qfrc, stack)?;
    }
    Ok(())
}

/// Semi-axes of the ellipsoid standing for `geom` (`mju_geomSemiAxes`): a sphere's radius three
/// times, a capsule's radius twice and its half-length plus radius, a cylinder's radius twice and
/// its half-length, otherwise the geom's three sizes.
pub(crate) fn geom_semi_axes(m: &Model, geom: usize) -> [Real; 3] {
    let s = &v3(&m.geom_size)[geom];
    match m.geom_type[geom] {
        GEOM_SPHERE => [s[0], s[0], s[0]],
        GEOM_CAPSULE => [s[0], s[0], s[1] + s[0]],
        GEOM_CYLINDER => [s[0], s[0], s[1]],
        _ => *s,
    }
}

/// Velocity `[angular; linear]` of `geom`'s center relative to the wind, in the geom's frame:
/// the input of the ellipsoid model.
pub(crate) fn geom_fluid_velocity(m: &Model, d: &Data, geom: usize) -> [Real; 6] {
    let lvel = object_velocity(m, d, OBJ_GEOM, geom, true).unwrap_or([0.0; 6]);
    let body = m.geom_bodyid[geom] as usize;
    relative_to_wind(
        m,
        d,
        lvel,
        body,
        &v3(d.geom_xpos)[geom],
        &v9(d.geom_xmat)[geom],
    )
}

/// Local force `[torque; force]` of the ellipsoid model on an ellipsoid with semi-axes `size`
/// moving with local velocity `lvel` (see [`geom_fluid_velocity`]): added-mass forces, then lift
/// and drag, all scaled by the interaction coefficient.
pub(crate) fn ellipsoid_force(
    lvel: &[Real; 6],
    density: Real,
    viscosity: Real,
    size: &[Real; 3],
    coefs: &FluidCoefs,
) -> [Real; 6] {
    let mut lfrc = [0.0; 6];
    added_mass_forces(
        lvel,
        None,
        density,
        &coefs.virtual_mass,
        &coefs.virtual_inertia,
        &mut lfrc,
    );
    viscous_forces(lvel, density, viscosity, size, coefs, &mut lfrc);
    for f in &mut lfrc {
        *f *= coefs.interaction;
    }
    lfrc
}

/// Adds the forces of the fluid mass carried along with a body to `lfrc` (`mj_addedMassForces`):
/// gyroscopic terms of the virtual momenta, and `-density * virtual mass * acceleration` when a
/// local acceleration `laccel` is given (MuJoCo's passive forces pass none: it would depend on
/// `qacc`).
pub(crate) fn added_mass_forces(
    lvel: &[Real; 6],
    laccel: Option<&[Real; 6]>,
    density: Real,
    virtual_mass: &[Real; 3],
    virtual_inertia: &[Real; 3],
    lfrc: &mut [Real; 6],
) {
    let (ang, lin) = split(lvel);
    let lin_mom: [Real; 3] = core::array::from_fn(|k| density * virtual_mass[k] * lin[k]);
    let ang_mom: [Real; 3] = core::array::from_fn(|k| density * virtual_inertia[k] * ang[k]);
    if let Some(acc) = laccel {
        for k in 0..3 {
            lfrc[k] -= density * virtual_inertia[k] * acc[k];
            lfrc[3 + k] -= density * virtual_mass[k] * acc[3 + k];
        }
    }
    let force = cross(&lin_mom, &ang);
    let torque_lin = cross(&lin_mom, &lin);
    let torque_ang = cross(&ang_mom, &ang);
    for k in 0..3 {
        lfrc[k] += torque_lin[k];
    }
    for k in 0..3 {
        lfrc[k] += torque_ang[k];
        lfrc[3 + k] += force[k];
    }
}

/// `x⁴`, evaluated as `(x x)(x x)` like MuJoCo's `mji_pow4`.
#[inline]
fn pow4(x: Real) -> Real {
    (x * x) * (x * x)
}

#[inline]
fn pow2(x: Real) -> Real {
    x * x
}

/// Largest moment of inertia (per unit density, up to the axis factor) of the ellipsoid with
/// semi-axes `size` about axis `dir`: `8/15 π size[dir] max(other sizes)⁴`.
pub(crate) fn ellipsoid_max_moment(size: &[Real; 3], dir: usize) -> Real {
    let d0 = size[dir];
    let d1 = size[(dir + 1) % 3];
    let d2 = size[(dir + 2) % 3];
    8.0 / 15.0 * PI * d0 * pow4(max(d1, d2))
}

/// Area of the ellipsoid with semi-axes `size` projected along `lin` (`A_proj`), and
/// `cos_alpha` of `mj_viscousForces`: the cosine between `lin` and the normal of that
/// cross-section, divided by the length of the non-unit normal
/// `[(s1 s2)² v0, (s2 s0)² v1, (s0 s1)² v2]` that the Kutta-Joukowski lift multiplies it with.
pub(crate) fn projected_area(size: &[Real; 3], lin: &[Real; 3]) -> (Real, Real) {
    let denom = pow4(size[1] * size[2]) * pow2(lin[0])
        + pow4(size[2] * size[0]) * pow2(lin[1])
        + pow4(size[0] * size[1]) * pow2(lin[2]);
    let num = pow2(size[1] * size[2] * lin[0])
        + pow2(size[2] * size[0] * lin[1])
        + pow2(size[0] * size[1] * lin[2]);
    let area = PI * sqrt(denom / max(MINVAL, num));
    // the normal's length is sqrt(denom): dividing by denom, not sqrt(denom), folds it in
    let cos_alpha = num / max(MINVAL, norm3(lin) * denom);
    (area, cos_alpha)
}

/// Adds lift and drag of the ellipsoid with semi-axes `size` moving with local velocity `lvel`
/// to `lfrc` (`mj_viscousForces`): Magnus and Kutta-Joukowski lift, linear (Stokes) plus
/// quadratic drag, linear plus quadratic angular drag.
pub(crate) fn viscous_forces(
    lvel: &[Real; 6],
    density: Real,
    viscosity: Real,
    size: &[Real; 3],
    coefs: &FluidCoefs,
    lfrc: &mut [Real; 6],
) {
    let (ang, lin) = split(lvel);
    let volume = 4.0 / 3.0 * PI * size[0] * size[1] * size[2];
    let d_max = max(max(size[0], size[1]), size[2]);
    let d_min = min(min(size[0], size[1]), size[2]);
    let d_mid = size[0] + size[1] + size[2] - d_max - d_min;
    let a_max = PI * d_max * d_mid;

    let magnus_scale = coefs.magnus_lift * density * volume;
    let magnus = cross(&ang, &lin).map(|x| x * magnus_scale);

    let (a_proj, cos_alpha) = projected_area(size, &lin);
    let normal = [
        pow2(size[1] * size[2]) * lin[0],
        pow2(size[2] * size[0]) * lin[1],
        pow2(size[0] * size[1]) * lin[2],
    ];
    let kutta_scale = coefs.kutta_lift * density * cos_alpha * a_proj;
    let circulation = cross(&normal, &lin).map(|x| x * kutta_scale);
    let kutta = cross(&circulation, &lin);

    // Stokes flow around the sphere of the same mean diameter
    let eq_sphere_d = 2.0 / 3.0 * (size[0] + size[1] + size[2]);
    let lin_visc_force_coef = 3.0 * PI * eq_sphere_d;
    let lin_visc_torq_coef = PI * eq_sphere_d * eq_sphere_d * eq_sphere_d;

    let i_max = 8.0 / 15.0 * PI * d_mid * pow4(d_max);
    let mom_visc: [Real; 3] = core::array::from_fn(|k| {
        let ii = ellipsoid_max_moment(size, k);
        ang[k] * (coefs.ang_drag * ii + coefs.slender_drag * (i_max - ii))
    });

    let drag_lin = viscosity * lin_visc_force_coef
        + density
            * norm3(&lin)
            * (a_proj * coefs.blunt_drag + coefs.slender_drag * (a_max - a_proj));
    let drag_ang = viscosity * lin_visc_torq_coef + density * norm3(&mom_visc);

    for k in 0..3 {
        lfrc[k] -= drag_ang * ang[k];
        lfrc[3 + k] += magnus[k] + kutta[k] - drag_lin * lin[k];
    }
}

// ------------------------------------------------------------------------------------------------
// shared pieces

/// The angular and linear halves of a spatial vector.
fn split(v: &[Real; 6]) -> ([Real; 3], [Real; 3]) {
    ([v[0], v[1], v[2]], [v[3], v[4], v[5]])
}

/// `lvel` (local velocity of a frame at `pos` with orientation `rot`, on `body`) minus the wind
/// expressed in that frame. The wind is a uniform translation, so only the linear part changes.
fn relative_to_wind(
    m: &Model,
    d: &Data,
    mut lvel: [Real; 6],
    body: usize,
    pos: &[Real; 3],
    rot: &[Real; 9],
) -> [Real; 6] {
    let w = m.opt.wind;
    let wind = [0.0, 0.0, 0.0, w[0], w[1], w[2]];
    let com = &v3(d.subtree_com)[m.body_rootid[body] as usize];
    let lwind = transform_spatial(&wind, false, pos, com, Some(rot));
    let mut lin = [lvel[3], lvel[4], lvel[5]];
    sub_from3(&mut lin, &[lwind[3], lwind[4], lwind[5]]);
    lvel[3..].copy_from_slice(&lin);
    lvel
}

/// Rotates a local `[torque; force]` by `rot` to the world and adds its generalized force,
/// applied at `point` on `body`, to `qfrc`.
#[allow(clippy::too_many_arguments)]
fn apply_local_force(
    m: &Model,
    d: &Data,
    lfrc: &[Real; 6],
    rot: &[Real; 9],
    point: &[Real; 3],
    body: usize,
    qfrc: &mut [Real],
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let (ltorque, lforce) = split(lfrc);
    let torque = rot_vec_mat(&ltorque, rot);
    let force = rot_vec_mat(&lforce, rot);
    apply_ft(m, d, Some(&force), Some(&torque), point, body, qfrc, stack)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Real, b: Real) -> bool {
        (a - b).abs() <= 1e3 * crate::real::EPSILON * b.abs().max(1.0)
    }

    const NO_LIFT: FluidCoefs = FluidCoefs {
        interaction: 1.0,
        blunt_drag: 0.5,
        slender_drag: 0.25,
        ang_drag: 1.5,
        kutta_lift: 0.0,
        magnus_lift: 0.0,
        virtual_mass: [0.0; 3],
        virtual_inertia: [0.0; 3],
    };

    #[test]
    fn ellipsoid_sphere_in_viscous_fluid_obeys_stokes_law() {
        // drag 6 pi mu r v, torque 8 pi mu r^3 w
        let (r, mu) = (0.1, 0.02);
        let lvel = [0.3, -0.2, 0.1, 1.0, -2.0, 0.5];
        let f = ellipsoid_force(&lvel, 0.0, mu, &[r; 3], &NO_LIFT);
        for k in 0..3 {
            assert!(close(f[k], -8.0 * PI * mu * r * r * r * lvel[k]));
            assert!(close(f[3 + k], -6.0 * PI * mu * r * lvel[3 + k]));
        }
    }

    #[test]
    fn sphere_quadratic_drag_uses_the_cross_section() {
        // a sphere's projection is a disk of area pi r^2 in every direction
        let r = 0.2;
        let lin = [0.3, -1.2, 0.7];
        let (area, cos_alpha) = projected_area(&[r; 3], &lin);
        assert!(close(area, PI * r * r));
        // velocity along the normal; the non-unit normal has length r^4 |v|
        assert!(close(cos_alpha * r * r * r * r * norm3(&lin), 1.0));
        let lvel = [0.0, 0.0, 0.0, lin[0], lin[1], lin[2]];
        let density = 1000.0;
        let f = ellipsoid_force(&lvel, density, 0.0, &[r; 3], &NO_LIFT);
        let speed = norm3(&lin);
        for k in 0..3 {
            let drag = density * speed * PI * r * r * NO_LIFT.blunt_drag * lin[k];
            assert!(close(f[3 + k], -drag));
        }
    }

    #[test]
    fn interaction_coefficient_scales_everything() {
        let lvel = [0.3, -0.2, 0.1, 1.0, -2.0, 0.5];
        let size = [0.1, 0.05, 0.02];
        let full = FluidCoefs {
            kutta_lift: 1.0,
            magnus_lift: 1.0,
            virtual_mass: [0.1, 0.2, 0.3],
            virtual_inertia: [0.01, 0.02, 0.03],
            ..NO_LIFT
        };
        let half = FluidCoefs {
            interaction: 0.5,
            ..full
        };
        let a = ellipsoid_force(&lvel, 1.2, 1e-5, &size, &full);
        let b = ellipsoid_force(&lvel, 1.2, 1e-5, &size, &half);
        for k in 0..6 {
            assert!(close(b[k], 0.5 * a[k]));
        }
    }

    #[test]
    fn inertia_box_drag_opposes_motion_and_vanishes_at_rest() {
        let bx = [0.2, 0.1, 0.05];
        assert_eq!(inertia_box_force(&[0.0; 6], &bx, 1000.0, 0.1), [0.0; 6]);
        let lvel = [0.3, -0.2, 0.1, 1.0, -2.0, 0.5];
        let f = inertia_box_force(&lvel, &bx, 1000.0, 0.1);
        for k in 0..6 {
            assert!(f[k] * lvel[k] < 0.0);
        }
        // the linear Stokes part of a cube: 3 pi mu d v with d the side
        let f = inertia_box_force(&lvel, &[0.1; 3], 0.0, 0.1);
        assert!(close(f[3], -3.0 * PI * 0.1 * 0.1 * lvel[3]));
    }
}
