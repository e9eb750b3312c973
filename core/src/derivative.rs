//! Analytical derivatives of the smooth forces with respect to velocity (MuJoCo's
//! `engine_derivative.c`: `mjd_smooth_vel` and its parts), used by the implicit integrators
//! ("Computation › Numerical integration"), and the copies between the `qM` layout and the
//! dof-dof sparse layout `D_*` (`mj_copyM2DSparse`, `mj_copyD2MSparse`).
//!
//! `qDeriv = d(qfrc_actuator + qfrc_passive - qfrc_bias) / d qvel` is stored in the `D_*`
//! pattern: row `i` holds the columns of dof `i`, its ancestors and its descendants.

/// The `D_*` pattern of a `Data` (a [`DofPattern`]), borrowing only those three fields so that
/// `qDeriv` stays writable.
macro_rules! dof_pattern {
    ($d:expr) => {
        DofPattern {
            rownnz: &*$d.D_rownnz,
            rowadr: &*$d.D_rowadr,
            colind: &*$d.D_colind,
        }
    };
}

mod fluid;

use crate::arena::{ArenaError, Stack};
use crate::data::Data;
use crate::error::StepError;
use crate::math::mat::{mul_mat_mat, transpose};
use crate::math::misc::{max, muscle_gain_length};
use crate::math::spatial::mul_inert_vec;
use crate::math::vec::{add_to, add_to_scl, dot, zero};
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::support::{disabled, is_sparse, v10, v6};
use crate::types::*;

/// The `D_*` sparsity pattern of dof-dof matrices (`qDeriv`, `qLU`).
#[derive(Clone, Copy)]
struct DofPattern<'a> {
    rownnz: &'a [i32],
    rowadr: &'a [i32],
    colind: &'a [i32],
}

impl DofPattern<'_> {
    /// Addresses of row `i`.
    fn row(&self, i: usize) -> core::ops::Range<usize> {
        let adr = self.rowadr[i] as usize;
        adr..adr + self.rownnz[i] as usize
    }

    /// Address of the diagonal element of row `i`.
    fn diag(&self, i: usize) -> Option<usize> {
        self.row(i).find(|&adr| self.colind[adr] == i as i32)
    }
}

/// One row of a Jacobian: its values, and their columns when the row is sparse (a dense row
/// has `nv` values, one per column).
#[derive(Clone, Copy)]
struct JacRow<'a> {
    val: &'a [Real],
    col: Option<&'a [i32]>,
}

/// `qDeriv += Jᵀ B J` for the `n` rows of `J` and the `n × n` matrix `B` (MuJoCo's `addJTBJ`
/// for dense rows, `addJTBJSparse` for sparse ones): for every non-zero `B(i, j)` and every
/// non-zero `J(i, k)`, row `k` of `qDeriv` gets `J(j, :) * (J(i, k) B(i, j))`.
fn add_jtbj(qderiv: &mut [Real], pat: DofPattern, rows: &[JacRow], b: &[Real]) {
    let n = rows.len();
    for i in 0..n {
        for j in 0..n {
            let bij = b[i * n + j];
            if bij == 0.0 {
                continue;
            }
            let (ri, rj) = (rows[i], rows[j]);
            for (s, &jik) in ri.val.iter().enumerate() {
                let k = match ri.col {
                    Some(col) => col[s] as usize,
                    // a dense row skips its zeros
                    None if jik == 0.0 => continue,
                    None => s,
                };
                add_scaled_row(qderiv, pat, k, rj, jik * bij);
            }
        }
    }
}

/// Row `k` of `qDeriv` += `row * scl`, at the columns of the pattern (a dense `row`) or at the
/// columns both have (a sparse one).
fn add_scaled_row(qderiv: &mut [Real], pat: DofPattern, k: usize, row: JacRow, scl: Real) {
    let range = pat.row(k);
    let cols = &pat.colind[range.clone()];
    let dst = &mut qderiv[range];
    match row.col {
        None => {
            for (q, &c) in dst.iter_mut().zip(cols) {
                *q += row.val[c as usize] * scl;
            }
        }
        Some(rcol) => {
            // the row is scaled first, then added where the patterns meet
            let mut merged = Merge::new(cols, rcol);
            while let Some((t, s)) = merged.next_common() {
                dst[t] += row.val[s] * scl;
            }
        }
    }
}

