//! `mj_ray` and `mj_multiRay` with MuJoCo's Python signatures: the nearest geom along rays.

use mjrs_core::ray::{multi_ray, ray, RayError};
use mjrs_core::types::NGROUP;
use mjrs_core::Real;
use numpy::{
    AllowTypeChange, PyArrayLike1, PyReadonlyArrayDyn, PyReadwriteArrayDyn, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::data::{check_pair, MjData};
use crate::errors::FatalError;
use crate::model::MjModel;

/// MuJoCo's `mjERROR` text for a failed ray (`mj_ray: ...`).
fn ray_error(function: &str, e: RayError) -> PyErr {
    let message = match e {
        RayError::ShortVector => "vector length is too small".to_owned(),
        other => other.to_string(),
    };
    FatalError::new_err(format!("{function}: {message}"))
}

/// The group filter: any array-like NumPy casts to uint8 (MuJoCo's bindings take bools, ints,
/// lists), of `NGROUP` flags.
fn group_flags(
    geomgroup: Option<PyArrayLike1<'_, u8, AllowTypeChange>>,
) -> PyResult<Option<[u8; NGROUP]>> {
    geomgroup
        .map(|g| <[u8; NGROUP]>::try_from(g.as_array().to_vec().as_slice()))
        .transpose()
        .map_err(|_| PyTypeError::new_err(format!("geomgroup should be of size {NGROUP}")))
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
    let group = group_flags(geomgroup)?;
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
        .map_err(|e| ray_error("mj_ray", e))?;
    out[0] = id;
    Ok(dist)
}

/// Casts `nray` rays from `pnt` along the rows of `vec` (`mj_multiRay`): distances to `dist`,
/// geom ids to `geomid` (-1 both for a miss), with `mj_ray`'s filters; geoms farther than
/// `cutoff` are culled first.
#[pyfunction]
#[pyo3(name = "mj_multiRay", signature = (m, d, pnt, vec, geomgroup, flg_static, bodyexclude,
                                          geomid, dist, nray, cutoff))]
#[allow(clippy::too_many_arguments)] // MuJoCo's signature
pub fn mj_multi_ray(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
    pnt: [Real; 3],
    vec: PyReadonlyArrayDyn<'_, Real>,
    geomgroup: Option<PyArrayLike1<'_, u8, AllowTypeChange>>,
    flg_static: u8,
    bodyexclude: i32,
    mut geomid: PyReadwriteArrayDyn<'_, i32>,
    mut dist: PyReadwriteArrayDyn<'_, Real>,
    nray: usize,
    cutoff: Real,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let group = group_flags(geomgroup)?;
    if dist.len() != nray || geomid.len() != nray {
        return Err(PyTypeError::new_err(
            "dist and geomid should be of size nray",
        ));
    }
    if vec.len() != 3 * nray {
        return Err(PyTypeError::new_err("vec should be of size 3*nray"));
    }
    let contiguous = |_| PyTypeError::new_err("vec, dist and geomid should be C-contiguous");
    let vec = vec.as_slice().map_err(contiguous)?;
    let geomid = geomid.as_slice_mut().map_err(contiguous)?;
    let dist = dist.as_slice_mut().map_err(contiguous)?;
    let model = m.model();
    let data = &mut *d.cell;
    py.detach(|| {
        multi_ray(
            model,
            data,
            &pnt,
            vec,
            group.as_ref(),
            flg_static != 0,
            bodyexclude,
            geomid,
            dist,
            cutoff,
        )
    })
    .map_err(|e| ray_error("mj_multiRay", e))
}
