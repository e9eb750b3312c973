//! Quaternions (API reference › Quaternions), plus the derivatives `mjd_subQuat` and
//! `mjd_quatIntegrate` (API reference › Derivatives).
//!
//! Quaternions are `[w, x, y, z]` arrays, 3×3 matrices are row-major `[Real; 9]`. Every function
//! evaluates its expressions in MuJoCo's order, so results round exactly as in MuJoCo (the
//! functions using `sin`, `cos`, `atan2` or `tan` can differ by the last bit of those functions,
//! see [`scalar`](super::scalar)).

use super::mat::{mul_mat_mat3, rot_vec_mat};
use super::scalar::{abs, atan2, cos, sin, sqrt, tan};
use super::vec::{cross, dot3, normalize3, normalize4, scl3, unit4};
use crate::real::{MINVAL, PI};
use crate::Real;

/// Rotates `vec` by `quat` (`mju_rotVecQuat`). A zero vector gives zero, the identity quaternion
/// gives `vec` unchanged.
pub fn rot_vec_quat(vec: &[Real; 3], quat: &[Real; 4]) -> [Real; 3] {
    if vec[0] == 0.0 && vec[1] == 0.0 && vec[2] == 0.0 {
        return [0.0; 3];
    }
    if is_unit4(quat) {
        return *vec;
    }
    let [w, x, y, z] = *quat;
    // t = w * v + q_xyz × v, then v + 2 q_xyz × t.
    let t = [
        w * vec[0] + y * vec[2] - z * vec[1],
        w * vec[1] + z * vec[0] - x * vec[2],
        w * vec[2] + x * vec[1] - y * vec[0],
    ];
    [
        vec[0] + 2.0 * (y * t[2] - z * t[1]),
        vec[1] + 2.0 * (z * t[0] - x * t[2]),
        vec[2] + 2.0 * (x * t[1] - y * t[0]),
    ]
}

/// Whether `quat` is exactly the identity `[1, 0, 0, 0]` (MuJoCo's "null quat" test): entry by
/// entry, stopping at the first that differs (the array comparison compiles to a loop).
#[inline]
fn is_unit4(quat: &[Real; 4]) -> bool {
    quat[0] == 1.0 && quat[1] == 0.0 && quat[2] == 0.0 && quat[3] == 0.0
}

/// Conjugate quaternion, the opposite rotation (`mju_negQuat`).
#[inline]
pub fn neg_quat(quat: &[Real; 4]) -> [Real; 4] {
    [quat[0], -quat[1], -quat[2], -quat[3]]
}

/// Quaternion product `qa * qb` (`mju_mulQuat`).
#[inline]
pub fn mul_quat(qa: &[Real; 4], qb: &[Real; 4]) -> [Real; 4] {
    [
        qa[0] * qb[0] - qa[1] * qb[1] - qa[2] * qb[2] - qa[3] * qb[3],
        qa[0] * qb[1] + qa[1] * qb[0] + qa[2] * qb[3] - qa[3] * qb[2],
        qa[0] * qb[2] - qa[1] * qb[3] + qa[2] * qb[0] + qa[3] * qb[1],
        qa[0] * qb[3] + qa[1] * qb[2] - qa[2] * qb[1] + qa[3] * qb[0],
    ]
}

/// Product of `quat` and the pure quaternion `[0, axis]` (`mju_mulQuatAxis`).
#[inline]
pub fn mul_quat_axis(quat: &[Real; 4], axis: &[Real; 3]) -> [Real; 4] {
    [
        -quat[1] * axis[0] - quat[2] * axis[1] - quat[3] * axis[2],
        quat[0] * axis[0] + quat[2] * axis[2] - quat[3] * axis[1],
        quat[0] * axis[1] + quat[3] * axis[0] - quat[1] * axis[2],
        quat[0] * axis[2] + quat[1] * axis[1] - quat[2] * axis[0],
    ]
}

