//! `mjData.contact`: the contacts of the last step as MuJoCo's `_MjContactList` (each field a
//! strided NumPy view across the contacts) and `MjContact` (one contact).

use core::mem::offset_of;

use mjrs_core::records::Contact;
use pyo3::exceptions::{PyAttributeError, PyIndexError};
use pyo3::prelude::*;

use crate::arrays::strided_view;

/// A field of `mjContact`: name, byte offset, `true` for `mjtNum` (else `int`), length (1 for
/// a scalar).
type ContactField = (&'static str, usize, bool, usize);

/// The fields of `mjContact` in MuJoCo's order.
const FIELDS: [ContactField; 19] = [
    ("dist", offset_of!(Contact, dist), true, 1),
    ("pos", offset_of!(Contact, pos), true, 3),
    ("frame", offset_of!(Contact, frame), true, 9),
    ("includemargin", offset_of!(Contact, includemargin), true, 1),
    ("friction", offset_of!(Contact, friction), true, 5),
    ("solref", offset_of!(Contact, solref), true, 2),
    (
        "solreffriction",
        offset_of!(Contact, solreffriction),
        true,
        2,
    ),
    ("solimp", offset_of!(Contact, solimp), true, 5),
    ("mu", offset_of!(Contact, mu), true, 1),
    ("H", offset_of!(Contact, H), true, 36),
    ("dim", offset_of!(Contact, dim), false, 1),
    ("geom1", offset_of!(Contact, geom1), false, 1),
    ("geom2", offset_of!(Contact, geom2), false, 1),
    ("geom", offset_of!(Contact, geom), false, 2),
    ("flex", offset_of!(Contact, flex), false, 2),
    ("elem", offset_of!(Contact, elem), false, 2),
    ("vert", offset_of!(Contact, vert), false, 2),
    ("exclude", offset_of!(Contact, exclude), false, 1),
    ("efc_address", offset_of!(Contact, efc_address), false, 1),
];

fn field(name: &str) -> PyResult<&'static ContactField> {
    FIELDS
        .iter()
        .find(|f| f.0 == name)
        .ok_or_else(|| PyAttributeError::new_err(format!("'MjContact' has no attribute '{name}'")))
}

/// A view of `count` contacts from `address` of field `f`: shape `[count]` for a scalar,
/// `[count, len]` for an array (`count` = `None` for one contact: shape `[len]`).
fn view<'py>(
    owner: &Bound<'py, PyAny>,
    address: usize,
    count: Option<usize>,
    f: &ContactField,
) -> PyResult<Bound<'py, PyAny>> {
    let (_, offset, real, len) = *f;
    let elem = if real { 8 } else { 4 };
    let stride = size_of::<Contact>();
    let (shape, strides) = match (count, len) {
        (Some(n), 1) => (vec![n], vec![stride]),
        (Some(n), _) => (vec![n, len], vec![stride, elem]),
        (None, _) => (vec![len], vec![elem]),
    };
    let at = address + offset;
    if real {
        strided_view::<f64>(owner, at, &shape, Some(&strides), true)
    } else {
        strided_view::<i32>(owner, at, &shape, Some(&strides), true)
    }
}

/// The contacts of a data (`_MjContactList`).
#[pyclass(module = "mjrs")]
pub struct MjContactList {
    owner: Py<PyAny>,
    address: usize,
    len: usize,
}

impl MjContactList {
    /// `len` contacts from `address`, in the buffer of `owner`.
    pub fn new(owner: Py<PyAny>, address: usize, len: usize) -> Self {
        Self {
            owner,
            address,
            len,
        }
    }
}

#[pymethods]
impl MjContactList {
    fn __len__(&self) -> usize {
        self.len
    }

    fn __getitem__(&self, py: Python<'_>, i: isize) -> PyResult<MjContact> {
        let n = self.len as isize;
        let j = if i < 0 { i + n } else { i };
        if j < 0 || j >= n {
            return Err(PyIndexError::new_err("index out of range"));
        }
        Ok(MjContact {
            owner: self.owner.clone_ref(py),
            address: self.address + j as usize * size_of::<Contact>(),
        })
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        view(
            self.owner.bind(py),
            self.address,
            Some(self.len),
            field(name)?,
        )
    }
}

/// One contact (`MjContact`), a live view into its data.
#[pyclass(module = "mjrs")]
pub struct MjContact {
    owner: Py<PyAny>,
    address: usize,
}

#[pymethods]
impl MjContact {
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let f = field(name)?;
        let array = view(self.owner.bind(py), self.address, None, f)?;
        if f.3 == 1 {
            // a scalar field reads as a number, as in MuJoCo
            return array.get_item(0);
        }
        Ok(array)
    }
}
