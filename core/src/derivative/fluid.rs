//! Velocity derivatives of the fluid forces (MuJoCo's `mjd_ellipsoidFluid`,
//! `mjd_inertiaBoxFluid` and their helpers in `engine_derivative.c`;
//! "Computation › Fluid forces").
//!
//! Each model gives the derivative `B` of its local force `[torque; force]` with respect to the
//! local velocity `[angular; linear]`, and `qDeriv += Jᵀ B J` with `J` the body's (or geom's)
//! Jacobian rotated into the local frame.
//!
//! MuJoCo uses compressed Jacobian rows when `mj_isSparse`; mjrs always uses dense rows. The
//! values of `J` are the same either way, and the dense form only adds zero products on top, so
//! `qDeriv` comes out identical.

use super::{add_jtbj, DofPattern, JacRow};
use crate::arena::{ArenaError, Stack};
use crate::data::Data;
use crate::fluid::{
    body_fluid_velocity, ellipsoid_max_moment, geom_fluid_velocity, geom_semi_axes, inertia_box,
    uses_ellipsoid_model, FluidCoefs,
};
use crate::math::mat::{mul_mat_t_mat, symmetrize_in_place};
use crate::math::misc::{max, min};
use crate::math::scalar::{abs, sqrt};
use crate::math::vec::norm3;
use crate::model::Model;
use crate::real::{Real, MINVAL, PI};
use crate::support::{body_chain, is_sparse, jac, jac_sparse, jac_sparse_rot, v3, v9};
use crate::types::INT_IMPLICITFAST;

/// Adds the fluid-force derivatives of every body heavier than `mjMINVAL` to `qDeriv`, with the
/// body's model (the loop of `mjd_passive_vel`).
pub(super) fn fluid_vel(m: &Model, d: &mut Data) -> Result<(), ArenaError> {
    d.with_stack(|d, stack| {
        for body in 1..m.nbody {
            if m.body_mass[body] < MINVAL {
                continue;
            }
            if uses_ellipsoid_model(m, body) {
                ellipsoid_fluid_vel(m, d, body, stack)?;
            } else {
                inertia_box_fluid_vel(m, d, body, stack)?;
            }
        }
        Ok(())
    })
}

/// The Jacobian of `body` at `point`, `[rotation; translation]`, rotated into the frame `rot`
/// (its rows become local axes), in `j`: over all `nv` dofs, or over the body's dof chain
/// (written to `chain`) when Jacobians are sparse (`mj_isSparse`), as MuJoCo's fluid
/// derivatives take them. Returns the number of columns `n` (`j` holds `6 n` values, `tmp` is
/// scratch of `3 n`).
fn local_jacobian(
    m: &Model,
    d: &Data,
    (body, point): (usize, &[Real; 3]),
    rot: &[Real; 9],
    j: &mut [Real],
    tmp: &mut [Real],
    chain: &mut [i32],
) -> usize {
    let n = if is_sparse(m) {
        let n = body_chain(m, body, chain);
        let (jacr, jacp) = j.split_at_mut(3 * n);
        jac_sparse(m, d, jacp, point, body, &chain[..n]);
        jac_sparse_rot(m, d, jacr, body, &chain[..n]);
        n
    } else {
        let (jacr, jacp) = j.split_at_mut(3 * m.nv);
        jac(m, d, Some(jacp), Some(jacr), point, body);
        m.nv
    };
    for half in [0..3 * n, 3 * n..6 * n] {
        mul_mat_t_mat(tmp, rot, &j[half.clone()], 3, 3, n);
        j[half].copy_from_slice(&tmp[..3 * n]);
    }
    n
}

/// The six rows of a local Jacobian of `n` columns: dense, or over the dofs of `chain`.
fn jac_rows<'a>(m: &Model, n: usize, j: &'a [Real], chain: &'a [i32]) -> [JacRow<'a>; 6] {
    core::array::from_fn(|r| JacRow {
        val: &j[r * n..(r + 1) * n],
        col: is_sparse(m).then(|| &chain[..n]),
    })
}

