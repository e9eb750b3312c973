//! The compiler's own small vector and frame library (MuJoCo's `mjuu_*`, `user_util.cc`).
//!
//! These are not the engine's `mju_*` functions: MuJoCo's model compiler uses its own helpers,
//! whose arithmetic differs in places (`normvec` compares the *squared* norm with `mjEPS` and
//! leaves short vectors untouched; `mulquat` renormalizes its result). The compiler must use
//! these to reproduce MuJoCo's compiled numbers bit for bit.

/// MuJoCo's `mjEPS`.
pub const EPS: f64 = 1e-14;
/// MuJoCo's `mjMINVAL`.
pub const MINVAL: f64 = 1e-15;
/// MuJoCo's `mjPI`.
pub const PI: f64 = std::f64::consts::PI;

/// Number of size parameters a geom type uses (`mjGEOMINFO`): what the compiler checks and
/// the writer writes.
pub fn geominfo(ty: i32) -> usize {
    use mjrs_core::types::{
        GEOM_BOX, GEOM_CAPSULE, GEOM_CYLINDER, GEOM_ELLIPSOID, GEOM_PLANE, GEOM_SPHERE,
    };
    match ty {
        GEOM_PLANE | GEOM_ELLIPSOID | GEOM_BOX => 3,
        GEOM_SPHERE => 1,
        GEOM_CAPSULE | GEOM_CYLINDER => 2,
        _ => 0,
    }
}

/// MuJoCo's `mjMAX` macro: `a > b ? a : b` (with a NaN, the second operand).
pub fn c_max(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

/// MuJoCo's `mjMIN` macro: `a < b ? a : b` (with a NaN, the second operand).
pub fn c_min(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// The engine's `mju_max`: `a >= b ? a : b`.
pub fn mju_max(a: f64, b: f64) -> f64 {
    if a >= b {
        a
    } else {
        b
    }
}

/// The engine's `mju_min`: `a <= b ? a : b`.
pub fn mju_min(a: f64, b: f64) -> f64 {
    if a <= b {
        a
    } else {
        b
    }
}

/// Is this number defined (not NaN)? MuJoCo marks unset values with NaN (`mjuu_defined`).
pub fn defined(x: f64) -> bool {
    !x.is_nan()
}

/// Dot product of 3-vectors (`mjuu_dot3`).
pub fn dot3(a: &[f64], b: &[f64]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Distance between 3D points (`mjuu_dist3`).
pub fn dist3(a: &[f64], b: &[f64]) -> f64 {
    ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]))
        .sqrt()
}

/// Normalizes `v` in place and returns its previous length; a vector whose squared length is
/// below `mjEPS` is left as it is and 0 is returned (`mjuu_normvec`).
pub fn normvec(v: &mut [f64]) -> f64 {
    let mut nrm = 0.0;
    for x in v.iter() {
        nrm += x * x;
    }
    if nrm < EPS {
        return 0.0;
    }
    nrm = nrm.sqrt();
    for x in v.iter_mut() {
        *x /= nrm;
    }
    nrm
}

/// Rotation matrix (row-major) of a quaternion (`mjuu_quat2mat`; no normalization).
pub fn quat2mat(q: &[f64; 4]) -> [f64; 9] {
    let q00 = q[0] * q[0];
    let q11 = q[1] * q[1];
    let q22 = q[2] * q[2];
    let q33 = q[3] * q[3];
    let mut r = [0.0; 9];
    r[0] = q00 + q11 - q22 - q33;
    r[4] = q00 - q11 + q22 - q33;
    r[8] = q00 - q11 - q22 + q33;
    r[1] = 2.0 * (q[1] * q[2] - q[0] * q[3]);
    r[2] = 2.0 * (q[1] * q[3] + q[0] * q[2]);
    r[3] = 2.0 * (q[1] * q[2] + q[0] * q[3]);
    r[5] = 2.0 * (q[2] * q[3] - q[0] * q[1]);
    r[6] = 2.0 * (q[1] * q[3] - q[0] * q[2]);
    r[7] = 2.0 * (q[2] * q[3] + q[0] * q[1]);
    r
}