/// Walks two increasing index lists and yields the positions of their common indices.
struct Merge<'a> {
    a: &'a [i32],
    b: &'a [i32],
    i: usize,
    j: usize,
}

impl<'a> Merge<'a> {
    fn new(a: &'a [i32], b: &'a [i32]) -> Self {
        Merge { a, b, i: 0, j: 0 }
    }

    fn next_common(&mut self) -> Option<(usize, usize)> {
        while self.i < self.a.len() && self.j < self.b.len() {
            match self.a[self.i].cmp(&self.b[self.j]) {
                core::cmp::Ordering::Equal => {
                    let found = (self.i, self.j);
                    self.i += 1;
                    self.j += 1;
                    return Some(found);
                }
                core::cmp::Ordering::Less => self.i += 1,
                core::cmp::Ordering::Greater => self.j += 1,
            }
        }
        None
    }
}

// ------------------------------------------------------------------------------------------------
// entry point

/// `qDeriv = d(qfrc_actuator + qfrc_passive - [qfrc_bias]) / d qvel` (`mjd_smooth_vel`); the
/// bias (RNE) term only with `flg_bias`, which `implicitfast` leaves out.
pub fn smooth_vel(m: &Model, d: &mut Data, flg_bias: bool) -> Result<(), StepError> {
    if !cfg!(feature = "implicit") {
        // validation refuses the implicit integrators in such a build
        return Err(StepError::Rejected(
            "the implicit integrators need the mjrs-core feature `implicit`",
        ));
    }
    zero(d.qDeriv);
    actuator_vel(m, d);
    passive_vel(m, d)?;
    if flg_bias {
        rne_vel(m, d)?;
    }
    Ok(())
}

// ------------------------------------------------------------------------------------------------
// actuators

/// Adds `d qfrc_actuator / d qvel` to `qDeriv` (`mjd_actuator_vel`): for each actuator whose
/// force depends on its velocity (the `kv` terms of affine gain and bias, the force-velocity
/// curve of muscles), `moment * dforce/dvelocity * momentᵀ`.
pub fn actuator_vel(m: &Model, d: &mut Data) {
    if disabled(m, DSBL_ACTUATION) {
        return;
    }
    let nv = m.nv;
    let pat = dof_pattern!(d);
    for i in 0..m.nu {
        let dforce = actuator_force_vel(m, d, i);
        if dforce != 0.0 {
            let row = JacRow {
                val: &d.actuator_moment[i * nv..(i + 1) * nv],
                col: None,
            };
            add_jtbj(d.qDeriv, pat, &[row], &[dforce]);
        }
    }
}

/// `d actuator_force / d actuator_velocity` of actuator `i`: the bias slope plus the gain slope
/// times the input (`ctrl` for stateless actuators, else the activation).
fn actuator_force_vel(m: &Model, d: &Data, i: usize) -> Real {
    let mut bias_vel = 0.0;
    if m.actuator_biastype[i] == BIAS_AFFINE {
        bias_vel = m.actuator_biasprm[i * NBIAS + 2];
    }
    let gain_vel = match m.actuator_gaintype[i] {
        GAIN_AFFINE => m.actuator_gainprm[i * NGAIN + 2],
        GAIN_MUSCLE => {
            let prm: [Real; 9] = core::array::from_fn(|k| m.actuator_gainprm[i * NGAIN + k]);
            let lengthrange = [
                m.actuator_lengthrange[2 * i],
                m.actuator_lengthrange[2 * i + 1],
            ];
            muscle_gain_vel(
                d.actuator_length[i],
                d.actuator_velocity[i],
                &lengthrange,
                m.actuator_acc0[i],
                &prm,
            )
        }
        _ => 0.0,
    };
    if gain_vel != 0.0 {
        bias_vel += gain_vel * actuator_input(m, d, i);
    }
    bias_vel
}

