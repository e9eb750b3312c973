//! Printing in MuJoCo's own text formats (`engine_print.c`): [`print_model`], [`print_data`],
//! their variants with a custom float format, and the matrix printers [`print_mat`] and
//! [`print_mat_sparse`] (`mju_printMat`, `mju_printMatSparse`).
//!
//! Everything writes to a [`core::fmt::Write`], so a device without `std` can print to a UART
//! as well as a desktop program to a `String`; nothing allocates. Floats are written with a
//! [`FloatFormat`], a printf conversion that reproduces C's output character for character, so
//! that the text diffs cleanly against MuJoCo's.
//!
//! The model's per-object fields are walked from the layout table ([`crate::layout`]) exactly
//! as MuJoCo walks `MJMODEL_POINTERS`: for each object, every array whose rows are counted by
//! that object's size. The data's fixed arrays are walked from the table too, each printed
//! under its upper-cased name, with MuJoCo's exceptions (full inertia matrices, sparse
//! Jacobians, fields it leaves out); the arena arrays (contacts, constraint rows, islands) go
//! where `mj_printData` puts them.

mod format;

pub use format::{Conversion, FloatFormat, FormatError, MAX_FORMAT_LEN, MAX_PRECISION, MAX_WIDTH};

use core::fmt::{self, Write};

use crate::data::{Contact, Data};
use crate::layout::{ArrayVisitor, Elem, FieldInfo, Kind, Scalar};
use crate::model::Model;
use crate::real::Real;
use crate::types::{DSBL_CONSTRAINT, NISLAND, NSOLVER_STATS};

/// The MuJoCo version whose formats these are, as `mj_versionString` prints it.
pub const MUJOCO_VERSION: &str = "3.1.6";

/// `mj_printModel`: the model in MuJoCo's text format with the default float format.
pub fn print_model<W: Write + ?Sized>(m: &Model, w: &mut W) -> fmt::Result {
    print_formatted_model(m, w, &FloatFormat::DEFAULT)
}

/// `mj_printData`: the data in MuJoCo's text format with the default float format.
pub fn print_data<W: Write + ?Sized>(m: &Model, d: &Data, w: &mut W) -> fmt::Result {
    print_formatted_data(m, d, w, &FloatFormat::DEFAULT)
}

/// `mju_printMat`: an `nr x nc` row-major matrix, `%.8f ` per element, a line per row and an
/// empty line after. Elements beyond `mat` are left out.
pub fn print_mat<W: Write + ?Sized>(w: &mut W, mat: &[Real], nr: usize, nc: usize) -> fmt::Result {
    for r in 0..nr {
        for c in 0..nc {
            if let Some(&x) = r.checked_mul(nc).and_then(|i| mat.get(i + c)) {
                FloatFormat::MAT.write(w, to_f64(x))?;
                w.write_char(' ')?;
            }
        }
        w.write_char('\n')?;
    }
    w.write_char('\n')
}

/// `mju_printMatSparse`: a sparse matrix of `nr` rows in MuJoCo's row layout (`rownnz`,
/// `rowadr`, `colind`), `(row col): value` per element with `%9.6f`. Rows or elements whose
/// addresses fall outside the slices are left out.
pub fn print_mat_sparse<W: Write + ?Sized>(
    w: &mut W,
    mat: &[Real],
    nr: usize,
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &[i32],
) -> fmt::Result {
    const ELEM: FloatFormat = FloatFormat {
        width: 9,
        precision: Some(6),
        ..FloatFormat::MAT
    };
    for r in 0..nr {
        for (x, c) in sparse_row(mat, rownnz, rowadr, colind, r) {
            write!(w, "({r} {c}): ")?;
            ELEM.write(w, to_f64(x))?;
            w.write_str("  ")?;
        }
        w.write_char('\n')?;
    }
    w.write_char('\n')
}

/// `mj_printFormattedModel`: sizes, options, statistics, then every object with its fields,
/// custom data, keyframes and the bounding-volume hierarchy.
pub fn print_formatted_model<W: Write + ?Sized>(
    m: &Model,
    w: &mut W,
    float_format: &FloatFormat,
) -> fmt::Result {
    let mut p = Printer {
        w,
        f: *float_format,
    };
    writeln!(p.w, "MuJoCo version {MUJOCO_VERSION}")?;
    writeln!(p.w, "model name     {}\n", m.name_at(0))?;

    let mut result = Ok(());
    m.sizes().for_each(|name, v| {
        if v != 0 && result.is_ok() {
            result = writeln!(p.w, "{name:<21} {v}");
        }
    });
    result?;
    p.w.write_char('\n')?;

    p.options(m)?;
    p.w.write_char('\n')?;

    let totalmass = m.body_mass.iter().fold(0.0 as Real, |s, &x| s + x);
    p.name("totalmass")?;
    p.float(totalmass)?;
    p.w.write_str("\n\n")?;

    for (name, x) in [
        ("meaninertia", m.stat.meaninertia),
        ("meanmass", m.stat.meanmass),
        ("meansize", m.stat.meansize),
        ("extent", m.stat.extent),
    ] {
        p.name(name)?;
        p.float(x)?;
        p.w.write_char('\n')?;
    }
    p.name("center")?;
    for &x in &m.stat.center {
        p.float(x)?;
    }
    p.w.write_str("\n\n")?;

    for (name, v) in [("qpos0", &*m.qpos0), ("qpos_spring", &*m.qpos_spring)] {
        p.name(name)?;
        for &x in v {
            p.float(x)?;
            p.w.write_char(' ')?;
        }
        p.w.write_str("\n\n")?;
    }

    p.objects(m)?;
    p.custom(m)?;
    p.keyframes(m)?;
    p.bvh(m)
}

