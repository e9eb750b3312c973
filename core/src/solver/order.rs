//! The fast build's order of the sparse Newton Hessian's rows (feature `fast`, issue 25): whole
//! kinematic trees reordered by minimum degree on the graph of trees that the constraints
//! couple, where that cuts the factorization's fill. MuJoCo factors in dof order, which keeps a
//! tree's own rows free of fill but lets contacts between distant bodies of a pile fill the
//! rows between them: the settled pile of 96 boxes has 3x its Hessian's non-zeros in the factor
//! and ~600 K multiply-adds per factorization, against 1.4x and ~90 K in this order. Each tree
//! keeps its dofs' order, so its own rows stay free of fill.

use crate::arena::Stack;
use crate::error::StepError;
use crate::math::fast_chol::COUPLED_ROW;
use crate::math::sparse::sort_row;
use crate::real::Real;

/// The fewest trees for which an order is sought: below, the graph is too small for fill to
/// matter against the cost of looking.
const MIN_TREES: usize = 8;

/// The most trees ordered: the search costs `ntree²` bit operations per factorization.
const MAX_TREES: usize = 1024;

/// The new order's estimated factorization work must be below this fraction of MuJoCo's order's
/// (as `work * GAIN_DEN < natural * GAIN_NUM`): a small gain does not pay for the permuted copy,
/// solves and updates.
const GAIN_NUM: u64 = 1;
const GAIN_DEN: u64 = 2;

/// The permutation of the Hessian's rows: `perm[new] = old`, `iperm[old] = new`, and a vector of
/// `nv` for the permuted solves.
pub(super) struct Order<'s> {
    pub perm: &'s mut [i32],
    pub iperm: &'s mut [i32],
    pub work: &'s mut [Real],
    /// Whether the current factor is in this order (else in MuJoCo's).
    pub active: bool,
}

impl Order<'_> {
    /// Solves `H res = vec` with `solve` (which solves in the factor's order) through the
    /// permutation when it is active.
    pub fn solve(
        &mut self,
        res: &mut [Real],
        vec: &[Real],
        solve: impl FnOnce(&mut [Real], &[Real]),
    ) {
        if !self.active {
            return solve(res, vec);
        }
        let n = res.len();
        for (w, &p) in self.work[..n].iter_mut().zip(&*self.perm) {
            *w = vec[p as usize];
        }
        solve(res, &self.work[..n]);
        self.work[..n].copy_from_slice(res);
        for (w, &p) in self.work[..n].iter().zip(&*self.perm) {
            res[p as usize] = *w;
        }
    }

    /// The sparse vector `x` (values `val`, increasing columns `ind`, `nnz` of them) in the
    /// factor's order, in place: columns mapped, then sorted with their values.
    pub fn map_sparse(&self, val: &mut [Real], ind: &mut [i32], nnz: usize) {
        if !self.active {
            return;
        }
        for c in &mut ind[..nnz] {
            *c = self.iperm[*c as usize];
        }
        sort_row(&mut ind[..nnz], &mut val[..nnz]);
    }

    /// Column `c` of MuJoCo's order in the factor's order.
    pub fn column(&self, c: i32) -> i32 {
        if self.active {
            self.iperm[c as usize]
        } else {
            c
        }
    }
}

