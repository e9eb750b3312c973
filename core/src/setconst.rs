//! Model constants that the compiler derives by running the model (MuJoCo's `engine_setconst.c`,
//! plus `mj_setTotalmass` and the compiler's `AutoSpringDamper` and `LengthRange` loops):
//!
//! * [`set_const`] (`mj_setConst`): everything that depends on `qpos0` and `qpos_spring`: subtree
//!   masses, the diagonal `dof_M0`, inverse weights of bodies, dofs and tendons, actuator
//!   accelerations, reference lengths, camera and light offsets, equality-constraint data, the
//!   damping of position actuators given a damping ratio, and the model statistics.
//! * [`set_length_range`] (`mj_setLengthRange`): an actuator's length range found by
//!   simulation, and [`set_length_ranges`], the compiler's loop over all actuators.
//! * [`set_total_mass`] (`mj_setTotalmass`) and [`auto_spring_damper`].
//!
//! Scratch memory comes from the data's arena; failures are error values.

use crate::data::Data;
use crate::error::StepError;
use crate::forward::{step1, step2};
use crate::io::reset_data;
use crate::math::mat::{mul_mat_mat_t, rot_vec_mat_t};
use crate::math::misc::{max, mj_max, mj_min};
use crate::math::quat::{mul_quat, neg_quat};
use crate::math::scalar::{abs, exp, sqrt};
use crate::math::vec::{add3, dist3, dot, dot6, dot_on_support, norm, normalize4, scl3, sub3};
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::smooth::{self, solve_ld, solve_m};
use crate::support::{
    body_chain, is_sparse, jac_body_com, jac_offset, jacp_column, jnt_dofnum, local2global_pos,
    v10, v3, v4, v6, v9,
};
use crate::types::*;
use crate::{flex, tendon, transmission};

/// Why [`set_const`] could not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SetConstError {
    /// A pipeline stage failed (arena too small, data of another model).
    Step(StepError),
    /// A movable body has zero mass (MuJoCo: "set0: moving body %d has 0 mass").
    ZeroMass {
        /// The body.
        body: usize,
    },
}

impl From<StepError> for SetConstError {
    fn from(e: StepError) -> Self {
        SetConstError::Step(e)
    }
}

impl From<crate::arena::ArenaError> for SetConstError {
    fn from(e: crate::arena::ArenaError) -> Self {
        SetConstError::Step(StepError::Arena(e))
    }
}

impl core::error::Error for SetConstError {}

impl core::fmt::Display for SetConstError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SetConstError::Step(e) => write!(f, "{e}"),
            SetConstError::ZeroMass { body } => write!(f, "set0: moving body {body} has 0 mass"),
        }
    }
}

/// Checks that `d` was made for a model of `m`'s sizes.
fn check_sizes(m: &Model, d: &Data) -> Result<(), StepError> {
    if d.sizes() == m.sizes() {
        Ok(())
    } else {
        Err(StepError::ModelMismatch)
    }
}

/// Sets the constant fields of the model that the compiler computes by running it
/// (`mj_setConst`), except the actuator length ranges ([`set_length_ranges`]):
///
/// * `body_subtreemass`;
/// * in `qpos0`: `dof_M0`, `flex_xvert0`, `flexedge_length0`, `tendon_length0`,
///   `actuator_length0`, `body_invweight0`, `dof_invweight0`, `flexedge_invweight0`,
///   `tendon_invweight0`, `actuator_acc0`, the missing `eq_data` of connect
///   and weld constraints, `cam_pos0`, `cam_poscom0`, `cam_mat0`, `light_pos0`,
///   `light_poscom0`, `light_dir0`, and `actuator_biasprm[2]` of position-like actuators whose
///   positive `biasprm[2]` is a damping ratio (replaced by minus the damping);
/// * `stat` (center, extent, meansize, meanmass, meaninertia);
/// * in `qpos_spring`: `tendon_lengthspring` of tendons whose spring length is `[-1, -1]`.
///
/// `d` is scratch: its state is overwritten (it ends in `qpos_spring`). It should be freshly
/// reset, as the compiler's is: mocap bodies are taken where `d` has them.
pub fn set_const(m: &mut Model, d: &mut Data) -> Result<(), SetConstError> {
    check_sizes(m, d)?;
    m.body_subtreemass.copy_from_slice(&m.body_mass);
    for i in (1..m.nbody).rev() {
        let child = m.body_subtreemass[i];
        m.body_subtreemass[m.body_parentid[i] as usize] += child;
    }
    set0(m, d)?;
    set_stat(m, d)?;
    set_spring(m, d)?;
    Ok(())
}

/// The diagonal of the mass matrix in `qpos0`, `dof_M0 = armature + cdof' crb cdof`, from the
/// composite inertias in `d.crb` (`mj_setM0`); `crb` uses it for the dofs of simple bodies.
fn set_m0(m: &mut Model, d: &Data) {
    for i in 0..m.nv {
        let cdof = &v6(d.cdof)[i];
        let buf = crate::math::spatial::mul_inert_vec(&v10(d.crb)[m.dof_bodyid[i] as usize], cdof);
        m.dof_M0[i] = m.dof_armature[i] + dot6(cdof, &buf);
    }
}

/// Poses of cameras and lights as if every one were fixed to its body (`mj_camlight` with the
/// modes set to `mjCAMLIGHT_FIXED`, as `set0` does): the `*0` offsets are measured from these.
fn camlight_fixed(m: &mut Model, d: &mut Data) -> Result<(), SetConstError> {
    d.with_stack(|d, stack| {
        let cammode = stack.alloc::<i32>(m.ncam)?;
        let lightmode = stack.alloc::<i32>(m.nlight)?;
        cammode.copy_from_slice(&m.cam_mode);
        lightmode.copy_from_slice(&m.light_mode);
        m.cam_mode.fill(CAMLIGHT_FIXED);
        m.light_mode.fill(CAMLIGHT_FIXED);
        smooth::camlight(m, d);
        m.cam_mode.copy_from_slice(cammode);
        m.light_mode.copy_from_slice(lightmode);
        Ok(())
    })
}

