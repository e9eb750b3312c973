//! Bounding volume hierarchies of bodies (over their geoms) and meshes (over their faces), as
//! MuJoCo's compiler builds them (`mjCBoundingVolumeHierarchy`).
//!
//! The tree is built top-down: a node's box encloses its elements' boxes (in the hierarchy's
//! frame), the elements are split at the median of their centers along the node's longest
//! axis, and each half becomes a child. Nodes are numbered in depth-first order, as the model's
//! `bvh_*` arrays store them.

use mjrs_core::math::quat::rot_vec_quat;

use crate::cxx::nth_element;
use crate::util::{c_max, c_min, EPS};

/// MuJoCo's `mjMAXVAL`.
const MAXVAL: f64 = 1e10;
/// MuJoCo's `mjMAXTREEDEPTH`.
pub const MAXTREEDEPTH: usize = 50;

/// One element of a hierarchy: a geom of a body or a face of a mesh.
#[derive(Clone, Debug)]
pub struct BoundingVolume {
    /// Contact type; an element with neither type nor affinity is left out (visual only).
    pub contype: i32,
    /// Contact affinity.
    pub conaffinity: i32,
    /// Box (center, half sizes) in the element's frame.
    pub aabb: [f64; 6],
    /// Element position in the hierarchy's parent frame.
    pub pos: [f64; 3],
    /// Element orientation; `None` for elements whose box is already in the parent frame
    /// (mesh faces).
    pub quat: Option<[f64; 4]>,
    /// The id written to `bvh_nodeid` for a leaf holding this element.
    pub id: i32,
}

/// A built hierarchy: the rows of `bvh_aabb`, `bvh_child`, `bvh_nodeid`, `bvh_depth`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bvh {
    /// Boxes (center, half sizes), 6 per node.
    pub aabb: Vec<f64>,
    /// Children, 2 per node (-1: none).
    pub child: Vec<i32>,
    /// Element id of leaves, -1 for inner nodes.
    pub nodeid: Vec<i32>,
    /// Depth of each node.
    pub level: Vec<i32>,
    /// Depths beyond [`MAXTREEDEPTH`] were reached (MuJoCo warns).
    pub too_deep: bool,
}

impl Bvh {
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.level.len()
    }

    /// Is the hierarchy empty (no element takes part in collisions)?
    pub fn is_empty(&self) -> bool {
        self.level.is_empty()
    }
}

struct Element<'a> {
    e: &'a BoundingVolume,
    /// Index in the leaf list: MuJoCo breaks ties by the element's address.
    index: usize,
    /// Center in the hierarchy's axes.
    lpos: [f64; 3],
}

/// Builds the hierarchy of `leaves` in the frame (`ipos`, `iquat`) (`CreateBVH`).
pub fn build(leaves: &[BoundingVolume], ipos: &[f64; 3], iquat: &[f64; 4]) -> Bvh {
    let qinv = [iquat[0], -iquat[1], -iquat[2], -iquat[3]];
    let mut elements: Vec<Element> = leaves
        .iter()
        .enumerate()
        .filter(|(_, e)| e.conaffinity != 0 || e.contype != 0)
        .map(|(index, e)| {
            let vert = [e.pos[0] - ipos[0], e.pos[1] - ipos[1], e.pos[2] - ipos[2]];
            let lpos = rot_vec_quat(&vert, &qinv);
            Element { e, index, lpos }
        })
        .collect();
    let mut bvh = Bvh::default();
    make(&mut bvh, &mut elements, ipos, &qinv, 0);
    bvh
}