/// `mj_printFormattedData`: sizes, warnings, timers, solver statistics, energy and time, then
/// the arrays.
pub fn print_formatted_data<W: Write + ?Sized>(
    m: &Model,
    d: &Data,
    w: &mut W,
    float_format: &FloatFormat,
) -> fmt::Result {
    let mut p = Printer {
        w,
        f: *float_format,
    };
    p.data_sizes(m, d)?;
    p.diagnostics(d)?;
    p.vector("ENERGY = ", &d.energy)?;
    p.w.write_char('\n')?;
    p.w.write_str("TIME = ")?;
    p.float(d.time)?;
    p.w.write_str("\n\n")?;

    let mut v = DataArrays {
        p,
        m,
        d,
        result: Ok(()),
    };
    d.visit(&mut v);
    v.result?;
    v.p.islands(m, d)
}

/// `x` as the double that C's varargs promote it to.
#[allow(clippy::useless_conversion)] // f64 -> f64 in the default build
fn to_f64(x: Real) -> f64 {
    f64::from(x)
}

/// The `(value, column)` pairs of row `r` of a sparse matrix; empty where an address is out of
/// range.
fn sparse_row<'a>(
    mat: &'a [Real],
    rownnz: &[i32],
    rowadr: &[i32],
    colind: &'a [i32],
    r: usize,
) -> impl Iterator<Item = (Real, i32)> + 'a {
    let adr = rowadr.get(r).and_then(|&a| usize::try_from(a).ok());
    let nnz = rownnz.get(r).and_then(|&n| usize::try_from(n).ok());
    let range = match (adr, nnz) {
        (Some(a), Some(n)) => a..a.saturating_add(n),
        _ => 0..0,
    };
    let values = mat.get(range.clone()).unwrap_or(&[]);
    let cols = colind.get(range).unwrap_or(&[]);
    values.iter().copied().zip(cols.iter().copied())
}

/// MuJoCo's name of an object type (`mju_type2Str`); `(null)` as glibc prints an unknown one.
fn type_name(t: i32) -> &'static str {
    const NAMES: [&str; 26] = [
        "(null)", "body", "xbody", "joint", "dof", "geom", "site", "camera", "light", "flex",
        "mesh", "skin", "hfield", "texture", "material", "pair", "exclude", "equality", "tendon",
        "actuator", "sensor", "numeric", "text", "tuple", "key", "plugin",
    ];
    match t {
        crate::types::OBJ_FRAME => "frame",
        _ => usize::try_from(t)
            .ok()
            .and_then(|i| NAMES.get(i))
            .copied()
            .unwrap_or("(null)"),
    }
}

/// The writer and the float format.
struct Printer<'w, W: Write + ?Sized> {
    w: &'w mut W,
    f: FloatFormat,
}

