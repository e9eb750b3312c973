//! JSON dumps of `Model` and `Data` in the exact shape of `mjref model` / `mjref data`: every
//! field under MuJoCo's name as a flat row-major list, its shape under `"shapes"`, sizes and
//! option fields as scalars, non-finite numbers as the strings `"nan"`, `"inf"`, `"-inf"`.
//! A diff against the reference is then mechanical (see the `mjrs-tests` crate).

//!
//! This file is compiled once per precision (`mjrs::dump` for the f64 core, `mjrs::f32::dump`
//! for the f32 core): `super::mj` is the core crate of that precision.

use super::mj;
use mj::arena::ArenaDims;
use mj::data::Contact;
use mj::layout::{ArrayVisitor, Elem, FieldInfo, Kind, Scalar};
use mj::{Data, Model, Real};
use std::fmt::Write as _;

/// A real of the core's precision as an f64 (exactly).
pub fn wide(x: Real) -> f64 {
    match x.to_scalar() {
        Scalar::Real(r) => r,
        Scalar::Int(i) => i as f64,
    }
}

/// Builds one JSON object incrementally: fields in insertion order plus a `"shapes"` map.
#[derive(Default)]
pub struct JsonObject {
    body: String,
    shapes: String,
}

impl JsonObject {
    fn key(&mut self, name: &str) {
        if !self.body.is_empty() {
            self.body.push(',');
        }
        let _ = write!(self.body, "\"{name}\":");
    }

    /// Adds an integer field.
    pub fn int(&mut self, name: &str, v: i64) {
        self.key(name);
        let _ = write!(self.body, "{v}");
    }

    /// Adds a floating-point field.
    pub fn real(&mut self, name: &str, v: f64) {
        self.key(name);
        push_real(&mut self.body, v);
    }

    /// Adds a string field (escaped).
    pub fn string(&mut self, name: &str, v: &str) {
        self.key(name);
        push_string(&mut self.body, v);
    }

    /// Adds a field whose value is already JSON text.
    pub fn raw(&mut self, name: &str, json: &str) {
        self.key(name);
        self.body.push_str(json);
    }

    /// Adds a flat list with its shape.
    pub fn list(&mut self, name: &str, values: impl Iterator<Item = Scalar>, shape: &[usize]) {
        self.key(name);
        push_list(&mut self.body, values);
        if !self.shapes.is_empty() {
            self.shapes.push(',');
        }
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let _ = write!(self.shapes, "\"{name}\":[{}]", dims.join(","));
    }

    /// The finished object, with `"shapes"` and a version tag.
    pub fn finish(mut self) -> String {
        self.raw("shapes", &format!("{{{}}}", self.shapes.clone()));
        self.string("mjrs_version", env!("CARGO_PKG_VERSION"));
        format!("{{{}}}", self.body)
    }
}

fn push_real(out: &mut String, v: f64) {
    if v.is_nan() {
        out.push_str("\"nan\"");
    } else if v.is_infinite() {
        out.push_str(if v > 0.0 { "\"inf\"" } else { "\"-inf\"" });
    } else {
        // `{:?}` prints the shortest text that reads back as the same f64
        let _ = write!(out, "{v:?}");
    }
}

fn push_scalar(out: &mut String, s: Scalar) {
    match s {
        Scalar::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Scalar::Real(r) => push_real(out, r),
    }
}

fn push_list(out: &mut String, values: impl Iterator<Item = Scalar>) {
    out.push('[');
    for (i, v) in values.enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_scalar(out, v);
    }
    out.push(']');
}

pub(crate) fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The numpy shape MuJoCo's Python bindings give a field.
fn shape(info: &FieldInfo) -> Vec<usize> {
    if info.matrix {
        vec![info.rows, info.cols]
    } else {
        vec![info.rows]
    }
}