/// Product of two quaternions, renormalized (`mjuu_mulquat`).
pub fn mulquat(qa: &[f64; 4], qb: &[f64; 4]) -> [f64; 4] {
    let mut r = [
        qa[0] * qb[0] - qa[1] * qb[1] - qa[2] * qb[2] - qa[3] * qb[3],
        qa[0] * qb[1] + qa[1] * qb[0] + qa[2] * qb[3] - qa[3] * qb[2],
        qa[0] * qb[2] - qa[1] * qb[3] + qa[2] * qb[0] + qa[3] * qb[1],
        qa[0] * qb[3] + qa[1] * qb[2] - qa[2] * qb[1] + qa[3] * qb[0],
    ];
    normvec(&mut r);
    r
}

/// `mat * vec` for a row-major 3x3 matrix (`mjuu_mulvecmat`).
pub fn mulvecmat(vec: &[f64], mat: &[f64; 9]) -> [f64; 3] {
    [
        mat[0] * vec[0] + mat[1] * vec[1] + mat[2] * vec[2],
        mat[3] * vec[0] + mat[4] * vec[1] + mat[5] * vec[2],
        mat[6] * vec[0] + mat[7] * vec[1] + mat[8] * vec[2],
    ]
}

/// `R * M * R'` for 3x3 matrices (`mjuu_mulRMRT`).
pub fn mul_rmrt(r: &[f64; 9], m: &[f64; 9]) -> [f64; 9] {
    let tmp = mulmat(r, m);
    let mut res = [0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            res[3 * i + j] = tmp[3 * i] * r[3 * j]
                + tmp[3 * i + 1] * r[3 * j + 1]
                + tmp[3 * i + 2] * r[3 * j + 2];
        }
    }
    res
}

/// `A * B` for 3x3 matrices (`mjuu_mulmat`).
pub fn mulmat(a: &[f64; 9], b: &[f64; 9]) -> [f64; 9] {
    let mut res = [0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            res[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
        }
    }
    res
}

/// Transpose of a 3x3 matrix (`mjuu_transposemat`).
pub fn transposemat(m: &[f64; 9]) -> [f64; 9] {
    [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]]
}

/// A global axis expressed in the frame of `quat` (`mjuu_localaxis`).
pub fn localaxis(ag: &[f64], quat: &[f64; 4]) -> [f64; 3] {
    let qneg = [quat[0], -quat[1], -quat[2], -quat[3]];
    mulvecmat(ag, &quat2mat(&qneg))
}

/// A global position expressed in the frame (`pos`, `quat`) (`mjuu_localpos`).
pub fn localpos(pg: &[f64], pos: &[f64], quat: &[f64; 4]) -> [f64; 3] {
    let a = [pg[0] - pos[0], pg[1] - pos[1], pg[2] - pos[2]];
    localaxis(&a, quat)
}

/// The rotation from `parent` to `child` (`mjuu_localquat`).
pub fn localquat(child: &[f64; 4], parent: &[f64; 4]) -> [f64; 4] {
    let pneg = [parent[0], -parent[1], -parent[2], -parent[3]];
    mulquat(&pneg, child)
}

/// Cross product `b x c` (`mjuu_crossvec`).
pub fn crossvec(b: &[f64], c: &[f64]) -> [f64; 3] {
    [
        b[1] * c[2] - b[2] * c[1],
        b[2] * c[0] - b[0] * c[2],
        b[0] * c[1] - b[1] * c[0],
    ]
}

/// Unit normal of the triangle `a`, `b`, `c` (single-precision vertices) and the length of the
/// unnormalized cross product; a degenerate triangle gets the normal +z (`mjuu_makenormal`).
pub fn makenormal(a: &[f32], b: &[f32], c: &[f32]) -> ([f64; 3], f64) {
    let v1 = [
        f64::from(b[0] - a[0]),
        f64::from(b[1] - a[1]),
        f64::from(b[2] - a[2]),
    ];
    let v2 = [
        f64::from(c[0] - a[0]),
        f64::from(c[1] - a[1]),
        f64::from(c[2] - a[2]),
    ];
    let mut normal = crossvec(&v1, &v2);
    let res = normvec(&mut normal);
    if res < EPS {
        normal = [0.0, 0.0, 1.0];
    }
    (normal, res)
}