/// Chooses the order of the uncompressed sparse Hessian (rows at `r nv`, sorted columns, both
/// triangles) over the dofs' trees `treeid` (`ntree` of them) and, where it pays, permutes the
/// matrix in place to it (`order.active`).
pub(super) fn reorder(
    treeid: &[i32],
    ntree: usize,
    mat: &mut [Real],
    rownnz: &mut [i32],
    colind: &mut [i32],
    order: &mut Order,
    stack: &mut Stack,
) -> Result<(), StepError> {
    order.active = false;
    let nv = treeid.len();
    // rows of trees that few contacts couple (humanoid100, 3.4 entries to the diagonal on
    // average) fill little in MuJoCo's order: not worth the graph (2.5% of its step)
    let all: usize = rownnz[..nv].iter().map(|&k| k as usize).sum();
    if (all + nv) / 2 < COUPLED_ROW * nv {
        return Ok(());
    }
    // trees must be contiguous runs of dofs (as MuJoCo numbers bodies depth first)
    let contiguous = treeid.windows(2).all(|w| w[0] <= w[1]);
    let numbered = treeid.first().is_some_and(|&t| t >= 0);
    if !(MIN_TREES..=MAX_TREES).contains(&ntree) || !contiguous || !numbered {
        return Ok(());
    }
    let mut frame = stack.frame();
    let words = ntree.div_ceil(64);
    let (Ok(adj), Ok(graph), Ok(alive), Ok(size), Ok(seq)) = (
        frame.alloc::<u64>(ntree * words),
        frame.alloc::<u64>(ntree * words),
        frame.alloc::<u64>(words),
        frame.alloc::<u64>(ntree),
        frame.alloc::<u32>(ntree),
    ) else {
        return Ok(());
    };
    coupling(treeid, rownnz, colind, nv, words, graph, size);
    adj.copy_from_slice(graph);
    let natural = eliminate_natural(adj, alive, size, words, ntree);
    // no order does better than each tree's own rows: where MuJoCo's is within the gain of
    // that, the search is skipped (humanoid100: 100 humanoids whose contacts fill little)
    let own: u64 = size.iter().map(|&k| k * k).sum();
    if natural * GAIN_NUM <= own * GAIN_DEN {
        return Ok(());
    }
    let work = eliminate_min_degree(graph, alive, size, words, ntree, seq);
    if work * GAIN_DEN >= natural * GAIN_NUM {
        return Ok(());
    }
    // the first tree eliminated takes the last rows (the factor eliminates from the last row)
    let mut new = nv;
    for &t in seq.iter() {
        let t = t as usize;
        let first = treeid.partition_point(|&x| (x as usize) < t);
        let last = treeid.partition_point(|&x| (x as usize) <= t);
        new -= last - first;
        for (k, old) in (first..last).enumerate() {
            order.perm[new + k] = old as i32;
            order.iperm[old] = (new + k) as i32;
        }
    }
    debug_assert_eq!(new, 0);
    permute(mat, rownnz, colind, treeid, order, &mut frame)?;
    order.active = true;
    Ok(())
}

/// The graph of trees coupled by the matrix's off-diagonal blocks (`adj`: one bit set per
/// tree, `words` per tree) and the trees' sizes in dofs.
fn coupling(
    treeid: &[i32],
    rownnz: &[i32],
    colind: &[i32],
    nv: usize,
    words: usize,
    adj: &mut [u64],
    size: &mut [u64],
) {
    adj.fill(0);
    size.fill(0);
    for r in 0..nv {
        let t = treeid[r] as usize;
        size[t] += 1;
        for &c in &colind[r * nv..r * nv + rownnz[r] as usize] {
            let u = treeid[c as usize] as usize;
            if u != t {
                adj[t * words + u / 64] |= 1 << (u % 64);
            }
        }
    }
}

/// Eliminates tree `t`: its living neighbors become a clique; returns the work estimate of its
/// rows, the square of the dofs they span.
fn eliminate_one(adj: &mut [u64], alive: &mut [u64], size: &[u64], words: usize, t: usize) -> u64 {
    alive[t / 64] &= !(1 << (t % 64));
    let mut span = size[t];
    let mut nb = [0u64; MAX_TREES / 64];
    let nb = &mut nb[..words];
    for (n, (&a, &l)) in nb.iter_mut().zip(adj[t * words..].iter().zip(&*alive)) {
        *n = a & l;
    }
    for (w, &bits) in nb.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            let u = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            span += size[u];
            for (a, &n) in adj[u * words..(u + 1) * words].iter_mut().zip(&*nb) {
                *a |= n;
            }
            adj[u * words + u / 64] &= !(1 << (u % 64));
        }
    }
    span * span
}

/// MuJoCo's order's work estimate: trees eliminated from the last.
fn eliminate_natural(
    adj: &mut [u64],
    alive: &mut [u64],
    size: &[u64],
    words: usize,
    ntree: usize,
) -> u64 {
    set_all(alive, ntree);
    (0..ntree)
        .rev()
        .map(|t| eliminate_one(adj, alive, size, words, t))
        .sum()
}