/// The box of `elements` in the hierarchy's axes, as (min, max), inflated by `mjEPS` where flat.
fn node_aamm(elements: &[Element], ipos: &[f64; 3], qinv: &[f64; 4]) -> [f64; 6] {
    let mut aamm = [MAXVAL, MAXVAL, MAXVAL, -MAXVAL, -MAXVAL, -MAXVAL];
    for el in elements {
        let b = &el.e.aabb;
        let e = [
            b[0] - b[3],
            b[1] - b[4],
            b[2] - b[5],
            b[0] + b[3],
            b[1] + b[4],
            b[2] + b[5],
        ];
        if el.e.quat.is_none() && !e.iter().any(|x| x.is_nan()) {
            // an unrotated box: its corners' extremes are its own (no NaN: order is moot)
            for k in 0..3 {
                aamm[k] = c_min(c_min(aamm[k], e[k]), e[k + 3]);
                aamm[k + 3] = c_max(c_max(aamm[k + 3], e[k]), e[k + 3]);
            }
            continue;
        }
        for v in 0..8 {
            let mut vert = [
                if v & 1 != 0 { e[3] } else { e[0] },
                if v & 2 != 0 { e[4] } else { e[1] },
                if v & 4 != 0 { e[5] } else { e[2] },
            ];
            if let Some(q) = &el.e.quat {
                let mut bx = rot_vec_quat(&vert, q);
                bx[0] += el.e.pos[0] - ipos[0];
                bx[1] += el.e.pos[1] - ipos[1];
                bx[2] += el.e.pos[2] - ipos[2];
                vert = rot_vec_quat(&bx, qinv);
            }
            for k in 0..3 {
                aamm[k] = c_min(aamm[k], vert[k]);
                aamm[k + 3] = c_max(aamm[k + 3], vert[k]);
            }
        }
    }
    for k in 0..3 {
        if (aamm[k] - aamm[k + 3]).abs() < EPS {
            aamm[k] -= EPS;
            aamm[k + 3] += EPS;
        }
    }
    aamm
}

/// `MakeBVH`: appends the node of `elements` and its subtree; returns the node's index.
fn make(
    bvh: &mut Bvh,
    elements: &mut [Element],
    ipos: &[f64; 3],
    qinv: &[f64; 4],
    lev: usize,
) -> i32 {
    let n = elements.len();
    if n == 0 {
        return -1;
    }
    let aamm = node_aamm(elements, ipos, qinv);
    let index = bvh.len();
    bvh.child.extend([-1, -1]);
    bvh.nodeid.push(-1);
    bvh.level.push(lev as i32);
    for k in 0..3 {
        bvh.aabb.push((aamm[3 + k] + aamm[k]) / 2.0);
    }
    for k in 0..3 {
        bvh.aabb.push((aamm[3 + k] - aamm[k]) / 2.0);
    }
    if n == 1 {
        bvh.nodeid[index] = elements[0].e.id;
        return index as i32;
    }

    // longest axis by a margin of at least mjEPS, then the median along it
    let edges = [aamm[3] - aamm[0], aamm[4] - aamm[1], aamm[5] - aamm[2]];
    let mut axis = 0;
    if edges[1] >= edges[0] + EPS {
        axis = 1;
    }
    if edges[2] >= edges[axis] + EPS {
        axis = 2;
    }
    let less = |a: &Element, b: &Element| {
        if (a.lpos[axis] - b.lpos[axis]).abs() > EPS {
            a.lpos[axis] < b.lpos[axis]
        } else {
            a.index < b.index
        }
    };
    let m = n / 2;
    nth_element(elements, m, &less);
    if lev > MAXTREEDEPTH {
        bvh.too_deep = true;
    }
    let (left, right) = elements.split_at_mut(m);
    if m > 0 {
        bvh.child[2 * index] = make(bvh, left, ipos, qinv, lev + 1);
    }
    bvh.child[2 * index + 1] = make(bvh, right, ipos, qinv, lev + 1);
    index as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sphere(x: f64, id: i32) -> BoundingVolume {
        BoundingVolume {
            contype: 1,
            conaffinity: 1,
            aabb: [0.0, 0.0, 0.0, 0.1, 0.1, 0.1],
            pos: [x, 0.0, 0.0],
            quat: Some([1.0, 0.0, 0.0, 0.0]),
            id,
        }
    }

    #[test]
    fn three_spheres_in_a_row() {
        let leaves = [sphere(0.0, 0), sphere(1.0, 1), sphere(2.0, 2)];
        let b = build(&leaves, &[0.0; 3], &[1.0, 0.0, 0.0, 0.0]);
        // root, left leaf (x=0), right node (x=1,2) with two leaves
        assert_eq!(b.len(), 5);
        assert_eq!(b.child, vec![1, 2, -1, -1, 3, 4, -1, -1, -1, -1]);
        assert_eq!(b.nodeid, vec![-1, 0, -1, 1, 2]);
        assert_eq!(b.level, vec![0, 1, 1, 2, 2]);
        assert_eq!(&b.aabb[..6], &[1.0, 0.0, 0.0, 1.1, 0.1, 0.1]);
    }

    #[test]
    fn visual_elements_are_left_out() {
        let mut v = sphere(0.0, 0);
        v.contype = 0;
        v.conaffinity = 0;
        assert!(build(&[v], &[0.0; 3], &[1.0, 0.0, 0.0, 0.0]).is_empty());
    }
}