/// The quantities that depend on `qpos0` (MuJoCo's `set0`).
fn set0(m: &mut Model, d: &mut Data) -> Result<(), SetConstError> {
    d.qpos.copy_from_slice(&m.qpos0);
    smooth::kinematics(m, d);
    smooth::com_pos(m, d)?;
    camlight_fixed(m, d)?;
    // composite inertias for dof_M0, then the mass matrix, whose simple dofs use dof_M0
    smooth::crb(m, d);
    set_m0(m, d);
    smooth::crb(m, d);
    smooth::factor_m(m, d);
    flex_rest(m, d)?;
    tendon::tendon(m, d)?;
    transmission::transmission(m, d)?;

    m.tendon_length0.copy_from_slice(d.ten_length);
    m.actuator_length0.copy_from_slice(d.actuator_length);

    let nv = m.nv;
    d.with_stack(|d, stack| -> Result<(), SetConstError> {
        let jac = stack.alloc::<Real>(6 * nv)?;
        let tmp = stack.alloc::<Real>(6 * nv)?;
        // without room for a chain, every body and joint takes MuJoCo's way over all dofs
        let mut chain = Chain::alloc(stack, nv);
        body_invweight0(m, d, jac, tmp, chain.as_mut())?;
        dof_invweight0(m, d, jac, tmp, chain.as_mut())?;
        if nv > 0 {
            flexedge_invweight0(m, d, tmp);
            tendon_invweight0(m, d, tmp);
            for i in 0..m.nu {
                solve_m(
                    m,
                    d,
                    &mut tmp[..nv],
                    &d.actuator_moment[i * nv..(i + 1) * nv],
                    1,
                );
                m.actuator_acc0[i] = norm(&tmp[..nv]);
            }
        } else {
            m.tendon_invweight0.fill(0.0);
            m.actuator_acc0.fill(0.0);
        }
        Ok(())
    })?;

    eq_data0(m, d);
    camlight0(m, d);
    damping_from_dampratio(m, d);
    Ok(())
}

/// The flexes' rest configuration in `qpos0`, `flex_xvert0` and `flexedge_length0` (the part
/// of [`set_const`] that measures the flexes), without the rest of it. The f32 command line
/// runs it in the f32 core on a model whose reals were rounded from f64 (`mjrs compile
/// --f32`): edge lengths rounded from f64 are not the lengths the f32 core computes from the
/// rounded vertex positions, which left every edge equality a residual of an f32 ulp of those
/// positions that the solver then worked on (issue 25: the free-falling bench cloth took 1.5
/// CG iterations per step in f32, none in f64). `d` is scratch, as in [`set_const`].
pub fn set_flex0(m: &mut Model, d: &mut Data) -> Result<(), SetConstError> {
    check_sizes(m, d)?;
    d.qpos.copy_from_slice(&m.qpos0);
    smooth::kinematics(m, d);
    smooth::com_pos(m, d)?;
    flex_rest(m, d)
}

/// `flex_xvert0` and `flexedge_length0` from the kinematics in `d` (positions, Jacobians'
/// centers of mass).
fn flex_rest(m: &mut Model, d: &mut Data) -> Result<(), SetConstError> {
    flex::flex_all_edges(m, d)?;
    m.flex_xvert0.copy_from_slice(d.flexvert_xpos);
    m.flexedge_length0.copy_from_slice(d.flexedge_length);
    Ok(())
}

/// `a = J M⁻¹ J'` (n-by-n, row-major) for the n-by-nv Jacobian `J` in `jac`.
fn inverse_inertia(
    m: &Model,
    d: &Data,
    jac: &[Real],
    tmp: &mut [Real],
    a: &mut [Real; 36],
    n: usize,
) {
    let nv = m.nv;
    solve_m(m, d, &mut tmp[..n * nv], &jac[..n * nv], n);
    mul_mat_mat_t(a, &jac[..n * nv], &tmp[..n * nv], n, nv, n);
}

/// The dofs that move one body or joint, ascending and closed under `dof_parentid`, and each
/// one's place among them: on these alone, `J M⁻¹ J'` of a Jacobian that is zero on the other
/// dofs takes time proportional to their number instead of `nv` (which made compiling n bodies
/// take time quadratic in n).
struct Chain<'s> {
    /// The chain's dofs, ascending, in the first `len` entries.
    dofs: &'s mut [i32],
    /// `place[dof]`: where a dof of the chain sits in `dofs` (other entries are stale).
    place: &'s mut [i32],
    len: usize,
}

impl<'s> Chain<'s> {
    /// Scratch for chains of up to `nv` dofs, or `None` when the arena has no room for it.
    fn alloc(stack: &mut crate::arena::Stack<'s>, nv: usize) -> Option<Self> {
        let dofs = stack.alloc::<i32>(nv).ok()?;
        let place = stack.alloc::<i32>(nv).ok()?;
        Some(Chain {
            dofs,
            place,
            len: 0,
        })
    }

    /// The dofs that move body `body`, the columns of its Jacobians that can be non-zero
    /// (`mj_bodyChain`).
    fn set_body(&mut self, m: &Model, body: usize) {
        self.len = body_chain(m, body, self.dofs);
        self.set_places();
    }

    /// Dof `dof` and its ancestors.
    fn set_dof(&mut self, m: &Model, dof: usize) {
        let mut n = 0;
        let mut da = dof as i32;
        while da >= 0 {
            self.dofs[n] = da;
            n += 1;
            da = m.dof_parentid[da as usize];
        }
        self.dofs[..n].reverse();
        self.len = n;
        self.set_places();
    }

    fn set_places(&mut self) {
        for (k, &dof) in self.dofs[..self.len].iter().enumerate() {
            self.place[dof as usize] = k as i32;
        }
    }

    fn dofs(&self) -> &[i32] {
        &self.dofs[..self.len]
    }
}