/// Scratch of a body's fluid derivatives: the Jacobian (6 nv), its rotation's (3 nv), the chain.
type Scratch<'s> = (&'s mut [Real], &'s mut [Real], &'s mut [i32]);

/// Allocates the [`Scratch`] of a body's fluid derivatives.
fn scratch<'s>(frame: &mut Stack<'s>, nv: usize) -> Result<Scratch<'s>, ArenaError> {
    Ok((
        frame.alloc::<Real>(6 * nv)?,
        frame.alloc::<Real>(3 * nv)?,
        frame.alloc::<i32>(nv)?,
    ))
}

// ------------------------------------------------------------------------------------------------
// ellipsoid model

/// Ellipsoid-model derivatives of the geoms of `body` (`mjd_ellipsoidFluid`); with
/// `implicitfast` each geom's `B` is symmetrized first.
fn ellipsoid_fluid_vel(
    m: &Model,
    d: &mut Data,
    body: usize,
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let mut frame = stack.frame();
    let (j, tmp, chain) = scratch(&mut frame, m.nv)?;
    let adr = m.body_geomadr[body].max(0) as usize;
    for geom in adr..adr + m.body_geomnum[body] as usize {
        let coefs = FluidCoefs::of(m, geom);
        if coefs.interaction == 0.0 {
            continue;
        }
        let lvel = geom_fluid_velocity(m, d, geom);
        let at = (body, &v3(d.geom_xpos)[geom]);
        let n = local_jacobian(m, d, at, &v9(d.geom_xmat)[geom], j, tmp, chain);

        let mut b = ellipsoid_b(
            &lvel,
            m.opt.density,
            m.opt.viscosity,
            &geom_semi_axes(m, geom),
            &coefs,
        );
        if m.opt.integrator == INT_IMPLICITFAST {
            symmetrize_in_place(&mut b, 6);
        }
        let pat = dof_pattern!(d);
        add_jtbj(d.qDeriv, pat, &jac_rows(m, n, j, chain), &b);
    }
    Ok(())
}

/// `d lfrc / d lvel` of the ellipsoid model for one geom, in MuJoCo's order of terms: Magnus
/// lift, Kutta lift, drag, angular drag, added mass.
fn ellipsoid_b(
    lvel: &[Real; 6],
    density: Real,
    viscosity: Real,
    size: &[Real; 3],
    coefs: &FluidCoefs,
) -> [Real; 36] {
    let mut b = [0.0; 36];
    magnus_force_vel(&mut b, lvel, density, size, coefs.magnus_lift);
    let kutta = kutta_lift_vel(lvel, density, size, coefs.kutta_lift);
    add_to_quadrant(&mut b, &kutta, 1, 1);
    let drag = viscous_drag_vel(
        lvel,
        density,
        viscosity,
        size,
        coefs.blunt_drag,
        coefs.slender_drag,
    );
    add_to_quadrant(&mut b, &drag, 1, 1);
    let torque = viscous_torque_vel(
        lvel,
        density,
        viscosity,
        size,
        coefs.slender_drag,
        coefs.ang_drag,
    );
    add_to_quadrant(&mut b, &torque, 0, 0);
    added_mass_forces_vel(
        &mut b,
        lvel,
        density,
        &coefs.virtual_mass,
        &coefs.virtual_inertia,
    );
    b
}

/// Derivatives of `a × b` with respect to `a` and to `b` (`mjd_cross`), row-major 3×3.
fn d_cross(a: &[Real; 3], b: &[Real; 3]) -> ([Real; 9], [Real; 9]) {
    let da = [0.0, b[2], -b[1], -b[2], 0.0, b[0], b[1], -b[0], 0.0];
    let db = [0.0, -a[2], a[1], a[2], 0.0, -a[0], -a[1], a[0], 0.0];
    (da, db)
}

