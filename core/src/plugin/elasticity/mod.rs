//! MuJoCo 3.1.6's elasticity plugins of meshes: `mujoco.elasticity.solid` (tetrahedra),
//! `mujoco.elasticity.membrane` (stretching of triangles) and `mujoco.elasticity.shell`
//! (bending of triangle pairs), and what they share.
//!
//! An instance's mesh is the `face` configuration attribute, the vertex numbers of its elements
//! (its `edge` attribute numbers each element's edges, as the flex compiler numbers them). Its
//! vertices are the vertices of the flex whose vertex bodies include the first body naming the
//! instance, or, without such a flex (the bodies of `<composite type="particle">`), those bodies
//! themselves in order. Solid and membrane forces are `-metric * elongation * gradient` summed
//! over each element's edges, where the elongation of an edge is its squared length minus the
//! squared length in the reference configuration, the gradient that of the squared length, and
//! the metric a symmetric matrix of the element's reference shape and the material (linear finite
//! elements written in edge lengths).
//!
//! MuJoCo builds the elements, edges and metrics once per `mjData`, in the C++ object its
//! `init` allocates; so does mjrs, in the instance's object (`Data::plugin_objects()`, held above the
//! arena when the `Data` is made): the elements read from the `face` (and `edge`) text, the
//! metric of each element from its reference vertex positions with MuJoCo's arithmetic, and the
//! reference squared lengths. A call then costs the force alone; its only scratch is one force
//! vector per vertex (and, for the shell, the edge table while its object is built) from the
//! arena. `nstate` is 0, as in MuJoCo.
//!
//! Damping (`damping` of solid and membrane, over the time step) adds the change of each squared
//! edge length since the previous force computation to its elongation (Rayleigh damping). MuJoCo
//! keeps those lengths in its object, outside the state: every computation with damping replaces
//! them (two forward passes in a row give different forces), `mj_resetData` keeps them and
//! `mj_copyData` leaves the destination its own; mjrs keeps them in the object with the same
//! behaviour.

pub mod membrane;
pub mod shell;
pub mod solid;

use super::number::is_c_space;
use super::{instance_bodies, instance_plugin, plugin_config, strtod, PluginError};
use crate::arena::Stack;
use crate::data::Data;
use crate::error::StepError;
use crate::model::Model;
use crate::real::Real;
use crate::support::{apply_ft, v3};

/// The integers at the start of a configuration text, as MuJoCo's `String2Vector` reads them
/// (`stream >> int` until the first failure: anything that is not an integer, or one out of
/// `int`'s range, ends the list).
#[derive(Clone, Debug)]
pub(crate) struct Ints<'a> {
    rest: &'a [u8],
}

impl<'a> Ints<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Ints {
            rest: text.as_bytes(),
        }
    }
}

impl Iterator for Ints<'_> {
    type Item = i32;

    fn next(&mut self) -> Option<i32> {
        let b = self.rest;
        let mut i = b.iter().take_while(|&&c| is_c_space(c)).count();
        let negative = b.get(i) == Some(&b'-');
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let digits = b[i.min(b.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let mut magnitude: i64 = 0;
        for &c in &b[i..i + digits] {
            // saturate: anything beyond int's range fails the same way
            magnitude = (magnitude * 10 + i64::from(c - b'0')).min(1 << 40);
        }
        let value = if negative { -magnitude } else { magnitude };
        match i32::try_from(value) {
            Ok(v) if digits > 0 => {
                self.rest = &b[i + digits..];
                Some(v)
            }
            _ => {
                self.rest = &[];
                None
            }
        }
    }
}

/// The material of an instance: its numeric attributes read with `strtod` (unset: 0).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Material {
    /// Young's modulus, `young`.
    pub young: Real,
    /// Poisson's ratio, `poisson`.
    pub poisson: Real,
    /// `thickness` of membranes and shells.
    pub thickness: Real,
    /// `damping` of solids and membranes (its time scale: divided by the time step).
    pub damping: Real,
}

/// An instance's configuration texts, found in one pass over `plugin_attr` ([`plugin_config`]
/// walks the long `face` and `edge` texts again for every attribute after them).
pub(crate) struct Texts<'m> {
    names: &'static [&'static str],
    values: [&'m str; 8],
}

