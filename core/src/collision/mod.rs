//! Collision detection (MuJoCo's `engine_collision_driver.c`, "Computation › Collision
//! detection"): [`collision`] fills the contact array at the bottom of the arena.
//!
//! * Broad phase: sweep-and-prune over the bodies' bounding boxes, in a frame aligned with the
//!   principal axes of the geom positions, plus every pair with the world's geoms and planes.
//!   Body pairs are filtered by contype/conaffinity, welding, parent-child (unless
//!   `DSBL_FILTERPARENT`) and `<exclude>`, and merged with the explicit `<pair>`s.
//! * Midphase: bodies with several geoms collide their bounding-volume hierarchies.
//! * Narrow phase: one function per pair of geom types, from the const table
//!   [`COLLISION_FUNC`]; [`primitive`] and [`boxes`] hold the analytic pairs, [`convex`] the
//!   general convex ones (MPR), planes against meshes and height fields.
//!
//! Geom pairs found by the broad phase (not explicit `<pair>`s) pass the user's contact filter
//! (`Callbacks::contactfilter`, MuJoCo's `mjcb_contactfilter`) instead of the contype/conaffinity
//! test when one is set. Not supported: flex objects (the pipeline refuses them before
//! collision).

pub mod boxes;
pub mod convex;
pub mod primitive;

use crate::arena::{Arena, ArenaError, ArenaField, Carver, LayoutCounter, Reservation};
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::math::eig3::eig3;
use crate::math::misc::{max, min, outside_box};
use crate::math::scalar::abs;
use crate::math::spatial::make_frame;
use crate::math::vec::{add_scl3, add_to3, dot3, norm3, scl3, sub3};
use crate::model::Model;
use crate::real::{Real, MAXVAL, MINVAL};
use crate::support::{disabled, enabled, v3, v9, warning};
use crate::timer::{tic, toc};
use crate::types::*;
use core::mem::size_of;

/// A narrow-phase collision function (MuJoCo's `mjfCollision`): writes the contacts between
/// geoms `g1` and `g2` (types in increasing order) within `margin` to the front of the buffer,
/// which holds [`MAXCONPAIR`] contacts, and returns how many. It sets `dist`, `pos` and the
/// normal in `frame[0..3]` (from geom 1 to geom 2), with `frame[3..6]` a tangent or zero; the
/// driver sets the rest.
pub type Collider =
    fn(&Model, &Data, &mut [Contact], usize, usize, Real) -> Result<usize, StepError>;

/// Geoms of signed-distance-field type need plugins, which mjrs refuses when loading.
fn sdf(
    _m: &Model,
    _d: &Data,
    _con: &mut [Contact],
    _g1: usize,
    _g2: usize,
    _margin: Real,
) -> Result<usize, StepError> {
    Err(StepError::Unsupported("collisions with SDF geoms"))
}

const NTYPES: usize = NGEOMTYPES as usize;

/// `Some(f)` as a table entry.
const fn c(f: Collider) -> Option<Collider> {
    Some(f)
}

/// The collider of each pair of geom types (`mjCOLLISIONFUNC`), indexed `[type1][type2]` with
/// `type1 <= type2`; `None`: the pair never collides.
#[rustfmt::skip]
pub const COLLISION_FUNC: [[Option<Collider>; NTYPES]; NTYPES] = {
    use boxes::{box_box, capsule_box, sphere_box};
    use convex::{convex as cvx, convex_hfield as chf, plane_convex as pcv};
    use primitive::*;
    const N: Option<Collider> = None;
    [
        //              plane, hfield, sphere, capsule, ellipsoid, cylinder, box, mesh, sdf
        /* plane     */ [N, N, c(plane_sphere),  c(plane_capsule),   c(pcv), c(plane_cylinder),  c(plane_box),   c(pcv), c(pcv)],
        /* hfield    */ [N, N, c(chf),           c(chf),             c(chf), c(chf),             c(chf),         c(chf), c(sdf)],
        /* sphere    */ [N, N, c(sphere_sphere), c(sphere_capsule),  c(cvx), c(sphere_cylinder), c(sphere_box),  c(cvx), c(sdf)],
        /* capsule   */ [N, N, N,                c(capsule_capsule), c(cvx), c(cvx),             c(capsule_box), c(cvx), c(sdf)],
        /* ellipsoid */ [N, N, N,                N,                  c(cvx), c(cvx),             c(cvx),         c(cvx), c(sdf)],
        /* cylinder  */ [N, N, N,                N,                  N,      c(cvx),             c(cvx),         c(cvx), c(sdf)],
        /* box       */ [N, N, N,                N,                  N,      N,                  c(box_box),     c(cvx), c(sdf)],
        /* mesh      */ [N, N, N,                N,                  N,      N,                  N,              c(cvx), c(sdf)],
        /* sdf       */ [N, N, N,                N,                  N,      N,                  N,              N,      c(sdf)],
    ]
};

/// Position, orientation and size of a geom: what MuJoCo's colliders read (`mjGETINFO`) and
/// what its `mjraw_*` variants take.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Position (`geom_xpos`).
    pub pos: [Real; 3],
    /// Orientation (`geom_xmat`).
    pub mat: [Real; 9],
    /// Size parameters (`geom_size`).
    pub size: [Real; 3],
}

/// The bound under which the colliders treat a rounding-prone quantity of size `scale` as zero
/// (the determinant of parallel axes, the radial direction of a disk parallel to a plane):
/// MuJoCo's `mjMINVAL` in double precision. Exactly degenerate configurations keep about
/// `ε scale` of rounding in single precision, where the bound is therefore `64 ε scale`;
/// otherwise they would be treated as generic, with contacts placed by rounding noise.
pub(crate) fn degenerate_bound(scale: Real) -> Real {
    if cfg!(feature = "f32") {
        MINVAL.max(64.0 * crate::real::EPSILON * scale)
    } else {
        MINVAL
    }
}

impl Shape {
    /// The current pose and size of geom `g`.
    pub fn of(m: &Model, d: &Data, g: usize) -> Self {
        Self {
            pos: v3(d.geom_xpos)[g],
            mat: v9(d.geom_xmat)[g],
            size: v3(m.geom_size)[g],
        }
    }
}

// ------------------------------------------------------------------------------------------------
// entry point

/// Collision detection (`mj_collision`): clears the arena (contacts and constraint rows), then
/// finds every contact. Writes `ncon`, the `contact` array and `bvh_active`.
pub fn collision(m: &Model, d: &mut Data) -> Result<(), StepError> {
    let t = tic(d);
    d.ncon = 0;
    d.nefc = 0;
    d.nisland = 0;
    d.arena.clear();
    if m.vis.global.bvactive != 0 {
        d.bvh_active.fill(0);
    }
    if disabled(m, DSBL_CONSTRAINT)
        || disabled(m, DSBL_CONTACT)
        || m.nconmax == 0
        || m.nbody + m.nflex < 2
    {
        return Ok(());
    }
    if m.nflex > 0 {
        return Err(StepError::Unsupported("flex collisions"));
    }

    // the colliders read the whole `Data` while contacts are written to the arena, so the
    // arena is moved out for the duration
    let mut arena = take_arena(d);
    let result = collide_all(m, d, &mut arena);
    d.arena = arena;
    result?;
    toc(d, TIMER_POS_COLLISION, t);
    Ok(())
}

