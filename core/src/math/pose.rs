//! Poses (API reference › Poses): a position `[Real; 3]` with an orientation quaternion
//! `[Real; 4]`, mapping local coordinates `v` to `pos + quat * v`.

use super::quat::{mul_quat, neg_quat, rot_vec_quat};
use super::vec::{add_to3, normalize4, scl3};
use crate::Real;

/// Composition of two poses, `pose1 * pose2` (`mju_mulPose`): returns `(pos, quat)` with
/// `quat = normalize(quat1 * quat2)` and `pos = quat1 * pos2 + pos1`.
pub fn mul_pose(
    pos1: &[Real; 3],
    quat1: &[Real; 4],
    pos2: &[Real; 3],
    quat2: &[Real; 4],
) -> ([Real; 3], [Real; 4]) {
    let mut quat = mul_quat(quat1, quat2);
    normalize4(&mut quat);
    (trn_vec_pose(pos1, quat1, pos2), quat)
}

/// Inverse pose (`mju_negPose`): returns `(-quat⁻¹ * pos, quat⁻¹)`.
pub fn neg_pose(pos: &[Real; 3], quat: &[Real; 4]) -> ([Real; 3], [Real; 4]) {
    let quat = neg_quat(quat);
    (scl3(&rot_vec_quat(pos, &quat), -1.0), quat)
}

/// Transforms `vec` by the pose: `quat * vec + pos` (`mju_trnVecPose`).
pub fn trn_vec_pose(pos: &[Real; 3], quat: &[Real; 4], vec: &[Real; 3]) -> [Real; 3] {
    let mut res = rot_vec_quat(vec, quat);
    add_to3(&mut res, pos);
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::EPSILON;
    use proptest::prelude::*;

    fn close(a: &[Real], b: &[Real]) -> bool {
        a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 64.0 * EPSILON * y.abs().max(1.0))
    }

    #[test]
    fn identity_pose() {
        let one = [1.0, 0.0, 0.0, 0.0];
        let p = [1.0, 2.0, 3.0];
        assert_eq!(trn_vec_pose(&p, &one, &[1.0, 1.0, 1.0]), [2.0, 3.0, 4.0]);
        assert_eq!(
            neg_pose(&p, &one),
            ([-1.0, -2.0, -3.0], [1.0, -0.0, -0.0, -0.0])
        );
        assert_eq!(mul_pose(&p, &one, &p, &one), ([2.0, 4.0, 6.0], one));
    }

    // Reference values from MuJoCo 3.1.6 (`mju_mulPose`, `mju_negPose`, `mju_trnVecPose`),
    // compared bit for bit.
    #[cfg(not(feature = "f32"))]
    mod reference {
        use super::super::*;

        const QA: [f64; 4] = [-0.493977875, -0.815785517, -0.152987079, 0.258988036];
        const QB: [f64; 4] = [0.761789409, 0.0735649207, -0.370584183, -0.526243729];
        const V: [f64; 3] = [0.218126, 0.627034, 1.35106];
        const P1: [f64; 3] = [0.063396, -0.923178, -0.0513768];
        const P2: [f64; 3] = [-0.395634, 0.833539, -0.144655];
        const MUL_POSE: ([f64; 3], [f64; 4]) = (
            [0.199952675898802, -1.180382779085402, 0.8359994285814881],
            [
                -0.23669767842783024,
                -0.4813108493762866,
                -0.3437331274529106,
                0.7708187934858584,
            ],
        );
        const NEG_POSE: ([f64; 3], [f64; 4]) = (
            [
                -0.0871774143059915,
                -0.42413590201702234,
                -0.8194053226548125,
            ],
            [-0.493977875, 0.815785517, 0.152987079, -0.258988036],
        );
        const TRN_VEC_POSE: [f64; 3] =
            [0.1923067502179719, -2.4121787273074418, -0.2313005735556367];

        #[test]
        fn poses_match_mujoco_bitwise() {
            assert_eq!(mul_pose(&P1, &QA, &P2, &QB), MUL_POSE);
            assert_eq!(neg_pose(&P1, &QA), NEG_POSE);
            assert_eq!(trn_vec_pose(&P1, &QA, &V), TRN_VEC_POSE);
        }
    }

    fn arb_pose() -> impl Strategy<Value = ([Real; 3], [Real; 4])> {
        (
            prop::array::uniform3(-5.0f64..5.0),
            prop::array::uniform4(-1.0f64..1.0)
                .prop_filter("not tiny", |q| q.iter().map(|x| x * x).sum::<f64>() > 1e-2),
        )
            .prop_map(|(p, q)| {
                let mut q = q.map(|x| x as Real);
                normalize4(&mut q);
                (p.map(|x| x as Real), q)
            })
    }

    proptest! {
        #[test]
        fn neg_pose_inverts_mul_pose((p, q) in arb_pose(), v in prop::array::uniform3(-5.0f64..5.0)) {
            let v = v.map(|x| x as Real);
            let (pn, qn) = neg_pose(&p, &q);
            let (pi, qi) = mul_pose(&p, &q, &pn, &qn);
            prop_assert!(close(&pi, &[0.0; 3]));
            prop_assert!(close(&qi, &[1.0, 0.0, 0.0, 0.0]) || close(&qi, &[-1.0, 0.0, 0.0, 0.0]));
            let back = trn_vec_pose(&pn, &qn, &trn_vec_pose(&p, &q, &v));
            prop_assert!(close(&back, &v));
        }
    }
}
