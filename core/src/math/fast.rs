//! Kernels of the opt-in fast build (cargo feature `fast`, issue 25): the same quantities as the
//! exact kernels they replace, in a cheaper order, so that results are not MuJoCo's bit for bit.
//!
//! * Fused multiply-adds ([`mul_add`]) where the platform has a hardware instruction for them in
//!   this build: the feature `std` (Rust's `mul_add`, which `core` lacks) and the target feature
//!   `fma` (`RUSTFLAGS="-C target-cpu=native"` or `-C target-feature=+fma,+avx2` on x86-64), or
//!   without `std` the feature `core-float-math` (`VFMA.F32` on a Cortex-M4F).
//!   Elsewhere a multiply and an add, never the software `fma` of `libm`, which costs a function
//!   call per product; [`FUSED`] says which.
//! * Reductions in [`LANES`] independent accumulators ([`dot`]): the additions no longer wait
//!   for each other, and LLVM keeps the lanes in the widest vector registers the target has.
//!
//! The exact build never compiles this module; the functions that have a fast variant call it
//! first under `#[cfg(feature = "fast")]`, so the exact code is unchanged when the feature is
//! off. Accuracy is measured rather than assumed: `tests/tests/fast.rs` bounds one `forward`
//! against MuJoCo's, `bench/fast_accuracy.py` compares 1000 steps with MuJoCo's own chaos.

use crate::Real;

/// Whether [`mul_add`] rounds once in this build: a hardware fused multiply-add, or `core`'s
/// (feature `core-float-math`: the compiler's intrinsic, one `VFMA.F32` on a Cortex-M4F in f32,
/// the C library's correctly rounded `fma` where the target has no instruction, so that a host
/// reproduces a device's fused bits).
pub const FUSED: bool = cfg!(any(
    all(feature = "std", target_feature = "fma"),
    all(not(feature = "std"), feature = "core-float-math")
));

/// Accumulators of a [`dot`]: two 256-bit registers of f64 (one of AVX-512), enough to hide the
/// latency of the additions on current x86-64 cores.
pub const LANES: usize = 8;

/// `a * b + c`, rounded once where the build has a hardware fused multiply-add ([`FUSED`]).
#[inline(always)]
pub fn mul_add(a: Real, b: Real, c: Real) -> Real {
    #[cfg(all(feature = "std", target_feature = "fma"))]
    {
        a.mul_add(b, c)
    }
    #[cfg(all(not(feature = "std"), feature = "core-float-math", feature = "f32"))]
    {
        core::f32::math::mul_add(a, b, c)
    }
    #[cfg(all(
        not(feature = "std"),
        feature = "core-float-math",
        not(feature = "f32")
    ))]
    {
        core::f64::math::mul_add(a, b, c)
    }
    #[cfg(not(any(
        all(feature = "std", target_feature = "fma"),
        all(not(feature = "std"), feature = "core-float-math")
    )))]
    {
        a * b + c
    }
}

/// Dot product in [`LANES`] accumulators: on x86-64 with hardware FMA in f64, two 256-bit
/// registers ([`avx::dot`]); elsewhere [`dot_portable`]. Always inlined, as the exact `dot`:
/// most calls are short rows.
#[inline(always)]
pub fn dot(vec1: &[Real], vec2: &[Real]) -> Real {
    debug_assert_eq!(vec1.len(), vec2.len());
    #[cfg(all(target_arch = "x86_64", target_feature = "fma", not(feature = "f32")))]
    {
        avx::dot(vec1, vec2)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "fma", not(feature = "f32"))))]
    {
        dot_portable(vec1, vec2)
    }
}

/// Dot product in [`LANES`] accumulators: blocks of eight, then one of four, then up to three
/// products, as fixed-size arrays (no bounds checks, no per-element loop bookkeeping: the
/// vectors of the solvers are short, a few dozen elements).
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "fma", not(feature = "f32")),
    allow(dead_code)
)]
#[inline]
fn dot_portable(vec1: &[Real], vec2: &[Real]) -> Real {
    debug_assert_eq!(vec1.len(), vec2.len());
    let (blocks1, rest1) = vec1.as_chunks::<LANES>();
    let (blocks2, rest2) = vec2.as_chunks::<LANES>();
    let mut lanes = [0.0; LANES];
    for (a, b) in blocks1.iter().zip(blocks2) {
        for k in 0..LANES {
            lanes[k] = mul_add(a[k], b[k], lanes[k]);
        }
    }
    let (quad1, tail1) = rest1.as_chunks::<4>();
    let (quad2, tail2) = rest2.as_chunks::<4>();
    if let (Some(a), Some(b)) = (quad1.first(), quad2.first()) {
        for k in 0..4 {
            lanes[k] = mul_add(a[k], b[k], lanes[k]);
        }
    }
    sum_lanes(&lanes) + dot_short(tail1, tail2)
}