impl<'m> Texts<'m> {
    pub(crate) fn new(m: &'m Model, instance: usize) -> Self {
        let mut texts = Texts {
            names: &[],
            values: [""; 8],
        };
        let start = m
            .plugin_attradr
            .get(instance)
            .and_then(|&a| usize::try_from(a).ok());
        let (Some(p), Some(attr)) = (
            instance_plugin(m, instance),
            start.and_then(|s| m.plugin_attr.get(s..)),
        ) else {
            return texts;
        };
        texts.names = p.attributes();
        let values = attr.split(|&b| b == 0).take(texts.names.len());
        for (v, text) in texts.values.iter_mut().zip(values) {
            *v = core::str::from_utf8(text).unwrap_or("");
        }
        texts
    }

    /// The text of attribute `key` ("" when unset or not the plugin's).
    pub(crate) fn get(&self, key: &str) -> &'m str {
        let i = self.names.iter().position(|n| *n == key);
        i.and_then(|i| self.values.get(i)).copied().unwrap_or("")
    }
}

impl Material {
    pub(crate) fn from_model(m: &Model, instance: usize) -> Self {
        Self::from_texts(&Texts::new(m, instance))
    }

    fn from_texts(texts: &Texts) -> Self {
        let number = |key| strtod(texts.get(key)) as Real;
        Material {
            young: number("young"),
            poisson: number("poisson"),
            thickness: number("thickness"),
            damping: number("damping"),
        }
    }
}

/// MuJoCo's `CheckAttr` of each of `names`, else `warning` as the failure of `init`.
pub(crate) fn check_attrs(
    m: &Model,
    instance: usize,
    names: &[&str],
    warning: &'static str,
) -> Result<(), PluginError> {
    super::sdf::check_attrs(m, instance, names, warning)
}

/// The kind of element: its vertex count and its edges as pairs of local vertices (MuJoCo's
/// `Stencil2D` and `Stencil3D`).
#[derive(Debug)]
pub(crate) struct Simplex {
    pub verts: usize,
    pub edges: &'static [[usize; 2]],
}

/// Triangles.
pub(crate) const TRIANGLE: Simplex = Simplex {
    verts: 3,
    edges: &[[1, 2], [2, 0], [0, 1]],
};

/// Tetrahedra.
pub(crate) const TETRAHEDRON: Simplex = Simplex {
    verts: 4,
    edges: &[[0, 1], [1, 2], [2, 0], [2, 3], [0, 3], [1, 3]],
};

/// Where an instance's vertices are.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Mesh {
    /// Vertex `v` is body `first + v`, one of the `count` bodies naming the instance: reference
    /// positions `body_pos`, positions `xpos`, forces on `3 * count` dofs from the first body's.
    Bodies { first: usize, count: usize },
    /// Vertex `v` is vertex `v` of flex `flex`: reference positions `flex_xvert0`, positions
    /// `flexvert_xpos`, edge lengths `flexedge_length`.
    Flex { flex: usize },
}

/// `(adr, num)` of a flex's vertices or edges, from model arrays that may be out of range.
fn span(adr: &[i32], num: &[i32], f: usize) -> (usize, usize) {
    let get = |a: &[i32]| a.get(f).and_then(|&x| usize::try_from(x).ok()).unwrap_or(0);
    (get(adr), get(num))
}

impl Mesh {
    /// The mesh of instance `instance`: MuJoCo's `i0` and the last flex with a vertex on it.
    pub(crate) fn locate(m: &Model, instance: usize) -> Result<Mesh, PluginError> {
        let (first, count) = instance_bodies(m, instance);
        if count == 0 {
            return Err(PluginError::fatal(
                "an elasticity plugin instance must be used by a body or flex",
            ));
        }
        let mut mesh = Mesh::Bodies { first, count };
        for f in 0..m.nflex {
            let (adr, num) = span(&m.flex_vertadr, &m.flex_vertnum, f);
            let bodies = m.flex_vertbodyid.get(adr..adr + num).unwrap_or(&[]);
            if bodies
                .iter()
                .any(|&b| usize::try_from(b).ok() == Some(first))
            {
                mesh = Mesh::Flex { flex: f };
            }
        }
        Ok(mesh)
    }

