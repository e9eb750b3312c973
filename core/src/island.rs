//! Constraint islands (`mj_island`, "Computation › Constraint islands"): kinematic trees
//! coupled by a constraint row belong to the same island. With `ENBL_ISLAND`, the position stage
//! finds the islands after making the constraint rows and stores them in the arena arrays
//! `dof_island`, `island_dofnum/adr/ind`, `dof_islandind`, `efc_island`, `island_efcnum/adr/ind`.
//!
//! The graph has one vertex per tree and an edge per pair of trees a constraint touches (a
//! self-edge for a constraint within one tree); a depth-first flood fill numbers the connected
//! components in order of their lowest tree. Dofs of trees without constraints get island -1.

use crate::arena::{ArenaField, Stack};
use crate::data::{Contact, Data};
use crate::error::StepError;
use crate::model::Model;
use crate::real::Real;
use crate::support::{is_sparse, warning};
use crate::types::*;

/// The constraint rows as the island search reads them.
struct Rows<'a> {
    sparse: bool,
    efc_type: &'a [i32],
    efc_id: &'a [i32],
    efc_j: &'a [Real],
    rownnz: &'a [i32],
    rowadr: &'a [i32],
    colind: &'a [i32],
    contact: &'a [Contact],
}

/// Finds the constraint islands (`mj_island`). Without rows (or with flex objects, which
/// MuJoCo leaves out of the search) there are none. When the arena cannot hold the island
/// arrays MuJoCo warns `WARN_CNSTRFULL` and drops every constraint row, and so does this.
pub fn island(m: &Model, d: &mut Data) -> Result<(), StepError> {
    if d.nefc == 0 || m.nflex > 0 {
        d.nisland = 0;
        return Ok(());
    }
    let counts = RowCounts {
        ncon: d.ncon,
        ne: d.ne,
        nl: d.nl,
        nf: d.nf,
        nefc: d.nefc,
    };
    // first pass: the number of islands, which sizes the arrays
    let mut detached = d.arena.detach();
    let first = {
        let (arrays, mut stack) = detached.arrays_and_stack(d.arena.table());
        let rows = Rows {
            sparse: is_sparse(m),
            efc_type: arrays.efc_type,
            efc_id: arrays.efc_id,
            efc_j: arrays.efc_J,
            rownnz: arrays.efc_J_rownnz,
            rowadr: arrays.efc_J_rowadr,
            colind: arrays.efc_J_colind,
            contact: arrays.contact,
        };
        tree_islands(m, &counts, &rows, &mut stack).map(|(n, _)| n)
    };
    d.arena.attach(detached);
    let nisland = first?;
    d.nisland = nisland;
    if !alloc_island(m, d) {
        return Ok(());
    }
    // second pass: the same search, then the arrays
    let nefc = d.nefc;
    let mut detached = d.arena.detach();
    let r = {
        let (a, mut stack) = detached.arrays_mut_and_stack(d.arena.table());
        let rows = Rows {
            sparse: is_sparse(m),
            efc_type: a.efc_type,
            efc_id: a.efc_id,
            efc_j: a.efc_J,
            rownnz: a.efc_J_rownnz,
            rowadr: a.efc_J_rowadr,
            colind: a.efc_J_colind,
            contact: a.contact,
        };
        tree_islands(m, &counts, &rows, &mut stack).and_then(|(_, tree_island)| {
            let dofs = DofIslands {
                dof_island: a.dof_island,
                island_dofnum: a.island_dofnum,
                island_dofadr: a.island_dofadr,
                island_dofind: a.island_dofind,
                dof_islandind: a.dof_islandind,
            };
            fill_dofs(m, tree_island, dofs);
            let efc_island = &mut *a.efc_island;
            for (i, island) in efc_island.iter_mut().enumerate().take(nefc) {
                let (tree, _) = tree_first(m, &rows, i)?;
                *island = tree_island[tree[0] as usize];
            }
            group(
                efc_island,
                a.island_efcnum,
                a.island_efcadr,
                a.island_efcind,
            );
            Ok(())
        })
    };
    d.arena.attach(detached);
    r
}

