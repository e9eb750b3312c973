//! The arrays of structs of `mjData`: `contact` (MuJoCo's `_MjContactList` of `MjContact`),
//! `warning`, `timer` and `solver`. A list shows each field as a strided NumPy view across its
//! records; an item shows one record's fields (numbers for scalars, views for arrays).

use core::mem::offset_of;

use mjrs_core::records::{Contact, SolverStat, TimerStat, WarningStat};
use pyo3::exceptions::{PyAttributeError, PyIndexError};
use pyo3::prelude::*;

use crate::arrays::strided_view;

/// A field of a record: name, byte offset, `true` for `mjtNum` (else `int`), length (1 for a
/// scalar).
type Field = (&'static str, usize, bool, usize);

/// A record type: MuJoCo's class name, its size and its fields.
pub struct Record {
    class: &'static str,
    size: usize,
    fields: &'static [Field],
}

/// `mjContact`.
pub const CONTACT: Record = Record {
    class: "MjContact",
    size: size_of::<Contact>(),
    fields: &CONTACT_FIELDS,
};

/// `mjWarningStat`.
pub const WARNING: Record = Record {
    class: "MjWarningStat",
    size: size_of::<WarningStat>(),
    fields: &[
        ("lastinfo", offset_of!(WarningStat, lastinfo), false, 1),
        ("number", offset_of!(WarningStat, number), false, 1),
    ],
};

/// `mjTimerStat`.
pub const TIMER: Record = Record {
    class: "MjTimerStat",
    size: size_of::<TimerStat>(),
    fields: &[
        ("duration", offset_of!(TimerStat, duration), true, 1),
        ("number", offset_of!(TimerStat, number), false, 1),
    ],
};

/// `mjSolverStat`.
pub const SOLVER: Record = Record {
    class: "MjSolverStat",
    size: size_of::<SolverStat>(),
    fields: &[
        ("improvement", offset_of!(SolverStat, improvement), true, 1),
        ("gradient", offset_of!(SolverStat, gradient), true, 1),
        ("lineslope", offset_of!(SolverStat, lineslope), true, 1),
        ("nactive", offset_of!(SolverStat, nactive), false, 1),
        ("nchange", offset_of!(SolverStat, nchange), false, 1),
        ("neval", offset_of!(SolverStat, neval), false, 1),
        ("nupdate", offset_of!(SolverStat, nupdate), false, 1),
    ],
};

/// The fields of `mjContact` in MuJoCo's order.
const CONTACT_FIELDS: [Field; 19] = [
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

impl Record {
    fn field(&self, name: &str) -> PyResult<&'static Field> {
        self.fields.iter().find(|f| f.0 == name).ok_or_else(|| {
            PyAttributeError::new_err(format!("'{}' has no attribute '{name}'", self.class))
        })
    }
}

/// A view of `count` records of `stride` bytes from `address` of field `f`: shape `[count]` for a scalar,
/// `[count, len]` for an array (`count` = `None` for one contact: shape `[len]`).
fn view<'py>(
    owner: &Bound<'py, PyAny>,
    address: usize,
    count: Option<usize>,
    stride: usize,
    f: &Field,
) -> PyResult<Bound<'py, PyAny>> {
    let (_, offset, real, len) = *f;
    let elem = if real { 8 } else { 4 };
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

/// Records of a data (`d.contact`, `d.warning`, ...; MuJoCo's `_MjContactList` and kin).
#[pyclass(module = "mjrs")]
pub struct RecordList {
    owner: Py<PyAny>,
    record: &'static Record,
    address: usize,
    len: usize,
}

impl RecordList {
    /// `len` records of type `record` from `address`, in memory owned by `owner`.
    pub fn new(owner: Py<PyAny>, record: &'static Record, address: usize, len: usize) -> Self {
        Self {
            owner,
            record,
            address,
            len,
        }
    }
}

#[pymethods]
impl RecordList {
    fn __len__(&self) -> usize {
        self.len
    }

    fn __getitem__(&self, py: Python<'_>, i: isize) -> PyResult<RecordItem> {
        let n = self.len as isize;
        let j = if i < 0 { i + n } else { i };
        if j < 0 || j >= n {
            return Err(PyIndexError::new_err("index out of range"));
        }
        Ok(RecordItem {
            owner: self.owner.clone_ref(py),
            record: self.record,
            address: self.address + j as usize * self.record.size,
        })
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let f = self.record.field(name)?;
        view(
            self.owner.bind(py),
            self.address,
            Some(self.len),
            self.record.size,
            f,
        )
    }

    fn __dir__(&self) -> Vec<&'static str> {
        self.record.fields.iter().map(|f| f.0).collect()
    }
}

/// One record (`MjContact`, `MjWarningStat`, ...), a live view into its data.
#[pyclass(module = "mjrs")]
pub struct RecordItem {
    owner: Py<PyAny>,
    record: &'static Record,
    address: usize,
}

#[pymethods]
impl RecordItem {
    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let f = self.record.field(name)?;
        let array = view(self.owner.bind(py), self.address, None, self.record.size, f)?;
        if f.3 == 1 {
            // a scalar field reads as a number, as in MuJoCo
            return array.get_item(0);
        }
        Ok(array)
    }

    fn __setattr__(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let f = self.record.field(name)?;
        let array = view(self.owner.bind(py), self.address, None, self.record.size, f)?;
        crate::arrays::assign(&array, value)
    }

    fn __dir__(&self) -> Vec<&'static str> {
        self.record.fields.iter().map(|f| f.0).collect()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut out = format!("<{}", self.record.class);
        for f in self.record.fields {
            let value = self.__getattr__(py, f.0)?;
            out.push_str(&format!("\n  {}: {}", f.0, value.str()?));
        }
        out.push_str("\n>");
        Ok(out)
    }
}