    /// Number of vertices.
    pub(crate) fn vertex_count(&self, m: &Model) -> usize {
        match *self {
            Mesh::Bodies { count, .. } => count,
            Mesh::Flex { flex } => span(&m.flex_vertadr, &m.flex_vertnum, flex).1,
        }
    }

    /// Body of vertex `v` (`None` when out of range).
    pub(crate) fn body(&self, m: &Model, v: usize) -> Option<usize> {
        match *self {
            Mesh::Bodies { first, .. } => Some(first + v).filter(|&b| b < m.nbody),
            Mesh::Flex { flex } => {
                let adr = span(&m.flex_vertadr, &m.flex_vertnum, flex).0;
                let b = *m.flex_vertbodyid.get(adr + v)?;
                usize::try_from(b).ok().filter(|&b| b < m.nbody)
            }
        }
    }

    /// Reference position of vertex `v` (checked by [`check_mesh`]).
    fn reference(&self, m: &Model, v: usize) -> [Real; 3] {
        match *self {
            Mesh::Bodies { first, .. } => v3(&m.body_pos)[first + v],
            Mesh::Flex { flex } => {
                v3(&m.flex_xvert0)[span(&m.flex_vertadr, &m.flex_vertnum, flex).0 + v]
            }
        }
    }
}

/// An element: its vertices and, for a flex, the flex's numbers of its edges.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Element {
    pub verts: [usize; 4],
    pub edges: [usize; 6],
}

/// The elements of an instance, read from its `face` and (with `with_edges`) `edge` text.
/// Reading stops at the first element with a missing or negative number.
pub(crate) struct Elements<'a> {
    faces: Ints<'a>,
    edges: Option<Ints<'a>>,
    simplex: &'static Simplex,
}

impl<'a> Elements<'a> {
    pub(crate) fn new(
        m: &'a Model,
        instance: usize,
        simplex: &'static Simplex,
        with_edges: bool,
    ) -> Self {
        Self::from_texts(&Texts::new(m, instance), simplex, with_edges)
    }

    fn from_texts(texts: &Texts<'a>, simplex: &'static Simplex, with_edges: bool) -> Self {
        let text = |key| Ints::new(texts.get(key));
        Elements {
            faces: text("face"),
            edges: with_edges.then(|| text("edge")),
            simplex,
        }
    }
}

impl Iterator for Elements<'_> {
    type Item = Element;

    fn next(&mut self) -> Option<Element> {
        let mut el = Element {
            verts: [0; 4],
            edges: [0; 6],
        };
        for v in &mut el.verts[..self.simplex.verts] {
            *v = usize::try_from(self.faces.next()?).ok()?;
        }
        if let Some(edges) = &mut self.edges {
            for e in &mut el.edges[..self.simplex.edges.len()] {
                *e = usize::try_from(edges.next()?).ok()?;
            }
        }
        Some(el)
    }
}

/// The number of complete elements in the `face` text (MuJoCo's `nt`: the text's integers
/// divided by the vertices per element).
fn element_count(m: &Model, instance: usize, simplex: &Simplex) -> usize {
    Ints::new(plugin_config(m, instance, "face").unwrap_or("")).count() / simplex.verts
}

/// Checks what the plugins' constructors use: the vertices of every element exist and belong to
/// bodies naming the instance (or the world), and the `edge` numbers, when given, are the
/// numbers MuJoCo derives (MuJoCo's fatal errors); beyond MuJoCo, which would read outside its
/// arrays, the vertices' bodies and dofs exist.
pub(crate) fn check_mesh(
    m: &Model,
    instance: usize,
    mesh: &Mesh,
    simplex: &'static Simplex,
) -> Result<(), PluginError> {
    let nv = mesh.vertex_count(m);
    let nt = element_count(m, instance, simplex);
    let mut faces = Ints::new(plugin_config(m, instance, "face").unwrap_or(""));
    for _ in 0..nt * simplex.verts {
        let v = faces.next().and_then(|v| usize::try_from(v).ok());
        let Some(body) = v.filter(|&v| v < nv).and_then(|v| mesh.body(m, v)) else {
            return Err(PluginError::fatal(
                "a face of an elasticity plugin names a vertex the mesh does not have",
            ));
        };
        if body != 0 && usize::try_from(m.body_plugin[body]).ok() != Some(instance) {
            return Err(PluginError::fatal("Body does not have plugin instance"));
        }
    }
    check_edges(m, instance, mesh, simplex, nt)?;
    check_dofs(m, mesh)
}