/// Moves the arena out of `d`, leaving an empty one.
fn take_arena<'a>(d: &mut Data<'a>) -> Arena<'a> {
    let empty: &'a mut [u64] = &mut [];
    core::mem::replace(&mut d.arena, Arena::new(crate::pod::as_bytes_mut(empty)))
}

/// Broad phase, then mid- and narrow phase for every body pair merged with the explicit pairs,
/// in a stack frame of the arena.
fn collide_all(m: &Model, d: &mut Data, arena: &mut Arena) -> Result<(), StepError> {
    let frame = mark_stack(arena)?;
    let result = collide_in_frame(m, d, arena);
    arena.release(frame);
    result
}

/// The body of [`collide_all`]: the pair list stays reserved at the top of the arena while
/// contacts are added at the bottom.
fn collide_in_frame(m: &Model, d: &mut Data, arena: &mut Arena) -> Result<(), StepError> {
    let t = tic(d);
    let maxpairs = m.nbody * (m.nbody - 1) / 2;
    let pairs = arena.reserve::<u32>(maxpairs)?;
    let npair = broadphase_into(m, d, arena, &pairs, maxpairs)?;
    toc(d, TIMER_COL_BROAD, t);

    let t = tic(d);
    narrowphase(m, d, arena, &pairs, npair)?;
    toc(d, TIMER_COL_NARROW, t);
    Ok(())
}

/// Where MuJoCo calls `mj_markStack`, which keeps a 16-byte record on the stack: reserving as
/// much leaves the same room for contacts as in MuJoCo, so that a full arena drops the same
/// contacts. Releasing the returned reservation frees everything reserved after it.
fn mark_stack(arena: &mut Arena) -> Result<Reservation, ArenaError> {
    arena.reserve::<u64>(2)
}

/// The `n` values of `u32` reserved by `r`.
fn reserved_u32<'x>(
    arena: &'x mut Arena,
    r: &Reservation,
    n: usize,
) -> Result<&'x mut [u32], StepError> {
    let s = arena.reserved::<u32>(r, n);
    if s.len() == n {
        Ok(s)
    } else {
        Err(StepError::Arena(ArenaError::SizeOverflow))
    }
}

/// Runs the broad phase with scratch reserved below the pair list, then copies its pairs into
/// the list `pairs` (of `maxpairs`); returns their number.
fn broadphase_into(
    m: &Model,
    d: &Data,
    arena: &mut Arena,
    pairs: &Reservation,
    maxpairs: usize,
) -> Result<usize, StepError> {
    let mem = BroadphaseMem::layout(m.nbody, maxpairs)?;
    let scratch = arena.reserve::<u64>(mem.words())?;
    let block = arena.reserved::<u64>(&scratch, mem.words());
    let result = mem.carve(block).and_then(|arrays| broadphase(m, d, arrays));
    let copied = result.and_then(|n| {
        // the scratch block starts with the broad phase's pair list
        let mut buf = [0u32; 64];
        for start in (0..n).step_by(buf.len()) {
            let len = (n - start).min(buf.len());
            buf[..len].copy_from_slice(&reserved_u32(arena, &scratch, n)?[start..start + len]);
            reserved_u32(arena, pairs, maxpairs)?[start..start + len].copy_from_slice(&buf[..len]);
        }
        Ok(n)
    });
    arena.release(scratch);
    copied
}

/// The explicit pairs `pair_adr` that share the signature of the body pair being processed
/// (MuJoCo's `merged`, `startadr`, `pairadr`): their geom pairs are not collided again.
#[derive(Clone, Copy)]
struct Merged {
    start: usize,
    end: usize,
}

impl Merged {
    const NONE: Merged = Merged { start: 0, end: 0 };

