//! Spatial algebra (MuJoCo's `engine_util_spatial.c`): 6D motion and force vectors in
//! `[rotation; translation]` order, 10-vector inertias and 3D frames.
//!
//! A spatial inertia is stored as `[I_xx, I_yy, I_zz, I_xy, I_xz, I_yz, m c_x, m c_y, m c_z, m]`
//! (MuJoCo's `cinert` layout): rotational inertia about the frame origin, mass times the
//! center-of-mass offset, and mass.

use super::mat::rot_vec_mat_t;
use super::vec::{cross, dot3, norm3, normalize3, scl3, sub3, sub_from3};
use crate::Real;

/// Spatial cross product for motion vectors, `vel ×ₘ v` (`mju_crossMotion`).
pub fn cross_motion(vel: &[Real; 6], v: &[Real; 6]) -> [Real; 6] {
    let mut res = [
        -vel[2] * v[1] + vel[1] * v[2],
        vel[2] * v[0] - vel[0] * v[2],
        -vel[1] * v[0] + vel[0] * v[1],
        -vel[2] * v[4] + vel[1] * v[5],
        vel[2] * v[3] - vel[0] * v[5],
        -vel[1] * v[3] + vel[0] * v[4],
    ];
    res[3] += -vel[5] * v[1] + vel[4] * v[2];
    res[4] += vel[5] * v[0] - vel[3] * v[2];
    res[5] += -vel[4] * v[0] + vel[3] * v[1];
    res
}

/// Spatial cross product for force vectors, `vel ×f f` (`mju_crossForce`).
pub fn cross_force(vel: &[Real; 6], f: &[Real; 6]) -> [Real; 6] {
    let mut res = [
        -vel[2] * f[1] + vel[1] * f[2],
        vel[2] * f[0] - vel[0] * f[2],
        -vel[1] * f[0] + vel[0] * f[1],
        -vel[2] * f[4] + vel[1] * f[5],
        vel[2] * f[3] - vel[0] * f[5],
        -vel[1] * f[3] + vel[0] * f[4],
    ];
    res[0] += -vel[5] * f[4] + vel[4] * f[5];
    res[1] += vel[5] * f[3] - vel[3] * f[5];
    res[2] += -vel[4] * f[3] + vel[3] * f[4];
    res
}

/// Spatial inertia, in a frame displaced by `-dif` from the center of mass, of a body with
/// principal inertia `inert`, principal axes `mat` (local-to-global) and `mass`
/// (`mju_inertCom`).
pub fn inert_com(inert: &[Real; 3], mat: &[Real; 9], dif: &[Real; 3], mass: Real) -> [Real; 10] {
    // tmp = diag(inert) * matᵀ
    let tmp = [
        mat[0] * inert[0],
        mat[3] * inert[0],
        mat[6] * inert[0],
        mat[1] * inert[1],
        mat[4] * inert[1],
        mat[7] * inert[1],
        mat[2] * inert[2],
        mat[5] * inert[2],
        mat[8] * inert[2],
    ];
    // mat * tmp, lower triangle stored as xx, yy, zz, xy, xz, yz
    let rot = |i: usize, j: usize| {
        mat[3 * i] * tmp[j] + mat[3 * i + 1] * tmp[3 + j] + mat[3 * i + 2] * tmp[6 + j]
    };
    let mut res = [0.0; 10];
    res[0] = rot(0, 0) + mass * (dif[1] * dif[1] + dif[2] * dif[2]);
    res[1] = rot(1, 1) + mass * (dif[0] * dif[0] + dif[2] * dif[2]);
    res[2] = rot(2, 2) + mass * (dif[0] * dif[0] + dif[1] * dif[1]);
    res[3] = rot(0, 1) - mass * dif[0] * dif[1];
    res[4] = rot(0, 2) - mass * dif[0] * dif[2];
    res[5] = rot(1, 2) - mass * dif[1] * dif[2];
    res[6] = mass * dif[0];
    res[7] = mass * dif[1];
    res[8] = mass * dif[2];
    res[9] = mass;
    res
}