/// Quaternion of a rotation by `angle` around the unit vector `axis` (`mju_axisAngle2Quat`);
/// a zero angle gives exactly the identity.
pub fn axis_angle2quat(axis: &[Real; 3], angle: Real) -> [Real; 4] {
    if angle == 0.0 {
        return unit4();
    }
    let s = sin(angle * 0.5);
    [cos(angle * 0.5), axis[0] * s, axis[1] * s, axis[2] * s]
}

/// 3D rotational velocity that rotates by the orientation difference `quat` in time `dt`
/// (`mju_quat2Vel`); rotations larger than π are taken the other way round.
pub fn quat2vel(quat: &[Real; 4], dt: Real) -> [Real; 3] {
    let mut axis = [quat[1], quat[2], quat[3]];
    let sin_half = normalize3(&mut axis);
    let mut speed = 2.0 * atan2(sin_half, quat[0]);
    if speed > PI {
        speed -= 2.0 * PI;
    }
    speed /= dt;
    scl3(&axis, speed)
}

/// Difference of orientations as a 3D velocity `res` with `qb * quat(res) = qa`
/// (`mju_subQuat`).
pub fn sub_quat(qa: &[Real; 4], qb: &[Real; 4]) -> [Real; 3] {
    quat2vel(&mul_quat(&neg_quat(qb), qa), 1.0)
}

