//! Spatial tendons in the scene: capsules along the wrap path, or, for a slack two-site
//! tendon under gravity with a length limit or a deadband spring, along its hanging catenary
//! (MuJoCo's tendon drawing in `mjv_addGeoms` and `mjv_catenary`).

use super::geom::{connector, group, island_color, set_material, start_geom};
use super::{Scene, VisOption, CAT_DYNAMIC};
use mjrs_core::math::scalar;
use mjrs_core::math::vec::{dot3, norm3, normalize3};
use mjrs_core::types::{DSBL_GRAVITY, GEOM_CAPSULE, OBJ_TENDON};
use mjrs_core::{Data, Model, Real};

/// Points of a drawn catenary (`mjNCATENARY`).
pub const NCATENARY: usize = 31;

/// Adds the capsules of every shown spatial tendon; `false` when the scene is full.
pub(super) fn add_tendons(m: &Model, d: &mut Data, opt: &VisOption, scn: &mut Scene) -> bool {
    for i in 0..m.ntendon {
        if opt.tendongroup[group(m.tendon_group[i])] == 0 {
            continue;
        }
        let points = match hanging_length(m, d, i) {
            Some(length) => {
                let adr = 3 * d.ten_wrapadr[i] as usize;
                let x0 = [d.wrap_xpos[adr], d.wrap_xpos[adr + 1], d.wrap_xpos[adr + 2]];
                let x1 = [
                    d.wrap_xpos[adr + 3],
                    d.wrap_xpos[adr + 4],
                    d.wrap_xpos[adr + 5],
                ];
                let mut out = [[0.0; 3]; NCATENARY];
                let n = catenary(&x0, &x1, &m.opt.gravity, length, &mut out);
                for j in 0..n.saturating_sub(1) {
                    // MuJoCo labels every catenary segment (its test `npoints/2` is always true)
                    let w = m.tendon_width[i];
                    if !segment(m, d, opt, scn, (i, true), w, &out[j], &out[j + 1]) {
                        return false;
                    }
                }
                continue;
            }
            None => (d.ten_wrapadr[i] as usize, d.ten_wrapnum[i] as usize),
        };
        let (adr, num) = points;
        for j in adr..(adr + num).saturating_sub(1) {
            let (o0, o1) = (d.wrap_obj[j], d.wrap_obj[j + 1]);
            if o0 == -2 || o1 == -2 {
                continue; // a pulley divides the tendon into branches
            }
            // segments inside a wrapping object are thinner
            let width = if o0 >= 0 && o1 >= 0 {
                0.5 * m.tendon_width[i]
            } else {
                m.tendon_width[i]
            };
            let p = |k: usize| {
                [
                    d.wrap_xpos[3 * k],
                    d.wrap_xpos[3 * k + 1],
                    d.wrap_xpos[3 * k + 2],
                ]
            };
            if !segment(m, d, opt, scn, (i, j == adr), width, &p(j), &p(j + 1)) {
                return false;
            }
        }
    }
    true
}

/// One capsule of tendon `i`; `false` when the scene is full.
fn segment(
    m: &Model,
    d: &mut Data,
    opt: &VisOption,
    scn: &mut Scene,
    (i, first): (usize, bool),
    width: Real,
    a: &[Real; 3],
    b: &[Real; 3],
) -> bool {
    let Some(mut g) = start_geom(d, scn, OBJ_TENDON, i, CAT_DYNAMIC) else {
        return false;
    };
    let _ = connector(&mut g, GEOM_CAPSULE, width, a, b);
    if opt.flags[super::flag::ISLAND] != 0 && d.nisland != 0 {
        // grey, or the colour of the island of the tendon's first constraint row
        let mut rgba = [0.5, 0.5, 0.5, 1.0];
        let a = d.arena.arrays();
        if let Ok(row) = usize::try_from(a.tendon_efcadr[i]) {
            let island = a.efc_island[row] as usize;
            rgba = island_color(a.island_dofind[a.island_dofadr[island] as usize]);
        }
        set_material(m, &mut g, -1, &rgba, &opt.flags);
    } else {
        let rgba = &m.tendon_rgba[4 * i..4 * i + 4];
        set_material(m, &mut g, m.tendon_matid[i], rgba, &opt.flags);
    }
    if first && opt.label == super::label::TENDON {
        g.label = super::labels::make_label(m, OBJ_TENDON, i);
    }
    scn.geoms.push(g);
    true
}

