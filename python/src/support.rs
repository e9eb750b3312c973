//! MuJoCo's support functions on NumPy arrays: Jacobians, the mass matrix, the state vector.
//! Output arrays are the caller's (float64, C order), checked with MuJoCo's messages.

use mjrs_core::state::{get_state, set_state, state_size};
use mjrs_core::support::{full_m, jac, jac_body, jac_body_com, jac_geom, jac_site, mul_m};
use mjrs_core::{inverse_fd, transition_fd, InverseJacobians};
use mjrs_core::{Data, Model, Real};
use numpy::{PyReadonlyArrayDyn, PyReadwriteArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::data::{check_pair, MjData};
use crate::errors::FatalError;
use crate::model::MjModel;

/// A writable output array's elements, when its shape is `shape` (MuJoCo's `TypeError`
/// otherwise, with `message`).
fn output<'a>(
    array: &'a mut PyReadwriteArrayDyn<'_, Real>,
    shape: &[usize],
    message: &str,
) -> PyResult<&'a mut [Real]> {
    let fits = array.shape() == shape || (shape.len() == 1 && array.len() == shape[0]);
    if !fits {
        return Err(PyTypeError::new_err(message.to_owned()));
    }
    array
        .as_slice_mut()
        .map_err(|_| PyTypeError::new_err(format!("{message} (C-contiguous)")))
}

/// An input array's elements, when it has `n` of them.
fn input<'a>(
    array: &'a PyReadonlyArrayDyn<'_, Real>,
    n: usize,
    message: &str,
) -> PyResult<&'a [Real]> {
    if array.len() != n {
        return Err(PyTypeError::new_err(message.to_owned()));
    }
    array
        .as_slice()
        .map_err(|_| PyTypeError::new_err(format!("{message} (C-contiguous)")))
}

/// `id` as an index below `n` (MuJoCo does not check; an out-of-range id is a `ValueError` here
/// instead of a read outside the arrays).
fn index(id: i64, n: usize, what: &str) -> PyResult<usize> {
    usize::try_from(id)
        .ok()
        .filter(|&i| i < n)
        .ok_or_else(|| PyValueError::new_err(format!("invalid {what} id {id}: not in [0, {n})")))
}

type JacFn = fn(&Model, &Data, Option<&mut [Real]>, Option<&mut [Real]>, usize);

/// The common part of the `mj_jac*` functions: checks the outputs (first, as MuJoCo), then the
/// id of the `what` (one of `count`), then `f(m, d, jacp, jacr, id)`.
fn jacobian(
    m: &MjModel,
    d: &MjData,
    jacp: Option<PyReadwriteArrayDyn<'_, Real>>,
    jacr: Option<PyReadwriteArrayDyn<'_, Real>>,
    (id, count, what): (i64, usize, &str),
    f: impl FnOnce(&Model, &Data, Option<&mut [Real]>, Option<&mut [Real]>, usize),
) -> PyResult<()> {
    check_pair(m, d)?;
    let nv = m.model().nv;
    let (mut jacp, mut jacr) = (jacp, jacr);
    let p = match jacp.as_mut() {
        Some(a) => Some(output(a, &[3, nv], "jacp should be of shape (3, nv)")?),
        None => None,
    };
    let r = match jacr.as_mut() {
        Some(a) => Some(output(a, &[3, nv], "jacr should be of shape (3, nv)")?),
        None => None,
    };
    let id = index(id, count, what)?;
    f(m.model(), &d.cell, p, r, id);
    Ok(())
}

fn jac_of(
    m: PyRef<'_, MjModel>,
    d: PyRef<'_, MjData>,
    jacp: Option<PyReadwriteArrayDyn<'_, Real>>,
    jacr: Option<PyReadwriteArrayDyn<'_, Real>>,
    id: i64,
    count: usize,
    what: &str,
    f: JacFn,
) -> PyResult<()> {
    jacobian(&m, &d, jacp, jacr, (id, count, what), f)
}

/// Jacobians of a point on a body (`mj_jac`).
#[pyfunction]
#[pyo3(signature = (m, d, jacp, jacr, point, body))]
pub fn mj_jac(
    m: PyRef<'_, MjModel>,
    d: PyRef<'_, MjData>,
    jacp: Option<PyReadwriteArrayDyn<'_, Real>>,
    jacr: Option<PyReadwriteArrayDyn<'_, Real>>,
    point: [Real; 3],
    body: i64,
) -> PyResult<()> {
    let nbody = m.model().nbody;
    jacobian(
        &m,
        &d,
        jacp,
        jacr,
        (body, nbody, "body"),
        |m, d, p, r, b| jac(m, d, p, r, &point, b),
    )
}

/// Jacobians of a body's frame (`mj_jacBody`).
#[pyfunction]
#[pyo3(name = "mj_jacBody", signature = (m, d, jacp, jacr, body))]
pub fn mj_jac_body(
    m: PyRef<'_, MjModel>,
    d: PyRef<'_, MjData>,
    jacp: Option<PyReadwriteArrayDyn<'_, Real>>,
    jacr: Option<PyReadwriteArrayDyn<'_, Real>>,
    body: i64,
) -> PyResult<()> {
    let n = m.model().nbody;
    jac_of(m, d, jacp, jacr, body, n, "body", jac_body)
}