const INCOHERENT: PluginError =
    PluginError::fatal("edge ordering is incoherent between flex and plugin");

/// The edge of local edge `e` of `el` as MuJoCo keys it: (smaller vertex, larger vertex).
fn edge_key(simplex: &Simplex, el: &Element, e: usize) -> (usize, usize) {
    let [a, b] = simplex.edges[e];
    let (a, b) = (el.verts[a], el.verts[b]);
    (a.min(b), a.max(b))
}

/// MuJoCo numbers edges in the order they first appear in the elements; a non-empty `edge`
/// text must number them so. A flex mesh needs the numbers (they index `flexedge_length`).
fn check_edges(
    m: &Model,
    instance: usize,
    mesh: &Mesh,
    simplex: &'static Simplex,
    nt: usize,
) -> Result<(), PluginError> {
    let given = Ints::new(plugin_config(m, instance, "edge").unwrap_or("")).count();
    let ne = simplex.edges.len();
    if given == 0 {
        return match mesh {
            Mesh::Bodies { .. } => Ok(()),
            Mesh::Flex { .. } => Err(PluginError::fatal(
                "an elasticity plugin of a flex needs the edge numbers in its edge attribute",
            )),
        };
    }
    if given < nt * ne {
        return Err(INCOHERENT);
    }
    let elements = || Elements::new(m, instance, simplex, true).take(nt);
    let mut next_new = 0;
    for (t, el) in elements().enumerate() {
        for e in 0..ne {
            let key = edge_key(simplex, &el, e);
            let idx = el.edges[e];
            let coherent = match mesh {
                Mesh::Flex { flex } => flex_edge_joins(m, *flex, idx, key) && idx <= next_new,
                Mesh::Bodies { .. } => {
                    match earlier_number(simplex, elements().take(t + 1), t, e, key) {
                        Some(first) => first == idx,
                        None => idx == next_new,
                    }
                }
            };
            if !coherent {
                return Err(INCOHERENT);
            }
            if idx == next_new {
                next_new += 1;
            }
        }
    }
    Ok(())
}

/// For a flex: whether flex edge `idx` joins the vertices of `key`. Flex edges join distinct
/// pairs, so a number below the next new one was given to this pair before.
fn flex_edge_joins(m: &Model, flex: usize, idx: usize, key: (usize, usize)) -> bool {
    let (adr, num) = span(&m.flex_edgeadr, &m.flex_edgenum, flex);
    match m.flex_edge.get(2 * (adr + idx)..2 * (adr + idx) + 2) {
        Some(&[a, b]) if idx < num => {
            let (a, b) = (usize::try_from(a).ok(), usize::try_from(b).ok());
            (a.min(b), a.max(b)) == (Some(key.0), Some(key.1))
        }
        _ => false,
    }
}

/// For a body mesh: the number given to the first occurrence of `key` before local edge `e` of
/// element `t`, if any (a quadratic search: body meshes with `edge` text are written by hand).
fn earlier_number(
    simplex: &'static Simplex,
    elements: impl Iterator<Item = Element>,
    t: usize,
    e: usize,
    key: (usize, usize),
) -> Option<usize> {
    for (s, el) in elements.enumerate() {
        for f in 0..simplex.edges.len() {
            if (s, f) == (t, e) {
                return None;
            }
            if edge_key(simplex, &el, f) == key {
                return Some(el.edges[f]);
            }
        }
    }
    None
}

/// The dofs forces go to exist: `3 * count` from the first body's for a body mesh; for a flex,
/// a vertex body of sliders alone takes at most three (MuJoCo adds the vertex force's
/// components to its dofs in order).
fn check_dofs(m: &Model, mesh: &Mesh) -> Result<(), PluginError> {
    let fits = match *mesh {
        Mesh::Bodies { first, count } => usize::try_from(m.body_dofadr[first])
            .is_ok_and(|adr| first + count <= m.nbody && adr + 3 * count <= m.nv),
        Mesh::Flex { .. } => (0..mesh.vertex_count(m)).all(|v| {
            mesh.body(m, v)
                .is_some_and(|b| m.body_simple[b] != 2 || (0..=3).contains(&m.body_dofnum[b]))
        }),
    };
    if fits {
        Ok(())
    } else {
        Err(PluginError::fatal(
            "the vertices of an elasticity plugin need three slider dofs each",
        ))
    }
}