/// What multiplies the gain of actuator `i` in the derivative. MuJoCo takes `act[i - (nu - na)]`,
/// which assumes stateful actuators come last with one activation each (the compiler puts them
/// last); an index outside `act` contributes nothing.
fn actuator_input(m: &Model, d: &Data, i: usize) -> Real {
    if m.actuator_dyntype[i] == DYN_NONE {
        return d.ctrl[i];
    }
    (i + m.na)
        .checked_sub(m.nu)
        .and_then(|k| d.act.get(k).copied())
        .unwrap_or(0.0)
}

/// Slope of the muscle active force with respect to velocity (`mjd_muscleGain_vel`); zero where
/// the force-velocity curve is flat. `prm` as in [`crate::math::misc::muscle_gain`].
fn muscle_gain_vel(
    len: Real,
    vel: Real,
    lengthrange: &[Real; 2],
    acc0: Real,
    prm: &[Real; 9],
) -> Real {
    let [force, l0, l] = crate::math::misc::muscle_normalize(len, lengthrange, acc0, prm);
    let (lmin, lmax, vmax, fvmax) = (prm[4], prm[5], prm[6], prm[8]);
    let v = vel / max(MINVAL, l0 * vmax);
    let fl = muscle_gain_length(l, lmin, lmax);

    // slope of the force-velocity curve: 0, (V+1)^2, fvmax - (y-V)^2/y, fvmax
    let y = fvmax - 1.0;
    let dfv = if v <= -1.0 {
        0.0
    } else if v <= 0.0 {
        2.0 * v + 2.0
    } else if v <= y {
        (-2.0 * v + 2.0 * y) / max(MINVAL, y)
    } else {
        0.0
    };
    -force * fl * dfv / max(MINVAL, l0 * vmax)
}

// ------------------------------------------------------------------------------------------------
// passive forces

/// Adds `d qfrc_passive / d qvel` to `qDeriv` (`mjd_passive_vel`): dof damping on the diagonal,
/// tendon damping as `-damping * ten_J ten_Jᵀ`, and the fluid forces (see [`crate::fluid`]).
///
/// Flex edge damping is absent because models with flexes are refused by `fwd_position`.
pub fn passive_vel(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if disabled(m, DSBL_PASSIVE) {
        return Ok(());
    }
    dof_damping_vel(m, d);
    flex_damping_vel(m, d);
    tendon_damping_vel(m, d);
    if m.opt.viscosity > 0.0 || m.opt.density > 0.0 {
        fluid::fluid_vel(m, d)?;
    }
    Ok(())
}

/// `qDeriv(i, i) -= dof_damping[i]`.
fn dof_damping_vel(m: &Model, d: &mut Data) {
    let pat = dof_pattern!(d);
    for i in 0..m.nv {
        if let Some(ii) = pat.diag(i) {
            d.qDeriv[ii] -= m.dof_damping[i];
        }
    }
}

/// `qDeriv -= damping * J Jᵀ` for every edge, not rigid, of a damped flex that is not rigid,
/// with `flexedge_J` in its dense or compressed-row form (`mj_isSparse`).
fn flex_damping_vel(m: &Model, d: &mut Data) {
    let nv = m.nv;
    let pat = dof_pattern!(d);
    let sparse = is_sparse(m);
    for f in 0..m.nflex {
        let damping = m.flex_edgedamping[f];
        if m.flex_rigid[f] != 0 || damping == 0.0 {
            continue;
        }
        let start = m.flex_edgeadr[f] as usize;
        for e in start..start + m.flex_edgenum[f] as usize {
            if m.flexedge_rigid[e] != 0 {
                continue;
            }
            let row = if sparse {
                let adr = d.flexedge_J_rowadr[e] as usize;
                let range = adr..adr + d.flexedge_J_rownnz[e] as usize;
                JacRow {
                    val: &d.flexedge_J[range.clone()],
                    col: Some(&d.flexedge_J_colind[range]),
                }
            } else {
                JacRow {
                    val: &d.flexedge_J[e * nv..(e + 1) * nv],
                    col: None,
                }
            };
            add_jtbj(d.qDeriv, pat, &[row], &[-damping]);
        }
    }
}

