//! Zero-copy NumPy views of the arrays of the layout table, shaped and typed as MuJoCo's Python
//! bindings show them.
//!
//! The fields come from the core's table walkers (`Model::visit_mut`, `Data::visit`,
//! `ArenaArrays::visit`): a view records where an array starts, its element type and shape; a
//! NumPy array over that memory is made on request with the owning Python object as its base,
//! so the buffer lives as long as any view of it.

use std::collections::HashMap;
use std::ffi::c_void;
use std::hash::BuildHasherDefault;
use std::sync::OnceLock;

use mjrs_core::hash::Fnv1a;
use mjrs_core::layout::{ArrayVisitor, ArrayVisitorMut, Elem, FieldInfo, Kind};
use numpy::npyffi::{self, npy_intp, NpyTypes, PY_ARRAY_API};
use numpy::{Element, PyArrayDescrMethods};
use pyo3::exceptions::{PyAttributeError, PyValueError};
use pyo3::prelude::*;

// the views' dtype for `mjtNum` is float64: the Python package is built on the f64 core
const _: () = assert!(size_of::<mjrs_core::Real>() == 8);

/// Where one array lives and how NumPy shows it.
#[derive(Clone, Copy, Debug)]
pub struct FieldView {
    /// MuJoCo's name.
    pub name: &'static str,
    /// C element type.
    pub kind: Kind,
    /// Address of the first element (an address, so owners stay `Send`).
    pub address: usize,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Two-dimensional (`rows x cols`) rather than a vector of `rows`.
    pub matrix: bool,
}

impl FieldView {
    fn new(info: &FieldInfo, address: usize) -> Self {
        Self {
            name: info.name,
            kind: info.kind,
            address,
            rows: info.rows,
            cols: info.cols,
            matrix: info.matrix,
        }
    }

    /// The shape MuJoCo's bindings give the array: `(rows, cols)` for a matrix, `(rows,)` for a
    /// vector (the array's length is the count of the first element used).
    pub fn shape(&self) -> ([usize; 2], usize) {
        ([self.rows, self.cols], if self.matrix { 2 } else { 1 })
    }

    /// The view of rows `first..first + count` of this array, shaped `[count, cols]` for a
    /// matrix and `[count]` for a vector (`None` when out of range).
    pub fn rows_view(&self, first: usize, count: usize) -> Option<FieldView> {
        let end = first.checked_add(count)?;
        if end > self.rows {
            return None;
        }
        let offset = first * self.cols * kind_bytes(self.kind);
        Some(FieldView {
            address: self.address + offset,
            rows: count,
            ..*self
        })
    }
}

/// Bytes of one element of `kind`.
pub fn kind_bytes(kind: Kind) -> usize {
    match kind {
        Kind::Num | Kind::Ptr => 8,
        Kind::Float | Kind::Int => 4,
        Kind::Byte | Kind::Char => 1,
        Kind::Struct => size_of::<mjrs_core::records::Contact>(),
    }
}

/// Collects the fields a table walker visits, writable.
#[derive(Default)]
pub struct Collect(pub Vec<FieldView>);

impl ArrayVisitorMut for Collect {
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &mut [T]) {
        self.0
            .push(FieldView::new(info, data.as_mut_ptr() as usize));
    }
}

impl ArrayVisitor for Collect {
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) {
        self.0.push(FieldView::new(info, data.as_ptr() as usize));
    }
}

/// The most dimensions a view has (NumPy 1's `NPY_MAXDIMS`; NumPy 2 allows more).
const MAX_DIMS: usize = 32;

/// Index of every name in a table walk, built once per table (the order never changes). Hashed
/// by FNV-1a: the field names are short ASCII words and a name is looked up on every attribute
/// read, where SipHash cost more than the rest of the lookup.
pub struct NameIndex(HashMap<&'static str, usize, BuildHasherDefault<Fnv1a>>);

impl NameIndex {
    /// The index of `fields`' names.
    pub fn of(fields: &[FieldView]) -> Self {
        Self(
            fields
                .iter()
                .enumerate()
                .map(|(i, f)| (f.name, i))
                .collect(),
        )
    }

    /// Position of `name` in the table.
    pub fn get(&self, name: &str) -> Option<usize> {
        self.0.get(name).copied()
    }
}

/// A lazily built index, one per table.
pub type LazyIndex = OnceLock<NameIndex>;

/// A NumPy array over `field`'s memory with `owner` as its base object.
///
/// `owner` must own the memory `field` describes (its buffer never moves while it lives).
pub fn numpy_view<'py>(
    owner: &Bound<'py, PyAny>,
    field: &FieldView,
    writable: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (dims, ndim) = field.shape();
    let shape = &dims[..ndim];
    match field.kind {
        Kind::Num => raw_view::<f64>(owner, field.address, shape, writable),
        Kind::Float => raw_view::<f32>(owner, field.address, shape, writable),
        Kind::Int => raw_view::<i32>(owner, field.address, shape, writable),
        Kind::Byte => raw_view::<u8>(owner, field.address, shape, writable),
        Kind::Char => raw_view::<i8>(owner, field.address, shape, writable),
        Kind::Ptr => raw_view::<u64>(owner, field.address, shape, writable),
        Kind::Struct => Err(PyValueError::new_err(format!(
            "{} is an array of structs, not a NumPy array",
            field.name
        ))),
    }
}