/// MuJoCo's `MetricTensor`: entry `(ed1, ed2)` is `mu * trace(B1 B2) + la * trace(B2) *
/// trace(B1)` of the edge bases, row-major in a `6 x 6` array (the first `ne` rows and columns
/// used).
pub(crate) fn metric_tensor(basis: &[[Real; 9]], mu: Real, la: Real) -> [[Real; 6]; 6] {
    let ne = basis.len();
    let mut tr = [0.0; 6];
    for (t, b) in tr.iter_mut().zip(basis) {
        for i in 0..3 {
            *t += b[4 * i];
        }
    }
    // the bases are symmetric to the bit, so trace(B1 B2) sums the same products in the same
    // order as trace(B2 B1): half of them are computed
    let mut tr_ee = [[0.0; 6]; 6];
    for ed1 in 0..ne {
        for ed2 in ed1..ne {
            let mut t = 0.0;
            for i in 0..3 {
                for j in 0..3 {
                    t += basis[ed1][3 * i + j] * basis[ed2][3 * j + i];
                }
            }
            tr_ee[ed1][ed2] = t;
            tr_ee[ed2][ed1] = t;
        }
    }
    let mut metric = [[0.0; 6]; 6];
    for ed1 in 0..ne {
        for ed2 in 0..ne {
            metric[ed1][ed2] = mu * tr_ee[ed1][ed2] + la * tr[ed2] * tr[ed1];
        }
    }
    metric
}

/// `|a - b|²` (MuJoCo's `SquaredDist3`).
fn squared_dist(a: &[Real; 3], b: &[Real; 3]) -> Real {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
}

/// A metric of an element from its reference vertex positions.
pub(crate) type MetricFn = fn(&[[Real; 3]; 4], &Material) -> [[Real; 6]; 6];

/// Words at the start of an object: the number of elements, the mesh (kind, then `first` and
/// `count` of a body mesh or the flex).
const HEAD: usize = 4;

/// The object of a solid or membrane instance (MuJoCo's `Solid` or `Membrane`): what its
/// constructor derives from the model (the elements, each with its metric and the reference
/// squared lengths of its edges, the damping), and the squared edge lengths of the previous call,
/// which damping needs. MuJoCo keeps one length per edge of the mesh; the object keeps one per
/// edge of each element, which holds the same number for every element sharing the edge.
struct Object<'o> {
    mesh: Mesh,
    /// Per element: its vertices, then its edges' numbers in the flex (`simplex.verts +
    /// simplex.edges.len()` integers).
    elements: &'o [i32],
    /// `damping` (divided by the time step on each call, as MuJoCo does).
    damping: Real,
    /// Per element: its `ne x ne` metric, row-major.
    metric: &'o [Real],
    /// Per element: the reference squared length of each edge.
    reference: &'o [Real],
    /// Per element: the squared length of each edge at the previous call with damping (the
    /// reference ones until then).
    previous: &'o mut [Real],
}

/// The arrays of an object of `nt` elements of `simplex`, in order: head, integers, reals.
fn object_layout(nt: usize, simplex: &Simplex) -> [Option<usize>; 3] {
    let ne = simplex.edges.len();
    [
        Some(HEAD),
        nt.checked_mul(simplex.verts + ne),
        nt.checked_mul(ne * ne + 2 * ne)
            .and_then(|n| n.checked_add(1)),
    ]
}

/// Bytes of the object of instance `instance` (for [`Plugin::object_bytes`](super::Plugin)).
pub(crate) fn object_bytes(m: &Model, instance: usize, simplex: &Simplex) -> usize {
    let [head, ints, reals] = object_layout(element_count(m, instance, simplex), simplex);
    let mut c = crate::arena::LayoutCounter::new();
    c.add::<u64>(head);
    c.add::<i32>(ints);
    c.add::<Real>(reals);
    // a size that overflows cannot be made: MuJoCo would fail to allocate it
    c.total().unwrap_or(usize::MAX)
}