impl<W: Write + ?Sized> Printer<'_, W> {
    fn float(&mut self, x: Real) -> fmt::Result {
        self.f.write(self.w, to_f64(x))
    }

    /// A label in MuJoCo's `%-21s`.
    fn name(&mut self, s: &str) -> fmt::Result {
        write!(self.w, "{s:<21}")
    }

    /// `printVector`: `label` then ` value` per element, then a newline.
    fn vector(&mut self, label: &str, v: &[Real]) -> fmt::Result {
        self.w.write_str(label)?;
        for &x in v {
            self.w.write_char(' ')?;
            self.float(x)?;
        }
        self.w.write_char('\n')
    }

    /// `printArray`: a header and `nr` rows of `nc` floats; nothing when empty.
    fn array(&mut self, header: &str, nr: usize, nc: usize, v: &[Real]) -> fmt::Result {
        self.array_of(header, nr, nc, |p, i| match v.get(i) {
            Some(&x) => p.float(x),
            None => Ok(()),
        })
    }

    /// `printArrayInt`.
    fn array_int(&mut self, header: &str, nr: usize, v: &[i32]) -> fmt::Result {
        self.array_of(header, nr, 1, |p, i| match v.get(i) {
            Some(x) => write!(p.w, "{x}"),
            None => Ok(()),
        })
    }

    fn array_of(
        &mut self,
        header: &str,
        nr: usize,
        nc: usize,
        mut elem: impl FnMut(&mut Self, usize) -> fmt::Result,
    ) -> fmt::Result {
        if nr == 0 || nc == 0 {
            return Ok(());
        }
        writeln!(self.w, "{header}")?;
        for r in 0..nr {
            self.w.write_char(' ')?;
            for c in 0..nc {
                self.w.write_char(' ')?;
                elem(self, r * nc + c)?;
            }
            self.w.write_char('\n')?;
        }
        self.w.write_char('\n')
    }

    /// `printSparse`: a header and one line per row, `  col: value` per element.
    fn sparse(
        &mut self,
        header: &str,
        mat: &[Real],
        nr: usize,
        rownnz: &[i32],
        rowadr: &[i32],
        colind: &[i32],
    ) -> fmt::Result {
        writeln!(self.w, "{header}")?;
        for r in 0..nr {
            self.w.write_str("  ")?;
            for (x, c) in sparse_row(mat, rownnz, rowadr, colind, r) {
                write!(self.w, "  {c}: ")?;
                self.float(x)?;
            }
            self.w.write_char('\n')?;
        }
        self.w.write_char('\n')
    }

    /// A labelled line of integers, ` %d` each, and an empty line.
    fn int_line(&mut self, label: &str, v: impl IntoIterator<Item = i64>) -> fmt::Result {
        self.name(label)?;
        for x in v {
            write!(self.w, " {x}")?;
        }
        self.w.write_str("\n\n")
    }

    /// `%-Nd` with an optional `% ` flag, as the BVH table prints its columns.
    fn int_left(&mut self, x: i32, width: usize, space: bool) -> fmt::Result {
        let mut n = Counter(0);
        let sign = if space && x >= 0 { " " } else { "" };
        write!(n, "{sign}{x}")?;
        write!(self.w, "{sign}{x}")?;
        for _ in n.0..width {
            self.w.write_char(' ')?;
        }
        Ok(())
    }

    // ---------------------------------------------------------------- model

    /// `mjOption`: scalar floats, integers, then vectors, each group in struct order.
    fn options(&mut self, m: &Model) -> fmt::Result {
        for pass in 0..3 {
            let mut result = Ok(());
            m.opt.for_each(|name, kind, values| {
                let vector = values.len() > 1;
                let wanted = match pass {
                    0 => kind == Kind::Num && !vector,
                    1 => kind == Kind::Int,
                    _ => vector,
                };
                if wanted && result.is_ok() {
                    result = self.option(name, values, vector);
                }
            });
            result?;
        }
        Ok(())
    }

    fn option(&mut self, name: &str, values: &[Scalar], vector: bool) -> fmt::Result {
        self.name(name)?;
        for &v in values {
            match v {
                Scalar::Int(i) => write!(self.w, " {i}")?,
                Scalar::Real(x) => self.f.write(self.w, x)?,
            }
            if vector {
                self.w.write_char(' ')?;
            }
        }
        self.w.write_char('\n')
    }

    /// The per-object groups: a header, the name, then every field of that object class.
    fn objects(&mut self, m: &Model) -> fmt::Result {
        let s = m.sizes();
        let groups: [(&str, &str, usize, Option<&[i32]>); 19] = [
            ("BODY", "nbody", s.nbody, Some(&*m.name_bodyadr)),
            ("JOINT", "njnt", s.njnt, Some(&*m.name_jntadr)),
            ("DOF", "nv", s.nv, None),
            ("GEOM", "ngeom", s.ngeom, Some(&*m.name_geomadr)),
            ("SITE", "nsite", s.nsite, Some(&*m.name_siteadr)),
            ("CAMERA", "ncam", s.ncam, Some(&*m.name_camadr)),
            ("LIGHT", "nlight", s.nlight, Some(&*m.name_lightadr)),
            ("FLEX", "nflex", s.nflex, Some(&*m.name_flexadr)),
            ("MESH", "nmesh", s.nmesh, Some(&*m.name_meshadr)),
            ("SKIN", "nskin", s.nskin, Some(&*m.name_skinadr)),
            (
                "HEIGHTFIELD",
                "nhfield",
                s.nhfield,
                Some(&*m.name_hfieldadr),
            ),
            ("TEXTURE", "ntex", s.ntex, Some(&*m.name_texadr)),
            ("MATERIAL", "nmat", s.nmat, Some(&*m.name_matadr)),
            ("PAIR", "npair", s.npair, Some(&*m.name_pairadr)),
            ("EXCLUDE", "nexclude", s.nexclude, Some(&*m.name_excludeadr)),
            ("EQUALITY", "neq", s.neq, Some(&*m.name_eqadr)),
            ("TENDON", "ntendon", s.ntendon, Some(&*m.name_tendonadr)),
            ("ACTUATOR", "nu", s.nu, Some(&*m.name_actuatoradr)),
            ("SENSOR", "nsensor", s.nsensor, Some(&*m.name_sensoradr)),
        ];
        for (title, class, n, names) in groups {
            for i in 0..n {
                write!(self.w, "\n{title} {i}:\n")?;
                if let Some(adr) = names {
                    self.w.write_str("  ")?;
                    self.name("name")?;
                    // MuJoCo prints height field names after two spaces
                    let gap = if title == "HEIGHTFIELD" { "  " } else { " " };
                    let name = m.name_at(adr.get(i).copied().unwrap_or(-1));
                    writeln!(self.w, "{gap}{name}")?;
                }
                let mut fields = ObjectFields {
                    p: &mut *self,
                    class,
                    i,
                    result: Ok(()),
                };
                m.visit_classed(&mut fields);
                fields.result?;
                match title {
                    "MESH" => self.qhull(m, i)?,
                    "TENDON" => self.tendon_path(m, i)?,
                    _ => {}
                }
            }
            if n > 0 {
                self.w.write_char('\n')?;
            }
        }
        Ok(())
    }

    /// Face and vertex counts of mesh `i`'s convex hull, when it has one.
    fn qhull(&mut self, m: &Model, i: usize) -> fmt::Result {
        let Some(adr) = m
            .mesh_graphadr
            .get(i)
            .and_then(|&a| usize::try_from(a).ok())
        else {
            return Ok(());
        };
        let at = |k: usize| m.mesh_graph.get(adr + k).copied().unwrap_or(0);
        self.w.write_str("  ")?;
        self.name("qhull face")?;
        writeln!(self.w, " {}", at(1))?;
        self.w.write_str("  ")?;
        self.name("qhull vert")?;
        writeln!(self.w, " {}", at(0))
    }

    /// The wrap objects of tendon `i`.
    fn tendon_path(&mut self, m: &Model, i: usize) -> fmt::Result {
        self.w.write_str("  path\n    type  objid  prm\n")?;
        let adr = m.tendon_adr.get(i).copied().unwrap_or(0);
        let num = m.tendon_num.get(i).copied().unwrap_or(0);
        for k in (adr..adr.saturating_add(num)).filter_map(|k| usize::try_from(k).ok()) {
            let (Some(t), Some(id), Some(&prm)) =
                (m.wrap_type.get(k), m.wrap_objid.get(k), m.wrap_prm.get(k))
            else {
                break;
            };
            write!(self.w, "    {t}     {id}     ")?;
            self.float(prm)?;
            self.w.write_char('\n')?;
        }
        self.w.write_char('\n')
    }

    /// Custom numeric, text and tuple data.
    fn custom(&mut self, m: &Model) -> fmt::Result {
        for i in 0..m.nnumeric {
            write!(self.w, "\nNUMERIC {i}:\n")?;
            let size = m.numeric_size.get(i).copied().unwrap_or(0);
            writeln!(
                self.w,
                "  name         {}",
                name_of(m, &m.name_numericadr, i)
            )?;
            writeln!(self.w, "  size         {size}")?;
            self.w.write_str("  value       ")?;
            let adr = m.numeric_adr.get(i).copied().unwrap_or(0);
            for &x in slice_at(&m.numeric_data, adr, size) {
                self.float(x)?;
            }
            self.w.write_char('\n')?;
        }
        if m.nnumeric > 0 {
            self.w.write_char('\n')?;
        }
        for i in 0..m.ntext {
            write!(self.w, "\nTEXT {i}:\n")?;
            writeln!(self.w, "  name         {}", name_of(m, &m.name_textadr, i))?;
            writeln!(
                self.w,
                "  size         {}",
                m.text_size.get(i).copied().unwrap_or(0)
            )?;
            let adr = m.text_adr.get(i).copied().unwrap_or(-1);
            writeln!(self.w, "  value        {}", c_str(&m.text_data, adr))?;
        }
        if m.ntext > 0 {
            self.w.write_char('\n')?;
        }
        for i in 0..m.ntuple {
            write!(self.w, "\nTUPLE {i}:\n")?;
            let size = m.tuple_size.get(i).copied().unwrap_or(0);
            writeln!(self.w, "  name         {}", name_of(m, &m.name_tupleadr, i))?;
            writeln!(self.w, "  size         {size}")?;
            self.w.write_str("  elements\n")?;
            let adr = m.tuple_adr.get(i).copied().unwrap_or(0);
            let objtype = slice_at(&m.tuple_objtype, adr, size);
            let objid = slice_at(&m.tuple_objid, adr, size);
            let prm = slice_at(&m.tuple_objprm, adr, size);
            for ((&t, &id), &x) in objtype.iter().zip(objid).zip(prm) {
                write!(self.w, "       {} {id}, prm = ", type_name(t))?;
                self.float(x)?;
                self.w.write_char('\n')?;
            }
        }
        if m.ntuple > 0 {
            self.w.write_char('\n')?;
        }
        Ok(())
    }

    /// Keyframes: only what differs from the defaults (qpos0, zeros, the mocap bodies' poses).
    fn keyframes(&mut self, m: &Model) -> fmt::Result {
        let (nq, nv, na, nu, nmocap) = (m.nq, m.nv, m.na, m.nu, m.nmocap);
        for i in 0..m.nkey {
            let name = name_of(m, &m.name_keyadr, i);
            if !name.is_empty() {
                writeln!(self.w, "key_name{i}    {name}")?;
            }
            let time = m.key_time.get(i).copied().unwrap_or(0.0);
            if time != 0.0 {
                write!(self.w, "key_time{i}    ")?;
                FloatFormat {
                    precision: Some(4),
                    ..FloatFormat::MAT
                }
                .write(self.w, to_f64(time))?;
                self.w.write_char('\n')?;
            }
            let qpos = row(&m.key_qpos, i, nq);
            let qvel = row(&m.key_qvel, i, nv);
            let act = row(&m.key_act, i, na);
            let mpos = row(&m.key_mpos, i, 3 * nmocap);
            let mquat = row(&m.key_mquat, i, 4 * nmocap);
            let ctrl = row(&m.key_ctrl, i, nu);
            let mocap_differs = |k: usize, body: &[Real], key: &[Real]| {
                (0..m.nbody).any(|j| {
                    let Some(id) = m
                        .body_mocapid
                        .get(j)
                        .and_then(|&id| usize::try_from(id).ok())
                    else {
                        return false;
                    };
                    (0..k).any(|c| body.get(k * j + c) != key.get(k * id + c))
                })
            };
            let sections: [(&str, &[Real], bool); 6] = [
                (
                    "qpos",
                    qpos,
                    qpos.iter().zip(m.qpos0.iter()).any(|(a, b)| a != b),
                ),
                ("qvel", qvel, qvel.iter().any(|&x| x != 0.0)),
                ("act", act, act.iter().any(|&x| x != 0.0)),
                (
                    "mpos",
                    mpos,
                    nmocap > 0 && mocap_differs(3, &m.body_pos, mpos),
                ),
                (
                    "mquat",
                    mquat,
                    nmocap > 0 && mocap_differs(4, &m.body_quat, mquat),
                ),
                ("ctrl", ctrl, ctrl.iter().any(|&x| x != 0.0)),
            ];
            let mut any = false;
            for (label, values, print) in sections {
                if print {
                    any = true;
                    write!(self.w, "key_{label}{i}   ")?;
                    for &x in values {
                        self.float(x)?;
                    }
                    self.w.write_char('\n')?;
                }
            }
            if any {
                self.w.write_char('\n')?;
            }
        }
        Ok(())
    }

    /// The bounding-volume hierarchy table.
    fn bvh(&mut self, m: &Model) -> fmt::Result {
        self.w.write_str("BVH:\n")?;
        writeln!(
            self.w,
            "  {:<8}{:<8}{:<8}{:<10}child[1]",
            "id", "depth", "nodeid", "child[0]"
        )?;
        for i in 0..m.nbvh {
            let at = |v: &[i32], k: usize| v.get(k).copied().unwrap_or(0);
            self.w.write_str("  ")?;
            self.int_left(i32::try_from(i).unwrap_or(i32::MAX), 8, false)?;
            self.int_left(at(&m.bvh_depth, i), 8, false)?;
            self.int_left(at(&m.bvh_nodeid, i), 8, true)?;
            self.int_left(at(&m.bvh_child, 2 * i), 10, true)?;
            self.int_left(at(&m.bvh_child, 2 * i + 1), 0, true)?;
            self.w.write_char('\n')?;
        }
        self.w.write_char('\n')
    }

    // ---------------------------------------------------------------- data

    /// The `mjData` scalars (`MJDATA_SCALAR` less the stack pointers and time).
    fn data_sizes(&mut self, m: &Model, d: &Data) -> fmt::Result {
        self.w.write_str("SIZES\n")?;
        let a = &d.arena.state;
        let nbuffer = Data::mujoco_nbuffer(m.sizes()).unwrap_or(0);
        for (name, v) in [
            ("narena", m.narena),
            ("nbuffer", nbuffer),
            ("nplugin", d.nplugin()),
            ("maxuse_stack", a.maxuse_stack),
            ("maxuse_arena", a.maxuse_arena),
            ("maxuse_con", d.maxuse_con),
            ("maxuse_efc", d.maxuse_efc),
            ("solver_nisland", d.solver_nisland),
            ("ne", d.ne),
            ("nf", d.nf),
            ("nl", d.nl),
            ("nefc", d.nefc),
            ("nnzJ", d.nnzJ),
            ("ncon", d.ncon),
            ("nisland", d.nisland),
            ("threadpool", 0),
        ] {
            self.w.write_str("  ")?;
            self.name(name)?;
            writeln!(self.w, " {v}")?;
        }
        self.w.write_char('\n')
    }

    /// Warnings, timers and solver statistics, each only when there is something to show.
    fn diagnostics(&mut self, d: &Data) -> fmt::Result {
        if d.warning.iter().map(|w| i64::from(w.number)).sum::<i64>() != 0 {
            self.w.write_str("WARNING\n")?;
            for (i, w) in d.warning.iter().enumerate().filter(|(_, w)| w.number != 0) {
                writeln!(
                    self.w,
                    "    {i}:  lastinfo = {}   number = {}",
                    w.lastinfo, w.number
                )?;
            }
            self.w.write_char('\n')?;
        }
        if d.timer.iter().fold(0.0 as Real, |s, t| s + t.duration) != 0.0 {
            self.w.write_str("TIMER\n")?;
            for (i, t) in d.timer.iter().enumerate() {
                write!(self.w, "    {i}:  duration = ")?;
                self.float(t.duration)?;
                writeln!(self.w, "   number = {}", t.number)?;
            }
            self.w.write_char('\n')?;
        }
        if d.nefc == 0 {
            return Ok(());
        }
        self.w.write_str("SOLVER STAT\n")?;
        writeln!(self.w, "  solver_nisland = {}", d.solver_nisland)?;
        self.vector("  solver_fwdinv = ", &d.solver_fwdinv)?;
        for island in 0..d.solver_nisland.min(NISLAND) {
            let niter = d.solver_niter[island];
            let nstat = usize::try_from(niter).unwrap_or(0).min(NSOLVER_STATS);
            if nstat == 0 {
                continue;
            }
            writeln!(self.w, "  ISLAND {island}")?;
            writeln!(self.w, "    solver_niter = {niter}")?;
            writeln!(self.w, "    solver_nnz = {}", d.solver_nnz[island])?;
            let stats = d.solver.get(island * NSOLVER_STATS..).unwrap_or(&[]);
            for (i, s) in stats.iter().take(nstat).enumerate() {
                write!(self.w, "      {i}:  improvement = ")?;
                self.float(s.improvement)?;
                self.w.write_str("    gradient = ")?;
                self.float(s.gradient)?;
                self.w.write_str("    lineslope = ")?;
                self.float(s.lineslope)?;
                self.w.write_char('\n')?;
                writeln!(
                    self.w,
                    "          nactive = {}   nchange = {}   neval = {}   nupdate = {}",
                    s.nactive, s.nchange, s.neval, s.nupdate
                )?;
            }
            self.w.write_char('\n')?;
        }
        Ok(())
    }

    /// A dense `nv x nv` matrix from `qM`'s sparse layout (`mj_fullM`), printed without
    /// building it: entry `(i, j)` is found on the dof chain of the larger index.
    fn full_m(&mut self, m: &Model, header: &str, mat: &[Real]) -> fmt::Result {
        let nv = m.nv;
        self.array_of(header, nv, nv, |p, k| {
            let (i, j) = (k / nv, k % nv);
            let (row, col) = if j <= i { (i, j) } else { (j, i) };
            let mut adr = m.dof_Madr.get(row).copied().unwrap_or(0);
            let mut dof = i32::try_from(row).unwrap_or(-1);
            let target = i32::try_from(col).unwrap_or(-1);
            let mut value = 0.0;
            let mut guard = 0;
            while dof >= 0 && guard <= nv {
                if dof == target {
                    value = usize::try_from(adr)
                        .ok()
                        .and_then(|a| mat.get(a))
                        .copied()
                        .unwrap_or(0.0);
                    break;
                }
                dof = m.dof_parentid.get(dof as usize).copied().unwrap_or(-1);
                adr += 1;
                guard += 1;
            }
            p.float(value)
        })
    }

    /// A dense `nv x nv` matrix from the sparse `D` layout (`mju_sparse2dense`).
    fn dense_d(&mut self, m: &Model, d: &Data, header: &str, mat: &[Real]) -> fmt::Result {
        let nv = m.nv;
        self.array_of(header, nv, nv, |p, k| {
            let (r, c) = (k / nv, k % nv);
            let value = sparse_row(mat, d.D_rownnz, d.D_rowadr, d.D_colind, r)
                .filter(|&(_, col)| usize::try_from(col).is_ok_and(|col| col == c))
                .last()
                .map_or(0.0, |(x, _)| x);
            p.float(value)
        })
    }

    /// The contacts.
    fn contacts(&mut self, m: &Model, contacts: &[Contact]) -> fmt::Result {
        self.w.write_str("CONTACT\n")?;
        for (i, c) in contacts.iter().enumerate() {
            write!(self.w, "  {i}:\n     dim           {}\n", c.dim)?;
            let [g1, g2] = c.geom;
            if g1 > -1 && g2 > -1 {
                self.w.write_str("     geoms         ")?;
                for (g, end) in [(g1, " : "), (g2, "\n")] {
                    let name = name_of(m, &m.name_geomadr, g as usize);
                    if name.is_empty() {
                        write!(self.w, "{g}{end}")?;
                    } else {
                        write!(self.w, "{name}{end}")?;
                    }
                }
            } else {
                writeln!(
                    self.w,
                    "     gfev          {} {} {} {} : {} {} {} {}",
                    c.geom[0],
                    c.flex[0],
                    c.elem[0],
                    c.vert[0],
                    c.geom[1],
                    c.flex[1],
                    c.elem[1],
                    c.vert[1]
                )?;
            }
            write!(
                self.w,
                "     exclude       {}\n     efc_address   {}\n",
                c.exclude, c.efc_address
            )?;
            self.vector("     solref       ", &c.solref)?;
            self.vector("     solimp       ", &c.solimp)?;
            self.vector("     dist         ", &[c.dist])?;
            self.vector("     includemargin", &[c.includemargin])?;
            self.vector("     pos          ", &c.pos)?;
            self.vector("     frame        ", &c.frame)?;
            self.vector("     friction     ", &c.friction)?;
            self.vector("     mu           ", &[c.mu])?;
        }
        if !contacts.is_empty() {
            self.w.write_char('\n')?;
        }
        Ok(())
    }

    /// The constraint rows made by `mj_makeConstraint` and `mj_projectConstraint`.
    fn constraint_rows(&mut self, m: &Model, d: &Data) -> fmt::Result {
        let a = d.arena.arrays();
        let nefc = d.nefc;
        self.array_int("EFC_TYPE", nefc, a.efc_type)?;
        self.array_int("EFC_ID", nefc, a.efc_id)?;
        // MuJoCo allocates the efc arrays whenever constraints are enabled, efc_AR only for
        // the dual problem; a sparse matrix prints its header even with no rows
        let allocated = m.opt.disableflags & DSBL_CONSTRAINT == 0;
        let dual = allocated && crate::support::is_dual(m);
        if !crate::support::is_sparse(m) {
            self.array("EFC_J", nefc, m.nv, a.efc_J)?;
            if dual {
                self.array("EFC_AR", nefc, nefc, a.efc_AR)?;
            }
        } else {
            self.array_int("EFC_J_ROWNNZ", nefc, a.efc_J_rownnz)?;
            self.array_int("EFC_J_ROWADR", nefc, a.efc_J_rowadr)?;
            if allocated {
                self.sparse(
                    "EFC_J",
                    a.efc_J,
                    nefc,
                    a.efc_J_rownnz,
                    a.efc_J_rowadr,
                    a.efc_J_colind,
                )?;
            }
            if dual {
                self.array_int("EFC_AR_ROWNNZ", nefc, a.efc_AR_rownnz)?;
                self.array_int("EFC_AR_ROWADR", nefc, a.efc_AR_rowadr)?;
                self.sparse(
                    "EFC_AR",
                    a.efc_AR,
                    nefc,
                    a.efc_AR_rownnz,
                    a.efc_AR_rowadr,
                    a.efc_AR_colind,
                )?;
            }
        }
        self.array("EFC_POS", nefc, 1, a.efc_pos)?;
        self.array("EFC_MARGIN", nefc, 1, a.efc_margin)?;
        self.array("EFC_FRICTIONLOSS", nefc, 1, a.efc_frictionloss)?;
        self.array("EFC_DIAGAPPROX", nefc, 1, a.efc_diagApprox)?;
        self.array("EFC_KBIP", nefc, 4, a.efc_KBIP)?;
        self.array("EFC_D", nefc, 1, a.efc_D)?;
        self.array("EFC_R", nefc, 1, a.efc_R)
    }

    /// Islands (when found) and the tendons' first constraint rows.
    fn islands(&mut self, m: &Model, d: &Data) -> fmt::Result {
        let a = d.arena.arrays();
        if d.nisland > 0 {
            let (nv, nefc, ni) = (m.nv, d.nefc, d.nisland);
            self.int_line("DOF_ISLAND", ints(a.dof_island, nv))?;
            self.int_line("ISLAND_DOFNUM", ints(a.island_dofnum, ni))?;
            self.int_line("ISLAND_DOFADR", ints(a.island_dofadr, ni))?;
            self.int_line("ISLAND_DOFIND", ints(a.island_dofind, nv))?;
            self.int_line("DOF_ISLANDIND", ints(a.dof_islandind, nv))?;
            self.int_line("EFC_ISLAND", ints(a.efc_island, nefc))?;
            self.int_line("ISLAND_EFCNUM", ints(a.island_efcnum, ni))?;
            self.int_line("ISLAND_EFCADR", ints(a.island_efcadr, ni))?;
            self.int_line("ISLAND_EFCIND", ints(a.island_efcind, nefc))?;
        }
        if m.ntendon > 0 {
            self.int_line("TENDON_EFCADR", ints(a.tendon_efcadr, m.ntendon))?;
        }
        Ok(())
    }
}

