//! Tendons (MuJoCo's `mj_tendon` in `engine_core_smooth.c`, "Computation › Tendons"): lengths
//! `ten_length`, Jacobians (moment arms) `ten_J`, and the path points `wrap_xpos` / `wrap_obj`
//! drawn by the visualizer; the velocities `ten_velocity` of the velocity stage.
//!
//! A fixed tendon is a linear combination of joint positions. A spatial tendon is a path through
//! sites, possibly wrapping around sphere or cylinder geoms between two sites
//! ([`crate::math::wrap`]), and split into branches by pulleys that divide the length of what
//! follows. `ten_J` is dense (`ntendon x nv`) or, when [`is_sparse`], compressed rows described
//! by `ten_J_rownnz`, `ten_J_rowadr` and `ten_J_colind`.
//!
//! Relies on the path structure checked by the MJB validator: fixed tendons list only joints,
//! and a wrapping geom always sits between two sites.

use crate::arena::Stack;
use crate::data::Data;
use crate::error::StepError;
use crate::math::mat::{mul_mat_t_vec, mul_mat_vec};
use crate::math::sparse::{combine_sparse, mul_mat_vec_sparse, sort_row};
use crate::math::vec::{add_to_scl, dist3, normalize3, sub3};
use crate::math::wrap::wrap;
use crate::model::Model;
use crate::real::Real;
use crate::support::{is_sparse, jac_dif_pair, v3, v9};
use crate::types::*;

/// Scratch arrays of the tendon stage, as MuJoCo allocates them: three `3 x nv` Jacobians, an
/// `nv` row, and for sparse Jacobians the dof chain and the merge buffers.
struct Scratch<'s> {
    jac1: &'s mut [Real],
    jac2: &'s mut [Real],
    jacdif: &'s mut [Real],
    row: &'s mut [Real],
    chain: &'s mut [i32],
    buf_ind: &'s mut [i32],
    buf: &'s mut [Real],
}

impl<'s> Scratch<'s> {
    fn new(stack: &mut Stack<'s>, nv: usize, sparse: bool) -> Result<Self, StepError> {
        let nsparse = if sparse { nv } else { 0 };
        Ok(Self {
            jac1: stack.alloc(3 * nv)?,
            jac2: stack.alloc(3 * nv)?,
            jacdif: stack.alloc(3 * nv)?,
            row: stack.alloc(nv)?,
            chain: stack.alloc(nsparse)?,
            buf_ind: stack.alloc(nsparse)?,
            buf: stack.alloc(nsparse)?,
        })
    }
}

/// Tendon lengths, Jacobians and wrap points (`mj_tendon`). Writes `ten_length`, `ten_J` (and
/// `ten_J_rownnz`, `ten_J_rowadr`, `ten_J_colind` when sparse), `ten_wrapadr`, `ten_wrapnum`,
/// `wrap_obj` and `wrap_xpos`.
pub fn tendon(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if m.ntendon == 0 {
        return Ok(());
    }
    let sparse = is_sparse(m);
    d.with_stack(|d, stack| {
        let mut scratch = Scratch::new(stack, m.nv, sparse)?;
        d.ten_length.fill(0.0);
        if sparse {
            d.ten_J_rownnz.fill(0);
        } else {
            d.ten_J.fill(0.0);
        }
        let mut wcnt = 0;
        for i in 0..m.ntendon {
            d.ten_wrapadr[i] = wcnt as i32;
            d.ten_wrapnum[i] = 0;
            if sparse {
                d.ten_J_rowadr[i] = match i {
                    0 => 0,
                    _ => d.ten_J_rowadr[i - 1] + d.ten_J_rownnz[i - 1],
                };
            }
            let adr = m.tendon_adr[i] as usize;
            if m.wrap_type.get(adr) == Some(&WRAP_JOINT) {
                fixed_tendon(m, d, i, sparse);
            } else {
                wcnt = spatial_tendon(m, d, i, wcnt, sparse, &mut scratch);
            }
        }
        Ok(())
    })
}

/// A fixed tendon: `length = Σ coef * qpos`, one Jacobian entry `coef` per joint dof (sorted by
/// dof when sparse; a joint listed again adds to its entry, so a row never holds more than `nv`
/// entries however long the list).
fn fixed_tendon(m: &Model, d: &mut Data, i: usize, sparse: bool) {
    let nv = m.nv;
    let adr = m.tendon_adr[i] as usize;
    let num = m.tendon_num[i] as usize;
    for w in adr..adr + num {
        let jnt = m.wrap_objid[w] as usize;
        let coef = m.wrap_prm[w];
        d.ten_length[i] += coef * d.qpos[m.jnt_qposadr[jnt] as usize];
        let dof = m.jnt_dofadr[jnt];
        if sparse {
            add_sparse_entry(d, i, dof, coef);
        } else {
            d.ten_J[i * nv + dof as usize] = coef;
        }
    }
    if sparse {
        let start = d.ten_J_rowadr[i] as usize;
        let end = start + d.ten_J_rownnz[i] as usize;
        sort_row(&mut d.ten_J_colind[start..end], &mut d.ten_J[start..end]);
    }
}