/// One element as a JSON scalar; `char` fields show as numpy's int8.
fn element<T: Elem>(kind: Kind, x: T) -> Scalar {
    match (kind, x.to_scalar()) {
        (Kind::Char, Scalar::Int(i)) => Scalar::Int(i64::from(i as u8 as i8)),
        (_, s) => s,
    }
}

/// Adds every visited array to a [`JsonObject`], skipping the names in `skip`.
struct ArraysToJson<'o> {
    obj: &'o mut JsonObject,
    skip: &'static [&'static str],
}

impl ArrayVisitor for ArraysToJson<'_> {
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) {
        if !self.skip.contains(&info.name) {
            let kind = info.kind;
            self.obj.list(
                info.name,
                data.iter().map(|&x| element(kind, x)),
                &shape(info),
            );
        }
    }
}

/// Arrays the reference leaves out of its model dump (byte strings in the Python bindings);
/// `names` is written separately, as a string.
const MODEL_SKIP: &[&str] = &["text_data", "paths", "names"];

/// The results of inverse dynamics as JSON, in the shape of `mjref inverse`: `qfrc_inverse`,
/// `efc_force`, `sensordata`, `cacc`, `cfrc_int`, `cfrc_ext`.
pub fn inverse_json(m: &Model, d: &Data) -> String {
    let mut obj = JsonObject::default();
    let reals = |v: &[Real]| v.iter().map(|&x| x.to_scalar()).collect::<Vec<_>>();
    let efc_force = d.arena.arrays().efc_force;
    let efc_force = &efc_force[..d.nefc.min(efc_force.len())];
    for (name, values, shape) in [
        ("qfrc_inverse", reals(d.qfrc_inverse), vec![m.nv]),
        ("efc_force", reals(efc_force), vec![efc_force.len()]),
        ("sensordata", reals(d.sensordata), vec![m.nsensordata]),
        ("cacc", reals(d.cacc), vec![m.nbody, 6]),
        ("cfrc_int", reals(d.cfrc_int), vec![m.nbody, 6]),
        ("cfrc_ext", reals(d.cfrc_ext), vec![m.nbody, 6]),
    ] {
        obj.list(name, values.into_iter(), &shape);
    }
    obj.finish()
}

/// Every `Model` field as JSON, in the shape of `mjref model`.
pub fn model_json(m: &Model) -> String {
    let mut obj = JsonObject::default();
    m.visit(&mut ArraysToJson {
        obj: &mut obj,
        skip: MODEL_SKIP,
    });
    m.sizes().for_each(|name, v| obj.int(name, v));
    m.opt
        .for_each(|name, _, values| struct_field(&mut obj, "opt", name, values));
    m.stat
        .for_each(|name, _, values| struct_field(&mut obj, "stat", name, values));
    let names: String = m.names.iter().map(|&b| char::from(b)).collect();
    obj.string("names", &names);
    obj.finish()
}

/// A field of `opt` or `stat`: scalar, or list with shape when it has several values.
fn struct_field(obj: &mut JsonObject, prefix: &str, name: &str, values: &[Scalar]) {
    let key = format!("{prefix}.{name}");
    match values {
        [Scalar::Int(i)] => obj.int(&key, *i),
        [Scalar::Real(r)] => obj.real(&key, *r),
        _ => obj.list(&key, values.iter().copied(), &[values.len()]),
    }
}

