//! The collision driver (`mj_collision`): clears the arena, runs the broad phase, then walks
//! the body pairs it found merged with the explicit `<pair>`s, colliding each pair's geoms
//! directly or through their bounding-volume hierarchies.

use super::bv::collide_tree;
use super::filter::{can_collide2, filter_bitmask};
use super::flex;
use super::narrow::{collide_geom_pair, collide_geoms, Candidate, Merged};
use super::sap::{broadphase_into, flex_self_sap};
use super::{body_geoms, mark_stack, reserved_u32};
use crate::arena::{Arena, Reservation};
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::model::Model;
use crate::support::disabled;
use crate::timer::{tic, toc};
use crate::types::*;

/// Collision detection (`mj_collision`): clears the arena (contacts and constraint rows), then
/// finds every contact. Writes `ncon`, the `contact` array and `bvh_active`.
pub fn collision(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let t = tic(d);
    d.ncon = 0;
    d.nefc = 0;
    d.nisland = 0;
    if m.vis.global.bvactive != 0 {
        d.bvh_active.fill(0);
    }
    if disabled(m, DSBL_CONSTRAINT)
        || disabled(m, DSBL_CONTACT)
        || m.nconmax == 0
        || m.nbody + m.nflex < 2
    {
        d.arena.clear();
        return Ok(());
    }
    // the colliders read the whole `Data` while contacts are written to the arena, so the
    // arena is lent out, cleared, for the duration (the plugin objects stay in `d` for SDF
    // plugins)
    let mut arena = d.arena.lend_cleared();
    let result = collide_all(m, d, &mut arena);
    d.arena.take_back(arena);
    result?;
    toc(d, TIMER_POS_COLLISION, t);
    Ok(())
}

/// Broad phase, then mid- and narrow phase for every body pair merged with the explicit pairs,
/// in a stack frame of the arena.
fn collide_all(m: &Model, d: &mut Data, arena: &mut Arena) -> Result<(), StepError> {
    if !cfg!(feature = "collision") {
        return without_collision(d);
    }
    let frame = mark_stack(arena)?;
    let result = collide_in_frame(m, d, arena);
    arena.release(frame);
    result
}

/// A build without the `collision` feature finds no contacts: validation refused every model
/// whose geoms could collide by contype/conaffinity or explicit pairs (`validate::features`);
/// a user's contact filter could let others collide, so it is refused here.
fn without_collision(d: &Data) -> Result<(), StepError> {
    match d.callbacks.contactfilter {
        Some(_) => Err(StepError::Rejected(
            "a contact filter needs the mjrs-core feature `collision`",
        )),
        None => Ok(()),
    }
}

/// The body of [`collide_all`]: the pair list stays reserved at the top of the arena while
/// contacts are added at the bottom.
fn collide_in_frame(m: &Model, d: &mut Data, arena: &mut Arena) -> Result<(), StepError> {
    let t = tic(d);
    let nbodyflex = m.nbody + m.nflex;
    let maxpairs = nbodyflex * (nbodyflex - 1) / 2;
    let pairs = arena.reserve::<u32>(maxpairs)?;
    let npair = broadphase_into(m, d, arena, &pairs, maxpairs)?;
    toc(d, TIMER_COL_BROAD, t);

    let t = tic(d);
    narrowphase(m, d, arena, &pairs, npair)?;
    toc(d, TIMER_COL_NARROW, t);
    Ok(())
}