/// `qDeriv -= damping * ten_J ten_Jᵀ` for every damped tendon, with `ten_J` in its dense or
/// compressed-row form (`mj_isSparse`).
fn tendon_damping_vel(m: &Model, d: &mut Data) {
    let nv = m.nv;
    let pat = dof_pattern!(d);
    let sparse = is_sparse(m);
    for i in 0..m.ntendon {
        if m.tendon_damping[i] <= 0.0 {
            continue;
        }
        let row = if sparse {
            let adr = d.ten_J_rowadr[i] as usize;
            let range = adr..adr + d.ten_J_rownnz[i] as usize;
            JacRow {
                val: &d.ten_J[range.clone()],
                col: Some(&d.ten_J_colind[range]),
            }
        } else {
            JacRow {
                val: &d.ten_J[i * nv..(i + 1) * nv],
                col: None,
            }
        };
        add_jtbj(d.qDeriv, pat, &[row], &[-m.tendon_damping[i]]);
    }
}

// ------------------------------------------------------------------------------------------------
// bias forces (RNE)

/// `d cross_motion(v, x) / d v` as a 6×6 row-major matrix (`mjd_crossMotion_vel`), where `x` is
/// the fixed motion vector.
fn d_cross_motion_vel(x: &[Real; 6]) -> [Real; 36] {
    let mut d = [0.0; 36];
    d[2] = -x[1];
    d[1] = x[2];
    d[6 + 2] = x[0];
    d[6] = -x[2];
    d[12 + 1] = -x[0];
    d[12] = x[1];
    d[18 + 2] = -x[4];
    d[18 + 1] = x[5];
    d[18 + 5] = -x[1];
    d[18 + 4] = x[2];
    d[24 + 2] = x[3];
    d[24] = -x[5];
    d[24 + 5] = x[0];
    d[24 + 3] = -x[2];
    d[30 + 1] = -x[3];
    d[30] = x[4];
    d[30 + 4] = -x[0];
    d[30 + 3] = x[1];
    d
}

/// `d cross_force(v, f) / d v` for a fixed force `f` (`mjd_crossForce_vel`).
fn d_cross_force_vel(f: &[Real; 6]) -> [Real; 36] {
    let mut d = [0.0; 36];
    d[2] = -f[1];
    d[1] = f[2];
    d[5] = -f[4];
    d[4] = f[5];
    d[6 + 2] = f[0];
    d[6] = -f[2];
    d[6 + 5] = f[3];
    d[6 + 3] = -f[5];
    d[12 + 1] = -f[0];
    d[12] = f[1];
    d[12 + 4] = -f[3];
    d[12 + 3] = f[4];
    d[18 + 2] = -f[4];
    d[18 + 1] = f[5];
    d[24 + 2] = f[3];
    d[24] = -f[5];
    d[30 + 1] = -f[3];
    d[30] = f[4];
    d
}

/// `d cross_force(v, f) / d f` for a fixed velocity `v` (`mjd_crossForce_frc`).
fn d_cross_force_frc(v: &[Real; 6]) -> [Real; 36] {
    let mut d = [0.0; 36];
    d[1] = -v[2];
    d[2] = v[1];
    d[4] = -v[5];
    d[5] = v[4];
    d[6] = v[2];
    d[6 + 2] = -v[0];
    d[6 + 3] = v[5];
    d[6 + 5] = -v[3];
    d[12] = -v[1];
    d[12 + 1] = v[0];
    d[12 + 3] = -v[4];
    d[12 + 4] = v[3];
    d[18 + 4] = -v[2];
    d[18 + 5] = v[1];
    d[24 + 3] = v[2];
    d[24 + 5] = -v[0];
    d[30 + 3] = -v[1];
    d[30 + 4] = v[0];
    d
}