/// Minimum degree (living neighbors, by count: a popcount per word, where their summed sizes
/// cost a lookup per neighbor, a tenth of the pile's step): the elimination sequence into
/// `seq`, and its work estimate.
fn eliminate_min_degree(
    adj: &mut [u64],
    alive: &mut [u64],
    size: &[u64],
    words: usize,
    ntree: usize,
    seq: &mut [u32],
) -> u64 {
    set_all(alive, ntree);
    let mut work = 0;
    for s in seq.iter_mut() {
        let mut best = (u64::MAX, 0);
        for t in (0..ntree).filter(|&t| alive[t / 64] >> (t % 64) & 1 != 0) {
            let degree: u64 = adj[t * words..(t + 1) * words]
                .iter()
                .zip(&*alive)
                .map(|(&a, &l)| u64::from((a & l).count_ones()))
                .sum();
            if degree < best.0 {
                best = (degree, t);
            }
        }
        *s = best.1 as u32;
        work += eliminate_one(adj, alive, size, words, best.1);
    }
    work
}

/// Sets the first `n` bits of `bits`, clears the rest.
fn set_all(bits: &mut [u64], n: usize) {
    for (w, b) in bits.iter_mut().enumerate() {
        let lo = w * 64;
        *b = if n >= lo + 64 {
            u64::MAX
        } else if n > lo {
            (1u64 << (n - lo)) - 1
        } else {
            0
        };
    }
}

/// `P H P'` in place, by a copy of the rows: new row `i` is old row `perm[i]` with its columns
/// mapped and sorted.
fn permute(
    mat: &mut [Real],
    rownnz: &mut [i32],
    colind: &mut [i32],
    treeid: &[i32],
    order: &Order,
    stack: &mut Stack,
) -> Result<(), StepError> {
    let nv = treeid.len();
    let total: usize = rownnz[..nv].iter().map(|&k| k as usize).sum();
    let mut frame = stack.frame();
    let val = frame.alloc::<Real>(total)?;
    let ind = frame.alloc::<i32>(total)?;
    let adr = frame.alloc::<u32>(nv + 1)?;
    let mut k = 0;
    for r in 0..nv {
        adr[r] = k as u32;
        let nnz = rownnz[r] as usize;
        val[k..k + nnz].copy_from_slice(&mat[r * nv..r * nv + nnz]);
        ind[k..k + nnz].copy_from_slice(&colind[r * nv..r * nv + nnz]);
        k += nnz;
    }
    adr[nv] = k as u32;
    for i in 0..nv {
        let r = order.perm[i] as usize;
        let (from, to) = (adr[r] as usize, adr[r + 1] as usize);
        let nnz = to - from;
        let (row_val, row_ind) = (
            &mut mat[i * nv..i * nv + nnz],
            &mut colind[i * nv..i * nv + nnz],
        );
        copy_runs(
            &val[from..to],
            &ind[from..to],
            treeid,
            order,
            row_val,
            row_ind,
        );
        rownnz[i] = nnz as i32;
    }
    Ok(())
}

/// Runs of one row that [`copy_runs`] reorders without sorting entries; more fall back to the
/// entries' insertion sort.
const MAX_RUNS: usize = 32;

