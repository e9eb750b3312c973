//! The few glm 0.9.8 operations SdfLib uses, in glm's order of operations (single precision, no
//! fused multiply-add), so that results are the C++ library's bit for bit. Matrices are
//! column-major as in glm: `m[column][row]`.

pub(super) type Vec3 = [f32; 3];
pub(super) type Mat3 = [[f32; 3]; 3];

pub(super) fn add(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub(super) fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn scale(a: Vec3, s: f32) -> Vec3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// `glm::dot`: the products summed left to right.
pub(super) fn dot(a: Vec3, b: Vec3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `glm::length`.
pub(super) fn length(a: Vec3) -> f32 {
    libm::sqrtf(dot(a, a))
}

/// `glm::normalize`: times `1 / sqrt` of the squared length.
pub(super) fn normalize(a: Vec3) -> Vec3 {
    scale(a, 1.0 / libm::sqrtf(dot(a, a)))
}

/// `glm::normalize` of a 2-vector.
pub(super) fn normalize2(a: [f32; 2]) -> [f32; 2] {
    let inv = 1.0 / libm::sqrtf(a[0] * a[0] + a[1] * a[1]);
    [a[0] * inv, a[1] * inv]
}

/// `glm::cross`.
pub(super) fn cross(x: Vec3, y: Vec3) -> Vec3 {
    [
        x[1] * y[2] - y[1] * x[2],
        x[2] * y[0] - y[2] * x[0],
        x[0] * y[1] - y[0] * x[1],
    ]
}

/// `glm::max` of floats: `x > y ? x : y`.
pub(super) fn max(x: f32, y: f32) -> f32 {
    if x > y {
        x
    } else {
        y
    }
}

/// `glm::min` of floats: `x < y ? x : y`.
pub(super) fn min(x: f32, y: f32) -> f32 {
    if x < y {
        x
    } else {
        y
    }
}

/// `glm::sign`: 1, -1, or 0 (also for NaN).
pub(super) fn sign(x: f32) -> f32 {
    f32::from(u8::from(0.0 < x)) - f32::from(u8::from(x < 0.0))
}

/// `glm::fract`.
pub(super) fn fract(x: f32) -> f32 {
    x - libm::floorf(x)
}

/// `m * v`.
pub(super) fn mul(m: &Mat3, v: Vec3) -> Vec3 {
    core::array::from_fn(|r| m[0][r] * v[0] + m[1][r] * v[1] + m[2][r] * v[2])
}

/// `glm::transpose(m) * v`.
pub(super) fn mul_transpose(m: &Mat3, v: Vec3) -> Vec3 {
    core::array::from_fn(|c| m[c][0] * v[0] + m[c][1] * v[1] + m[c][2] * v[2])
}

/// `glm::inverse` of a 3×3 matrix, by cofactors over the determinant as glm computes it.
pub(super) fn inverse(m: &Mat3) -> Mat3 {
    let one_over_det = 1.0
        / (m[0][0] * (m[1][1] * m[2][2] - m[2][1] * m[1][2])
            - m[1][0] * (m[0][1] * m[2][2] - m[2][1] * m[0][2])
            + m[2][0] * (m[0][1] * m[1][2] - m[1][1] * m[0][2]));
    let mut inv = [[0.0; 3]; 3];
    inv[0][0] = (m[1][1] * m[2][2] - m[2][1] * m[1][2]) * one_over_det;
    inv[1][0] = -(m[1][0] * m[2][2] - m[2][0] * m[1][2]) * one_over_det;
    inv[2][0] = (m[1][0] * m[2][1] - m[2][0] * m[1][1]) * one_over_det;
    inv[0][1] = -(m[0][1] * m[2][2] - m[2][1] * m[0][2]) * one_over_det;
    inv[1][1] = (m[0][0] * m[2][2] - m[2][0] * m[0][2]) * one_over_det;
    inv[2][1] = -(m[0][0] * m[2][1] - m[2][0] * m[0][1]) * one_over_det;
    inv[0][2] = (m[0][1] * m[1][2] - m[1][1] * m[0][2]) * one_over_det;
    inv[1][2] = -(m[0][0] * m[1][2] - m[1][0] * m[0][2]) * one_over_det;
    inv[2][2] = (m[0][0] * m[1][1] - m[1][0] * m[0][1]) * one_over_det;
    inv
}

/// `acosf` of the C library (glibc's with `std`, which MuJoCo's plugin library calls).
pub(super) fn acos(x: f32) -> f32 {
    #[cfg(feature = "std")]
    {
        x.acos()
    }
    #[cfg(not(feature = "std"))]
    {
        libm::acosf(x)
    }
}
