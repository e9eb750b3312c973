//! MuJoCo's abstract visualization for Python: `MjvOption`, `MjvCamera`, `MjvPerturb`,
//! `MjvScene` (with its `MjvGeom`s) and the `mjv_*` functions, over `mjrs_gl::vis`.
//!
//! The option, camera and perturbation keep their arrays as NumPy arrays that Python changes
//! in place (`cam.lookat[:] = ...`, `opt.flags[i] = 1`), as MuJoCo's do; the Rust values are
//! assembled from them when a function runs (a few dozen bytes).
//!
//! The scene's geoms, `scene.geoms[i]` (`MjvGeom`), are readable and writable as MuJoCo's, so that code which adds its own geoms (Gymnasium's markers: fields set on the
//! geom at `ngeom`, then `ngeom += 1`) works.
//!
//! The array fields (`size`, `pos`, `mat`, `rgba`, `texrepeat`) live in NumPy arrays of
//! `maxgeom` rows owned by the scene, so `geom.rgba[:] = ...` changes the scene as it does in
//! MuJoCo; they are filled after `mjv_updateScene` and read back before `mjr_render`.

use std::collections::BTreeMap;

use mjrs_gl::vis::{self, Camera, Perturb, Scene, VisGeom, VisOption};
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice, PySliceMethods};

use crate::data::{check_pair, MjData};
use crate::errors::FatalError;
use crate::model::MjModel;
use crate::small_arrays::{assign, new_array, read, write};

/// The `#[pymethods]` of a struct: getters and setters of the plain fields of `self.$inner`
/// and of the NumPy-array fields `self.$array`, then the methods written out.
macro_rules! vis_methods {
    ($class:ty, $inner:ident,
     plain: [$($field:ident / $set:ident : $ty:ty = $rust:ident),* $(,)?],
     arrays: [$($array:ident / $aset:ident : $aty:ty),* $(,)?],
     $($methods:tt)*) => {
        #[pymethods]
        impl $class {
            $(
                #[getter]
                fn $field(&self) -> $ty {
                    self.$inner.$rust
                }

                #[setter]
                fn $set(&mut self, value: $ty) {
                    self.$inner.$rust = value;
                }
            )*
            $(
                #[getter]
                fn $array(&self, py: Python<'_>) -> Py<PyArray1<$aty>> {
                    self.$array.clone_ref(py)
                }

                #[setter]
                fn $aset(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
                    assign(&self.$array, value, stringify!($array))
                }
            )*
            $($methods)*
        }
    };
}

// ------------------------------------------------------------------------------ MjvOption

/// What to show (`mjvOption`).
#[pyclass(module = "mjrs", name = "MjvOption")]
pub struct MjvOption {
    plain: VisOption,
    geomgroup: Py<PyArray1<u8>>,
    sitegroup: Py<PyArray1<u8>>,
    jointgroup: Py<PyArray1<u8>>,
    tendongroup: Py<PyArray1<u8>>,
    actuatorgroup: Py<PyArray1<u8>>,
    flexgroup: Py<PyArray1<u8>>,
    skingroup: Py<PyArray1<u8>>,
    flags: Py<PyArray1<u8>>,
}

impl MjvOption {
    /// The option as the core's value, with the arrays' current contents.
    pub fn value(&self, py: Python<'_>) -> VisOption {
        VisOption {
            geomgroup: read(py, &self.geomgroup),
            sitegroup: read(py, &self.sitegroup),
            jointgroup: read(py, &self.jointgroup),
            tendongroup: read(py, &self.tendongroup),
            actuatorgroup: read(py, &self.actuatorgroup),
            flexgroup: read(py, &self.flexgroup),
            skingroup: read(py, &self.skingroup),
            flags: read(py, &self.flags),
            ..self.plain.clone()
        }
    }

    pub fn set(&mut self, py: Python<'_>, v: &VisOption) {
        self.plain = v.clone();
        write(py, &self.geomgroup, &v.geomgroup);
        write(py, &self.sitegroup, &v.sitegroup);
        write(py, &self.jointgroup, &v.jointgroup);
        write(py, &self.tendongroup, &v.tendongroup);
        write(py, &self.actuatorgroup, &v.actuatorgroup);
        write(py, &self.flexgroup, &v.flexgroup);
        write(py, &self.skingroup, &v.skingroup);
        write(py, &self.flags, &v.flags);
    }
}