/// A row's entries (`val`, increasing old columns `ind`) into `out_val`, `out_ind` in the new
/// order: each tree's entries form one run that keeps its order, so the runs are sorted by
/// their new first column and copied whole.
fn copy_runs(
    val: &[Real],
    ind: &[i32],
    treeid: &[i32],
    order: &Order,
    out_val: &mut [Real],
    out_ind: &mut [i32],
) {
    // (new first column, start, end) of each run
    let mut runs = [(0i32, 0usize, 0usize); MAX_RUNS];
    let mut nrun = 0;
    let mut start = 0;
    for k in 1..=ind.len() {
        let boundary = k == ind.len() || treeid[ind[k] as usize] != treeid[ind[start] as usize];
        if boundary {
            if nrun == MAX_RUNS {
                out_val.copy_from_slice(val);
                for (c, &old) in out_ind.iter_mut().zip(ind) {
                    *c = order.iperm[old as usize];
                }
                return sort_row(out_ind, out_val);
            }
            runs[nrun] = (order.iperm[ind[start] as usize], start, k);
            nrun += 1;
            start = k;
        }
    }
    let runs = &mut runs[..nrun];
    runs.sort_unstable_by_key(|r| r.0);
    let mut k = 0;
    for &(_, from, to) in runs.iter() {
        let len = to - from;
        out_val[k..k + len].copy_from_slice(&val[from..to]);
        for (c, &old) in out_ind[k..k + len].iter_mut().zip(&ind[from..to]) {
            *c = order.iperm[old as usize];
        }
        k += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::fast_chol::tests::uncompressed;
    use crate::math::sparse::{chol_factor_sparse, chol_solve_sparse};
    use crate::real::EPSILON;
    use proptest::prelude::*;

    #[repr(align(64))]
    struct Scratch([u8; 1 << 20]);

    /// A symmetric positive definite matrix over trees of `sizes` dofs (contiguous), dense
    /// within each tree and coupled between the trees of `pairs`, with its tree ids.
    fn trees_matrix(sizes: &[usize], pairs: &[(usize, usize)], seed: u64) -> (Vec<Real>, Vec<i32>) {
        let treeid: Vec<i32> = sizes
            .iter()
            .enumerate()
            .flat_map(|(t, &k)| core::iter::repeat_n(t as i32, k))
            .collect();
        let n = treeid.len();
        let mut state = seed | 1;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) as Real / (1u64 << 31) as Real) - 0.5
        };
        let mut a = vec![0.0; n * n];
        let coupled = |s: i32, t: i32| {
            s == t
                || pairs.iter().any(|&(p, q)| {
                    (p, q) == (s as usize, t as usize) || (q, p) == (s as usize, t as usize)
                })
        };
        for i in 0..n {
            for j in 0..i {
                if coupled(treeid[i], treeid[j]) {
                    let v = next();
                    (a[i * n + j], a[j * n + i]) = (v, v);
                }
            }
            a[i * n + i] = n as Real;
        }
        (a, treeid)
    }

    /// Factors the uncompressed matrix and solves it for `b`, through `order` when active.
    fn factor_solve(
        mut val: Vec<Real>,
        mut ind: Vec<i32>,
        mut rownnz: Vec<i32>,
        rowadr: &[i32],
        order: &mut Order,
        b: &[Real],
        stack: &mut Stack,
    ) -> (Vec<Real>, usize) {
        let n = b.len();
        let rank =
            chol_factor_sparse(&mut val, n, 1e-15, &mut rownnz, rowadr, &mut ind, stack).unwrap();
        assert_eq!(rank, n);
        let mut x = vec![0.0; n];
        let nnz = rownnz.iter().map(|&k| k as usize).sum();
        order.solve(&mut x, b, |res, vec| {
            chol_solve_sparse(res, &val, vec, n, &rownnz, rowadr, &ind);
        });
        (x, nnz)
    }

    /// Runs `f` with an [`Order`] for `n` dofs.
    fn with_order<T>(n: usize, f: impl FnOnce(&mut Order) -> T) -> T {
        let (mut perm, mut iperm, mut work) = (vec![0; n], vec![0; n], vec![0.0; n]);
        let mut order = Order {
            perm: &mut perm,
            iperm: &mut iperm,
            work: &mut work,
            active: false,
        };
        f(&mut order)
    }

    proptest! {
        /// Where the trees are reordered, the permuted matrix is `P H P'` entry for entry, and
        /// its factor solves `H x = b` as MuJoCo's order does (up to rounding).
        #[test]
        fn reordered_factor_solves_the_same_system(
            sizes in proptest::collection::vec(1usize..7, 8..40),
            links in proptest::collection::vec((0usize..40, 0usize..40), 0..80),
            seed: u64,
        ) {
            let ntree = sizes.len();
            let pairs: Vec<_> = links.iter().map(|&(p, q)| (p % ntree, q % ntree)).collect();
            let (a, treeid) = trees_matrix(&sizes, &pairs, seed);
            let n = treeid.len();
            let b: Vec<Real> = (0..n).map(|i| (i % 7) as Real - 3.0).collect();
            let mut mem = Box::new(Scratch([0; 1 << 20]));
            let mut arena = crate::arena::Arena::new(&mut mem.0);
            let (val, ind, rownnz, rowadr) = uncompressed(&a, n);
            let (x0, nnz0) = with_order(n, |order| {
                factor_solve(val.clone(), ind.clone(), rownnz.clone(), &rowadr, order, &b, &mut arena.stack())
            });
            with_order(n, |order| -> Result<(), TestCaseError> {
                let (mut v, mut i, mut k) = (val.clone(), ind.clone(), rownnz.clone());
                reorder(&treeid, ntree, &mut v, &mut k, &mut i, order, &mut arena.stack()).unwrap();
                if !order.active {
                    prop_assert_eq!((&v, &i, &k), (&val, &ind, &rownnz));
                    return Ok(());
                }
                for r in 0..n {
                    let old = order.perm[r] as usize;
                    prop_assert_eq!(order.iperm[old] as usize, r);
                    prop_assert_eq!(k[r], rownnz[old]);
                    let row = &i[r * n..r * n + k[r] as usize];
                    prop_assert!(row.windows(2).all(|w| w[0] < w[1]));
                    for (&c, &x) in row.iter().zip(&v[r * n..]) {
                        prop_assert_eq!(x, a[old * n + order.perm[c as usize] as usize]);
                    }
                }
                let (x1, nnz1) = factor_solve(v, i, k, &rowadr, order, &b, &mut arena.stack());
                prop_assert!(nnz1 <= nnz0 + n, "fill {} against {}", nnz1, nnz0);
                for (p, q) in x1.iter().zip(&x0) {
                    prop_assert!((p - q).abs() <= 1e3 * EPSILON * q.abs().max(1.0));
                }
                Ok(())
            })?;
        }
    }

    /// A sparse vector (a constraint row) moves to the new columns with its values, sorted.
    #[test]
    fn sparse_vector_follows_the_order() {
        with_order(6, |order| {
            order.perm.copy_from_slice(&[4, 5, 0, 1, 2, 3]);
            for (new, &old) in order.perm.iter().enumerate() {
                order.iperm[old as usize] = new as i32;
            }
            let (mut val, mut ind) = ([1.0, 2.0, 5.0], [0, 1, 4]);
            order.map_sparse(&mut val, &mut ind, 3);
            assert_eq!(
                (val, ind),
                ([1.0, 2.0, 5.0], [0, 1, 4]),
                "inactive: unchanged"
            );
            order.active = true;
            order.map_sparse(&mut val, &mut ind, 3);
            assert_eq!((val, ind), ([5.0, 1.0, 2.0], [0, 2, 3]));
            assert_eq!(order.column(5), 1);
        });
    }

    /// Trees coupled at random, as the boxes of a pile, are reordered and fill less; a chain
    /// of trees, which MuJoCo's order factors without fill, and too few trees are not.
    #[test]
    fn pile_reordered_chain_kept() {
        let mut mem = Box::new(Scratch([0; 1 << 20]));
        let mut arena = crate::arena::Arena::new(&mut mem.0);
        let sizes = [6; 40];
        let mut pile = vec![];
        let mut state = 7u64;
        for _ in 0..80 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pile.push(((state >> 40) as usize % 40, (state >> 20) as usize % 40));
        }
        let chain: Vec<_> = (0..39).map(|t| (t, t + 1)).collect();
        for (pairs, ntree, reordered) in [(&pile, 40, true), (&chain, 40, false), (&pile, 7, false)]
        {
            let sizes = &sizes[..ntree];
            let pairs: Vec<_> = pairs
                .iter()
                .filter(|p| p.0 < ntree && p.1 < ntree)
                .copied()
                .collect();
            let (a, treeid) = trees_matrix(sizes, &pairs, 1);
            let n = treeid.len();
            let (mut v, mut i, mut k, rowadr) = uncompressed(&a, n);
            let b = vec![1.0; n];
            let (_, natural) = with_order(n, |order| {
                factor_solve(
                    v.clone(),
                    i.clone(),
                    k.clone(),
                    &rowadr,
                    order,
                    &b,
                    &mut arena.stack(),
                )
            });
            with_order(n, |order| {
                reorder(
                    &treeid,
                    ntree,
                    &mut v,
                    &mut k,
                    &mut i,
                    order,
                    &mut arena.stack(),
                )
                .unwrap();
                assert_eq!(order.active, reordered, "{ntree} trees");
                let (_, nnz) = factor_solve(v, i, k, &rowadr, order, &b, &mut arena.stack());
                if reordered {
                    assert!(4 * nnz < 3 * natural, "factor {nnz} against {natural}");
                }
            });
        }
    }
}