/// The diagonal of `a = J M⁻¹ J'` (n-by-n, row-major) for an n-by-nv Jacobian `J` that is
/// zero off the dofs of `chain`, given there as the n-by-`chain.len` `jac`: each element bit for
/// bit as [`inverse_inertia`] computes it, whose dense solve leaves `M⁻¹ J'` on the chain as the
/// chain's solve (`mj_solveM_island`) does. Returns `false`, `a` unfinished, when a diagonal
/// element is zero and only the dense computation tells its sign (see [`dense_zero`]).
fn inverse_inertia_on_chain(
    m: &Model,
    d: &Data,
    chain: &Chain,
    jac: &[Real],
    tmp: &mut [Real],
    a: &mut [Real; 36],
    n: usize,
) -> bool {
    let nc = chain.len;
    tmp[..n * nc].copy_from_slice(&jac[..n * nc]);
    for r in 0..n {
        let x = &mut tmp[r * nc..(r + 1) * nc];
        smooth::solve_m_island(m, d, x, chain.dofs(), chain.place);
    }
    for r in 0..n {
        let (row, sol) = (&jac[r * nc..(r + 1) * nc], &tmp[r * nc..(r + 1) * nc]);
        let v = dot_on_support(m.nv, chain.dofs(), row, sol);
        a[r * n + r] = match v == 0.0 {
            false => v,
            true => match dense_zero(m, chain, row, sol) {
                Some(z) => z,
                None => return false,
            },
        };
    }
    true
}

/// The zero that [`dot`] of a Jacobian row and its `M⁻¹ J'` row gives when the chain's
/// products sum to zero: `-0` only when `nv >= 4` and all nv products are `-0`. Off the chain
/// the row is `+0`, and `M⁻¹ J'` is `+0` in every other kinematic tree, so another tree means
/// a `+0` product; with a single tree the signs off the chain are unknown (`None`).
fn dense_zero(m: &Model, chain: &Chain, row: &[Real], sol: &[Real]) -> Option<Real> {
    let negative_zero = |p: Real| p == 0.0 && p.is_sign_negative();
    if m.nv < 4 || !row.iter().zip(sol).all(|(&a, &b)| negative_zero(a * b)) {
        Some(0.0)
    } else if chain.len == m.nv {
        Some(-0.0)
    } else if m.ntree > 1 {
        Some(0.0)
    } else {
        None
    }
}

/// The diagonal of `a = J M⁻¹ J'` for the Jacobian of body `body`'s center of mass, on its
/// chain when there is scratch for one, else (or when a zero's sign needs it) over all dofs.
fn body_inverse_inertia(
    m: &Model,
    d: &Data,
    body: usize,
    jac: &mut [Real],
    tmp: &mut [Real],
    chain: Option<&mut Chain>,
    a: &mut [Real; 36],
) {
    if let Some(chain) = chain {
        chain.set_body(m, body);
        let nc = chain.len;
        let offset = jac_offset(m, d, &v3(d.xipos)[body], body);
        for (k, &dof) in chain.dofs().iter().enumerate() {
            let c = &v6(d.cdof)[dof as usize];
            let p = jacp_column(c, &offset);
            for r in 0..3 {
                jac[r * nc + k] = p[r];
                jac[(r + 3) * nc + k] = c[r];
            }
        }
        if inverse_inertia_on_chain(m, d, chain, jac, tmp, a, 6) {
            return;
        }
    }
    let nv = m.nv;
    let (jacp, jacr) = jac[..6 * nv].split_at_mut(3 * nv);
    jac_body_com(m, d, Some(jacp), Some(jacr), body);
    inverse_inertia(m, d, jac, tmp, a, 6);
}

/// The diagonal of `a = J M⁻¹ J'` for the `dnum` dofs of a joint from `dofadr` (`J` their rows
/// of the identity), on their chain when there is scratch for one, else over all dofs.
fn joint_inverse_inertia(
    m: &Model,
    d: &Data,
    dofadr: usize,
    dnum: usize,
    jac: &mut [Real],
    tmp: &mut [Real],
    chain: Option<&mut Chain>,
    a: &mut [Real; 36],
) {
    if let Some(chain) = chain {
        chain.set_dof(m, dofadr + dnum - 1);
        let nc = chain.len;
        jac[..dnum * nc].fill(0.0);
        for k in 0..dnum {
            jac[k * nc + chain.place[dofadr + k] as usize] = 1.0;
        }
        if inverse_inertia_on_chain(m, d, chain, jac, tmp, a, dnum) {
            return;
        }
    }
    let nv = m.nv;
    jac[..dnum * nv].fill(0.0);
    for k in 0..dnum {
        jac[k * nv + dofadr + k] = 1.0;
    }
    inverse_inertia(m, d, jac, tmp, a, dnum);
}

/// `1 / mass` of a body that moves without rotating, or the zero-mass error.
fn inverse_mass(m: &Model, body: usize) -> Result<Real, SetConstError> {
    let mass = m.body_mass[body];
    if mass == 0.0 {
        return Err(SetConstError::ZeroMass { body });
    }
    Ok(1.0 / max(MINVAL, mass))
}

/// `body_invweight0`: zero for bodies welded to the world, `1/mass` for bodies that only
/// translate, else the mean translational and rotational diagonals of `J M⁻¹ J'` at the com.
fn body_invweight0(
    m: &mut Model,
    d: &Data,
    jac: &mut [Real],
    tmp: &mut [Real],
    mut chain: Option<&mut Chain>,
) -> Result<(), SetConstError> {
    let nv = m.nv;
    // kept between bodies, as MuJoCo's (all zero when there are no dofs)
    let mut a = [0.0; 36];
    m.body_invweight0[0] = 0.0;
    m.body_invweight0[1] = 0.0;
    for i in 1..m.nbody {
        let w = if m.body_weldid[i] == 0 {
            [0.0, 0.0]
        } else if m.body_simple[i] == 2 {
            [inverse_mass(m, i)?, 0.0]
        } else {
            if nv > 0 {
                body_inverse_inertia(m, d, i, jac, tmp, chain.as_deref_mut(), &mut a);
            }
            [(a[0] + a[7] + a[14]) / 3.0, (a[21] + a[28] + a[35]) / 3.0]
        };
        m.body_invweight0[2 * i..2 * i + 2].copy_from_slice(&w);
    }
    Ok(())
}