/// Processes the sorted body pairs of the broad phase (the first `npair` of the list `pairs`)
/// and the explicit pairs in signature order, as the second half of `mj_collision`.
fn narrowphase(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    pairs: &Reservation,
    npair: usize,
) -> Result<(), StepError> {
    let mut last_signature = u32::MAX;
    let mut pairadr = 0;
    // the list lives in the arena, which colliding writes to: read it a block at a time
    let mut block = [0u32; super::PAIR_BLOCK];
    for start in (0..npair).step_by(block.len()) {
        let len = (npair - start).min(block.len());
        block[..len].copy_from_slice(&reserved_u32(arena, pairs, npair)?[start..start + len]);
        for &signature in &block[..len] {
            // the list is sorted and may repeat a pair
            if signature == last_signature {
                continue;
            }
            last_signature = signature;
            let (b1, b2) = ((signature >> 16) as usize, (signature & 0xFFFF) as usize);

            // explicit pairs up to this signature go first
            let start = pairadr;
            let mut merged = false;
            while pairadr < m.npair && m.pair_signature[pairadr] as u32 <= signature {
                merged |= m.pair_signature[pairadr] as u32 == signature;
                collide_geoms(m, d, arena, Candidate::Pair(pairadr))?;
                pairadr += 1;
            }
            let merged = if merged {
                Merged {
                    start,
                    end: pairadr,
                }
            } else {
                Merged::NONE
            };

            if !can_collide2(m, b1, b2) || excluded(m, signature) {
                continue;
            }
            collide_bodies(m, d, arena, b1, b2, merged)?;
        }
    }
    // the explicit pairs after the last body pair
    while pairadr < m.npair {
        collide_geoms(m, d, arena, Candidate::Pair(pairadr))?;
        pairadr += 1;
    }
    for f in 0..m.nflex {
        flex_self_collisions(m, d, arena, f)?;
    }
    Ok(())
}

/// Collisions of flex `f` with itself, for a deformable flex whose contype and conaffinity
/// match: internal ones when enabled, then of its active elements as `flex_selfcollide` says:
/// through its hierarchy (`bvh`, and `auto` in 3D), by sweep and prune (`sap`, `auto` in 1D and
/// 2D) or all pairs (`narrow`, or without midphase or hierarchy). Out of line: models without
/// flexes do not run it.
#[inline(never)]
fn flex_self_collisions(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    f: usize,
) -> Result<(), StepError> {
    if m.flex_rigid[f] != 0 || m.flex_contype[f] & m.flex_conaffinity[f] == 0 {
        return Ok(());
    }
    if m.flex_internal[f] != 0 {
        flex::internal(m, d, arena, f)?;
    }
    let mode = m.flex_selfcollide[f];
    if mode == FLEXSELF_NONE {
        return Ok(());
    }
    if !disabled(m, DSBL_MIDPHASE) && mode != FLEXSELF_NARROW && m.flex_bvhadr[f] >= 0 {
        if mode == FLEXSELF_BVH || (mode == FLEXSELF_AUTO && m.flex_dim[f] == 3) {
            let bf = m.nbody + f;
            return collide_tree(m, d, arena, bf, bf, Merged::NONE);
        }
        return flex_self_sap(m, d, arena, f);
    }
    let n = m.flex_elemnum[f].max(0) as usize;
    for e1 in (0..n).filter(|&e| flex::is_elem_active(m, f, e)) {
        for e2 in (e1 + 1..n).filter(|&e| flex::is_elem_active(m, f, e)) {
            flex::elems(m, d, arena, (f, e1), (f, e2))?;
        }
    }
    Ok(())
}

/// Whether body pair `signature` is in `<exclude>` (`exclude_signature` is sorted).
fn excluded(m: &Model, signature: u32) -> bool {
    m.exclude_signature
        .iter()
        .map(|&s| s as u32)
        .find(|&s| s >= signature)
        == Some(signature)
}

/// The root of the hierarchy of body or flex `bf`, if it has one.
fn bvh_root(m: &Model, bf: usize) -> i32 {
    if bf < m.nbody {
        m.body_bvhadr[bf]
    } else {
        m.flex_bvhadr[bf - m.nbody]
    }
}

/// Collides two bodies or a body and a flex or two flexes (`bf1 < bf2`, bodies first): two
/// single geoms directly, through their hierarchies (midphase) when both have one, otherwise
/// all against all.
fn collide_bodies(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    b1: usize,
    b2: usize,
    merged: Merged,
) -> Result<(), StepError> {
    let nbody = m.nbody;
    if b2 < nbody && m.body_geomnum[b1] == 1 && m.body_geomnum[b2] == 1 {
        let (g1, g2) = (body_geoms(m, b1).start, body_geoms(m, b2).start);
        return collide_geom_pair(m, d, arena, g1, g2, merged);
    }
    if !disabled(m, DSBL_MIDPHASE) && bvh_root(m, b1) >= 0 && bvh_root(m, b2) >= 0 {
        let before = d.ncon;
        collide_tree(m, d, arena, b1, b2, merged)?;
        if let Some(found) = arena.contacts_mut().get_mut(before..d.ncon) {
            sort_contacts(m, found);
        }
        return Ok(());
    }
    if b2 >= nbody {
        return collide_flex_all(m, d, arena, b1, b2);
    }
    for g1 in body_geoms(m, b1) {
        for g2 in body_geoms(m, b2) {
            collide_geom_pair(m, d, arena, g1, g2, merged)?;
        }
    }
    Ok(())
}

