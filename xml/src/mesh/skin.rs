//! Skins (`mjCSkin::Compile`) and MuJoCo's binary skin format, `.skn` (`mjCSkin::LoadSKN`).
//!
//! A skin is a mesh (vertices, texture coordinates, faces) deformed by bones: each bone is a
//! body with a bind pose and weights on some vertices. Compilation checks the sizes, resolves
//! the bodies and the material, normalizes the weights so each vertex's weights sum to one,
//! and normalizes the bind quaternions.

use mjrs_core::math::vec::normalize4;

use crate::asset::AssetFile;
use crate::error::XmlError;
use crate::spec::Skin;
use crate::util;

/// A compiled skin: the data of the `skin_*` arrays for one skin (MuJoCo's `mjCSkin` after
/// `Compile`). `rgba`, `inflate` and `group` are the spec's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompiledSkin {
    /// `skin_matid` (-1: none).
    pub matid: i32,
    /// `skin_vert`: 3 per vertex.
    pub vert: Vec<f32>,
    /// `skin_texcoord`: 2 per vertex, or empty.
    pub texcoord: Vec<f32>,
    /// `skin_face`: 3 per face.
    pub face: Vec<i32>,
    /// `skin_bonebodyid`.
    pub bodyid: Vec<i32>,
    /// `skin_bonebindpos`: 3 per bone.
    pub bindpos: Vec<f32>,
    /// `skin_bonebindquat`: 4 per bone, normalized.
    pub bindquat: Vec<f32>,
    /// `skin_bonevertid`, per bone.
    pub vertid: Vec<Vec<i32>>,
    /// `skin_bonevertweight`, per bone, normalized per vertex.
    pub vertweight: Vec<Vec<f32>>,
}

/// The data a skin file holds.
#[derive(Debug, Default)]
struct SkinData {
    vert: Vec<f32>,
    texcoord: Vec<f32>,
    face: Vec<i32>,
    bodyname: Vec<String>,
    bindpos: Vec<f32>,
    bindquat: Vec<f32>,
    vertid: Vec<Vec<i32>>,
    vertweight: Vec<Vec<f32>>,
}