/// Pushes the island arrays onto the arena; on failure warns, clears them and the rows.
fn alloc_island(m: &Model, d: &mut Data) -> bool {
    use ArenaField as F;
    let (nv, nefc, nisland) = (m.nv, d.nefc, d.nisland);
    let before = d.arena.mark();
    let pushed = {
        let mut stack = d.arena.stack();
        [
            (F::dof_island, nv),
            (F::island_dofnum, nisland),
            (F::island_dofadr, nisland),
            (F::island_dofind, nv),
            (F::dof_islandind, nv),
            (F::efc_island, nefc),
            (F::island_efcnum, nisland),
            (F::island_efcadr, nisland),
            (F::island_efcind, nefc),
        ]
        .into_iter()
        .try_for_each(|(f, n)| stack.push::<i32>(f as usize, n).map(|_| ()))
    };
    if pushed.is_err() {
        let narena = d.arena.len();
        warning(d, WARN_CNSTRFULL, i32::try_from(narena).unwrap_or(i32::MAX));
        d.arena.rewind(before);
        d.nefc = 0;
        d.nisland = 0;
        return false;
    }
    true
}

/// The island of each tree (-1 for trees without constraints) and the number of islands, in
/// scratch memory of `stack`.
fn tree_islands<'s>(
    m: &Model,
    counts: &RowCounts,
    rows: &Rows,
    stack: &'s mut Stack,
) -> Result<(usize, &'s mut [i32]), StepError> {
    let ntree = m.ntree;
    let edge = stack.alloc::<i32>(2 * max_edges(m, counts))?;
    let rownnz = stack.alloc::<i32>(ntree)?;
    let nedge = find_edges(m, rows, counts.nefc, rownnz, edge)?;

    // each tree's neighbours, in edge order
    let rowadr = stack.alloc::<i32>(ntree)?;
    let mut adr = 0;
    for r in 0..ntree {
        rowadr[r] = adr;
        adr += rownnz[r];
        rownnz[r] = 0;
    }
    let colind = stack.alloc::<i32>(nedge)?;
    for e in edge[..2 * nedge].chunks_exact(2) {
        let row = e[0] as usize;
        colind[(rowadr[row] + rownnz[row]) as usize] = e[1];
        rownnz[row] += 1;
    }

    let tree_island = stack.alloc::<i32>(ntree)?;
    let scratch = stack.alloc::<i32>(nedge)?;
    let nisland = flood_fill(tree_island, rownnz, rowadr, colind, scratch);
    Ok((nisland, tree_island))
}

/// Upper bound on the number of edges (`countMaxEdge`): two per contact and equality row,
/// one per limit and friction row, and a tendon's limit or friction loss one per wrap object.
fn max_edges(m: &Model, counts: &RowCounts) -> usize {
    let mut n = 2 * counts.ncon + 2 * counts.ne + counts.nl + counts.nf;
    for i in 0..m.ntendon {
        let num = m.tendon_num[i].max(0) as usize;
        if m.tendon_frictionloss[i] != 0.0 {
            n += num;
        }
        if m.tendon_limited[i] != 0 {
            n += num;
        }
    }
    n
}

/// The row counts the edge bound needs.
struct RowCounts {
    ncon: usize,
    ne: usize,
    nl: usize,
    nf: usize,
    nefc: usize,
}

/// The next tree after `tree` among the dofs of row `i`'s Jacobian, scanning from `*index`
/// (a column, or a non-zero of a sparse row); `*index` is left where the scan stopped.
fn tree_next(m: &Model, rows: &Rows, tree: i32, i: usize, index: &mut usize) -> i32 {
    if rows.sparse {
        let (adr, nnz) = (rows.rowadr[i] as usize, rows.rownnz[i] as usize);
        let cols = &rows.colind[adr..adr + nnz];
        while *index < nnz {
            let t = m.dof_treeid[cols[*index] as usize];
            if t != tree {
                return t;
            }
            *index += 1;
        }
    } else {
        let nv = m.nv;
        let row = &rows.efc_j[i * nv..(i + 1) * nv];
        while *index < nv {
            if row[*index] != 0.0 {
                let t = m.dof_treeid[*index];
                if t != tree {
                    return t;
                }
            }
            *index += 1;
        }
    }
    -1
}

