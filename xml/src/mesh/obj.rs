//! Wavefront OBJ files (`mjCMesh::LoadOBJ`), read as MuJoCo 3.1.6 reads them: through
//! tinyobjloader (the version MuJoCo pins, git 1421a10), with its default options
//! (polygons triangulated by ear clipping), its handling of relative and missing indices,
//! and MuJoCo's use of the first shape only. Numbers are read as the tinyobjloader compiled
//! into MuJoCo's release library reads them, which is not upstream's `tryParseDouble`: see
//! [`strtold`].
//!
//! Not reproduced: tinyobjloader's material-change export triggered by `usemtl` with an empty
//! material name after an `mtllib` line (it can only change how a polygon referring to
//! vertices defined later in the file is triangulated).

use super::{strtold, LoadError, MeshData};

/// One corner of a polygon: vertex, normal and texture coordinate ids (-1: none)
/// (`tinyobj::vertex_index_t`, then `index_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Corner {
    v: i32,
    vn: i32,
    vt: i32,
}

/// What tinyobjloader's `LoadObj` produces that MuJoCo reads.
#[derive(Debug, Default)]
struct Obj {
    vertices: Vec<f32>,
    normals: Vec<f32>,
    texcoords: Vec<f32>,
    /// The corners of the first shape's triangles (`shapes[0].mesh.indices`), when there is a
    /// shape.
    first_shape: Option<Vec<Corner>>,
}

/// `mjCMesh::LoadOBJ`.
pub(super) fn load(bytes: &[u8], name: &str, righthand: bool) -> Result<MeshData, LoadError> {
    let obj = parse(bytes).ok_or_else(|| format!("could not parse OBJ file '{name}'"))?;
    let mut data = MeshData {
        vert: obj.vertices,
        normal: obj.normals,
        texcoord: obj.texcoords,
        ..MeshData::default()
    };
    if let Some(corners) = obj.first_shape {
        // tinyobjloader triangulates: every face has 3 corners
        let order = if righthand { [0, 1, 2] } else { [0, 2, 1] };
        for tri in corners.chunks_exact(3) {
            for k in order {
                let c = tri[k];
                data.face.push(c.v);
                if !data.normal.is_empty() {
                    data.facenormal.push(c.vn);
                }
                if !data.texcoord.is_empty() {
                    data.facetexcoord.push(c.vt);
                }
            }
        }
    }
    // OBJ's v axis points up, MuJoCo's down
    for uv in data.texcoord.chunks_exact_mut(2) {
        uv[1] = 1.0 - uv[1];
    }
    Ok(data)
}

/// A line as a C string: bytes up to the first NUL, reading 0 past the end.
struct Line<'a> {
    s: &'a [u8],
}

impl Line<'_> {
    fn at(&self, i: usize) -> u8 {
        self.s.get(i).copied().unwrap_or(0)
    }

    /// `strspn(s + i, set)`.
    fn span(&self, i: usize, set: &[u8]) -> usize {
        let mut n = 0;
        while i + n < self.s.len() && set.contains(&self.s[i + n]) {
            n += 1;
        }
        n
    }

    /// `strcspn(s + i, set)`.
    fn cspan(&self, i: usize, set: &[u8]) -> usize {
        let mut n = 0;
        while i + n < self.s.len() && !set.contains(&self.s[i + n]) {
            n += 1;
        }
        n
    }
}

fn is_space(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

fn is_new_line(c: u8) -> bool {
    c == b'\r' || c == b'\n' || c == 0
}

/// C's `atoi` (glibc: `(int) strtol(s, NULL, 10)`).
fn atoi(s: &[u8]) -> i32 {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let mut negative = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        negative = s[i] == b'-';
        i += 1;
    }
    let mut value: i64 = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        value = value
            .saturating_mul(10)
            .saturating_add(i64::from(s[i] - b'0'));
        i += 1;
    }
    if negative {
        value = -value;
    }
    value as i32
}

/// tinyobjloader's `parseReal` as compiled into MuJoCo 3.1.6: the next whitespace-delimited
/// token read by `strtold` (which ignores the delimiter: it stops at whitespace anyway),
/// clamped to `±FLT_MAX` and rounded to `float`; text that is no number reads as 0.
fn parse_real(line: &Line, pos: &mut usize) -> f32 {
    *pos += line.span(*pos, b" \t");
    let value = strtold::parse_f32(&line.s[*pos..]);
    *pos += line.cspan(*pos, b" \t\r");
    value
}

