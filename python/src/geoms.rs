//! The geoms of an `MjvScene` for Python: `scene.geoms[i]` (`MjvGeom`), readable and writable
//! as MuJoCo's, so that code which adds its own geoms (Gymnasium's markers: fields set on the
//! geom at `ngeom`, then `ngeom += 1`) works.
//!
//! The array fields (`size`, `pos`, `mat`, `rgba`, `texrepeat`) live in NumPy arrays of
//! `maxgeom` rows owned by the scene, so `geom.rgba[:] = ...` changes the scene as it does in
//! MuJoCo; they are filled after `mjv_updateScene` and read back before `mjr_render`.

use mjrs_gl::vis::{self, VisGeom};
use numpy::{PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice, PySliceMethods};

use crate::scene::MjvScene;

/// What `mjv_initGeom` leaves in a geom of no type: the scene's geoms past `ngeom`.
pub fn default_geom() -> VisGeom {
    vis::init_geom(mjrs_core::types::GEOM_NONE, None, None, None, None)
}

/// The geoms' array fields, `maxgeom` rows each.
pub struct GeomArrays {
    size: Py<PyArray2<f32>>,
    pos: Py<PyArray2<f32>>,
    mat: Py<PyArray2<f32>>,
    rgba: Py<PyArray2<f32>>,
    texrepeat: Py<PyArray2<f32>>,
}

/// Floats per geom of each array field, in the order of [`fields`].
const WIDTHS: [usize; 5] = [3, 3, 9, 4, 2];

/// The geom's array fields: size, pos, mat, rgba, texrepeat.
fn fields(g: &VisGeom) -> [&[f32]; 5] {
    [&g.size, &g.pos, &g.mat, &g.rgba, &g.texrepeat]
}

/// [`fields`], writable.
fn fields_mut(g: &mut VisGeom) -> [&mut [f32]; 5] {
    [
        &mut g.size,
        &mut g.pos,
        &mut g.mat,
        &mut g.rgba,
        &mut g.texrepeat,
    ]
}

impl GeomArrays {
    /// Zeroed arrays for `maxgeom` geoms (NumPy's `MemoryError` when that is too many).
    pub fn new(py: Python<'_>, maxgeom: usize) -> PyResult<Self> {
        let numpy_zeros = py.import("numpy")?.getattr("zeros")?;
        let zeros = |w: usize| -> PyResult<Py<PyArray2<f32>>> {
            let array = numpy_zeros.call1(((maxgeom, w), "float32"))?;
            Ok(array.cast_into::<PyArray2<f32>>()?.unbind())
        };
        Ok(Self {
            size: zeros(WIDTHS[0])?,
            pos: zeros(WIDTHS[1])?,
            mat: zeros(WIDTHS[2])?,
            rgba: zeros(WIDTHS[3])?,
            texrepeat: zeros(WIDTHS[4])?,
        })
    }

    fn all(&self) -> [&Py<PyArray2<f32>>; 5] {
        [
            &self.size,
            &self.pos,
            &self.mat,
            &self.rgba,
            &self.texrepeat,
        ]
    }

    /// Copies the geoms' fields into the arrays' first rows.
    pub fn store(&self, py: Python<'_>, geoms: &[VisGeom]) -> PyResult<()> {
        for (k, array) in self.all().into_iter().enumerate() {
            let mut rw = array.bind(py).try_readwrite()?;
            let rows = rw.as_slice_mut()?.chunks_exact_mut(WIDTHS[k]);
            for (g, row) in geoms.iter().zip(rows) {
                row.copy_from_slice(fields(g)[k]);
            }
        }
        Ok(())
    }

    /// Copies the arrays' first rows into the geoms' fields.
    pub fn load(&self, py: Python<'_>, geoms: &mut [VisGeom]) -> PyResult<()> {
        for (k, array) in self.all().into_iter().enumerate() {
            let ro = array.bind(py).try_readonly()?;
            let rows = ro.as_slice()?.chunks_exact(WIDTHS[k]);
            for (g, row) in geoms.iter_mut().zip(rows) {
                fields_mut(g)[k].copy_from_slice(row);
            }
        }
        Ok(())
    }

