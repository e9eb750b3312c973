//! 4x4 matrices in OpenGL's column-major layout, single precision, built the way the fixed
//! function matrix stack builds them (each operation multiplies on the right).

/// A column-major 4x4 matrix: element (row r, column c) at `r + 4 * c`.
pub type Mat4 = [f32; 16];

/// The identity.
pub const IDENTITY: Mat4 = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// `a * b`.
pub fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut r = [0.0; 16];
    for row in 0..4 {
        for col in 0..4 {
            r[row + 4 * col] = (0..4).map(|i| a[row + 4 * i] * b[i + 4 * col]).sum();
        }
    }
    r
}

/// `m * v` for a point or direction with w.
pub fn apply(m: &Mat4, v: [f32; 4]) -> [f32; 4] {
    core::array::from_fn(|row| (0..4).map(|i| m[row + 4 * i] * v[i]).sum())
}

/// `m * translation(x, y, z)` (`glTranslatef`).
pub fn translate(m: &Mat4, t: [f32; 3]) -> Mat4 {
    let mut tr = IDENTITY;
    tr[12..15].copy_from_slice(&t);
    mul(m, &tr)
}

/// `m * scaling(x, y, z)` (`glScalef`).
pub fn scale(m: &Mat4, s: [f32; 3]) -> Mat4 {
    let mut r = *m;
    for c in 0..3 {
        for row in 0..4 {
            r[row + 4 * c] *= s[c];
        }
    }
    r
}

/// `m * R` for a rotation of 180 degrees about x (the only `glRotatef` the renderer needs:
/// the back arrow head of a double arrow).
pub fn flip_x(m: &Mat4) -> Mat4 {
    scale(m, [1.0, -1.0, -1.0])
}

/// The rigid transform of a geom: translation by `pos`, then the row-major rotation `mat`.
pub fn pose(pos: &[f32; 3], mat: &[f32; 9]) -> Mat4 {
    [
        mat[0], mat[3], mat[6], 0.0, mat[1], mat[4], mat[7], 0.0, mat[2], mat[5], mat[8], 0.0,
        pos[0], pos[1], pos[2], 1.0,
    ]
}

/// Perspective frustum (`glFrustum`), computed in double precision as OpenGL does.
pub fn frustum(l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) -> Mat4 {
    let mut m = [0.0f64; 16];
    m[0] = 2.0 * n / (r - l);
    m[5] = 2.0 * n / (t - b);
    m[8] = (r + l) / (r - l);
    m[9] = (t + b) / (t - b);
    m[10] = -(f + n) / (f - n);
    m[11] = -1.0;
    m[14] = -2.0 * f * n / (f - n);
    m.map(|x| x as f32)
}

/// Orthographic projection (`glOrtho`).
pub fn ortho(l: f64, r: f64, b: f64, t: f64, n: f64, f: f64) -> Mat4 {
    let mut m = [0.0f64; 16];
    m[0] = 2.0 / (r - l);
    m[5] = 2.0 / (t - b);
    m[10] = -2.0 / (f - n);
    m[12] = -(r + l) / (r - l);
    m[13] = -(t + b) / (t - b);
    m[14] = -(f + n) / (f - n);
    m[15] = 1.0;
    m.map(|x| x as f32)
}

/// Symmetric perspective from a vertical field of view in degrees (`gluPerspective`).
pub fn perspective(fovy: f32, aspect: f32, near: f32, far: f32) -> Mat4 {
    let h = (f64::from(fovy) / 360.0 * core::f64::consts::PI).tan() * f64::from(near);
    let w = h * f64::from(aspect);
    frustum(-w, w, -h, h, f64::from(near), f64::from(far))
}

/// Reverse-Z depth: near maps to depth 1, far to 0 (with `[0, 1]` clip depth when `zero_one`,
/// else `[-1, 1]`), which spreads float depth precision evenly; the projection is multiplied
/// on the right of this.
pub fn reverse_z(zero_one: bool) -> Mat4 {
    if zero_one {
        scale(&translate(&IDENTITY, [0.0, 0.0, 0.5]), [1.0, 1.0, -0.5])
    } else {
        scale(&IDENTITY, [1.0, 1.0, -1.0])
    }
}

/// Normalize, or `+z` for a vector too short to have a direction.
pub fn normalize(v: [f32; 3]) -> [f32; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if len < 1e-10 {
        [0.0, 0.0, 1.0]
    } else {
        let s = 1.0 / len;
        [v[0] * s, v[1] * s, v[2] * s]
    }
}

/// `a x b`.
pub fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `a . b`.
pub fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The view matrix of an eye at `eye` looking along `forward` with `up` roughly up
/// (`gluLookAt` with a direction instead of a target).
pub fn look_at(eye: [f32; 3], forward: [f32; 3], up: [f32; 3]) -> Mat4 {
    let f = normalize(forward);
    let s = normalize(cross(f, up));
    let u = normalize(cross(s, f));
    [
        s[0],
        u[0],
        -f[0],
        0.0,
        s[1],
        u[1],
        -f[1],
        0.0,
        s[2],
        u[2],
        -f[2],
        0.0,
        -dot(s, eye),
        -dot(u, eye),
        dot(f, eye),
        1.0,
    ]
}