/// `dof_invweight0`: `1/mass` for the slides of bodies that only translate, else the mean
/// diagonal of the joint's block of `M⁻¹` (translational and rotational halves of a free joint
/// apart).
fn dof_invweight0(
    m: &mut Model,
    d: &Data,
    jac: &mut [Real],
    tmp: &mut [Real],
    mut chain: Option<&mut Chain>,
) -> Result<(), SetConstError> {
    let nv = m.nv;
    let mut a = [0.0; 36];
    for j in 0..m.njnt {
        let id = m.jnt_dofadr[j] as usize;
        let body = m.jnt_bodyid[j] as usize;
        if m.body_simple[body] == 2 {
            m.dof_invweight0[id] = inverse_mass(m, body)?;
            continue;
        }
        let dnum = jnt_dofnum(m.jnt_type[j]);
        if nv > 0 {
            joint_inverse_inertia(m, d, id, dnum, jac, tmp, chain.as_deref_mut(), &mut a);
        }
        let w = &mut m.dof_invweight0[id..id + dnum];
        match dnum {
            6 => {
                w[..3].fill((a[0] + a[7] + a[14]) / 3.0);
                w[3..].fill((a[21] + a[28] + a[35]) / 3.0);
            }
            3 => w.fill((a[0] + a[4] + a[8]) / 3.0),
            _ => w[0] = a[0],
        }
    }
    Ok(())
}

/// `flexedge_invweight0` of each flex edge: 0 when rigid, the mean inverse mass of its two
/// bodies when both are simple without rotations, else `J M⁻¹ J'` (needs `nv > 0` and 2·nv
/// scratch in `tmp`).
fn flexedge_invweight0(m: &mut Model, d: &Data, tmp: &mut [Real]) {
    let nv = m.nv;
    let (jrow, sol) = tmp[..2 * nv].split_at_mut(nv);
    for f in 0..m.nflex {
        let vbase = m.flex_vertadr[f] as usize;
        let start = m.flex_edgeadr[f] as usize;
        for e in start..start + m.flex_edgenum[f] as usize {
            let body = |k: usize| m.flex_vertbodyid[vbase + m.flex_edge[2 * e + k] as usize];
            let (b1, b2) = (body(0) as usize, body(1) as usize);
            m.flexedge_invweight0[e] = if m.flexedge_rigid[e] != 0 {
                0.0
            } else if m.body_simple[b1] == 2 && m.body_simple[b2] == 2 {
                (1.0 / m.body_mass[b1] + 1.0 / m.body_mass[b2]) / 2.0
            } else {
                if is_sparse(m) {
                    jrow.fill(0.0);
                    let adr = d.flexedge_J_rowadr[e] as usize;
                    for k in adr..adr + d.flexedge_J_rownnz[e] as usize {
                        jrow[d.flexedge_J_colind[k] as usize] = d.flexedge_J[k];
                    }
                } else {
                    jrow.copy_from_slice(&d.flexedge_J[e * nv..(e + 1) * nv]);
                }
                solve_m(m, d, sol, jrow, 1);
                dot(jrow, sol)
            };
        }
    }
}

/// `tendon_invweight0 = J M⁻¹ J'` of each tendon (needs `nv > 0` and 2·nv scratch in `tmp`).
fn tendon_invweight0(m: &mut Model, d: &Data, tmp: &mut [Real]) {
    let nv = m.nv;
    let (jrow, sol) = tmp[..2 * nv].split_at_mut(nv);
    for i in 0..m.ntendon {
        if is_sparse(m) {
            jrow.fill(0.0);
            let start = d.ten_J_rowadr[i] as usize;
            for k in start..start + d.ten_J_rownnz[i] as usize {
                jrow[d.ten_J_colind[k] as usize] = d.ten_J[k];
            }
        } else {
            jrow.copy_from_slice(&d.ten_J[i * nv..(i + 1) * nv]);
        }
        solve_m(m, d, sol, jrow, 1);
        m.tendon_invweight0[i] = dot(jrow, sol);
    }
}

/// The parts of `eq_data` the compiler leaves to be measured in `qpos0`: a connect's anchor in
/// body 2's frame; a weld's anchor in body 1's frame and relative orientation, unless the
/// weld's orientation was given (then only normalized).
fn eq_data0(m: &mut Model, d: &Data) {
    for i in 0..m.neq {
        let id1 = m.eq_obj1id[i] as usize;
        let id2 = m.eq_obj2id[i] as usize;
        let eq_type = m.eq_type[i];
        let data = &mut m.eq_data[NEQDATA * i..NEQDATA * (i + 1)];
        let anchor = [data[0], data[1], data[2]];
        // the anchor is on body 1 for a connect, on body 2 for a weld; measured from the other
        let (on, from) = match eq_type {
            EQ_CONNECT => (id1, id2),
            EQ_WELD => {
                if data[6..10].iter().any(|&q| q != 0.0) {
                    let mut quat = [data[6], data[7], data[8], data[9]];
                    normalize4(&mut quat);
                    data[6..10].copy_from_slice(&quat);
                    continue;
                }
                (id2, id1)
            }
            _ => continue,
        };
        let pos = local2global_pos(d.xpos, d.xmat, d.xipos, &anchor, on, 0);
        let rel = sub3(&pos, &v3(d.xpos)[from]);
        data[3..6].copy_from_slice(&rot_vec_mat_t(&rel, &v9(d.xmat)[from]));
        if eq_type == EQ_WELD {
            let quat = mul_quat(&neg_quat(&v4(d.xquat)[id1]), &v4(d.xquat)[id2]);
            data[6..10].copy_from_slice(&quat);
        }
    }
}

/// Camera and light offsets from their body (`*_pos0`) and from the subtree com of their
/// target, or of their body when they have none (`*_poscom0`), and their orientation
/// (`cam_mat0`, `light_dir0`).
fn camlight0(m: &mut Model, d: &Data) {
    for i in 0..m.ncam {
        let id = m.cam_bodyid[i] as usize;
        let com = usize::try_from(m.cam_targetbodyid[i]).unwrap_or(id);
        let xpos = &v3(d.cam_xpos)[i];
        m.cam_pos0[3 * i..3 * i + 3].copy_from_slice(&sub3(xpos, &v3(d.xpos)[id]));
        m.cam_poscom0[3 * i..3 * i + 3].copy_from_slice(&sub3(xpos, &v3(d.subtree_com)[com]));
        m.cam_mat0[9 * i..9 * i + 9].copy_from_slice(&d.cam_xmat[9 * i..9 * i + 9]);
    }
    for i in 0..m.nlight {
        let id = m.light_bodyid[i] as usize;
        let com = usize::try_from(m.light_targetbodyid[i]).unwrap_or(id);
        let xpos = &v3(d.light_xpos)[i];
        m.light_pos0[3 * i..3 * i + 3].copy_from_slice(&sub3(xpos, &v3(d.xpos)[id]));
        m.light_poscom0[3 * i..3 * i + 3].copy_from_slice(&sub3(xpos, &v3(d.subtree_com)[com]));
        m.light_dir0[3 * i..3 * i + 3].copy_from_slice(&d.light_xdir[3 * i..3 * i + 3]);
    }
}

