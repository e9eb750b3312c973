//! Orientations and inertia frames: the alternative orientation specifiers (`axisangle`,
//! `xyaxes`, `zaxis`, `euler`) turned into quaternions (`ResolveOrientation`), and full inertia
//! matrices turned into principal axes (`FullInertia`).

use mjrs_core::math::eig3::eig3;

use crate::spec::{Orientation, OrientationType};
use crate::util::{crossvec, dot3, frame2quat, mulquat, normvec, z2quat, EPS, PI};

/// Sets `quat` from the active alternative specifier, if any (`ResolveOrientation`). `degree`:
/// angles are in degrees; `seq`: the Euler sequence (lower case: moving axes, upper case: fixed
/// axes). Returns MuJoCo's message on bad input.
pub fn resolve(
    quat: &mut [f64; 4],
    degree: bool,
    seq: &[u8; 3],
    alt: &Orientation,
) -> Result<(), &'static str> {
    match alt.kind {
        OrientationType::Quat => {}
        OrientationType::AxisAngle => {
            let mut aa = alt.axisangle;
            if degree {
                aa[3] = aa[3] / 180.0 * PI;
            }
            if normvec(&mut aa[..3]) < EPS {
                return Err("axisangle too small");
            }
            let ang2 = aa[3] / 2.0;
            *quat = [
                ang2.cos(),
                ang2.sin() * aa[0],
                ang2.sin() * aa[1],
                ang2.sin() * aa[2],
            ];
        }
        OrientationType::XYAxes => {
            let mut xy = alt.xyaxes;
            if normvec(&mut xy[..3]) < EPS {
                return Err("xaxis too small");
            }
            let d = dot3(&xy[..3], &xy[3..]);
            xy[3] -= xy[0] * d;
            xy[4] -= xy[1] * d;
            xy[5] -= xy[2] * d;
            if normvec(&mut xy[3..]) < EPS {
                return Err("yaxis too small");
            }
            let mut z = crossvec(&xy[..3], &xy[3..]);
            if normvec(&mut z) < EPS {
                return Err("cross(xaxis, yaxis) too small");
            }
            *quat = frame2quat(&xy[..3], &xy[3..], &z);
        }
        OrientationType::ZAxis => {
            let mut z = alt.zaxis;
            if normvec(&mut z) < EPS {
                return Err("zaxis too small");
            }
            *quat = z2quat(&z);
        }
        OrientationType::Euler => {
            let mut euler = alt.euler;
            if degree {
                for e in &mut euler {
                    *e = *e / 180.0 * PI;
                }
            }
            *quat = [1.0, 0.0, 0.0, 0.0];
            for (i, &axis) in seq.iter().enumerate() {
                let half = euler[i] / 2.0;
                let sa = half.sin();
                let mut qrot = [half.cos(), 0.0, 0.0, 0.0];
                match axis {
                    b'x' | b'X' => qrot[1] = sa,
                    b'y' | b'Y' => qrot[2] = sa,
                    b'z' | b'Z' => qrot[3] = sa,
                    _ => return Err("euler sequence can only contain x, y, z, X, Y, Z"),
                }
                // moving axes post-multiply, fixed axes pre-multiply
                *quat = if axis.is_ascii_lowercase() {
                    mulquat(quat, &qrot)
                } else {
                    mulquat(&qrot, quat)
                };
            }
            normvec(quat);
        }
    }
    Ok(())
}

/// A principal frame: its quaternion and the diagonal inertia in it.
pub type Principal = ([f64; 4], [f64; 3]);

/// Principal axes of a full inertia `(xx, yy, zz, xy, xz, yz)` (`FullInertia`): the frame
/// quaternion and the diagonal inertia, or `None` when `full[0]` is NaN (not given).
pub fn full_inertia(full: &[f64; 6]) -> Option<Result<Principal, &'static str>> {
    if full[0].is_nan() {
        return None;
    }
    let mat = [
        full[0], full[3], full[4], full[3], full[1], full[5], full[4], full[5], full[2],
    ];
    let e = eig3(&mat);
    if e.eigval[2] < EPS {
        return Some(Err("inertia must have positive eigenvalues"));
    }
    Some(Ok((e.quat, e.eigval)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alt(kind: OrientationType) -> Orientation {
        Orientation {
            kind,
            ..Orientation::default()
        }
    }

    #[test]
    fn euler_about_z_by_90_degrees() {
        let mut q = [1.0, 0.0, 0.0, 0.0];
        let mut a = alt(OrientationType::Euler);
        a.euler = [0.0, 0.0, 90.0];
        resolve(&mut q, true, b"xyz", &a).unwrap();
        let h = std::f64::consts::FRAC_1_SQRT_2;
        assert!((q[0] - h).abs() < 1e-15 && (q[3] - h).abs() < 1e-15);
    }

    #[test]
    fn bad_specifiers_are_errors() {
        let mut q = [1.0, 0.0, 0.0, 0.0];
        assert_eq!(
            resolve(&mut q, true, b"xyz", &alt(OrientationType::ZAxis)),
            Err("zaxis too small")
        );
        let mut a = alt(OrientationType::Euler);
        a.euler = [1.0, 0.0, 0.0];
        assert!(resolve(&mut q, true, b"xqz", &a).is_err());
        assert!(full_inertia(&[f64::NAN, 0.0, 0.0, 0.0, 0.0, 0.0]).is_none());
        assert!(full_inertia(&[1.0, 1.0, -1.0, 0.0, 0.0, 0.0])
            .unwrap()
            .is_err());
    }
}
