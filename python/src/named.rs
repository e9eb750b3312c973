//! Named access: `model.geom("x").rgba`, `data.body("torso").xpos`, `data.joint("j").qpos`.
//!
//! A group (MuJoCo's `MJMODEL_VIEW_GROUPS` / `MJDATA_VIEW_GROUPS`) is an object type and its
//! count; its attributes are the rows of the table's arrays with that count, the group's prefix
//! taken off (`geom_rgba` -> `rgba`). Arrays indexed through an address (a joint's `qpos`, a
//! sensor's `data`) are cut with that address and length, as MuJoCo's indexers do.

use std::collections::HashMap;
use std::sync::OnceLock;

use mjrs_core::layout::Kind;
use mjrs_core::name::{id2name, name2id};
use mjrs_core::types::*;
use mjrs_core::Model;
use pyo3::exceptions::{PyAttributeError, PyIndexError, PyKeyError, PyTypeError};
use pyo3::prelude::*;

use crate::arrays::{assign, kind_bytes, FieldView};

/// How the rows of one entity are found in an array.
#[derive(Clone, Copy)]
enum Rows {
    /// Row `id`.
    One,
    /// Rows `adr[id]..adr[id] + num[id]` (model arrays `adr`, `num`).
    Counted(&'static str, &'static str),
    /// Rows `adr[id]..adr[id + 1]` (the last entity runs to the array's end).
    UntilNext(&'static str),
}

/// The arrays of a group with rows counted by one size.
#[derive(Clone, Copy)]
struct Member {
    /// The size that counts the array's rows.
    size: &'static str,
    /// Taken off the array's name to make the attribute's.
    prefix: &'static str,
    /// Whether only arrays starting with `prefix` belong to the group (model groups leave out
    /// e.g. `name_bodyadr`); data groups take every array of the size.
    prefixed_only: bool,
    rows: Rows,
}

/// A group of named access.
pub struct Group {
    /// The method name (`body`, `jnt`, ...).
    pub name: &'static str,
    /// MuJoCo's other name for it (`joint` for `jnt`), or "".
    pub altname: &'static str,
    /// `mjtObj` of the entities.
    objtype: i32,
    /// The size counting the entities.
    count: &'static str,
    members: &'static [Member],
}

const fn one(size: &'static str, prefix: &'static str) -> Member {
    Member {
        size,
        prefix,
        prefixed_only: true,
        rows: Rows::One,
    }
}

const fn any(size: &'static str, prefix: &'static str) -> Member {
    Member {
        size,
        prefix,
        prefixed_only: false,
        rows: Rows::One,
    }
}

const fn group(
    name: &'static str,
    altname: &'static str,
    objtype: i32,
    count: &'static str,
    members: &'static [Member],
) -> Group {
    Group {
        name,
        altname,
        objtype,
        count,
        members,
    }
}

/// MuJoCo's `MJMODEL_VIEW_GROUPS`.
pub const MODEL_GROUPS: &[Group] = &[
    group(
        "actuator",
        "",
        OBJ_ACTUATOR,
        "nu",
        &[one("nu", "actuator_")],
    ),
    group("body", "", OBJ_BODY, "nbody", &[one("nbody", "body_")]),
    group("cam", "camera", OBJ_CAMERA, "ncam", &[one("ncam", "cam_")]),
    group("eq", "equality", OBJ_EQUALITY, "neq", &[one("neq", "eq_")]),
    group(
        "exclude",
        "",
        OBJ_EXCLUDE,
        "nexclude",
        &[one("nexclude", "exclude_")],
    ),
    group("geom", "", OBJ_GEOM, "ngeom", &[one("ngeom", "geom_")]),
    group(
        "hfield",
        "",
        OBJ_HFIELD,
        "nhfield",
        &[
            one("nhfield", "hfield_"),
            Member {
                size: "nhfielddata",
                prefix: "hfield_",
                prefixed_only: true,
                rows: Rows::Counted("hfield_adr", "hfield_nrow"),
            },
        ],
    ),
    group(
        "jnt",
        "joint",
        OBJ_JOINT,
        "njnt",
        &[
            one("njnt", "jnt_"),
            Member {
                size: "nq",
                prefix: "",
                prefixed_only: false,
                rows: Rows::UntilNext("jnt_qposadr"),
            },
            Member {
                size: "nv",
                prefix: "dof_",
                prefixed_only: true,
                rows: Rows::UntilNext("jnt_dofadr"),
            },
        ],
    ),
    group("light", "", OBJ_LIGHT, "nlight", &[one("nlight", "light_")]),
    group(
        "mat",
        "material",
        OBJ_MATERIAL,
        "nmat",
        &[one("nmat", "mat_")],
    ),
    group("mesh", "", OBJ_MESH, "nmesh", &[one("nmesh", "mesh_")]),
    group(
        "numeric",
        "",
        OBJ_NUMERIC,
        "nnumeric",
        &[
            one("nnumeric", "numeric_"),
            Member {
                size: "nnumericdata",
                prefix: "numeric_",
                prefixed_only: true,
                rows: Rows::Counted("numeric_adr", "numeric_size"),
            },
        ],
    ),
    group("pair", "", OBJ_PAIR, "npair", &[one("npair", "pair_")]),
    group(
        "sensor",
        "",
        OBJ_SENSOR,
        "nsensor",
        &[one("nsensor", "sensor_")],
    ),
    group("site", "", OBJ_SITE, "nsite", &[one("nsite", "site_")]),
    group("skin", "", OBJ_SKIN, "nskin", &[one("nskin", "skin_")]),
    group(
        "tendon",
        "",
        OBJ_TENDON,
        "ntendon",
        &[one("ntendon", "tendon_")],
    ),
    group(
        "tex",
        "texture",
        OBJ_TEXTURE,
        "ntex",
        &[one("ntex", "tex_")],
    ),
    group(
        "tuple",
        "",
        OBJ_TUPLE,
        "ntuple",
        &[
            one("ntuple", "tuple_"),
            Member {
                size: "ntupledata",
                prefix: "tuple_",
                prefixed_only: true,
                rows: Rows::Counted("tuple_adr", "tuple_size"),
            },
        ],
    ),
    group("key", "keyframe", OBJ_KEY, "nkey", &[one("nkey", "key_")]),
];

/// MuJoCo's `MJDATA_VIEW_GROUPS`.
pub const DATA_GROUPS: &[Group] = &[
    group(
        "actuator",
        "",
        OBJ_ACTUATOR,
        "nu",
        &[any("nu", "actuator_")],
    ),
    group("body", "", OBJ_BODY, "nbody", &[any("nbody", "")]),
    group("cam", "camera", OBJ_CAMERA, "ncam", &[any("ncam", "cam_")]),
    group("geom", "", OBJ_GEOM, "ngeom", &[any("ngeom", "geom_")]),
    group(
        "jnt",
        "joint",
        OBJ_JOINT,
        "njnt",
        &[
            any("njnt", ""),
            Member {
                size: "nq",
                prefix: "",
                prefixed_only: false,
                rows: Rows::UntilNext("jnt_qposadr"),
            },
            Member {
                size: "nv",
                prefix: "",
                prefixed_only: false,
                rows: Rows::UntilNext("jnt_dofadr"),
            },
        ],
    ),
    group("light", "", OBJ_LIGHT, "nlight", &[any("nlight", "light_")]),
    group(
        "sensor",
        "",
        OBJ_SENSOR,
        "nsensor",
        &[Member {
            size: "nsensordata",
            prefix: "sensor",
            prefixed_only: true,
            rows: Rows::Counted("sensor_adr", "sensor_dim"),
        }],
    ),
    group("site", "", OBJ_SITE, "nsite", &[any("nsite", "site_")]),
    group(
        "tendon",
        "ten",
        OBJ_TENDON,
        "ntendon",
        &[any("ntendon", "ten_")],
    ),
];

/// The group called `name` (or by its other name) in `groups`.
pub fn find(groups: &'static [Group], name: &str) -> Option<&'static Group> {
    groups
        .iter()
        .find(|g| g.name == name || (!g.altname.is_empty() && g.altname == name))
}

/// One array's rows for an entity: attribute name, element type, address, shape.
struct Slice {
    name: &'static str,
    kind: Kind,
    address: usize,
    /// Dimensions: the first `ndim` of `dims`.
    dims: [usize; 2],
    ndim: usize,
}

/// The rows of one entity of a group (`model.geom("x")`, `data.joint(2)`), as attributes.
#[pyclass(module = "mjrs")]
pub struct GroupView {
    /// The model or data whose buffer the views point into.
    owner: Py<PyAny>,
    #[pyo3(get)]
    id: i32,
    #[pyo3(get)]
    name: String,
    slices: Vec<Slice>,
}

#[pymethods]
impl GroupView {
    /// The arrays first (no exception on the common path), then `id`, `name` and methods.
    fn __getattribute__<'py>(
        slf: &Bound<'py, Self>,
        attr: &Bound<'py, pyo3::types::PyString>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let this = slf.borrow();
        let name = attr.to_str()?;
        if this.slices.iter().any(|s| s.name == name) {
            return this.__getattr__(slf.py(), name);
        }
        drop(this);
        crate::arrays::generic_getattr(slf.as_any(), attr)
    }

    fn __getattr__<'py>(&self, py: Python<'py>, attr: &str) -> PyResult<Bound<'py, PyAny>> {
        let slice = self.slice(attr)?;
        let field = FieldView {
            name: "",
            kind: slice.kind,
            address: slice.address,
            rows: 0,
            cols: 0,
            matrix: false,
        };
        crate::arrays::shaped_view(self.owner.bind(py), &field, &slice.dims[..slice.ndim])
    }

    fn __setattr__(&self, py: Python<'_>, attr: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let view = self.__getattr__(py, attr)?;
        assign(&view, value)
    }

    fn __dir__(&self) -> Vec<String> {
        let mut names: Vec<String> = self.slices.iter().map(|s| s.name.to_owned()).collect();
        names.extend(["id".to_owned(), "name".to_owned()]);
        names
    }

    fn __repr__(&self) -> String {
        format!("<mjrs named view id={} name='{}'>", self.id, self.name)
    }
}