/// Adds the 3×3 `d` to a quadrant of the 6×6 `b` (`addToQuadrant`). MuJoCo stores `d`'s rows
/// as columns of `b`: element `(i, k)` of `d` goes to row `3 col_quad + i`, column
/// `3 row_quad + k`.
fn add_to_quadrant(b: &mut [Real; 36], d: &[Real; 9], col_quad: usize, row_quad: usize) {
    let (r, c) = (3 * row_quad, 3 * col_quad);
    for i in 0..3 {
        for k in 0..3 {
            b[6 * (c + i) + r + k] += d[3 * i + k];
        }
    }
}

/// Derivative of the added-mass (gyroscopic) forces (`mjd_addedMassForces`).
fn added_mass_forces_vel(
    b: &mut [Real; 36],
    lvel: &[Real; 6],
    density: Real,
    virtual_mass: &[Real; 3],
    virtual_inertia: &[Real; 3],
) {
    let ang = [lvel[0], lvel[1], lvel[2]];
    let lin = [lvel[3], lvel[4], lvel[5]];
    let lin_mom: [Real; 3] = core::array::from_fn(|k| density * virtual_mass[k] * lin[k]);
    let ang_mom: [Real; 3] = core::array::from_fn(|k| density * virtual_inertia[k] * ang[k]);
    // the momentum depends on the velocity through the virtual mass or inertia
    let through = |mut da: [Real; 9], w: &[Real; 3]| {
        for (i, x) in da.iter_mut().enumerate() {
            *x *= density * w[i % 3];
        }
        da
    };

    // torque += ang_mom × ang
    let (da, db) = d_cross(&ang_mom, &ang);
    add_to_quadrant(b, &db, 0, 0);
    add_to_quadrant(b, &through(da, virtual_inertia), 0, 0);
    // torque += lin_mom × lin
    let (da, db) = d_cross(&lin_mom, &lin);
    add_to_quadrant(b, &db, 0, 1);
    add_to_quadrant(b, &through(da, virtual_mass), 0, 1);
    // force += lin_mom × ang
    let (da, db) = d_cross(&lin_mom, &ang);
    add_to_quadrant(b, &db, 1, 0);
    add_to_quadrant(b, &through(da, virtual_mass), 1, 1);
}

/// `res[..3] += vec * scl` (`mju_addToScl3`).
fn add_to_scl3(res: &mut [Real], vec: &[Real; 3], scl: Real) {
    for k in 0..3 {
        res[k] += vec[k] * scl;
    }
}

/// Smallest, middle and largest semi-axis, MuJoCo's `d_min`, `d_mid`, `d_max`.
fn sorted_axes(size: &[Real; 3]) -> (Real, Real, Real) {
    let d_max = max(max(size[0], size[1]), size[2]);
    let d_min = min(min(size[0], size[1]), size[2]);
    let d_mid = size[0] + size[1] + size[2] - d_max - d_min;
    (d_min, d_mid, d_max)
}

/// Derivative of the angular drag with respect to the angular velocity (`mjd_viscous_torque`).
fn viscous_torque_vel(
    lvel: &[Real; 6],
    density: Real,
    viscosity: Real,
    size: &[Real; 3],
    slender_drag: Real,
    ang_drag: Real,
) -> [Real; 9] {
    let (_, d_mid, d_max) = sorted_axes(size);
    let eq_sphere_d = 2.0 / 3.0 * (size[0] + size[1] + size[2]);
    let lin_visc_torq_coef = PI * eq_sphere_d * eq_sphere_d * eq_sphere_d;
    let i_max = 8.0 / 15.0 * PI * d_mid * (d_max * d_max) * (d_max * d_max);
    let ii: [Real; 3] = core::array::from_fn(|k| ellipsoid_max_moment(size, k));
    let w = [lvel[0], lvel[1], lvel[2]];
    let mom_coef: [Real; 3] =
        core::array::from_fn(|k| ang_drag * ii[k] + slender_drag * (i_max - ii[k]));
    let mom_visc: [Real; 3] = core::array::from_fn(|k| w[k] * mom_coef[k]);
    let dens = density / max(MINVAL, norm3(&mom_visc));
    let mom_sq: [Real; 3] = core::array::from_fn(|k| -dens * w[k] * mom_coef[k] * mom_coef[k]);
    let lin_coef = viscosity * lin_visc_torq_coef;

    let mut d = [0.0; 9];
    let diag = w[0] * mom_sq[0] + w[1] * mom_sq[1] + w[2] * mom_sq[2] - lin_coef;
    d[0] = diag;
    d[4] = diag;
    d[8] = diag;
    for r in 0..3 {
        add_to_scl3(&mut d[3 * r..3 * r + 3], &mom_sq, w[r]);
    }
    d
}