/// `d mul_inert_vec(i, v) / d v`: the spatial inertia `i` as a 6×6 matrix
/// (`mjd_mulInertVec_vel`).
fn d_mul_inert_vec_vel(i: &[Real; 10]) -> [Real; 36] {
    let mut d = [0.0; 36];
    d[0] = i[0];
    d[1] = i[3];
    d[2] = i[4];
    d[4] = -i[8];
    d[5] = i[7];
    d[6] = i[3];
    d[6 + 1] = i[1];
    d[6 + 2] = i[5];
    d[6 + 3] = i[8];
    d[6 + 5] = -i[6];
    d[12] = i[4];
    d[12 + 1] = i[5];
    d[12 + 2] = i[2];
    d[12 + 3] = -i[7];
    d[12 + 4] = i[6];
    d[18 + 1] = i[8];
    d[18 + 2] = -i[7];
    d[18 + 3] = i[9];
    d[24 + 2] = i[6];
    d[24] = -i[8];
    d[24 + 4] = i[9];
    d[30] = i[7];
    d[30 + 1] = -i[6];
    d[30 + 5] = i[9];
    d
}

/// The transpose of a 6×6 matrix.
fn transpose6(mat: &[Real; 36]) -> [Real; 36] {
    let mut t = [0.0; 36];
    transpose(&mut t, mat, 6, 6);
    t
}

/// Number of ancestors of dof `j` (its row of `qM` without the diagonal).
fn dof_ancestors(m: &Model, j: usize) -> usize {
    let end = if j + 1 < m.nv {
        m.dof_Madr[j + 1] as usize
    } else {
        m.nM
    };
    end - (m.dof_Madr[j] as usize + 1)
}

/// The `B_*` pattern: the address and length of body rows, in 6-vectors.
#[derive(Clone, Copy)]
struct BodyPattern<'a> {
    rownnz: &'a [i32],
    rowadr: &'a [i32],
    colind: &'a [i32],
}

impl BodyPattern<'_> {
    /// Range of body `i`'s row in a flat array of 6-vectors.
    fn rows6(&self, i: usize) -> core::ops::Range<usize> {
        let adr = self.rowadr[i] as usize;
        6 * adr..6 * (adr + self.rownnz[i] as usize)
    }
}

/// Scratch of [`rne_vel`]: body-dof matrices of 6-vectors in the `B_*` pattern, and the
/// dof-dof derivative of `cdof_dot` in the `D_*` pattern.
struct RneVel<'s> {
    dcdofdot: &'s mut [Real],
    dcvel: &'s mut [Real],
    dcacc: &'s mut [Real],
    dcfrcbody: &'s mut [Real],
}

/// Subtracts `d qfrc_bias / d qvel` from `qDeriv` (`mjd_rne_vel`): the velocity derivatives of
/// `cvel` and `cdof_dot` are propagated down the tree, then those of the body accelerations and
/// forces, and the forces are accumulated back up and projected on the dofs.
pub fn rne_vel(m: &Model, d: &mut Data) -> Result<(), ArenaError> {
    d.with_stack(|d, stack| {
        let mut s = rne_vel_scratch(m, stack)?;
        com_vel_vel(m, d, &mut s);
        body_force_vel(m, d, &mut s);
        let bpat = BodyPattern {
            rownnz: d.B_rownnz,
            rowadr: d.B_rowadr,
            colind: d.B_colind,
        };
        zero(&mut s.dcfrcbody[bpat.rows6(0)]);
        for i in (1..m.nbody).rev() {
            add_to_parent(m, bpat, s.dcfrcbody, i);
        }
        project_on_dofs(m, d, s.dcfrcbody);
        Ok(())
    })
}