/// Dot product of at most three elements: one product and fused multiply-adds onto it. Tested
/// by comparisons on the length (a `match` on the three lengths compiled to a jump table, an
/// indirect jump in every `dot`).
#[inline(always)]
fn dot_short(vec1: &[Real], vec2: &[Real]) -> Real {
    let (a, b) = (vec1, vec2);
    let len = a.len().min(b.len());
    if len == 0 {
        return 0.0;
    }
    let mut sum = a[0] * b[0];
    if len > 1 {
        sum = mul_add(a[1], b[1], sum);
        if len > 2 {
            sum = mul_add(a[2], b[2], sum);
        }
    }
    sum
}

/// Sum of the accumulators of [`dot`], pairwise.
#[inline(always)]
fn sum_lanes(lanes: &[Real; LANES]) -> Real {
    let half: [Real; 4] = core::array::from_fn(|k| lanes[k] + lanes[k + 4]);
    (half[0] + half[2]) + (half[1] + half[3])
}

/// Kernels written with x86-64's 256-bit FMA instructions, for f64 builds whose target has them
/// (`fma` implies AVX): LLVM does not keep the short loops of the solvers in full registers by
/// itself (its code for [`dot_portable`] runs half-width loads and a scalar tail). The one
/// `unsafe` of the fast build: raw 256-bit loads, bounded by the slices' length.
#[cfg(all(target_arch = "x86_64", target_feature = "fma", not(feature = "f32")))]
#[allow(unsafe_code)]
mod avx {
    use core::arch::x86_64::{
        __m256d, __m256i, _mm256_add_pd, _mm256_castpd256_pd128, _mm256_extractf128_pd,
        _mm256_fmadd_pd, _mm256_loadu_pd, _mm256_loadu_si256, _mm256_maskload_pd,
        _mm256_setzero_pd, _mm_add_pd, _mm_add_sd, _mm_cvtsd_f64, _mm_unpackhi_pd,
    };

    /// Load masks of the last `len % 4` elements: all ones in the lanes to read.
    const TAIL_MASKS: [[i64; 4]; 4] = [[0; 4], [-1, 0, 0, 0], [-1, -1, 0, 0], [-1, -1, -1, 0]];

    /// Dot product in two registers of four lanes: blocks of eight, one block of four, and the
    /// last up to three products by masked loads (no scalar tail), then the lanes summed.
    /// Fewer than four products (the first rows of a Cholesky factor, 2D models' short rows)
    /// are a chain of scalar fused multiply-adds: the mask and the horizontal sum would cost
    /// more than the products.
    #[inline(always)]
    pub fn dot(vec1: &[f64], vec2: &[f64]) -> f64 {
        let n = vec1.len().min(vec2.len());
        if n < 4 {
            return super::dot_short(&vec1[..n], &vec2[..n]);
        }
        let (p1, p2) = (vec1.as_ptr(), vec2.as_ptr());
        // SAFETY: the `fma` target feature (checked at compile time) implies AVX; every full
        // load reads elements i..i + 4 with i + 4 <= n, inside both slices; the masked loads
        // read only the lanes below n (masked-out lanes are neither read nor fault).
        unsafe {
            let mut acc0 = _mm256_setzero_pd();
            let mut acc1 = _mm256_setzero_pd();
            let mut i = 0;
            while i + 8 <= n {
                acc0 = fmadd_at(p1, p2, i, acc0);
                acc1 = fmadd_at(p1, p2, i + 4, acc1);
                i += 8;
            }
            if i + 4 <= n {
                acc0 = fmadd_at(p1, p2, i, acc0);
                i += 4;
            }
            if i < n {
                let mask = _mm256_loadu_si256(TAIL_MASKS[n - i].as_ptr().cast::<__m256i>());
                let a = _mm256_maskload_pd(p1.add(i), mask);
                let b = _mm256_maskload_pd(p2.add(i), mask);
                acc1 = _mm256_fmadd_pd(a, b, acc1);
            }
            let acc = _mm256_add_pd(acc0, acc1);
            let pair = _mm_add_pd(_mm256_castpd256_pd128(acc), _mm256_extractf128_pd::<1>(acc));
            _mm_cvtsd_f64(_mm_add_sd(pair, _mm_unpackhi_pd(pair, pair)))
        }
    }