/// The squared products of semi-axis pairs `a = (s1 s2)²`, `b = (s2 s0)²`, `c = (s0 s1)²`,
/// which weigh the projected area of the ellipsoid.
fn area_weights(size: &[Real; 3]) -> [Real; 3] {
    let pow2 = |x: Real| x * x;
    [
        pow2(size[1] * size[2]),
        pow2(size[2] * size[0]),
        pow2(size[0] * size[1]),
    ]
}

/// Derivative of the linear and quadratic drag with respect to the linear velocity
/// (`mjd_viscous_drag`).
fn viscous_drag_vel(
    lvel: &[Real; 6],
    density: Real,
    viscosity: Real,
    size: &[Real; 3],
    blunt_drag: Real,
    slender_drag: Real,
) -> [Real; 9] {
    let (_, d_mid, d_max) = sorted_axes(size);
    let eq_sphere_d = 2.0 / 3.0 * (size[0] + size[1] + size[2]);
    let a_max = PI * d_max * d_mid;
    let [a, b, c] = area_weights(size);
    let (aa, bb, cc) = (a * a, b * b, c * c);
    let (x, y, z) = (lvel[3], lvel[4], lvel[5]);
    let (xx, yy, zz, xy, yz, xz) = (x * x, y * y, z * z, x * y, y * z, x * z);

    let proj_denom = aa * xx + bb * yy + cc * zz;
    let proj_num = a * xx + b * yy + c * zz;
    let da_coef = PI / max(MINVAL, sqrt(proj_num * proj_num * proj_num * proj_denom));
    let a_proj = PI * sqrt(proj_denom / max(MINVAL, proj_num));
    let norm = sqrt(xx + yy + zz);
    let inv_norm = 1.0 / max(MINVAL, norm);

    let lin_coef = viscosity * 3.0 * PI * eq_sphere_d;
    let quad_coef = density * (a_proj * blunt_drag + slender_drag * (a_max - a_proj));
    let aproj_coef = density * norm * (blunt_drag - slender_drag);
    let daproj_dv = [
        aproj_coef * da_coef * a * x * (b * yy * (a - b) + c * zz * (a - c)),
        aproj_coef * da_coef * b * y * (a * xx * (b - a) + c * zz * (b - c)),
        aproj_coef * da_coef * c * z * (a * xx * (c - a) + b * yy * (c - b)),
    ];

    // (v vᵀ + |v|² I) scaled, then the change of the projected area, then Stokes drag
    let inner = xx + yy + zz;
    let mut d = [xx + inner, xy, xz, xy, yy + inner, yz, xz, yz, zz + inner];
    let scl = -quad_coef * inv_norm;
    for e in &mut d {
        *e *= scl;
    }
    for (r, v) in [x, y, z].into_iter().enumerate() {
        add_to_scl3(&mut d[3 * r..3 * r + 3], &daproj_dv, -v);
    }
    d[0] -= lin_coef;
    d[4] -= lin_coef;
    d[8] -= lin_coef;
    d
}