    /// Whether an explicit pair of this body pair is the geom pair `g1`, `g2` (either order).
    fn contains(&self, m: &Model, g1: usize, g2: usize) -> bool {
        (self.start..self.end).any(|k| {
            let (p1, p2) = (m.pair_geom1[k] as usize, m.pair_geom2[k] as usize);
            (p1 == g1 && p2 == g2) || (p1 == g2 && p2 == g1)
        })
    }
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
    let mut block = [0u32; 64];
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

/// Collides the geoms of two bodies: directly for single geoms, through their hierarchies
/// (midphase) when both have one, otherwise all against all.
fn collide_bodies(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    b1: usize,
    b2: usize,
    merged: Merged,
) -> Result<(), StepError> {
    let (geoms1, geoms2) = (body_geoms(m, b1), body_geoms(m, b2));
    if geoms1.len() == 1 && geoms2.len() == 1 {
        return collide_geom_pair(m, d, arena, geoms1.start, geoms2.start, merged);
    }
    if !disabled(m, DSBL_MIDPHASE) && m.body_bvhadr[b1] >= 0 && m.body_bvhadr[b2] >= 0 {
        let before = d.ncon;
        collide_tree(m, d, arena, b1, b2, merged)?;
        if let Some(found) = arena.contacts_mut().get_mut(before..d.ncon) {
            sort_contacts(m, found);
        }
        return Ok(());
    }
    for g1 in geoms1 {
        for g2 in geoms2.clone() {
            collide_geom_pair(m, d, arena, g1, g2, merged)?;
        }
    }
    Ok(())
}

/// The geoms of body `b`.
fn body_geoms(m: &Model, b: usize) -> core::ops::Range<usize> {
    let start = m.body_geomadr[b].max(0) as usize;
    start..start + m.body_geomnum[b].max(0) as usize
}

/// Collides two geoms unless an explicit pair of their bodies already did
/// (`mj_collideGeomPair`).
fn collide_geom_pair(
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

/// Orders the contacts found between two bodies through their hierarchies by geom pair, so
/// that the order does not depend on the traversal (`contactcompare`; a stable sort, like the C
/// library's merge sort behind MuJoCo's `qsort`).
fn sort_contacts(m: &Model, contacts: &mut [Contact]) {
    let key = |c: &Contact| {
        let (g1, g2) = (c.geom[0], c.geom[1]);
        // undo collide_geoms' ordering by type
        let ty = |g: i32| m.geom_type[g as usize];
        if g1 >= 0 && g2 >= 0 && ty(g1) > ty(g2) {
            (g2, g1)
        } else {
            (g1, g2)
        }
    };
    for i in 1..contacts.len() {
        let mut j = i;
        while j > 0 && key(&contacts[j - 1]) > key(&contacts[j]) {
            contacts.swap(j - 1, j);
            j -= 1;
        }
    }
}

// ------------------------------------------------------------------------------------------------
// filters

/// Whether neither geom's contype matches the other's conaffinity (`filterBitmask`).
fn filter_bitmask(contype1: i32, conaffinity1: i32, contype2: i32, conaffinity2: i32) -> bool {
    contype1 & conaffinity2 == 0 && contype2 & conaffinity1 == 0
}

/// Whether a body can collide with anything (`canCollide`).
fn can_collide(m: &Model, b: usize) -> bool {
    m.body_contype[b] != 0 || m.body_conaffinity[b] != 0
}

/// Whether two bodies' contype and conaffinity match (`canCollide2`).
fn can_collide2(m: &Model, b1: usize, b2: usize) -> bool {
    !filter_bitmask(
        m.body_contype[b1],
        m.body_conaffinity[b1],
        m.body_contype[b2],
        m.body_conaffinity[b2],
    )
}

/// Whether a body pair is welded together, or is a parent and child (unless the filter is
/// disabled) (`filterBodyPair`); the arguments are weld bodies and their parents' weld bodies.
fn filter_body_pair(
    weld1: i32,
    weld_parent1: i32,
    weld2: i32,
    weld_parent2: i32,
    dsbl_filterparent: bool,
) -> bool {
    weld1 == weld2
        || (!dsbl_filterparent
            && weld1 != 0
            && weld2 != 0
            && (weld1 == weld_parent2 || weld2 == weld_parent1))
}

/// A body's weld body and that of its parent.
fn weld_and_parent(m: &Model, b: usize) -> (i32, i32) {
    let weld = m.body_weldid[b];
    (weld, m.body_weldid[m.body_parentid[weld as usize] as usize])
}

/// The contact margin, or `opt.o_margin` with the override flag (`mj_assignMargin`).
fn assign_margin(m: &Model, source: Real) -> Real {
    if enabled(m, ENBL_OVERRIDE) {
        m.opt.o_margin
    } else {
        source
    }
}

/// Signed distance of geom `g`'s center above plane `plane` (`planeGeomDist`).
fn plane_geom_dist(d: &Data, plane: usize, g: usize) -> Real {
    let mat = &v9(d.geom_xmat)[plane];
    let normal = [mat[2], mat[5], mat[8]];
    dot3(&sub3(&v3(d.geom_xpos)[g], &v3(d.geom_xpos)[plane]), &normal)
}

/// Whether the bounding spheres of two geoms (or a plane and a sphere) are further apart than
/// `margin` (`mj_filterSphere`).
fn filter_sphere(m: &Model, d: &Data, g1: usize, g2: usize, margin: Real) -> bool {
    let (r1, r2) = (m.geom_rbound[g1], m.geom_rbound[g2]);
    if r1 > 0.0 && r2 > 0.0 {
        let (p1, p2) = (&v3(d.geom_xpos)[g1], &v3(d.geom_xpos)[g2]);
        let dif = [p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2]];
        let distsqr = dif[0] * dif[0] + dif[1] * dif[1] + dif[2] * dif[2];
        let bound = r1 + r2 + margin;
        return distsqr > bound * bound;
    }
    (m.geom_type[g1] == GEOM_PLANE && r2 > 0.0 && plane_geom_dist(d, g1, g2) > margin + r2)
        || (m.geom_type[g2] == GEOM_PLANE && r1 > 0.0 && plane_geom_dist(d, g2, g1) > margin + r1)
}

// ------------------------------------------------------------------------------------------------
// midphase

/// Collides two bodies through their bounding-volume hierarchies (`mj_collideTree` for
/// bodies), with a traversal stack of `body_bvhnum[b1] + body_bvhnum[b2]` node pairs in the
/// arena, as MuJoCo.
fn collide_tree(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    b1: usize,
    b2: usize,
    merged: Merged,
) -> Result<(), StepError> {
    if !can_collide2(m, b1, b2) {
        return Ok(());
    }
    let frame = mark_stack(arena)?;
    let capacity = (m.body_bvhnum[b1].max(0) + m.body_bvhnum[b2].max(0)) as usize;
    let result = match arena.reserve::<u32>(2 * capacity) {
        Ok(stack) => {
            let mut stack = TreeStack {
                reservation: stack,
                capacity,
                len: 0,
            };
            traverse_trees(m, d, arena, &mut stack, b1, b2, merged)
        }
        Err(e) => Err(e.into()),
    };
    arena.release(frame);
    result
}

/// Pending node pairs of [`traverse_trees`], reserved in the arena.
struct TreeStack {
    reservation: Reservation,
    capacity: usize,
    len: usize,
}

impl TreeStack {
    fn push(&mut self, arena: &mut Arena, nodes: (usize, usize)) -> Result<(), StepError> {
        if self.len >= self.capacity {
            return Err(StepError::Numerical("BVH stack depth exceeded"));
        }
        let s = reserved_u32(arena, &self.reservation, 2 * self.capacity)?;
        s[2 * self.len] = nodes.0 as u32;
        s[2 * self.len + 1] = nodes.1 as u32;
        self.len += 1;
        Ok(())
    }