/// Zeroed scratch arrays for [`rne_vel`].
fn rne_vel_scratch<'s>(m: &Model, stack: &mut Stack<'s>) -> Result<RneVel<'s>, ArenaError> {
    Ok(RneVel {
        dcdofdot: stack.alloc_zeroed::<Real>(6 * m.nD)?,
        dcvel: stack.alloc_zeroed::<Real>(6 * m.nB)?,
        dcacc: stack.alloc_zeroed::<Real>(6 * m.nB)?,
        dcfrcbody: stack.alloc_zeroed::<Real>(6 * m.nB)?,
    })
}

/// Copies the parent's row of `mat` into body `n`'s row, over the dofs of the ancestors (they
/// come first in both rows, since rows are sorted and ancestors have smaller dof indices).
/// Nothing for bodies welded to the world.
fn copy_from_parent(m: &Model, d: &Data, mat: &mut [Real], n: usize) {
    let parent = m.body_parentid[n] as usize;
    if n == 0 || m.body_weldid[parent] == 0 {
        return;
    }
    let mut ndof = 0;
    let mut np = m.body_weldid[parent] as usize;
    while np > 0 {
        ndof += m.body_dofnum[np] as usize;
        np = m.body_weldid[m.body_parentid[np] as usize] as usize;
    }
    let dst = 6 * d.B_rowadr[n] as usize;
    let src = 6 * d.B_rowadr[parent] as usize;
    mat.copy_within(src..src + 6 * ndof, dst);
}

/// Adds body `n`'s row of `mat` into its parent's row, at the dofs they share (all of the
/// child's, as a child's pattern is a subset of its parent's).
fn add_to_parent(m: &Model, bpat: BodyPattern, mat: &mut [Real], n: usize) {
    let np = m.body_parentid[n] as usize;
    if n == 0 || m.body_weldid[np] == 0 {
        return;
    }
    let cols = |b: usize| {
        let adr = bpat.rowadr[b] as usize;
        &bpat.colind[adr..adr + bpat.rownnz[b] as usize]
    };
    let (child, parent) = (bpat.rowadr[n] as usize, bpat.rowadr[np] as usize);
    let mut merged = Merge::new(cols(n), cols(np));
    while let Some((i, ip)) = merged.next_common() {
        let src: [Real; 6] = core::array::from_fn(|k| mat[6 * (child + i) + k]);
        let dst = 6 * (parent + ip);
        add_to(&mut mat[dst..dst + 6], &src);
    }
}

/// Derivatives of `cvel` (body rows of `dcvel`) and `cdof_dot` (dof rows of `dcdofdot`) with
/// respect to `qvel` (MuJoCo's `mjd_comVel_vel`).
fn com_vel_vel(m: &Model, d: &Data, s: &mut RneVel) {
    for i in 1..m.nbody {
        copy_from_parent(m, d, s.dcvel, i);
        let badr = d.B_rowadr[i] as usize;
        let first = m.body_dofadr[i].max(0) as usize;
        let last = first + m.body_dofnum[i] as usize;
        let mut j = first;
        while j < last {
            let mut jadr = dof_ancestors(m, j);
            let jtype = m.jnt_type[m.dof_jntid[j] as usize];
            if jtype == JNT_FREE {
                // translations: cdof_dot does not depend on qvel, cvel gains cdof
                add_cdof_rows(d, s.dcvel, badr + jadr, j, 3);
                j += 3;
                jadr += 3;
            }
            // rotations, and one-dof joints
            let n = if jtype == JNT_FREE || jtype == JNT_BALL {
                3
            } else {
                1
            };
            for dj in 0..n {
                cdof_dot_vel(d, s, badr, jadr + dj, j + dj);
            }
            add_cdof_rows(d, s.dcvel, badr + jadr, j, n);
            j += n;
        }
    }
}