/// tinyobjloader's `fixIndex`: 1-based to 0-based, negative relative to the `n` elements read
/// so far; 0 is invalid.
fn fix_index(idx: i32, n: usize) -> Option<i32> {
    match idx {
        0 => None,
        i if i > 0 => Some(i - 1),
        i => Some((n as i32).wrapping_add(i)),
    }
}

/// tinyobjloader's `parseTriple`: `v`, `v/vt`, `v//vn` or `v/vt/vn`.
fn parse_triple(line: &Line, pos: &mut usize, nv: usize, nvn: usize, nvt: usize) -> Option<Corner> {
    const DELIM: &[u8] = b"/ \t\r";
    let mut c = Corner {
        v: -1,
        vn: -1,
        vt: -1,
    };
    c.v = fix_index(atoi(&line.s[*pos..]), nv)?;
    *pos += line.cspan(*pos, DELIM);
    if line.at(*pos) != b'/' {
        return Some(c);
    }
    *pos += 1;
    if line.at(*pos) == b'/' {
        *pos += 1;
        c.vn = fix_index(atoi(&line.s[*pos..]), nvn)?;
        *pos += line.cspan(*pos, DELIM);
        return Some(c);
    }
    c.vt = fix_index(atoi(&line.s[*pos..]), nvt)?;
    *pos += line.cspan(*pos, DELIM);
    if line.at(*pos) != b'/' {
        return Some(c);
    }
    *pos += 1;
    c.vn = fix_index(atoi(&line.s[*pos..]), nvn)?;
    *pos += line.cspan(*pos, DELIM);
    Some(c)
}

/// tinyobjloader's `safeGetline` loop: lines end at `\n`, `\r` or `\r\n`.
fn lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&bytes[start..i]);
                i += 1;
                start = i;
            }
            b'\r' => {
                out.push(&bytes[start..i]);
                i += if bytes.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < bytes.len() {
        out.push(&bytes[start..]);
    }
    out
}

/// The primitives read since the last export (`PrimGroup`).
#[derive(Default)]
struct Group {
    faces: Vec<Vec<Corner>>,
    /// Number of corners of each `l` line.
    lines: Vec<usize>,
    /// Number of corners of each `p` line.
    points: Vec<usize>,
}

impl Group {
    fn is_empty(&self) -> bool {
        self.faces.is_empty() && self.lines.is_empty() && self.points.is_empty()
    }
}

/// The shape being filled (`shape_t`): its triangles, and whether lines or points with
/// corners were exported to it.
#[derive(Default)]
struct Shape {
    corners: Vec<Corner>,
    lines_or_points: bool,
}