    fn pop(&mut self, arena: &mut Arena) -> Result<Option<(usize, usize)>, StepError> {
        if self.len == 0 {
            return Ok(None);
        }
        self.len -= 1;
        let s = reserved_u32(arena, &self.reservation, 2 * self.capacity)?;
        Ok(Some((
            s[2 * self.len] as usize,
            s[2 * self.len + 1] as usize,
        )))
    }
}

/// The traversal of [`collide_tree`]: descends the tree whose box has the larger (MuJoCo's)
/// surface measure while the oriented boxes overlap, and collides overlapping leaf geoms.
/// Marks visited nodes in `bvh_active` when `vis.global.bvactive` is set.
fn traverse_trees(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    stack: &mut TreeStack,
    b1: usize,
    b2: usize,
    merged: Merged,
) -> Result<(), StepError> {
    let (adr1, adr2) = (m.body_bvhadr[b1] as usize, m.body_bvhadr[b2] as usize);
    let mark_active = m.vis.global.bvactive != 0;
    let aabb = |node: usize| bvh_box(m, node);
    let children = |node: usize| [m.bvh_child[2 * node], m.bvh_child[2 * node + 1]];
    let is_leaf = |node: usize| children(node).iter().all(|&c| c < 0);
    let mut obb = ObbCache::default();

    stack.push(arena, (0, 0))?;
    while let Some((node1, node2)) = stack.pop(arena)? {
        let (n1, n2) = (adr1 + node1, adr2 + node2);
        let (leaf1, leaf2) = (is_leaf(n1), is_leaf(n2));
        if b1 == b2 && node1 > node2 {
            continue;
        }

        if leaf1 && leaf2 {
            let (g1, g2) = (m.bvh_nodeid[n1] as usize, m.bvh_nodeid[n2] as usize);
            let margin = assign_margin(m, max(m.geom_margin[g1], m.geom_margin[g2]));
            let box1 = Obb::geom(m, d, g1);
            let box2 = Obb::geom(m, d, g2);
            if !filter_sphere(m, d, g1, g2, margin) && collide_obb(&box1, &box2, margin, None) {
                collide_geom_pair(m, d, arena, g1, g2, merged)?;
                if mark_active {
                    d.bvh_active[n1] = 1;
                    d.bvh_active[n2] = 1;
                }
            }
            continue;
        }

        // inner nodes: stop where the boxes do not overlap
        let margin = assign_margin(m, max(m.body_margin[b1], m.body_margin[b2]));
        let box1 = Obb::body(d, aabb(n1), b1);
        let box2 = Obb::body(d, aabb(n2), b2);
        if !collide_obb(&box1, &box2, margin, Some(&mut obb)) {
            continue;
        }
        if mark_active {
            d.bvh_active[n1] = 1;
            d.bvh_active[n2] = 1;
        }

        // descend the inner node, or of two inner nodes the one with the larger measure
        // (MuJoCo's measure mixes the box's center and half sizes; kept for identical order)
        let surface = |a: &[Real; 6]| {
            let (x, y, z) = (a[3] - a[0], a[4] - a[1], a[5] - a[2]);
            x * y + y * z + z * x
        };
        let descend_first = match (leaf1, leaf2) {
            (false, true) => true,
            (true, false) => false,
            _ => surface(aabb(n1)) > surface(aabb(n2)),
        };
        let (node, other) = if descend_first {
            (n1, node2)
        } else {
            (n2, node1)
        };
        for child in children(node) {
            if child == -1 {
                continue;
            }
            let child = child as usize;
            let pair = if descend_first {
                (child, other)
            } else {
                (other, child)
            };
            stack.push(arena, pair)?;
        }
    }
    Ok(())
}

/// Node `node`'s box (center, half sizes) in its body's inertial frame.
fn bvh_box<'m>(m: &'m Model, node: usize) -> &'m [Real; 6] {
    &m.bvh_aabb.as_chunks::<6>().0[node]
}

/// An oriented bounding box: `aabb` (center and half sizes) in the frame `pos`, `mat`.
struct Obb<'a> {
    aabb: &'a [Real; 6],
    pos: &'a [Real; 3],
    mat: &'a [Real; 9],
}

impl<'a> Obb<'a> {
    /// Geom `g`'s box in its frame.
    fn geom(m: &'a Model, d: &'a Data, g: usize) -> Self {
        Self {
            aabb: &m.geom_aabb.as_chunks::<6>().0[g],
            pos: &v3(d.geom_xpos)[g],
            mat: &v9(d.geom_xmat)[g],
        }
    }

    /// A box of body `b`'s hierarchy, in the body's inertial frame.
    fn body(d: &'a Data, aabb: &'a [Real; 6], b: usize) -> Self {
        Self {
            aabb,
            pos: &v3(d.xipos)[b],
            mat: &v9(d.ximat)[b],
        }
    }

    /// Axis `j` of the box's frame in world coordinates (column `j` of `mat`).
    fn axis(&self, j: usize) -> [Real; 3] {
        [self.mat[j], self.mat[3 + j], self.mat[6 + j]]
    }
}

/// Products of the two frames' axes and their origins, computed once per body pair for the
/// inner nodes of [`collide_tree`] (MuJoCo's `product`, `offset`, `initialize`).
#[derive(Default)]
struct ObbCache {
    ready: bool,
    product: [[[[Real; 3]; 3]; 2]; 2],
    offset: [[[Real; 3]; 2]; 2],
}

/// Whether two oriented boxes overlap within `margin`, by the separating-axis test on the
/// boxes' face normals (`mj_collideOBB`). An infinite box (a plane's) always overlaps.
fn collide_obb(b1: &Obb, b2: &Obb, margin: Real, mut cache: Option<&mut ObbCache>) -> bool {
    let boxes = [b1, b2];
    let infinite = |b: &Obb| {
        [
            b.aabb[3] >= MAXVAL,
            b.aabb[4] >= MAXVAL,
            b.aabb[5] >= MAXVAL,
        ]
    };
    let (inf1, inf2) = (infinite(b1), infinite(b2));
    if inf1.iter().all(|&x| x) || inf2.iter().all(|&x| x) {
        return true;
    }
    let partly_infinite = [inf1.iter().any(|&x| x), inf2.iter().any(|&x| x)];
    let normal = |i: usize, j: usize| boxes[i].axis(j);

    if let Some(c) = cache.as_deref_mut() {
        if !c.ready {
            for i in 0..2 {
                for j in 0..2 {
                    for k in 0..3 {
                        for l in 0..3 {
                            c.product[i][j][k][l] = dot3(&normal(i, l), &normal(j, k));
                        }
                        c.offset[i][j][k] = dot3(boxes[i].pos, &normal(j, k));
                    }
                }
            }
            c.ready = true;
        }
    }
    let center = |i: usize| {
        let mut x = crate::math::mat::rot_vec_mat(
            &[boxes[i].aabb[0], boxes[i].aabb[1], boxes[i].aabb[2]],
            boxes[i].mat,
        );
        add_to3(&mut x, boxes[i].pos);
        x
    };

    for j in 0..2 {
        // no test along the faces of a box against an infinite one
        if partly_infinite[1 - j] {
            continue;
        }
        for k in 0..3 {
            let mut proj = [0.0; 2];
            let mut radius = [0.0; 2];
            for i in 0..2 {
                let a = boxes[i].aabb;
                match cache.as_deref() {
                    None => {
                        let n = normal(j, k);
                        proj[i] = dot3(&center(i), &n);
                        radius[i] = abs(a[3] * dot3(&normal(i, 0), &n))
                            + abs(a[4] * dot3(&normal(i, 1), &n))
                            + abs(a[5] * dot3(&normal(i, 2), &n));
                    }
                    Some(c) => {
                        let p = &c.product[i][j][k];
                        proj[i] = a[0] * p[0] + a[1] * p[1] + a[2] * p[2] + c.offset[i][j][k];
                        radius[i] = abs(a[3] * p[0]) + abs(a[4] * p[1]) + abs(a[5] * p[2]);
                    }
                }
            }
            if radius[0] + radius[1] + margin < abs(proj[1] - proj[0]) {
                return false;
            }
        }
    }
    true
}

// ------------------------------------------------------------------------------------------------
// broad phase

/// The broad phase's memory, reserved as one block at the top of the arena while it runs: its
/// pair list (first, so that it can be copied from the block's start), then scratch arrays.
struct BroadphaseMem {
    nbody: usize,
    maxpairs: usize,
    bytes: usize,
}