vis_methods!(MjvOption, plain,
    plain: [
        label / set_label: i32 = label,
        frame / set_frame: i32 = frame,
        bvh_depth / set_bvh_depth: i32 = bvh_depth,
        flex_layer / set_flex_layer: i32 = flex_layer,
    ],
    arrays: [
        geomgroup / set_geomgroup: u8,
        sitegroup / set_sitegroup: u8,
        jointgroup / set_jointgroup: u8,
        tendongroup / set_tendongroup: u8,
        actuatorgroup / set_actuatorgroup: u8,
        flexgroup / set_flexgroup: u8,
        skingroup / set_skingroup: u8,
        flags / set_flags: u8,
    ],
    /// MuJoCo's defaults (`mjv_defaultOption`).
    #[new]
    fn py_new(py: Python<'_>) -> Self {
        let v = VisOption::default();
        Self {
            geomgroup: new_array(py, &v.geomgroup),
            sitegroup: new_array(py, &v.sitegroup),
            jointgroup: new_array(py, &v.jointgroup),
            tendongroup: new_array(py, &v.tendongroup),
            actuatorgroup: new_array(py, &v.actuatorgroup),
            flexgroup: new_array(py, &v.flexgroup),
            skingroup: new_array(py, &v.skingroup),
            flags: new_array(py, &v.flags),
            plain: v,
        }
    }
);

// ------------------------------------------------------------------------------ MjvCamera

/// The abstract camera (`mjvCamera`).
#[pyclass(module = "mjrs", name = "MjvCamera")]
pub struct MjvCamera {
    plain: Camera,
    lookat: Py<PyArray1<f64>>,
}

impl MjvCamera {
    /// The camera as the core's value.
    pub fn value(&self, py: Python<'_>) -> Camera {
        Camera {
            lookat: read(py, &self.lookat),
            ..self.plain.clone()
        }
    }

    /// Takes the values of `c` (after `update_scene` moved a tracking camera, ...).
    pub fn set(&mut self, py: Python<'_>, c: &Camera) {
        self.plain = c.clone();
        write(py, &self.lookat, &c.lookat);
    }
}

vis_methods!(MjvCamera, plain,
    plain: [
        r#type / set_type: i32 = type_,
        fixedcamid / set_fixedcamid: i32 = fixedcamid,
        trackbodyid / set_trackbodyid: i32 = trackbodyid,
        distance / set_distance: f64 = distance,
        azimuth / set_azimuth: f64 = azimuth,
        elevation / set_elevation: f64 = elevation,
    ],
    arrays: [
        lookat / set_lookat: f64
    ],
    /// MuJoCo's default camera (`mjv_defaultCamera`).
    #[new]
    fn py_new(py: Python<'_>) -> Self {
        let c = Camera::default();
        Self {
            lookat: new_array(py, &c.lookat),
            plain: c,
        }
    }
);

// ------------------------------------------------------------------------------ MjvPerturb

/// The perturbation state (`mjvPerturb`).
#[pyclass(module = "mjrs", name = "MjvPerturb")]
pub struct MjvPerturb {
    plain: Perturb,
    refpos: Py<PyArray1<f64>>,
    refquat: Py<PyArray1<f64>>,
    refselpos: Py<PyArray1<f64>>,
    localpos: Py<PyArray1<f64>>,
}

impl MjvPerturb {
    /// The perturbation as the core's value.
    pub fn value(&self, py: Python<'_>) -> Perturb {
        Perturb {
            refpos: read(py, &self.refpos),
            refquat: read(py, &self.refquat),
            refselpos: read(py, &self.refselpos),
            localpos: read(py, &self.localpos),
            ..self.plain.clone()
        }
    }

    pub fn set(&mut self, py: Python<'_>, p: &Perturb) {
        self.plain = p.clone();
        write(py, &self.refpos, &p.refpos);
        write(py, &self.refquat, &p.refquat);
        write(py, &self.refselpos, &p.refselpos);
        write(py, &self.localpos, &p.localpos);
    }
}