    /// `acc + a[i..i + 4] * b[i..i + 4]`, fused.
    ///
    /// # Safety
    /// AVX and FMA available; `i + 4` within both arrays.
    #[inline(always)]
    unsafe fn fmadd_at(a: *const f64, b: *const f64, i: usize, acc: __m256d) -> __m256d {
        _mm256_fmadd_pd(_mm256_loadu_pd(a.add(i)), _mm256_loadu_pd(b.add(i)), acc)
    }
}

/// `res += vec * scl` with fused multiply-adds, in blocks of four with the last `len % 4`
/// written out, as the exact build's `vec::add_to_scl` and for the same reason: where a caller
/// bounds the length (`mul_mat_t_vec`'s rows under 16 long), LLVM turned the plain loop into
/// masked loads and stores (`vmaskmovpd`), which AMD's cores execute slowly (walker2d_cg's
/// `J' x` took 2.3x the exact build's time, and the fast build fell below the exact one).
/// LLVM's own loop for long rows (16 and more) was not measurably faster on the soft box and
/// the stack, and the test of the length cost the small models 3-5%.
#[inline]
pub fn add_to_scl(res: &mut [Real], vec: &[Real], scl: Real) {
    debug_assert_eq!(res.len(), vec.len());
    let mut res_blocks = res.chunks_exact_mut(4);
    let mut vec_blocks = vec.chunks_exact(4);
    for (r, v) in (&mut res_blocks).zip(&mut vec_blocks) {
        for k in 0..4 {
            r[k] = mul_add(v[k], scl, r[k]);
        }
    }
    match (res_blocks.into_remainder(), vec_blocks.remainder()) {
        ([r0, r1, r2], [v0, v1, v2]) => {
            *r0 = mul_add(*v0, scl, *r0);
            *r1 = mul_add(*v1, scl, *r1);
            *r2 = mul_add(*v2, scl, *r2);
        }
        ([r0, r1], [v0, v1]) => {
            *r0 = mul_add(*v0, scl, *r0);
            *r1 = mul_add(*v1, scl, *r1);
        }
        ([r0], [v0]) => *r0 = mul_add(*v0, scl, *r0),
        _ => {}
    }
}

/// `res = vec1 + vec2 * scl` with fused multiply-adds.
#[inline]
pub fn add_scl(res: &mut [Real], vec1: &[Real], vec2: &[Real], scl: Real) {
    debug_assert!(res.len() == vec1.len() && res.len() == vec2.len());
    for ((r, a), b) in res.iter_mut().zip(vec1).zip(vec2) {
        *r = mul_add(*b, scl, *a);
    }
}

/// `x / diag` as `x` times the reciprocal: the division then no longer waits for `x`, so it
/// leaves the chain of dependent rows of a triangular solve or elimination (a division's latency
/// is about four multiplications'; one more rounding).
#[inline(always)]
pub fn over_diag(x: Real, diag: Real) -> Real {
    x * (1.0 / diag)
}

/// `Lᵀ x = y` in place given the Cholesky factor `L` in `mat` (`n × n`, lower triangle): row
/// by row from the last, each solved unknown removed from the ones before it with row `i` of
/// `L` (contiguous, so one vector update) instead of MuJoCo's strided walk down column `i`.
pub fn chol_back_sub(res: &mut [Real], mat: &[Real], n: usize) {
    for i in (0..n).rev() {
        let row = &mat[i * n..i * n + i + 1];
        let x = over_diag(res[i], row[i]);
        res[i] = x;
        add_to_scl(&mut res[..i], &row[..i], -x);
    }
}