/// tinyobjloader's `LoadObj` with `triangulate` on; `None` when it fails (a face, line or
/// point with index 0 or no number).
fn parse(bytes: &[u8]) -> Option<Obj> {
    let mut v: Vec<f32> = Vec::new();
    let mut vn: Vec<f32> = Vec::new();
    let mut vt: Vec<f32> = Vec::new();
    let mut group = Group::default();
    let mut shape = Shape::default();
    let mut first_shape: Option<Vec<Corner>> = None;
    let mut push_shape = |shape: &Shape| {
        if first_shape.is_none() {
            first_shape = Some(shape.corners.clone());
        }
    };

    for raw in lines(bytes) {
        let s = raw.split(|&b| b == 0).next().unwrap_or(&[]);
        let line = Line { s };
        let mut pos = line.span(0, b" \t");
        let c0 = line.at(pos);
        if c0 == 0 || c0 == b'#' {
            continue;
        }
        let (c1, c2) = (line.at(pos + 1), line.at(pos + 2));

        if c0 == b'v' && is_space(c1) {
            pos += 2;
            for _ in 0..3 {
                v.push(parse_real(&line, &mut pos));
            }
            continue;
        }
        if c0 == b'v' && c1 == b'n' && is_space(c2) {
            pos += 3;
            for _ in 0..3 {
                vn.push(parse_real(&line, &mut pos));
            }
            continue;
        }
        if c0 == b'v' && c1 == b't' && is_space(c2) {
            pos += 3;
            for _ in 0..2 {
                vt.push(parse_real(&line, &mut pos));
            }
            continue;
        }
        if (c0 == b'l' || c0 == b'p') && is_space(c1) {
            pos += 2;
            let mut n = 0;
            while !is_new_line(line.at(pos)) {
                parse_triple(&line, &mut pos, v.len() / 3, vn.len() / 3, vt.len() / 2)?;
                n += 1;
                pos += line.span(pos, b" \t\r");
            }
            if c0 == b'l' {
                group.lines.push(n);
            } else {
                group.points.push(n);
            }
            continue;
        }
        if c0 == b'f' && is_space(c1) {
            pos += 2;
            pos += line.span(pos, b" \t");
            let mut face = Vec::with_capacity(3);
            while !is_new_line(line.at(pos)) {
                face.push(parse_triple(
                    &line,
                    &mut pos,
                    v.len() / 3,
                    vn.len() / 3,
                    vt.len() / 2,
                )?);
                pos += line.span(pos, b" \t\r");
            }
            group.faces.push(face);
            continue;
        }
        if (c0 == b'g' || c0 == b'o') && is_space(c1) {
            export(&mut shape, &group, &v);
            let push = if c0 == b'g' {
                !shape.corners.is_empty()
            } else {
                !shape.corners.is_empty() || shape.lines_or_points
            };
            if push {
                push_shape(&shape);
            }
            shape = Shape::default();
            group = Group::default();
            continue;
        }
        // usemtl, mtllib, t, s and unknown commands do not change the geometry
    }

    let exported = export(&mut shape, &group, &v);
    if exported || !shape.corners.is_empty() {
        push_shape(&shape);
    }
    Some(Obj {
        vertices: v,
        normals: vn,
        texcoords: vt,
        first_shape,
    })
}

/// tinyobjloader's `exportGroupsToShape` with `triangulate`: appends the group's polygons to
/// the shape as triangles; false when the group is empty.
fn export(shape: &mut Shape, group: &Group, v: &[f32]) -> bool {
    if group.is_empty() {
        return false;
    }
    for face in &group.faces {
        triangulate(face, v, &mut shape.corners);
    }
    if group.lines.iter().chain(&group.points).any(|&n| n > 0) {
        shape.lines_or_points = true;
    }
    true
}

/// The coordinates `axis` of vertex `vi`, `None` when out of range (tinyobjloader's bounds
/// checks on `size_t` indices: a negative id wraps to a huge one).
fn coord(v: &[f32], vi: i32, axis: usize) -> Option<f32> {
    let at = (i64::from(vi) as u64 as usize)
        .wrapping_mul(3)
        .wrapping_add(axis);
    v.get(at).copied()
}

/// Point in polygon (W. R. Franklin's `pnpoly`), in single precision.
fn pnpoly(vx: &[f32; 3], vy: &[f32; 3], tx: f32, ty: f32) -> bool {
    let mut c = false;
    let mut j = 2;
    for i in 0..3 {
        if ((vy[i] > ty) != (vy[j] > ty))
            && (tx < (vx[j] - vx[i]) * (ty - vy[i]) / (vy[j] - vy[i]) + vx[i])
        {
            c = !c;
        }
        j = i;
    }
    c
}

