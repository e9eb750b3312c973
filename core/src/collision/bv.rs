//! Midphase: two bodies collided through their bounding-volume hierarchies
//! (`mj_collideTree`), with the oriented-bounding-box overlap test (`mj_collideOBB`).

use super::filter::{assign_margin, filter_bitmask, filter_box, filter_sphere, filter_sphere_box};
use super::flex::{elems, geom_elem, plane_flex};
use super::narrow::{collide_geom_pair, Merged};
use super::{body_geoms, mark_stack, reserved_u32};
use crate::arena::{Arena, Reservation};
use crate::data::Data;
use crate::error::StepError;
use crate::math::mat::rot_vec_mat;
use crate::math::misc::max;
use crate::math::scalar::abs;
use crate::math::vec::{add_to3, dot3};
use crate::model::Model;
use crate::real::{Real, MAXVAL};
use crate::support::{v3, v9};
use crate::types::*;

/// Collides two bodies, a body and a flex, or a flex with itself or another flex through
/// their bounding-volume hierarchies (`mj_collideTree`), with a traversal stack of as many node
/// pairs as both hierarchies have nodes reserved in the arena, as MuJoCo. A static body's planes
/// meet a flex's vertices first, outside the hierarchies.
///
/// The callers have applied the contype/conaffinity filter of the two bodies or flexes
/// (`canCollide2`, which MuJoCo repeats here).
// inlined into its one caller, the collision driver
#[inline]
pub(super) fn collide_tree(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    b1: usize,
    b2: usize,
    merged: Merged,
) -> Result<(), StepError> {
    if let Some(leaves) = single_leaves(m, b1, b2) {
        return collide_single_leaves(m, d, arena, leaves, merged);
    }
    let trees = Trees::new(m, b1, b2)?;
    let frame = mark_stack(arena)?;
    let capacity = trees.nodes[0] + trees.nodes[1];
    let result = match arena.reserve::<u32>(2 * capacity) {
        Ok(reservation) => {
            let mut local = [[0; 2]; LOCAL_PAIRS];
            let mut stack = TreeStack::new(&mut local, reservation, capacity);
            static_planes_flex(m, d, arena, b1, b2)
                .and_then(|()| traverse_trees(m, d, arena, &mut stack, &trees, merged))
        }
        Err(e) => Err(e.into()),
    };
    arena.release(frame);
    result
}

/// The roots of two bodies' hierarchies when each is a single node, a leaf (a body with one
/// collidable geom, as most links of a hand or an arm), or `None` when the general traversal
/// is needed.
fn single_leaves(m: &Model, b1: usize, b2: usize) -> Option<[usize; 2]> {
    if b2 >= m.nbody {
        return None;
    }
    let root = |b: usize| {
        let adr = usize::try_from(m.body_bvhadr[b]).ok()?;
        let &[c0, c1] = m.bvh_child.as_chunks::<2>().0.get(adr)?;
        (m.body_bvhnum[b] == 1 && c0 < 0 && c1 < 0).then_some(adr)
    };
    Some([root(b1)?, root(b2)?])
}

/// [`collide_tree`] for two single leaves: the traversal would visit only the root pair, so
/// the leaves are collided directly. The arena reservations are the traversal's (the room left
/// for contacts and the peak counters stay MuJoCo's); what is saved is setting up the
/// traversal, which cost more than the leaf test on a hand's finger links (callgrind, bench
/// hand).
fn collide_single_leaves(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    [n1, n2]: [usize; 2],
    merged: Merged,
) -> Result<(), StepError> {
    let frame = mark_stack(arena)?;
    // the traversal's stack of two node pairs
    let result = match arena.reserve::<u32>(4) {
        Ok(_) => {
            let (g1, g2) = (m.bvh_nodeid[n1] as usize, m.bvh_nodeid[n2] as usize);
            collide_leaf_geoms(m, d, arena, g1, g2, merged)
        }
        Err(e) => Err(e.into()),
    };
    arena.release(frame);
    if result? && m.vis.global.bvactive != 0 {
        d.bvh_active[n1] = 1;
        d.bvh_active[n2] = 1;
    }
    Ok(())
}