/// `dcdofdot[dof] = dcvel[body] * d cross_motion(cvel, cdof[dof]) / d cvel`, over the first
/// `rows` entries of the body row at `badr`.
fn cdof_dot_vel(d: &Data, s: &mut RneVel, badr: usize, rows: usize, dof: usize) {
    let mat_t = transpose6(&d_cross_motion_vel(&v6(d.cdof)[dof]));
    let dadr = d.D_rowadr[dof] as usize;
    mul_mat_mat(
        &mut s.dcdofdot[6 * dadr..6 * (dadr + rows)],
        &s.dcvel[6 * badr..6 * (badr + rows)],
        &mat_t,
        rows,
        6,
        6,
    );
}

/// Rows `row..row + n` of `dcvel` += `cdof[dof..dof + n]`.
fn add_cdof_rows(d: &Data, dcvel: &mut [Real], row: usize, dof: usize, n: usize) {
    for k in 0..n {
        add_to(
            &mut dcvel[6 * (row + k)..6 * (row + k + 1)],
            &d.cdof[6 * (dof + k)..6 * (dof + k + 1)],
        );
    }
}

/// Forward pass of [`rne_vel`]: derivatives of the body accelerations `dcacc` and of the body
/// forces `dcfrcbody = d(cinert cacc + cvel x (cinert cvel)) / d qvel`.
fn body_force_vel(m: &Model, d: &Data, s: &mut RneVel) {
    let bpat = BodyPattern {
        rownnz: d.B_rownnz,
        rowadr: d.B_rowadr,
        colind: d.B_colind,
    };
    for i in 1..m.nbody {
        copy_from_parent(m, d, s.dcacc, i);
        let rows = bpat.rows6(i);
        let badr = d.B_rowadr[i] as usize;
        let first = m.body_dofadr[i].max(0) as usize;
        for j in first..first + m.body_dofnum[i] as usize {
            // dcacc += cdof_dot (d qvel) + (d cdof_dot) qvel; row j of dcdofdot has the
            // pattern of body i's row
            let at = 6 * (badr + dof_ancestors(m, j));
            add_to(&mut s.dcacc[at..at + 6], &v6(d.cdof_dot)[j]);
            let dadr = 6 * d.D_rowadr[j] as usize;
            add_to_scl(
                &mut s.dcacc[rows.clone()],
                &s.dcdofdot[dadr..dadr + rows.len()],
                d.qvel[j],
            );
        }
        body_force_row(d, s, i, rows);
    }
}

/// Body `i`'s row of `dcfrcbody`: `dcacc * dmulᵀ + dcvel * matᵀ`, where `dmul` is the inertia
/// and `mat = dcross/dcvel + dcross/dmomentum * dmul`. The world row (unused until the
/// backward pass) holds the second product.
fn body_force_row(d: &Data, s: &mut RneVel, i: usize, rows: core::ops::Range<usize>) {
    let nrow = rows.len() / 6;
    let cinert = &v10(d.cinert)[i];
    let cvel = &v6(d.cvel)[i];
    let dmul = d_mul_inert_vec_vel(cinert);
    mul_mat_mat(
        &mut s.dcfrcbody[rows.clone()],
        &s.dcacc[rows.clone()],
        &transpose6(&dmul),
        nrow,
        6,
        6,
    );

    let mut mat = d_cross_force_vel(&mul_inert_vec(cinert, cvel));
    let mut mat2 = [0.0; 36];
    mul_mat_mat(&mut mat2, &d_cross_force_frc(cvel), &dmul, 6, 6, 6);
    add_to(&mut mat, &mat2);

    let (world, body) = s.dcfrcbody.split_at_mut(rows.start);
    let tmp = &mut world[..rows.len()];
    mul_mat_mat(tmp, &s.dcvel[rows.clone()], &transpose6(&mat), nrow, 6, 6);
    add_to(&mut body[..rows.len()], tmp);
}