    /// Writes the array fields of `g` into row `index`.
    fn store_one(&self, py: Python<'_>, index: usize, g: &VisGeom) -> PyResult<()> {
        for (k, array) in self.all().into_iter().enumerate() {
            let mut rw = array.bind(py).try_readwrite()?;
            let w = WIDTHS[k];
            if let Some(row) = rw.as_slice_mut()?.get_mut(index * w..(index + 1) * w) {
                row.copy_from_slice(fields(g)[k]);
            }
        }
        Ok(())
    }

    /// Row `index` of field `name`, a view (`mat` as 3x3).
    fn row<'py>(&self, py: Python<'py>, name: &str, index: usize) -> PyResult<Bound<'py, PyAny>> {
        let array = match name {
            "size" => &self.size,
            "pos" => &self.pos,
            "mat" => &self.mat,
            "rgba" => &self.rgba,
            _ => &self.texrepeat,
        };
        let row = array.bind(py).as_any().get_item(index)?;
        if name == "mat" {
            return row.call_method1("reshape", ((3, 3),));
        }
        Ok(row)
    }
}

/// `scene.geoms`: the scene's geoms by index or slice.
#[pyclass(module = "mjrs", name = "MjvGeomList")]
pub struct MjvGeomList {
    pub(crate) scene: Py<MjvScene>,
}

#[pymethods]
impl MjvGeomList {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.scene.bind(py).borrow().scene.maxgeom
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let len = self.__len__(py);
        let geom = |index: usize| MjvGeom {
            scene: self.scene.clone_ref(py),
            index,
        };
        if let Ok(slice) = key.cast::<PySlice>() {
            let ix = slice.indices(len as isize)?;
            let geoms =
                (0..ix.slicelength).map(|k| geom((ix.start + k as isize * ix.step) as usize));
            return Ok(PyList::new(py, geoms)?.into_any());
        }
        let i: isize = key.extract()?;
        let index = if i < 0 { i + len as isize } else { i };
        if index < 0 || index as usize >= len {
            return Err(PyIndexError::new_err("geom index out of range"));
        }
        Ok(Bound::new(py, geom(index as usize))?.into_any())
    }
}

/// One geom of a scene (`mjvGeom`), a live view: reading and writing its fields reads and
/// writes the scene.
#[pyclass(module = "mjrs", name = "MjvGeom")]
pub struct MjvGeom {
    scene: Py<MjvScene>,
    index: usize,
}

impl MjvGeom {
    /// `f` of the geom: counted, written past `ngeom`, or a default one.
    fn with<R>(&self, py: Python<'_>, f: impl FnOnce(&VisGeom) -> R) -> R {
        let scene = self.scene.bind(py).borrow();
        match scene.scene.geoms.get(self.index) {
            Some(g) => f(g),
            None => match scene.spare.get(&self.index) {
                Some(g) => f(g),
                None => f(&default_geom()),
            },
        }
    }

    /// `f` on the geom, for writing (a geom past `ngeom` is kept aside until counted).
    fn with_mut<R>(&self, py: Python<'_>, f: impl FnOnce(&mut VisGeom) -> R) -> PyResult<R> {
        let mut scene = self.scene.bind(py).try_borrow_mut()?;
        let scene = &mut *scene;
        Ok(match scene.scene.geoms.get_mut(self.index) {
            Some(g) => f(g),
            None => f(scene.spare.entry(self.index).or_insert_with(default_geom)),
        })
    }

    fn row<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.scene
            .bind(py)
            .borrow()
            .arrays
            .row(py, name, self.index)
    }

    fn assign_row(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let row = self.row(py, name)?;
        let value = py.import("numpy")?.getattr("asarray")?.call1((value,))?;
        let value = value.call_method1("reshape", (row.getattr("shape")?,))?;
        row.set_item(pyo3::types::PySlice::full(py), value)
    }
}