/// Position-like actuators (`gainprm[0] == -biasprm[1]`) with a positive `biasprm[2]` read it
/// as a damping ratio: `biasprm[2] = -dampratio * 2 sqrt(kp * mass)`, with the mass reflected
/// through the transmission, `Σ dof_M0 / moment²` over the dofs it moves.
fn damping_from_dampratio(m: &mut Model, d: &Data) {
    let nv = m.nv;
    for i in 0..m.nu {
        let kp = m.actuator_gainprm[NGAIN * i];
        let biasprm = &m.actuator_biasprm[NBIAS * i..NBIAS * (i + 1)];
        if kp != -biasprm[1] || biasprm[2] <= 0.0 {
            continue;
        }
        let mut mass = 0.0;
        for (j, &t) in d.actuator_moment[i * nv..(i + 1) * nv].iter().enumerate() {
            let trn = abs(t);
            let trn2 = trn * trn;
            if trn2 > MINVAL {
                mass += m.dof_M0[j] / trn2;
            }
        }
        let damping = biasprm[2] * 2.0 * sqrt(kp * mass);
        m.actuator_biasprm[NBIAS * i + 2] = -damping;
    }
}

/// Grows the box `[xmin, xmax]` to hold a ball of `radius` at `pos` (MuJoCo's `updateBox`).
fn update_box(xmin: &mut [Real; 3], xmax: &mut [Real; 3], pos: &[Real; 3], radius: Real) {
    for k in 0..3 {
        xmin[k] = mj_min(xmin[k], pos[k] - radius);
        xmax[k] = mj_max(xmax[k], pos[k] + radius);
    }
}

/// The radius a geom adds to the bounding box: its `rbound`, or a tenth of the largest size of
/// a plane (1 for an infinite plane) or height field.
fn geom_box_radius(m: &Model, i: usize) -> Real {
    if m.geom_rbound[i] > 0.0 {
        return m.geom_rbound[i];
    }
    let size = &v3(&m.geom_size)[i];
    match m.geom_type[i] {
        GEOM_PLANE if size[0] != 0.0 || size[1] != 0.0 => mj_max(size[0], size[1]) * 0.1,
        GEOM_PLANE => 1.0,
        GEOM_HFIELD => {
            let s = v4(&m.hfield_size)[m.geom_dataid[i] as usize];
            mj_max(s[0], mj_max(s[1], mj_max(s[2], s[3]))) * 0.1
        }
        _ => 0.0,
    }
}

/// Model statistics from the pose computed by `set0` (MuJoCo's `setStat`): `center` and
/// `extent` of the bounding box of bodies, joints, sites and geoms; `meansize` of the bodies
/// (com-to-joint and com-to-geom distances); `meanmass`; `meaninertia` (mean diagonal of `qM`).
/// A statistic without anything to measure keeps its value.
fn set_stat(m: &mut Model, d: &mut Data) -> Result<(), SetConstError> {
    let mut xmin: [Real; 3] = [1e10; 3];
    let mut xmax: [Real; 3] = [-1e10; 3];
    for i in 1..m.nbody {
        update_box(&mut xmin, &mut xmax, &v3(d.xpos)[i], 0.0);
        update_box(&mut xmin, &mut xmax, &v3(d.xipos)[i], 0.0);
    }
    for p in v3(d.xanchor) {
        update_box(&mut xmin, &mut xmax, p, 0.0);
    }
    for p in v3(d.site_xpos) {
        update_box(&mut xmin, &mut xmax, p, 0.0);
    }
    for i in 0..m.ngeom {
        update_box(
            &mut xmin,
            &mut xmax,
            &v3(d.geom_xpos)[i],
            geom_box_radius(m, i),
        );
    }

    m.stat.center = scl3(&add3(&xmin, &xmax), 0.5);
    if xmax[0] > xmin[0] {
        let size = max(xmax[0] - xmin[0], max(xmax[1] - xmin[1], xmax[2] - xmin[2]));
        m.stat.extent = max(1e-5, size);
    }

    d.with_stack(|d, stack| -> Result<(), SetConstError> {
        let body = stack.alloc_zeroed::<Real>(m.nbody)?;
        // com-to-joint distances, for the joint's body and its parent
        for j in 0..m.njnt {
            let anchor = &v3(d.xanchor)[j];
            let mut id = m.jnt_bodyid[j] as usize;
            body[id] = max(body[id], dist3(&v3(d.xipos)[id], anchor));
            id = m.body_parentid[id] as usize;
            body[id] = max(body[id], dist3(&v3(d.xipos)[id], anchor));
        }
        body[0] = 0.0;
        // com-to-geom distances plus the geom's bounding radius
        for i in 1..m.nbody {
            let adr = m.body_geomadr[i].max(0) as usize;
            for g in adr..adr + m.body_geomnum[i] as usize {
                if m.geom_rbound[g] > 0.0 {
                    let reach = m.geom_rbound[g] + dist3(&v3(d.xipos)[i], &v3(d.geom_xpos)[g]);
                    body[i] = max(body[i], reach);
                }
            }
        }
        // a body reaches at least as far as the rest length of its flex edges
        for f in 0..m.nflex {
            let vbase = m.flex_vertadr[f] as usize;
            let start = m.flex_edgeadr[f] as usize;
            for e in start..start + m.flex_edgenum[f] as usize {
                for k in 0..2 {
                    let b = m.flex_vertbodyid[vbase + m.flex_edge[2 * e + k] as usize] as usize;
                    body[b] = max(body[b], m.flexedge_length0[e]);
                }
            }
        }
        if m.nbody > 1 {
            let n = (m.nbody - 1) as Real;
            m.stat.meansize = 0.0;
            for b in &mut body[1..] {
                *b = max(*b, 1e-5);
                m.stat.meansize += *b / n;
            }
        }
        Ok(())
    })?;
    m.stat.extent = max(m.stat.extent, 2.0 * m.stat.meansize);

    if m.nbody > 1 {
        m.stat.meanmass = m.body_mass[1..].iter().fold(0.0, |s, &x| s + x);
        m.stat.meanmass /= (m.nbody - 1) as Real;
    }
    if m.nv > 0 {
        let madr = &m.dof_Madr[..m.nv];
        m.stat.meaninertia = madr.iter().fold(0.0, |s, &a| s + d.qM[a as usize]);
        m.stat.meaninertia /= m.nv as Real;
    }
    Ok(())
}