vis_methods!(MjvPerturb, plain,
    plain: [
        select / set_select: i32 = select,
        flexselect / set_flexselect: i32 = flexselect,
        skinselect / set_skinselect: i32 = skinselect,
        active / set_active: i32 = active,
        active2 / set_active2: i32 = active2,
        localmass / set_localmass: f64 = localmass,
        scale / set_scale: f64 = scale,
    ],
    arrays: [
        refpos / set_refpos: f64,
        refquat / set_refquat: f64,
        refselpos / set_refselpos: f64,
        localpos / set_localpos: f64,
    ],
    /// Nothing selected, nothing perturbed (`mjv_defaultPerturb`).
    #[new]
    fn py_new(py: Python<'_>) -> Self {
        let p = Perturb::default();
        Self {
            refpos: new_array(py, &p.refpos),
            refquat: new_array(py, &p.refquat),
            refselpos: new_array(py, &p.refselpos),
            localpos: new_array(py, &p.localpos),
            plain: p,
        }
    }
);

// ------------------------------------------------------------------------------ MjvScene

/// The abstract scene (`mjvScene`): geoms, lights, cameras and the rendering flags.
#[pyclass(module = "mjrs", name = "MjvScene")]
pub struct MjvScene {
    pub(crate) scene: Scene,
    flags: Py<PyArray1<u8>>,
    /// The geoms' array fields, which Python changes in place (`scene.geoms[i].rgba[:] = ...`).
    pub(crate) arrays: GeomArrays,
    /// Geoms past `ngeom` that Python wrote to (Gymnasium's markers write the geom at `ngeom`,
    /// then count it), taken when `ngeom` grows over them.
    pub(crate) spare: BTreeMap<usize, VisGeom>,
}

impl MjvScene {
    /// The scene, with the rendering flags and the geoms' arrays as Python set them.
    pub fn synced(&mut self, py: Python<'_>) -> PyResult<&mut Scene> {
        self.scene.flags = read(py, &self.flags);
        self.arrays.load(py, &mut self.scene.geoms)?;
        Ok(&mut self.scene)
    }

    /// After `update_scene`: the new geoms' arrays for Python, no geom past `ngeom` kept.
    fn updated(&mut self, py: Python<'_>) -> PyResult<()> {
        self.spare.clear();
        self.arrays.store(py, &self.scene.geoms)
    }
}

#[pymethods]
impl MjvScene {
    /// An empty scene of `model` for up to `maxgeom` geoms (`mjv_makeScene`).
    #[new]
    #[pyo3(signature = (model, maxgeom))]
    fn py_new(py: Python<'_>, model: PyRef<'_, MjModel>, maxgeom: i64) -> PyResult<Self> {
        let _ = model;
        let maxgeom = usize::try_from(maxgeom)
            .map_err(|_| PyValueError::new_err(format!("maxgeom must be >= 0, got {maxgeom}")))?;
        let scene = Scene::new(maxgeom);
        Ok(Self {
            flags: new_array(py, &scene.flags),
            arrays: GeomArrays::new(py, maxgeom)?,
            spare: BTreeMap::new(),
            scene,
        })
    }

    /// Most geoms the scene holds.
    #[getter]
    fn maxgeom(&self) -> usize {
        self.scene.maxgeom
    }

    /// Geoms in the scene.
    #[getter]
    fn ngeom(&self) -> usize {
        self.scene.geoms.len()
    }

    /// Sets the number of geoms in use: fewer drops the last ones, more counts the geoms
    /// written past `ngeom` (MuJoCo's default geoms where nothing was written), up to
    /// `maxgeom`; their arrays keep what they hold, as MuJoCo's do.
    #[setter]
    fn set_ngeom(&mut self, n: i64) -> PyResult<()> {
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.scene.maxgeom)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "ngeom must be in [0, maxgeom={}], got {n}",
                    self.scene.maxgeom
                ))
            })?;
        let geoms = &mut self.scene.geoms;
        if n < geoms.len() {
            // what Python sees stays in the arrays; the rest of a dropped geom is forgotten
            geoms.truncate(n);
            return Ok(());
        }
        for i in geoms.len()..n {
            geoms.push(self.spare.remove(&i).unwrap_or_else(default_geom));
        }
        Ok(())
    }

    /// Lights in the scene.
    #[getter]
    fn nlight(&self) -> usize {
        self.scene.lights.len()
    }

    /// The rendering flags (`mjtRndFlag`), changed in place.
    #[getter]
    fn flags(&self, py: Python<'_>) -> Py<PyArray1<u8>> {
        self.flags.clone_ref(py)
    }

    #[setter]
    fn set_flags(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        assign(&self.flags, value, "flags")
    }

    /// Stereo mode (`mjtStereo`).
    #[getter]
    fn stereo(&self) -> i32 {
        self.scene.stereo
    }

    #[setter]
    fn set_stereo(&mut self, v: i32) {
        self.scene.stereo = v;
    }

    /// Width of the frame drawn around the viewport.
    #[getter]
    fn framewidth(&self) -> i32 {
        self.scene.framewidth
    }

    #[setter]
    fn set_framewidth(&mut self, v: i32) {
        self.scene.framewidth = v;
    }

    /// The geoms, `maxgeom` of them.
    #[getter]
    fn geoms(slf: &Bound<'_, Self>) -> MjvGeomList {
        MjvGeomList {
            scene: slf.clone().unbind(),
        }
    }
}