/// The first `i >= from` with `x[i] != 0`: four elements per test (one vector compare; the
/// arm's constraint rows have a few nonzeros in 56, and `chol::chol_update`'s element-wise scan
/// cost as much as its updates).
#[inline(always)]
pub(crate) fn next_nonzero(x: &[Real], from: usize) -> Option<usize> {
    let tail = x.get(from..)?;
    let (quads, rest) = tail.as_chunks::<4>();
    for (q, quad) in quads.iter().enumerate() {
        // `|` rather than `||`: one compare of the four, no branch per element
        if (quad[0] != 0.0) | (quad[1] != 0.0) | (quad[2] != 0.0) | (quad[3] != 0.0) {
            let p = quad.iter().position(|&v| v != 0.0).unwrap_or(0);
            return Some(from + 4 * q + p);
        }
    }
    let p = rest.iter().position(|&v| v != 0.0)?;
    Some(from + 4 * quads.len() + p)
}

/// `chol::chol_update`'s step below pivot `k` of the `n × n` factor `mat` (`k < n`), with `x` the
/// whole update vector: for each row `i > k`, `L[i][k] = (s' x[i] + L[i][k]) / c` and
/// `x[i] = c x[i] - s L[i][k]`, where `coef` is `[s', s, c, 1/c]`; four rows per pass (one
/// row per chunk cost more in walking the strided column than in the products; `step_by`
/// more still).
#[inline(always)]
pub(crate) fn update_column(mat: &mut [Real], x: &mut [Real], n: usize, k: usize, coef: [Real; 4]) {
    let [ss, s, c, cinv] = coef;
    let rows = &mut mat[(k + 1) * n..];
    let (blocks, rest) = x[k + 1..].as_chunks_mut::<4>();
    let mut row_blocks = rows.chunks_exact_mut(4 * n);
    let step = |lik: &mut Real, xi: &mut Real| {
        let l = mul_add(ss, *xi, *lik) * cinv;
        *lik = l;
        *xi = mul_add(c, *xi, -(s * l));
    };
    for (xb, rb) in blocks.iter_mut().zip(&mut row_blocks) {
        let (r0, r) = rb.split_at_mut(n);
        let (r1, r) = r.split_at_mut(n);
        let (r2, r3) = r.split_at_mut(n);
        let [x0, x1, x2, x3] = xb;
        step(&mut r0[k], x0);
        step(&mut r1[k], x1);
        step(&mut r2[k], x2);
        step(&mut r3[k], x3);
    }
    for (row, xi) in row_blocks.into_remainder().chunks_exact_mut(n).zip(rest) {
        step(&mut row[k], xi);
    }
}

/// Zeroes the lower triangle (diagonal included) of the `n × n` matrix `res`, row by row: what
/// `mat::sqr_mat_td` sums into before it copies the lower triangle to the upper one, which it
/// overwrites. Half the stores of zeroing the whole matrix, and no `rep stosb` (glibc's `memset`
/// above 2 KiB, which callgrind counts as one instruction per byte: 25 K "instructions" for the
/// arm's 56 x 56 Hessian). A small matrix is zeroed whole: one short `memset` costs less than a
/// call per row (hopper, 6 x 6: +0.5 Ki/step row by row).
pub fn zero_lower(res: &mut [Real], n: usize) {
    if n < 16 {
        res[..n * n].fill(0.0);
        return;
    }
    for (i, row) in res[..n * n].chunks_exact_mut(n).enumerate() {
        row[..=i].fill(0.0);
    }
}

/// Columns of the matrices that [`solve_m2_columns`] and [`gram`] take: their rows are padded
/// to a multiple of this width (one 256-bit register of f64) with zeros, so that a row is
/// whole blocks and their loops have no tails.
pub const BLOCK: usize = 4;

/// `ncol` rounded up to a multiple of [`BLOCK`]: the row stride of a padded matrix.
pub fn padded(ncol: usize) -> usize {
    ncol.div_ceil(BLOCK) * BLOCK
}

/// `res = matᵀ` into a row stride of `stride` (`nc` rows of `stride`, at least `nr`; the columns
/// from `nr` on zeroed) from `mat` (`nr × nc`).
pub fn transpose_padded(res: &mut [Real], mat: &[Real], nr: usize, nc: usize, stride: usize) {
    if stride == 0 {
        return;
    }
    let mat = &mat[..nr * nc];
    // row by row of `res` (zeroing it all first cost more than the transpose: a `memset` of a
    // few KiB); the row's last block is zeroed first, one store, and the values written over
    // it (its padding alone would be a `memset` call per row)
    for (j, out) in res[..nc * stride].chunks_exact_mut(stride).enumerate() {
        if let Some(last) = out.as_chunks_mut::<BLOCK>().0.last_mut() {
            *last = [0.0; BLOCK];
        }
        // a running index down column `j` (`step_by` cost twice as much)
        let mut k = j;
        for o in &mut out[..nr] {
            *o = mat[k];
            k += nc;
        }
    }
}

