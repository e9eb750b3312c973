//! Narrow phase for one geom pair (`mj_collideGeoms`, `mj_collideGeomPair`,
//! `mj_geomDistance`): the collider from the table, the contact reservation in the arena
//! (`resetArena`) and the box-box clean-up.

use super::contact::{set_contact, ContactParams};
use super::filter::{assign_margin, filter_bitmask, filter_sphere};
use super::{collider, Collider, ShapeRef};
use crate::arena::Arena;
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::misc::{max, outside_box};
use crate::math::vec::add_scl3;
use crate::model::Model;
use crate::real::Real;
use crate::support::warning;
use crate::types::*;

/// The explicit pairs `pair_adr` that share the signature of the body pair being processed
/// (MuJoCo's `merged`, `startadr`, `pairadr`): their geom pairs are not collided again.
#[derive(Clone, Copy)]
pub(super) struct Merged {
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Merged {
    pub(super) const NONE: Merged = Merged { start: 0, end: 0 };

    /// Whether an explicit pair of this body pair is the geom pair `g1`, `g2` (either order).
    fn contains(&self, m: &Model, g1: usize, g2: usize) -> bool {
        (self.start..self.end).any(|k| {
            let (p1, p2) = (m.pair_geom1[k] as usize, m.pair_geom2[k] as usize);
            (p1 == g1 && p2 == g2) || (p1 == g2 && p2 == g1)
        })
    }
}

/// Collides two geoms unless an explicit pair of their bodies already did
/// (`mj_collideGeomPair`).
// inlined into the driver: one call per geom pair in the hot loop
#[inline]
pub(super) fn collide_geom_pair(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    g1: usize,
    g2: usize,
    merged: Merged,
) -> Result<(), StepError> {
    if merged.contains(m, g1, g2) {
        return Ok(());
    }
    collide_geoms(m, d, arena, Candidate::Geoms(g1, g2))
}

/// What `collide_geoms` collides: two geoms found by the broad phase, or an explicit pair.
#[derive(Clone, Copy)]
pub(super) enum Candidate {
    Geoms(usize, usize),
    Pair(usize),
}

/// `mj_geomDistance`: the smallest signed distance between geoms `geom1` and `geom2` that their
/// collision function finds within the margin `distmax`, or `distmax` when nothing is closer (or
/// the pair has no collision function). With `fromto`, the segment from the nearest point on
/// `geom1` to the one on `geom2` (zeros when nothing was found). The contacts are scratch from
/// the arena; ids out of range are an error.
pub fn geom_distance(
    m: &Model,
    d: &mut Data,
    geom1: usize,
    geom2: usize,
    distmax: Real,
    mut fromto: Option<&mut [Real; 6]>,
) -> Result<Real, StepError> {
    if geom1 >= m.ngeom || geom2 >= m.ngeom {
        return Err(StepError::Rejected("geom id out of range in geom_distance"));
    }
    if let Some(f) = fromto.as_deref_mut() {
        *f = [0.0; 6];
    }
    let flip = m.geom_type[geom1] > m.geom_type[geom2];
    let (g1, g2) = if flip { (geom2, geom1) } else { (geom1, geom2) };
    let (t1, t2) = (m.geom_type[g1] as usize, m.geom_type[g2] as usize);
    let Some(collider) = collider(t1, t2) else {
        return Ok(distmax);
    };
    d.with_stack(|d, stack| {
        let con = stack.alloc::<Contact>(MAXCONPAIR)?;
        let num = collider(m, d, con, g1, g2, distmax)?.min(MAXCONPAIR);
        let mut dist = distmax;
        let mut smallest = None;
        for (i, c) in con[..num].iter().enumerate() {
            if c.dist < dist {
                dist = c.dist;
                smallest = Some(i);
            }
        }
        if let (Some(f), Some(i)) = (fromto, smallest) {
            // the contact's normal points from the first geom of the collider's order
            let sign: Real = if flip { -1.0 } else { 1.0 };
            let c = &con[i];
            let normal = [c.frame[0], c.frame[1], c.frame[2]];
            f[..3].copy_from_slice(&add_scl3(&c.pos, &normal, -0.5 * sign * dist));
            f[3..].copy_from_slice(&add_scl3(&c.pos, &normal, 0.5 * sign * dist));
        }
        Ok(dist)
    })
}

/// Whether the pair of geoms (not an explicit pair) is left out: by the user's contact filter
/// when there is one, otherwise by contype/conaffinity.
fn filtered(m: &Model, d: &mut Data, g1: usize, g2: usize) -> bool {
    match d.callbacks.contactfilter {
        Some(filter) => filter(m, d, g1, g2),
        None => filter_bitmask(
            m.geom_contype[g1],
            m.geom_conaffinity[g1],
            m.geom_contype[g2],
            m.geom_conaffinity[g2],
        ),
    }
}

/// Tests two geoms (or an explicit pair) and adds their contacts (`mj_collideGeoms`): orders
/// the geoms by type, applies the contype/conaffinity filter (not to explicit pairs) and the
/// bounding-sphere filter, reserves [`MAXCONPAIR`] contacts at the end of the contact array
/// (or warns `WARN_CONTACTFULL` and skips the pair when the arena has no room for them), calls
/// the collider, and fills in the contacts' parameters.
pub(super) fn collide_geoms(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    candidate: Candidate,
) -> Result<(), StepError> {
    let (g1, g2, ipair) = match candidate {
        Candidate::Geoms(g1, g2) => (g1, g2, None),
        Candidate::Pair(p) => (m.pair_geom1[p] as usize, m.pair_geom2[p] as usize, Some(p)),
    };
    // each type read once: the pair is ordered with its types
    let (ty1, ty2) = (m.geom_type[g1], m.geom_type[g2]);
    let (g1, g2, t1, t2) = if ty1 > ty2 {
        (g2, g1, ty2, ty1)
    } else {
        (g1, g2, ty1, ty2)
    };
    let Some(collider) = collider(t1 as usize, t2 as usize) else {
        return Ok(());
    };
    if ipair.is_none() && filtered(m, d, g1, g2) {
        return Ok(());
    }
    let margin = match ipair {
        None => assign_margin(m, max(m.geom_margin[g1], m.geom_margin[g2])),
        Some(p) => assign_margin(m, m.pair_margin[p]),
    };
    if filter_sphere(m, d, g1, g2, margin) {
        return Ok(());
    }

    with_pair_buffer(d, arena, |d, con| {
        collide_into(m, d, con, collider, g1, g2, margin, ipair)
    })
}

/// Reserves [`MAXCONPAIR`] contacts right after the existing ones (or warns
/// `WARN_CONTACTFULL` and does nothing when the arena has no room for them), lets `fill` write
/// its contacts to their front and return how many, keeps those and gives the rest of the
/// reservation back (`resetArena`), as MuJoCo's narrow-phase functions do.
pub(super) fn with_pair_buffer(
    d: &mut Data,
    arena: &mut Arena,
    fill: impl FnOnce(&Data, &mut [Contact]) -> Result<usize, StepError>,
) -> Result<(), StepError> {
    // the contact array ends where the arena's bottom does (the arena is cleared before the
    // collisions and only contacts are added), so the room is its next MAXCONPAIR slots; they
    // count in the peak use, and the used ones join the array
    let Ok((start, con)) = arena.contact_room(MAXCONPAIR) else {
        warning(d, WARN_CONTACTFULL, d.ncon as i32);
        return Ok(());
    };
    let result = fill(d, con);
    let num = *result.as_ref().unwrap_or(&0);
    d.ncon += num;
    arena.add_contacts(start, num);
    result.map(|_| ())
}

/// Appends one contact (`mj_addContact` during collision): `false`, with `WARN_CONTACTFULL`,
/// when `nconmax` contacts exist already or the arena is full.
pub(super) fn push_contact(m: &Model, d: &mut Data, arena: &mut Arena, con: &Contact) -> bool {
    let full = m.nconmax != -1 && d.ncon as i64 >= i64::from(m.nconmax);
    let added = !full && {
        arena.keep_contacts(d.ncon);
        let pushed = arena.push_contacts(1).map(|dst| dst[0] = *con);
        pushed.is_ok()
    };
    if added {
        d.ncon += 1;
    } else {
        warning(d, WARN_CONTACTFULL, d.ncon as i32);
    }
    added
}

/// Runs `collider` into `con` and completes its contacts; returns how many it kept.
#[allow(clippy::too_many_arguments)]
fn collide_into(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    collider: Collider,
    g1: usize,
    g2: usize,
    margin: Real,
    ipair: Option<usize>,
) -> Result<usize, StepError> {
    let mut num = collider(m, d, con, g1, g2, margin)?;
    if num == 0 {
        // no parameters to mix (MuJoCo returns here too, so a bad condim goes unnoticed)
        return Ok(0);
    }
    if num > MAXCONPAIR {
        return Err(StepError::Numerical(
            "too many contacts returned by collision function",
        ));
    }
    if m.geom_type[g1] == GEOM_BOX && m.geom_type[g2] == GEOM_BOX {
        num = clean_box_box(m, d, &mut con[..num], g1, g2, margin);
    }
    let params = match ipair {
        None => ContactParams::mix(m, g1, g2)?,
        Some(p) => ContactParams::pair(m, p),
    };
    for c in &mut con[..num] {
        c.geom = [g1 as i32, g2 as i32];
        c.flex = [-1, -1];
        c.elem = [-1, -1];
        c.vert = [-1, -1];
        set_contact(m, c, &params, margin)?;
    }
    Ok(num)
}

/// Removes box-box contacts outside either box (by more than 1% of its size plus the margin,
/// unless inside the other) and repeated positions, keeping the order; returns how many are
/// left.
fn clean_box_box(
    m: &Model,
    d: &Data,
    con: &mut [Contact],
    g1: usize,
    g2: usize,
    margin: Real,
) -> usize {
    const REMOVE_RATIO: Real = 1.01;
    let (b1, b2) = (ShapeRef::of(m, d, g1), ShapeRef::of(m, d, g2));
    let inflate = |s: &[Real; 3]| [s[0] + margin, s[1] + margin, s[2] + margin];
    let (sz1, sz2) = (inflate(b1.size), inflate(b2.size));
    let num = con.len();
    // `dim` marks bad contacts (-1) until the parameters are set
    for c in con.iter_mut() {
        let out1 = outside_box(&c.pos, b1.pos, b1.mat, &sz1, REMOVE_RATIO);
        let out2 = outside_box(&c.pos, b2.pos, b2.mat, &sz2, REMOVE_RATIO);
        let bad = (out1 == 1 && out2 != -1) || (out2 == 1 && out1 != -1);
        c.dim = if bad { -1 } else { 0 };
    }
    for i in 0..num.saturating_sub(1) {
        if con[i].dim == -1 {
            continue;
        }
        if (i + 1..num).any(|j| con[j].dim != -1 && con[j].pos == con[i].pos) {
            con[i].dim = -1;
        }
    }
    let mut kept = 0;
    for j in 0..num {
        if con[j].dim == 0 {
            con[kept] = con[j];
            kept += 1;
        }
    }
    kept
}
