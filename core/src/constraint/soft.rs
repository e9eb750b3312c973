//! Soft-constraint parameters (`mj_diagApprox`, `mj_makeImpedance`; "Computation › Soft
//! constraints"): the diagonal approximation, impedance, `efc_KBIP`, `efc_D` and `efc_R`.

use super::contact::{contact_dim, pair_bodies, ContactBodies};
use crate::arena::ArenaArraysMut;
use crate::data::Contact;
use crate::error::StepError;
use crate::math::misc::{max, min};
use crate::math::scalar::{pow, sqrt};
use crate::math::vec::norm;
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::support::disabled;
use crate::types::*;

/// Approximate diagonal of the constraint-space inverse inertia, `efc_diagApprox`
/// (`mj_diagApprox`), from the inverse weights of the bodies, dofs and tendons at `qpos0`.
pub(super) fn diag_approx(
    m: &Model,
    flexvert_xpos: &[Real],
    nefc: usize,
    a: &mut ArenaArraysMut,
) -> Result<(), StepError> {
    let da = &mut *a.efc_diagApprox;
    let mut weldcnt = 0u8;
    let mut i = 0;
    while i < nefc {
        let id = a.efc_id[i] as usize;
        match a.efc_type[i] {
            CNSTR_EQUALITY => {
                i += eq_diag_approx(m, id, &mut weldcnt, &mut da[i..nefc]);
                continue;
            }
            CNSTR_FRICTION_DOF => da[i] = m.dof_invweight0[id],
            CNSTR_LIMIT_JOINT => da[i] = m.dof_invweight0[m.jnt_dofadr[id] as usize],
            CNSTR_FRICTION_TENDON | CNSTR_LIMIT_TENDON => da[i] = m.tendon_invweight0[id],
            ty => {
                let con = &a.contact[id];
                i += contact_diag_approx(m, flexvert_xpos, con, ty, &mut da[i..])?;
                continue;
            }
        }
        i += 1;
    }
    Ok(())
}

/// `efc_diagApprox` of the row of equality `id` at `da[0]`, or of all the rows of a flex
/// equality; returns the number of rows consumed. `weldcnt` counts the rows of a weld, three
/// translations then three rotations. Out of line: few models have equalities.
#[inline(never)]
fn eq_diag_approx(m: &Model, id: usize, weldcnt: &mut u8, da: &mut [Real]) -> usize {
    let body = |b: i32, k: usize| m.body_invweight0[2 * b as usize + k];
    let (o1, o2) = (m.eq_obj1id[id], m.eq_obj2id[id]);
    da[0] = match m.eq_type[id] {
        EQ_CONNECT => body(o1, 0) + body(o2, 0),
        EQ_WELD => {
            let k = usize::from(*weldcnt > 2);
            *weldcnt = (*weldcnt + 1) % 6;
            body(o1, k) + body(o2, k)
        }
        EQ_JOINT | EQ_TENDON => {
            let weight = |o: i32| {
                if m.eq_type[id] == EQ_JOINT {
                    m.dof_invweight0[m.jnt_dofadr[o as usize] as usize]
                } else {
                    m.tendon_invweight0[o as usize]
                }
            };
            let mut w = weight(o1);
            if o2 >= 0 {
                w += weight(o2);
            }
            w
        }
        // the validator admits no other type
        _ => return flex_diag_approx(m, o1 as usize, da),
    };
    1
}

/// `efc_diagApprox` of the rows of a flex equality: the inverse weights of its edges that are
/// not rigid, in order; returns the number of rows consumed. Like MuJoCo, this assumes one row
/// per such edge (an edge without dofs has none, and then the following rows take the
/// remaining weights); the rows end at `nefc`.
#[inline(never)]
fn flex_diag_approx(m: &Model, f: usize, da: &mut [Real]) -> usize {
    let start = m.flex_edgeadr[f] as usize;
    let weights = (start..start + m.flex_edgenum[f] as usize)
        .filter(|&e| m.flexedge_rigid[e] == 0)
        .map(|e| m.flexedge_invweight0[e]);
    let mut n = 0;
    for (slot, w) in da.iter_mut().zip(weights) {
        *slot = w;
        n += 1;
    }
    // a flex without such edges has no rows (no row names it); at least 1 keeps the loop going
    n.max(1)
}

