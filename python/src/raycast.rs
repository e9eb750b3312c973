//! `mj_ray` with MuJoCo's Python signature: the nearest geom along a ray.

use mjrs_core::ray::{ray, RayError};
use mjrs_core::types::NGROUP;
use mjrs_core::Real;
use numpy::{AllowTypeChange, PyArrayLike1, PyReadwriteArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::data::{check_pair, MjData};
use crate::errors::FatalError;
use crate::model::MjModel;

/// MuJoCo's `mjERROR` text for a failed ray (`mj_ray: ...`).
fn ray_error(e: RayError) -> PyErr {
    let message = match e {
        RayError::ShortVector => "vector length is too small".to_owned(),
        other => other.to_string(),
    };
    FatalError::new_err(format!("mj_ray: {message}"))
}

/// The distance along `pnt + x vec` (`x >= 0`) to the nearest geom the filters keep, -1 when
/// there is none; its id goes to `geomid[0]` (-1 when there is none) (`mj_ray`).
/// `geomgroup` (6 flags or `None`), `flg_static` and `bodyexclude` are MuJoCo's filters.
#[pyfunction]
#[pyo3(signature = (m, d, pnt, vec, geomgroup, flg_static, bodyexclude, geomid))]
#[allow(clippy::too_many_arguments)] // MuJoCo's signature
pub fn mj_ray(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
    pnt: [Real; 3],
    vec: [Real; 3],
    geomgroup: Option<PyArrayLike1<'_, u8, AllowTypeChange>>,
    flg_static: u8,
    bodyexclude: i32,
    mut geomid: PyReadwriteArrayDyn<'_, i32>,
) -> PyResult<Real> {
    check_pair(&m, &d)?;
    // any array-like NumPy casts to uint8 (MuJoCo's bindings take bools, ints, lists)
    let group: Option<[u8; NGROUP]> = geomgroup
        .map(|g| {
            let values = g.as_array().to_vec();
            <[u8; NGROUP]>::try_from(values.as_slice())
        })
        .transpose()
        .map_err(|_| PyTypeError::new_err(format!("geomgroup should be of size {NGROUP}")))?;
    if geomid.len() != 1 {
        return Err(PyTypeError::new_err("geomid should be of size 1"));
    }
    let out = geomid
        .as_slice_mut()
        .map_err(|_| PyTypeError::new_err("geomid should be C-contiguous"))?;
    let model = m.model();
    let data = &mut *d.cell;
    let (dist, id) = py
        .detach(|| {
            ray(
                model,
                data,
                &pnt,
                &vec,
                group.as_ref(),
                flg_static != 0,
                bodyexclude,
            )
        })
        .map_err(ray_error)?;
    out[0] = id;
    Ok(dist)
}