/// The first `n` elements of `v` as `i64`.
fn ints(v: &[i32], n: usize) -> impl Iterator<Item = i64> + '_ {
    v.iter().take(n).map(|&x| i64::from(x))
}

/// Counts the characters written.
struct Counter(usize);

impl Write for Counter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.chars().count();
        Ok(())
    }
}

/// The name of object `i` whose name addresses are `adr`.
fn name_of<'m>(m: &'m Model, adr: &[i32], i: usize) -> &'m str {
    m.name_at(adr.get(i).copied().unwrap_or(-1))
}

/// The NUL-terminated string at `adr` of `bytes` (empty when out of range or not UTF-8).
fn c_str(bytes: &[u8], adr: i32) -> &str {
    let tail = usize::try_from(adr)
        .ok()
        .and_then(|a| bytes.get(a..))
        .unwrap_or(&[]);
    let end = tail.iter().position(|&b| b == 0).unwrap_or(tail.len());
    core::str::from_utf8(&tail[..end]).unwrap_or("")
}

/// Row `i` of a matrix of `n` columns, empty when out of range.
fn row(v: &[Real], i: usize, n: usize) -> &[Real] {
    v.get(i * n..(i + 1) * n).unwrap_or(&[])
}

/// `v[adr..adr + n]`, empty when out of range.
fn slice_at<T>(v: &[T], adr: i32, n: i32) -> &[T] {
    match (usize::try_from(adr), usize::try_from(n)) {
        (Ok(a), Ok(n)) => v.get(a..a.saturating_add(n)).unwrap_or(&[]),
        _ => &[],
    }
}