/// Every `Data` field as JSON, in the shape of `mjref data`.
pub fn data_json(m: &Model, d: &Data) -> String {
    let mut obj = JsonObject::default();
    d.visit(&mut ArraysToJson {
        obj: &mut obj,
        skip: &[],
    });
    let arrays = d.arena.arrays();
    let dims = ArenaDims {
        nv: m.nv,
        ntendon: m.ntendon,
        nefc: d.nefc,
        nnzJ: d.nnzJ,
        ncon: d.ncon,
        nisland: d.nisland,
    };
    arrays.visit(
        &dims,
        &mut ArraysToJson {
            obj: &mut obj,
            skip: &[],
        },
    );
    let contacts = &arrays.contact[..d.ncon.min(arrays.contact.len())];
    obj.raw("contact", &contact_json(contacts));
    let h = d.header();
    let s = &h.arena;
    for (name, v) in [
        ("narena", m.narena),
        ("nbuffer", Data::mujoco_nbuffer(m.sizes()).unwrap_or(0)),
        ("nplugin", d.nplugin()),
        ("pstack", 0),
        ("pbase", 0),
        ("parena", s.parena),
        ("maxuse_stack", s.maxuse_stack),
        ("maxuse_arena", s.maxuse_arena),
        ("maxuse_con", h.maxuse_con),
        ("maxuse_efc", h.maxuse_efc),
        ("solver_nisland", h.solver_nisland),
        ("ne", h.ne),
        ("nf", h.nf),
        ("nl", h.nl),
        ("nefc", h.nefc),
        ("nnzJ", h.nnzJ),
        ("ncon", h.ncon),
        ("nisland", h.nisland),
        ("threadpool", 0),
    ] {
        obj.int(name, v as i64);
    }
    obj.real("time", wide(h.time));
    obj.list(
        "maxuse_threadstack",
        d.maxuse_threadstack().iter().map(|&x| x.to_scalar()),
        &[d.maxuse_threadstack().len()],
    );
    obj.list(
        "solver_nnz",
        h.solver_nnz.iter().map(|&x| x.to_scalar()),
        &[h.solver_nnz.len()],
    );
    obj.list(
        "solver_fwdinv",
        h.solver_fwdinv.iter().map(|&x| x.to_scalar()),
        &[2],
    );
    obj.list("energy", h.energy.iter().map(|&x| x.to_scalar()), &[2]);
    obj.int("solver_niter", i64::from(h.solver_niter[0]));
    let warnings: Vec<String> = h
        .warning
        .iter()
        .enumerate()
        .filter(|(_, w)| w.number != 0)
        .map(|(i, w)| format!("\"{i}\":{}", w.number))
        .collect();
    obj.raw("warning", &format!("{{{}}}", warnings.join(",")));
    obj.finish()
}

/// The contacts as `mjref data` writes them: one flat list per member.
fn contact_json(contacts: &[Contact]) -> String {
    let mut obj = JsonObject::default();
    let reals = |f: fn(&Contact) -> &[Real]| {
        contacts
            .iter()
            .flat_map(move |c| f(c).iter().map(|&x| x.to_scalar()))
    };
    let ints = |f: fn(&Contact) -> &[i32]| {
        contacts
            .iter()
            .flat_map(move |c| f(c).iter().map(|&x| Scalar::Int(i64::from(x))))
    };
    let n = contacts.len();
    obj.list("dist", reals(|c| core::slice::from_ref(&c.dist)), &[n]);
    obj.list("pos", reals(|c| &c.pos), &[n, 3]);
    obj.list("frame", reals(|c| &c.frame), &[n, 9]);
    obj.list(
        "includemargin",
        reals(|c| core::slice::from_ref(&c.includemargin)),
        &[n],
    );
    obj.list("friction", reals(|c| &c.friction), &[n, 5]);
    obj.list("solref", reals(|c| &c.solref), &[n, 2]);
    obj.list("solreffriction", reals(|c| &c.solreffriction), &[n, 2]);
    obj.list("solimp", reals(|c| &c.solimp), &[n, 5]);
    obj.list("mu", reals(|c| core::slice::from_ref(&c.mu)), &[n]);
    obj.list("H", reals(|c| &c.H), &[n, 36]);
    obj.list("dim", ints(|c| core::slice::from_ref(&c.dim)), &[n]);
    obj.list("geom1", ints(|c| core::slice::from_ref(&c.geom1)), &[n]);
    obj.list("geom2", ints(|c| core::slice::from_ref(&c.geom2)), &[n]);
    obj.list("exclude", ints(|c| core::slice::from_ref(&c.exclude)), &[n]);
    obj.list(
        "efc_address",
        ints(|c| core::slice::from_ref(&c.efc_address)),
        &[n],
    );
    // mjref writes the members only, without shapes or version
    let text = obj.finish();
    let end = text.find(",\"shapes\"").unwrap_or(text.len() - 1);
    format!("{}}}", &text[..end])
}