/// Views of [`BroadphaseMem`].
struct BroadphaseArrays<'a> {
    /// Body pairs, `(b1 << 16) + b2` with `b1 < b2` (MuJoCo's signatures).
    pairs: &'a mut [u32],
    /// Collidable bodies.
    bfid: &'a mut [i32],
    /// Their bounding boxes as min[3], max[3] (`aamm`).
    aamm: &'a mut [Real],
    /// Sweep-and-prune end points: value on the sweep axis (as `float`, as MuJoCo).
    sap_value: &'a mut [f32],
    /// End point ids: body index, `+ 0x10000` for a max.
    sap_id: &'a mut [i32],
    /// Sort order of the end points, and scratch for the merge sort.
    order: &'a mut [u32],
    sort_tmp: &'a mut [u32],
    /// Bodies whose interval is open during the sweep.
    active: &'a mut [i32],
    /// Per body, the OR of its geoms' `contype` and of their `conaffinity` (MuJoCo ORs them for
    /// every candidate pair; once per body and step gives the same masks).
    masks: &'a mut [[i32; 2]],
}

impl BroadphaseMem {
    /// The block's size for `nbody` bodies and a list of `maxpairs` pairs.
    fn layout(nbody: usize, maxpairs: usize) -> Result<Self, StepError> {
        let mut l = LayoutCounter::new();
        let ends = nbody.checked_mul(2);
        l.add::<u32>(Some(maxpairs));
        l.add::<i32>(Some(nbody));
        l.add::<Real>(nbody.checked_mul(6));
        l.add::<f32>(ends);
        l.add::<i32>(ends);
        l.add::<u32>(ends);
        l.add::<u32>(ends);
        l.add::<i32>(ends);
        l.add::<i32>(ends);
        Ok(Self {
            nbody,
            maxpairs,
            bytes: l.total().ok_or(ArenaError::SizeOverflow)?,
        })
    }

    /// Size in 8-byte words.
    fn words(&self) -> usize {
        self.bytes.div_ceil(8)
    }

    /// The arrays within `block` (of [`BroadphaseMem::words`] words), in the order of
    /// [`BroadphaseMem::layout`].
    fn carve<'a>(&self, block: &'a mut [u64]) -> Result<BroadphaseArrays<'a>, StepError> {
        let n = self.nbody;
        let mut c = Carver::new(crate::pod::as_bytes_mut(block), self.bytes);
        Ok(BroadphaseArrays {
            pairs: c.take::<u32>(Some(self.maxpairs))?,
            bfid: c.take::<i32>(Some(n))?,
            aamm: c.take::<Real>(Some(6 * n))?,
            sap_value: c.take::<f32>(Some(2 * n))?,
            sap_id: c.take::<i32>(Some(2 * n))?,
            order: c.take::<u32>(Some(2 * n))?,
            sort_tmp: c.take::<u32>(Some(2 * n))?,
            active: c.take::<i32>(Some(2 * n))?,
            masks: c.take::<i32>(Some(2 * n))?.as_chunks_mut::<2>().0,
        })
    }
}

/// The list of candidate body pairs (`add_pair` and its buffer).
struct PairList<'a> {
    pairs: &'a mut [u32],
    n: usize,
    /// [`BroadphaseArrays::masks`].
    masks: &'a [[i32; 2]],
}

impl PairList<'_> {
    /// Adds the pair `b1`, `b2` unless no geom of one can touch a geom of the other by
    /// contype/conaffinity. A full list is MuJoCo's fatal "broadphase buffer full".
    fn add(&mut self, b1: usize, b2: usize) -> Result<(), StepError> {
        if self.n >= self.pairs.len() {
            return Err(StepError::Numerical("broadphase buffer full"));
        }
        let ([t1, a1], [t2, a2]) = (self.masks[b1], self.masks[b2]);
        if filter_bitmask(t1, a1, t2, a2) {
            return Ok(());
        }
        let (lo, hi) = if b1 < b2 { (b1, b2) } else { (b2, b1) };
        self.pairs[self.n] = ((lo as u32) << 16) + hi as u32;
        self.n += 1;
        Ok(())
    }
}

/// Broad phase (`mj_broadphase` for bodies): the body pairs that may touch, sorted by
/// signature, in `mem.pairs`; returns their number.
fn broadphase(m: &Model, d: &Data, mem: BroadphaseArrays) -> Result<usize, StepError> {
    let BroadphaseArrays {
        pairs,
        bfid,
        aamm,
        sap_value,
        sap_id,
        order,
        sort_tmp,
        active,
        masks,
    } = mem;
    for (b, mask) in masks.iter_mut().enumerate() {
        *mask = body_geoms(m, b).fold([0, 0], |[t, a], g| {
            [t | m.geom_contype[g], a | m.geom_conaffinity[g]]
        });
    }
    let mut list = PairList { pairs, n: 0, masks };
    let dsbl_filterparent = disabled(m, DSBL_FILTERPARENT);

    // the world's geoms, and static planes, against every body not welded to the world
    for b1 in 0..m.nbody {
        if !can_collide(m, b1) {
            continue;
        }
        let world_geoms = b1 == 0 && m.body_geomnum[0] > 0;
        let static_plane =
            m.body_weldid[b1] == 0 && body_geoms(m, b1).any(|g| m.geom_type[g] == GEOM_PLANE);
        if !(world_geoms || static_plane) {
            continue;
        }
        for b2 in 0..m.nbody {
            if !can_collide(m, b2) {
                continue;
            }
            let (weld2, parent2) = weld_and_parent(m, b2);
            if filter_body_pair(0, 0, weld2, parent2, dsbl_filterparent) {
                continue;
            }
            list.add(b1, b2)?;
        }
    }

    // sweep and prune the collidable bodies along the geoms' principal axis
    if let Some(frame) = principal_frame(m, d) {
        let mut ncollide = 0;
        for b in 1..m.nbody {
            if can_collide(m, b) {
                bfid[ncollide] = b as i32;
                ncollide += 1;
            }
        }
        if ncollide >= 2 {
            for (i, &b) in bfid[..ncollide].iter().enumerate() {
                aamm[6 * i..6 * i + 6].copy_from_slice(&make_aamm(m, d, b as usize, &frame));
            }
            let sap = Sap {
                aamm: &aamm[..6 * ncollide],
                value: &mut sap_value[..2 * ncollide],
                id: &mut sap_id[..2 * ncollide],
                order: &mut order[..2 * ncollide],
                tmp: &mut sort_tmp[..2 * ncollide],
                active: &mut active[..2 * ncollide],
            };
            sap.sweep(|id1, id2| {
                let (b1, b2) = (bfid[id1] as usize, bfid[id2] as usize);
                let (weld1, parent1) = weld_and_parent(m, b1);
                let (weld2, parent2) = weld_and_parent(m, b2);
                if filter_body_pair(weld1, parent1, weld2, parent2, dsbl_filterparent) {
                    return Ok(());
                }
                list.add(b1, b2)
            })?;
        }
    }

    let n = list.n;
    list.pairs[..n].sort_unstable();
    Ok(n)
}

