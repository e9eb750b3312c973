//! MuJoCo's binary mesh format, `.msh` (`mjCMesh::LoadMSH`).
//!
//! The file is four `int` counts (vertices, normals, texture coordinates, faces) followed by
//! the `float` vertices, normals and texture coordinates and the `int` faces, little-endian.
//! gmsh's `.msh` files are read by flexcomp only: as a mesh asset they fail the size checks.

use super::{LoadError, MeshData};

fn read_i32(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// `mjCMesh::LoadMSH`. Face normals and face texture coordinates are the faces' vertex ids;
/// with a left-handed `scale` the faces (only) have their second and third vertices swapped.
pub(super) fn load(bytes: &[u8], name: &str, righthand: bool) -> Result<MeshData, LoadError> {
    if bytes.is_empty() {
        return Err(format!("MSH file '{name}' is empty"));
    }
    if bytes.len() < 16 {
        return Err(format!("missing header in MSH file '{name}'"));
    }
    let nvbuf = read_i32(bytes, 0);
    let nnbuf = read_i32(bytes, 4);
    let ntbuf = read_i32(bytes, 8);
    let nfbuf = read_i32(bytes, 12);
    if nvbuf < 4
        || nfbuf < 0
        || nnbuf < 0
        || ntbuf < 0
        || (nnbuf > 0 && nnbuf != nvbuf)
        || (ntbuf > 0 && ntbuf != nvbuf)
    {
        return Err(format!("invalid sizes in MSH file '{name}'"));
    }
    let limit = |size: usize| (i32::MAX as usize / size) as i32;
    if nvbuf >= limit(12) || nnbuf >= limit(12) || ntbuf >= limit(8) || nfbuf >= limit(12) {
        return Err(format!("too large sizes in MSH file '{name}'."));
    }
    let (nv, nn, nt, nf) = (
        nvbuf as usize,
        nnbuf as usize,
        ntbuf as usize,
        nfbuf as usize,
    );
    if bytes.len() != 16 + 12 * nv + 12 * nn + 8 * nt + 12 * nf {
        return Err(format!("unexpected file size in MSH file '{name}'"));
    }

    let mut at = 16;
    let mut data = MeshData {
        vert: floats(&bytes[at..at + 12 * nv]),
        ..MeshData::default()
    };
    at += 12 * nv;
    if nn > 0 {
        data.normal = floats(&bytes[at..at + 12 * nn]);
        at += 12 * nn;
    }
    if nt > 0 {
        data.texcoord = floats(&bytes[at..at + 8 * nt]);
        at += 8 * nt;
    }
    if nf > 0 {
        let face: Vec<i32> = bytes[at..at + 12 * nf]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        data.facenormal = face.clone();
        if !data.texcoord.is_empty() {
            data.facetexcoord = face.clone();
        }
        data.face = face;
        if !righthand {
            for f in data.face.chunks_exact_mut(3) {
                f.swap(1, 2);
            }
        }
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msh(nv: i32, nn: i32, nt: i32, nf: i32, payload: usize) -> Vec<u8> {
        let mut b = Vec::new();
        for n in [nv, nn, nt, nf] {
            b.extend_from_slice(&n.to_le_bytes());
        }
        b.resize(16 + payload, 0);
        b
    }

    #[test]
    fn sizes_are_checked() {
        assert!(load(&[], "m.msh", true).unwrap_err().contains("is empty"));
        assert!(load(&[1, 2], "m.msh", true)
            .unwrap_err()
            .contains("missing header"));
        assert!(load(&msh(3, 0, 0, 0, 36), "m.msh", true)
            .unwrap_err()
            .contains("invalid sizes"));
        assert!(load(&msh(4, 3, 0, 0, 84), "m.msh", true)
            .unwrap_err()
            .contains("invalid sizes"));
        assert!(load(&msh(4, 0, 0, 1, 47), "m.msh", true)
            .unwrap_err()
            .contains("unexpected file size"));
        let ok = load(&msh(4, 4, 4, 1, 48 + 48 + 32 + 12), "m.msh", false).unwrap();
        assert_eq!(
            (ok.vert.len(), ok.normal.len(), ok.texcoord.len()),
            (12, 12, 8)
        );
        assert_eq!(
            (ok.face.len(), ok.facenormal.len(), ok.facetexcoord.len()),
            (3, 3, 3)
        );
    }
}