impl<'o> Object<'o> {
    /// Cuts `bytes` into the arrays of an object of `nt` elements.
    fn carve(
        bytes: &'o mut [u8],
        nt: usize,
        simplex: &Simplex,
    ) -> Option<(&'o mut [u64], &'o mut [i32], &'o mut [Real])> {
        let [head, ints, reals] = object_layout(nt, simplex);
        let mut c = crate::arena::Carver::new(bytes, 0);
        Some((
            c.take::<u64>(head).ok()?,
            c.take::<i32>(ints).ok()?,
            c.take::<Real>(reals).ok()?,
        ))
    }

    /// The object in `bytes`, as [`Object::build`] left it (`None`: none was built there).
    fn view(bytes: &'o mut [u8], simplex: &Simplex) -> Option<Object<'o>> {
        let words = crate::pod::cast::<u64>(bytes.get(..8 * HEAD)?)?;
        let nt = usize::try_from(words[0]).ok()?;
        let mesh = match words[1] {
            1 => Mesh::Bodies {
                first: usize::try_from(words[2]).ok()?,
                count: usize::try_from(words[3]).ok()?,
            },
            2 => Mesh::Flex {
                flex: usize::try_from(words[2]).ok()?,
            },
            _ => return None,
        };
        let (_, ints, reals) = Self::carve(bytes, nt, simplex)?;
        let ne = simplex.edges.len();
        let (metric, rest) = reals.split_at_mut(nt * ne * ne);
        let (reference, rest) = rest.split_at_mut(nt * ne);
        let (previous, damping) = rest.split_at_mut(nt * ne);
        Some(Object {
            mesh,
            elements: ints,
            damping: damping[0],
            metric,
            reference,
            previous,
        })
    }

    /// MuJoCo's constructor: the elements of the `face` (and `edge`) text, their metrics and
    /// reference lengths; the previous lengths start as the reference ones. An instance that
    /// [`Plugin::init`](super::Plugin) refuses gets no elements.
    fn build(
        m: &Model,
        instance: usize,
        bytes: &'o mut [u8],
        simplex: &'static Simplex,
        metric: MetricFn,
    ) {
        let Ok(mesh) = Mesh::locate(m, instance) else {
            return;
        };
        let nt = element_count(m, instance, simplex);
        let Some((head, ints, reals)) = Self::carve(bytes, nt, simplex) else {
            return;
        };
        let texts = Texts::new(m, instance);
        let material = Material::from_texts(&texts);
        let nv = mesh.vertex_count(m);
        let (nvert, ne) = (simplex.verts, simplex.edges.len());
        let mut built = 0;
        let elements = Elements::from_texts(&texts, simplex, matches!(mesh, Mesh::Flex { .. }));
        for (t, el) in elements.take(nt).enumerate() {
            if el.verts[..nvert].iter().any(|&v| v >= nv) {
                break; // refused by init
            }
            let ints = &mut ints[t * (nvert + ne)..(t + 1) * (nvert + ne)];
            for (i, &v) in ints
                .iter_mut()
                .zip(el.verts[..nvert].iter().chain(&el.edges[..ne]))
            {
                *i = v as i32;
            }
            let mut x0 = [[0.0; 3]; 4];
            for i in 0..nvert {
                x0[i] = mesh.reference(m, el.verts[i]);
            }
            let g = metric(&x0, &material);
            for ed1 in 0..ne {
                reals[(t * ne + ed1) * ne..(t * ne + ed1 + 1) * ne].copy_from_slice(&g[ed1][..ne]);
                let [a, b] = simplex.edges[ed1];
                let length = squared_dist(&x0[a], &x0[b]);
                reals[nt * ne * ne + t * ne + ed1] = length;
                reals[nt * ne * (ne + 1) + t * ne + ed1] = length;
            }
            built += 1;
        }
        reals[nt * ne * (ne + 2)] = material.damping;
        head[0] = built as u64;
        head[1..].copy_from_slice(&match mesh {
            Mesh::Bodies { first, count } => [1, first as u64, count as u64],
            Mesh::Flex { flex } => [2, flex as u64, 0],
        });
    }
}

/// Builds the object of a solid or membrane instance ([`Plugin::init_object`](super::Plugin)).
pub(crate) fn init_object(
    m: &Model,
    instance: usize,
    object: &mut [u8],
    simplex: &'static Simplex,
    metric: MetricFn,
) {
    Object::build(m, instance, object, simplex, metric);
}

/// The solid and membrane forces of instance `instance` added to `qfrc_passive`: per element,
/// `-metric * elongation * gradient` (MuJoCo's `ComputeForce`), summed over the elements into one
/// force per vertex, then added to the vertices' dofs (`AddFlexForce`). The elongation of an
/// edge is its squared length minus the reference one, plus, with damping, its change since the
/// previous call over the time step times `damping`; with damping the lengths are kept for the
/// next call.
pub(crate) fn add_forces(
    m: &Model,
    d: &mut Data,
    instance: usize,
    simplex: &'static Simplex,
) -> Result<(), StepError> {
    d.with_objects_and_stack(|d, objects, stack| {
        let bytes = super::instance_object(d.plugin_data, objects, instance);
        let mut object = Object::view(bytes, simplex).ok_or(NO_OBJECT)?;
        let nv = object.mesh.vertex_count(m);
        let force = stack.alloc_zeroed::<Real>(3 * nv)?;
        element_forces(m, d, simplex, &mut object, force);
        add_vertex_forces(m, d, &object.mesh, force, stack)
    })
}

/// A data made before the plugin was registered, or for another model, has no object for it.
pub(crate) const NO_OBJECT: StepError = StepError::Rejected(
    "elasticity plugin instance without its object: make the Data after registering the plugin",
);

/// The current positions of a mesh's vertices and, for a flex, its edges' lengths.
fn current<'d>(m: &Model, d: &'d Data, mesh: &Mesh) -> (&'d [[Real; 3]], &'d [Real]) {
    match *mesh {
        Mesh::Bodies { first, count } => {
            let x = v3(d.xpos);
            (x.get(first..first + count).unwrap_or(&[]), &[])
        }
        Mesh::Flex { flex } => {
            let (vadr, vnum) = span(&m.flex_vertadr, &m.flex_vertnum, flex);
            let (eadr, enum_) = span(&m.flex_edgeadr, &m.flex_edgenum, flex);
            let x = v3(d.flexvert_xpos).get(vadr..vadr + vnum).unwrap_or(&[]);
            (x, d.flexedge_length.get(eadr..eadr + enum_).unwrap_or(&[]))
        }
    }
}