/// The principal axes of the positions of the geoms outside the world body (the rows of the
/// eigenvectors of their covariance), or `None` when there are no such geoms.
fn principal_frame(m: &Model, d: &Data) -> Option<[Real; 9]> {
    let xpos = v3(d.geom_xpos);
    let moving = || (0..m.ngeom).filter(|&g| m.geom_bodyid[g] != 0);
    let mut cen = [0.0; 3];
    let mut cnt = 0usize;
    for g in moving() {
        add_to3(&mut cen, &xpos[g]);
        cnt += 1;
    }
    if cnt == 0 {
        return None;
    }
    cen = scl3(&cen, 1.0 / cnt as Real);
    let mut cov = [0.0; 9];
    for g in moving() {
        let dif = sub3(&xpos[g], &cen);
        let (d00, d01, d02) = (dif[0] * dif[0], dif[0] * dif[1], dif[0] * dif[2]);
        let (d11, d12, d22) = (dif[1] * dif[1], dif[1] * dif[2], dif[2] * dif[2]);
        for (c, x) in cov
            .iter_mut()
            .zip([d00, d01, d02, d01, d11, d12, d02, d12, d22])
        {
            *c += x;
        }
    }
    let inv = 1.0 / cnt as Real;
    Some(eig3(&cov.map(|c| c * inv)).eigvec)
}

/// Body `b`'s bounding box in `frame` as min[3], max[3], from its geoms' bounding spheres
/// (`makeAAMM`).
fn make_aamm(m: &Model, d: &Data, b: usize, frame: &[Real; 9]) -> [Real; 6] {
    let mut aamm = [0.0; 6];
    for (i, g) in body_geoms(m, b).enumerate() {
        let margin = if enabled(m, ENBL_OVERRIDE) {
            0.5 * m.opt.o_margin
        } else {
            m.geom_margin[g]
        };
        let mut box_g = [0.0; 6];
        for j in 0..3 {
            let axis = [frame[3 * j], frame[3 * j + 1], frame[3 * j + 2]];
            let cen = dot3(&v3(d.geom_xpos)[g], &axis);
            box_g[j] = cen - m.geom_rbound[g] - margin;
            box_g[j + 3] = cen + m.geom_rbound[g] + margin;
        }
        if i == 0 {
            aamm = box_g;
        } else {
            for j in 0..3 {
                aamm[j] = min(aamm[j], box_g[j]);
                aamm[j + 3] = max(aamm[j + 3], box_g[j + 3]);
            }
        }
    }
    aamm
}

/// Sweep and prune along the x axis of `aamm` (`mj_SAP`): the scratch arrays hold 2n end
/// points.
struct Sap<'a> {
    aamm: &'a [Real],
    value: &'a mut [f32],
    id: &'a mut [i32],
    order: &'a mut [u32],
    tmp: &'a mut [u32],
    active: &'a mut [i32],
}

impl Sap<'_> {
    /// Calls `found(id1, id2)` for every pair of boxes that overlap on all three axes, in
    /// MuJoCo's order (`id1` is the box whose interval opened first).
    fn sweep(
        self,
        mut found: impl FnMut(usize, usize) -> Result<(), StepError>,
    ) -> Result<(), StepError> {
        let n = self.aamm.len() / 6;
        if n >= 0x10000 {
            return Err(StepError::Numerical("SAP failed"));
        }
        let aamm = self.aamm;
        for i in 0..n {
            self.value[2 * i] = single(aamm[6 * i]);
            self.id[2 * i] = i as i32;
            self.value[2 * i + 1] = single(aamm[6 * i + 3]);
            self.id[2 * i + 1] = i as i32 + 0x10000;
        }
        for (k, o) in self.order.iter_mut().enumerate() {
            *o = k as u32;
        }
        let value = &*self.value;
        if value.iter().any(|v| v.is_nan()) {
            merge_sort(self.order, self.tmp, &|a, b| {
                sap_compare(value[a as usize], value[b as usize])
            });
        } else {
            stable_sort(self.order, self.tmp, &|a, b| {
                value[a as usize] <= value[b as usize]
            });
        }

        // the other two axes prune what the sweep axis lets through
        let separated = |a: usize, b: usize| {
            aamm[6 * a + 1] > aamm[6 * b + 4]
                || aamm[6 * a + 2] > aamm[6 * b + 5]
                || aamm[6 * b + 1] > aamm[6 * a + 4]
                || aamm[6 * b + 2] > aamm[6 * a + 5]
        };
        let mut cnt = 0;
        for &e in self.order.iter() {
            let id = self.id[e as usize];
            if id & 0x10000 == 0 {
                // interval opens: pair with every open one
                for &open in &self.active[..cnt] {
                    if !separated(open as usize, id as usize) {
                        found(open as usize, id as usize)?;
                    }
                }
                self.active[cnt] = id;
                cnt += 1;
            } else {
                // interval closes
                let closing = id & 0xFFFF;
                if let Some(j) = self.active[..cnt].iter().position(|&a| a == closing) {
                    self.active.copy_within(j + 1..cnt, j);
                    cnt -= 1;
                }
            }
        }
        Ok(())
    }
}

/// `x` rounded to single precision, as MuJoCo sorts the sweep's end points (a no-op when `Real`
/// is `f32`).
#[allow(clippy::unnecessary_cast)]
fn single(x: Real) -> f32 {
    x as f32
}

/// MuJoCo's `SAPcompare`: -1, 0 or 1 (1 also when a value is NaN).
fn sap_compare(a: f32, b: f32) -> i32 {
    if a < b {
        -1
    } else if a == b {
        0
    } else {
        1
    }
}

/// Stable top-down merge sort of `v` by `cmp`, with the structure of the C library's `qsort`
/// (glibc's `msort`: halves of `n / 2` and `n - n / 2`, ties from the left), so that even an
/// inconsistent comparison (NaN) orders as in MuJoCo. `tmp` is scratch of `v`'s length.
fn merge_sort(v: &mut [u32], tmp: &mut [u32], cmp: &impl Fn(u32, u32) -> i32) {
    let n = v.len();
    if n <= 1 {
        return;
    }
    let n1 = n / 2;
    {
        let (a, b) = v.split_at_mut(n1);
        let (ta, tb) = tmp.split_at_mut(n1);
        merge_sort(a, ta, cmp);
        merge_sort(b, tb, cmp);
    }
    let (mut i, mut j, mut k) = (0, n1, 0);
    while i < n1 && j < n {
        if cmp(v[i], v[j]) <= 0 {
            tmp[k] = v[i];
            i += 1;
        } else {
            tmp[k] = v[j];
            j += 1;
        }
        k += 1;
    }
    // the rest of the left half; the rest of the right half is in place already
    tmp[k..k + n1 - i].copy_from_slice(&v[i..n1]);
    k += n1 - i;
    v[..k].copy_from_slice(&tmp[..k]);
}