/// `efc_diagApprox` of the rows of one contact, from the translational and rotational inverse
/// weights of its bodies (an element's vertices' bodies weighted); returns the number of rows.
fn contact_diag_approx(
    m: &Model,
    flexvert_xpos: &[Real],
    con: &Contact,
    ty: i32,
    da: &mut [Real],
) -> Result<usize, StepError> {
    let dim = contact_dim(con)?;
    // the inverse weights of the bodies, summed with the bodies' weights
    let weighted = |body: &[usize], weight: &[Real]| {
        let mut tran = 0.0;
        let mut rot = 0.0;
        for (&b, &w) in body.iter().zip(weight) {
            tran += m.body_invweight0[2 * b] * w;
            rot += m.body_invweight0[2 * b + 1] * w;
        }
        (tran, rot)
    };
    let (tran, rot) = match pair_bodies(m, con)? {
        Some((b1, b2)) => weighted(&[b1, b2], &[1.0, 1.0]),
        None => {
            let bodies = elem_bodies(m, flexvert_xpos, con)?;
            weighted(bodies.bodies(), &bodies.weight)
        }
    };
    Ok(match ty {
        CNSTR_CONTACT_FRICTIONLESS => {
            da[0] = tran;
            1
        }
        CNSTR_CONTACT_ELLIPTIC => {
            for j in 0..dim {
                da[j] = if j < 3 { tran } else { rot };
            }
            dim
        }
        _ => {
            for j in 0..dim - 1 {
                let fri = con.friction[j];
                let w = tran + fri * fri * if j < 2 { tran } else { rot };
                da[2 * j] = w;
                da[2 * j + 1] = w;
            }
            2 * (dim - 1)
        }
    })
}

/// The bodies of a contact on a flex element, weighted ([`ContactBodies::of`], unsigned). Out
/// of line: most contacts are between two bodies.
#[inline(never)]
fn elem_bodies(
    m: &Model,
    flexvert_xpos: &[Real],
    con: &Contact,
) -> Result<ContactBodies, StepError> {
    ContactBodies::of(m, flexvert_xpos, con, false)
}

/// The solver parameters of row `i`: `solref`, `solreffriction` (contacts only) and `solimp`,
/// with MuJoCo's corrections: mixed-sign references replaced by the defaults, time constants at
/// least two timesteps (unless `refsafe` is disabled), impedances clamped (`getsolparam`).
fn sol_params(
    m: &Model,
    a: &ArenaArraysMut,
    i: usize,
) -> ([Real; NREF], [Real; NREF], [Real; NIMP]) {
    let id = a.efc_id[i] as usize;
    let mut friction = [0.0; NREF];
    // the parameter arrays of the row's kind and the block in them: one pick for all kinds
    let (refs, imps, k): (&[Real], &[Real], usize) = match a.efc_type[i] {
        CNSTR_EQUALITY => (&m.eq_solref, &m.eq_solimp, id),
        CNSTR_LIMIT_JOINT => (&m.jnt_solref, &m.jnt_solimp, id),
        CNSTR_FRICTION_DOF => (&m.dof_solref, &m.dof_solimp, id),
        CNSTR_LIMIT_TENDON => (&m.tendon_solref_lim, &m.tendon_solimp_lim, id),
        CNSTR_FRICTION_TENDON => (&m.tendon_solref_fri, &m.tendon_solimp_fri, id),
        _ => {
            let con = &a.contact[id];
            friction = con.solreffriction;
            (&con.solref, &con.solimp, 0)
        }
    };
    let mut solref: [Real; NREF] = pick(refs, k);
    let mut solimp: [Real; NIMP] = pick(imps, k);
    let refsafe = !disabled(m, DSBL_REFSAFE);
    let min_timeconst = 2.0 * m.opt.timestep;
    // the standard (positive) and direct (negative) formats cannot be mixed
    if (solref[0] > 0.0) ^ (solref[1] > 0.0) {
        solref = [0.02, 1.0];
    }
    if refsafe && solref[0] > 0.0 {
        solref[0] = max(solref[0], min_timeconst);
    }
    if (friction[0] > 0.0) ^ (friction[1] > 0.0) {
        friction = [0.0; NREF];
    }
    if refsafe && friction[0] > 0.0 {
        friction[0] = max(friction[0], min_timeconst);
    }
    let clamp_imp = |x: Real| min(MAXIMP as Real, max(MINIMP as Real, x));
    solimp[0] = clamp_imp(solimp[0]);
    solimp[1] = clamp_imp(solimp[1]);
    solimp[2] = max(0.0, solimp[2]);
    solimp[3] = clamp_imp(solimp[3]);
    solimp[4] = max(1.0, solimp[4]);
    (solref, friction, solimp)
}