/// The length to hang tendon `i` by when it is drawn as a catenary: two sites, gravity on, no
/// damping or friction loss, and either a deadband spring `[0, L]` or a length limit `[0, L]`
/// that is not reached; `None` to draw the wrap path straight.
fn hanging_length(m: &Model, d: &Data, i: usize) -> Option<Real> {
    let deadband = m.tendon_stiffness[i] > 0.0
        && m.tendon_lengthspring[2 * i] == 0.0
        && m.tendon_lengthspring[2 * i + 1] > 0.0;
    let slack = m.tendon_stiffness[i] == 0.0
        && m.tendon_limited[i] == 1
        && m.tendon_range[2 * i] == 0.0
        && d.ten_length[i] < m.tendon_range[2 * i + 1];
    let hangs = m.opt.disableflags & DSBL_GRAVITY == 0
        && norm3(&m.opt.gravity) > mjrs_core::real::MINVAL
        && m.tendon_num[i] == 2
        && (deadband || slack)
        && m.tendon_damping[i] == 0.0
        && m.tendon_frictionloss[i] == 0.0;
    hangs.then(|| {
        if slack {
            m.tendon_range[2 * i + 1]
        } else {
            m.tendon_lengthspring[2 * i + 1]
        }
    })
}

/// Points along a string of `length` hanging between `x0` and `x1` under `gravity`
/// (`mjv_catenary`): the straight segment when the string is taut, a bead hanging at the
/// lowest point when it is nearly vertical, else [`NCATENARY`] points of the catenary curve.
/// Returns the number of points written.
pub fn catenary(
    x0: &[Real; 3],
    x1: &[Real; 3],
    gravity: &[Real; 3],
    length: Real,
    out: &mut [[Real; 3]; NCATENARY],
) -> usize {
    let x01 = [x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2]];
    if norm3(&x01) > length {
        (out[0], out[1]) = (*x0, *x1);
        return 2;
    }
    let mut up = [-gravity[0], -gravity[1], -gravity[2]];
    normalize3(&mut up);
    // horizontal direction from x0 to x1, orthogonal to up
    let along = dot3(&up, &x01);
    let mut across = [
        x01[0] - up[0] * along,
        x01[1] - up[1] * along,
        x01[2] - up[2] * along,
    ];
    if normalize3(&mut across) < mjrs_core::real::MINVAL {
        across = [0.0; 3];
    }
    let h = dot3(&x01, &across);
    let v = dot3(&x01, &up);
    if length > 100.0 * h {
        // a bead on the string: how far it hangs below x0 and how far across
        let d_up = -0.5 * (scalar::sqrt(length * length - h * h) - v);
        let d_across = h * d_up / (2.0 * d_up - v);
        out[0] = *x0;
        out[1] = core::array::from_fn(|k| x0[k] + up[k] * d_up + across[k] * d_across);
        out[2] = *x1;
        return 3;
    }
    let bh = solve_catenary(v, h, length) * h;
    let h_offset = -0.5 * (scalar::log((length + v) / (length - v)) * bh - h);
    let v_offset = -cosh_sinh(h_offset / bh).0 * bh;
    out[0] = *x0;
    for (i, p) in out.iter_mut().enumerate().take(NCATENARY - 1).skip(1) {
        let horizontal = i as Real * h / NCATENARY as Real;
        let vertical = bh * cosh_sinh((horizontal - h_offset) / bh).0 + v_offset;
        *p = core::array::from_fn(|k| x0[k] + across[k] * horizontal + up[k] * vertical);
    }
    out[NCATENARY - 1] = *x1;
    NCATENARY
}

/// `(cosh x, sinh x)` from one exponential.
fn cosh_sinh(x: Real) -> (Real, Real) {
    let e = scalar::exp(x);
    (0.5 * (e + 1.0 / e), 0.5 * (e - 1.0 / e))
}

/// Residual of the catenary equation in the variable `b` and its derivative.
fn residual(b: Real, intercept: Real) -> (Real, Real) {
    let a = 0.5 / b;
    let (cosh, sinh) = cosh_sinh(a);
    let grad = (a * cosh - sinh) * scalar::pow(2.0 * b * sinh - 1.0, -1.5);
    (1.0 / scalar::sqrt(2.0 * b * sinh - 1.0) - intercept, grad)
}

/// The catenary's scaled flatness `b` for height difference `v`, span `h` and `length`, by
/// Newton's method with step halving (the change of variables of
/// <https://math.stackexchange.com/a/1002996>), to MuJoCo's tolerance 1e-9.
fn solve_catenary(v: Real, h: Real, length: Real) -> Real {
    let intercept = 1.0 / scalar::sqrt(scalar::sqrt(length * length - v * v) / h - 1.0);
    let mut b = intercept / scalar::sqrt(24.0);
    for _ in 0..50 {
        let (res, grad) = residual(b, intercept);
        if scalar::abs(res) < 1e-9 {
            break;
        }
        let mut step = -res / grad;
        for _ in 0..10 {
            if scalar::abs(residual(b + step, intercept).0) < scalar::abs(res) {
                break;
            }
            step *= 0.5;
        }
        b += step;
    }
    b
}