/// Prints the fields of one object: the table rows counted by `class` (MuJoCo's
/// `&m->num == object_class`), except names and empty rows.
struct ObjectFields<'p, 'w, W: Write + ?Sized> {
    p: &'p mut Printer<'w, W>,
    class: &'static str,
    i: usize,
    result: fmt::Result,
}

impl<W: Write + ?Sized> ClassedVisitor for ObjectFields<'_, '_, W> {
    fn array<T: Elem>(&mut self, size: &str, info: &FieldInfo, data: &[T]) {
        let printable = matches!(info.kind, Kind::Num | Kind::Float | Kind::Int | Kind::Byte);
        if self.result.is_err()
            || size != self.class
            || info.name.starts_with("name_")
            || info.cols == 0
            || !printable
        {
            return;
        }
        let row = self
            .i
            .checked_mul(info.cols)
            .and_then(|s| data.get(s..s.checked_add(info.cols)?))
            .unwrap_or(&[]);
        self.result = (|| {
            self.p.w.write_str("  ")?;
            self.p.name(info.name)?;
            for &x in row {
                match x.to_scalar() {
                    Scalar::Int(v) => write!(self.p.w, " {v}")?,
                    Scalar::Real(v) => self.p.f.write(self.p.w, v)?,
                }
                self.p.w.write_char(' ')?;
            }
            self.p.w.write_char('\n')
        })();
    }
}