/// `qDeriv(j, :) -= cdof[j] · dcfrcbody[body of j]` for every dof.
fn project_on_dofs(m: &Model, d: &mut Data, dcfrcbody: &[Real]) {
    for j in 0..m.nv {
        let i = m.dof_bodyid[j] as usize;
        let badr = d.B_rowadr[i] as usize;
        let nnz = d.B_rownnz[i] as usize;
        let dadr = d.D_rowadr[j] as usize;
        let cdof = &d.cdof[6 * j..6 * j + 6];
        for k in 0..nnz {
            let f = &dcfrcbody[6 * (badr + k)..6 * (badr + k + 1)];
            d.qDeriv[dadr + k] -= dot(f, cdof);
        }
    }
}

// ------------------------------------------------------------------------------------------------
// layout copies

/// `dst` (in the `D_*` pattern given by `rownnz`, `rowadr`) = `src` (in `qM`'s layout), both
/// triangles (`mj_copyM2DSparse`). `remaining` is scratch of `nv` elements.
pub fn copy_m2d_sparse(
    m: &Model,
    rownnz: &[i32],
    rowadr: &[i32],
    dst: &mut [Real],
    src: &[Real],
    remaining: &mut [i32],
) {
    let nv = m.nv;
    remaining[..nv].copy_from_slice(&rownnz[..nv]);
    // rows are filled from their end: each dof's ancestors come in decreasing order
    let mut put = |row: usize, val: Real, remaining: &mut [i32]| {
        remaining[row] -= 1;
        dst[(rowadr[row] + remaining[row]) as usize] = val;
    };
    for i in (0..nv).rev() {
        let mut adr = m.dof_Madr[i] as usize;
        put(i, src[adr], remaining);
        adr += 1;
        let mut j = m.dof_parentid[i];
        while let Ok(p) = usize::try_from(j) {
            put(i, src[adr], remaining);
            put(p, src[adr], remaining);
            adr += 1;
            j = m.dof_parentid[p];
        }
    }
}

/// `dst` (in `qM`'s layout) = the lower triangle of `src` (in the `D_*` pattern)
/// (`mj_copyD2MSparse`).
pub fn copy_d2m_sparse(m: &Model, d: &Data, dst: &mut [Real], src: &[Real]) {
    let pat = dof_pattern!(d);
    for i in (0..m.nv).rev() {
        let Some(diag) = pat.diag(i) else { continue };
        // qM's row i runs from the diagonal to the root; the D row holds them in reverse
        let start = pat.rowadr[i] as usize;
        let adr = m.dof_Madr[i] as usize;
        for (k, s) in (start..=diag).rev().enumerate() {
            dst[adr + k] = src[s];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_finds_common_indices() {
        let (a, b) = ([0, 2, 3, 7], [1, 2, 7, 9]);
        let mut m = Merge::new(&a, &b);
        assert_eq!(m.next_common(), Some((1, 1)));
        assert_eq!(m.next_common(), Some((3, 2)));
        assert_eq!(m.next_common(), None);
    }

    #[test]
    fn muscle_slope_matches_finite_difference() {
        let prm = [0.75, 1.05, -1.0, 200.0, 0.5, 1.6, 1.5, 1.3, 1.2];
        let lr = [0.2, 0.4];
        let g = |v: Real| crate::math::misc::muscle_gain(0.3, v, &lr, 10.0, &prm);
        // step and tolerance for the precision of Real (about the cube root of epsilon)
        let (h, tol) = if crate::real::REAL_BYTES == 8 {
            (1e-6, 1e-4)
        } else {
            (1e-3, 1e-2)
        };
        // points away from the kink where the force-velocity curve saturates (v = 0.2 here)
        for v in [-0.5, -0.1, 0.05, 0.12] {
            let fd = (g(v + h) - g(v - h)) / (2.0 * h);
            let an = muscle_gain_vel(0.3, v, &lr, 10.0, &prm);
            // plus the rounding error of the difference quotient itself
            let rounding = 4.0 * crate::real::EPSILON * g(v).abs() / h;
            assert!(
                (fd - an).abs() <= tol * an.abs().max(1.0) + rounding,
                "{v}: {fd} vs {an}"
            );
        }
    }
}