/// The minimal rotation taking +z to `vec` (`mjuu_z2quat`).
pub fn z2quat(vec: &[f64]) -> [f64; 4] {
    let mut axis = crossvec(&[0.0, 0.0, 1.0], vec);
    let s = normvec(&mut axis);
    if s < 1e-10 {
        axis = [1.0, 0.0, 0.0];
    }
    let ang = s.atan2(vec[2]);
    let (sn, cs) = ((ang / 2.0).sin(), (ang / 2.0).cos());
    [cs, axis[0] * sn, axis[1] * sn, axis[2] * sn]
}

/// The quaternion of the frame whose axes (matrix columns) are `x`, `y`, `z`
/// (`mjuu_frame2quat`).
pub fn frame2quat(x: &[f64], y: &[f64], z: &[f64]) -> [f64; 4] {
    let m = [x, y, z]; // m[column][row]
    let mut q = [0.0; 4];
    if m[0][0] + m[1][1] + m[2][2] > 0.0 {
        q[0] = 0.5 * (1.0 + m[0][0] + m[1][1] + m[2][2]).sqrt();
        q[1] = 0.25 * (m[1][2] - m[2][1]) / q[0];
        q[2] = 0.25 * (m[2][0] - m[0][2]) / q[0];
        q[3] = 0.25 * (m[0][1] - m[1][0]) / q[0];
    } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
        q[1] = 0.5 * (1.0 + m[0][0] - m[1][1] - m[2][2]).sqrt();
        q[0] = 0.25 * (m[1][2] - m[2][1]) / q[1];
        q[2] = 0.25 * (m[1][0] + m[0][1]) / q[1];
        q[3] = 0.25 * (m[2][0] + m[0][2]) / q[1];
    } else if m[1][1] > m[2][2] {
        q[2] = 0.5 * (1.0 - m[0][0] + m[1][1] - m[2][2]).sqrt();
        q[0] = 0.25 * (m[2][0] - m[0][2]) / q[2];
        q[1] = 0.25 * (m[1][0] + m[0][1]) / q[2];
        q[3] = 0.25 * (m[2][1] + m[1][2]) / q[2];
    } else {
        q[3] = 0.5 * (1.0 - m[0][0] - m[1][1] + m[2][2]).sqrt();
        q[0] = 0.25 * (m[0][1] - m[1][0]) / q[3];
        q[1] = 0.25 * (m[2][0] + m[0][2]) / q[3];
        q[2] = 0.25 * (m[2][1] + m[1][2]) / q[3];
    }
    normvec(&mut q);
    q
}

/// The inverse of the frame (`pos`, `quat`) (`mjuu_frameinvert`).
pub fn frameinvert(pos: &[f64; 3], quat: &[f64; 4]) -> ([f64; 3], [f64; 4]) {
    let p = localaxis(pos, quat);
    (
        [-p[0], -p[1], -p[2]],
        [quat[0], -quat[1], -quat[2], -quat[3]],
    )
}

/// Composes the child frame onto (`pos`, `quat`) in place (`mjuu_frameaccum`).
pub fn frameaccum(pos: &mut [f64; 3], quat: &mut [f64; 4], childpos: &[f64], childquat: &[f64; 4]) {
    let v = mulvecmat(childpos, &quat2mat(quat));
    pos[0] += v[0];
    pos[1] += v[1];
    pos[2] += v[2];
    *quat = mulquat(quat, childquat);
}