/// Adds the forces of every element to `force` (three per vertex of the mesh), and keeps the
/// lengths for the next call when damping is on (`kD > 0`, as MuJoCo tests it). The element's
/// sizes are constants of the two simplices, so the inner loops unroll.
fn element_forces(m: &Model, d: &Data, simplex: &Simplex, object: &mut Object, force: &mut [Real]) {
    if let Ok(edges) = simplex.edges.try_into() {
        element_forces_of::<4, 6>(m, d, edges, object, force);
    } else if let Ok(edges) = simplex.edges.try_into() {
        element_forces_of::<3, 3>(m, d, edges, object, force);
    }
}

/// [`element_forces`] for elements of `NV` vertices and `NE` edges.
fn element_forces_of<const NV: usize, const NE: usize>(
    m: &Model,
    d: &Data,
    edges: &[[usize; 2]; NE],
    object: &mut Object,
    force: &mut [Real],
) {
    let kd = object.damping / m.opt.timestep;
    let (x, lengths) = current(m, d, &object.mesh);
    let is_flex = matches!(object.mesh, Mesh::Flex { .. });
    let elements = object.elements.chunks_exact(NV + NE);
    let metrics = object.metric.chunks_exact(NE * NE);
    let references = object.reference.chunks_exact(NE);
    let previouses = object.previous.chunks_exact_mut(NE);
    for (((el, metric), reference), previous) in
        elements.zip(metrics).zip(references).zip(previouses)
    {
        let (verts, flex_edges) = el.split_at(NV);
        let mut xe = [[0.0; 3]; NV];
        for (xi, &v) in xe.iter_mut().zip(verts) {
            *xi = x.get(v as usize).copied().unwrap_or_default();
        }
        let mut elongation = [0.0; NE];
        for e in 0..NE {
            let [a, b] = edges[e];
            let deformed = if is_flex {
                let l = lengths.get(flex_edges[e] as usize).copied().unwrap_or(0.0);
                l * l
            } else {
                squared_dist(&xe[a], &xe[b])
            };
            elongation[e] = deformed - reference[e] + (deformed - previous[e]) * kd;
            if kd > 0.0 {
                previous[e] = deformed;
            }
        }
        let local = element_force(edges, &xe, &elongation, metric);
        for (i, &v) in verts.iter().enumerate() {
            let at = 3 * v as usize;
            if let Some(f) = force.get_mut(at..at + 3) {
                for k in 0..3 {
                    f[k] += local[i][k];
                }
            }
        }
    }
}