/// Stable sort of `v` by the total preorder `le` (`le(a, b)`: `a` may precede `b`), `tmp`
/// scratch of `v`'s length: runs of [`RUN`] sorted by insertion, then merged bottom-up. Any
/// stable sort by a consistent order gives the one result `qsort`'s merge sort gives, with
/// fewer comparisons and no recursion on the short end-point lists of the sweep.
fn stable_sort(v: &mut [u32], tmp: &mut [u32], le: &impl Fn(u32, u32) -> bool) {
    const RUN: usize = 16;
    for run in v.chunks_mut(RUN) {
        insertion_sort(run, le);
    }
    let n = v.len();
    let mut width = RUN;
    while width < n {
        for start in (0..n).step_by(2 * width) {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            merge(&mut v[start..end], mid - start, &mut tmp[start..end], le);
        }
        width *= 2;
    }
}

/// Sorts `run` stably by insertion: each element moves left past the ones it must precede.
fn insertion_sort(run: &mut [u32], le: &impl Fn(u32, u32) -> bool) {
    for i in 1..run.len() {
        let x = run[i];
        let mut j = i;
        while j > 0 && !le(run[j - 1], x) {
            run[j] = run[j - 1];
            j -= 1;
        }
        run[j] = x;
    }
}

/// Merges the sorted halves `v[..mid]` and `v[mid..]` stably (ties from the left) through
/// `tmp`.
fn merge(v: &mut [u32], mid: usize, tmp: &mut [u32], le: &impl Fn(u32, u32) -> bool) {
    let n = v.len();
    if mid == n || le(v[mid - 1], v[mid]) {
        return; // already in order
    }
    let (mut i, mut j, mut k) = (0, mid, 0);
    while i < mid && j < n {
        if le(v[i], v[j]) {
            tmp[k] = v[i];
            i += 1;
        } else {
            tmp[k] = v[j];
            j += 1;
        }
        k += 1;
    }
    tmp[k..k + mid - i].copy_from_slice(&v[i..mid]);
    k += mid - i;
    v[..k].copy_from_slice(&tmp[..k]);
}

// ------------------------------------------------------------------------------------------------
// narrow phase