/// `x = D^-1/2 L^-T y` (`mj_solveM2`) for the columns of `xt` (`nv` rows of `stride`, a
/// multiple of [`BLOCK`], padded with zeros: row `i` holds dof `i` of every vector), in place,
/// given the sparse factor `qld` with its addresses `madr`, the dof tree `parentid`, the simple
/// dofs `simplenum` (no ancestors in the factor) and `diag_sqrt_inv`. Each (dof, ancestor) pair
/// of the factor is one update of the ancestor's row by whole blocks, where MuJoCo makes one
/// scalar update per vector; a dof that is zero in every vector is skipped, as MuJoCo skips it
/// in each (few constraint rows, on a few bodies' dofs, cost the humanoid four times MuJoCo's
/// projection without it).
pub fn solve_m2_columns(
    xt: &mut [Real],
    stride: usize,
    qld: &[Real],
    diag_sqrt_inv: &[Real],
    madr: &[i32],
    parentid: &[i32],
    simplenum: &[i32],
) {
    debug_assert!(stride.is_multiple_of(BLOCK));
    let nv = diag_sqrt_inv.len();
    let rows = xt[..nv * stride].as_chunks_mut::<BLOCK>().0;
    let nblock = stride / BLOCK;
    if nblock == 0 {
        return;
    }
    for i in (0..nv).rev() {
        if simplenum[i] != 0 {
            continue;
        }
        let (before, from_i) = rows.split_at_mut(i * nblock);
        let xi = &from_i[..nblock];
        if xi.iter().all(|b| *b == [0.0; BLOCK]) {
            continue;
        }
        let mut adr = madr[i] as usize + 1;
        let mut j = parentid[i];
        while j >= 0 {
            let scl = -qld[adr];
            let row = j as usize * nblock;
            for (xj, xi) in before[row..row + nblock].iter_mut().zip(xi) {
                for k in 0..BLOCK {
                    xj[k] = mul_add(xi[k], scl, xj[k]);
                }
            }
            adr += 1;
            j = parentid[j as usize];
        }
    }
    for (row, s) in rows.chunks_exact_mut(nblock).zip(diag_sqrt_inv) {
        for x in row.as_flattened_mut() {
            *x *= *s;
        }
    }
}

/// `res = xtᵀ xt` (`ncol × ncol`, both triangles) from `xt` (`nrow` rows of `stride`, a
/// multiple of [`BLOCK`], zero from column `ncol` on): `mat::sqr_mat_td` without a diagonal,
/// by blocks of four rows of `res` whose sums stay in registers over all rows of `xt` (the
/// lower triangle's blocks, up to three at a time), instead of one vector update of memory per
/// nonzero element. A row of `xt` is skipped where it is zero in the block's four columns (a
/// contact's rows come together and share their dofs). Each element is the same chain of fused
/// multiply-adds over the rows as in `sqr_mat_td`.
pub fn gram(res: &mut [Real], xt: &[Real], nrow: usize, ncol: usize, stride: usize) {
    debug_assert!(stride.is_multiple_of(BLOCK) && stride >= ncol);
    let blocks = xt[..nrow * stride].as_chunks::<BLOCK>().0;
    let nblock = stride / BLOCK;
    let res = &mut res[..ncol * ncol];
    for b in 0..ncol.div_ceil(BLOCK) {
        let mut first = 0;
        while first <= b {
            match b + 1 - first {
                1 => gram_blocks::<1>(res, blocks, nblock, ncol, b, first),
                2 => gram_blocks::<2>(res, blocks, nblock, ncol, b, first),
                _ => gram_blocks::<3>(res, blocks, nblock, ncol, b, first),
            }
            first += 3;
        }
    }
}