// ------------------------------------------------------------------------------ functions

/// Sets `opt` to MuJoCo's defaults (`mjv_defaultOption`).
#[pyfunction]
#[pyo3(name = "mjv_defaultOption")]
pub fn mjv_default_option(py: Python<'_>, mut opt: PyRefMut<'_, MjvOption>) {
    opt.set(py, &VisOption::default());
}

/// Sets `cam` to MuJoCo's default camera (`mjv_defaultCamera`).
#[pyfunction]
#[pyo3(name = "mjv_defaultCamera")]
pub fn mjv_default_camera(py: Python<'_>, mut cam: PyRefMut<'_, MjvCamera>) {
    cam.set(py, &Camera::default());
}

/// Sets `cam` to the model's default free camera (`mjv_defaultFreeCamera`).
#[pyfunction]
#[pyo3(name = "mjv_defaultFreeCamera")]
pub fn mjv_default_free_camera(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut cam: PyRefMut<'_, MjvCamera>,
) {
    cam.set(py, &Camera::default_free(m.model()));
}

/// Sets `pert` to nothing selected, nothing perturbed (`mjv_defaultPerturb`).
#[pyfunction]
#[pyo3(name = "mjv_defaultPerturb")]
pub fn mjv_default_perturb(py: Python<'_>, mut pert: PyRefMut<'_, MjvPerturb>) {
    pert.set(py, &Perturb::default());
}

/// Updates the scene from the model and data (`mjv_updateScene`); `pert` may be `None`. A
/// tracking camera's new position is written back to `cam`.
#[pyfunction]
#[pyo3(name = "mjv_updateScene")]
#[allow(clippy::too_many_arguments)]
pub fn mjv_update_scene(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    mut d: PyRefMut<'_, MjData>,
    opt: PyRef<'_, MjvOption>,
    pert: Option<PyRef<'_, MjvPerturb>>,
    mut cam: PyRefMut<'_, MjvCamera>,
    catmask: i32,
    mut scn: PyRefMut<'_, MjvScene>,
) -> PyResult<()> {
    check_pair(&m, &d)?;
    let option = opt.value(py);
    let perturb = pert.map(|p| p.value(py)).unwrap_or_default();
    let mut camera = cam.value(py);
    let model = m.model();
    let data = &mut *d.cell;
    let scene = scn.synced(py)?;
    py.detach(|| vis::update_scene(model, data, &option, &perturb, &mut camera, catmask, scene))
        .map_err(|e| FatalError::new_err(format!("mjv_updateScene: {e}")))?;
    scn.updated(py)?;
    cam.set(py, &camera);
    Ok(())
}

/// Moves the camera by a mouse motion relative to the window's size (`mjv_moveCamera`, MuJoCo
/// 3.1.6's arguments: the scene gives the camera's frame); `action` is an `mjtMouse`.
#[pyfunction]
#[pyo3(name = "mjv_moveCamera")]
pub fn mjv_move_camera(
    py: Python<'_>,
    m: PyRef<'_, MjModel>,
    action: i32,
    reldx: f64,
    reldy: f64,
    scn: PyRef<'_, MjvScene>,
    mut cam: PyRefMut<'_, MjvCamera>,
) -> PyResult<()> {
    let mut camera = cam.value(py);
    vis::interact::move_camera(m.model(), action, reldx, reldy, &scn.scene, &mut camera)
        .map_err(|e| FatalError::new_err(format!("mjv_moveCamera: {e}")))?;
    cam.set(py, &camera);
    Ok(())
}

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
