//! Contact rows (`mj_instantiateContact`): pyramidal edges or elliptic dimensions in the
//! contact frame, with the contacts' bodies and dimension that counting shares.

use super::row_jacobians::{jac_dif_pair_rot, jac_sum, PairScratch, SumScratch};
use super::rows::Rows;
use crate::arena::Stack;
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::mat::mul_mat_mat;
use crate::math::misc::max;
use crate::math::vec::{add_scl, dist3, normalize};
use crate::model::Model;
use crate::real::{Real, MINVAL};
use crate::support::{disabled, is_pyramidal};
use crate::types::*;

/// The most bodies a contact can involve: two tetrahedra's vertices.
pub(super) const MAX_CONTACT_BODIES: usize = 8;

/// What one side of a contact is: a geom, a flex vertex, or a flex element.
enum ContactSide {
    Body(usize),
    Elem { f: usize, e: usize },
}

/// Side `side` of contact `con`, with its ids checked against the model.
#[inline]
fn contact_side(m: &Model, con: &Contact, side: usize) -> Result<ContactSide, StepError> {
    let bad = StepError::Rejected("contact with an invalid geom, flex, element or vertex id");
    let index = |i: i32, n: usize| usize::try_from(i).ok().filter(|&i| i < n);
    if con.geom[side] >= 0 {
        let g = index(con.geom[side], m.ngeom).ok_or(bad)?;
        return Ok(ContactSide::Body(m.geom_bodyid[g] as usize));
    }
    let f = index(con.flex[side], m.nflex).ok_or(bad)?;
    if con.vert[side] >= 0 {
        let v = index(con.vert[side], m.flex_vertnum[f].max(0) as usize).ok_or(bad)?;
        let b = m.flex_vertbodyid[m.flex_vertadr[f] as usize + v];
        return Ok(ContactSide::Body(b as usize));
    }
    let e = index(con.elem[side], m.flex_elemnum[f].max(0) as usize).ok_or(bad)?;
    Ok(ContactSide::Elem { f, e })
}

/// The two bodies of a contact with one body on each side (geoms or flex vertices, the
/// common case, which needs no weights); `None` when a side is a flex element.
pub(super) fn pair_bodies(m: &Model, con: &Contact) -> Result<Option<(usize, usize)>, StepError> {
    Ok(match (contact_side(m, con, 0)?, contact_side(m, con, 1)?) {
        (ContactSide::Body(b1), ContactSide::Body(b2)) => Some((b1, b2)),
        _ => None,
    })
}

/// The bodies a contact acts on with their weights: a geom or vertex side is its body, an
/// element side its vertices' bodies weighted by inverse distance to the contact point.
pub(super) struct ContactBodies {
    pub(super) n: usize,
    pub(super) body: [usize; MAX_CONTACT_BODIES],
    pub(super) weight: [Real; MAX_CONTACT_BODIES],
}

