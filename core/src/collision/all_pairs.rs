//! The fast build's broad phase for a few bodies (feature `fast`, issue 25): every pair of the
//! collidable bodies' bounding boxes tested in the world frame, instead of MuJoCo's sweep and
//! prune in the principal frame of the geoms (their covariance, `eig3`, a sort of the end
//! points), which costs the hopper more than the pairs it rejects.
//!
//! The contacts are the exact build's: a body's box holds its geoms' bounding spheres grown by
//! their margins in any frame, so two boxes apart in either frame have geoms whose spheres are
//! further apart than the sum of the margins, which the narrow phase's sphere test rejects
//! (its margin is the larger of the two). Each broad phase may let through pairs the other
//! rejects; the narrow phase drops them. The pair list is sorted as the exact one, so the
//! contacts keep MuJoCo's order. Where that argument does not hold (a plane or other geom
//! without a bounding sphere on a body, a negative margin, flexes, a user's contact filter,
//! which would see more pairs) or the boxes are not finite, the exact sweep runs.

use super::body_geoms;
use super::filter::{can_collide, filter_bitmask, filter_body_pair, weld_and_parent};
use crate::data::Data;
use crate::error::StepError;
use crate::math::misc::{max, min};
use crate::model::Model;
use crate::real::Real;
use crate::support::{enabled, v3};
use crate::types::*;

/// The most collidable bodies tested pair by pair: 276 box tests at most (about 15
/// instructions each), below the sweep's fixed cost (on the hopper, 4 bodies, the sweep's
/// broad phase cost about 1,900 instructions more than this one, `eig3` about 1,000 of them).
const MAX_BODIES: usize = 24;

/// Gives `add` the pairs of collidable bodies (the world aside) whose contype/conaffinity match
/// (`masks`, per body: the pair list's own) and whose boxes overlap and which welding and the
/// parent filter do not exclude, with `bfid` and `aamm` (scratch of the exact
/// broad phase, at least `nbody` and `6 nbody` long) for the bodies and boxes; `room` is how
/// many pairs the caller's list still holds. Returns `false`, adding nothing, where the exact
/// sweep must run instead (see the module's text). A closure rather than the sweep's pair list
/// keeps this module out of `sap`'s imports.
pub(super) fn body_pairs(
    m: &Model,
    d: &Data,
    bfid: &mut [i32],
    aamm: &mut [Real],
    masks: &[[i32; 2]],
    room: usize,
    dsbl_filterparent: bool,
    mut add: impl FnMut(usize, usize) -> Result<(), StepError>,
) -> Result<bool, StepError> {
    if m.nflex != 0 || d.callbacks.contactfilter.is_some() {
        return Ok(false);
    }
    let Some(n) = collidable_boxes(m, d, bfid, aamm) else {
        return Ok(false);
    };
    if n * n.saturating_sub(1) / 2 > room {
        // more candidates than the list holds, where the sweep might not fail
        return Ok(false);
    }
    let mask = |i: usize| masks[bfid[i] as usize];
    let [contype, conaffinity] = (0..n)
        .map(mask)
        .fold([0, 0], |[t, a], [tb, ab]| [t | tb, a | ab]);
    if contype & conaffinity == 0 {
        // no two of the bodies can touch by contype/conaffinity (the Gymnasium ant, walker
        // and half cheetah: only the floor collides with them)
        return Ok(true);
    }
    let boxes = aamm[..6 * n].as_chunks::<6>().0;
    for (i, box1) in boxes.iter().enumerate() {
        let b1 = bfid[i] as usize;
        let (weld1, parent1) = weld_and_parent(m, b1);
        let [t1, a1] = masks[b1];
        for (j, box2) in boxes.iter().enumerate().skip(i + 1) {
            let [t2, a2] = mask(j);
            // the list's own contype/conaffinity test, first: cheaper than the boxes
            if filter_bitmask(t1, a1, t2, a2) || apart(box1, box2) {
                continue;
            }
            let b2 = bfid[j] as usize;
            let (weld2, parent2) = weld_and_parent(m, b2);
            if !filter_body_pair(weld1, parent1, weld2, parent2, dsbl_filterparent) {
                add(b1, b2)?;
            }
        }
    }
    Ok(true)
}

/// The collidable bodies but the world into `bfid` and their world-frame boxes into `aamm`;
/// their number, or `None` when there are more than [`MAX_BODIES`], a geom of theirs has no
/// bounding sphere or a negative margin, or a box is not finite.
fn collidable_boxes(m: &Model, d: &Data, bfid: &mut [i32], aamm: &mut [Real]) -> Option<usize> {
    let override_margin = enabled(m, ENBL_OVERRIDE);
    let xpos = v3(d.geom_xpos);
    let mut n = 0;
    for b in 1..m.nbody {
        if !can_collide(m, b) {
            continue;
        }
        if n == MAX_BODIES {
            return None;
        }
        let mut aabb = [
            Real::INFINITY,
            Real::INFINITY,
            Real::INFINITY,
            -Real::INFINITY,
            -Real::INFINITY,
            -Real::INFINITY,
        ];
        for g in body_geoms(m, b) {
            let margin = if override_margin {
                0.5 * m.opt.o_margin
            } else {
                m.geom_margin[g]
            };
            let bound = m.geom_rbound[g] + margin;
            if !(m.geom_rbound[g] > 0.0 && margin >= 0.0) {
                return None;
            }
            for k in 0..3 {
                aabb[k] = min(aabb[k], xpos[g][k] - bound);
                aabb[k + 3] = max(aabb[k + 3], xpos[g][k] + bound);
            }
        }
        if !aabb.iter().all(|x| x.is_finite()) {
            return None;
        }
        bfid[n] = b as i32;
        aamm[6 * n..6 * n + 6].copy_from_slice(&aabb);
        n += 1;
    }
    Some(n)
}

/// Whether two boxes (min[3], max[3]) are apart along some axis.
#[inline(always)]
fn apart(a: &[Real; 6], b: &[Real; 6]) -> bool {
    (0..3).any(|k| a[k] > b[k + 3] || b[k] > a[k + 3])
}