/// `mjCSkin::Compile`.
///
/// `file` holds the bytes of `spec.file` (the caller resolves `meshdir` and the VFS: MuJoCo
/// looks skins up in the mesh directory); `None` when `spec.file` is empty or the file could
/// not be found (MuJoCo's "resource not found" error is then raised where MuJoCo opens the
/// file). `strippath` is `compiler/strippath` (messages quote the file without directory).
/// `body_id` and `material_id` find a body and a material by name.
pub fn compile_skin(
    spec: &Skin,
    id: usize,
    file: Option<&AssetFile>,
    strippath: bool,
    body_id: &dyn Fn(&str) -> Option<i32>,
    material_id: &dyn Fn(&str) -> Option<i32>,
) -> Result<CompiledSkin, XmlError> {
    let error = |message: String| XmlError::compile(message, &spec.name, id, &spec.info);

    let mut d = SkinData {
        vert: spec.vert.clone(),
        texcoord: spec.texcoord.clone(),
        face: spec.face.clone(),
        bodyname: spec.bodyname.clone(),
        bindpos: spec.bindpos.clone(),
        bindquat: spec.bindquat.clone(),
        vertid: spec.vertid.clone(),
        vertweight: spec.vertweight.clone(),
    };

    if !spec.file.is_empty() {
        if !d.vert.is_empty()
            || !d.texcoord.is_empty()
            || !d.face.is_empty()
            || !d.bodyname.is_empty()
            || !d.bindpos.is_empty()
            || !d.bindquat.is_empty()
            || !d.vertid.is_empty()
            || !d.vertweight.is_empty()
        {
            return Err(error(format!(
                "Data already exists, trying to load from skin file: {}",
                spec.file
            )));
        }
        let file_name = if strippath {
            util::strippath(&spec.file)
        } else {
            spec.file.as_str()
        };
        if !util::getext(file_name).eq_ignore_ascii_case(".skn") {
            return Err(error(format!("Unknown skin file type: {file_name}")));
        }
        let file = file.ok_or_else(|| {
            XmlError::model(format!(
                "resource not found via provider or OS filesystem: '{file_name}'"
            ))
        })?;
        let bytes = file.readable("SKN").map_err(error)?;
        d = load_skn(bytes, &file.path).map_err(error)?;
    }

    if d.vert.is_empty()
        || d.face.is_empty()
        || d.bodyname.is_empty()
        || d.bindpos.is_empty()
        || d.bindquat.is_empty()
        || d.vertid.is_empty()
        || d.vertweight.is_empty()
    {
        return Err(error("Missing data in skin".into()));
    }
    if !d.vert.len().is_multiple_of(3) {
        return Err(error("Vertex data must be multiple of 3".into()));
    }
    if !d.texcoord.is_empty() && d.texcoord.len() != 2 * d.vert.len() / 3 {
        return Err(error("Vertex and texcoord data incompatible size".into()));
    }
    if !d.face.len().is_multiple_of(3) {
        return Err(error("Face data must be multiple of 3".into()));
    }
    let nbone = d.bodyname.len();
    if d.bindpos.len() != 3 * nbone {
        return Err(error("Unexpected bindpos size in skin".into()));
    }
    if d.bindquat.len() != 4 * nbone {
        return Err(error("Unexpected bindquat size in skin".into()));
    }
    if d.vertid.len() != nbone {
        return Err(error("Unexpected vertid size in skin".into()));
    }
    if d.vertweight.len() != nbone {
        return Err(error("Unexpected vertweight size in skin".into()));
    }

    let bodyid = d
        .bodyname
        .iter()
        .map(|name| body_id(name).ok_or_else(|| error(format!("unknown body '{name}' in skin"))))
        .collect::<Result<Vec<i32>, XmlError>>()?;
    let matid = match material_id(&spec.material) {
        Some(m) => m,
        None if spec.material.is_empty() => -1,
        None => {
            return Err(error(format!(
                "unkown material '{}' in skin",
                spec.material
            )));
        }
    };

    // total weight of each vertex
    let nvert = d.vert.len() / 3;
    let mut total = vec![0f32; nvert];
    for (ids, weights) in d.vertid.iter().zip(&d.vertweight) {
        if weights.len() != ids.len() || ids.is_empty() {
            return Err(error(
                "vertid and vertweight must have same non-zero size in skin".into(),
            ));
        }
        for (&v, &w) in ids.iter().zip(weights) {
            if v < 0 || v as usize >= nvert {
                return Err(error(format!("vertid {v} out of range in skin")));
            }
            total[v as usize] += w;
        }
    }
    if let Some(i) = total.iter().position(|&w| f64::from(w) <= util::MINVAL) {
        return Err(error(format!(
            "vertex {i} must have positive total weight in skin"
        )));
    }
    for (ids, weights) in d.vertid.iter().zip(d.vertweight.iter_mut()) {
        for (&v, w) in ids.iter().zip(weights.iter_mut()) {
            *w /= total[v as usize];
        }
    }

    for q in d.bindquat.chunks_exact_mut(4) {
        let mut quat = [q[0], q[1], q[2], q[3]].map(f64::from);
        normalize4(&mut quat);
        for k in 0..4 {
            q[k] = quat[k] as f32;
        }
    }

    Ok(CompiledSkin {
        matid,
        vert: d.vert,
        texcoord: d.texcoord,
        face: d.face,
        bodyid,
        bindpos: d.bindpos,
        bindquat: d.bindquat,
        vertid: d.vertid,
        vertweight: d.vertweight,
    })
}