impl ContactBodies {
    /// The bodies of contact `con`, the first side's weights negative when `signed`
    /// (`mj_instantiateContact`) and all positive otherwise (`mj_diagApprox`).
    pub(super) fn of(
        m: &Model,
        vert: &[Real],
        con: &Contact,
        signed: bool,
    ) -> Result<Self, StepError> {
        let mut out = Self {
            n: 0,
            body: [0; MAX_CONTACT_BODIES],
            weight: [0.0; MAX_CONTACT_BODIES],
        };
        for side in 0..2 {
            let sign = if signed && side == 0 { -1.0 } else { 1.0 };
            match contact_side(m, con, side)? {
                ContactSide::Body(b) => {
                    out.body[out.n] = b;
                    out.weight[out.n] = sign;
                    out.n += 1;
                }
                ContactSide::Elem { f, e } => {
                    let other = con.vert[1 - side];
                    let start = out.n;
                    out.n += elem_body_weight(m, vert, (f, e), other, &con.pos, &mut out, start);
                    if signed && side == 0 {
                        for w in &mut out.weight[start..out.n] {
                            *w = -*w;
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    pub(super) fn bodies(&self) -> &[usize] {
        &self.body[..self.n]
    }
}

/// The bodies of element `e` of flex `f` from `start` in `out`, weighted by the inverse
/// distance of their vertices to `point` and normalized; a vertex `v` of the element (the
/// other side of an element-vertex contact) is left out (`mj_elemBodyWeight`). Returns their
/// number.
fn elem_body_weight(
    m: &Model,
    vert: &[Real],
    (f, e): (usize, usize),
    v: i32,
    point: &[Real; 3],
    out: &mut ContactBodies,
    start: usize,
) -> usize {
    let dim = m.flex_dim[f] as usize;
    let adr = m.flex_elemdataadr[f] as usize + e * (dim + 1);
    let vadr = m.flex_vertadr[f] as usize;
    let mut n = 0;
    for &ev in &m.flex_elem[adr..adr + dim + 1] {
        if ev == v {
            continue;
        }
        let i = vadr + ev as usize;
        let x = [vert[3 * i], vert[3 * i + 1], vert[3 * i + 2]];
        out.weight[start + n] = 1.0 / max(MINVAL, dist3(point, &x));
        out.body[start + n] = m.flex_vertbodyid[i] as usize;
        n += 1;
    }
    normalize(&mut out.weight[start..start + n]);
    n
}

/// The bodies whose dofs a contact's Jacobian can involve, for counting (`mj_nc`): every
/// vertex of an element side.
pub(super) fn contact_count_bodies(
    m: &Model,
    con: &Contact,
    body: &mut [usize; MAX_CONTACT_BODIES],
) -> Result<usize, StepError> {
    let mut n = 0;
    for side in 0..2 {
        match contact_side(m, con, side)? {
            ContactSide::Body(b) => {
                body[n] = b;
                n += 1;
            }
            ContactSide::Elem { f, e } => {
                let dim = m.flex_dim[f] as usize;
                let adr = m.flex_elemdataadr[f] as usize + e * (dim + 1);
                for &ev in &m.flex_elem[adr..adr + dim + 1] {
                    body[n] = m.flex_vertbodyid[m.flex_vertadr[f] as usize + ev as usize] as usize;
                    n += 1;
                }
            }
        }
    }
    Ok(n)
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
/// rows and `exclude` 3. The scratch lives in a child frame of `stack`.
pub(super) fn contact_rows(
    m: &Model,
    d: &Data,
    rows: &mut Rows,
    stack: &mut Stack,
) -> Result<(), StepError> {
    let ncon = d.ncon.min(rows.contact.len());
    if disabled(m, DSBL_CONTACT) || ncon == 0 || m.nv == 0 {
        return Ok(());
    }
    // the contacts leave the writer meanwhile, so that each is read in place, not copied
    let contacts = core::mem::take(&mut rows.contact);
    let made = add_contacts(m, d, rows, &mut contacts[..ncon], &mut stack.frame());
    rows.contact = contacts;
    made
}

/// The rows of `contacts` (see [`contact_rows`]), with their `efc_address` and `exclude`.
fn add_contacts(
    m: &Model,
    d: &Data,
    rows: &mut Rows,
    contacts: &mut [Contact],
    stack: &mut Stack,
) -> Result<(), StepError> {
    let nv = m.nv;
    let jac = stack.alloc::<Real>(6 * nv)?;
    let jacdif = stack.alloc::<Real>(6 * nv)?;
    let mut pair = PairScratch::new(stack, nv)?;
    // the merged dof chain of a sparse row (dense rows have none)
    let chain: &mut [i32] = if rows.sparse {
        stack.alloc::<i32>(nv)?
    } else {
        &mut []
    };
    // made at the first contact on a flex element
    let mut sum: Option<SumScratch> = None;
    let pyramidal = is_pyramidal(m);
    for (i, con) in contacts.iter_mut().enumerate() {
        if con.exclude != 0 {
            continue;
        }
        let dim = contact_dim(con)?;
        con.efc_address = rows.nefc as i32;
        let n = if let Some(bodies) = pair_bodies(m, con)? {
            let (difp, difr) = jacdif.split_at_mut(3 * nv);
            jac_dif_pair_rot(
                m,
                d,
                rows.sparse,
                chain,
                bodies,
                (&con.pos, &con.pos),
                &mut pair,
                difp,
                (dim > 3).then_some(&mut *difr),
            )
        } else {
            elem_jac(m, d, rows.sparse, chain, con, jacdif, &mut sum, stack)?
        };
        let (difp, difr) = jacdif.split_at_mut(3 * nv);
        if n == 0 {
            con.efc_address = -1;
            con.exclude = 3;
            continue;
        }

        // rotate to the contact frame: normal first, then tangents, then rotations
        mul_mat_mat(jac, &con.frame, difp, if dim > 1 { 3 } else { 1 }, 3, n);
        if dim > 3 {
            mul_mat_mat(&mut jac[3 * n..], &con.frame, difr, dim - 3, 3, n);
        }
        let chain = if rows.sparse { &chain[..n] } else { &[] };
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

/// The Jacobian of a contact on a flex element (see [`jac_sum`]) into `jacdif`, with the merged
/// chain of a sparse row; `sum` is its scratch, made at the first such contact. Out of line:
/// most contacts are between two bodies.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn elem_jac<'s>(
    m: &Model,
    d: &Data,
    sparse: bool,
    chain: &mut [i32],
    con: &Contact,
    jacdif: &mut [Real],
    sum: &mut Option<SumScratch<'s>>,
    stack: &mut Stack<'s>,
) -> Result<usize, StepError> {
    let bodies = ContactBodies::of(m, d.flexvert_xpos, con, true)?;
    let sum = match sum {
        Some(sum) => sum,
        None => sum.insert(SumScratch::new(stack, m.nv)?),
    };
    let weighted = (bodies.bodies(), &bodies.weight[..bodies.n]);
    let rot = contact_dim(con)? > 3;
    Ok(jac_sum(
        m, d, sparse, chain, weighted, &con.pos, jacdif, rot, sum,
    ))
}