/// Composes (`pos`, `quat`) onto the child frame, writing the result into the child
/// (`mjuu_frameaccumChild`).
pub fn frameaccum_child(
    pos: &[f64; 3],
    quat: &[f64; 4],
    childpos: &mut [f64; 3],
    childquat: &mut [f64; 4],
) {
    let (mut p, mut q) = (*pos, *quat);
    frameaccum(&mut p, &mut q, childpos, childquat);
    *childpos = p;
    *childquat = q;
}

/// Undoes [`frameaccum`] of the child frame (`mjuu_frameaccuminv`).
pub fn frameaccuminv(
    pos: &mut [f64; 3],
    quat: &mut [f64; 4],
    childpos: &[f64],
    childquat: &[f64; 4],
) {
    let qneg = [childquat[0], -childquat[1], -childquat[2], -childquat[3]];
    *quat = mulquat(quat, &qneg);
    let v = mulvecmat(childpos, &quat2mat(quat));
    pos[0] -= v[0];
    pos[1] -= v[1];
    pos[2] -= v[2];
}

/// The full inertia (xx, yy, zz, xy, xz, yz) of a diagonal inertia in the frame `quat`
/// (`mjuu_globalinertia`).
pub fn globalinertia(local: &[f64; 3], quat: &[f64; 4]) -> [f64; 6] {
    let mat = quat2mat(quat);
    let tmp = [
        mat[0] * local[0],
        mat[3] * local[0],
        mat[6] * local[0],
        mat[1] * local[1],
        mat[4] * local[1],
        mat[7] * local[1],
        mat[2] * local[2],
        mat[5] * local[2],
        mat[8] * local[2],
    ];
    [
        mat[0] * tmp[0] + mat[1] * tmp[3] + mat[2] * tmp[6],
        mat[3] * tmp[1] + mat[4] * tmp[4] + mat[5] * tmp[7],
        mat[6] * tmp[2] + mat[7] * tmp[5] + mat[8] * tmp[8],
        mat[0] * tmp[1] + mat[1] * tmp[4] + mat[2] * tmp[7],
        mat[0] * tmp[2] + mat[1] * tmp[5] + mat[2] * tmp[8],
        mat[3] * tmp[2] + mat[4] * tmp[5] + mat[5] * tmp[8],
    ]
}

/// The parallel-axis correction of a point mass at `vec` (xx, yy, zz, xy, xz, yz)
/// (`mjuu_offcenter`).
pub fn offcenter(mass: f64, vec: &[f64; 3]) -> [f64; 6] {
    [
        mass * (vec[1] * vec[1] + vec[2] * vec[2]),
        mass * (vec[0] * vec[0] + vec[2] * vec[2]),
        mass * (vec[0] * vec[0] + vec[1] * vec[1]),
        -mass * vec[0] * vec[1],
        -mass * vec[0] * vec[2],
        -mass * vec[1] * vec[2],
    ]
}

/// The file name without its directory (`mjuu_strippath`).
pub fn strippath(filename: &str) -> &str {
    match filename.rfind(['/', '\\']) {
        Some(i) => &filename[i + 1..],
        None => filename,
    }
}

/// The file name without its extension (`mjuu_stripext`).
pub fn stripext(filename: &str) -> &str {
    match filename.rfind('.') {
        Some(i) => &filename[..i],
        None => filename,
    }
}

/// The extension with its dot, or "" (`mjuu_getext`).
pub fn getext(filename: &str) -> &str {
    match filename.rfind('.') {
        Some(i) => &filename[i..],
        None => "",
    }
}

/// Is this path absolute? A name served by a registered resource provider (`mem:a.xml`), a
/// leading slash or backslash, or a `:/` or `:\` anywhere (a drive or a URI scheme)
/// (`mjuu_isabspath`).
pub fn isabspath(path: &str) -> bool {
    mjrs_std::get_resource_provider(path).is_some()
        || path.starts_with(['/', '\\'])
        || path.contains(":/")
        || path.contains(":\\")
}

/// The full name of an asset file (`mjuu_makefullname`).
pub fn makefullname(filedir: &str, assetdir: &str, filename: &str) -> String {
    if isabspath(filename) {
        filename.to_string()
    } else if isabspath(assetdir) {
        format!("{assetdir}{filename}")
    } else {
        format!("{filedir}{assetdir}{filename}")
    }
}