/// What `collide_geoms` collides: two geoms found by the broad phase, or an explicit pair.
#[derive(Clone, Copy)]
enum Candidate {
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
    let Some(collider) = COLLISION_FUNC
        .get(t1)
        .and_then(|row| row.get(t2))
        .copied()
        .flatten()
    else {
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
fn collide_geoms(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    candidate: Candidate,
) -> Result<(), StepError> {
    let (g1, g2, ipair) = match candidate {
        Candidate::Geoms(g1, g2) => (g1, g2, None),
        Candidate::Pair(p) => (m.pair_geom1[p] as usize, m.pair_geom2[p] as usize, Some(p)),
    };
    let (g1, g2) = if m.geom_type[g1] > m.geom_type[g2] {
        (g2, g1)
    } else {
        (g1, g2)
    };
    let (t1, t2) = (m.geom_type[g1] as usize, m.geom_type[g2] as usize);
    let Some(collider) = COLLISION_FUNC
        .get(t1)
        .and_then(|row| row.get(t2))
        .copied()
        .flatten()
    else {
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

    // MuJoCo reserves room for MAXCONPAIR contacts right after the existing ones and gives
    // the unused part back afterwards (resetArena)
    if arena
        .stack()
        .push::<Contact>(ArenaField::contact as usize, MAXCONPAIR)
        .is_err()
    {
        warning(d, WARN_CONTACTFULL, d.ncon as i32);
        return Ok(());
    }
    let ncon = d.ncon;
    let contacts: &mut [Contact] = arena.contacts_mut();
    let result = match contacts.get_mut(ncon..ncon + MAXCONPAIR) {
        Some(con) => collide_into(m, d, con, collider, g1, g2, margin, ipair),
        None => Err(StepError::Arena(ArenaError::Detached)),
    };
    d.ncon += *result.as_ref().unwrap_or(&0);
    reset_arena(arena, d.ncon);
    result.map(|_| ())
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

/// Gives back the arena above the first `ncon` contacts (MuJoCo's `resetArena`).
fn reset_arena(arena: &mut Arena, ncon: usize) {
    let field = &mut arena.fields[ArenaField::contact as usize];
    let start = if ncon > 0 { field.0 } else { 0 };
    *field = (start, ncon);
    arena.state.parena = start + ncon * size_of::<Contact>();
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
    let (b1, b2) = (Shape::of(m, d, g1), Shape::of(m, d, g2));
    let inflate = |s: &[Real; 3]| [s[0] + margin, s[1] + margin, s[2] + margin];
    let (sz1, sz2) = (inflate(&b1.size), inflate(&b2.size));
    let num = con.len();
    // `dim` marks bad contacts (-1) until the parameters are set
    for c in con.iter_mut() {
        let out1 = outside_box(&c.pos, &b1.pos, &b1.mat, &sz1, REMOVE_RATIO);
        let out2 = outside_box(&c.pos, &b2.pos, &b2.mat, &sz2, REMOVE_RATIO);
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

/// Contact parameters of a geom pair: mixed from the geoms, or an explicit pair's.
struct ContactParams {
    condim: i32,
    gap: Real,
    solref: [Real; NREF],
    solreffriction: [Real; NREF],
    solimp: [Real; NIMP],
    friction: [Real; 5],
}

impl ContactParams {
    /// From the geoms (`mj_contactParam`): the higher priority's, or with equal priorities the
    /// larger condim and friction, solref and solimp mixed by `solmix` (solref taken as the
    /// minimum when one is in direct form), the larger gap.
    fn mix(m: &Model, g1: usize, g2: usize) -> Result<Self, StepError> {
        let solref = |g: usize| [m.geom_solref[NREF * g], m.geom_solref[NREF * g + 1]];
        let solimp =
            |g: usize| -> [Real; NIMP] { core::array::from_fn(|i| m.geom_solimp[NIMP * g + i]) };
        let friction = |g: usize| {
            [
                m.geom_friction[3 * g],
                m.geom_friction[3 * g + 1],
                m.geom_friction[3 * g + 2],
            ]
        };
        let (p1, p2) = (m.geom_priority[g1], m.geom_priority[g2]);
        let gap = max(m.geom_gap[g1], m.geom_gap[g2]);
        let (condim, solref, solimp, fri) = if p1 != p2 {
            let g = if p1 > p2 { g1 } else { g2 };
            (m.geom_condim[g], solref(g), solimp(g), friction(g))
        } else {
            let (s1, s2) = (m.geom_solmix[g1], m.geom_solmix[g2]);
            let mix = if s1 >= MINVAL && s2 >= MINVAL {
                s1 / (s1 + s2)
            } else if s1 < MINVAL && s2 < MINVAL {
                0.5
            } else if s1 < MINVAL {
                0.0
            } else {
                1.0
            };
            let (r1, r2) = (solref(g1), solref(g2));
            let solref = if r1[0] > 0.0 && r2[0] > 0.0 {
                core::array::from_fn(|i| mix * r1[i] + (1.0 - mix) * r2[i])
            } else {
                core::array::from_fn(|i| min(r1[i], r2[i]))
            };
            let (i1, i2) = (solimp(g1), solimp(g2));
            let (f1, f2) = (friction(g1), friction(g2));
            (
                m.geom_condim[g1].max(m.geom_condim[g2]),
                solref,
                core::array::from_fn(|i| mix * i1[i] + (1.0 - mix) * i2[i]),
                core::array::from_fn(|i| max(f1[i], f2[i])),
            )
        };
        if !(1..=6).contains(&condim) {
            return Err(StepError::Numerical("invalid condim value"));
        }
        Ok(Self {
            condim,
            gap,
            solref,
            solreffriction: [0.0; NREF],
            solimp,
            friction: [fri[0], fri[0], fri[1], fri[2], fri[2]],
        })
    }

    /// Explicit pair `p`'s parameters; its friction-direction solref when either is nonzero.
    fn pair(m: &Model, p: usize) -> Self {
        let solreffriction = [
            m.pair_solreffriction[NREF * p],
            m.pair_solreffriction[NREF * p + 1],
        ];
        Self {
            condim: m.pair_dim[p],
            gap: m.pair_gap[p],
            solref: [m.pair_solref[NREF * p], m.pair_solref[NREF * p + 1]],
            solreffriction: if solreffriction.iter().any(|&x| x != 0.0) {
                solreffriction
            } else {
                [0.0; NREF]
            },
            solimp: core::array::from_fn(|i| m.pair_solimp[NIMP * p + i]),
            friction: core::array::from_fn(|i| m.pair_friction[5 * p + i]),
        }
    }
}

/// Completes a contact from the collider (`mj_setContact`): parameters (or the override
/// values), `exclude` when it lies in the gap, the full frame, and cleared fields that later
/// stages compute.
fn set_contact(
    m: &Model,
    con: &mut Contact,
    p: &ContactParams,
    margin: Real,
) -> Result<(), StepError> {
    let includemargin = margin - p.gap;
    let over = enabled(m, ENBL_OVERRIDE);
    con.dim = p.condim;
    con.includemargin = includemargin;
    con.solref = if over { m.opt.o_solref } else { p.solref };
    con.solreffriction = if over {
        m.opt.o_solref
    } else {
        p.solreffriction
    };
    con.solimp = if over { m.opt.o_solimp } else { p.solimp };
    let friction = if over { &m.opt.o_friction } else { &p.friction };
    con.friction = friction.map(|f| max(MINMU as Real, f));
    con.exclude = i32::from(con.dist >= includemargin);

    // the normal must be a direction (NaN passes, as in MuJoCo)
    if norm3(&[con.frame[0], con.frame[1], con.frame[2]]) < 0.5 {
        return Err(StepError::Numerical("xaxis of contact frame undefined"));
    }
    make_frame(&mut con.frame);
    con.efc_address = -1;
    con.mu = 0.0;
    con.H = [0.0; 36];
    con.geom1 = con.geom[0];
    con.geom2 = con.geom[1];
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn merge_sort_is_a_stable_sort(values in proptest::collection::vec(0u8..6, 0..40)) {
            let mut order: Vec<u32> = (0..values.len() as u32).collect();
            let mut tmp = vec![0; values.len()];
            let cmp = |a: u32, b: u32| i32::from(values[a as usize]) - i32::from(values[b as usize]);
            merge_sort(&mut order, &mut tmp, &cmp);
            let mut expected: Vec<u32> = (0..values.len() as u32).collect();
            expected.sort_by_key(|&i| values[i as usize]);
            prop_assert_eq!(order, expected);
        }

        #[test]
        fn stable_sort_matches_merge_sort(values in proptest::collection::vec(-3i8..4, 0..100)) {
            let n = values.len();
            let cmp = |a: u32, b: u32| i32::from(values[a as usize]) - i32::from(values[b as usize]);
            let (mut expected, mut tmp) = ((0..n as u32).collect::<Vec<_>>(), vec![0; n]);
            merge_sort(&mut expected, &mut tmp, &cmp);
            let mut order: Vec<u32> = (0..n as u32).collect();
            stable_sort(&mut order, &mut tmp, &|a, b| values[a as usize] <= values[b as usize]);
            prop_assert_eq!(order, expected);
        }

        #[test]
        fn sweep_finds_every_overlapping_pair_once(
            boxes in proptest::collection::vec(
                (-2.0f64..2.0, -2.0f64..2.0, -2.0f64..2.0, 0.0f64..1.0, 0.0f64..1.0, 0.0f64..1.0),
                2..12,
            )
        ) {
            let n = boxes.len();
            let aamm: Vec<Real> = boxes
                .iter()
                .flat_map(|&(x, y, z, a, b, c)| [x, y, z, x + a, y + b, z + c].map(|v| v as Real))
                .collect();
            // where an interval ends exactly where another starts, the sort order decides
            let tie = (0..n).any(|a| (0..n).any(|b| a != b && single(aamm[6 * a]) == single(aamm[6 * b + 3])));
            prop_assume!(!tie);
            let (mut value, mut id) = (vec![0.0f32; 2 * n], vec![0i32; 2 * n]);
            let (mut order, mut tmp, mut active) = (vec![0u32; 2 * n], vec![0u32; 2 * n], vec![0i32; 2 * n]);
            let sap = Sap {
                aamm: &aamm,
                value: &mut value,
                id: &mut id,
                order: &mut order,
                tmp: &mut tmp,
                active: &mut active,
            };
            let mut found = Vec::new();
            sap.sweep(|a, b| {
                found.push((a.min(b), a.max(b)));
                Ok(())
            })
            .unwrap();
            found.sort_unstable();
            // brute force, with the sweep axis in single precision as MuJoCo sorts it
            let overlap = |a: usize, b: usize, k: usize| {
                if k == 0 {
                    single(aamm[6 * a]) <= single(aamm[6 * b + 3])
                        && single(aamm[6 * b]) <= single(aamm[6 * a + 3])
                } else {
                    aamm[6 * a + k] <= aamm[6 * b + k + 3] && aamm[6 * b + k] <= aamm[6 * a + k + 3]
                }
            };
            let mut expected = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if (0..3).all(|k| overlap(a, b, k)) {
                        expected.push((a, b));
                    }
                }
            }
            prop_assert_eq!(found, expected);
        }
    }

    #[test]
    fn table_is_upper_triangular_and_planes_do_not_collide_with_planes() {
        for (t1, row) in COLLISION_FUNC.iter().enumerate() {
            for (t2, entry) in row.iter().enumerate() {
                if t2 < t1 {
                    assert!(entry.is_none(), "entry below the diagonal at {t1}, {t2}");
                }
            }
        }
        let (plane, hfield) = (GEOM_PLANE as usize, GEOM_HFIELD as usize);
        assert!(COLLISION_FUNC[plane][plane].is_none());
        assert!(COLLISION_FUNC[plane][hfield].is_none());
        assert!(COLLISION_FUNC[hfield][hfield].is_none());
    }
}