/// A little-endian `int` at byte `at`.
fn read_i32(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// `n` little-endian `float`s from byte `at`.
fn read_f32s(bytes: &[u8], at: usize, n: usize) -> Vec<f32> {
    bytes[at..at + 4 * n]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// `n` little-endian `int`s from byte `at`.
fn read_i32s(bytes: &[u8], at: usize, n: usize) -> Vec<i32> {
    bytes[at..at + 4 * n]
        .chunks_exact(4)
        .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// `mjCSkin::LoadSKN`: four `int` counts (vertices, texture coordinates, faces, bones), the
/// vertex, texture coordinate and face data, then per bone a 40-byte name, bind position,
/// bind quaternion, vertex count, vertex ids and weights.
fn load_skn(bytes: &[u8], name: &str) -> Result<SkinData, String> {
    let size = bytes.len() as i64;
    if bytes.is_empty() {
        return Err(format!("SKN file '{name}' is empty"));
    }
    if bytes.len() < 16 {
        return Err(format!("missing header in SKN file '{name}'"));
    }
    let nvert = read_i32(bytes, 0);
    let ntexcoord = read_i32(bytes, 4);
    let nface = read_i32(bytes, 8);
    let nbone = read_i32(bytes, 12);
    if nvert < 0 || ntexcoord < 0 || nface < 0 || nbone < 0 {
        return Err(format!("negative size in header of SKN file '{name}'"));
    }
    let (nvert, ntexcoord, nface) = (i64::from(nvert), i64::from(ntexcoord), i64::from(nface));
    if size < 16 + 12 * nvert + 8 * ntexcoord + 12 * nface {
        return Err(format!("insufficient data in SKN file '{name}'"));
    }

    // `cnt` counts 4-byte words after the header
    let mut cnt: i64 = 0;
    let word = |cnt: i64| 16 + 4 * cnt as usize;
    let mut d = SkinData {
        vert: read_f32s(bytes, word(cnt), 3 * nvert as usize),
        ..SkinData::default()
    };
    cnt += 3 * nvert;
    d.texcoord = read_f32s(bytes, word(cnt), 2 * ntexcoord as usize);
    cnt += 2 * ntexcoord;
    d.face = read_i32s(bytes, word(cnt), 3 * nface as usize);
    cnt += 3 * nface;

    let words = size / 4 - 4;
    for i in 0..nbone {
        if words - cnt < 18 {
            return Err(format!("insufficient data in SKN file '{name}', bone {i}"));
        }
        let raw = &bytes[word(cnt)..word(cnt) + 39];
        let len = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
        d.bodyname
            .push(String::from_utf8_lossy(&raw[..len]).into_owned());
        cnt += 10;
        d.bindpos.extend(read_f32s(bytes, word(cnt), 3));
        cnt += 3;
        d.bindquat.extend(read_f32s(bytes, word(cnt), 4));
        cnt += 4;
        let vcount = read_i32(bytes, word(cnt));
        cnt += 1;
        if vcount < 1 {
            return Err(format!(
                "vertex count must be positive in SKN file '{name}', bone {i}"
            ));
        }
        let vcount = i64::from(vcount);
        if words - cnt < 2 * vcount {
            return Err(format!(
                "insufficient vertex data in SKN file '{name}', bone {i}"
            ));
        }
        d.vertid.push(read_i32s(bytes, word(cnt), vcount as usize));
        cnt += vcount;
        d.vertweight
            .push(read_f32s(bytes, word(cnt), vcount as usize));
        cnt += vcount;
    }
    if size != 16 + 4 * cnt {
        return Err(format!("unexpected buffer size in SKN file '{name}'"));
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_skn_files_are_errors() {
        assert!(load_skn(&[], "s.skn").unwrap_err().contains("is empty"));
        assert!(load_skn(&[0; 8], "s.skn")
            .unwrap_err()
            .contains("missing header"));
        let mut b = Vec::new();
        for n in [4i32, 0, 1, 1] {
            b.extend_from_slice(&n.to_le_bytes());
        }
        b.resize(16 + 48 + 12, 0);
        assert!(load_skn(&b, "s.skn").unwrap_err().contains("bone 0"));
    }
}