/// Product of a spatial inertia and a motion vector (`mju_mulInertVec`).
pub fn mul_inert_vec(i: &[Real; 10], v: &[Real; 6]) -> [Real; 6] {
    [
        i[0] * v[0] + i[3] * v[1] + i[4] * v[2] - i[8] * v[4] + i[7] * v[5],
        i[3] * v[0] + i[1] * v[1] + i[5] * v[2] + i[8] * v[3] - i[6] * v[5],
        i[4] * v[0] + i[5] * v[1] + i[2] * v[2] - i[7] * v[3] + i[6] * v[4],
        i[8] * v[1] - i[7] * v[2] + i[9] * v[3],
        i[6] * v[2] - i[8] * v[0] + i[9] * v[4],
        i[7] * v[0] - i[6] * v[1] + i[9] * v[5],
    ]
}

/// Motion axis of a degree of freedom in the center-of-mass frame (`mju_dofCom`): a hinge gives
/// `[axis; axis × offset]`, where `offset` goes from the joint anchor to the frame origin
/// (MuJoCo passes `subtree_com - xanchor`); a slide (`offset = None`) gives `[0; axis]`.
pub fn dof_com(axis: &[Real; 3], offset: Option<&[Real; 3]>) -> [Real; 6] {
    let (rot, lin) = match offset {
        Some(offset) => (*axis, cross(axis, offset)),
        None => ([0.0; 3], *axis),
    };
    [rot[0], rot[1], rot[2], lin[0], lin[1], lin[2]]
}

/// Product of the dof matrix `dof` (`n` rows of 6, i.e. the 6×n matrix transposed) with the
/// n-vector `vec` (`mju_mulDofVec`); `n = vec.len()`. Rows of fixed size: the one-dof case
/// (most bodies) is six products with no length-dependent loop.
pub fn mul_dof_vec(dof: &[[Real; 6]], vec: &[Real]) -> [Real; 6] {
    match (dof, vec) {
        (_, []) => [0.0; 6],
        ([d, ..], [v]) => core::array::from_fn(|k| d[k] * *v),
        _ => {
            // `mju_mulMatTVec` on the few rows of one joint, inline: rows added in order from
            // zero, a zero entry skipped, as the general kernel does
            let mut res = [0.0; 6];
            for (row, &v) in dof.iter().zip(vec) {
                if v != 0.0 {
                    for k in 0..6 {
                        res[k] += row[k] * v;
                    }
                }
            }
            res
        }
    }
}

/// Transforms the 6D motion (`flg_force = false`) or force (`flg_force = true`) vector `vec`
/// from a frame at `oldpos` to a frame at `newpos` rotated by `rotnew2old` (`None`: no
/// rotation) (`mju_transformSpatial`).
pub fn transform_spatial(
    vec: &[Real; 6],
    flg_force: bool,
    newpos: &[Real; 3],
    oldpos: &[Real; 3],
    rotnew2old: Option<&[Real; 9]>,
) -> [Real; 6] {
    let rot = [vec[0], vec[1], vec[2]];
    let lin = [vec[3], vec[4], vec[5]];
    let dif = sub3(newpos, oldpos);
    let (rot, lin) = if flg_force {
        (sub3(&rot, &cross(&dif, &lin)), lin)
    } else {
        (rot, sub3(&lin, &cross(&dif, &rot)))
    };
    let (rot, lin) = match rotnew2old {
        Some(mat) => (rot_vec_mat_t(&rot, mat), rot_vec_mat_t(&lin, mat)),
        None => (rot, lin),
    };
    [rot[0], rot[1], rot[2], lin[0], lin[1], lin[2]]
}