/// tinyobjloader's ear clipping of one polygon, in the plane of the two axes its first corner
/// spans most, all in single precision.
fn triangulate(face: &[Corner], v: &[f32], out: &mut Vec<Corner>) {
    let npolys = face.len();
    if npolys < 3 {
        return;
    }

    // the two axes to work in: drop the one the first non-degenerate corner's normal is along
    let mut axes = [1usize, 2];
    for k in 0..npolys {
        let ids = [
            face[k].v,
            face[(k + 1) % npolys].v,
            face[(k + 2) % npolys].v,
        ];
        if ids.iter().any(|&id| coord(v, id, 2).is_none()) {
            continue;
        }
        let p = |n: usize, a: usize| v[3 * ids[n] as usize + a];
        let e0 = [p(1, 0) - p(0, 0), p(1, 1) - p(0, 1), p(1, 2) - p(0, 2)];
        let e1 = [p(2, 0) - p(1, 0), p(2, 1) - p(1, 1), p(2, 2) - p(1, 2)];
        let cx = (e0[1] * e1[2] - e0[2] * e1[1]).abs();
        let cy = (e0[2] * e1[0] - e0[0] * e1[2]).abs();
        let cz = (e0[0] * e1[1] - e0[1] * e1[0]).abs();
        let eps = f32::EPSILON;
        if cx > eps || cy > eps || cz > eps {
            if !(cx > cy && cx > cz) {
                axes[0] = 0;
                if cz > cx && cz > cy {
                    axes[1] = 1;
                }
            }
            break;
        }
    }

    // signed area in those axes
    let mut area = 0.0f32;
    for k in 0..npolys {
        let (i0, i1) = (face[k].v, face[(k + 1) % npolys].v);
        let (Some(v0x), Some(v0y), Some(v1x), Some(v1y)) = (
            coord(v, i0, axes[0]),
            coord(v, i0, axes[1]),
            coord(v, i1, axes[0]),
            coord(v, i1, axes[1]),
        ) else {
            continue;
        };
        area += (v0x * v1y - v0y * v1x) * 0.5f32;
    }

    let mut remaining: Vec<Corner> = face.to_vec();
    let mut guess_vert = 0usize;
    let mut remaining_iterations = face.len();
    let mut previous_remaining = remaining.len();
    while remaining.len() > 3 && remaining_iterations > 0 {
        let npolys = remaining.len();
        if guess_vert >= npolys {
            guess_vert -= npolys;
        }
        if previous_remaining != npolys {
            previous_remaining = npolys;
            remaining_iterations = npolys;
        } else {
            remaining_iterations -= 1;
        }

        let mut ind = [remaining[0]; 3];
        let mut vx = [0f32; 3];
        let mut vy = [0f32; 3];
        for k in 0..3 {
            ind[k] = remaining[(guess_vert + k) % npolys];
            if let (Some(x), Some(y)) = (coord(v, ind[k].v, axes[0]), coord(v, ind[k].v, axes[1])) {
                vx[k] = x;
                vy[k] = y;
            }
        }
        let e0x = vx[1] - vx[0];
        let e0y = vy[1] - vy[0];
        let e1x = vx[2] - vx[1];
        let e1y = vy[2] - vy[1];
        let cross = e0x * e1y - e0y * e1x;
        // a reflex corner is no ear
        if cross * area < 0.0 {
            guess_vert += 1;
            continue;
        }

        // nor one with another corner inside
        let mut overlap = false;
        for other in 3..npolys {
            let idx = (guess_vert + other) % npolys;
            let ovi = remaining[idx].v;
            let (Some(tx), Some(ty)) = (coord(v, ovi, axes[0]), coord(v, ovi, axes[1])) else {
                continue;
            };
            if pnpoly(&vx, &vy, tx, ty) {
                overlap = true;
                break;
            }
        }
        if overlap {
            guess_vert += 1;
            continue;
        }

        out.extend_from_slice(&ind);
        remaining.remove((guess_vert + 1) % npolys);
    }

    if remaining.len() == 3 {
        out.extend_from_slice(&remaining);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_parse_like_atoi() {
        assert_eq!(atoi(b" -12/3"), -12);
        assert_eq!(atoi(b"+7"), 7);
        assert_eq!(atoi(b"x"), 0);
        assert_eq!(fix_index(-1, 4), Some(3));
        assert_eq!(fix_index(0, 4), None);
    }

    #[test]
    fn quads_are_triangulated_and_indices_fixed() {
        let text = b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nf 1/1 2/1 3/1 -1/1\n";
        let obj = parse(text).unwrap();
        let tris: Vec<i32> = obj.first_shape.unwrap().iter().map(|c| c.v).collect();
        assert_eq!(tris, vec![0, 1, 2, 0, 2, 3]);
        assert!(parse(b"v 0 0 0\nf 0 1 2\n").is_none());
    }

    #[test]
    fn only_the_first_shape_counts() {
        let text = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\no a\nf 1 2 3\no b\nf 1 3 4\n";
        let obj = parse(text).unwrap();
        assert_eq!(obj.first_shape.unwrap().len(), 3);
        let data = load(text, "x.obj", false).unwrap();
        assert_eq!(data.face, vec![0, 2, 1]);
    }
}
