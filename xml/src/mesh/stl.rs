//! Binary STL files (`mjCMesh::LoadSTL`) and the removal of repeated vertices that follows
//! (`mjCMesh::RemoveRepeated`). MuJoCo 3.1.6 reads binary STL only: an ASCII file fails the
//! size checks, with a message that says so.

use super::{LoadError, MeshData};

/// Largest number of triangles MuJoCo accepts.
const MAX_FACES: i32 = 200_000;

/// `mjCMesh::LoadSTL`: one vertex per triangle corner, then repeated vertices merged. With a
/// left-handed `scale` the triangles' second and third corners are swapped.
pub(super) fn load(bytes: &[u8], name: &str, righthand: bool) -> Result<MeshData, LoadError> {
    if bytes.is_empty() {
        return Err(format!("STL file '{name}' is empty"));
    }
    if bytes.len() < 84 {
        return Err(format!("invalid header in STL file '{name}'"));
    }
    let nfaces = i32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]);
    if !(1..=MAX_FACES).contains(&nfaces) {
        return Err(format!(
            "number of faces should be between 1 and 200000 in STL file '{name}'; perhaps this \
             is an ASCII file?"
        ));
    }
    let nfaces = nfaces as usize;
    if nfaces * 50 != bytes.len() - 84 {
        return Err(format!(
            "STL file '{name}' has wrong size; perhaps this is an ASCII file?"
        ));
    }

    let stl = &bytes[84..];
    let mut face = vec![0i32; 3 * nfaces];
    let mut vert = Vec::with_capacity(9 * nfaces);
    for i in 0..nfaces {
        for j in 0..3 {
            // each triangle: normal (ignored), three corners, attribute count
            let at = 50 * i + 12 * (j + 1);
            let mut v = [0f32; 3];
            for (k, x) in v.iter_mut().enumerate() {
                let b = &stl[at + 4 * k..at + 4 * k + 4];
                *x = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                if !x.is_finite() {
                    return Err(format!("STL file '{name}' contains invalid vertices."));
                }
                if f64::from(x.abs()) > 2f64.powi(30) {
                    return Err(format!(
                        "vertex coordinates in STL file '{name}' exceed maximum bounds"
                    ));
                }
            }
            let id = (vert.len() / 3) as i32;
            if righthand || j == 0 {
                face[3 * i + j] = id;
            } else {
                face[3 * i + 3 - j] = id;
            }
            vert.extend_from_slice(&v);
        }
    }

    let mut data = MeshData {
        vert,
        face,
        ..MeshData::default()
    };
    remove_repeated(&mut data)?;
    Ok(data)
}

/// `mjCMesh::RemoveRepeated`: vertices are sorted by a single-precision key (`x + 0.01 y +
/// 0.0001 z`, with glibc's stable `qsort_r`), a vertex equal to its predecessor in that order
/// is replaced by it, and the survivors are packed in their original order.
pub(super) fn remove_repeated(data: &mut MeshData) -> Result<(), LoadError> {
    let nvert = data.nvert();
    let vert = &data.vert;
    let key = |i: usize| {
        (f64::from(vert[3 * i])
            + 1e-2 * f64::from(vert[3 * i + 1])
            + 1e-4 * f64::from(vert[3 * i + 2])) as f32
    };
    let keys: Vec<f32> = (0..nvert).map(key).collect();
    let mut index: Vec<usize> = (0..nvert).collect();
    index.sort_by(|&a, &b| {
        keys[a]
            .partial_cmp(&keys[b])
            .unwrap_or(std::cmp::Ordering::Greater)
    });

    let mut redirect: Vec<usize> = (0..nvert).collect();
    let mut repeated = 0;
    for i in 1..nvert {
        let (a, b) = (index[i], index[i - 1]);
        if vert[3 * a..3 * a + 3] == vert[3 * b..3 * b + 3] {
            redirect[a] = b;
            repeated += 1;
        }
    }
    if repeated == 0 {
        return Ok(());
    }

    // follow redirections to a vertex that stays
    for i in 0..nvert {
        let mut j = i;
        while redirect[j] != j {
            j = redirect[j];
        }
        redirect[i] = j;
    }

    // pack the survivors; `packed[i]` is the new id of a surviving vertex
    let mut packed = vec![-1i32; nvert];
    let mut j = 0;
    for i in 0..nvert {
        if redirect[i] == i {
            packed[i] = j as i32;
            data.vert.copy_within(3 * i..3 * i + 3, 3 * j);
            j += 1;
        }
    }
    for f in data.face.iter_mut() {
        *f = packed[redirect[*f as usize]];
        if *f < 0 || *f as usize >= nvert - repeated {
            return Err("error removing vertices from mesh".to_string());
        }
    }
    data.vert.truncate(3 * (nvert - repeated));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stl(tris: &[[[f32; 3]; 3]]) -> Vec<u8> {
        let mut b = vec![0u8; 80];
        b.extend_from_slice(&(tris.len() as i32).to_le_bytes());
        for t in tris {
            b.extend_from_slice(&[0u8; 12]);
            for v in t {
                for x in v {
                    b.extend_from_slice(&x.to_le_bytes());
                }
            }
            b.extend_from_slice(&[0u8; 2]);
        }
        b
    }

    #[test]
    fn shared_corners_are_merged() {
        let a = [0.0, 0.0, 0.0];
        let b = [1.0, 0.0, 0.0];
        let c = [0.0, 1.0, 0.0];
        let d = [0.0, 0.0, 1.0];
        let data = load(&stl(&[[a, b, c], [a, c, d]]), "t.stl", true).unwrap();
        assert_eq!(data.vert.len(), 12);
        assert_eq!(data.face, vec![0, 1, 2, 0, 2, 3]);
        let flipped = load(&stl(&[[a, b, c], [a, c, d]]), "t.stl", false).unwrap();
        assert_eq!(flipped.face, vec![0, 2, 1, 0, 3, 2]);
    }

    #[test]
    fn bad_files_are_errors() {
        assert!(load(&[], "t.stl", true).unwrap_err().contains("is empty"));
        assert!(load(&[0; 50], "t.stl", true)
            .unwrap_err()
            .contains("invalid header"));
        let mut b = stl(&[[[0.0; 3]; 3]]);
        b.pop();
        assert!(load(&b, "t.stl", true).unwrap_err().contains("wrong size"));
        let nan = stl(&[[[f32::NAN, 0.0, 0.0], [0.0; 3], [0.0; 3]]]);
        assert!(load(&nan, "t.stl", true)
            .unwrap_err()
            .contains("invalid vertices"));
    }
}