/// A unit vector orthogonal to `v` (the up direction of a light's view).
pub fn ortho_vec(v: [f32; 3]) -> [f32; 3] {
    let r = cross(v, [-1.0, 0.0, 0.0]);
    if dot(r, r) > 0.01 {
        normalize(r)
    } else {
        normalize(cross(v, [0.0, 1.0, 0.0]))
    }
}

/// Mirror image in the plane through `pos` with normal = the z column of `mat` (row-major).
pub fn reflection(pos: [f32; 3], mat: &[f32; 9]) -> Mat4 {
    let v = [mat[2], mat[5], mat[8]];
    let vvt: [[f32; 3]; 3] = core::array::from_fn(|i| core::array::from_fn(|j| v[i] * v[j]));
    [
        1.0 - 2.0 * vvt[0][0],
        -2.0 * vvt[0][1],
        -2.0 * vvt[0][2],
        0.0,
        -2.0 * vvt[1][0],
        1.0 - 2.0 * vvt[1][1],
        -2.0 * vvt[1][2],
        0.0,
        -2.0 * vvt[2][0],
        -2.0 * vvt[2][1],
        1.0 - 2.0 * vvt[2][2],
        0.0,
        2.0 * dot(vvt[0], pos),
        2.0 * dot(vvt[1], pos),
        2.0 * dot(vvt[2], pos),
        1.0,
    ]
}

/// The model transformation of a scene: rotation by the quaternion `q`, uniform `scale`, then
/// `translate`.
pub fn model_transform(translate: [f32; 3], q: [f32; 4], scale: f32) -> Mat4 {
    let [w, x, y, z] = q.map(f64::from);
    let n = (w * w + x * x + y * y + z * z).sqrt();
    let [w, x, y, z] = if n > 0.0 {
        [w / n, x / n, y / n, z / n]
    } else {
        [1.0, 0.0, 0.0, 0.0]
    };
    let r = [
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y - w * z),
        2.0 * (x * z + w * y),
        2.0 * (x * y + w * z),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z - w * x),
        2.0 * (x * z - w * y),
        2.0 * (y * z + w * x),
        1.0 - 2.0 * (x * x + y * y),
    ]
    .map(|v| v as f32);
    let mut m = pose(&translate, &r);
    for k in 0..12 {
        if k % 4 != 3 {
            m[k] *= scale;
        }
    }
    m
}

/// The inverse transpose of the upper 3x3 of `m` (transforms normals), column-major; zero
/// for a singular matrix.
pub fn normal_matrix(m: &Mat4) -> [f32; 9] {
    let a = |r: usize, c: usize| f64::from(m[r + 4 * c]);
    let cof = |r: usize, c: usize| {
        let (r1, r2) = ((r + 1) % 3, (r + 2) % 3);
        let (c1, c2) = ((c + 1) % 3, (c + 2) % 3);
        a(r1, c1) * a(r2, c2) - a(r1, c2) * a(r2, c1)
    };
    let det = a(0, 0) * cof(0, 0) + a(0, 1) * cof(0, 1) + a(0, 2) * cof(0, 2);
    if det == 0.0 || !det.is_finite() {
        return [0.0; 9];
    }
    // inverse transpose = cofactor matrix / det; column-major element (r, c) at r + 3c
    let mut n = [0.0; 9];
    for r in 0..3 {
        for c in 0..3 {
            n[r + 3 * c] = (cof(r, c) / det) as f32;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_at_maps_eye_to_origin_and_forward_to_minus_z() {
        let v = look_at([1.0, 2.0, 3.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]);
        let e = apply(&v, [1.0, 2.0, 3.0, 1.0]);
        assert!(e[..3].iter().all(|x| x.abs() < 1e-6));
        let f = apply(&v, [0.0, 1.0, 0.0, 0.0]);
        assert!((f[2] + 1.0).abs() < 1e-6);
    }

    #[test]
    fn reflection_is_an_involution_fixing_the_plane() {
        let mat = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        let r = reflection([0.0, 0.0, 2.0], &mat);
        let p = apply(&r, [1.0, 1.0, 5.0, 1.0]);
        assert_eq!(p, [1.0, 1.0, -1.0, 1.0]);
        let id = mul(&r, &r);
        assert!(id.iter().zip(IDENTITY).all(|(a, b)| (a - b).abs() < 1e-6));
    }

    #[test]
    fn normal_matrix_undoes_nonuniform_scale() {
        let m = scale(&IDENTITY, [2.0, 1.0, 0.5]);
        let n = normal_matrix(&m);
        assert_eq!([n[0], n[4], n[8]], [0.5, 1.0, 2.0]);
    }

    #[test]
    fn reverse_z_sends_near_to_one() {
        let p = mul(&reverse_z(true), &frustum(-1.0, 1.0, -1.0, 1.0, 1.0, 10.0));
        let near = apply(&p, [0.0, 0.0, -1.0, 1.0]);
        let far = apply(&p, [0.0, 0.0, -10.0, 1.0]);
        assert!((near[2] / near[3] - 1.0).abs() < 1e-6);
        assert!((far[2] / far[3]).abs() < 1e-6);
    }
}