/// A NumPy array of element type `T` and `shape` over the memory at `address`, kept alive by
/// `owner`; writable or not.
pub fn raw_view<'py, T: Element>(
    owner: &Bound<'py, PyAny>,
    address: usize,
    shape: &[usize],
    writable: bool,
) -> PyResult<Bound<'py, PyAny>> {
    strided_view::<T>(owner, address, shape, None, writable)
}

/// [`raw_view`] with explicit byte strides (for a field of an array of structs).
#[allow(unsafe_code)]
pub fn strided_view<'py, T: Element>(
    owner: &Bound<'py, PyAny>,
    address: usize,
    shape: &[usize],
    strides: Option<&[usize]>,
    writable: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let py = owner.py();
    // on the stack: a view is made on every attribute read (`d.ctrl[:] = u` in a loop)
    let mut dims = [0 as npy_intp; MAX_DIMS];
    let mut steps = [0 as npy_intp; MAX_DIMS];
    let ndim = shape.len();
    if ndim > MAX_DIMS || strides.is_some_and(|s| s.len() != ndim) {
        return Err(PyValueError::new_err(format!(
            "a view of {ndim} dimensions (NumPy's limit {MAX_DIMS}) or strides of another length"
        )));
    }
    for (d, &n) in dims.iter_mut().zip(shape) {
        *d = n as npy_intp;
    }
    for (s, &n) in steps.iter_mut().zip(strides.unwrap_or(&[])) {
        *s = n as npy_intp;
    }
    let steps_ptr = if strides.is_some() {
        steps.as_mut_ptr()
    } else {
        core::ptr::null_mut()
    };
    let flags = if writable {
        npyffi::NPY_ARRAY_WRITEABLE
    } else {
        0
    };
    // SAFETY: `address` points to memory owned by `owner` holding `shape` elements of `T` (the
    // caller's contract, from the core's table walkers); the array keeps a reference to `owner`
    // as its base, so the memory outlives it. The descriptor reference is stolen by NumPy.
    unsafe {
        let array = PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            npyffi::get_type_object(py, NpyTypes::PyArray_Type),
            T::get_dtype(py).into_dtype_ptr(),
            ndim as i32,
            dims.as_mut_ptr(),
            steps_ptr,
            address as *mut c_void,
            flags,
            core::ptr::null_mut(),
        );
        let array = Bound::from_owned_ptr_or_err(py, array)?;
        let base = owner.clone().into_ptr();
        if PY_ARRAY_API.PyArray_SetBaseObject(py, array.as_ptr().cast(), base) < 0 {
            return Err(PyErr::fetch(py));
        }
        Ok(array)
    }
}

/// A NumPy array of `field`'s element type and `shape` starting at `field.address`, writable,
/// kept alive by `owner` (named access cuts rows out of whole arrays).
pub fn shaped_view<'py>(
    owner: &Bound<'py, PyAny>,
    field: &FieldView,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let a = field.address;
    match field.kind {
        Kind::Num => raw_view::<f64>(owner, a, shape, true),
        Kind::Float => raw_view::<f32>(owner, a, shape, true),
        Kind::Int => raw_view::<i32>(owner, a, shape, true),
        Kind::Byte => raw_view::<u8>(owner, a, shape, true),
        Kind::Char => raw_view::<i8>(owner, a, shape, true),
        Kind::Ptr => raw_view::<u64>(owner, a, shape, true),
        Kind::Struct => Err(PyValueError::new_err(
            "an array of structs has no NumPy view",
        )),
    }
}

/// Python's own attribute lookup (`object.__getattribute__`): methods, properties, then
/// `__getattr__`'s fallback when it raises `AttributeError`.
#[allow(unsafe_code)]
pub fn generic_getattr<'py>(
    obj: &Bound<'py, PyAny>,
    name: &Bound<'py, pyo3::types::PyString>,
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: both pointers are live objects for the call; the result is a new reference or
    // NULL with an exception set
    unsafe {
        Bound::from_owned_ptr_or_err(
            obj.py(),
            pyo3::ffi::PyObject_GenericGetAttr(obj.as_ptr(), name.as_ptr()),
        )
    }
}

/// MuJoCo's message for assigning to a read-only property.
pub fn read_only(class: &str) -> PyErr {
    PyAttributeError::new_err(format!("property of '{class}' object has no setter"))
}

/// `view[:] = value`, as MuJoCo's bindings assign arrays (NumPy's broadcasting and errors).
pub fn assign(view: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<()> {
    let py = view.py();
    let all = pyo3::types::PySlice::full(py);
    view.set_item(all, value)
}