/// The planes of a static body `b1` against flex `b2`'s vertices, which the hierarchies leave
/// out.
fn static_planes_flex(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    b1: usize,
    b2: usize,
) -> Result<(), StepError> {
    if b1 >= m.nbody || b2 < m.nbody || m.body_weldid[b1] != 0 {
        return Ok(());
    }
    for g in body_geoms(m, b1) {
        if m.geom_type[g] == GEOM_PLANE {
            plane_flex(m, d, arena, g, b2 - m.nbody)?;
        }
    }
    Ok(())
}

/// The two hierarchies of [`collide_tree`]: per side the body or flex, the root's address, the
/// node count, and the children and leaf ids of the nodes from the root on (node numbers are
/// relative to the root, as on the traversal stack).
struct Trees<'m> {
    side: [TreeSide; 2],
    adr: [usize; 2],
    nodes: [usize; 2],
    child: [&'m [[i32; 2]]; 2],
    nodeid: [&'m [i32]; 2],
}

/// Whose hierarchy one side of [`Trees`] is.
#[derive(Clone, Copy, PartialEq)]
enum TreeSide {
    Body(usize),
    Flex(usize),
}

impl<'m> Trees<'m> {
    fn new(m: &'m Model, b1: usize, b2: usize) -> Result<Self, StepError> {
        let side = [b1, b2].map(|bf| {
            if bf < m.nbody {
                TreeSide::Body(bf)
            } else {
                TreeSide::Flex(bf - m.nbody)
            }
        });
        let info = side.map(|s| match s {
            TreeSide::Body(b) => (m.body_bvhadr[b], m.body_bvhnum[b]),
            TreeSide::Flex(f) => (m.flex_bvhadr[f], m.flex_bvhnum[f]),
        });
        let adr = info.map(|(a, _)| a.max(0) as usize);
        let missing = || StepError::Numerical("BVH address out of range");
        let child = |k: usize| {
            m.bvh_child
                .as_chunks::<2>()
                .0
                .get(adr[k]..)
                .ok_or_else(missing)
        };
        let nodeid = |k: usize| m.bvh_nodeid.get(adr[k]..).ok_or_else(missing);
        Ok(Self {
            side,
            adr,
            nodes: info.map(|(_, n)| n.max(0) as usize),
            child: [child(0)?, child(1)?],
            nodeid: [nodeid(0)?, nodeid(1)?],
        })
    }

    /// Node `n`'s box (center, half sizes; `n` counted from side `k`'s root): of a body's
    /// hierarchy in the body's inertial frame, of a flex's in the world (computed each step,
    /// `bvh_aabb_dyn`).
    fn aabb<'a>(&self, m: &'a Model, d: &'a Data, k: usize, n: usize) -> &'a [Real; 6] {
        let n = self.adr[k] + n;
        match self.side[k] {
            TreeSide::Body(_) => &m.bvh_aabb.as_chunks::<6>().0[n],
            TreeSide::Flex(_) => &d.bvh_aabb_dyn.as_chunks::<6>().0[n - m.nbvhstatic],
        }
    }
}
/// Node pairs a [`TreeStack`] can hold on the machine stack: two hierarchies of 16 nodes each
/// (bodies of up to 8 geoms), which covers most body pairs; larger ones use the arena.
const LOCAL_PAIRS: usize = 32;

/// Where a [`TreeStack`] keeps its node pairs. The arena reservation is made in either case, so
/// that the arena's room for contacts and its peak counters are MuJoCo's; a local buffer saves
/// re-deriving the arena view at every push and pop.
enum TreeStackStore<'l> {
    Local(&'l mut [[u32; 2]]),
    Arena(Reservation),
}

/// Pending node pairs of [`traverse_trees`], at most `capacity`.
struct TreeStack<'l> {
    store: TreeStackStore<'l>,
    capacity: usize,
    len: usize,
}

impl<'l> TreeStack<'l> {
    /// An empty stack of `capacity` pairs: in `local` when they fit, otherwise in
    /// `reservation` (of `2 * capacity` values of `u32`).
    fn new(local: &'l mut [[u32; 2]], reservation: Reservation, capacity: usize) -> Self {
        let store = match local.get_mut(..capacity) {
            Some(local) => TreeStackStore::Local(local),
            None => TreeStackStore::Arena(reservation),
        };
        Self {
            store,
            capacity,
            len: 0,
        }
    }