impl GroupView {
    fn slice(&self, attr: &str) -> PyResult<&Slice> {
        self.slices.iter().find(|s| s.name == attr).ok_or_else(|| {
            PyAttributeError::new_err(format!("named view has no attribute '{attr}'"))
        })
    }
}

/// A size of `m` by name.
fn size_of_model(m: &Model, name: &str) -> usize {
    crate::layout_rows::model_size(m.sizes(), name)
        .and_then(|v| usize::try_from(v).ok())
        .unwrap_or(0)
}

/// Entity `key` (an index or a name) of group `g` of model `m`: its id and name, or MuJoCo's
/// `IndexError` / `KeyError`.
fn resolve(m: &Model, g: &Group, key: &Bound<'_, PyAny>) -> PyResult<(usize, String)> {
    let count = size_of_model(m, g.count);
    if let Ok(id) = key.extract::<i64>() {
        let id = usize::try_from(id)
            .ok()
            .filter(|&i| i < count)
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "Invalid index {id}. Valid indices from 0 to {}",
                    count as i64 - 1
                ))
            })?;
        let name = id2name(m, g.objtype, id).unwrap_or("").to_owned();
        return Ok((id, name));
    }
    let name: String = key
        .extract()
        .map_err(|_| PyTypeError::new_err("a name (str) or an index (int) is expected"))?;
    match name2id(m, g.objtype, &name) {
        Some(id) => Ok((id, name)),
        None => {
            let mut valid: Vec<&str> = (0..count)
                .filter_map(|i| id2name(m, g.objtype, i))
                .collect();
            valid.sort_unstable();
            let list: Vec<String> = valid.iter().map(|v| format!("'{v}'")).collect();
            Err(PyKeyError::new_err(format!(
                "Invalid name '{name}'. Valid names: [{}]",
                list.join(", ")
            )))
        }
    }
}