/// The quantities that depend on `qpos_spring` (MuJoCo's `setSpring`): tendons whose spring
/// length is `[-1, -1]` (not given) get their length in `qpos_spring` at both ends.
fn set_spring(m: &mut Model, d: &mut Data) -> Result<(), SetConstError> {
    d.qpos.copy_from_slice(&m.qpos_spring);
    smooth::kinematics(m, d);
    smooth::com_pos(m, d)?;
    tendon::tendon(m, d)?;
    transmission::transmission(m, d)?;
    for i in 0..m.ntendon {
        let spring = &mut m.tendon_lengthspring[2 * i..2 * i + 2];
        if spring[0] == -1.0 && spring[1] == -1.0 {
            spring.fill(d.ten_length[i]);
        }
    }
    Ok(())
}

// ------------------------------------------------------------------------------------------------
// actuator length ranges

/// Options of the length-range computation (`mjLROpt`, defaults of `mj_defaultLROpt`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LROpt {
    /// Which actuators to process (`LRMODE_*`: none, muscle, muscle and user, all).
    pub mode: i32,
    /// Keep a length range that is already valid (`lengthrange[0] < lengthrange[1]`).
    pub useexisting: bool,
    /// Use the range of a limited joint or tendon instead of simulating (which object MuJoCo
    /// 3.1.6 looks at is peculiar, see [`set_length_range`]).
    pub uselimit: bool,
    /// Target acceleration used to compute the force.
    pub accel: Real,
    /// Largest force applied; 0: no limit.
    pub maxforce: Real,
    /// Time constant of the velocity reduction; at least 0.01.
    pub timeconst: Real,
    /// Timestep of the simulation; 0: `opt.timestep`. Applied by [`set_length_ranges`], not by
    /// [`set_length_range`] (as in MuJoCo, where the compiler applies it).
    pub timestep: Real,
    /// Total simulated time per direction.
    pub inttotal: Real,
    /// Final time interval over which the length is evaluated.
    pub interval: Real,
    /// Convergence tolerance, relative to the range.
    pub tolrange: Real,
}

impl Default for LROpt {
    /// `mj_defaultLROpt`.
    fn default() -> Self {
        Self {
            mode: LRMODE_MUSCLE,
            useexisting: true,
            uselimit: false,
            accel: 20.0,
            maxforce: 0.0,
            timeconst: 1.0,
            timestep: 0.01,
            inttotal: 10.0,
            interval: 2.0,
            tolrange: 0.05,
        }
    }
}

/// Why a length range could not be computed; `Display` gives MuJoCo's message.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum LengthRangeError {
    /// The actuator index is out of range.
    InvalidIndex {
        /// The index given.
        index: usize,
    },
    /// The simulation became unstable and was reset (MuJoCo detects a reset only when it leaves
    /// the time at 0, and loops forever on resets that recur; mjrs stops at the third).
    Unstable {
        /// The actuator.
        actuator: usize,
    },
    /// The lengths found do not make a range (`min >= max`).
    InvalidRange {
        /// The actuator.
        actuator: usize,
        /// The lengths found: minimum when pulling, maximum when pushing.
        range: [Real; 2],
    },
    /// The length still varied by more than `tolrange` of the range in the evaluation interval.
    NotConverged {
        /// The actuator.
        actuator: usize,
        /// 0: pulling (towards the minimum), 1: pushing (towards the maximum).
        side: usize,
        /// Smallest and largest length in the evaluation interval of that side.
        eval: [Real; 2],
        /// The range found.
        range: [Real; 2],
    },
    /// A simulation step failed.
    Step(StepError),
}

impl From<StepError> for LengthRangeError {
    fn from(e: StepError) -> Self {
        LengthRangeError::Step(e)
    }
}

impl core::error::Error for LengthRangeError {}

impl core::fmt::Display for LengthRangeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            LengthRangeError::InvalidIndex { .. } => {
                f.write_str("mj_setLengthRange: invalid actuator index")
            }
            LengthRangeError::Unstable { actuator } => {
                write!(f, "Unstable lengthrange simulation in actuator {actuator}")
            }
            LengthRangeError::InvalidRange { actuator, range } => write!(
                f,
                "Invalid lengthrange ({}, {}) in actuator {actuator}",
                G(range[0]),
                G(range[1])
            ),
            LengthRangeError::NotConverged {
                actuator,
                side,
                eval,
                range,
            } => write!(
                f,
                "Lengthrange computation did not converge in actuator {actuator}:\n  \
                 eval ({}, {})\n{}range ({}, {})",
                G(eval[0]),
                G(eval[1]),
                // MuJoCo's message for side 1 indents "range" by one space
                if side == 0 { "  " } else { " " },
                G(range[0]),
                G(range[1])
            ),
            LengthRangeError::Step(e) => write!(f, "{e}"),
        }
    }
}

/// A number printed as C's `%g`: six significant digits, trailing zeros removed, exponent form
/// below 1e-4 and from 1e6 on.
struct G(Real);