/// [`gram`]'s sums of rows `4 b..4 b + 4` of `res` with its columns in the `N` blocks from
/// `first`, all rows of `xt` at once, written to `res` at and below its diagonal and mirrored.
#[inline(always)]
fn gram_blocks<const N: usize>(
    res: &mut [Real],
    blocks: &[[Real; BLOCK]],
    nblock: usize,
    ncol: usize,
    b: usize,
    first: usize,
) {
    let mut acc = [[[0.0; BLOCK]; N]; BLOCK];
    for row in blocks.chunks_exact(nblock) {
        let a = row[b];
        if a == [0.0; BLOCK] {
            continue;
        }
        let x = &row[first..first + N];
        for (acc_r, &a_r) in acc.iter_mut().zip(&a) {
            for (acc_c, x_c) in acc_r.iter_mut().zip(x) {
                for k in 0..BLOCK {
                    acc_c[k] = mul_add(x_c[k], a_r, acc_c[k]);
                }
            }
        }
    }
    for (r, acc_r) in acc.iter().enumerate() {
        let i = b * BLOCK + r;
        if i >= ncol {
            break;
        }
        for (c, acc_c) in acc_r.iter().enumerate() {
            for (k, &v) in acc_c.iter().enumerate() {
                let j = (first + c) * BLOCK + k;
                if j <= i {
                    res[i * ncol + j] = v;
                    res[j * ncol + i] = v;
                }
            }
        }
    }
}

/// Whether factoring a dense Hessian afresh is cheaper than `nupdate` rank-one updates of its
/// factor (Newton's `HessianIncremental`), in rough counts of multiply-adds: an update walks
/// half of the `n × n` factor, a factorization takes `n³/3` (counted high for its short rows),
/// and forming `J' D J` again costs `form`.
pub fn refactor_cheaper_dense(nupdate: usize, n: usize, form: usize) -> bool {
    nupdate.saturating_mul(n * n / 2) > (n * n * n / 3).saturating_add(form)
}

/// For each row `r` of a sparse reverse-order factor (rows `rownnz`, `rowadr`, `colind`, the
/// diagonal last in each row), the elements a rank-one update by a vector whose last non-zero
/// is at `r` touches, into `path`: the update walks down from `r` along the elimination tree (a
/// row's parent is its last off-diagonal column: the vector fills in there) and merges every
/// row it visits twice with the vector. One pass, parents before children.
pub fn update_paths(rownnz: &[i32], rowadr: &[i32], colind: &[i32], path: &mut [u64]) {
    for r in 0..path.len() {
        let nnz = rownnz[r] as usize;
        let own = 2 * nnz as u64;
        path[r] = match nnz {
            0 | 1 => own,
            _ => own + path[colind[rowadr[r] as usize + nnz - 2] as usize],
        };
    }
}

/// Elements a rank-one update by a vector with non-zeros in the columns `cols` touches, from
/// [`update_paths`]: the longest of their paths (the paths of one body's dofs are one; a
/// contact's two bodies' paths merge where the bodies are coupled, so their union is at most
/// twice the longest: an estimate that errs towards keeping the updates, the exact build's
/// path).
pub fn update_cost_sparse(cols: impl Iterator<Item = i32>, path: &[u64]) -> u64 {
    cols.map(|c| path[c as usize]).max().unwrap_or(0)
}

/// How much cheaper than the updates a sparse refactorization must be counted before it is
/// chosen: the counts are rough (on the pile, refactorizations counted cheaper one to one cost
/// 1.85 M instructions each and saved 1.5 M of updates), and the updates are the exact build's
/// path, so a wrong choice towards them costs nothing against it. The stack's updates count
/// many times its refactorization and keep their gain.
const REFACTOR_MARGIN: u64 = 2;

/// Whether `nchange` rank-one updates of a sparse factor with `nnz` non-zeros in `n` rows can
/// cost more than refactoring it ([`refactor_cheaper_sparse`]), from the sizes alone: an update
/// touches each element at most twice, the refactorization takes at least `nnz² / 2n`
/// (half the sum of the squares of the row lengths) and four passes over the non-zeros. Most
/// calls stop here, before the passes over the factor and the Jacobian the full count needs.
pub fn refactor_possible_sparse(nchange: usize, nnz: usize, n: usize) -> bool {
    let (nchange, nnz, n) = (nchange as u64, nnz as u64, n.max(1) as u64);
    nchange * 2 * nnz > REFACTOR_MARGIN * (4 * nnz + nnz * nnz / (2 * n))
}