/// Reads element `i` of the model's `int` array `name`.
fn model_int(fields: &dyn Fn(&str) -> Option<FieldView>, name: &str, i: usize) -> i64 {
    let Some(f) = fields(name) else { return 0 };
    if f.kind != Kind::Int || i >= f.rows * f.cols {
        return 0;
    }
    #[allow(unsafe_code)]
    // SAFETY: an `int` array of the model's buffer with more than `i` elements
    let v = unsafe { *(f.address as *const i32).add(i) };
    i64::from(v)
}

/// Rows `(first, count)` of entity `id` for member `rows` of an array with `total` rows.
fn entity_rows(
    model_fields: &dyn Fn(&str) -> Option<FieldView>,
    rows: Rows,
    id: usize,
    count: usize,
    total: usize,
) -> Option<(usize, usize)> {
    let adr = |name: &str, i: usize| usize::try_from(model_int(model_fields, name, i)).ok();
    match rows {
        Rows::One => Some((id, 1)),
        Rows::Counted(a, n) => {
            let first = adr(a, id)?;
            let mut len = adr(n, id)?;
            if a == "hfield_adr" {
                len *= adr("hfield_ncol", id)?;
            }
            Some((first, len))
        }
        Rows::UntilNext(a) => {
            let first = adr(a, id)?;
            let end = if id + 1 < count {
                adr(a, id + 1)?
            } else {
                total
            };
            Some((first, end.checked_sub(first)?))
        }
    }
}