/// Jacobians of a body's center of mass (`mj_jacBodyCom`).
#[pyfunction]
#[pyo3(name = "mj_jacBodyCom", signature = (m, d, jacp, jacr, body))]
pub fn mj_jac_body_com(
    m: PyRef<'_, MjModel>,
    d: PyRef<'_, MjData>,
    jacp: Option<PyReadwriteArrayDyn<'_, Real>>,
    jacr: Option<PyReadwriteArrayDyn<'_, Real>>,
    body: i64,
) -> PyResult<()> {
    let n = m.model().nbody;
    jac_of(m, d, jacp, jacr, body, n, "body", jac_body_com)
}

/// Jacobians of a geom's center (`mj_jacGeom`).
#[pyfunction]
#[pyo3(name = "mj_jacGeom", signature = (m, d, jacp, jacr, geom))]
pub fn mj_jac_geom(
    m: PyRef<'_, MjModel>,
    d: PyRef<'_, MjData>,
    jacp: Option<PyReadwriteArrayDyn<'_, Real>>,
    jacr: Option<PyReadwriteArrayDyn<'_, Real>>,
    geom: i64,
) -> PyResult<()> {
    let n = m.model().ngeom;
    jac_of(m, d, jacp, jacr, geom, n, "geom", jac_geom)
}

/// Jacobians of a site (`mj_jacSite`).
#[pyfunction]
#[pyo3(name = "mj_jacSite", signature = (m, d, jacp, jacr, site))]
pub fn mj_jac_site(
    m: PyRef<'_, MjModel>,
    d: PyRef<'_, MjData>,
    jacp: Option<PyReadwriteArrayDyn<'_, Real>>,
    jacr: Option<PyReadwriteArrayDyn<'_, Real>>,
    site: i64,
) -> PyResult<()> {
    let n = m.model().nsite;
    jac_of(m, d, jacp, jacr, site, n, "site", jac_site)
}

/// The dense `nv x nv` mass matrix from its sparse form `M` (`mj_fullM`).
#[pyfunction]
#[pyo3(name = "mj_fullM")]
pub fn mj_full_m(
    m: PyRef<'_, MjModel>,
    mut dst: PyReadwriteArrayDyn<'_, Real>,
    mass: PyReadonlyArrayDyn<'_, Real>,
) -> PyResult<()> {
    let model = m.model();
    let mass = input(&mass, model.nM, "M should be of size nM")?;
    let dst = output(
        &mut dst,
        &[model.nv, model.nv],
        "dst should be of shape (nv, nv)",
    )?;
    if dst.len() != model.nv * model.nv {
        return Err(PyTypeError::new_err("dst should be of shape (nv, nv)"));
    }
    full_m(model, dst, mass);
    Ok(())
}

/// `res = M vec` (`mj_mulM`).
#[pyfunction]
#[pyo3(name = "mj_mulM")]
pub fn mj_mul_m(
    m: PyRef<'_, MjModel>,
    d: PyRef<'_, MjData>,
    mut res: PyReadwriteArrayDyn<'_, Real>,
    vec: PyReadonlyArrayDyn<'_, Real>,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let nv = m.model().nv;
    let res = output(&mut res, &[nv], "res should be of size nv")?;
    let vec = input(&vec, nv, "vec should be of size nv")?;
    mul_m(m.model(), &d.cell, res, vec);
    Ok(())
}

/// Numbers in the state of specification `spec` (`mj_stateSize`).
#[pyfunction]
#[pyo3(name = "mj_stateSize")]
pub fn mj_state_size(m: PyRef<'_, MjModel>, spec: u32) -> PyResult<usize> {
    size_of_state(&m, spec)
}

fn size_of_state(m: &MjModel, spec: u32) -> PyResult<usize> {
    let spec = i32::try_from(spec).unwrap_or(i32::MAX);
    state_size(m.model(), spec).map_err(|e| FatalError::new_err(e.to_string()))
}

/// Copies the state of specification `spec` into `state` (`mj_getState`).
#[pyfunction]
#[pyo3(name = "mj_getState")]
pub fn mj_get_state(
    m: PyRef<'_, MjModel>,
    d: PyRef<'_, MjData>,
    mut state: PyReadwriteArrayDyn<'_, Real>,
    spec: u32,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let n = size_of_state(&m, spec)?;
    let state = output(
        &mut state,
        &[n],
        "state size should equal mj_stateSize(m, spec)",
    )?;
    get_state(
        m.model(),
        &d.cell,
        state,
        i32::try_from(spec).unwrap_or(i32::MAX),
    )
    .map_err(|e| FatalError::new_err(e.to_string()))
}

