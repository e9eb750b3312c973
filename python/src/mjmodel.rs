//! The `MjModel` class's state: the owned model and a view of each of its arrays. Its Python
//! methods are in `model`; `model.opt` and `model.vis` (`option`, `visual`) hold it too.

use mjrs_alloc::OwnedModel;
use mjrs_core::Model;
use pyo3::prelude::*;

use crate::arrays::{Collect, FieldView, LazyIndex, NameIndex};
use crate::owner::ModelCell;

/// Where each array of the layout table sits in `MjModel::fields`, by name.
pub(crate) static MODEL_INDEX: LazyIndex = LazyIndex::new();

/// MuJoCo's `mjModel` (`mujoco.MjModel`).
#[pyclass(module = "mjrs", name = "MjModel")]
pub struct MjModel {
    pub(crate) cell: ModelCell,
    /// Every array of the layout table, in table order.
    pub(crate) fields: Vec<FieldView>,
}

impl MjModel {
    /// Wraps an owned model.
    pub fn new(model: OwnedModel) -> Self {
        let mut cell = ModelCell::new(model);
        let mut collect = Collect::default();
        cell.visit_mut(&mut collect);
        let fields = collect.0;
        MODEL_INDEX.get_or_init(|| NameIndex::of(&fields));
        Self { cell, fields }
    }

    /// The core model.
    pub fn model(&self) -> &Model<'static> {
        &self.cell
    }

    /// The array called `name`, if there is one.
    pub fn field(&self, name: &str) -> Option<&FieldView> {
        MODEL_INDEX.get()?.get(name).map(|i| &self.fields[i])
    }

    /// The size called `name` (`nq`, `nv`, ..., `narena`, `nbuffer`).
    pub(crate) fn size(&self, name: &str) -> Option<i64> {
        crate::layout_rows::model_size(self.cell.sizes(), name)
    }
}