    fn push(&mut self, arena: &mut Arena, nodes: (usize, usize)) -> Result<(), StepError> {
        if self.len >= self.capacity {
            return Err(StepError::Numerical("BVH stack depth exceeded"));
        }
        let pair = [nodes.0 as u32, nodes.1 as u32];
        let i = self.len;
        match &mut self.store {
            TreeStackStore::Local(s) => s[i] = pair,
            TreeStackStore::Arena(r) => {
                reserved_u32(arena, r, 2 * self.capacity)?[2 * i..2 * i + 2].copy_from_slice(&pair)
            }
        }
        self.len += 1;
        Ok(())
    }

    fn pop(&mut self, arena: &mut Arena) -> Result<Option<(usize, usize)>, StepError> {
        if self.len == 0 {
            return Ok(None);
        }
        self.len -= 1;
        let i = self.len;
        let [n1, n2] = match &self.store {
            TreeStackStore::Local(s) => s[i],
            TreeStackStore::Arena(r) => {
                let s = reserved_u32(arena, r, 2 * self.capacity)?;
                [s[2 * i], s[2 * i + 1]]
            }
        };
        Ok(Some((n1 as usize, n2 as usize)))
    }
}

/// The traversal of [`collide_tree`]: descends the tree whose box has the larger (MuJoCo's)
/// surface measure while the boxes overlap, and collides overlapping leaves (geoms or flex
/// elements). Marks visited nodes in `bvh_active` when `vis.global.bvactive` is set.
fn traverse_trees(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    stack: &mut TreeStack,
    trees: &Trees,
    merged: Merged,
) -> Result<(), StepError> {
    let [adr1, adr2] = trees.adr;
    let [child1, child2] = trees.child;
    let mark_active = m.vis.global.bvactive != 0;
    let is_leaf = |c: [i32; 2]| c[0] < 0 && c[1] < 0;
    let same = trees.side[0] == trees.side[1];
    // the products of the two bodies' frames, made at the first inner node pair
    let mut obb: Option<ObbCache> = None;

    stack.push(arena, (0, 0))?;
    while let Some((node1, node2)) = stack.pop(arena)? {
        if same && node1 > node2 {
            continue;
        }
        let (c1, c2) = (child1[node1], child2[node2]);
        let (leaf1, leaf2) = (is_leaf(c1), is_leaf(c2));
        let (n1, n2) = (adr1 + node1, adr2 + node2);

        if leaf1 && leaf2 {
            let ids = (trees.nodeid[0][node1], trees.nodeid[1][node2]);
            if collide_leaves(m, d, arena, trees, node2, ids, merged)? && mark_active {
                d.bvh_active[n1] = 1;
                d.bvh_active[n2] = 1;
            }
            continue;
        }

        // inner nodes: stop where the boxes do not overlap
        let (aabb1, aabb2) = (trees.aabb(m, d, 0, node1), trees.aabb(m, d, 1, node2));
        if !inner_overlap(m, d, trees, &mut obb, aabb1, aabb2)? {
            continue;
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
            _ => surface(aabb1) > surface(aabb2),
        };
        if mark_active {
            d.bvh_active[n1] = 1;
            d.bvh_active[n2] = 1;
        }
        let children = if descend_first { c1 } else { c2 };
        for child in children {
            if child == -1 {
                continue;
            }
            let child = child as usize;
            let pair = if descend_first {
                (child, node2)
            } else {
                (node1, child)
            };
            stack.push(arena, pair)?;
        }
    }
    Ok(())
}