/// Rotation matrix of `quat` (`mju_quat2Mat`); the identity quaternion gives exactly the
/// identity.
pub fn quat2mat(quat: &[Real; 4]) -> [Real; 9] {
    if is_unit4(quat) {
        return [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    }
    let [w, x, y, z] = *quat;
    let (ww, wx, wy, wz) = (w * w, w * x, w * y, w * z);
    let (xx, xy, xz) = (x * x, x * y, x * z);
    let (yy, yz, zz) = (y * y, y * z, z * z);
    [
        ww + xx - yy - zz,
        2.0 * (xy - wz),
        2.0 * (xz + wy),
        2.0 * (xy + wz),
        ww - xx + yy - zz,
        2.0 * (yz - wx),
        2.0 * (xz - wy),
        2.0 * (yz + wx),
        ww - xx - yy + zz,
    ]
}

/// Unit quaternion of a rotation matrix (`mju_mat2Quat`). The largest of `|w|, |x|, |y|, |z|`
/// (judged by the trace, then by the diagonal) is computed from a square root and the others
/// from off-diagonal sums, then the result is normalized.
pub fn mat2quat(mat: &[Real; 9]) -> [Real; 4] {
    let m = mat;
    let mut q = [0.0; 4];
    if m[0] + m[4] + m[8] > 0.0 {
        q[0] = 0.5 * sqrt(1.0 + m[0] + m[4] + m[8]);
        q[1] = 0.25 * (m[7] - m[5]) / q[0];
        q[2] = 0.25 * (m[2] - m[6]) / q[0];
        q[3] = 0.25 * (m[3] - m[1]) / q[0];
    } else if m[0] > m[4] && m[0] > m[8] {
        q[1] = 0.5 * sqrt(1.0 + m[0] - m[4] - m[8]);
        q[0] = 0.25 * (m[7] - m[5]) / q[1];
        q[2] = 0.25 * (m[1] + m[3]) / q[1];
        q[3] = 0.25 * (m[2] + m[6]) / q[1];
    } else if m[4] > m[8] {
        q[2] = 0.5 * sqrt(1.0 - m[0] + m[4] - m[8]);
        q[0] = 0.25 * (m[2] - m[6]) / q[2];
        q[1] = 0.25 * (m[1] + m[3]) / q[2];
        q[3] = 0.25 * (m[5] + m[7]) / q[2];
    } else {
        q[3] = 0.5 * sqrt(1.0 - m[0] - m[4] + m[8]);
        q[0] = 0.25 * (m[3] - m[1]) / q[3];
        q[1] = 0.25 * (m[2] + m[6]) / q[3];
        q[2] = 0.25 * (m[5] + m[7]) / q[3];
    }
    normalize4(&mut q);
    q
}

/// Time derivative of `quat` under the 3D rotational velocity `vel` (`mju_derivQuat`).
pub fn deriv_quat(quat: &[Real; 4], vel: &[Real; 3]) -> [Real; 4] {
    [
        0.5 * (-vel[0] * quat[1] - vel[1] * quat[2] - vel[2] * quat[3]),
        0.5 * (vel[0] * quat[0] + vel[1] * quat[3] - vel[2] * quat[2]),
        0.5 * (-vel[0] * quat[3] + vel[1] * quat[0] + vel[2] * quat[1]),
        0.5 * (vel[0] * quat[2] - vel[1] * quat[1] + vel[2] * quat[0]),
    ]
}

/// Integrates `quat` in place over the 3D rotational velocity `vel` times `scale`, then
/// normalizes it (`mju_quatIntegrate`).
pub fn quat_integrate(quat: &mut [Real; 4], vel: &[Real; 3], scale: Real) {
    let mut axis = *vel;
    let angle = scale * normalize3(&mut axis);
    *quat = mul_quat(quat, &axis_angle2quat(&axis, angle));
    normalize4(quat);
}

/// Quaternion rotating the z-axis onto the direction of `vec` (`mju_quatZ2Vec`). A vector
/// shorter than `MINVAL`, or along +z, gives the identity; a vector along -z gives a half turn
/// around x.
pub fn quat_z2vec(vec: &[Real; 3]) -> [Real; 4] {
    const Z: [Real; 3] = [0.0, 0.0, 1.0];
    let mut dir = *vec;
    if normalize3(&mut dir) < MINVAL {
        return unit4();
    }
    let mut axis = cross(&Z, &dir);
    let sin_angle = normalize3(&mut axis);
    if abs(sin_angle) < MINVAL {
        return if dot3(&dir, &Z) < 0.0 {
            [0.0, 1.0, 0.0, 0.0]
        } else {
            unit4()
        };
    }
    axis_angle2quat(&axis, atan2(sin_angle, dot3(&dir, &Z)))
}

/// Quaternion of a sequence of Euler angles in radians (`mju_euler2Quat`). `seq` has three
/// characters among `xyzXYZ`: lower case rotates around the moving axes (intrinsic), upper case
/// around the fixed axes (extrinsic). Returns `None` (where MuJoCo raises an error) for any
/// other `seq`.
pub fn euler2quat(euler: &[Real; 3], seq: &str) -> Option<[Real; 4]> {
    let seq: &[u8; 3] = seq.as_bytes().try_into().ok()?;
    let mut axes = [0usize; 3];
    for (axis, c) in axes.iter_mut().zip(seq) {
        *axis = match c.to_ascii_lowercase() {
            b'x' => 1,
            b'y' => 2,
            b'z' => 3,
            _ => return None,
        };
    }
    let mut quat = unit4();
    for i in 0..3 {
        let mut rot = [cos(euler[i] / 2.0), 0.0, 0.0, 0.0];
        rot[axes[i]] = sin(euler[i] / 2.0);
        quat = if seq[i].is_ascii_lowercase() {
            mul_quat(&quat, &rot)
        } else {
            mul_quat(&rot, &quat)
        };
    }
    Some(quat)
}

/// Derivatives of [`sub_quat`] (`mjd_subQuat`): returns `(Da, Db)`, the 3×3 Jacobians of
/// `sub_quat(qa, qb)` with respect to (the tangent spaces of) `qa` and `qb`; `Db = -Daᵀ`.
pub fn d_sub_quat(qa: &[Real; 4], qb: &[Real; 4]) -> ([Real; 9], [Real; 9]) {
    let mut axis = sub_quat(qa, qb);
    let half_angle = 0.5 * normalize3(&mut axis);
    // Cross-product matrix of the axis.
    let k = [
        0.0, -axis[2], axis[1], axis[2], 0.0, -axis[0], -axis[1], axis[0], 0.0,
    ];
    let kk = mul_mat_mat3(&k, &k);
    let coef = 1.0
        - if half_angle < 6e-8 {
            1.0
        } else {
            half_angle / tan(half_angle)
        };
    let mut da = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    for i in 0..9 {
        da[i] += k[i] * half_angle;
    }
    for i in 0..9 {
        da[i] += kk[i] * coef;
    }
    let db = core::array::from_fn(|ij| -da[3 * (ij % 3) + ij / 3]);
    (da, db)
}

/// Derivatives of [`quat_integrate`] (`mjd_quatIntegrate`): returns `(Dquat, Dvel, Dscale)`, the
/// Jacobians of the integrated quaternion (in its tangent space) with respect to the initial
/// quaternion, to `vel` and to `scale` (see arXiv:1711.02508, eq. 183).
pub fn d_quat_integrate(vel: &[Real; 3], scale: Real) -> ([Real; 9], [Real; 9], [Real; 3]) {
    let s = [scale * vel[0], scale * vel[1], scale * vel[2]];
    let eye: [Real; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    let skew = [0.0, s[2], -s[1], -s[2], 0.0, s[0], s[1], -s[0], 0.0];
    let outer: [Real; 9] = core::array::from_fn(|ij| s[ij / 3] * s[ij % 3]);

    let xx = dot3(&s, &s);
    let x = sqrt(xx);
    // a = cos(x), b = sin(x)/x, c = (1-cos(x))/x², d = (x-sin(x))/x³.
    let a = cos(x);
    let (b, c, d);
    if abs(x) > 1.0 / 32.0 {
        b = sin(x) / x;
        c = (1.0 - a) / xx;
        d = (1.0 - b) / xx;
    } else {
        // Taylor expansions of order 6, Horner form.
        b = 1.0 + xx / 6.0 * (xx / 20.0 * (1.0 - xx / 42.0) - 1.0);
        c = (1.0 + xx / 12.0 * (xx / 30.0 * (1.0 - xx / 56.0) - 1.0)) / 2.0;
        d = (1.0 + xx / 20.0 * (xx / 42.0 * (1.0 - xx / 72.0) - 1.0)) / 6.0;
    }
    let dquat = core::array::from_fn(|i| a * eye[i] + b * skew[i] + c * outer[i]);
    let dvel = core::array::from_fn(|i| b * eye[i] + c * skew[i] + d * outer[i]);
    let dscale = rot_vec_mat(vel, &dvel);
    (dquat, dvel, dscale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::EPSILON;
    use proptest::prelude::*;

    fn close(a: &[Real], b: &[Real], tol: Real) -> bool {
        a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= tol * y.abs().max(1.0))
    }

    #[test]
    fn special_cases() {
        let q = [0.5, 0.5, -0.5, 0.5];
        assert_eq!(rot_vec_quat(&[0.0; 3], &q), [0.0; 3]);
        assert_eq!(rot_vec_quat(&[1.0, 2.0, 3.0], &unit4()), [1.0, 2.0, 3.0]);
        assert_eq!(axis_angle2quat(&[0.0, 0.0, 1.0], 0.0), unit4());
        assert_eq!(
            quat2mat(&unit4()),
            [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(quat_z2vec(&[0.0, 0.0, 1e-16]), unit4());
        assert_eq!(quat_z2vec(&[0.0, 0.0, 2.0]), unit4());
        assert_eq!(quat_z2vec(&[0.0, 0.0, -2.0]), [0.0, 1.0, 0.0, 0.0]);
        assert_eq!(euler2quat(&[0.1, 0.2, 0.3], "xyw"), None);
        assert_eq!(euler2quat(&[0.1, 0.2, 0.3], "xy"), None);
        assert_eq!(euler2quat(&[0.0; 3], "zYx"), Some(unit4()));
        assert_eq!(neg_quat(&q), [0.5, -0.5, 0.5, -0.5]);
        // 90° around z maps x to y.
        let h = core::f64::consts::FRAC_1_SQRT_2 as Real;
        let rz = [h, 0.0, 0.0, h];
        let v = rot_vec_quat(&[1.0, 0.0, 0.0], &rz);
        assert!(close(&v, &[0.0, 1.0, 0.0], 4.0 * EPSILON));
        let w = quat2vel(&rz, 0.5);
        assert!(close(&w, &[0.0, 0.0, PI], 4.0 * EPSILON));
        // An angle beyond π turns the other way.
        let w = quat2vel(&[-h, 0.0, 0.0, h], 1.0);
        assert!(close(&w, &[0.0, 0.0, -0.5 * PI], 4.0 * EPSILON));
        assert_eq!(
            mul_quat_axis(&unit4(), &[1.0, 2.0, 3.0]),
            [-0.0, 1.0, 2.0, 3.0]
        );
        assert_eq!(
            deriv_quat(&unit4(), &[2.0, 4.0, 6.0]),
            [-0.0, 1.0, 2.0, 3.0]
        );
        let (dq, dv, ds) = d_quat_integrate(&[0.0; 3], 1.0);
        assert_eq!(dq, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(dv, dq);
        assert_eq!(ds, [0.0; 3]);
    }

    // Reference values from MuJoCo 3.1.6's Python bindings (`mju_*`, `mjd_*`). Functions without
    // transcendental calls match bit for bit. The others match bit for bit when `scalar` calls
    // glibc (checked once by hand), and within a few ulp with `libm`, whose `sin`, `cos`, `atan2`
    // and `tan` can differ from glibc's by one ulp.
    #[cfg(not(feature = "f32"))]
    mod reference {
        use super::super::*;

        const QA: [f64; 4] = [-0.493977875, -0.815785517, -0.152987079, 0.258988036];
        const QB: [f64; 4] = [0.761789409, 0.0735649207, -0.370584183, -0.526243729];
        const QN: [f64; 4] = [0.3, -1.2, 0.7, 2.1];
        const V: [f64; 3] = [0.218126, 0.627034, 1.35106];
        const ROT_VEC_QUAT: [f64; 3] = [
            0.12891075021797188,
            -1.4890007273074417,
            -0.1799237735556367,
        ];
        const ROT_VEC_QUAT_N: [f64; 3] = [-10.00488596, -1.85599712, -3.662984079999999];
        const MUL_QUAT: [f64; 4] = [
            -0.2366976784387576,
            -0.48131084939850677,
            -0.3437331274687794,
            0.7708187935214439,
        ];
        const MUL_QUAT_AXIS: [f64; 4] = [
            -0.07603624414333199,
            -0.476838445081214,
            0.848926282065806,
            -1.145548544070124,
        ];
        const AXIS: [f64; 3] = [0.14489939959720544, 0.4165337929776098, 0.8974986146530004];
        const AXIS_ANGLE2QUAT: [f64; 4] = [
            0.4084874408841574,
            0.132258946917729,
            0.38019702612990325,
            0.8192043718890316,
        ];
        const QUAT2VEL: [f64; 3] = [197.80915836413197, 37.09583549468306, -62.79862091194677];
        const SUB_QUAT: [f64; 3] = [0.9814345935092698, 1.7048964319357005, -0.6026326643544733];
        const QUAT2MAT: [f64; 9] = [
            0.8190403016043835,
            0.5054780060200766,
            -0.27141291331639494,
            -0.006259432674737275,
            -0.4651616252076267,
            -0.8852036385340465,
            -0.5737018420639034,
            0.726716346039699,
            -0.3778221123072566,
        ];
        const QUAT2MAT_N: [f64; 9] = [
            -3.37,
            -2.94,
            -4.62,
            -0.41999999999999993,
            -5.27,
            3.66,
            -5.46,
            2.2199999999999998,
            2.5700000000000003,
        ];
        const MATS: [[f64; 9]; 4] = [
            [
                0.726315789,
                -0.442105263,
                -0.526315789,
                0.315789474,
                0.894736842,
                -0.315789474,
                0.610526316,
                0.0631578947,
                0.789473684,
            ],
            [
                0.726315789,
                -0.610526316,
                0.315789474,
                -0.526315789,
                -0.789473684,
                -0.315789474,
                0.442105263,
                0.0631578947,
                -0.894736842,
            ],
            [
                -0.789473684,
                -0.610526316,
                0.0631578947,
                -0.526315789,
                0.726315789,
                0.442105263,
                -0.315789474,
                0.315789474,
                -0.894736842,
            ],
            [
                -0.789473684,
                -0.315789474,
                -0.526315789,
                0.0631578947,
                -0.894736842,
                0.442105263,
                -0.610526316,
                0.315789474,
                0.726315789,
            ],
        ];
        const MAT2QUAT: [[f64; 4]; 4] = [
            [
                0.9233805168501342,
                0.10259783530484338,
                -0.3077935056167114,
                0.20519567050138904,
            ],
            [
                0.10259783530484338,
                0.9233805168501342,
                -0.3077935056167114,
                0.20519567050138904,
            ],
            [
                0.10259783530484338,
                -0.3077935056167114,
                0.9233805168501342,
                0.20519567050138904,
            ],
            [
                0.10259783530484338,
                -0.3077935056167114,
                0.20519567050138904,
                0.9233805168501342,
            ],
        ];
        const DERIV_QUAT: [f64; 4] = [
            -0.038018122071665994,
            0.13066980457835697,
            -0.7342040639056531,
            -0.09461947576243795,
        ];
        const QUAT_INTEGRATE: [f64; 4] = [
            -0.4943440601040967,
            -0.8181465785921223,
            -0.14873815412172775,
            0.2532530112086783,
        ];
        const QUAT_Z2VEC: [f64; 4] = [
            0.9740376313708318,
            -0.21381812137555326,
            0.07438080158837308,
            0.0,
        ];
        const EULER: [f64; 3] = [0.3, -1.1, 2.5];
        const EULER_XYZ_LLL: [f64; 4] = [
            0.3399261093615375,
            -0.45028038133573123,
            -0.2838646070264782,
            0.7753184527896775,
        ];
        const EULER_ZYX_ULU: [f64; 4] = [
            0.1916768645316959,
            0.8245777359746922,
            -0.2838646070264782,
            -0.45028038133573123,
        ];
        const EULER_XYZ_UUU: [f64; 4] = [
            0.1916768645316959,
            0.5306243127155232,
            -0.04206394766693994,
            0.8245777359746922,
        ];
        const EULER_ZXZ_LLL: [f64; 4] = [
            0.14490115726684757,
            -0.23708889976162983,
            0.4658227054331199,
            0.8401200600720808,
        ];
        const D_SUB_QUAT: ([f64; 9], [f64; 9]) = (
            [
                0.7061222086853882,
                0.4516997316697346,
                0.7992919379598351,
                -0.15093293268473867,
                0.8807911507792914,
                -0.5830575803662001,
                -0.9056044939758654,
                0.39837701314306967,
                0.6521927161431431,
            ],
            [
                -0.7061222086853882,
                0.15093293268473867,
                0.9056044939758654,
                -0.4516997316697346,
                -0.8807911507792914,
                -0.39837701314306967,
                -0.7992919379598351,
                0.5830575803662001,
                -0.6521927161431431,
            ],
        );
        const QC: [f64; 4] = [
            0.7617894089854473,
            0.07356492178419972,
            -0.37058418242308727,
            -0.5262437290631591,
        ];
        const D_SUB_QUAT_SMALL: ([f64; 9], [f64; 9]) = (
            [
                1.0,
                4.999999858030918e-10,
                1.0000000340562288e-09,
                -4.999999858030918e-10,
                1.0,
                -4.999999858030918e-10,
                -1.0000000340562288e-09,
                4.999999858030918e-10,
                1.0,
            ],
            [
                -1.0,
                4.999999858030918e-10,
                1.0000000340562288e-09,
                -4.999999858030918e-10,
                -1.0,
                -4.999999858030918e-10,
                -1.0000000340562288e-09,
                4.999999858030918e-10,
                -1.0,
            ],
        );
        const D_QUAT_INTEGRATE_BIG: ([f64; 9], [f64; 9], [f64; 3]) = (
            [
                0.7355307243654902,
                0.6298326153987557,
                -0.2496105568567571,
                -0.5972236132499469,
                0.776728477385795,
                0.2000420660626718,
                0.3198726454247926,
                0.0019362329166776326,
                0.9474585699179872,
            ],
            [
                0.9101444728552589,
                0.32765656399883647,
                -0.13756012259742176,
                -0.31657739773003124,
                0.9241417351305722,
                0.0863170197558936,
                0.16143222264164894,
                -0.017693295948864887,
                0.9821486337661305,
            ],
            [0.218126, 0.627034, 1.35106],
        );
        const D_QUAT_INTEGRATE_SMALL: ([f64; 9], [f64; 9], [f64; 3]) = (
            [
                0.999998890732829,
                0.0013511278759203533,
                -0.0006268864125493486,
                -0.0013509911035278978,
                0.999999063529139,
                0.00021854949781498597,
                0.0006271811138072564,
                -0.00021770233741892614,
                0.9999997796247471,
            ],
            [
                0.9999996302442485,
                0.000675552667831491,
                -0.00031346782391454526,
                -0.000675507077030562,
                0.9999996878430228,
                0.00010920417281424689,
                0.0003135660576746015,
                -0.00010892178599422958,
                0.9999999265415769,
            ],
            [0.21812600000000001, 0.627034, 1.3510600000000001],
        );

        fn ulp_close(a: &[f64], b: &[f64]) -> bool {
            a.iter()
                .zip(b)
                .all(|(x, y)| (x - y).abs() <= 16.0 * f64::EPSILON * y.abs().max(1e-3))
        }

        #[test]
        fn algebraic_functions_match_mujoco_bitwise() {
            assert_eq!(rot_vec_quat(&V, &QA), ROT_VEC_QUAT);
            assert_eq!(rot_vec_quat(&V, &QN), ROT_VEC_QUAT_N);
            assert_eq!(mul_quat(&QA, &QB), MUL_QUAT);
            assert_eq!(mul_quat_axis(&QA, &V), MUL_QUAT_AXIS);
            assert_eq!(quat2mat(&QA), QUAT2MAT);
            assert_eq!(quat2mat(&QN), QUAT2MAT_N);
            for (mat, quat) in MATS.iter().zip(&MAT2QUAT) {
                assert_eq!(mat2quat(mat), *quat);
            }
            assert_eq!(deriv_quat(&QA, &V), DERIV_QUAT);
        }

        #[test]
        fn trigonometric_functions_match_mujoco() {
            assert!(ulp_close(&axis_angle2quat(&AXIS, 2.3), &AXIS_ANGLE2QUAT));
            assert!(ulp_close(&quat2vel(&QA, 0.01), &QUAT2VEL));
            assert!(ulp_close(&sub_quat(&QA, &QB), &SUB_QUAT));
            let mut q = QA;
            quat_integrate(&mut q, &V, 0.01);
            assert!(ulp_close(&q, &QUAT_INTEGRATE));
            assert!(ulp_close(&quat_z2vec(&V), &QUAT_Z2VEC));
            assert!(ulp_close(
                &euler2quat(&EULER, "xyz").unwrap(),
                &EULER_XYZ_LLL
            ));
            assert!(ulp_close(
                &euler2quat(&EULER, "ZyX").unwrap(),
                &EULER_ZYX_ULU
            ));
            assert!(ulp_close(
                &euler2quat(&EULER, "XYZ").unwrap(),
                &EULER_XYZ_UUU
            ));
            assert!(ulp_close(
                &euler2quat(&EULER, "zxz").unwrap(),
                &EULER_ZXZ_LLL
            ));
        }

        #[test]
        fn derivatives_match_mujoco() {
            let (da, db) = d_sub_quat(&QA, &QB);
            assert!(ulp_close(&da, &D_SUB_QUAT.0) && ulp_close(&db, &D_SUB_QUAT.1));
            let (da, db) = d_sub_quat(&QC, &QB);
            assert!(ulp_close(&da, &D_SUB_QUAT_SMALL.0) && ulp_close(&db, &D_SUB_QUAT_SMALL.1));
            for (scale, expected) in [(0.5, D_QUAT_INTEGRATE_BIG), (0.001, D_QUAT_INTEGRATE_SMALL)]
            {
                let (dq, dv, ds) = d_quat_integrate(&V, scale);
                assert!(ulp_close(&dq, &expected.0), "{dq:?}");
                assert!(ulp_close(&dv, &expected.1), "{dv:?}");
                assert!(ulp_close(&ds, &expected.2), "{ds:?}");
            }
        }
    }

    fn arb_quat() -> impl Strategy<Value = [Real; 4]> {
        prop::array::uniform4(-1.0f64..1.0)
            .prop_filter("not tiny", |q| q.iter().map(|x| x * x).sum::<f64>() > 1e-2)
            .prop_map(|q| {
                let mut q = q.map(|x| x as Real);
                normalize4(&mut q);
                q
            })
    }

    proptest! {
        #[test]
        fn mul_quat_is_associative_and_keeps_unit_norm(
            a in arb_quat(), b in arb_quat(), c in arb_quat()
        ) {
            let ab_c = mul_quat(&mul_quat(&a, &b), &c);
            let a_bc = mul_quat(&a, &mul_quat(&b, &c));
            prop_assert!(close(&ab_c, &a_bc, 16.0 * EPSILON));
            let n: Real = ab_c.iter().map(|x| x * x).sum();
            prop_assert!((n - 1.0).abs() <= 16.0 * EPSILON);
        }

        #[test]
        fn mat2quat_inverts_quat2mat(q in arb_quat()) {
            let back = mat2quat(&quat2mat(&q));
            let neg = back.map(|x| -x);
            prop_assert!(close(&back, &q, 64.0 * EPSILON) || close(&neg, &q, 64.0 * EPSILON));
        }

        #[test]
        fn rotation_agrees_with_matrix(q in arb_quat(), v in prop::array::uniform3(-5.0f64..5.0)) {
            let v = v.map(|x| x as Real);
            let a = rot_vec_quat(&v, &q);
            let b = rot_vec_mat(&v, &quat2mat(&q));
            prop_assert!(close(&a, &b, 64.0 * EPSILON));
        }

        #[test]
        fn sub_quat_inverts_integration(q in arb_quat(), v in prop::array::uniform3(-1.0f64..1.0)) {
            let v = v.map(|x| x as Real);
            let mut qi = q;
            quat_integrate(&mut qi, &v, 1.0);
            prop_assert!(close(&sub_quat(&qi, &q), &v, 256.0 * EPSILON));
        }

        #[test]
        fn quat_z2vec_maps_z_to_vec(v in prop::array::uniform3(-5.0f64..5.0)) {
            let mut v = v.map(|x| x as Real);
            prop_assume!(v.iter().map(|x| x * x).sum::<Real>() > 1e-2);
            let z = rot_vec_quat(&[0.0, 0.0, 1.0], &quat_z2vec(&v));
            normalize3(&mut v);
            prop_assert!(close(&z, &v, 64.0 * EPSILON));
        }
    }
}
