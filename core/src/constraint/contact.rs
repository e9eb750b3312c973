//! Contact rows (`mj_instantiateContact`): pyramidal edges or elliptic dimensions in the
//! contact frame, with the contacts' bodies and dimension that counting shares.

use super::row_jacobians::{jac_dif_pair_rot, PairScratch};
use super::rows::Rows;
use crate::arena::Stack;
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::mat::mul_mat_mat;
use crate::math::vec::add_scl;
use crate::model::Model;
use crate::real::Real;
use crate::support::{disabled, is_pyramidal};
use crate::types::*;

/// The bodies of a contact between two geoms; flex contacts are refused.
pub(super) fn contact_bodies(m: &Model, con: &Contact) -> Result<[usize; 2], StepError> {
    let body = |g: i32| {
        usize::try_from(g)
            .ok()
            .filter(|&g| g < m.ngeom)
            .map(|g| m.geom_bodyid[g] as usize)
            .ok_or(StepError::Unsupported("contacts involving flexes"))
    };
    Ok([body(con.geom[0])?, body(con.geom[1])?])
}

/// The dimension of a contact: 1, 3, 4 or 6.
pub(super) fn contact_dim(con: &Contact) -> Result<usize, StepError> {
    match con.dim {
        1 | 3 | 4 | 6 => Ok(con.dim as usize),
        _ => Err(StepError::Numerical("contact with an invalid dimension")),
    }
}

/// Rows of the included contacts (`mj_instantiateContact`): the Jacobian difference of the two
/// bodies at the contact point, in the contact frame, then one frictionless row, pairs of
/// pyramid edges, or the elliptic dimensions. A contact whose bodies no dof moves gets no
/// rows and `exclude` 3.
pub(super) fn contact_rows(
    m: &Model,
    d: &Data,
    rows: &mut Rows,
    stack: &mut Stack,
) -> Result<(), StepError> {
    let nv = m.nv;
    let ncon = d.ncon.min(rows.contact.len());
    if disabled(m, DSBL_CONTACT) || ncon == 0 || nv == 0 {
        return Ok(());
    }
    let jac = stack.alloc::<Real>(6 * nv)?;
    let jacdif = stack.alloc::<Real>(6 * nv)?;
    let mut pair = PairScratch::new(stack, nv)?;
    let chain = stack.alloc::<i32>(nv)?;
    let pyramidal = is_pyramidal(m);
    for i in 0..ncon {
        let con = rows.contact[i];
        if con.exclude != 0 {
            continue;
        }
        let dim = contact_dim(&con)?;
        let [b1, b2] = contact_bodies(m, &con)?;
        rows.contact[i].efc_address = rows.nefc as i32;
        let (difp, difr) = jacdif.split_at_mut(3 * nv);
        let n = jac_dif_pair_rot(
            m,
            d,
            rows.sparse,
            chain,
            (b1, b2),
            (&con.pos, &con.pos),
            &mut pair,
            difp,
            (dim > 3).then_some(&mut *difr),
        );
        if n == 0 {
            rows.contact[i].efc_address = -1;
            rows.contact[i].exclude = 3;
            continue;
        }

        // rotate to the contact frame: normal first, then tangents, then rotations
        mul_mat_mat(jac, &con.frame, difp, if dim > 1 { 3 } else { 1 }, 3, n);
        if dim > 3 {
            mul_mat_mat(&mut jac[3 * n..], &con.frame, difr, dim - 3, 3, n);
        }
        let chain = &chain[..n];
        let (dist, margin) = (con.dist, con.includemargin);
        if dim == 1 {
            let ty = CNSTR_CONTACT_FRICTIONLESS;
            rows.add(&jac[..n], chain, &[dist], &[margin], 0.0, 1, ty, i)?;
        } else if pyramidal {
            // one pair of opposite pyramid edges per friction dimension
            for k in 1..dim {
                let mu = con.friction[k - 1];
                let (normal, along) = (&jac[..n], &jac[k * n..(k + 1) * n]);
                let (edge1, rest) = difp.split_at_mut(n);
                add_scl(edge1, normal, along, mu);
                add_scl(&mut rest[..n], normal, along, -mu);
                let ty = CNSTR_CONTACT_PYRAMIDAL;
                rows.add(
                    &difp[..2 * n],
                    chain,
                    &[dist; 2],
                    &[margin; 2],
                    0.0,
                    2,
                    ty,
                    i,
                )?;
            }
        } else {
            let mut cpos = [0.0; 6];
            let mut cmargin = [0.0; 6];
            cpos[0] = dist;
            cmargin[0] = margin;
            let ty = CNSTR_CONTACT_ELLIPTIC;
            let (jac, cpos, cmargin) = (&jac[..dim * n], &cpos[..dim], &cmargin[..dim]);
            rows.add(jac, chain, cpos, cmargin, 0.0, dim, ty, i)?;
        }
    }
    Ok(())
}