/// Whether the boxes of two inner nodes overlap: oriented boxes where a body is involved (with
/// the frames' products made once, in `obb`), axis-aligned ones between flexes.
fn inner_overlap(
    m: &Model,
    d: &Data,
    trees: &Trees,
    obb: &mut Option<ObbCache>,
    aabb1: &[Real; 6],
    aabb2: &[Real; 6],
) -> Result<bool, StepError> {
    Ok(match trees.side {
        [TreeSide::Body(b1), TreeSide::Body(b2)] => {
            let margin = assign_margin(m, max(m.body_margin[b1], m.body_margin[b2]));
            let frames = || ObbCache::new(&Obb::body(d, aabb1, b1), &Obb::body(d, aabb2, b2));
            collide_obb_cached(aabb1, aabb2, margin, obb, frames)
        }
        [TreeSide::Body(b1), TreeSide::Flex(f2)] => {
            let margin = assign_margin(m, max(m.body_margin[b1], m.flex_margin[f2]));
            let frames = || ObbCache::new(&Obb::body(d, aabb1, b1), &Obb::world(aabb2));
            collide_obb_cached(aabb1, aabb2, margin, obb, frames)
        }
        [TreeSide::Flex(f1), TreeSide::Flex(f2)] => {
            let margin = assign_margin(m, max(m.flex_margin[f1], m.flex_margin[f2]));
            !filter_box(aabb1, aabb2, margin)
        }
        [TreeSide::Flex(_), TreeSide::Body(_)] => {
            return Err(StepError::Numerical(
                "BVH flex : body collision should not occur",
            ));
        }
    })
}

/// Collides two leaves of [`collide_tree`]'s hierarchies (the second is node `node2` of its
/// tree), the geoms or flex elements `id1`, `id2`, whose boxes overlap; returns whether they
/// passed the box tests (which marks them active).
fn collide_leaves(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    trees: &Trees,
    node2: usize,
    (id1, id2): (i32, i32),
    merged: Merged,
) -> Result<bool, StepError> {
    let (id1, id2) = (id1 as usize, id2 as usize);
    match trees.side {
        [TreeSide::Body(_), TreeSide::Body(_)] => {
            return collide_leaf_geoms(m, d, arena, id1, id2, merged);
        }
        [TreeSide::Body(_), TreeSide::Flex(f)] => {
            let (g, e) = (id1, id2);
            let margin = assign_margin(m, max(m.geom_margin[g], m.flex_margin[f]));
            let aabb = trees.aabb(m, d, 1, node2);
            let (t, a) = (m.flex_contype[f], m.flex_conaffinity[f]);
            if filter_bitmask(m.geom_contype[g], m.geom_conaffinity[g], t, a)
                || filter_sphere_box(&v3(d.geom_xpos)[g], m.geom_rbound[g] + margin, aabb)
                || !collide_obb(&Obb::geom(m, d, g), &Obb::world(aabb), margin)
            {
                return Ok(false);
            }
            // planes met the vertices before the traversal
            if m.geom_type[g] != GEOM_PLANE {
                geom_elem(m, d, arena, g, f, e)?;
            }
        }
        [TreeSide::Flex(f1), TreeSide::Flex(f2)] => {
            // the element pair's boxes are tested there
            elems(m, d, arena, (f1, id1), (f2, id2))?;
        }
        [TreeSide::Flex(_), TreeSide::Body(_)] => {
            return Err(StepError::Numerical(
                "BVH flex : body collision should not occur",
            ));
        }
    }
    Ok(true)
}

