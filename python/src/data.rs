//! `MjData`: an owned data for a model, every `mjData` field as an attribute.

use mjrs_alloc::OwnedData;
use mjrs_core::arena::ArenaDims;
use mjrs_core::layout::Kind;
use mjrs_core::Data;
use mjrs_std::ThreadPool;
use pyo3::exceptions::{PyAttributeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::pickling;

use crate::arrays::generic_getattr;

use crate::arrays::{assign, read_only};
use crate::arrays::{numpy_view, raw_view, Collect, FieldView, LazyIndex, NameIndex};
use crate::model::MjModel;
use crate::named::{self, GroupView};
use crate::owner::DataCell;
use crate::records::{RecordList, CONTACT, SOLVER, TIMER, WARNING};

static DATA_INDEX: LazyIndex = LazyIndex::new();

/// The scalar counters of `mjData`, read-only here: the pipeline sets them and the arena
/// arrays' shapes follow them.
const COUNTERS: [&str; 11] = [
    "ne",
    "nf",
    "nl",
    "nefc",
    "nnzJ",
    "ncon",
    "nisland",
    "nplugin",
    "maxuse_con",
    "maxuse_efc",
    "solver_nisland",
];

/// What `MjData.__reduce__` gives: the function that unpickles and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (Py<MjModel>, Bound<'py, PyBytes>));

/// MuJoCo's `mjData` (`mujoco.MjData`).
#[pyclass(module = "mjrs", name = "MjData")]
pub struct MjData {
    pub(crate) cell: DataCell,
    /// The model it was made for (`MjData.model`).
    pub(crate) model: Py<MjModel>,
    /// Where that model's core view lives: `model` keeps it alive and in place, so a model at
    /// this address is the one this data was made for (the per-call pair check's fast path).
    model_view: usize,
    /// The thread pool and datas of `rollout(..., nthread > 1)` with this data, made on first use.
    pub(crate) rollout_workers: Option<RolloutWorkers>,
    /// Every fixed-size array of the layout table, in table order.
    fields: Vec<FieldView>,
}

impl MjData {
    /// The fixed-size array called `name`, if there is one.
    pub fn field(&self, name: &str) -> Option<&FieldView> {
        DATA_INDEX.get()?.get(name).map(|i| &self.fields[i])
    }

    /// The arena array called `name` as this step made it; `Err(shape)` when this step did
    /// not make it (MuJoCo then shows an array of that shape over memory of no meaning).
    fn arena_field(&self, name: &str) -> Option<Result<FieldView, (Kind, Vec<usize>)>> {
        let d: &Data = &self.cell;
        let dims = ArenaDims {
            nv: d.sizes().nv,
            ntendon: d.sizes().ntendon,
            nefc: d.nefc,
            nnzJ: d.nnzJ,
            ncon: d.ncon,
            nisland: d.nisland,
        };
        let mut collect = Collect::default();
        d.arena.arrays().visit(&dims, &mut collect);
        let field = collect.0.into_iter().find(|f| f.name == name)?;
        let (rows, cols, matrix) = crate::layout_rows::arena_shape(name, &dims)?;
        if field.rows == rows {
            return Some(Ok(field));
        }
        let shape = if matrix { vec![rows, cols] } else { vec![rows] };
        Some(Err((field.kind, shape)))
    }

    /// A counter by name.
    fn counter(&self, name: &str) -> Option<usize> {
        let d: &Data = &self.cell;
        Some(match name {
            "ne" => d.ne,
            "nf" => d.nf,
            "nl" => d.nl,
            "nefc" => d.nefc,
            "nnzJ" => d.nnzJ,
            "ncon" => d.ncon,
            "nisland" => d.nisland,
            "nplugin" => d.nplugin(),
            "maxuse_con" => d.maxuse_con,
            "maxuse_efc" => d.maxuse_efc,
            "solver_nisland" => d.solver_nisland,
            _ => return None,
        })
    }

    /// The small arrays kept by value in the data (`energy`, `solver_niter`, ...), as views
    /// into the Python object that holds them.
    fn inline_array<'py>(
        slf: &Bound<'py, Self>,
        name: &str,
    ) -> Option<PyResult<Bound<'py, PyAny>>> {
        let this = slf.borrow();
        let d: &Data = &this.cell;
        let owner = slf.as_any();
        Some(match name {
            "energy" => raw_view::<f64>(owner, d.energy.as_ptr() as usize, &[2], true),
            "solver_fwdinv" => {
                raw_view::<f64>(owner, d.solver_fwdinv.as_ptr() as usize, &[2], true)
            }
            "solver_niter" => raw_view::<i32>(
                owner,
                d.solver_niter.as_ptr() as usize,
                &[d.solver_niter.len()],
                true,
            ),
            "solver_nnz" => raw_view::<i32>(
                owner,
                d.solver_nnz.as_ptr() as usize,
                &[d.solver_nnz.len()],
                true,
            ),
            _ => return None,
        })
    }
}