/// Builds the view of entity `key` of group `g` over `fields` (the arrays of the owner, a
/// model or a data of model `m`).
pub fn group_view(
    owner: Py<PyAny>,
    m: &Model,
    model_fields: &dyn Fn(&str) -> Option<FieldView>,
    fields: &[FieldView],
    table: &'static Table,
    g: &Group,
    key: &Bound<'_, PyAny>,
) -> PyResult<GroupView> {
    let (id, name) = resolve(m, g, key)?;
    let count = size_of_model(m, g.count);
    let mut slices = Vec::new();
    for (member, indices) in g.members.iter().zip(table.members(g, fields)) {
        let total = size_of_model(m, member.size);
        let Some((first, rows)) = entity_rows(model_fields, member.rows, id, count, total) else {
            continue;
        };
        for f in indices.iter().map(|&i| &fields[i]) {
            if first.checked_add(rows).is_none_or(|e| e > f.rows) {
                continue;
            }
            let attr = f.name.strip_prefix(member.prefix).unwrap_or(f.name);
            let attr = if attr.is_empty() { f.name } else { attr };
            let (dims, ndim) = match (member.rows, f.matrix) {
                (Rows::One, true) => ([f.cols, 0], 1),
                (Rows::One, false) => ([1, 0], 1),
                (Rows::Counted("hfield_adr", _), _) => {
                    let nrow =
                        usize::try_from(model_int(model_fields, "hfield_nrow", id)).unwrap_or(0);
                    ([nrow, rows.checked_div(nrow).unwrap_or(0)], 2)
                }
                (_, true) => ([rows, f.cols], 2),
                (_, false) => ([rows, 0], 1),
            };
            slices.push(Slice {
                name: attr,
                kind: f.kind,
                address: f.address + first * f.cols * kind_bytes(f.kind),
                dims,
                ndim,
            });
        }
    }
    Ok(GroupView {
        owner,
        id: i32::try_from(id).unwrap_or(i32::MAX),
        name,
        slices,
    })
}

/// The arrays of each group's members in one table (model or data), found once: the table's
/// order is the same for every model.
pub struct Table {
    /// The size counting each array's rows, by name.
    rows_size: fn(&str) -> Option<&'static str>,
    /// Group name -> per member, the indices of its arrays in the table.
    members: OnceLock<HashMap<&'static str, Vec<Vec<usize>>>>,
}

impl Table {
    /// A table whose arrays' row sizes `rows_size` tells.
    pub const fn new(rows_size: fn(&str) -> Option<&'static str>) -> Self {
        Self {
            rows_size,
            members: OnceLock::new(),
        }
    }

    /// The arrays of each member of `g` among `fields` (the table in order).
    fn members(&self, g: &Group, fields: &[FieldView]) -> &[Vec<usize>] {
        let all = self.members.get_or_init(|| {
            let groups = MODEL_GROUPS.iter().chain(DATA_GROUPS);
            groups
                .map(|g| {
                    let per_member = g
                        .members
                        .iter()
                        .map(|m| self.arrays_of(m, fields))
                        .collect();
                    (g.name, per_member)
                })
                .collect()
        });
        all.get(g.name).map_or(&[], Vec::as_slice)
    }

    /// The arrays of member `member`: counted by its size (two sizes may be equal by chance,
    /// `nq == nv` without free or ball joints: the layout table says which size counts an
    /// array's rows), with its prefix when it needs one.
    fn arrays_of(&self, member: &Member, fields: &[FieldView]) -> Vec<usize> {
        (0..fields.len())
            .filter(|&i| {
                let f = &fields[i];
                f.kind != Kind::Struct
                    && (!member.prefixed_only || f.name.starts_with(member.prefix))
                    && (self.rows_size)(f.name) == Some(member.size)
            })
            .collect()
    }
}

/// The model table's group members.
pub static MODEL_TABLE: Table = Table::new(crate::layout_rows::model_rows_size);
/// The data table's group members.
pub static DATA_TABLE: Table = Table::new(crate::layout_rows::data_rows_size);

/// Builds the [`GroupView`] of entity `key` (a name or an index) of group `g` of `owner`: the
/// model's or the data's builder, so that this module needs neither.
pub type MakeView =
    fn(Python<'_>, &Py<PyAny>, &'static Group, &Bound<'_, PyAny>) -> PyResult<GroupView>;

/// `model.geom`, `data.joint`, ...: called with a name or an index, gives a [`GroupView`].
#[pyclass(module = "mjrs")]
pub struct GroupCaller {
    owner: Py<PyAny>,
    group: &'static Group,
    make: MakeView,
}

impl GroupCaller {
    /// The group `group` of `owner`, whose views `make` builds.
    pub fn new(owner: Py<PyAny>, group: &'static Group, make: MakeView) -> Self {
        Self { owner, group, make }
    }
}

#[pymethods]
impl GroupCaller {
    #[pyo3(signature = (name = None))]
    fn __call__(&self, py: Python<'_>, name: Option<&Bound<'_, PyAny>>) -> PyResult<GroupView> {
        let empty = pyo3::types::PyString::new(py, "");
        let key = name.unwrap_or(empty.as_any());
        (self.make)(py, &self.owner, self.group, key)
    }
}
