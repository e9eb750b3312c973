//! Broad phase (`mj_broadphase`): the bodies' bounding boxes in a frame aligned with the
//! principal axes of the geom positions, sweep and prune along the first axis, and the merge
//! sorts that reproduce the C library's order of MuJoCo's `qsort`.

use super::convex::flex_vertices;
use super::filter::{
    can_collide, clear_of_plane, filter_bitmask, filter_body_pair, weld_and_parent,
};
use super::flex::{elem_aabb, elems, is_elem_active};
use super::{body_geoms, reserved_u32};
use crate::arena::{Arena, ArenaError, Carver, LayoutCounter, Reservation};
use crate::data::Data;
use crate::error::StepError;
use crate::math::eig3::eig3;
use crate::math::misc::{max, min};
use crate::math::vec::{add_to3, dot3, scl3, sub3};
use crate::model::Model;
use crate::real::Real;
use crate::support::{disabled, enabled, v3};
use crate::types::*;

/// Runs the broad phase with scratch reserved below the pair list, then copies its pairs into
/// the list `pairs` (of `maxpairs`); returns their number.
// inlined into its one caller, the collision driver
#[inline]
pub(super) fn broadphase_into(
    m: &Model,
    d: &Data,
    arena: &mut Arena,
    pairs: &Reservation,
    maxpairs: usize,
) -> Result<usize, StepError> {
    let mem = BroadphaseMem::layout(m.nbody + m.nflex, maxpairs)?;
    let scratch = arena.reserve::<u64>(mem.words())?;
    let block = arena.reserved::<u64>(&scratch, mem.words());
    let result = mem.carve(block).and_then(|arrays| broadphase(m, d, arrays));
    let copied = result.and_then(|n| {
        // the scratch block starts with the broad phase's pair list
        let mut buf = [0u32; super::PAIR_BLOCK];
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

/// The broad phase's memory, reserved as one block at the top of the arena while it runs: its
/// pair list (first, so that it can be copied from the block's start), then scratch arrays.
struct BroadphaseMem {
    /// Bodies and flexes.
    nbodyflex: usize,
    maxpairs: usize,
    bytes: usize,
}

/// Views of [`BroadphaseMem`].
struct BroadphaseArrays<'a> {
    /// Body and flex pairs, `(bf1 << 16) + bf2` with `bf1 < bf2` (MuJoCo's signatures; flex
    /// `f` is `nbody + f`).
    pairs: &'a mut [u32],
    /// Collidable bodies and flexes.
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
    /// every candidate pair; once per body and step gives the same masks); per flex, its own.
    masks: &'a mut [[i32; 2]],
}

impl BroadphaseMem {
    /// The block's size for `nbodyflex` bodies and flexes and a list of `maxpairs` pairs.
    fn layout(nbodyflex: usize, maxpairs: usize) -> Result<Self, StepError> {
        let mut l = LayoutCounter::new();
        let ends = nbodyflex.checked_mul(2);
        l.add::<u32>(Some(maxpairs));
        l.add::<i32>(Some(nbodyflex));
        l.add::<Real>(nbodyflex.checked_mul(6));
        l.add::<f32>(ends);
        l.add::<i32>(ends);
        l.add::<u32>(ends);
        l.add::<u32>(ends);
        l.add::<i32>(ends);
        l.add::<i32>(ends);
        Ok(Self {
            nbodyflex,
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
        let n = self.nbodyflex;
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
        // wrapping as MuJoCo's `int`: ids beyond 65535 do not fit, and their pairs decode to
        // other bodies, as in MuJoCo
        self.pairs[self.n] = ((lo as u32) << 16).wrapping_add(hi as u32);
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
    let mut any = [0, 0];
    for (bf, mask) in masks.iter_mut().enumerate() {
        *mask = if bf < m.nbody {
            body_geoms(m, bf).fold([0, 0], |[t, a], g| {
                [t | m.geom_contype[g], a | m.geom_conaffinity[g]]
            })
        } else {
            [
                m.flex_contype[bf - m.nbody],
                m.flex_conaffinity[bf - m.nbody],
            ]
        };
        any = [any[0] | mask[0], any[1] | mask[1]];
    }
    if any[0] & any[1] == 0 {
        // no contype shares a bit with a conaffinity: every pair fails the bitmask filter, and
        // the rest (bounding boxes, principal axes, sweep) cannot find one (a model without
        // contacts: geoms with `contype="0"`)
        return Ok(0);
    }
    let mut list = PairList { pairs, n: 0, masks };
    let dsbl_filterparent = disabled(m, DSBL_FILTERPARENT);

    // the world's lone plane leaves out the pairs the narrow phase would drop, unless other
    // static planes exist: only their pairs, added again by the sweep, can fill the list, where
    // MuJoCo's broad phase fails, with or without the ones left out
    let drop_clear = !(1..m.nbody).any(|b| static_plane(m, b));

    // the world's geoms, and static planes, against every body not welded to the world
    for b1 in 0..m.nbody {
        if !can_collide(m, b1) {
            continue;
        }
        let world_geoms = b1 == 0 && m.body_geomnum[0] > 0;
        if !(world_geoms || static_plane(m, b1)) {
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
            if drop_clear && clear_of_plane(m, d, b1, b2) {
                continue;
            }
            list.add(b1, b2)?;
        }
        for f in 0..m.nflex {
            list.add(b1, m.nbody + f)?;
        }
    }

    // the fast build tests every pair of a few bodies' boxes instead
    #[cfg(feature = "fast")]
    if super::all_pairs::body_pairs(
        m,
        d,
        bfid,
        aamm,
        list.masks,
        list.pairs.len() - list.n,
        dsbl_filterparent,
        |b1, b2| list.add(b1, b2),
    )? {
        let n = list.n;
        list.pairs[..n].sort_unstable();
        return Ok(n);
    }

    // sweep and prune the collidable bodies and flexes along the principal axis of the geoms
    // and flex vertices
    if let Some(frame) = principal_frame(m, d) {
        let mut ncollide = 0;
        for b in 1..m.nbody + m.nflex {
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
                axis: 0,
                aamm: &aamm[..6 * ncollide],
                value: &mut sap_value[..2 * ncollide],
                id: &mut sap_id[..2 * ncollide],
                order: &mut order[..2 * ncollide],
                tmp: &mut sort_tmp[..2 * ncollide],
                active: &mut active[..2 * ncollide],
            };
            sap.sweep(|id1, id2| {
                let (b1, b2) = (bfid[id1] as usize, bfid[id2] as usize);
                if b1 < m.nbody && b2 < m.nbody {
                    let (weld1, parent1) = weld_and_parent(m, b1);
                    let (weld2, parent2) = weld_and_parent(m, b2);
                    if filter_body_pair(weld1, parent1, weld2, parent2, dsbl_filterparent) {
                        return Ok(());
                    }
                }
                list.add(b1, b2)
            })?;
        }
    }

    let n = list.n;
    list.pairs[..n].sort_unstable();
    Ok(n)
}

/// Whether body `b` is welded to the world and has a plane.
fn static_plane(m: &Model, b: usize) -> bool {
    m.body_weldid[b] == 0 && body_geoms(m, b).any(|g| m.geom_type[g] == GEOM_PLANE)
}

/// The principal axes of the positions of the geoms outside the world body and of the flex
/// vertices not on it (the rows of the eigenvectors of their covariance), or `None` when there
/// are none.
fn principal_frame(m: &Model, d: &Data) -> Option<[Real; 9]> {
    let mut cen = [0.0; 3];
    let mut cnt = 0usize;
    for_each_moving(m, d, |x| {
        add_to3(&mut cen, x);
        cnt += 1;
    });
    if cnt == 0 {
        return None;
    }
    cen = scl3(&cen, 1.0 / cnt as Real);
    let mut cov = [0.0; 9];
    for_each_moving(m, d, |x| {
        let dif = sub3(x, &cen);
        let (d00, d01, d02) = (dif[0] * dif[0], dif[0] * dif[1], dif[0] * dif[2]);
        let (d11, d12, d22) = (dif[1] * dif[1], dif[1] * dif[2], dif[2] * dif[2]);
        for (c, x) in cov
            .iter_mut()
            .zip([d00, d01, d02, d01, d11, d12, d02, d12, d22])
        {
            *c += x;
        }
    });
    let inv = 1.0 / cnt as Real;
    Some(eig3(&cov.map(|c| c * inv)).eigvec)
}

/// Calls `f` with the position of each geom outside the world body, then of each flex vertex not
/// on it, in order. Two plain loops: a chained iterator's state machine, run twice per
/// step, cost more code than the loops (callgrind, bench hopper).
fn for_each_moving(m: &Model, d: &Data, mut f: impl FnMut(&[Real; 3])) {
    // the arrays have `ngeom` and `nflexvert` entries
    for (&body, x) in m.geom_bodyid.iter().zip(v3(d.geom_xpos)) {
        if body != 0 {
            f(x);
        }
    }
    for (&body, x) in m.flex_vertbodyid.iter().zip(v3(d.flexvert_xpos)) {
        if body != 0 {
            f(x);
        }
    }
}

/// Body or flex `bf`'s bounding box in `frame` as min[3], max[3] (`makeAAMM`).
fn make_aamm(m: &Model, d: &Data, bf: usize, frame: &[Real; 9]) -> [Real; 6] {
    if bf < m.nbody {
        body_aamm(m, d, bf, frame)
    } else {
        flex_aamm(m, d, bf - m.nbody, frame)
    }
}

/// Flex `f`'s bounding box in `frame`: its vertices', grown by its radius and margin.
fn flex_aamm(m: &Model, d: &Data, f: usize, frame: &[Real; 9]) -> [Real; 6] {
    let mut aamm = [0.0; 6];
    let rows = [0, 1, 2].map(|j| [frame[3 * j], frame[3 * j + 1], frame[3 * j + 2]]);
    for (i, x) in flex_vertices(m, d, f).iter().enumerate() {
        let v = rows.map(|r| dot3(&r, x));
        if i == 0 {
            aamm = [v[0], v[1], v[2], v[0], v[1], v[2]];
        } else {
            for j in 0..3 {
                aamm[j] = min(aamm[j], v[j]);
                aamm[j + 3] = max(aamm[j + 3], v[j]);
            }
        }
    }
    let margin = if enabled(m, ENBL_OVERRIDE) {
        0.5 * m.opt.o_margin
    } else {
        m.flex_margin[f]
    };
    let bound = m.flex_radius[f] + margin;
    for j in 0..3 {
        aamm[j] -= bound;
        aamm[j + 3] += bound;
    }
    aamm
}

/// Body `b`'s bounding box in `frame` as min[3], max[3], from its geoms' bounding spheres.
fn body_aamm(m: &Model, d: &Data, b: usize, frame: &[Real; 9]) -> [Real; 6] {
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

/// The most pairs a flex's self-collision sweep keeps (MuJoCo's bound against running out of
/// memory).
const MAX_SELF_PAIRS: usize = 1_000_000;

/// Self-collisions of flex `f`'s active elements found by sweep and prune of their boxes
/// along the longest axis of the flex's box (`mj_collideFlexSAP`), without margin.
pub(super) fn flex_self_sap(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    f: usize,
) -> Result<(), StepError> {
    let nelem = m.flex_elemnum[f].max(0) as usize;
    let nactive = (0..nelem).filter(|&e| is_elem_active(m, f, e)).count();
    if nactive < 2 {
        return Ok(());
    }
    let maxpairs = (nactive * (nactive - 1) / 2).min(MAX_SELF_PAIRS);
    let ends = Some(2 * nactive);
    let mut l = LayoutCounter::new();
    l.add::<u32>(Some(maxpairs));
    l.add::<u32>(Some(nactive));
    l.add::<Real>(Some(6 * nactive));
    l.add::<f32>(ends);
    l.add::<i32>(ends);
    l.add::<u32>(ends);
    l.add::<u32>(ends);
    l.add::<i32>(ends);
    let bytes = l.total().ok_or(ArenaError::SizeOverflow)?;
    let words = bytes.div_ceil(8);
    let scratch = arena.reserve::<u64>(words)?;
    let block = arena.reserved::<u64>(&scratch, words);
    let found = sweep_elements(m, d, f, block, bytes, maxpairs);
    let result = found.and_then(|npair| {
        let list = SelfPairs {
            npair,
            maxpairs,
            nactive,
        };
        collide_self_pairs(m, d, arena, &scratch, f, list)
    });
    arena.release(scratch);
    result
}

/// The sweep of [`flex_self_sap`] in `block`: the pairs of active elements (indices into the
/// list of active elements, `(i << 16) + j`) at the start of the block, then the list of
/// active elements; returns the number of pairs.
fn sweep_elements(
    m: &Model,
    d: &Data,
    f: usize,
    block: &mut [u64],
    bytes: usize,
    maxpairs: usize,
) -> Result<usize, StepError> {
    let nelem = m.flex_elemnum[f] as usize;
    let n = (0..nelem).filter(|&e| is_elem_active(m, f, e)).count();
    let mut c = Carver::new(crate::pod::as_bytes_mut(block), bytes);
    let pairs = c.take::<u32>(Some(maxpairs))?;
    let elid = c.take::<u32>(Some(n))?;
    let aamm = c.take::<Real>(Some(6 * n))?;
    for (slot, e) in elid
        .iter_mut()
        .zip((0..nelem).filter(|&e| is_elem_active(m, f, e)))
    {
        *slot = e as u32;
    }
    for (i, &e) in elid.iter().enumerate() {
        let b = elem_aabb(m, d, f, e as usize);
        for j in 0..3 {
            aamm[6 * i + j] = b[j] - b[j + 3];
            aamm[6 * i + 3 + j] = b[j] + b[j + 3];
        }
    }
    let root = m.flex_bvhadr[f] as usize - m.nbvhstatic;
    let bvh = &d.bvh_aabb_dyn[6 * root..6 * root + 6];
    let axis = if bvh[3] > bvh[4] && bvh[3] > bvh[5] {
        0
    } else if bvh[4] > bvh[5] {
        1
    } else {
        2
    };
    let sap = Sap {
        axis,
        aamm,
        value: c.take::<f32>(Some(2 * n))?,
        id: c.take::<i32>(Some(2 * n))?,
        order: c.take::<u32>(Some(2 * n))?,
        tmp: c.take::<u32>(Some(2 * n))?,
        active: c.take::<i32>(Some(2 * n))?,
    };
    let mut npair = 0;
    sap.sweep(|id1, id2| {
        // a full list ends the sweep in MuJoCo: later pairs are dropped
        if npair < maxpairs {
            pairs[npair] = ((id1 as u32) << 16) + id2 as u32;
            npair += 1;
        }
        Ok(())
    })?;
    Ok(npair)
}

/// The sizes of the lists [`sweep_elements`] leaves: pairs found, room for pairs, active
/// elements.
struct SelfPairs {
    npair: usize,
    maxpairs: usize,
    nactive: usize,
}

/// Collides the element pairs the sweep of [`flex_self_sap`] left in `scratch`, in order.
fn collide_self_pairs(
    m: &Model,
    d: &mut Data,
    arena: &mut Arena,
    scratch: &Reservation,
    f: usize,
    list: SelfPairs,
) -> Result<(), StepError> {
    let SelfPairs {
        npair,
        maxpairs,
        nactive,
    } = list;
    // the pairs live in the arena, which colliding writes to: read them a block at a time
    let mut block = [(0u32, 0u32); 64];
    for start in (0..npair).step_by(block.len()) {
        let len = (npair - start).min(block.len());
        let words = reserved_u32(arena, scratch, maxpairs + nactive)?;
        let (pairs, elid) = words.split_at(maxpairs);
        for (k, slot) in block[..len].iter_mut().enumerate() {
            let p = pairs[start + k];
            *slot = (elid[(p >> 16) as usize], elid[(p & 0xFFFF) as usize]);
        }
        for &(e1, e2) in &block[..len] {
            elems(m, d, arena, (f, e1 as usize), (f, e2 as usize))?;
        }
    }
    Ok(())
}

/// Sweep and prune along axis `axis` of `aamm` (`mj_SAP`): the scratch arrays hold 2n end
/// points.
struct Sap<'a> {
    axis: usize,
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
        let (aamm, axis) = (self.aamm, self.axis);
        // one pass fills the end points and their order and notes a NaN
        let mut nan = false;
        for i in 0..n {
            let (lo, hi) = (single(aamm[6 * i + axis]), single(aamm[6 * i + 3 + axis]));
            self.value[2 * i] = lo;
            self.id[2 * i] = i as i32;
            self.order[2 * i] = 2 * i as u32;
            self.value[2 * i + 1] = hi;
            self.id[2 * i + 1] = i as i32 + 0x10000;
            self.order[2 * i + 1] = 2 * i as u32 + 1;
            nan |= lo.is_nan() | hi.is_nan();
        }
        let value = &*self.value;
        if nan {
            merge_sort(self.order, self.tmp, &|a, b| {
                sap_compare(value[a as usize], value[b as usize])
            });
        } else {
            stable_sort(self.order, self.tmp, &|a, b| {
                value[a as usize] <= value[b as usize]
            });
        }

        // the other two axes prune what the sweep axis lets through
        let (ka, kb) = match axis {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        // one bounds check per box rather than per coordinate
        let boxes = aamm.as_chunks::<6>().0;
        let separated = |a: usize, b: usize| {
            let (a, b) = (&boxes[a], &boxes[b]);
            // without short-circuits: which axis separates varies from pair to pair
            (a[ka] > b[ka + 3]) | (a[kb] > b[kb + 3]) | (b[ka] > a[ka + 3]) | (b[kb] > a[kb + 3])
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
                    // a plain loop: the few open intervals did not repay `copy_within`'s call
                    // to `memmove`
                    for k in j..cnt - 1 {
                        self.active[k] = self.active[k + 1];
                    }
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
                axis: 0,
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
}