/// The first one or two trees of row `i` (`treeFirst`), static trees (-1) last. Friction,
/// joint limits, contacts, connect and weld rows are read from their objects; other rows need a
/// scan of the Jacobian, whose position is returned to continue from.
fn tree_first(m: &Model, rows: &Rows, i: usize) -> Result<([i32; 2], Option<usize>), StepError> {
    let (ty, id) = (rows.efc_type[i], rows.efc_id[i] as usize);
    let static_last = |t: [i32; 2], what| match t {
        [-1, -1] => Err(StepError::Numerical(what)),
        [-1, t1] => Ok(([t1, -1], None)),
        t => Ok((t, None)),
    };
    match ty {
        CNSTR_FRICTION_DOF => return Ok(([m.dof_treeid[id], -1], None)),
        CNSTR_LIMIT_JOINT => {
            let dof = m.jnt_dofadr[id] as usize;
            return Ok(([m.dof_treeid[dof], -1], None));
        }
        CNSTR_CONTACT_FRICTIONLESS | CNSTR_CONTACT_PYRAMIDAL | CNSTR_CONTACT_ELLIPTIC => {
            let geom = rows.contact[id].geom;
            let tree = geom.map(|g| m.body_treeid[m.geom_bodyid[g as usize] as usize]);
            return static_last(tree, "contact between two static bodies");
        }
        CNSTR_EQUALITY if matches!(m.eq_type[id], EQ_CONNECT | EQ_WELD) => {
            let bodies = [m.eq_obj1id[id], m.eq_obj2id[id]];
            let tree = bodies.map(|b| m.body_treeid[b as usize]);
            return static_last(tree, "equality between two static bodies");
        }
        _ => {}
    }
    let mut index = 0;
    let first = tree_next(m, rows, -1, i, &mut index);
    if first < 0 {
        return Err(StepError::Numerical("constraint row without a tree"));
    }
    Ok(([first, -1], Some(index)))
}

/// The edge list being built: pairs of trees, each non-self edge stored both ways.
struct Edges<'a> {
    edge: &'a mut [i32],
    treenedge: &'a mut [i32],
    n: usize,
}

impl Edges<'_> {
    /// Adds a self-edge or the two directions of an edge (`addEdge`), unless it repeats the
    /// last one; a static tree (-1) takes the other's id.
    fn add(&mut self, tree1: i32, tree2: i32) -> Result<(), StepError> {
        let (t1, t2) = match (tree1, tree2) {
            (-1, -1) => return Err(StepError::Numerical("self-edge of the static tree")),
            (-1, t) | (t, -1) => (t, t),
            t => t,
        };
        let last = (self.n > 0).then(|| (self.edge[2 * self.n - 2], self.edge[2 * self.n - 1]));
        if t1 == t2 {
            if last == Some((t1, t1)) {
                return Ok(());
            }
            self.push(&[t1, t1])?;
            self.treenedge[t1 as usize] += 1;
            return Ok(());
        }
        if last == Some((t1, t2)) || last == Some((t2, t1)) {
            return Ok(());
        }
        self.push(&[t1, t2, t2, t1])?;
        self.treenedge[t1 as usize] += 1;
        self.treenedge[t2 as usize] += 1;
        Ok(())
    }

    fn push(&mut self, pairs: &[i32]) -> Result<(), StepError> {
        let end = 2 * self.n + pairs.len();
        let slot = self
            .edge
            .get_mut(2 * self.n..end)
            .ok_or(StepError::Numerical("island edge array too small"))?;
        slot.copy_from_slice(pairs);
        self.n += pairs.len() / 2;
        Ok(())
    }
}