/// Derivative of the Kutta-Joukowski lift with respect to the linear velocity
/// (`mjd_kutta_lift`).
fn kutta_lift_vel(
    lvel: &[Real; 6],
    density: Real,
    size: &[Real; 3],
    kutta_lift: Real,
) -> [Real; 9] {
    let [a, b, c] = area_weights(size);
    let (aa, bb, cc) = (a * a, b * b, c * c);
    let (x, y, z) = (lvel[3], lvel[4], lvel[5]);
    let (xx, yy, zz, xy, yz, xz) = (x * x, y * y, z * z, x * y, y * z, x * z);

    let proj_denom = aa * xx + bb * yy + cc * zz;
    let proj_num = a * xx + b * yy + c * zz;
    let norm2 = xx + yy + zz;
    let df_denom = PI * kutta_lift * density / max(MINVAL, sqrt(proj_denom * proj_num * norm2));
    let dfx_coef = yy * (a - b) + zz * (a - c);
    let dfy_coef = xx * (b - a) + zz * (b - c);
    let dfz_coef = xx * (c - a) + yy * (c - b);
    let proj_term = proj_num / max(MINVAL, proj_denom);
    let cos_term = proj_num / max(MINVAL, norm2);

    // element (i, j) is w[j] - w[i] for w = (a, b, c): zero on the diagonal
    let mut d = [0.0, b - a, c - a, a - b, 0.0, c - b, a - c, b - c, 0.0];
    let twice_num = 2.0 * proj_num;
    for e in &mut d {
        *e *= twice_num;
    }
    let inner_term = [
        aa * proj_term - a + cos_term,
        bb * proj_term - b + cos_term,
        cc * proj_term - c + cos_term,
    ];
    for (r, coef) in [dfx_coef, dfy_coef, dfz_coef].into_iter().enumerate() {
        add_to_scl3(&mut d[3 * r..3 * r + 3], &inner_term, coef);
    }
    let outer = [xx, xy, xz, xy, yy, yz, xz, yz, zz];
    for (e, o) in d.iter_mut().zip(outer) {
        *e *= o;
    }
    d[0] -= dfx_coef * proj_num;
    d[4] -= dfy_coef * proj_num;
    d[8] -= dfz_coef * proj_num;
    for e in &mut d {
        *e *= df_denom;
    }
    d
}

/// Derivative of the Magnus force with respect to both velocities (`mjd_magnus_force`).
fn magnus_force_vel(
    b: &mut [Real; 36],
    lvel: &[Real; 6],
    density: Real,
    size: &[Real; 3],
    magnus_lift: Real,
) {
    let volume = 4.0 / 3.0 * PI * size[0] * size[1] * size[2];
    let magnus_coef = magnus_lift * density * volume;
    let lin = [
        magnus_coef * lvel[3],
        magnus_coef * lvel[4],
        magnus_coef * lvel[5],
    ];
    let ang = [
        magnus_coef * lvel[0],
        magnus_coef * lvel[1],
        magnus_coef * lvel[2],
    ];
    let (d_ang, d_lin) = d_cross(&ang, &lin);
    add_to_quadrant(b, &d_ang, 1, 0);
    add_to_quadrant(b, &d_lin, 1, 1);
}

// ------------------------------------------------------------------------------------------------
// inertia-box model

/// Inertia-box-model derivatives of `body` (`mjd_inertiaBoxFluid`): the model's forces are
/// diagonal in the local velocity, so each local axis adds `B_k J_k J_kᵀ`, viscous terms first
/// (all six axes), then the quadratic drag terms.
fn inertia_box_fluid_vel(
    m: &Model,
    d: &mut Data,
    body: usize,
    stack: &mut Stack,
) -> Result<(), ArenaError> {
    let mut frame = stack.frame();
    let (j, tmp, chain) = scratch(&mut frame, m.nv)?;
    let bx = inertia_box(m, body);
    let lvel = body_fluid_velocity(m, d, body);
    let at = (body, &v3(d.xipos)[body]);
    let n = local_jacobian(m, d, at, &v9(d.ximat)[body], j, tmp, chain);

    let rows = jac_rows(m, n, j, chain);
    let pat = dof_pattern!(d);
    let (density, viscosity) = (m.opt.density, m.opt.viscosity);
    if viscosity > 0.0 {
        let diam = (bx[0] + bx[1] + bx[2]) / 3.0;
        let ang = -PI * diam * diam * diam * viscosity;
        let lin = -3.0 * PI * diam * viscosity;
        for (k, b) in [ang, ang, ang, lin, lin, lin].into_iter().enumerate() {
            add_jtbj(d.qDeriv, pat, &rows[k..k + 1], &[b]);
        }
    }
    if density > 0.0 {
        for (k, b) in box_drag_slopes(&bx, &lvel, density).into_iter().enumerate() {
            add_jtbj(d.qDeriv, pat, &rows[k..k + 1], &[b]);
        }
    }
    Ok(())
}

