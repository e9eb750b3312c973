//! The row writer of `mj_makeConstraint` (`mj_addConstraint`): appends rows of a type, with
//! their Jacobian (dense, or sparse with its columns), position, margin and friction loss.

use super::MISALLOCATED;
use crate::arena::ArenaArraysMut;
use crate::data::Contact;
use crate::error::StepError;
use crate::model::Model;
use crate::real::Real;
use crate::types::*;

/// The row arrays being filled, and the counts so far.
pub(super) struct Rows<'r> {
    pub(super) sparse: bool,
    pub(super) nv: usize,
    pub(super) nefc: usize,
    pub(super) ne: usize,
    pub(super) nf: usize,
    pub(super) nl: usize,
    pub(super) efc_type: &'r mut [i32],
    pub(super) efc_id: &'r mut [i32],
    pub(super) rownnz: &'r mut [i32],
    pub(super) rowadr: &'r mut [i32],
    pub(super) colind: &'r mut [i32],
    pub(super) efc_J: &'r mut [Real],
    pub(super) pos: &'r mut [Real],
    pub(super) margin: &'r mut [Real],
    pub(super) frictionloss: &'r mut [Real],
    pub(super) tendon_efcadr: &'r mut [i32],
    pub(super) contact: &'r mut [Contact],
}

impl<'r> Rows<'r> {
    pub(super) fn new(m: &Model, sparse: bool, a: &'r mut ArenaArraysMut<'_>) -> Self {
        Rows {
            sparse,
            nv: m.nv,
            nefc: 0,
            ne: 0,
            nf: 0,
            nl: 0,
            efc_type: &mut *a.efc_type,
            efc_id: &mut *a.efc_id,
            rownnz: &mut *a.efc_J_rownnz,
            rowadr: &mut *a.efc_J_rowadr,
            colind: &mut *a.efc_J_colind,
            efc_J: &mut *a.efc_J,
            pos: &mut *a.efc_pos,
            margin: &mut *a.efc_margin,
            frictionloss: &mut *a.efc_frictionloss,
            tendon_efcadr: &mut *a.tendon_efcadr,
            contact: &mut *a.contact,
        }
    }

    /// Adds `size` rows of type `ty` for object `id` (`mj_addConstraint`). `jac` holds them
    /// row after row: `nv` columns when dense, else the columns of `chain`. `pos` and `margin`
    /// give one value per row, or are empty for zeros. Rows other than contacts are dropped
    /// when their Jacobian is empty (all zero when dense, no columns when sparse).
    pub(super) fn add(
        &mut self,
        jac: &[Real],
        chain: &[i32],
        pos: &[Real],
        margin: &[Real],
        frictionloss: Real,
        size: usize,
        ty: i32,
        id: usize,
    ) -> Result<(), StepError> {
        let contact = matches!(
            ty,
            CNSTR_CONTACT_FRICTIONLESS | CNSTR_CONTACT_PYRAMIDAL | CNSTR_CONTACT_ELLIPTIC
        );
        let first = self.nefc;
        let len = size * self.nv;
        let empty = if self.sparse {
            chain.is_empty()
        } else {
            jac[..len].iter().all(|&x| x == 0.0)
        };
        if empty && !contact {
            return Ok(());
        }
        let span = first..first + size;
        if span.end > self.efc_type.len() {
            return Err(MISALLOCATED);
        }
        if self.sparse {
            self.copy_sparse(jac, chain, size)?;
        } else {
            let start = first * self.nv;
            let dst = self.efc_J.get_mut(start..start + len).ok_or(MISALLOCATED)?;
            dst.copy_from_slice(&jac[..len]);
        }
        // every array holds the rows (allocated together): sliced once, written without checks
        let per_row = self.pos[span.clone()]
            .iter_mut()
            .zip(&mut self.margin[span.clone()])
            .zip(&mut self.frictionloss[span.clone()])
            .zip(&mut self.efc_type[span.clone()])
            .zip(&mut self.efc_id[span]);
        for (i, ((((p, mg), fl), t), d)) in per_row.enumerate() {
            *p = pos.get(i).copied().unwrap_or(0.0);
            *mg = margin.get(i).copied().unwrap_or(0.0);
            *fl = frictionloss;
            *t = ty;
            *d = id as i32;
        }
        self.nefc += size;
        match ty {
            CNSTR_EQUALITY => self.ne += size,
            CNSTR_FRICTION_DOF | CNSTR_FRICTION_TENDON => self.nf += size,
            CNSTR_LIMIT_JOINT | CNSTR_LIMIT_TENDON => self.nl += size,
            _ => {}
        }
        Ok(())
    }

    /// Adds one row of type `ty` for object `id` whose Jacobian is `sign` at dof `dof` (joint
    /// limits, dof friction loss), built in the scratch `jac` of `nv`. One out-of-line copy for
    /// every such row.
    #[inline(never)]
    pub(super) fn add_dof_row(
        &mut self,
        jac: &mut [Real],
        dof: i32,
        sign: Real,
        (pos, margin, frictionloss): (Real, Real, Real),
        ty: i32,
        id: usize,
    ) -> Result<(), StepError> {
        // a sparse row is its single column (the chain, which a dense row does not read)
        let row = if self.sparse {
            jac[0] = sign;
            &jac[..1]
        } else {
            jac.fill(0.0);
            jac[dof as usize] = sign;
            &*jac
        };
        self.add(row, &[dof], &[pos], &[margin], frictionloss, 1, ty, id)
    }

    /// Writes `size` sparse rows with the columns of `chain`, right after the previous row.
    pub(super) fn copy_sparse(
        &mut self,
        jac: &[Real],
        chain: &[i32],
        size: usize,
    ) -> Result<(), StepError> {
        let n = chain.len();
        for i in 0..size {
            let r = self.nefc + i;
            let adr = match r {
                0 => 0,
                _ => (self.rowadr[r - 1] + self.rownnz[r - 1]) as usize,
            };
            if adr + n > self.efc_J.len() {
                return Err(MISALLOCATED);
            }
            self.rowadr[r] = adr as i32;
            self.rownnz[r] = n as i32;
            self.colind[adr..adr + n].copy_from_slice(chain);
            self.efc_J[adr..adr + n].copy_from_slice(&jac[i * n..(i + 1) * n]);
        }
        Ok(())
    }

    /// Records `adr` as the first row of tendon `id` (`tendon_efcadr`), if none is recorded
    /// yet.
    pub(super) fn note_tendon(&mut self, id: usize, adr: usize) {
        if self.tendon_efcadr[id] == -1 {
            self.tendon_efcadr[id] = adr as i32;
        }
    }
}