impl core::fmt::Display for G {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use core::fmt::Write;
        #[allow(clippy::useless_conversion)] // f64 -> f64 unless Real is f32
        let x = f64::from(self.0);
        if x.is_nan() {
            return f.write_str(if x.is_sign_negative() { "-nan" } else { "nan" });
        }
        if x.is_infinite() {
            return f.write_str(if x < 0.0 { "-inf" } else { "inf" });
        }
        // the exponent after rounding to six digits decides the form
        let mut e_form = heapless::String::<40>::new();
        write!(e_form, "{x:.5e}")?;
        let (mantissa, exp) = e_form.split_once('e').unwrap_or((&e_form, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let trim = |s: &str| -> heapless::String<40> {
            let s = if s.contains('.') {
                s.trim_end_matches('0').trim_end_matches('.')
            } else {
                s
            };
            heapless::String::try_from(s).unwrap_or_default()
        };
        if (-4..6).contains(&exp) {
            let mut fixed = heapless::String::<40>::new();
            write!(fixed, "{:.*}", (5 - exp) as usize, x)?;
            f.write_str(&trim(&fixed))
        } else {
            let sign = if exp < 0 { '-' } else { '+' };
            write!(f, "{}e{sign}{:02}", trim(mantissa), exp.abs())
        }
    }
}

/// Whether `opt.mode` leaves actuator `i` out, and whether its existing range is kept.
fn skip_actuator(m: &Model, i: usize, opt: &LROpt) -> bool {
    let ismuscle = m.actuator_gaintype[i] == GAIN_MUSCLE || m.actuator_biastype[i] == BIAS_MUSCLE;
    let isuser = m.actuator_gaintype[i] == GAIN_USER || m.actuator_biastype[i] == BIAS_USER;
    let left_out = opt.mode == LRMODE_NONE
        || (opt.mode == LRMODE_MUSCLE && !ismuscle)
        || (opt.mode == LRMODE_MUSCLEUSER && !ismuscle && !isuser);
    let existing =
        opt.useexisting && m.actuator_lengthrange[2 * i] < m.actuator_lengthrange[2 * i + 1];
    left_out || existing
}

/// The range of the limited joint or tendon that `uselimit` takes for actuator `index`.
///
/// MuJoCo 3.1.6 reads the object id as `actuator_trnid[index]`, not `actuator_trnid[2*index]`:
/// the flat array at the actuator's index, which for actuator `i > 0` is the first or second id
/// of actuator `i/2`. This reproduces it, so that `uselimit` gives MuJoCo's results. Where
/// MuJoCo then reads outside `jnt_limited` or `tendon_limited` (an id of -1 or beyond the
/// array; undefined there), the object counts as unlimited.
fn transmission_limit(m: &Model, index: usize) -> Option<[Real; 2]> {
    let id = usize::try_from(m.actuator_trnid[index]).ok()?;
    let (limited, range) = match m.actuator_trntype[index] {
        TRN_JOINT | TRN_JOINTINPARENT => (m.jnt_limited.get(id)?, &m.jnt_range),
        TRN_TENDON => (m.tendon_limited.get(id)?, &m.tendon_range),
        _ => return None,
    };
    (*limited != 0).then(|| [range[2 * id], range[2 * id + 1]])
}

/// One step of the length-range simulation (MuJoCo's `evalAct`): damps the velocity, applies
/// the force that accelerates actuator `index` by `accel` (negative on side 0, capped by
/// `maxforce`), steps, and returns the actuator's length.
fn eval_act(
    m: &Model,
    d: &mut Data,
    index: usize,
    side: usize,
    opt: &LROpt,
) -> Result<Real, StepError> {
    let nv = m.nv;
    let decay = exp(-m.opt.timestep / mj_max(0.01, opt.timeconst));
    for v in d.qvel.iter_mut() {
        *v *= decay;
    }
    step1(m, d)?;

    // direction of the force that accelerates the actuator: M⁻¹ moment
    let moment = &d.actuator_moment[index * nv..(index + 1) * nv];
    d.qfrc_applied.copy_from_slice(moment);
    solve_ld(m, d.qfrc_applied, 1, d.qLD, d.qLDiagInv);
    let nrm = norm(d.qfrc_applied);
    // MuJoCo's (2*side - 1): -1 pulls, +1 pushes
    let sign: Real = if side == 0 { -1.0 } else { 1.0 };
    let scale = sign * opt.accel / mj_max(MINVAL, nrm);
    for (f, &g) in d.qfrc_applied.iter_mut().zip(moment) {
        *f = g * scale;
    }
    let nrm = norm(d.qfrc_applied);
    if opt.maxforce > 0.0 && nrm > opt.maxforce {
        let scale = opt.maxforce / mj_max(MINVAL, nrm);
        for f in d.qfrc_applied.iter_mut() {
            *f *= scale;
        }
    }

    step2(m, d)?;
    Ok(d.actuator_length[index])
}

/// Sets `actuator_lengthrange` of actuator `index` (`mj_setLengthRange`): nothing when `opt`
/// leaves it out or keeps its existing range; the limits of its joint or tendon with
/// `uselimit`; else by simulation from `qpos0`, pulling then pushing the actuator with a force
/// that accelerates it by `opt.accel` while damping the velocity with `opt.timeconst`, the range
/// being the minimum (maximum) length over the last `opt.interval` of `opt.inttotal`.
///
/// With `uselimit`, the joint or tendon is found as MuJoCo 3.1.6 finds it: by the id at
/// `actuator_trnid[index]` of the flat array, not `actuator_trnid[2 * index]`, so that only
/// actuator 0 looks at its own joint or tendon (bit-for-bit agreement includes this).
///
/// `d` is scratch (reset before each direction). Runs with the model's options as they are:
/// the compiler disables contacts, passive forces, gravity and actuation first, and sets the
/// timestep ([`set_length_ranges`] does that).
pub fn set_length_range(
    m: &mut Model,
    d: &mut Data,
    index: usize,
    opt: &LROpt,
) -> Result<(), LengthRangeError> {
    check_sizes(m, d)?;
    if index >= m.nu {
        return Err(LengthRangeError::InvalidIndex { index });
    }
    if skip_actuator(m, index, opt) {
        return Ok(());
    }

    if opt.uselimit {
        if let Some(range) = transmission_limit(m, index) {
            m.actuator_lengthrange[2 * index..2 * index + 2].copy_from_slice(&range);
            return Ok(());
        }
    }

    // side 0 pulls (shortest length), side 1 pushes (longest)
    let mut lmin: [Real; 2] = [0.0; 2];
    let mut lmax: [Real; 2] = [0.0; 2];
    for side in 0..2 {
        reset_data(m, d);
        let mut updated = false;
        let mut stalled = 0;
        while d.time < opt.inttotal {
            let before = d.time;
            let len = eval_act(m, d, index, side, opt)?;
            if d.time == 0.0 {
                return Err(LengthRangeError::Unstable { actuator: index });
            }
            // Time that does not advance means a reset by the state checks (then the step
            // after it restarts from `timestep`) or a timestep <= 0. After a reset the
            // simulation is the same as after any earlier reset of the same kind (in step1 or
            // in step2), so a third one repeats a cycle forever: MuJoCo 3.1.6 never returns
            // there; this returns the error meant for a reset.
            if d.time <= before {
                stalled += 1;
                if stalled == 3 {
                    return Err(LengthRangeError::Unstable { actuator: index });
                }
            }
            if d.time > opt.inttotal - opt.interval {
                if len < lmin[side] || !updated {
                    lmin[side] = len;
                }
                if len > lmax[side] || !updated {
                    lmax[side] = len;
                }
                updated = true;
            }
        }
        m.actuator_lengthrange[2 * index + side] = if side == 0 { lmin[0] } else { lmax[1] };
    }

    let range = [
        m.actuator_lengthrange[2 * index],
        m.actuator_lengthrange[2 * index + 1],
    ];
    let dif = range[1] - range[0];
    if dif <= 0.0 {
        return Err(LengthRangeError::InvalidRange {
            actuator: index,
            range,
        });
    }
    for side in 0..2 {
        if lmax[side] - lmin[side] > opt.tolrange * dif {
            return Err(LengthRangeError::NotConverged {
                actuator: index,
                side,
                eval: [lmin[side], lmax[side]],
                range,
            });
        }
    }
    Ok(())
}

/// The compiler's length-range pass (`mjCModel::LengthRange`): with contacts, passive forces,
/// gravity, actuation and frictionloss disabled (every other disable flag cleared) and the
/// timestep `opt.timestep` if positive, [`set_length_range`] for every actuator in order,
/// stopping at the first error; the model's options are restored in any case.
///
/// MuJoCo may spread the actuators over threads, each with its own data; every actuator's
/// simulation starts from a reset, so the results and the error reported (that of the first
/// failing actuator) are the same as this sequential loop's.
pub fn set_length_ranges(m: &mut Model, d: &mut Data, opt: &LROpt) -> Result<(), LengthRangeError> {
    let saved = m.opt;
    m.opt.disableflags =
        DSBL_FRICTIONLOSS | DSBL_CONTACT | DSBL_PASSIVE | DSBL_GRAVITY | DSBL_ACTUATION;
    if opt.timestep > 0.0 {
        m.opt.timestep = opt.timestep;
    }
    let result = (0..m.nu).try_for_each(|i| set_length_range(m, d, i, opt));
    m.opt = saved;
    result
}

// ------------------------------------------------------------------------------------------------
// mass scaling, automatic springs

/// Scales the masses and inertias of all bodies so that they weigh `newmass` together
/// (`mj_setTotalmass`). [`set_const`] must run afterwards.
pub fn set_total_mass(m: &mut Model, newmass: Real) {
    let scale = max(
        MINVAL,
        newmass / max(MINVAL, crate::support::get_totalmass(m)),
    );
    for i in 1..m.nbody {
        m.body_mass[i] *= scale;
        for x in &mut m.body_inertia[3 * i..3 * i + 3] {
            *x *= scale;
        }
    }
}

/// Joint stiffness and damping from a time constant and damping ratio per joint
/// (`mjCModel::AutoSpringDamper`, the joint attribute `springdamper`): with the joint's mean
/// `dof_invweight0` as inverse inertia `1/I`, `jnt_stiffness = I / (timeconst² dampratio²)` and
/// `dof_damping = 2 I / timeconst`. Joints with a non-positive parameter are left alone;
/// `springdamper` has one `[timeconst, dampratio]` per joint (missing ones count as zero).
/// Runs after [`set_const`], which computes `dof_invweight0`.
pub fn auto_spring_damper(m: &mut Model, springdamper: &[[Real; 2]]) {
    for (n, &[timeconst, dampratio]) in springdamper.iter().enumerate().take(m.njnt) {
        if timeconst <= 0.0 || dampratio <= 0.0 {
            continue;
        }
        let adr = m.jnt_dofadr[n] as usize;
        let ndim = jnt_dofnum(m.jnt_type[n]);
        let invweight = m.dof_invweight0[adr..adr + ndim]
            .iter()
            .fold(0.0, |s, &w| s + w);
        let inertia = ndim as Real / max(MINVAL, invweight);
        let stiffness = inertia / max(MINVAL, timeconst * timeconst * dampratio * dampratio);
        let damping = 2.0 * inertia / max(MINVAL, timeconst);
        m.jnt_stiffness[n] = stiffness;
        m.dof_damping[adr..adr + ndim].fill(damping);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // values chosen in double precision (%g rounds the double MuJoCo passes to printf)
    #[cfg(not(feature = "f32"))]
    #[test]
    fn g_prints_like_c() {
        let cases: [(Real, &str); 14] = [
            (0.0, "0"),
            (1.0, "1"),
            (-2.5, "-2.5"),
            (0.1, "0.1"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (0.0001, "0.0001"),
            (0.00001234, "1.234e-05"),
            (0.3333333333, "0.333333"),
            (999999.5, "1e+06"),
            (0.00009999995, "0.0001"),
            (1e100, "1e+100"),
            (Real::INFINITY, "inf"),
            (Real::NAN, "nan"),
        ];
        for (x, s) in cases {
            assert_eq!(format!("{}", G(x)), s, "{x}");
        }
    }

    #[test]
    fn messages_are_mujocos() {
        let e = LengthRangeError::NotConverged {
            actuator: 3,
            side: 1,
            eval: [0.5, 1.25],
            range: [0.1, 2.0],
        };
        assert_eq!(
            format!("{e}"),
            "Lengthrange computation did not converge in actuator 3:\n  eval (0.5, 1.25)\n range (0.1, 2)"
        );
        let e = LengthRangeError::InvalidRange {
            actuator: 0,
            range: [0.0, -1e-7],
        };
        assert_eq!(
            format!("{e}"),
            "Invalid lengthrange (0, -1e-07) in actuator 0"
        );
    }
}