/// The tree-tree edges of all rows (`findEdges`), one constraint at a time (rows of the same
/// type and id are one constraint); counts each tree's edges in `treenedge`.
fn find_edges(
    m: &Model,
    rows: &Rows,
    nefc: usize,
    treenedge: &mut [i32],
    edge: &mut [i32],
) -> Result<usize, StepError> {
    treenedge.fill(0);
    let mut edges = Edges {
        edge,
        treenedge,
        n: 0,
    };
    let mut last = None;
    for i in 0..nefc {
        let key = (rows.efc_type[i], rows.efc_id[i]);
        if last == Some(key) {
            continue;
        }
        last = Some(key);
        let ([tree1, tree2], index) = tree_first(m, rows, i)?;
        let Some(mut index) = index else {
            edges.add(tree1, if tree2 == -1 { tree1 } else { tree2 })?;
            continue;
        };
        let mut t1 = tree1;
        let mut t2 = tree_next(m, rows, t1, i, &mut index);
        if t2 == -1 {
            edges.add(t1, t1)?;
            continue;
        }
        edges.add(t1, t2)?;
        let mut t3 = tree_next(m, rows, t2, i, &mut index);
        while t3 > -1 && t3 != t2 {
            t1 = t2;
            t2 = t3;
            edges.add(t1, t2)?;
            t3 = tree_next(m, rows, t2, i, &mut index);
        }
    }
    Ok(edges.n)
}

/// `mj_floodFill`: numbers the connected components of the graph with adjacency lists
/// (`rownnz`, `rowadr`, `colind`) depth first, from the lowest vertex; vertices without edges
/// get -1. `scratch` holds as many entries as `colind`. Returns the number of components.
pub fn flood_fill(
    island: &mut [i32],
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &[i32],
    scratch: &mut [i32],
) -> usize {
    island.fill(-1);
    let mut nisland = 0;
    for start in 0..island.len() {
        if island[start] != -1 || rownnz[start] == 0 {
            continue;
        }
        scratch[0] = start as i32;
        let mut n = 1;
        while n > 0 {
            n -= 1;
            let v = scratch[n] as usize;
            if island[v] != -1 {
                continue;
            }
            island[v] = nisland as i32;
            let (adr, nnz) = (rowadr[v] as usize, rownnz[v] as usize);
            scratch[n..n + nnz].copy_from_slice(&colind[adr..adr + nnz]);
            n += nnz;
        }
        nisland += 1;
    }
    nisland
}

/// The dof-side island arrays.
struct DofIslands<'a> {
    dof_island: &'a mut [i32],
    island_dofnum: &'a mut [i32],
    island_dofadr: &'a mut [i32],
    island_dofind: &'a mut [i32],
    dof_islandind: &'a mut [i32],
}

/// Each dof's island (its tree's), and the dofs grouped by island; `island_dofind` ends with
/// -1 for the dofs in no island.
fn fill_dofs(m: &Model, tree_island: &[i32], a: DofIslands) {
    for (island, &tree) in a.dof_island.iter_mut().zip(m.dof_treeid.iter()) {
        *island = tree_island[tree as usize];
    }
    let grouped = group(
        a.dof_island,
        a.island_dofnum,
        a.island_dofadr,
        a.island_dofind,
    );
    a.island_dofind[grouped..].fill(-1);
    a.dof_islandind.fill(-1);
    for (island, &adr) in a.island_dofadr.iter().enumerate() {
        let n = a.island_dofnum[island] as usize;
        for (k, &dof) in a.island_dofind[adr as usize..][..n].iter().enumerate() {
            a.dof_islandind[dof as usize] = k as i32;
        }
    }
}

/// Groups the elements by island: counts (`num`), first index of each island (`adr`) and
/// the element ids island by island in increasing order (`ind`), skipping elements without an
/// island. Returns the number of elements grouped.
fn group(island_of: &[i32], num: &mut [i32], adr: &mut [i32], ind: &mut [i32]) -> usize {
    num.fill(0);
    for &island in island_of {
        if island >= 0 {
            num[island as usize] += 1;
        }
    }
    let mut start = 0;
    for (a, &n) in adr.iter_mut().zip(num.iter()) {
        *a = start;
        start += n;
    }
    num.fill(0);
    for (i, &island) in island_of.iter().enumerate() {
        if island >= 0 {
            let k = island as usize;
            ind[(adr[k] + num[k]) as usize] = i as i32;
            num[k] += 1;
        }
    }
    start as usize
}