/// Slopes of the quadratic drag of the inertia box along each local axis: the derivative of
/// `-coef |v| v` is `-2 coef |v|`, with the products in MuJoCo's order.
fn box_drag_slopes(bx: &[Real; 3], lvel: &[Real; 6], density: Real) -> [Real; 6] {
    let fourth = |x: Real| x * x * x * x;
    let [b0, b1, b2] = *bx;
    [
        -density * b0 * (fourth(b1) + fourth(b2)) * 2.0 * abs(lvel[0]) / 64.0,
        -density * b1 * (fourth(b0) + fourth(b2)) * 2.0 * abs(lvel[1]) / 64.0,
        -density * b2 * (fourth(b0) + fourth(b1)) * 2.0 * abs(lvel[2]) / 64.0,
        -0.5 * density * b1 * b2 * 2.0 * abs(lvel[3]),
        -0.5 * density * b0 * b2 * 2.0 * abs(lvel[4]),
        -0.5 * density * b0 * b1 * 2.0 * abs(lvel[5]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fluid::{ellipsoid_force, inertia_box_force};

    /// Finite-difference step and tolerance for the precision of `Real`: the cube root of
    /// epsilon balances truncation and rounding errors of central differences.
    const STEP: Real = if crate::real::REAL_BYTES == 8 {
        1e-6
    } else {
        1e-2
    };
    const TOL: Real = if crate::real::REAL_BYTES == 8 {
        1e-6
    } else {
        2e-2
    };

    /// Central finite difference of `f` with respect to `lvel`, as a 6×6 matrix laid out like
    /// `B`: row = force component, column = velocity component.
    fn finite_difference(f: impl Fn(&[Real; 6]) -> [Real; 6], lvel: &[Real; 6]) -> [Real; 36] {
        let h = STEP;
        let mut b = [0.0; 36];
        for v in 0..6 {
            let (mut up, mut down) = (*lvel, *lvel);
            up[v] += h;
            down[v] -= h;
            let (fu, fd) = (f(&up), f(&down));
            for k in 0..6 {
                b[6 * k + v] = (fu[k] - fd[k]) / (2.0 * h);
            }
        }
        b
    }

    #[test]
    fn ellipsoid_derivative_matches_finite_difference() {
        let coefs = FluidCoefs {
            interaction: 1.0,
            blunt_drag: 0.5,
            slender_drag: 0.25,
            ang_drag: 1.5,
            kutta_lift: 1.0,
            magnus_lift: 1.0,
            virtual_mass: [0.1, 0.2, 0.3],
            virtual_inertia: [0.01, 0.02, 0.03],
        };
        let size = [0.2, 0.1, 0.05];
        let lvel = [0.3, -0.2, 0.1, 1.0, -2.0, 0.5];
        let (density, viscosity) = (1.2, 0.01);
        let b = ellipsoid_b(&lvel, density, viscosity, &size, &coefs);
        let fd = finite_difference(
            |v| ellipsoid_force(v, density, viscosity, &size, &coefs),
            &lvel,
        );
        for (x, y) in b.iter().zip(&fd) {
            assert!((x - y).abs() <= TOL * y.abs().max(1.0), "{b:?}\n{fd:?}");
        }
    }

    #[test]
    fn box_slopes_match_finite_difference() {
        let bx = [0.2, 0.1, 0.05];
        let lvel = [0.3, -0.2, 0.1, 1.0, -2.0, 0.5];
        let slopes = box_drag_slopes(&bx, &lvel, 1000.0);
        let fd = finite_difference(|v| inertia_box_force(v, &bx, 1000.0, 0.0), &lvel);
        for k in 0..6 {
            assert!((slopes[k] - fd[7 * k]).abs() <= TOL * slopes[k].abs().max(1.0));
        }
    }
}
