//! Height fields: PNG and custom-format files, elevation data given in the XML (MuJoCo 3.1.6's
//! `mjCHField`, `user_objects.cc`).
//!
//! [`compile`] turns one [`HField`] spec into `hfield_size`, `hfield_nrow`, `hfield_ncol` and
//! `hfield_data`: `nrow` x `ncol` elevations, row 0 at -y, normalized to `[0, 1]` in
//! single precision exactly as MuJoCo computes them.

use crate::asset::AssetFile;
use crate::error::XmlError;
use crate::limits;
use crate::spec::HField;
use crate::texture::png::{load_png_cached, Want};
use crate::util;

/// A compiled height field: the `hfield_*` fields of one height field.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledHField {
    /// `hfield_size`: x radius, y radius, elevation, base.
    pub size: [f64; 4],
    /// `hfield_nrow`.
    pub nrow: i32,
    /// `hfield_ncol`.
    pub ncol: i32,
    /// `hfield_data`: `nrow * ncol` elevations in `[0, 1]`, row by row.
    pub data: Vec<f32>,
}

/// `mjCHField::Compile`.
///
/// The caller resolves the file name (`meshdir`, `strippath`, the VFS: MuJoCo looks height
/// fields up in the *mesh* directory) and passes its bytes as `file` (`None` when `spec.file`
/// is empty or the file could not be found: MuJoCo's "resource not found" error is then raised
/// after the size and content-type checks, where MuJoCo opens the file). Messages quote
/// `spec.file` as given (MuJoCo quotes it after `strippath`).
pub fn compile(
    spec: &HField,
    id: usize,
    file: Option<&AssetFile>,
) -> Result<CompiledHField, XmlError> {
    let error = |message: String| XmlError::compile(message, &spec.name, id, &spec.info);

    // A file replaces the size given in the spec (`CopyFromSpec`).
    let (mut nrow, mut ncol) = if spec.file.is_empty() {
        (spec.nrow, spec.ncol)
    } else {
        (0, 0)
    };

    // Elevation given in the spec.
    let mut data: Vec<f32> = Vec::new();
    if !spec.userdata.is_empty() {
        let n = nrow.checked_mul(ncol).filter(|&n| n > 0);
        let n = n.ok_or_else(|| error("could not allocate buffers in hfield".into()))? as usize;
        // MuJoCo copies nrow*ncol values without looking at the length: a shorter vector
        // (possible only through the spec API, the XML reader checks it) is rejected here.
        let values = spec
            .userdata
            .get(..n)
            .ok_or_else(|| error("elevation data length must match nrow*ncol".into()))?;
        data = values.to_vec();
    }

    if spec.size.iter().any(|&s| s <= 0.0) {
        return Err(error("size parameter is not positive in hfield".into()));
    }

    if !spec.file.is_empty() {
        if nrow != 0 || ncol != 0 || !data.is_empty() {
            return Err(error("hfield specified from file and manually".into()));
        }

        // The content type: the attribute, or the extension of the file name as given.
        let ty = if spec.content_type.is_empty() {
            util::ext_to_content_type(&spec.file).to_string()
        } else {
            let (t, s) = util::parse_content_type(&spec.content_type)
                .ok_or_else(|| error("invalid format for content_type".into()))?;
            format!("{t}/{s}")
        };
        let ty = if ty.is_empty() {
            "image/vnd.mujoco.hfield".to_string()
        } else {
            ty
        };
        if ty != "image/png" && ty != "image/vnd.mujoco.hfield" {
            return Err(error(format!("unsupported content type: '{ty}'")));
        }

        let file = file.ok_or_else(|| {
            XmlError::model(format!(
                "resource not found via provider or OS filesystem: '{}'",
                spec.file
            ))
        })?;
        (nrow, ncol, data) = if ty == "image/png" {
            load_png_hfield(file).map_err(error)?
        } else {
            load_custom(file).map_err(error)?
        };
    }

    if nrow < 1 || ncol < 1 || data.is_empty() {
        return Err(error("hfield not specified".into()));
    }
    normalize(&mut data)
        .map_err(|()| error(format!("invalid data range in hfield '{}'", spec.file)))?;

    Ok(CompiledHField {
        size: spec.size,
        nrow,
        ncol,
        data,
    })
}

/// Elevations shifted and scaled to `[0, 1]`, in single precision with MuJoCo's `mjMIN` and
/// `mjMAX` (so NaN behaves as MuJoCo's macros make it) and starting bounds of +-1e10.
fn normalize(data: &mut [f32]) -> Result<(), ()> {
    let (mut emin, mut emax) = (1e10f32, -1e10f32);
    for &d in data.iter() {
        emin = if emin < d { emin } else { d };
        emax = if emax > d { emax } else { d };
    }
    if emin > emax {
        return Err(());
    }
    let range = emax - emin;
    for d in data.iter_mut() {
        *d -= emin;
        if f64::from(range) > util::MINVAL {
            *d /= range;
        }
    }
    Ok(())
}

/// Rows, columns and elevations of a height field.
type Elevation = (i32, i32, Vec<f32>);

/// `mjCHField::LoadPNG`: grey levels 0-255, the image's bottom row first.
fn load_png_hfield(file: &AssetFile) -> Result<Elevation, String> {
    let image = load_png_cached(file, Want::Grey)?;
    let (w, h) = (image.width as usize, image.height as usize);
    let too_big = || "could not allocate buffers in hfield".to_string();
    let nrow = i32::try_from(image.height).map_err(|_| too_big())?;
    let ncol = i32::try_from(image.width).map_err(|_| too_big())?;
    if nrow.checked_mul(ncol).is_none() {
        return Err(too_big());
    }
    // one grey byte becomes a four-byte elevation
    let mut data = Vec::new();
    limits::reserve(&mut data, w * h, "the elevation of a PNG hfield")?;
    for row in image.data.chunks_exact(w).rev() {
        data.extend(row.iter().map(|&v| f32::from(v)));
    }
    Ok((nrow, ncol, data))
}

/// `mjCHField::LoadCustom`: two native-endian `int`s, rows and columns, then the elevations as
/// native-endian floats.
fn load_custom(file: &AssetFile) -> Result<Elevation, String> {
    let (name, bytes) = (&file.path, &file.bytes);
    if file.read_failed || bytes.is_empty() {
        // MuJoCo tests `size < 1` first, so an empty file is "could not read".
        return Err(format!("could not read hfield file '{name}'"));
    }
    if bytes.len() < 8 {
        return Err(format!("hfield missing header '{name}'"));
    }
    let int =
        |at: usize| i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let (nrow, ncol) = (int(0), int(4));
    if nrow < 1 || ncol < 1 {
        return Err(format!("non-positive hfield dimensions in file '{name}'"));
    }
    // Products that overflow MuJoCo's `int` never match a real file size here.
    let n = nrow.checked_mul(ncol).map(|n| n as usize);
    if n.map(|n| 4 * n as u64 + 8) != Some(bytes.len() as u64) {
        return Err(format!("unexpected file size in file '{name}'"));
    }
    let data = bytes[8..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Ok((nrow, ncol, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_like_mujoco() {
        let mut d = [1.0f32, 3.0, 2.0];
        normalize(&mut d).unwrap();
        assert_eq!(d, [0.0, 1.0, 0.5]);
        // Flat data: shifted to zero, not divided.
        let mut d = [7.0f32; 3];
        normalize(&mut d).unwrap();
        assert_eq!(d, [0.0; 3]);
    }
}