/// Block `id` of `N` parameters of `s` (object `id`'s `solref` or `solimp`).
#[inline(always)]
fn pick<const N: usize>(s: &[Real], id: usize) -> [Real; N] {
    s.as_chunks::<N>().0[id]
}

/// The position that sets the impedance of the constraint starting at row `i`, and its number
/// of rows (`getposdim`): connect and weld use the norm of their position errors, contacts
/// span their dimensions or pyramid edges.
fn pos_dim(m: &Model, a: &ArenaArraysMut, i: usize) -> (Real, usize) {
    let id = a.efc_id[i] as usize;
    match a.efc_type[i] {
        CNSTR_CONTACT_ELLIPTIC => (a.efc_pos[i], a.contact[id].dim as usize),
        CNSTR_CONTACT_PYRAMIDAL => (a.efc_pos[i], 2 * (a.contact[id].dim as usize - 1)),
        CNSTR_EQUALITY if m.eq_type[id] == EQ_WELD => (norm(&a.efc_pos[i..i + 6]), 6),
        CNSTR_EQUALITY if m.eq_type[id] == EQ_CONNECT => (norm(&a.efc_pos[i..i + 3]), 3),
        _ => (a.efc_pos[i], 1),
    }
}

/// `a^b`, exact for the common powers 1 and 2 (`power`).
fn power(a: Real, b: Real) -> Real {
    if b == 1.0 {
        a
    } else if b == 2.0 {
        a * a
    } else {
        pow(a, b)
    }
}

/// Impedance and its derivative with respect to the position (`getimpedance`): the sigmoid of
/// `solimp` = (dmin, dmax, width, midpoint, power) over `|pos - margin| / width`.
fn impedance(solimp: &[Real; NIMP], pos: Real, margin: Real) -> (Real, Real) {
    let [dmin, dmax, width, mid, p] = *solimp;
    if dmin == dmax || width <= MINVAL {
        return (0.5 * (dmin + dmax), 0.0);
    }
    let mut x = (pos - margin) / width;
    let mut sgn = 1.0;
    if x < 0.0 {
        x = -x;
        sgn = -1.0;
    }
    if x >= 1.0 || x <= 0.0 {
        return (if x >= 1.0 { dmax } else { dmin }, 0.0);
    }
    let (y, y_p) = if p == 1.0 {
        (x, 1.0)
    } else if x <= mid {
        let a = 1.0 / power(mid, p - 1.0);
        (a * power(x, p), p * a * power(x, p - 1.0))
    } else {
        let b = 1.0 / power(1.0 - mid, p - 1.0);
        (1.0 - b * power(1.0 - x, p), p * b * power(1.0 - x, p - 1.0))
    };
    (dmin + y * (dmax - dmin), y_p * sgn * (dmax - dmin) / width)
}

/// Stiffness and damping (`efc_KBIP[0..2]`) of a row of type `ty` from the reference `solref`
/// (or, for an elliptic cone's friction row when any is set, `friction`) and `solimp`'s `dmax`:
/// none for friction-loss rows and elliptic friction rows.
fn stiffness_damping(
    ty: i32,
    elliptic_friction: bool,
    solref: &[Real; NREF],
    friction: &[Real; NREF],
    solimp: &[Real; NIMP],
) -> [Real; 2] {
    let refs = if elliptic_friction && (friction[0] != 0.0 || friction[1] != 0.0) {
        friction
    } else {
        solref
    };
    let k = if ty == CNSTR_FRICTION_DOF || ty == CNSTR_FRICTION_TENDON || elliptic_friction {
        0.0
    } else if refs[0] > 0.0 {
        let (dmax, tc, dr) = (solimp[1], refs[0], refs[1]);
        1.0 / max(MINVAL, dmax * dmax * tc * tc * dr * dr)
    } else {
        -refs[0] / max(MINVAL, solimp[1] * solimp[1])
    };
    let b = if refs[1] > 0.0 {
        2.0 / max(MINVAL, solimp[1] * refs[0])
    } else {
        -refs[1] / max(MINVAL, solimp[1])
    };
    [k, b]
}