/// The forces of one element on its vertices: `-metric * elongation * gradient`.
fn element_force<const NV: usize, const NE: usize>(
    edges: &[[usize; 2]; NE],
    x: &[[Real; 3]; NV],
    elongation: &[Real; NE],
    metric: &[Real],
) -> [[Real; 3]; NV] {
    let mut gradient = [[[0.0; 3]; 2]; NE];
    for e in 0..NE {
        let [a, b] = edges[e];
        for k in 0..3 {
            gradient[e][0][k] = x[a][k] - x[b][k];
            gradient[e][1][k] = x[b][k] - x[a][k];
        }
    }
    let mut local = [[0.0; 3]; NV];
    for ed1 in 0..NE {
        for ed2 in 0..NE {
            let g = metric[NE * ed1 + ed2];
            for i in 0..2 {
                for k in 0..3 {
                    local[edges[ed2][i]][k] -= elongation[ed1] * gradient[ed2][i][k] * g;
                }
            }
        }
    }
    local
}

/// Adds the vertex forces to `qfrc_passive`: to the dofs from the first body's for a body mesh
/// (MuJoCo's `mju_addTo`); for a flex, to the three sliders of a vertex body of sliders alone,
/// else through the body's Jacobian at the vertex (pinned vertices; MuJoCo's `AddFlexForce`).
fn add_vertex_forces(
    m: &Model,
    d: &mut Data,
    mesh: &Mesh,
    force: &[Real],
    stack: &mut Stack,
) -> Result<(), StepError> {
    match *mesh {
        Mesh::Bodies { first, .. } => {
            let adr = usize::try_from(m.body_dofadr[first]).unwrap_or(0);
            let target = d
                .qfrc_passive
                .get_mut(adr..adr + force.len())
                .unwrap_or(&mut []);
            for (q, f) in target.iter_mut().zip(force) {
                *q += f;
            }
        }
        Mesh::Flex { flex } => {
            let adr = span(&m.flex_vertadr, &m.flex_vertnum, flex).0;
            let qfrc = core::mem::take(&mut d.qfrc_passive);
            let mut result = Ok(());
            for v in 0..mesh.vertex_count(m) {
                let Some(b) = mesh.body(m, v) else { continue };
                let f = [force[3 * v], force[3 * v + 1], force[3 * v + 2]];
                if m.body_simple[b] != 2 {
                    let point = v3(d.flexvert_xpos)[adr + v];
                    result = apply_ft(m, d, Some(&f), None, &point, b, qfrc, stack);
                    if result.is_err() {
                        break;
                    }
                } else {
                    let dofadr = m.body_dofadr[b] as usize;
                    for k in 0..(m.body_dofnum[b] as usize).min(3) {
                        qfrc[dofadr + k] += f[k];
                    }
                }
            }
            d.qfrc_passive = qfrc;
            result?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_read_like_a_stream() {
        let all = |s| Ints::new(s).collect::<std::vec::Vec<_>>();
        assert_eq!(all(" 1 2\n-3 +4"), [1, 2, -3, 4]);
        assert_eq!(all("1 2.5 3"), [1, 2]);
        assert_eq!(all("7 x 8"), [7]);
        assert_eq!(all("2147483647 2147483648 1"), [2147483647]);
        assert_eq!(all("-2147483648"), [-2147483648]);
        assert!(all("").is_empty());
        assert!(all("- 1").is_empty());
    }
}