/// Completes a 3D frame in place (`mju_makeFrame`), stored as three rows: normalizes the x axis
/// (row 0); if the y axis (row 1) is shorter than 0.5 replaces it by (0, 1, 0), or by (0, 0, 1)
/// when x is nearly along y; makes y orthogonal to x and unit; sets z = x × y.
///
/// Returns `false` (where MuJoCo raises an error) if the x axis is shorter than 0.5; the frame
/// is still completed then.
pub fn make_frame(frame: &mut [Real; 9]) -> bool {
    let mut x = [frame[0], frame[1], frame[2]];
    let mut y = [frame[3], frame[4], frame[5]];
    let valid = normalize3(&mut x) >= 0.5;
    if norm3(&y) < 0.5 {
        y = if x[1] < 0.5 && x[1] > -0.5 {
            [0.0, 1.0, 0.0]
        } else {
            [0.0, 0.0, 1.0]
        };
    }
    let along_x = scl3(&x, dot3(&x, &y));
    sub_from3(&mut y, &along_x);
    normalize3(&mut y);
    let z = cross(&x, &y);
    *frame = [x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]];
    valid
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::mat::mul_mat_vec;
    use crate::real::EPSILON;
    use proptest::prelude::*;

    fn close(a: &[Real], b: &[Real]) -> bool {
        a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 64.0 * EPSILON * y.abs().max(1.0))
    }

    /// 6×6 matrix of `vel ×ₘ` from its definition.
    fn cross_motion_matrix(w: &[Real; 6]) -> [Real; 36] {
        let s = |v: [Real; 3]| [0.0, -v[2], v[1], v[2], 0.0, -v[0], -v[1], v[0], 0.0];
        let (wr, wl) = (s([w[0], w[1], w[2]]), s([w[3], w[4], w[5]]));
        let mut m = [0.0; 36];
        for i in 0..3 {
            for j in 0..3 {
                m[6 * i + j] = wr[3 * i + j];
                m[6 * (i + 3) + j] = wl[3 * i + j];
                m[6 * (i + 3) + j + 3] = wr[3 * i + j];
            }
        }
        m
    }

    #[test]
    fn cross_products_match_definitions() {
        let w = [0.3, -1.2, 0.5, 2.0, 0.7, -0.4];
        let v = [1.5, 0.25, -0.75, -1.0, 3.0, 0.5];
        let m = cross_motion_matrix(&w);
        let mut expect = [0.0; 6];
        mul_mat_vec(&mut expect, &m, &v, 6, 6);
        assert!(close(&cross_motion(&w, &v), &expect));
        // Force cross product is minus the transpose.
        let mut mt = [0.0; 36];
        crate::math::mat::transpose(&mut mt, &m, 6, 6);
        mul_mat_vec(&mut expect, &mt, &v, 6, 6);
        let f = cross_force(&w, &v);
        assert!(close(&f.map(|x| -x), &expect));
    }

    #[test]
    fn inertia_of_point_mass() {
        let eye = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        let i = inert_com(&[0.0; 3], &eye, &[1.0, 2.0, 3.0], 2.0);
        assert_eq!(i, [26.0, 20.0, 10.0, -4.0, -6.0, -12.0, 2.0, 4.0, 6.0, 2.0]);
        // Rotated principal inertia: R diag(I) Rᵀ.
        let rz = [0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        let i = inert_com(&[1.0, 2.0, 3.0], &rz, &[0.0; 3], 5.0);
        assert_eq!(i, [2.0, 1.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.0]);
        // Momentum of a point mass at c moving with v: [c × m v; m v].
        let i = inert_com(&[0.0; 3], &eye, &[1.0, 2.0, 3.0], 2.0);
        let h = mul_inert_vec(&i, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
        assert_eq!(h, [0.0, 6.0, -4.0, 2.0, 0.0, 0.0]);
        let h = mul_inert_vec(&i, &[0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        assert_eq!(h, [-6.0, -12.0, 10.0, -4.0, 2.0, 0.0]);
    }

    #[test]
    fn dofs() {
        let axis = [0.0, 0.0, 1.0];
        assert_eq!(dof_com(&axis, None), [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(
            dof_com(&axis, Some(&[1.0, 0.0, 0.0])),
            [0.0, 0.0, 1.0, 0.0, 1.0, 0.0]
        );
        let dof = [
            [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            [-1.0, 0.0, 1.0, 0.0, -1.0, 2.0],
        ];
        assert_eq!(mul_dof_vec(&dof, &[]), [0.0; 6]);
        assert_eq!(mul_dof_vec(&dof, &[2.0]), [2.0, 4.0, 6.0, 8.0, 10.0, 12.0]);
        assert_eq!(
            mul_dof_vec(&dof, &[2.0, 3.0]),
            [-1.0, 4.0, 9.0, 8.0, 7.0, 18.0]
        );
    }

    #[test]
    fn frames() {
        let mut f = [0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        assert!(make_frame(&mut f));
        assert_eq!(f, [0.0, 0.0, 1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 0.0]);
        let mut f = [0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        assert!(make_frame(&mut f));
        assert_eq!(f, [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
        let mut f = [1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0];
        assert!(make_frame(&mut f));
        assert_eq!(f, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
        let mut f = [0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        assert!(!make_frame(&mut f));
    }

    // Reference values from MuJoCo 3.1.6 (`mju_transformSpatial`), compared bit for bit.
    #[cfg(not(feature = "f32"))]
    mod reference {
        use super::super::*;

        const VEC: [f64; 6] = [0.270743, -2.02664, 0.176004, -15.7519, -0.567309, -0.15153];
        const NEWPOS: [f64; 3] = [-0.190295, -1.08171, -0.831212];
        const OLDPOS: [f64; 3] = [4.49363, -0.344617, 0.0146374];
        const ROT: [f64; 9] = [
            -0.8428150408203713,
            0.481149260332225,
            -0.2411601050105684,
            0.5287464507386894,
            0.8238595143877484,
            -0.20416339383939996,
            0.10044898107096127,
            -0.2995845286968871,
            -0.9487671539251713,
        ];
        const MOTION_ROT: [f64; 6] = [
            -1.2820855570574738,
            -1.5921269274374257,
            0.18148647602035936,
            10.1182575356311,
            -4.700660184479145,
            12.930818912672562,
        ];
        const FORCE_ROT: [f64; 6] = [
            -7.362620649255544,
            -14.48942629314599,
            -5.826662728693402,
            12.960754587174607,
            -8.001001907441532,
            4.058320275745889,
        ];

        #[test]
        fn transform_spatial_matches_mujoco_bitwise() {
            let t = |force| transform_spatial(&VEC, force, &NEWPOS, &OLDPOS, Some(&ROT));
            assert_eq!(t(false), MOTION_ROT);
            assert_eq!(t(true), FORCE_ROT);
        }
    }

    proptest! {
        #[test]
        fn transform_spatial_round_trip(
            v in prop::array::uniform6(-3.0f64..3.0),
            p in prop::array::uniform3(-3.0f64..3.0),
            q in prop::array::uniform3(-3.0f64..3.0),
            flg_force: bool,
        ) {
            let v = v.map(|x| x as Real);
            let (p, q) = (p.map(|x| x as Real), q.map(|x| x as Real));
            let rot = [0.0, 0.6, 0.8, 1.0, 0.0, 0.0, 0.0, 0.8, -0.6];
            let mut rot_t = [0.0; 9];
            crate::math::mat::transpose(&mut rot_t, &rot, 3, 3);
            let there = transform_spatial(&v, flg_force, &p, &q, Some(&rot));
            // Back: from p to q, rotating by rotᵀ; positions are expressed in the old frame.
            let back = transform_spatial(&there, flg_force, &[0.0; 3], &[0.0; 3], Some(&rot_t));
            let back = transform_spatial(&back, flg_force, &q, &p, None);
            prop_assert!(close(&back, &v));
        }
    }
}
