//! SdfLib's tricubic interpolation (`TriCubicInterpolation`): a leaf's 64 coefficients from the
//! values and derivatives at its 8 corners, and the polynomial's value and derivatives at a
//! point of the leaf, each summed in the library's order.

use super::NUM_COEFFICIENTS;

mod table;

/// Values kept per corner: distance, gradient (3), the mixed derivatives xy, xz, yz and xyz.
pub const VALUES_PER_VERTEX: usize = 8;

/// Corner values of a leaf.
pub type CornerValues = [[f32; VALUES_PER_VERTEX]; 8];

/// The monomial `c * x^a * y^b * z^c`, multiplied in SdfLib's order: coefficient first, then
/// the powers of x, y and z one factor at a time.
fn monomial(c: f32, f: [f32; 3], powers: [usize; 3]) -> f32 {
    let mut t = c;
    for (axis, &n) in powers.iter().enumerate() {
        for _ in 0..n {
            t *= f[axis];
        }
    }
    t
}

/// Exponents of x, y and z of coefficient `k`: x fastest.
fn powers(k: usize) -> [usize; 3] {
    [k % 4, (k / 4) % 4, k / 16]
}

/// `TriCubicInterpolation::interpolateValue`: the polynomial at `f` (cell coordinates in
/// [0, 1]³), the 64 terms summed in order after a leading 0.
pub fn interpolate_value(c: &[f32; NUM_COEFFICIENTS], f: [f32; 3]) -> f32 {
    let mut sum = 0.0;
    for (k, &ck) in c.iter().enumerate() {
        sum += monomial(ck, f, powers(k));
    }
    sum
}

/// `TriCubicInterpolation::interpolateGradient`: the polynomial's derivatives along x, y and z
/// at `f`; each sum starts at its first term, which is `exponent * coefficient`.
pub fn interpolate_gradient(c: &[f32; NUM_COEFFICIENTS], f: [f32; 3]) -> [f32; 3] {
    [
        derivative(c, f, [1, 0, 0]),
        derivative(c, f, [0, 1, 0]),
        derivative(c, f, [0, 0, 1]),
    ]
}

/// The derivative of the polynomial of order `d` (0 or 1 per axis) at `f`, as
/// `interpolateVertexValues` sums it: the terms whose exponents allow the derivative, each
/// `(product of the exponents) * coefficient` times the remaining powers, the first term starting
/// the sum.
fn derivative(c: &[f32; NUM_COEFFICIENTS], f: [f32; 3], d: [usize; 3]) -> f32 {
    let mut sum: Option<f32> = None;
    for (k, &ck) in c.iter().enumerate() {
        let mut p = powers(k);
        if (0..3).any(|a| p[a] < d[a]) {
            continue;
        }
        let mut scale = 1;
        for a in 0..3 {
            if d[a] == 1 {
                scale *= p[a];
                p[a] -= 1;
            }
        }
        let t = monomial(scale as f32 * ck, f, p);
        sum = Some(sum.map_or(t, |s| s + t));
    }
    sum.unwrap_or(0.0)
}

/// `interpolateVertexValues`: the corner values the polynomial gives at `f`, for a leaf of edge
/// `size` (derivatives in world units).
pub fn vertex_values(
    c: &[f32; NUM_COEFFICIENTS],
    f: [f32; 3],
    size: f32,
) -> [f32; VALUES_PER_VERTEX] {
    let sq = size * size;
    [
        interpolate_value(c, f),
        derivative(c, f, [1, 0, 0]) / size,
        derivative(c, f, [0, 1, 0]) / size,
        derivative(c, f, [0, 0, 1]) / size,
        derivative(c, f, [1, 1, 0]) / sq,
        derivative(c, f, [1, 0, 1]) / sq,
        derivative(c, f, [0, 1, 1]) / sq,
        derivative(c, f, [1, 1, 1]) / (sq * size),
    ]
}

/// `calculateCoefficients`: the polynomial through the corner values of a leaf of edge `size`
/// (derivatives scaled to cell units first), each coefficient a fixed combination of them.
pub fn coefficients(values: &CornerValues, size: f32) -> [f32; NUM_COEFFICIENTS] {
    let mut v = *values;
    for corner in &mut v {
        for x in &mut corner[1..4] {
            *x *= size;
        }
        let sq = size * size;
        for x in &mut corner[4..7] {
            *x *= sq;
        }
        corner[7] *= sq * size;
    }
    core::array::from_fn(|k| {
        let terms = &table::TERMS[usize::from(table::START[k])..usize::from(table::START[k + 1])];
        let term = |&(factor, at): &(i8, u8)| {
            f32::from(factor) * v[usize::from(at / 8)][usize::from(at % 8)]
        };
        let mut it = terms.iter();
        let first = it.next().map_or(0.0, term);
        it.fold(first, |s, t| s + term(t))
    })
}
