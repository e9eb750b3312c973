//! `MjModel`: an owned model with MuJoCo's loaders and every `mjModel` field as an attribute.

use mjrs_alloc::OwnedModel;
use mjrs_std::Vfs;
use pyo3::exceptions::{PyAttributeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::arrays::generic_getattr;
use pyo3::types::{PyBytes, PyDict};

use crate::arrays::{assign, numpy_view, read_only, FieldView};
pub use crate::mjmodel::MjModel;
use crate::mjmodel::MODEL_INDEX;
use crate::named::{self, GroupView};
use crate::option::MjOption;
use crate::visual::MjVisual;

/// The arrays MuJoCo shows as `bytes`, not as NumPy arrays.
const BYTES_FIELDS: [&str; 3] = ["names", "paths", "text_data"];

/// A virtual file system holding `assets` (`{name: bytes}`), as MuJoCo's loaders take them.
fn assets_vfs(assets: Option<&Bound<'_, PyDict>>) -> PyResult<Option<Vfs>> {
    let Some(assets) = assets else {
        return Ok(None);
    };
    let mut vfs = Vfs::new();
    for (name, bytes) in assets.iter() {
        let name: String = name.extract()?;
        let bytes: Vec<u8> = bytes.extract()?;
        vfs.add_buffer(&name, bytes)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(Some(vfs))
}

fn xml_error(e: mjrs_xml::XmlError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

#[pymethods]
impl MjModel {
    /// Loads an MjModel from an XML string and an optional assets dictionary.
    #[staticmethod]
    #[pyo3(signature = (xml, assets = None))]
    fn from_xml_string(
        py: Python<'_>,
        xml: &str,
        assets: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let vfs = assets_vfs(assets)?;
        let compiled = py
            .detach(|| mjrs_xml::compile_str(xml, "", "", vfs.as_ref()))
            .map_err(xml_error)?;
        Ok(Self::new(compiled.model))
    }

    /// Loads an MjModel from an XML file and an optional assets dictionary.
    #[staticmethod]
    #[pyo3(signature = (filename, assets = None))]
    fn from_xml_path(
        py: Python<'_>,
        filename: &str,
        assets: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let vfs = assets_vfs(assets)?;
        let compiled = py
            .detach(|| mjrs_xml::load_xml(filename, vfs.as_ref()))
            .map_err(xml_error)?;
        Ok(Self::new(compiled.model))
    }

    /// Loads an MjModel from an MJB file and an optional assets dictionary.
    #[staticmethod]
    #[pyo3(signature = (filename, assets = None))]
    fn from_binary_path(
        py: Python<'_>,
        filename: &str,
        assets: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let vfs = assets_vfs(assets)?;
        let model = py
            .detach(|| mjrs_std::load_mjb(filename, vfs.as_ref()))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Self::new(model))
    }

    /// Physics options (`mjModel.opt`), a live view: setting its attributes changes the model.
    #[getter]
    fn opt(slf: &Bound<'_, Self>) -> MjOption {
        MjOption::of_model(slf.clone().unbind())
    }

    /// Visualization options (`mjModel.vis`), a live view.
    #[getter]
    fn vis(slf: &Bound<'_, Self>) -> MjVisual {
        MjVisual::of_model(slf.clone().unbind())
    }

    /// Model statistics (`mjModel.stat`), a live view.
    #[getter]
    fn stat(slf: &Bound<'_, Self>) -> crate::statistic::MjStatistic {
        crate::statistic::MjStatistic::of_model(slf.clone().unbind())
    }

    /// A copy of the model (`mj_copyModel`).
    fn __copy__(&self) -> PyResult<Self> {
        let mut copy = OwnedModel::zeroed(*self.cell.sizes())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        copy.view()
            .copy_from(&self.cell)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Self::new(copy))
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.__copy__()
    }

    /// The arrays first: the common case costs one lookup and no exception.
    fn __getattribute__<'py>(
        slf: &Bound<'py, Self>,
        name: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(i) = MODEL_INDEX
            .get()
            .and_then(|ix| ix.get(name.to_str().unwrap_or("")))
        {
            if let Some(view) = table_view(slf, i)? {
                return Ok(view);
            }
        }
        if let Some(size) = slf.borrow().size(name.to_str()?) {
            return Ok(size.into_pyobject(slf.py())?.into_any());
        }
        generic_getattr(slf.as_any(), name)
    }

    fn __getattr__<'py>(slf: &Bound<'py, Self>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let this = slf.borrow();
        if let Some(field) = this.field(name) {
            if BYTES_FIELDS.contains(&name) {
                return Ok(PyBytes::new(py, bytes_of(field)).into_any());
            }
            return numpy_view(slf.as_any(), field, true);
        }
        if let Some(size) = this.size(name) {
            return Ok(size.into_pyobject(py)?.into_any());
        }
        if let Some(g) = named::find(named::MODEL_GROUPS, name) {
            let caller = named::GroupCaller::new(slf.clone().into_any().unbind(), g, model_group);
            return Ok(Bound::new(py, caller)?.into_any());
        }
        Err(PyAttributeError::new_err(format!(
            "'MjModel' object has no attribute '{name}'"
        )))
    }

    fn __setattr__(slf: &Bound<'_, Self>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let this = slf.borrow();
        if BYTES_FIELDS.contains(&name)
            || this.size(name).is_some()
            || name == "opt"
            || name == "vis"
            || name == "stat"
        {
            return Err(read_only("MjModel"));
        }
        if let Some(i) = MODEL_INDEX.get().and_then(|ix| ix.get(name)) {
            drop(this);
            let view = table_view(slf, i)?.expect("a field of the table");
            return assign(&view, value);
        }
        Err(PyAttributeError::new_err(format!(
            "'MjModel' object has no attribute '{name}'"
        )))
    }

    fn __dir__(&self) -> Vec<String> {
        let mut names: Vec<String> = self.fields.iter().map(|f| f.name.to_owned()).collect();
        self.cell.sizes().for_each(|n, _| names.push(n.to_owned()));
        names.push("opt".to_owned());
        names.push("vis".to_owned());
        names.push("stat".to_owned());
        names.extend(named::MODEL_GROUPS.iter().map(|g| g.name.to_owned()));
        names
    }

    fn __repr__(&self) -> String {
        format!(
            "<mjrs.MjModel nq={} nv={} nu={} nbody={}>",
            self.cell.nq, self.cell.nv, self.cell.nu, self.cell.nbody
        )
    }
}

