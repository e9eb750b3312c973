//! Midphase: two bodies collided through their bounding-volume hierarchies
//! (`mj_collideTree`), with the oriented-bounding-box overlap test (`mj_collideOBB`).

use super::filter::{
    assign_margin, can_collide2, filter_bitmask, filter_box, filter_sphere, filter_sphere_box,
};
use super::flex::{elems, geom_elem, plane_flex};
use super::narrow::{collide_geom_pair, Merged};
use super::{body_geoms, mark_stack, reserved_u32};
use crate::arena::{Arena, Reservation};
use crate::data::Data;
use crate::error::StepError;
use crate::math::misc::max;
use crate::math::scalar::abs;
use crate::math::vec::{add_to3, dot3};
use crate::model::Model;
use crate::real::{Real, MAXVAL};
use crate::support::{v3, v9};
use crate::types::*;

/// Collides two bodies, a body and a flex, or a flex with itself or another flex through
/// their bounding-volume hierarchies (`mj_collideTree`), with a traversal stack of as many node
/// pairs as both hierarchies have nodes in the arena, as MuJoCo. A static body's planes meet a
/// flex's vertices first, outside the hierarchies.
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
    if !can_collide2(m, b1, b2) {
        return Ok(());
    }
    let frame = mark_stack(arena)?;
    let nodes = |bf: usize| {
        if bf < m.nbody {
            m.body_bvhnum[bf]
        } else {
            m.flex_bvhnum[bf - m.nbody]
        }
    };
    let capacity = (nodes(b1).max(0) + nodes(b2).max(0)) as usize;
    let result = match arena.reserve::<u32>(2 * capacity) {
        Ok(stack) => {
            let mut stack = TreeStack {
                reservation: stack,
                capacity,
                len: 0,
            };
            let trees = Trees::new(m, b1, b2);
            static_planes_flex(m, d, arena, b1, b2)
                .and_then(|()| traverse_trees(m, d, arena, &mut stack, &trees, merged))
        }
        Err(e) => Err(e.into()),
    };
    arena.release(frame);
    result
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

/// The two hierarchies of [`collide_tree`]: per side the body or flex, and the root's address.
struct Trees {
    side: [TreeSide; 2],
    adr: [usize; 2],
}

/// Whose hierarchy one side of [`Trees`] is.
#[derive(Clone, Copy, PartialEq)]
enum TreeSide {
    Body(usize),
    Flex(usize),
}

impl Trees {
    fn new(m: &Model, b1: usize, b2: usize) -> Self {
        let side = [b1, b2].map(|bf| {
            if bf < m.nbody {
                TreeSide::Body(bf)
            } else {
                TreeSide::Flex(bf - m.nbody)
            }
        });
        let adr = side.map(|s| match s {
            TreeSide::Body(b) => m.body_bvhadr[b] as usize,
            TreeSide::Flex(f) => m.flex_bvhadr[f] as usize,
        });
        Self { side, adr }
    }

    /// Node `n`'s box (center, half sizes): of a body's hierarchy in the body's inertial frame,
    /// of a flex's in the world (computed each step, `bvh_aabb_dyn`).
    fn aabb<'a>(&self, m: &'a Model, d: &'a Data, k: usize, n: usize) -> &'a [Real; 6] {
        match self.side[k] {
            TreeSide::Body(_) => &m.bvh_aabb.as_chunks::<6>().0[n],
            TreeSide::Flex(_) => &d.bvh_aabb_dyn.as_chunks::<6>().0[n - m.nbvhstatic],
        }
    }
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
    let mark_active = m.vis.global.bvactive != 0;
    let children = |node: usize| [m.bvh_child[2 * node], m.bvh_child[2 * node + 1]];
    let is_leaf = |node: usize| children(node).iter().all(|&c| c < 0);
    let same = trees.side[0] == trees.side[1];
    let mut obb = ObbCache::default();

    stack.push(arena, (0, 0))?;
    while let Some((node1, node2)) = stack.pop(arena)? {
        let (n1, n2) = (adr1 + node1, adr2 + node2);
        let (leaf1, leaf2) = (is_leaf(n1), is_leaf(n2));
        if same && node1 > node2 {
            continue;
        }

        if leaf1 && leaf2 {
            if collide_leaves(m, d, arena, trees, (n1, n2), merged)? && mark_active {
                d.bvh_active[n1] = 1;
                d.bvh_active[n2] = 1;
            }
            continue;
        }

        // inner nodes: stop where the boxes do not overlap
        let (aabb1, aabb2) = (*trees.aabb(m, d, 0, n1), *trees.aabb(m, d, 1, n2));
        let (aabb1, aabb2) = (&aabb1, &aabb2);
        let overlap = match trees.side {
            [TreeSide::Body(b1), TreeSide::Body(b2)] => {
                let margin = assign_margin(m, max(m.body_margin[b1], m.body_margin[b2]));
                let (box1, box2) = (Obb::body(d, aabb1, b1), Obb::body(d, aabb2, b2));
                collide_obb(&box1, &box2, margin, Some(&mut obb))
            }
            [TreeSide::Body(b1), TreeSide::Flex(f2)] => {
                let margin = assign_margin(m, max(m.body_margin[b1], m.flex_margin[f2]));
                let (box1, box2) = (Obb::body(d, aabb1, b1), Obb::world(aabb2));
                collide_obb(&box1, &box2, margin, Some(&mut obb))
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
        };
        if !overlap {
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
            _ => surface(aabb1) > surface(aabb2),
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

/// Collides the leaves `n1`, `n2` of [`collide_tree`]'s hierarchies (geoms or flex elements)
/// whose boxes overlap; returns whether they passed the box tests (which marks them active).
fn collide_leaves(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    trees: &Trees,
    (n1, n2): (usize, usize),
    merged: Merged,
) -> Result<bool, StepError> {
    let (id1, id2) = (m.bvh_nodeid[n1] as usize, m.bvh_nodeid[n2] as usize);
    match trees.side {
        [TreeSide::Body(_), TreeSide::Body(_)] => {
            let (g1, g2) = (id1, id2);
            let margin = assign_margin(m, max(m.geom_margin[g1], m.geom_margin[g2]));
            let box1 = Obb::geom(m, d, g1);
            let box2 = Obb::geom(m, d, g2);
            if filter_sphere(m, d, g1, g2, margin) || !collide_obb(&box1, &box2, margin, None) {
                return Ok(false);
            }
            collide_geom_pair(m, d, arena, g1, g2, merged)?;
        }
        [TreeSide::Body(_), TreeSide::Flex(f)] => {
            let (g, e) = (id1, id2);
            let margin = assign_margin(m, max(m.geom_margin[g], m.flex_margin[f]));
            let aabb = trees.aabb(m, d, 1, n2);
            let (t, a) = (m.flex_contype[f], m.flex_conaffinity[f]);
            if filter_bitmask(m.geom_contype[g], m.geom_conaffinity[g], t, a)
                || filter_sphere_box(&v3(d.geom_xpos)[g], m.geom_rbound[g] + margin, aabb)
                || !collide_obb(&Obb::geom(m, d, g), &Obb::world(aabb), margin, None)
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