/// Adds `coef` to column `dof` of tendon `i`'s sparse Jacobian row, appending the column when
/// the row does not hold it yet. Summing a joint listed twice (in list order) makes the row
/// the derivative of the tendon's length and lets every sparse kernel see each column once.
///
/// MuJoCo 3.1.6 appends every entry: a list longer than `nv` writes past the row into the
/// next tendon's (or past `ten_J`), its constraint projection completes a row with repeats to
/// a chain longer than the buffers it sized (`nefc * nv`), and a tendon equality on such a
/// tendon stops with "constraint Jacobian mis-allocation". Its dense Jacobian keeps the last
/// coefficient only, which mjrs matches.
fn add_sparse_entry(d: &mut Data, i: usize, dof: i32, coef: Real) {
    let start = d.ten_J_rowadr[i] as usize;
    let nnz = d.ten_J_rownnz[i] as usize;
    match d.ten_J_colind[start..start + nnz]
        .iter()
        .position(|&c| c == dof)
    {
        Some(k) => d.ten_J[start + k] += coef,
        None => {
            d.ten_J[start + nnz] = coef;
            d.ten_J_colind[start + nnz] = dof;
            d.ten_J_rownnz[i] += 1;
        }
    }
}

/// One straight piece of a spatial tendon between two sites, or the wrapped path around a geom
/// between them: its points (site, [tangent point, tangent point,] site) and the bodies they
/// move with.
struct Piece {
    pnt: [[Real; 3]; 4],
    body: [usize; 4],
    /// Number of points: 2 when straight, 4 when wrapped.
    npnt: usize,
    /// Length of the path.
    length: Real,
    /// The geom wrapped around, if the path wraps.
    geom: Option<usize>,
}

impl Piece {
    /// The path from site `id0` to site `id1`, around geom `wrap_geom` (its wrap-path index and
    /// geom id) if the straight segment would cross it.
    fn new(m: &Model, d: &Data, id0: usize, id1: usize, wrap_geom: Option<(usize, usize)>) -> Self {
        let site_xpos = v3(d.site_xpos);
        let (x0, x1) = (site_xpos[id0], site_xpos[id1]);
        let (b0, b1) = (m.site_bodyid[id0] as usize, m.site_bodyid[id1] as usize);
        let wrapped = wrap_geom.and_then(|(w, g)| {
            // the side site id is stored as a number in wrap_prm (-1: none)
            let side = crate::math::misc::round(m.wrap_prm[w]);
            let side = usize::try_from(side).ok().map(|s| &site_xpos[s]);
            let (wlen, pts) = wrap(
                &x0,
                &x1,
                &v3(d.geom_xpos)[g],
                &v9(d.geom_xmat)[g],
                m.geom_size[3 * g],
                m.wrap_type[w],
                side,
            )?;
            Some((g, wlen, pts))
        });
        match wrapped {
            None => Self {
                pnt: [x0, x1, [0.0; 3], [0.0; 3]],
                body: [b0, b1, 0, 0],
                npnt: 2,
                length: dist3(&x0, &x1),
                geom: None,
            },
            Some((g, wlen, pts)) => {
                let p0 = [pts[0], pts[1], pts[2]];
                let p1 = [pts[3], pts[4], pts[5]];
                let bg = m.geom_bodyid[g] as usize;
                Self {
                    pnt: [x0, p0, p1, x1],
                    body: [b0, bg, bg, b1],
                    npnt: 4,
                    length: dist3(&x0, &p0) + wlen + dist3(&p1, &x1),
                    geom: Some(g),
                }
            }
        }
    }
}