impl MjData {
    /// Whether `m` is the model this data was made for (the object, not only its sizes).
    pub fn is_own_model(&self, m: &MjModel) -> bool {
        core::ptr::from_ref(m.model()) as usize == self.model_view
    }
}

/// MuJoCo's message for a data used with a model it was not made for. The model the data was
/// made for passes by address; another model passes when its sizes are the data's.
pub fn check_pair(m: &MjModel, d: &MjData) -> PyResult<()> {
    if d.is_own_model(m) || m.model().sizes() == d.cell.sizes() {
        Ok(())
    } else {
        Err(PyValueError::new_err(
            "MjData was made for another model: the sizes of the model and the data differ",
        ))
    }
}

#[pymethods]
impl MjData {
    /// A data for `model`, reset to its defaults (`mj_makeData`).
    #[new]
    fn new(model: Bound<'_, MjModel>) -> PyResult<Self> {
        let m = model.borrow();
        let owned = OwnedData::new(m.model()).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let model_view = core::ptr::from_ref(m.model()) as usize;
        drop(m);
        let cell = DataCell::new(owned);
        let mut collect = Collect::default();
        cell.visit(&mut collect);
        let fields = collect.0;
        DATA_INDEX.get_or_init(|| NameIndex::of(&fields));
        Ok(Self {
            cell,
            model: model.unbind(),
            model_view,
            rollout_workers: None,
            fields,
        })
    }

    /// The model this data was made for.
    #[getter]
    fn model(&self, py: Python<'_>) -> Py<MjModel> {
        self.model.clone_ref(py)
    }

    /// Simulation time.
    #[getter]
    fn time(&self) -> f64 {
        self.cell.time
    }

    #[setter]
    fn set_time(&mut self, time: f64) {
        self.cell.time = time;
    }

    /// The contacts of the last step (`mjData.contact`).
    #[getter]
    fn contact(slf: &Bound<'_, Self>) -> RecordList {
        let this = slf.borrow();
        let contacts = this.cell.arena.arrays().contact;
        let owner = slf.clone().into_any().unbind();
        let n = contacts.len().min(this.cell.ncon);
        RecordList::new(owner, &CONTACT, contacts.as_ptr() as usize, n)
    }

    /// Warning statistics, indexed by `mjtWarning` (`mjData.warning`).
    #[getter]
    fn warning(slf: &Bound<'_, Self>) -> RecordList {
        let this = slf.borrow();
        let w = &this.cell.warning;
        let owner = slf.clone().into_any().unbind();
        RecordList::new(owner, &WARNING, w.as_ptr() as usize, w.len())
    }

    /// Timer statistics, indexed by `mjtTimer` (`mjData.timer`).
    #[getter]
    fn timer(slf: &Bound<'_, Self>) -> RecordList {
        let this = slf.borrow();
        let t = &this.cell.timer;
        let owner = slf.clone().into_any().unbind();
        RecordList::new(owner, &TIMER, t.as_ptr() as usize, t.len())
    }

    /// Solver statistics per island and iteration (`mjData.solver`).
    #[getter]
    fn solver(slf: &Bound<'_, Self>) -> RecordList {
        let this = slf.borrow();
        let s = &this.cell.solver;
        let owner = slf.clone().into_any().unbind();
        RecordList::new(owner, &SOLVER, s.as_ptr() as usize, s.len())
    }

    /// A copy of the data, for the same model (`mj_copyData`).
    fn __copy__(&self, py: Python<'_>) -> PyResult<Self> {
        let model = self.model.bind(py).clone();
        let mut copy = Self::new(model)?;
        copy.cell
            .copy_from(&self.cell)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(copy)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.__copy__(py)
    }