/// Whether factoring a sparse Hessian afresh (factor row lengths `rownnz`) is cheaper than
/// rank-one updates touching `update` elements in all ([`update_cost_sparse`]), by
/// [`REFACTOR_MARGIN`]: the factorization takes half the square of each row's length,
/// assembling, copying and compressing the factor four passes over its non-zeros, and forming
/// `J' D J` costs `form()` (called only when the rest does not decide: it walks every Jacobian
/// row).
pub fn refactor_cheaper_sparse(update: u64, rownnz: &[i32], form: impl FnOnce() -> u64) -> bool {
    let (factor, nnz) = rownnz.iter().fold((0u64, 0u64), |(f, n), &k| {
        let k = k as u64;
        (f + k * k / 2, n + k)
    });
    let direct = factor + 4 * nnz;
    update > REFACTOR_MARGIN * direct && update > REFACTOR_MARGIN * (direct + form())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::EPSILON;
    use proptest::prelude::*;

    #[test]
    fn mul_add_is_fused_when_it_says_so() {
        // (1 + e)(1 - e) = 1 - e²: a separate multiply rounds it to 1, one rounding keeps it
        let e = EPSILON;
        let r = mul_add(1.0 + e, 1.0 - e, -1.0);
        assert_eq!(r == -(e * e), FUSED);
        assert_eq!(r == 0.0, !FUSED);
    }

    #[test]
    fn chol_back_sub_solves_lt() {
        // L lower triangular (row-major, upper part junk), y = Lᵀ x
        let n = 5;
        let mut l = [7.0; 25];
        for i in 0..n {
            for k in 0..=i {
                l[i * n + k] = if i == k {
                    1.5 + i as Real
                } else {
                    0.3 * (i + 2 * k) as Real - 1.0
                };
            }
        }
        let x: [Real; 5] = [1.0, -2.0, 0.5, 3.0, -0.25];
        let mut y: [Real; 5] = core::array::from_fn(|k| (k..n).map(|i| l[i * n + k] * x[i]).sum());
        chol_back_sub(&mut y, &l, n);
        for k in 0..n {
            assert!(
                (y[k] - x[k]).abs() <= 16.0 * EPSILON,
                "{k}: {} {}",
                y[k],
                x[k]
            );
        }
    }

    #[test]
    fn solve_m2_columns_solves_each_column() {
        // dofs 0 <- 1 <- 2 and a simple dof 3; qld rows: diagonal, then ancestors nearest first
        let (parentid, madr, simplenum) = ([-1, 0, 1, -1], [0, 1, 3, 6], [0, 0, 0, 1]);
        let qld = [4.0, 2.0, 0.5, 9.0, -0.25, 0.75, 16.0];
        let diag_sqrt_inv: [Real; 4] = [0.5, 1.0 / 2.0f64.sqrt() as Real, 1.0 / 3.0, 0.25];
        let lower = |i: usize, j: usize| match (i, j) {
            (1, 0) => 0.5,
            (2, 1) => -0.25,
            (2, 0) => 0.75,
            _ => 0.0,
        };
        // two columns padded to a block: x known, y = Lᵀ D^1/2 x by rows of xt
        let x: [[Real; 2]; 4] = [[1.0, -1.0], [2.0, 0.0], [-3.0, 0.5], [0.25, 4.0]];
        let mut xt = [0.0; 16];
        for j in 0..4 {
            for c in 0..2 {
                xt[j * 4 + c] = (j..4)
                    .map(|i| (if i == j { 1.0 } else { lower(i, j) }) * x[i][c] / diag_sqrt_inv[i])
                    .sum();
            }
        }
        solve_m2_columns(
            &mut xt,
            4,
            &qld,
            &diag_sqrt_inv,
            &madr,
            &parentid,
            &simplenum,
        );
        for j in 0..4 {
            for c in 0..2 {
                assert!((xt[j * 4 + c] - x[j][c]).abs() <= 16.0 * EPSILON, "{j} {c}");
            }
            assert_eq!(&xt[j * 4 + 2..j * 4 + 4], &[0.0, 0.0], "padding stays zero");
        }
    }

    #[test]
    fn gram_is_the_product_with_the_transpose() {
        // every width around the blocks and the groups of three blocks; rows with zeros in
        // whole blocks (skipped) and in single columns
        for ncol in 0..15 {
            let nrow = 7;
            let stride = padded(ncol);
            let mat: Vec<Real> = (0..nrow * ncol)
                .map(|e| match e % 5 {
                    0 => 0.0,
                    k => (e as Real * 0.37).sin() * k as Real,
                })
                .collect();
            let mut xt = vec![1.0; nrow * stride];
            transpose_padded(&mut xt, &transposed(&mat, nrow, ncol), ncol, nrow, stride);
            for k in 0..nrow {
                assert!(xt[k * stride + ncol..(k + 1) * stride]
                    .iter()
                    .all(|&x| x == 0.0));
            }
            let mut res = vec![7.0; ncol * ncol];
            gram(&mut res, &xt, nrow, ncol, stride);
            let mut exact = vec![0.0; ncol * ncol];
            crate::math::mat::sqr_mat_td(&mut exact, &mat, None, nrow, ncol);
            for e in 0..ncol * ncol {
                let (i, j) = (e / ncol, e % ncol);
                let scale: Real = (0..nrow)
                    .map(|k| (mat[k * ncol + i] * mat[k * ncol + j]).abs())
                    .sum();
                assert!(
                    (res[e] - exact[e]).abs() <= 4.0 * EPSILON * scale,
                    "{ncol}: {i} {j}"
                );
                assert_eq!(res[e], res[j * ncol + i], "{ncol}: symmetric at {i} {j}");
            }
        }
    }

    /// `matᵀ` of the `nr × nc` matrix `mat`, unpadded.
    fn transposed(mat: &[Real], nr: usize, nc: usize) -> Vec<Real> {
        (0..nr * nc).map(|e| mat[(e % nr) * nc + e / nr]).collect()
    }

    #[test]
    fn refactor_only_when_the_updates_cost_more() {
        // 100 independent chains of 8 dofs (row r of a chain: r + 1 non-zeros, its parent r - 1)
        let rownnz: Vec<i32> = (0..800).map(|r| r % 8 + 1).collect();
        let rowadr: Vec<i32> = rownnz
            .iter()
            .scan(0, |a, &n| {
                *a += n;
                Some(*a - n)
            })
            .collect();
        let colind: Vec<i32> = (0..800).flat_map(|r| (r - r % 8)..=r).collect();
        let mut path = vec![0; 800];
        update_paths(&rownnz, &rowadr, &colind, &mut path);
        assert_eq!(&path[8..14], &[2, 6, 12, 20, 30, 42]);
        // a row on dofs 3 and 5 of the second chain visits its rows 5, 4, ..., 0 once
        let one = update_cost_sparse([11, 13].into_iter(), &path);
        assert_eq!(one, 2 * (1 + 2 + 3 + 4 + 5 + 6));
        // factor 100 * 100, assembly 4 * 3600, twice: a thousand updates stay cheaper
        assert!(!refactor_cheaper_sparse(0, &rownnz, || 0));
        assert!(!refactor_cheaper_sparse(1100 * one, &rownnz, || 1000));
        assert!(refactor_cheaper_sparse(1300 * one, &rownnz, || 1000));
        assert!(!refactor_cheaper_sparse(1300 * one, &rownnz, || 10000));
        // the bound from the sizes: 3600 non-zeros in 800 rows, 2 * (14400 + 8100) = 45000
        assert!(!refactor_possible_sparse(6, 3600, 800));
        assert!(refactor_possible_sparse(7, 3600, 800));
        // dense n = 30: n³/3 = 9000 against 450 per update
        assert!(!refactor_cheaper_dense(20, 30, 0));
        assert!(refactor_cheaper_dense(21, 30, 0));
    }

    proptest! {
        /// The fast dot is the exact one up to rounding, at every length around the blocks.
        #[test]
        fn dot_close_to_exact(v in proptest::collection::vec((-10.0f64..10.0, -10.0f64..10.0), 0..40)) {
            let a: Vec<Real> = v.iter().map(|x| x.0 as Real).collect();
            let b: Vec<Real> = v.iter().map(|x| x.1 as Real).collect();
            let scale: Real = a.iter().zip(&b).map(|(x, y)| (x * y).abs()).sum();
            let naive: Real = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            prop_assert!((dot(&a, &b) - naive).abs() <= 2.0 * a.len() as Real * EPSILON * scale);
            prop_assert!((dot_portable(&a, &b) - naive).abs() <= 2.0 * a.len() as Real * EPSILON * scale);
            let mut r = a.clone();
            add_to_scl(&mut r, &b, 0.5);
            for k in 0..a.len() {
                prop_assert!((r[k] - (a[k] + 0.5 * b[k])).abs() <= 2.0 * EPSILON * (a[k].abs() + b[k].abs()));
            }
        }
    }
}