/// A spatial tendon: length, Jacobian and wrap points of its path, written from wrap point
/// `wcnt` on; returns the next free wrap point.
fn spatial_tendon(
    m: &Model,
    d: &mut Data,
    i: usize,
    mut wcnt: usize,
    sparse: bool,
    scratch: &mut Scratch,
) -> usize {
    let adr = m.tendon_adr[i] as usize;
    let num = m.tendon_num[i] as usize;
    let ty = |j: usize| m.wrap_type[adr + j];
    let id = |j: usize| m.wrap_objid[adr + j] as usize;
    let mut divisor: Real = 1.0;
    let mut j = 0;
    while j + 1 < num {
        // a pulley starts a new branch whose length is divided by its divisor
        if ty(j) == WRAP_PULLEY || ty(j + 1) == WRAP_PULLEY {
            if ty(j) == WRAP_PULLEY {
                divisor = m.wrap_prm[adr + j];
                add_wrap_point(d, i, &mut wcnt, &[0.0; 3], -2);
            }
            j += 1;
            continue;
        }

        // site to site, or site-geom-site
        let is_geom = matches!(ty(j + 1), WRAP_SPHERE | WRAP_CYLINDER);
        let (wrap_geom, next) = if is_geom {
            (Some((adr + j + 1, id(j + 1))), j + 2)
        } else {
            (None, j + 1)
        };
        let id1 = id(next);
        let piece = Piece::new(m, d, id(j), id1, wrap_geom);
        d.ten_length[i] += piece.length / divisor;
        for k in 0..piece.npnt - 1 {
            if piece.body[k] != piece.body[k + 1] {
                add_segment_jacobian(m, d, i, &piece, k, divisor, sparse, scratch);
            }
        }

        // the path points up to the second site, which starts the next piece
        add_wrap_point(d, i, &mut wcnt, &piece.pnt[0], -1);
        if let Some(g) = piece.geom {
            add_wrap_point(d, i, &mut wcnt, &piece.pnt[1], g as i32);
            add_wrap_point(d, i, &mut wcnt, &piece.pnt[2], g as i32);
        }
        j = next;

        // ... unless the path ends or a pulley follows: then the site ends a branch
        if j + 1 >= num || ty(j + 1) == WRAP_PULLEY {
            let x1 = v3(d.site_xpos)[id1];
            add_wrap_point(d, i, &mut wcnt, &x1, -1);
        }
    }
    wcnt
}

/// Appends a point of tendon `i`'s path to `wrap_xpos` with its object in `wrap_obj` (-1: site,
/// -2: pulley, else the geom id).
fn add_wrap_point(d: &mut Data, i: usize, wcnt: &mut usize, pos: &[Real; 3], obj: i32) {
    d.wrap_xpos[3 * *wcnt..3 * *wcnt + 3].copy_from_slice(pos);
    d.wrap_obj[*wcnt] = obj;
    d.ten_wrapnum[i] += 1;
    *wcnt += 1;
}

/// Adds to tendon `i`'s Jacobian the contribution of the segment from point `k` to point `k+1`
/// of `piece` (on different bodies): the difference of the points' Jacobians projected on the
/// segment's direction, divided by the branch's `divisor`.
fn add_segment_jacobian(
    m: &Model,
    d: &mut Data,
    i: usize,
    piece: &Piece,
    k: usize,
    divisor: Real,
    sparse: bool,
    s: &mut Scratch,
) {
    let (p0, p1) = (&piece.pnt[k], &piece.pnt[k + 1]);
    let mut dir = sub3(p1, p0);
    normalize3(&mut dir);
    let nv = m.nv;
    if !sparse {
        jac_dif_pair(
            m,
            d,
            false,
            s.chain,
            piece.body[k],
            piece.body[k + 1],
            p0,
            p1,
            s.jac1,
            s.jac2,
            s.jacdif,
        );
        mul_mat_t_vec(s.row, s.jacdif, &dir, 3, nv);
        add_to_scl(&mut d.ten_J[i * nv..(i + 1) * nv], s.row, 1.0 / divisor);
        return;
    }
    let n = jac_dif_pair(
        m,
        d,
        true,
        s.chain,
        piece.body[k],
        piece.body[k + 1],
        p0,
        p1,
        s.jac1,
        s.jac2,
        s.jacdif,
    );
    if n == 0 {
        return;
    }
    mul_mat_t_vec(s.row, s.jacdif, &dir, 3, n);
    let adr = d.ten_J_rowadr[i] as usize;
    d.ten_J_rownnz[i] = combine_sparse(
        &mut d.ten_J[adr..],
        &s.row[..n],
        1.0,
        1.0 / divisor,
        d.ten_J_rownnz[i] as usize,
        &mut d.ten_J_colind[adr..],
        &s.chain[..n],
        s.buf,
        s.buf_ind,
    ) as i32;
}

/// Tendon velocities `ten_velocity = ten_J * qvel`, dense or sparse (part of `mj_fwdVelocity`).
pub fn tendon_velocity(m: &Model, d: &mut Data) {
    // most models have none: skip the product's set-up
    if m.ntendon == 0 {
        return;
    }
    if is_sparse(m) {
        mul_mat_vec_sparse(
            d.ten_velocity,
            d.ten_J,
            d.qvel,
            m.ntendon,
            d.ten_J_rownnz,
            d.ten_J_rowadr,
            d.ten_J_colind,
            None,
        );
    } else {
        mul_mat_vec(d.ten_velocity, d.ten_J, d.qvel, m.ntendon, m.nv);
    }
}