/// The bytes of a `char` array.
#[allow(unsafe_code)]
fn bytes_of(field: &FieldView) -> &[u8] {
    // SAFETY: the field is a `char` array of `rows * cols` bytes inside the model's buffer,
    // which outlives the borrow of the model this is called under
    unsafe { core::slice::from_raw_parts(field.address as *const u8, field.rows * field.cols) }
}

/// Builds the named view of entity `key` of model group `g`.
pub fn model_group(
    py: Python<'_>,
    owner: &Py<PyAny>,
    g: &'static named::Group,
    key: &Bound<'_, PyAny>,
) -> PyResult<GroupView> {
    let model = owner.bind(py).cast::<MjModel>()?.borrow();
    let lookup = |name: &str| model.field(name).copied();
    named::group_view(
        owner.clone_ref(py),
        model.model(),
        &lookup,
        &model.fields,
        &named::MODEL_TABLE,
        g,
        key,
    )
}

/// A new view of array `i` of the table; `None` for an array shown otherwise (as `bytes`).
///
/// Views are not cached: a view's base is this object, and NumPy arrays are invisible to the
/// cycle collector, so a cached view would keep the object alive forever.
fn table_view<'py>(slf: &Bound<'py, MjModel>, i: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
    let field = slf.borrow().fields[i];
    if BYTES_FIELDS.contains(&field.name) {
        return Ok(None);
    }
    numpy_view(slf.as_any(), &field, true).map(Some)
}