/// Soft-constraint parameters (`mj_makeImpedance`): `efc_R` from the impedance and
/// `efc_diagApprox`, `efc_KBIP` (stiffness, damping, impedance and its derivative), the
/// friction-cone adjustments of contacts (`efc_R` of friction rows, contact `mu`), `efc_D`,
/// and `efc_diagApprox` made consistent with `efc_R`.
pub(super) fn make_impedance(m: &Model, nefc: usize, first_contact: usize, a: &mut ArenaArraysMut) {
    let mut i = 0;
    while i < nefc {
        let (solref, friction, solimp) = sol_params(m, a, i);
        let (pos, dim) = pos_dim(m, a, i);
        let (imp, imp_p) = impedance(&solimp, pos, a.efc_margin[i]);
        // a constraint's rows share its stiffness and damping: the first row's, and the other
        // rows' (an elliptic cone's friction rows may have their own reference)
        let ty = a.efc_type[i];
        let first = stiffness_damping(ty, false, &solref, &friction, &solimp);
        let others = if dim > 1 {
            let elliptic_friction = ty == CNSTR_CONTACT_ELLIPTIC;
            stiffness_damping(ty, elliptic_friction, &solref, &friction, &solimp)
        } else {
            first
        };
        for j in 0..dim {
            let r = i + j;
            a.efc_R[r] = max(MINVAL, (1.0 - imp) * a.efc_diagApprox[r] / imp);
            let [k, b] = if j == 0 { first } else { others };
            a.efc_KBIP[4 * r..4 * r + 4].copy_from_slice(&[k, b, imp, imp_p]);
        }
        i += dim;
    }
    contact_cone_r(m, a, first_contact, nefc);
    // one pass over the rows, sliced once so that it carries no bounds checks
    let kbip = a.efc_KBIP[..4 * nefc].chunks_exact(4);
    let rows = a.efc_D[..nefc]
        .iter_mut()
        .zip(&mut a.efc_diagApprox[..nefc])
        .zip(&a.efc_R[..nefc])
        .zip(kbip);
    for (((d, da), &r), kbip) in rows {
        let imp = kbip[2];
        *d = 1.0 / r;
        *da = r * imp / (1.0 - imp);
    }
}

/// Friction cones of contacts: `R` of the first friction row is the normal's over `impratio`,
/// `mu` of the regularized cone follows; elliptic cones scale the other friction rows so that
/// `R[j] mu[j]^2` is the same for all, pyramids share one `R` matching the elliptic friction
/// impedance.
fn contact_cone_r(m: &Model, a: &mut ArenaArraysMut, first: usize, nefc: usize) {
    let r = &mut *a.efc_R;
    let mut i = first;
    while i < nefc {
        let ty = a.efc_type[i];
        if ty != CNSTR_CONTACT_PYRAMIDAL && ty != CNSTR_CONTACT_ELLIPTIC {
            i += 1;
            continue;
        }
        let con = &mut a.contact[a.efc_id[i] as usize];
        let dim = con.dim as usize;
        let friction = con.friction;
        r[i + 1] = r[i] / max(MINVAL, m.opt.impratio);
        con.mu = friction[0] * sqrt(r[i + 1] / r[i]);
        if ty == CNSTR_CONTACT_ELLIPTIC {
            for j in 1..dim - 1 {
                r[i + j + 1] = r[i + 1] * friction[0] * friction[0] / (friction[j] * friction[j]);
            }
            i += dim;
        } else {
            let rpy = 2.0 * con.mu * con.mu * r[i];
            r[i..i + 2 * (dim - 1)].fill(rpy);
            i += 2 * (dim - 1);
        }
    }
}