    /// Pickles as its model and its state (as MuJoCo does); unpickling makes a fresh data for
    /// the model, plugin objects included, and sets its state.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let load = py.import("mjrs._mjrs")?.getattr("_data_from_state")?;
        let state = PyBytes::new(py, &pickling::data_state(&self.cell));
        Ok((load, (self.model.clone_ref(py), state)))
    }

    /// The arrays first: the common case costs one lookup and no exception.
    fn __getattribute__<'py>(
        slf: &Bound<'py, Self>,
        name: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Some(i) = DATA_INDEX
            .get()
            .and_then(|ix| ix.get(name.to_str().unwrap_or("")))
        {
            if let Some(view) = table_view(slf, i)? {
                return Ok(view);
            }
        }
        generic_getattr(slf.as_any(), name)
    }

    fn __getattr__<'py>(slf: &Bound<'py, Self>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let this = slf.borrow();
        if let Some(field) = this.field(name) {
            return numpy_view(slf.as_any(), field, true);
        }
        if let Some(g) = named::find(named::DATA_GROUPS, name) {
            let caller = named::GroupCaller::new(slf.clone().into_any().unbind(), g, data_group);
            return Ok(Bound::new(py, caller)?.into_any());
        }
        match this.arena_field(name) {
            Some(Ok(field)) => return numpy_view(slf.as_any(), &field, true),
            Some(Err((kind, shape))) => return zeros(py, kind, &shape),
            None => {}
        }
        if let Some(n) = this.counter(name) {
            return Ok(n.into_pyobject(py)?.into_any());
        }
        drop(this);
        if let Some(view) = Self::inline_array(slf, name) {
            return view;
        }
        Err(PyAttributeError::new_err(format!(
            "'MjData' object has no attribute '{name}'"
        )))
    }

    fn __setattr__(slf: &Bound<'_, Self>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        if name == "time" {
            slf.borrow_mut().cell.time = value.extract()?;
            return Ok(());
        }
        // the peak-use statistics are writable, as in MuJoCo (to restart a measurement); the
        // other counters stay read-only: the arena arrays' shapes follow them
        if matches!(name, "maxuse_con" | "maxuse_efc") {
            let value: usize = value.extract()?;
            let mut this = slf.borrow_mut();
            match name {
                "maxuse_con" => this.cell.maxuse_con = value,
                _ => this.cell.maxuse_efc = value,
            }
            return Ok(());
        }
        let this = slf.borrow();
        if let Some(i) = DATA_INDEX.get().and_then(|ix| ix.get(name)) {
            drop(this);
            let view = table_view(slf, i)?.expect("a field of the table");
            return assign(&view, value);
        }
        let inline = matches!(
            name,
            "energy" | "solver_fwdinv" | "solver_niter" | "solver_nnz"
        );
        if inline {
            drop(this);
            let view = Self::inline_array(slf, name).expect("an inline array")?;
            return assign(&view, value);
        }
        if this.counter(name).is_some()
            || this.arena_field(name).is_some()
            || matches!(name, "model" | "contact" | "warning" | "timer" | "solver")
        {
            return Err(read_only("MjData"));
        }
        Err(PyAttributeError::new_err(format!(
            "'MjData' object has no attribute '{name}'"
        )))
    }

    fn __dir__(&self) -> Vec<String> {
        let mut names: Vec<String> = self.fields.iter().map(|f| f.name.to_owned()).collect();
        names.extend(COUNTERS.iter().map(|s| (*s).to_owned()));
        names.extend(
            [
                "time",
                "model",
                "contact",
                "energy",
                "solver_fwdinv",
                "solver_niter",
                "solver_nnz",
            ]
            .map(str::to_owned),
        );
        names.extend(named::DATA_GROUPS.iter().map(|g| g.name.to_owned()));
        names
    }

    fn __repr__(&self) -> String {
        format!("<mjrs.MjData time={}>", self.cell.time)
    }
}

/// Builds the named view of entity `key` of data group `g`.
pub fn data_group(
    py: Python<'_>,
    owner: &Py<PyAny>,
    g: &'static named::Group,
    key: &Bound<'_, PyAny>,
) -> PyResult<GroupView> {
    let data = owner.bind(py).cast::<MjData>()?.borrow();
    let model = data.model.bind(py).borrow();
    let lookup = |name: &str| model.field(name).copied();
    named::group_view(
        owner.clone_ref(py),
        model.model(),
        &lookup,
        &data.fields,
        &named::DATA_TABLE,
        g,
        key,
    )
}

/// A new zeroed array of `shape` and element type `kind` (for an arena array this step did
/// not make: it has no memory in the arena to view).
fn zeros<'py>(py: Python<'py>, kind: Kind, shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    let dtype = match kind {
        Kind::Num => "float64",
        _ => "int32",
    };
    py.import("numpy")?
        .getattr("zeros")?
        .call1((shape.to_vec(), dtype))
}

/// A new view of array `i` of the table; `None` for an array shown otherwise (as `bytes`).
///
/// Views are not cached: a view's base is this object, and NumPy arrays are invisible to the
/// cycle collector, so a cached view would keep the object alive forever.
fn table_view<'py>(slf: &Bound<'py, MjData>, i: usize) -> PyResult<Option<Bound<'py, PyAny>>> {
    let field = slf.borrow().fields[i];

    numpy_view(slf.as_any(), &field, true).map(Some)
}

/// The data `model` had when its state was pickled: what unpickling an `MjData` calls.
#[pyfunction]
pub fn _data_from_state(model: Bound<'_, MjModel>, state: &[u8]) -> PyResult<MjData> {
    let mut data = MjData::new(model)?;
    pickling::restore_data(&mut data.cell, state)
        .map_err(|e| PyValueError::new_err(format!("cannot unpickle MjData: {e}")))?;
    Ok(data)
}

/// A thread pool and one data per worker for `nthread` > 1 rollouts. Made once per `MjData`
/// (for its own model and a thread count) and kept: a pool's threads and the datas cost more
/// than a small batch.
pub(crate) struct RolloutWorkers {
    pub(crate) pool: ThreadPool,
    pub(crate) datas: Vec<OwnedData>,
}

impl RolloutWorkers {
    pub(crate) fn new(model: &mjrs_core::Model<'_>, nthread: usize) -> PyResult<Self> {
        let pool = ThreadPool::create(nthread).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let datas = (0..pool.nworker())
            .map(|_| OwnedData::new(model))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Self { pool, datas })
    }
}