/// Collides geoms `g1`, `g2`, two leaves of bodies' hierarchies, when their bounding spheres
/// and boxes overlap; returns whether they did (which marks the leaves active).
// inlined into its two callers: once per leaf pair
#[inline(always)]
fn collide_leaf_geoms(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    g1: usize,
    g2: usize,
    merged: Merged,
) -> Result<bool, StepError> {
    let margin = assign_margin(m, max(m.geom_margin[g1], m.geom_margin[g2]));
    let box1 = Obb::geom(m, d, g1);
    let box2 = Obb::geom(m, d, g2);
    if filter_sphere(m, d, g1, g2, margin) || !collide_obb(&box1, &box2, margin) {
        return Ok(false);
    }
    collide_geom_pair(m, d, arena, g1, g2, merged)?;
    Ok(true)
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

    /// A box in world coordinates (a flex's).
    fn world(aabb: &'a [Real; 6]) -> Self {
        const ORIGIN: [Real; 3] = [0.0; 3];
        const IDENTITY: [Real; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        Self {
            aabb,
            pos: &ORIGIN,
            mat: &IDENTITY,
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
struct ObbCache {
    product: [[[[Real; 3]; 3]; 2]; 2],
    offset: [[[Real; 3]; 2]; 2],
}

impl ObbCache {
    /// The products of the frames of `b1` and `b2` (their boxes are not read). Always inlined
    /// into [`inner_overlap`]: the products are then written in place rather than copied into
    /// the traversal's cache, a copy that cost a sixth of the cache's arithmetic per body pair
    /// (callgrind, bench pile).
    #[inline(always)]
    fn new(b1: &Obb, b2: &Obb) -> Self {
        let boxes = [b1, b2];
        let normal = |i: usize, j: usize| boxes[i].axis(j);
        let mut c = Self {
            product: [[[[0.0; 3]; 3]; 2]; 2],
            offset: [[[0.0; 3]; 2]; 2],
        };
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
        c
    }
}

/// Of two boxes (center, half sizes) with infinite half sizes (planes'): `None` when one is
/// infinite in every direction (then they overlap), otherwise whether each is infinite in some.
fn partly_infinite(a1: &[Real; 6], a2: &[Real; 6]) -> Option<[bool; 2]> {
    let infinite = |a: &[Real; 6]| [a[3] >= MAXVAL, a[4] >= MAXVAL, a[5] >= MAXVAL];
    let (inf1, inf2) = (infinite(a1), infinite(a2));
    if inf1.iter().all(|&x| x) || inf2.iter().all(|&x| x) {
        return None;
    }
    Some([inf1.iter().any(|&x| x), inf2.iter().any(|&x| x)])
}

/// The separating-axis test of `mj_collideOBB` on the face normals `k` of box `j`, but not
/// those of a box against an infinite one: `project(i, j, k)` is box `i`'s center projected on
/// that normal and its radius along it.
fn obb_overlap(
    partly_infinite: [bool; 2],
    margin: Real,
    project: impl Fn(usize, usize, usize) -> (Real, Real),
) -> bool {
    for j in 0..2 {
        if partly_infinite[1 - j] {
            continue;
        }
        for k in 0..3 {
            let (proj0, radius0) = project(0, j, k);
            let (proj1, radius1) = project(1, j, k);
            if radius0 + radius1 + margin < abs(proj1 - proj0) {
                return false;
            }
        }
    }
    true
}

/// Whether two oriented boxes overlap within `margin`, by the separating-axis test on the
/// boxes' face normals (`mj_collideOBB`). An infinite box (a plane's) always overlaps.
fn collide_obb(b1: &Obb, b2: &Obb, margin: Real) -> bool {
    let Some(partly) = partly_infinite(b1.aabb, b2.aabb) else {
        return true;
    };
    let boxes = [b1, b2];
    let center = boxes.map(|b| {
        let mut x = rot_vec_mat(&[b.aabb[0], b.aabb[1], b.aabb[2]], b.mat);
        add_to3(&mut x, b.pos);
        x
    });
    obb_overlap(partly, margin, |i, j, k| {
        let n = boxes[j].axis(k);
        let (b, a) = (boxes[i], boxes[i].aabb);
        let radius = abs(a[3] * dot3(&b.axis(0), &n))
            + abs(a[4] * dot3(&b.axis(1), &n))
            + abs(a[5] * dot3(&b.axis(2), &n));
        (dot3(&center[i], &n), radius)
    })
}

/// [`collide_obb`] for the inner nodes of two hierarchies, whose boxes `aabb1`, `aabb2` share
/// the frames of the pair: their products come from `cache`, made by `frames` at first use.
fn collide_obb_cached(
    aabb1: &[Real; 6],
    aabb2: &[Real; 6],
    margin: Real,
    cache: &mut Option<ObbCache>,
    frames: impl FnOnce() -> ObbCache,
) -> bool {
    let Some(partly) = partly_infinite(aabb1, aabb2) else {
        return true;
    };
    let c = cache.get_or_insert_with(frames);
    let aabb = [aabb1, aabb2];
    obb_overlap(partly, margin, |i, j, k| {
        let (a, p) = (aabb[i], &c.product[i][j][k]);
        let proj = a[0] * p[0] + a[1] * p[1] + a[2] * p[2] + c.offset[i][j][k];
        let radius = abs(a[3] * p[0]) + abs(a[4] * p[1]) + abs(a[5] * p[2]);
        (proj, radius)
    })
}