/// The content type of a file by its extension, or "" (`mjuu_extToContentType`).
pub fn ext_to_content_type(filename: &str) -> &'static str {
    let ext = getext(filename).to_ascii_lowercase();
    match ext.as_str() {
        ".stl" => "model/stl",
        ".obj" => "model/obj",
        ".ply" => "model/ply",
        ".msh" => "model/vnd.mujoco.msh",
        ".png" => "image/png",
        _ => "",
    }
}

/// The `type/subtype` of a content type `type/subtype[;param=value]`, or `None` when it is
/// malformed (`mjuu_parseContentTypeAttrType` and `...Subtype`).
pub fn parse_content_type(text: &str) -> Option<(&str, &str)> {
    let n = text.find('/')?;
    if n == text.len() - 1 {
        return None;
    }
    let sub_end = match text.find(';') {
        None => text.len(),
        Some(m) => {
            if m < n {
                return None;
            }
            let s = text.find('=')?;
            if s < m + 1 {
                return None;
            }
            m
        }
    };
    let sub_end = text[n + 1..].find(';').map_or(sub_end, |m| n + 1 + m);
    Some((&text[..n], &text[n + 1..sub_end]))
}

/// The six tetrahedra of a grid cell whose corners are given as (x, y, z) =
/// (0,0,0), (1,0,0), (1,1,0), (0,1,0), (0,0,1), (1,0,1), (1,1,1), (0,1,1): every one shares the
/// cell's diagonal from the first corner to the seventh, which is how MuJoCo's `flexcomp` and
/// `composite` grids split cubes, so neighbouring cells' faces agree.
pub fn cube_tetrahedra<T: Copy>(corner: [T; 8]) -> [[T; 4]; 6] {
    const SPLIT: [[usize; 4]; 6] = [
        [0, 3, 1, 7],
        [0, 1, 4, 7],
        [1, 3, 2, 7],
        [1, 2, 6, 7],
        [1, 5, 4, 7],
        [1, 6, 5, 7],
    ];
    SPLIT.map(|t| t.map(|k| corner[k]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normvec_leaves_tiny_vectors() {
        let mut v = [1e-8, 0.0, 0.0];
        assert_eq!(normvec(&mut v), 0.0);
        assert_eq!(v, [1e-8, 0.0, 0.0]);
        let mut w = [3.0, 4.0];
        assert_eq!(normvec(&mut w), 5.0);
        assert_eq!(w, [0.6, 0.8]);
    }

    #[test]
    fn frame_round_trip() {
        let q = mulquat(&[1.0, 0.2, 0.3, 0.1], &[1.0, 0.0, 0.0, 0.0]);
        let (mut pos, mut quat) = ([1.0, 2.0, 3.0], q);
        frameaccum(
            &mut pos,
            &mut quat,
            &[0.5, -0.5, 0.25],
            &[0.9, 0.1, 0.0, 0.0],
        );
        let n = mulquat(&[0.9, 0.1, 0.0, 0.0], &[1.0, 0.0, 0.0, 0.0]);
        frameaccuminv(&mut pos, &mut quat, &[0.5, -0.5, 0.25], &n);
        for (a, b) in pos.iter().zip([1.0, 2.0, 3.0]) {
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn paths_and_content_types() {
        assert_eq!(strippath("a/b\\c.stl"), "c.stl");
        assert_eq!(getext("a.b/c.STL"), ".STL");
        assert_eq!(ext_to_content_type("m.STL"), "model/stl");
        assert!(isabspath("/x") && isabspath("C:\\x") && !isabspath("x/y"));
        assert_eq!(parse_content_type("model/obj"), Some(("model", "obj")));
        assert_eq!(parse_content_type("image/png;a=b"), Some(("image", "png")));
        assert_eq!(parse_content_type("model/"), None);
        assert_eq!(parse_content_type("model;a=b/x"), None);
    }
}