/// A visitor of the model table that also learns which size counts each array's rows.
pub(crate) trait ClassedVisitor {
    /// Called once per array, in table order, with the name of its row count (`nbody`...).
    fn array<T: Elem>(&mut self, size: &str, info: &FieldInfo, data: &[T]);
}

macro_rules! gen_visit_classed {
    ($($name:ident : $ty:ident [$rows:ident, $($cols:tt)+]),* $(,)?) => {
        impl Model<'_> {
            /// Like [`Model::visit`], telling the visitor the size that counts each array's rows.
            pub(crate) fn visit_classed<V: ClassedVisitor>(&self, v: &mut V) {
                let s = self.sizes();
                $(
                    v.array(stringify!($rows), &FieldInfo {
                        name: stringify!($name),
                        kind: mj_kind!($ty),
                        rows: s.$rows,
                        cols: mj_cols!(s; $($cols)+).unwrap_or(0),
                        matrix: mj_is_matrix!($($cols)+),
                    }, &*self.$name);
                )*
            }
        }
    };
}
mjmodel_arrays!(gen_visit_classed);

/// Prints the fixed-size data arrays in table order, under their upper-cased names, with
/// MuJoCo's exceptions; the arena arrays are printed after the fields MuJoCo prints them after.
struct DataArrays<'w, 'm, 'a, W: Write + ?Sized> {
    p: Printer<'w, W>,
    m: &'m Model<'m>,
    d: &'m Data<'a>,
    result: fmt::Result,
}