/// [`collide_bodies`] for a body and a flex or two flexes without hierarchies: all geoms
/// against all elements, or all elements against all. Out of line: bodies' pairs need none of
/// it.
#[inline(never)]
fn collide_flex_all(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    b1: usize,
    b2: usize,
) -> Result<(), StepError> {
    let nbody = m.nbody;
    if b1 < nbody {
        let f = b2 - nbody;
        for g in body_geoms(m, b1) {
            if filter_bitmask(
                m.geom_contype[g],
                m.geom_conaffinity[g],
                m.flex_contype[f],
                m.flex_conaffinity[f],
            ) {
                continue;
            }
            if m.geom_type[g] == GEOM_PLANE {
                flex::plane_flex(m, d, arena, g, f)?;
                continue;
            }
            for e in 0..m.flex_elemnum[f].max(0) as usize {
                flex::geom_elem(m, d, arena, g, f, e)?;
            }
        }
    } else {
        let (f1, f2) = (b1 - nbody, b2 - nbody);
        for e1 in 0..m.flex_elemnum[f1].max(0) as usize {
            for e2 in 0..m.flex_elemnum[f2].max(0) as usize {
                flex::elems(m, d, arena, (f1, e1), (f2, e2))?;
            }
        }
    }
    Ok(())
}

/// Orders the contacts found between two bodies (or a body and a flex, or two flexes) through
/// their hierarchies by the ids of their geoms, elements or vertices, so that the order does
/// not depend on the traversal (`contactcompare`; a stable sort, like the C library's merge
/// sort behind MuJoCo's `qsort`). The traversal often finds them in order already: then a stable
/// sort leaves them as they are, and the sort's code (larger than the check) is not run.
fn sort_contacts(m: &Model, contacts: &mut [Contact]) {
    if contacts
        .windows(2)
        .all(|w| contact_key(m, &w[0]) <= contact_key(m, &w[1]))
    {
        return;
    }
    sort_unordered(m, contacts);
}

/// The key [`sort_contacts`] orders by: the ids of the two geoms (in the order of the pair
/// before `collide_geoms` ordered it by type), elements or vertices.
fn contact_key(m: &Model, c: &Contact) -> (i32, i32) {
    let object = |i: usize| {
        if c.geom[i] >= 0 {
            c.geom[i]
        } else if c.elem[i] >= 0 {
            c.elem[i]
        } else {
            c.vert[i]
        }
    };
    let (o1, o2) = (object(0), object(1));
    // undo collide_geoms' ordering by type
    let ty = |g: i32| m.geom_type[g as usize];
    if c.geom[0] >= 0 && c.geom[1] >= 0 && ty(o1) > ty(o2) {
        (o2, o1)
    } else {
        (o1, o2)
    }
}

/// The sort of [`sort_contacts`] for contacts out of order, out of line: most steps do not
/// need it.
#[cold]
#[inline(never)]
fn sort_unordered(m: &Model, contacts: &mut [Contact]) {
    // A stable order is needed (equal keys keep the order they were found in, as the C qsort
    // behind MuJoCo keeps it), but an insertion sort moves whole contacts O(n^2) times, which
    // dominated a cloth's step. Tagging each contact with its position (in `efc_address`, which
    // the constraint stage sets later and is -1 until then) turns the key into a total order,
    // so the in-place unstable sort gives the stable result without scratch memory.
    for (i, c) in contacts.iter_mut().enumerate() {
        c.efc_address = i as i32;
    }
    contacts.sort_unstable_by_key(|c| (contact_key(m, c), c.efc_address));
    for c in contacts.iter_mut() {
        c.efc_address = -1;
    }
}