/// A trajectory in the shape of `mjref traj`: per recorded step `time`, `qpos`, `qvel`, `act`,
/// `ctrl`, `qacc`, `sensordata`, `qfrc_constraint`, `energy`, `ncon`, `nefc`.
pub struct Trajectory {
    fields: Vec<(&'static str, Vec<String>)>,
    every: usize,
    zero_ctrl: bool,
}

impl Trajectory {
    /// An empty trajectory recording every `every` steps.
    pub fn new(every: usize, zero_ctrl: bool) -> Self {
        let names = [
            "time",
            "qpos",
            "qvel",
            "act",
            "ctrl",
            "qacc",
            "sensordata",
            "qfrc_constraint",
            "energy",
            "ncon",
            "nefc",
        ];
        Self {
            fields: names.iter().map(|&n| (n, Vec::new())).collect(),
            every,
            zero_ctrl,
        }
    }

    /// Records the current state.
    pub fn record(&mut self, d: &Data) {
        let list = |v: &[Real]| {
            let mut s = String::new();
            push_list(&mut s, v.iter().map(|&x| x.to_scalar()));
            s
        };
        for (name, values) in &mut self.fields {
            let text = match *name {
                "time" => {
                    let mut s = String::new();
                    push_real(&mut s, wide(d.time));
                    s
                }
                "qpos" => list(d.qpos),
                "qvel" => list(d.qvel),
                "act" => list(d.act),
                "ctrl" => list(d.ctrl),
                "qacc" => list(d.qacc),
                "sensordata" => list(d.sensordata),
                "qfrc_constraint" => list(d.qfrc_constraint),
                "energy" => list(&d.energy),
                "ncon" => d.ncon.to_string(),
                _ => d.nefc.to_string(),
            };
            values.push(text);
        }
    }

    /// The JSON text.
    pub fn finish(self) -> String {
        let mut out = String::from("{");
        for (name, values) in &self.fields {
            let _ = write!(out, "\"{name}\":[{}],", values.join(","));
        }
        let control = if self.zero_ctrl { "zero" } else { "sine" };
        let _ = write!(
            out,
            "\"every\":{},\"control\":\"{control}\",\"mjrs_version\":\"{}\"}}",
            self.every,
            env!("CARGO_PKG_VERSION")
        );
        out
    }
}

/// The finite-difference transition matrices of one step at the current state (`A`, `B`,
/// and `C`, `D` when the model has sensors) as JSON, in the shape of `mjref deriv`.
pub fn deriv_json(
    m: &Model,
    d: &mut Data,
    eps: Real,
    centered: bool,
) -> Result<String, mj::FdError> {
    let (nx, nu, ns) = (2 * m.nv + m.na, m.nu, m.nsensordata);
    let mut a = vec![0.0; nx * nx];
    let mut b = vec![0.0; nx * nu];
    let (mut c, mut dd) = (vec![0.0; ns * nx], vec![0.0; ns * nu]);
    let sensors = ns > 0;
    mj::transition_fd(
        m,
        d,
        eps,
        centered,
        Some(&mut a),
        Some(&mut b),
        sensors.then_some(&mut c[..]),
        sensors.then_some(&mut dd[..]),
    )?;
    let mut obj = JsonObject::default();
    let reals = |v: &[Real]| v.iter().map(|&x| x.to_scalar()).collect::<Vec<_>>();
    obj.list("A", reals(&a).into_iter(), &[nx, nx]);
    obj.list("B", reals(&b).into_iter(), &[nx, nu]);
    if sensors {
        obj.list("C", reals(&c).into_iter(), &[ns, nx]);
        obj.list("D", reals(&dd).into_iter(), &[ns, nu]);
    }
    Ok(obj.finish())
}