impl<W: Write + ?Sized> ArrayVisitor for DataArrays<'_, '_, '_, W> {
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) {
        if self.result.is_ok() {
            self.result = self.field(info, data);
        }
    }
}

impl<W: Write + ?Sized> DataArrays<'_, '_, '_, W> {
    fn field<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) -> fmt::Result {
        let (m, d) = (self.m, self.d);
        let p = &mut self.p;
        let sparse = crate::support::is_sparse(m);
        match info.name {
            // not printed by MuJoCo (plugin state, midphase, implicit-integration scratch),
            // or printed elsewhere in its order (sparse structures, qDeriv, qLU, wraps)
            "plugin_state" | "plugin" | "plugin_data" | "bvh_aabb_dyn" | "bvh_active" | "qH"
            | "qHDiagInv" | "flexedge_J_colind" | "ten_wrapadr" | "ten_wrapnum"
            | "ten_J_rownnz" | "ten_J_rowadr" | "ten_J_colind" | "wrap_xpos" | "D_rownnz"
            | "D_rowadr" | "D_colind" | "B_rownnz" | "B_rowadr" | "B_colind" | "qDeriv" | "qLU" => {
                Ok(())
            }
            "eq_active" if m.neq > 0 => {
                p.int_line("EQ_ACTIVE", d.eq_active.iter().map(|&x| i64::from(x)))
            }
            "eq_active" => Ok(()),
            "sensordata" => p.array("SENSOR", info.rows, info.cols, d.sensordata),
            "flexedge_J_rownnz" | "flexedge_J_rowadr" if sparse => p.upper_array(info, data),
            "flexedge_J_rownnz" | "flexedge_J_rowadr" => Ok(()),
            "flexedge_J" if sparse => p.sparse(
                "FLEXEDGE_J",
                d.flexedge_J,
                m.nflexedge,
                d.flexedge_J_rownnz,
                d.flexedge_J_rowadr,
                d.flexedge_J_colind,
            ),
            "ten_J" if sparse => {
                p.array_int("TEN_J_ROWNNZ", m.ntendon, d.ten_J_rownnz)?;
                p.array_int("TEN_J_ROWADR", m.ntendon, d.ten_J_rowadr)?;
                p.sparse(
                    "TEN_J",
                    d.ten_J,
                    m.ntendon,
                    d.ten_J_rownnz,
                    d.ten_J_rowadr,
                    d.ten_J_colind,
                )
            }
            "ten_J" => p.array("TEN_MOMENT", info.rows, info.cols, d.ten_J),
            "wrap_obj" => p.wraps(m, d),
            "qM" => p.full_m(m, "QM", d.qM),
            "qLD" => p.full_m(m, "QLD", d.qLD),
            "qLDiagSqrtInv" => {
                p.array("QLDIAGSQRTINV", info.rows, info.cols, d.qLDiagSqrtInv)?;
                p.second_order(m, d)
            }
            "qfrc_passive" => {
                p.array("QFRC_PASSIVE", info.rows, info.cols, d.qfrc_passive)?;
                let a = d.arena.arrays();
                p.array("EFC_VEL", d.nefc, 1, a.efc_vel)?;
                p.array("EFC_AREF", d.nefc, 1, a.efc_aref)
            }
            "qacc_smooth" => {
                p.array("QACC_SMOOTH", info.rows, info.cols, d.qacc_smooth)?;
                let a = d.arena.arrays();
                p.array("EFC_B", d.nefc, 1, a.efc_b)?;
                p.array("EFC_FORCE", d.nefc, 1, a.efc_force)?;
                p.array_int("EFC_STATE", d.nefc, a.efc_state)
            }
            _ => p.upper_array(info, data),
        }
    }
}