/// Sets the state of specification `spec` from `state` (`mj_setState`).
#[pyfunction]
#[pyo3(name = "mj_setState")]
pub fn mj_set_state(
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
    state: PyReadonlyArrayDyn<'_, Real>,
    spec: u32,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let n = size_of_state(&m, spec)?;
    let state = input(&state, n, "state size should equal mj_stateSize(m, spec)")?;
    set_state(
        m.model(),
        &mut d.cell,
        state,
        i32::try_from(spec).unwrap_or(i32::MAX),
    )
    .map_err(|e| FatalError::new_err(e.to_string()))
}

/// A finite-difference output: `Some(elements)` when given, checked to be `rows x cols`.
fn fd_output<'a>(
    array: &'a mut Option<PyReadwriteArrayDyn<'_, Real>>,
    rows: usize,
    cols: usize,
    message: &str,
) -> PyResult<Option<&'a mut [Real]>> {
    match array.as_mut() {
        Some(a) => output(a, &[rows, cols], message).map(Some),
        None => Ok(None),
    }
}

/// Finite-difference transition matrices `A`, `B` and sensor matrices `C`, `D` around the
/// current state (`mjd_transitionFD`), without the GIL.
#[pyfunction]
#[pyo3(name = "mjd_transitionFD", signature = (m, d, eps, flg_centered, A, B, C, D))]
#[allow(non_snake_case)] // MuJoCo's argument names
pub fn mjd_transition_fd(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
    eps: Real,
    flg_centered: u8,
    mut A: Option<PyReadwriteArrayDyn<'_, Real>>,
    mut B: Option<PyReadwriteArrayDyn<'_, Real>>,
    mut C: Option<PyReadwriteArrayDyn<'_, Real>>,
    mut D: Option<PyReadwriteArrayDyn<'_, Real>>,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let model = m.model();
    let (nx, nu, ns) = (2 * model.nv + model.na, model.nu, model.nsensordata);
    let a = fd_output(&mut A, nx, nx, "A should be of shape (2*nv+na, 2*nv+na)")?;
    let b = fd_output(&mut B, nx, nu, "B should be of shape (2*nv+na, nu)")?;
    let c = fd_output(
        &mut C,
        ns,
        nx,
        "C should be of shape (nsensordata, 2*nv+na)",
    )?;
    let dd = fd_output(&mut D, ns, nu, "D should be of shape (nsensordata, nu)")?;
    let data = &mut *d.cell;
    py.detach(|| transition_fd(model, data, eps, flg_centered != 0, a, b, c, dd))
        .map_err(|e| FatalError::new_err(e.to_string()))
}

/// Finite-difference Jacobians of inverse dynamics around the current state (`mjd_inverseFD`),
/// without the GIL: of `qfrc_inverse` (`DfD*`, `nv x nv`), of the sensors (`DsD*`,
/// `nv x nsensordata`) and of the sparse mass matrix (`DmDq`, `nv x nM`) with respect to
/// `qpos`, `qvel` and `qacc`, in MuJoCo's transposed layout.
#[pyfunction]
#[pyo3(name = "mjd_inverseFD",
       signature = (m, d, eps, flg_actuation, DfDq, DfDv, DfDa, DsDq, DsDv, DsDa, DmDq))]
#[allow(non_snake_case, clippy::too_many_arguments)] // MuJoCo's signature and argument names
pub fn mjd_inverse_fd(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
    eps: Real,
    flg_actuation: u8,
    mut DfDq: Option<PyReadwriteArrayDyn<'_, Real>>,
    mut DfDv: Option<PyReadwriteArrayDyn<'_, Real>>,
    mut DfDa: Option<PyReadwriteArrayDyn<'_, Real>>,
    mut DsDq: Option<PyReadwriteArrayDyn<'_, Real>>,
    mut DsDv: Option<PyReadwriteArrayDyn<'_, Real>>,
    mut DsDa: Option<PyReadwriteArrayDyn<'_, Real>>,
    mut DmDq: Option<PyReadwriteArrayDyn<'_, Real>>,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let model = m.model();
    let (nv, ns, nm) = (model.nv, model.nsensordata, model.nM);
    let out = InverseJacobians {
        dfdq: fd_output(&mut DfDq, nv, nv, "DfDq should be of shape (nv, nv)")?,
        dfdv: fd_output(&mut DfDv, nv, nv, "DfDv should be of shape (nv, nv)")?,
        dfda: fd_output(&mut DfDa, nv, nv, "DfDa should be of shape (nv, nv)")?,
        dsdq: fd_output(
            &mut DsDq,
            nv,
            ns,
            "DsDq should be of shape (nv, nsensordata)",
        )?,
        dsdv: fd_output(
            &mut DsDv,
            nv,
            ns,
            "DsDv should be of shape (nv, nsensordata)",
        )?,
        dsda: fd_output(
            &mut DsDa,
            nv,
            ns,
            "DsDa should be of shape (nv, nsensordata)",
        )?,
        dmdq: fd_output(&mut DmDq, nv, nm, "DmDq should be of shape (nv, nM)")?,
    };
    let data = &mut *d.cell;
    py.detach(|| inverse_fd(model, data, eps, flg_actuation != 0, out))
        .map_err(|e| FatalError::new_err(e.to_string()))
}