/// Getters and setters of `MjvGeom`'s plain fields and of its array fields (views of the
/// scene's arrays), then the methods written out.
macro_rules! geom_fields {
    (plain: [$($field:ident / $set:ident : $ty:ty = $rust:ident),* $(,)?],
     arrays: [$($array:ident / $aset:ident),* $(,)?],
     $($methods:tt)*) => {
        #[pymethods]
        impl MjvGeom {
            $(
                #[getter]
                fn $field(&self, py: Python<'_>) -> $ty {
                    self.with(py, |g| g.$rust.clone())
                }

                #[setter]
                fn $set(&self, py: Python<'_>, value: $ty) -> PyResult<()> {
                    self.with_mut(py, |g| g.$rust = value)
                }
            )*
            $(
                #[getter]
                fn $array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    self.row(py, stringify!($array))
                }

                #[setter]
                fn $aset(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
                    self.assign_row(py, stringify!($array), value)
                }
            )*
            $($methods)*
        }
    };
}

geom_fields!(
    plain: [
        r#type / set_type: i32 = type_,
        dataid / set_dataid: i32 = dataid,
        objtype / set_objtype: i32 = objtype,
        objid / set_objid: i32 = objid,
        category / set_category: i32 = category,
        texid / set_texid: i32 = texid,
        texuniform / set_texuniform: i32 = texuniform,
        texcoord / set_texcoord: i32 = texcoord,
        segid / set_segid: i32 = segid,
        emission / set_emission: f32 = emission,
        specular / set_specular: f32 = specular,
        shininess / set_shininess: f32 = shininess,
        reflectance / set_reflectance: f32 = reflectance,
        label / set_label: String = label,
        camdist / set_camdist: f32 = camdist,
        modelrbound / set_modelrbound: f32 = modelrbound,
        transparent / set_transparent: u8 = transparent,
    ],
    arrays: [
        size / set_size,
        pos / set_pos,
        mat / set_mat,
        rgba / set_rgba,
        texrepeat / set_texrepeat,
    ],
);

/// `values` as `n` numbers, or an error naming `what`.
fn exactly<T: Copy>(values: Option<Vec<T>>, n: usize, what: &str) -> PyResult<Option<Vec<T>>> {
    match values {
        Some(v) if v.len() != n => Err(PyValueError::new_err(format!(
            "mjv_initGeom: {what} takes {n} values, got {}",
            v.len()
        ))),
        v => Ok(v),
    }
}

/// Sets a geom's type, size, position, orientation, colour and the fields MuJoCo resets
/// with them (`mjv_initGeom`); its object, category and segmentation id are kept, as in
/// MuJoCo. Absent arrays take MuJoCo's defaults.
#[pyfunction]
#[pyo3(name = "mjv_initGeom", signature = (geom, r#type, size, pos, mat, rgba))]
pub fn mjv_init_geom(
    py: Python<'_>,
    geom: PyRef<'_, MjvGeom>,
    r#type: i32,
    size: Option<Vec<f64>>,
    pos: Option<Vec<f64>>,
    mat: Option<Vec<f64>>,
    rgba: Option<Vec<f32>>,
) -> PyResult<()> {
    let size = exactly(size, 3, "size")?;
    let pos = exactly(pos, 3, "pos")?;
    let mat = exactly(mat, 9, "mat")?;
    let rgba = exactly(rgba, 4, "rgba")?.map(|v| [v[0], v[1], v[2], v[3]]);
    let new = vis::init_geom(
        r#type,
        size.as_deref(),
        pos.as_deref(),
        mat.as_deref(),
        rgba.as_ref(),
    );
    geom.with_mut(py, |g| {
        let kept = (
            g.objtype,
            g.objid,
            g.category,
            g.segid,
            g.transparent,
            g.camdist,
        );
        *g = new.clone();
        (
            g.objtype,
            g.objid,
            g.category,
            g.segid,
            g.transparent,
            g.camdist,
        ) = kept;
    })?;
    let scene = geom.scene.bind(py).borrow();
    scene.arrays.store_one(py, geom.index, &new)
}