impl<W: Write + ?Sized> Printer<'_, W> {
    /// A table array under its upper-cased name: floats in the float format (`printArray`),
    /// integers in `%d` (`printArrayInt`).
    fn upper_array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) -> fmt::Result {
        let mut h = HeaderBuf::new();
        write!(h, "{}", Upper(info.name))?;
        self.array_of(h.as_str(), info.rows, info.cols, |p, i| match data.get(i) {
            Some(x) => match x.to_scalar() {
                Scalar::Real(v) => p.f.write(p.w, v),
                Scalar::Int(v) => write!(p.w, "{v}"),
            },
            None => Ok(()),
        })
    }

    /// The wrap points of every tendon.
    fn wraps(&mut self, m: &Model, d: &Data) -> fmt::Result {
        for i in 0..m.ntendon {
            let num = d.ten_wrapnum.get(i).copied().unwrap_or(0);
            writeln!(self.w, "TENDON {i}: {num} wrap points")?;
            let adr = d.ten_wrapadr.get(i).copied().unwrap_or(0);
            for k in (adr..adr.saturating_add(num)).filter_map(|k| usize::try_from(k).ok()) {
                let obj = d.wrap_obj.get(k).copied().unwrap_or(0);
                write!(self.w, "    {obj}:  ")?;
                let xpos = d.wrap_xpos.get(3 * k..3 * k + 3).unwrap_or(&[]);
                self.vector("", xpos)?;
            }
            self.w.write_char('\n')?;
        }
        Ok(())
    }

    /// What MuJoCo prints after the mass matrix: the sparse structures of `qDeriv` and of the
    /// body-dof matrix, `qDeriv` and `qLU` as dense matrices, the contacts and the constraint
    /// rows.
    fn second_order(&mut self, m: &Model, d: &Data) -> fmt::Result {
        self.int_line("D_rownnz", ints(d.D_rownnz, m.nv))?;
        self.int_line("D_rowadr", ints(d.D_rowadr, m.nv))?;
        self.int_line("D_colind", ints(d.D_colind, m.nD))?;
        self.int_line("B_rownnz", ints(d.B_rownnz, m.nbody))?;
        self.int_line("B_rowadr", ints(d.B_rowadr, m.nbody))?;
        self.int_line("B_colind", ints(d.B_colind, m.nB))?;
        self.dense_d(m, d, "QDERIV", d.qDeriv)?;
        self.dense_d(m, d, "QLU", d.qLU)?;
        let arrays = d.arena.arrays();
        let contacts = arrays.contact.get(..d.ncon).unwrap_or(arrays.contact);
        self.contacts(m, contacts)?;
        self.constraint_rows(m, d)
    }
}

/// A field name upper-cased as it is written.
struct Upper<'s>(&'s str);

impl fmt::Display for Upper<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            f.write_char(c.to_ascii_uppercase())?;
        }
        Ok(())
    }
}

/// Room for one array header.
type HeaderBuf = format::TextBuf<64>;
