//! The MJCF writer: a [`Spec`] back to MJCF text (MuJoCo 3.1.6's `mj_saveLastXML`,
//! `mjXWriter` in `xml_native_writer.cc`).
//!
//! The text has MuJoCo's layout: the comment, then `compiler`, `option`, `size`, `visual`,
//! `statistic`, `default`, `custom`, `asset`, `worldbody`, `contact`, `equality`, `tendon`,
//! `actuator`, `sensor`, `keyframe`, two spaces of indentation per level, and each attribute
//! only when it differs from the default the reader would start from (the element's class, or
//! a class's parent), with `class="..."` where an element's class differs from the one it
//! inherits. Numbers are printed as MuJoCo's C++ stream prints them with 17 significant digits
//! ([`number`]).
//!
//! MuJoCo writes its *compiled* model; mjrs writes the spec, before compilation, so that the
//! text compiles back to the same model bit for bit. The differences from MuJoCo's text:
//! * angles keep the spec's unit (`compiler/angle` is written as given) and orientations keep
//!   their specifier (`euler`, `axisangle`...) instead of compiled quaternions; positions,
//!   inertias, ranges, mesh frames and `fromto` stay as given, not as compiled;
//! * numbers use 17 significant digits (MuJoCo's `FullFloatPrecision`) instead of its default 6,
//!   and only exact integers are printed as integers (MuJoCo rounds values within 1e-12);
//!   `-0` stays `-0`;
//! * frames are kept, with their pose, around the objects declared in them (MuJoCo drops the
//!   frame pose, already applied, and wraps each object in its own frame);
//! * skins are written in `asset` (MuJoCo writes them in `deformable`), which keeps the order
//!   of the skins read from `asset` and `deformable`; a flexcomp's implicit plugin instance,
//!   shared by its vertex bodies, is written as a named instance in `extension`;
//! * compiler settings are written as given (`fusestatic`, `discardvisual`, `inertiafromgeom`,
//!   `settotalmass`...), not as their compiled effect; `size` and `statistic` keep "unset" as
//!   unset; keyframes keep the vectors as given;
//! * an actuator is `general` (as in MuJoCo) unless its `inheritrange` needs the `position` or
//!   `intvelocity` shortcut, which MuJoCo resolves at compile time;
//! * attribute values escape newlines and tabs, which an XML parser would turn into spaces.

mod body;
pub mod copy_back;
mod elements;
mod node;
pub mod number;
mod plugin;

use std::fmt::Debug;

use mjrs_core::model::{Options, Visual};
use mjrs_core::types::*;

use self::elements as el;
use self::node::Node;
use self::number::join;
use crate::error::XmlError;
use crate::keywords as kw;
use crate::spec::*;

/// Writes `spec` as MJCF text (`mj_saveLastXML`, from the spec instead of the compiled model).
/// Fails only on values no MJCF text can express (an unknown enum value, an `inheritrange` on
/// an actuator that is no `position`/`intvelocity`).
pub fn write_xml(spec: &Spec) -> Result<String, XmlError> {
    check_links(spec)?;
    let mut root = Node::new("mujoco");
    root.set("model", spec.modelname.as_str());
    root.children.push(compiler(spec)?);
    push_some(&mut root, option(&spec.option)?);
    push_some(&mut root, size(spec));
    push_some(&mut root, visual(&spec.visual));
    push_some(&mut root, statistic(&spec.stat));
    if let Some(d) = body::default_class(spec, 0)? {
        root.children.push(d);
    }
    push_some(&mut root, plugin::extension(spec));
    push_some(&mut root, custom(spec));
    push_some(&mut root, asset(spec)?);
    root.children.push(body::TreeWriter::new(spec).worldbody()?);
    push_some(&mut root, contact(spec));
    push_some(&mut root, deformable(spec)?);
    push_some(&mut root, equality(spec)?);
    push_some(&mut root, tendon(spec)?);
    push_some(&mut root, actuator(spec)?);
    push_some(&mut root, sensor(spec)?);
    push_some(&mut root, keyframe(spec));
    Ok(print(&root, &spec.comment))
}

/// Checks the links between bodies, frames and classes of a spec (a spec made by hand may
/// hold anything): every index in range, the bodies, frames and classes each a tree.
fn check_links(s: &Spec) -> Result<(), XmlError> {
    let bad = |what: &str| {
        Err(XmlError::model(format!(
            "XML Write error: invalid {what} in the spec"
        )))
    };
    let (nb, nf, nd) = (s.bodies.len(), s.frames.len(), s.defaults.len());
    let frame_ok = |f: Option<usize>| f.is_none_or(|f| f < nf);
    for b in &s.bodies {
        let objects_ok = b.joints.iter().all(|x| x.default < nd && frame_ok(x.frame))
            && b.geoms.iter().all(|x| x.default < nd && frame_ok(x.frame))
            && b.sites.iter().all(|x| x.default < nd && frame_ok(x.frame))
            && b.cameras
                .iter()
                .all(|x| x.default < nd && frame_ok(x.frame))
            && b.lights.iter().all(|x| x.default < nd && frame_ok(x.frame));
        if b.default >= nd || !frame_ok(b.frame) || b.parent.is_some_and(|p| p >= nb) || !objects_ok
        {
            return bad("body");
        }
    }
    for f in &s.frames {
        if f.default >= nd || f.body >= nb || !frame_ok(f.parent) {
            return bad("frame");
        }
    }
    for (i, f) in s.frames.iter().enumerate() {
        // a chain of enclosing frames longer than the list has a cycle
        let mut p = f.parent;
        let mut depth = 0;
        while let Some(k) = p {
            depth += 1;
            if depth > nf || k == i {
                return bad("frame nesting");
            }
            p = s.frames[k].parent;
        }
    }
    let tree = |children: &dyn Fn(usize) -> Vec<usize>, n: usize| {
        let mut seen = vec![false; n];
        let mut stack = vec![0];
        while let Some(i) = stack.pop() {
            if i >= n || std::mem::replace(&mut seen[i], true) {
                return false;
            }
            stack.extend(children(i));
        }
        true
    };
    if nb == 0 || !tree(&|i| s.bodies[i].bodies.clone(), nb) {
        return bad("body tree");
    }
    if nd == 0
        || !tree(&|i| s.defaults[i].children.clone(), nd)
        || s.defaults.iter().any(|d| d.parent.is_some_and(|p| p >= nd))
    {
        return bad("default class tree");
    }
    Ok(())
}

/// Prints the document: the root, the comment as its first child, then its elements.
fn print(root: &Node, comment: &str) -> String {
    let mut out = String::new();
    let mut head = Node::new(&root.name);
    head.attrs.clone_from(&root.attrs);
    head.print(0, &mut out);
    // `<mujoco .../>` becomes `<mujoco ...>`, then the body
    out.truncate(out.len() - 3);
    out.push_str(">\n");
    if !comment.is_empty() {
        out.push_str("  <!--");
        out.push_str(comment);
        out.push_str("-->\n");
    }
    for c in &root.children {
        c.print(1, &mut out);
    }
    out.push_str("</");
    out.push_str(&root.name);
    out.push_str(">\n");
    out
}

fn push_some(root: &mut Node, n: Node) {
    if !n.is_empty() {
        root.children.push(n);
    }
}

/// Are two values the same, bit for bit in their reals? Compares the `Debug` texts, which spell
/// every real exactly (and all NaNs alike).
pub(crate) fn same_debug<T: Debug>(a: &T, b: &T) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// `compiler`: the settings as given, with `angle` always written as MuJoCo does.
fn compiler(s: &Spec) -> Result<Node, XmlError> {
    let d = Spec::default();
    let mut n = Node::new("compiler");
    n.set("angle", if s.degree { "degree" } else { "radian" });
    n.flag("autolimits", s.autolimits, d.autolimits);
    n.num("boundmass", s.boundmass, d.boundmass);
    n.num("boundinertia", s.boundinertia, d.boundinertia);
    n.num("settotalmass", s.settotalmass, d.settotalmass);
    n.flag("balanceinertia", s.balanceinertia, d.balanceinertia);
    n.flag("strippath", s.strippath, d.strippath);
    n.flag("fitaabb", s.fitaabb, d.fitaabb);
    if s.euler != d.euler {
        n.set("eulerseq", String::from_utf8_lossy(&s.euler));
    }
    if s.meshdir == s.texturedir {
        n.text_some("assetdir", &s.meshdir);
    } else {
        n.text_some("meshdir", &s.meshdir);
        n.text_some("texturedir", &s.texturedir);
    }
    n.flag("discardvisual", s.discardvisual, d.discardvisual);
    n.flag("convexhull", s.convexhull, d.convexhull);
    n.flag("usethread", s.usethread, d.usethread);
    n.flag("fusestatic", s.fusestatic, d.fusestatic);
    n.key(
        "inertiafromgeom",
        kw::TFAUTO,
        s.inertiafromgeom as i32,
        d.inertiafromgeom as i32,
    )?;
    n.nums(
        "inertiagrouprange",
        &s.inertiagrouprange,
        &d.inertiagrouprange,
    );
    n.flag("exactmeshinertia", s.exactmeshinertia, d.exactmeshinertia);
    let (o, od) = (&s.lropt, &d.lropt);
    let mut lr = Node::new("lengthrange");
    lr.key("mode", kw::LRMODE, o.mode, od.mode)?;
    lr.flag("useexisting", o.useexisting, od.useexisting);
    lr.flag("uselimit", o.uselimit, od.uselimit);
    lr.num("accel", o.accel, od.accel);
    lr.num("maxforce", o.maxforce, od.maxforce);
    lr.num("timeconst", o.timeconst, od.timeconst);
    lr.num("timestep", o.timestep, od.timestep);
    lr.num("inttotal", o.inttotal, od.inttotal);
    lr.num("interval", o.interval, od.interval);
    lr.num("tolrange", o.tolrange, od.tolrange);
    push_some(&mut n, lr);
    Ok(n)
}

/// `option` and its `flag` (`mjXWriter::Option`).
fn option(o: &Options) -> Result<Node, XmlError> {
    let d = Options::default();
    let mut n = Node::new("option");
    n.num("timestep", o.timestep, d.timestep);
    n.num("apirate", o.apirate, d.apirate);
    n.num("impratio", o.impratio, d.impratio);
    n.num("tolerance", o.tolerance, d.tolerance);
    n.num("ls_tolerance", o.ls_tolerance, d.ls_tolerance);
    n.num("noslip_tolerance", o.noslip_tolerance, d.noslip_tolerance);
    n.num("mpr_tolerance", o.mpr_tolerance, d.mpr_tolerance);
    n.nums("gravity", &o.gravity, &d.gravity);
    n.nums("wind", &o.wind, &d.wind);
    n.nums("magnetic", &o.magnetic, &d.magnetic);
    n.num("density", o.density, d.density);
    n.num("viscosity", o.viscosity, d.viscosity);
    n.num("o_margin", o.o_margin, d.o_margin);
    n.nums("o_solref", &o.o_solref, &d.o_solref);
    n.nums("o_solimp", &o.o_solimp, &d.o_solimp);
    n.nums("o_friction", &o.o_friction, &d.o_friction);
    n.key("integrator", kw::INTEGRATOR, o.integrator, d.integrator)?;
    n.key("cone", kw::CONE, o.cone, d.cone)?;
    n.key("jacobian", kw::JACOBIAN, o.jacobian, d.jacobian)?;
    n.key("solver", kw::SOLVER, o.solver, d.solver)?;
    n.int("iterations", o.iterations, d.iterations);
    n.int("ls_iterations", o.ls_iterations, d.ls_iterations);
    n.int(
        "noslip_iterations",
        o.noslip_iterations,
        d.noslip_iterations,
    );
    n.int("mpr_iterations", o.mpr_iterations, d.mpr_iterations);
    n.int("sdf_iterations", o.sdf_iterations, d.sdf_iterations);
    n.int("sdf_initpoints", o.sdf_initpoints, d.sdf_initpoints);
    let groups: Vec<i32> = (0..31)
        .filter(|g| o.disableactuator & (1 << g) != 0)
        .collect();
    n.vec_some("actuatorgroupdisable", &groups);
    let mut flag = Node::new("flag");
    for &(name, mask) in kw::DISABLE_FLAGS {
        if o.disableflags & mask != 0 {
            flag.set(name, "disable");
        }
    }
    for &(name, mask) in kw::ENABLE_FLAGS {
        if o.enableflags & mask != 0 {
            flag.set(name, "enable");
        }
    }
    push_some(&mut n, flag);
    Ok(n)
}

/// `mju_writeNumBytes`: a byte count with the largest binary suffix that divides it.
fn num_bytes(n: i64) -> String {
    for (shift, suffix) in [
        (60, 'E'),
        (50, 'P'),
        (40, 'T'),
        (30, 'G'),
        (20, 'M'),
        (10, 'K'),
    ] {
        let unit = 1i64 << shift;
        if n >= unit && n % unit == 0 {
            return format!("{}{suffix}", n >> shift);
        }
    }
    n.to_string()
}

/// `size` (`mjXWriter::Size`): what the spec sets, "unset" (-1) left out.
fn size(s: &Spec) -> Node {
    let mut n = Node::new("size");
    if s.memory != -1 {
        n.set("memory", num_bytes(s.memory));
    }
    n.int("njmax", s.njmax, -1);
    n.int("nconmax", s.nconmax, -1);
    if s.nstack != -1 {
        n.set("nstack", s.nstack.to_string());
    }
    n.int("nuserdata", s.nuserdata, 0);
    n.int("nkey", s.nkey, 0);
    n.int("nuser_body", s.nuser_body, -1);
    n.int("nuser_jnt", s.nuser_jnt, -1);
    n.int("nuser_geom", s.nuser_geom, -1);
    n.int("nuser_site", s.nuser_site, -1);
    n.int("nuser_cam", s.nuser_cam, -1);
    n.int("nuser_tendon", s.nuser_tendon, -1);
    n.int("nuser_actuator", s.nuser_actuator, -1);
    n.int("nuser_sensor", s.nuser_sensor, -1);
    n
}

/// `visual` (`mjXWriter::Visual`).
fn visual(v: &Visual) -> Node {
    let d = Visual::default();
    let mut section = Node::new("visual");
    let (g, gd) = (&v.global, &d.global);
    let mut n = Node::new("global");
    n.num("fovy", g.fovy, gd.fovy);
    n.num("ipd", g.ipd, gd.ipd);
    n.num("azimuth", g.azimuth, gd.azimuth);
    n.num("elevation", g.elevation, gd.elevation);
    n.num("linewidth", g.linewidth, gd.linewidth);
    n.num("glow", g.glow, gd.glow);
    n.num("realtime", g.realtime, gd.realtime);
    n.int("offwidth", g.offwidth, gd.offwidth);
    n.int("offheight", g.offheight, gd.offheight);
    n.flag(
        "ellipsoidinertia",
        g.ellipsoidinertia != 0,
        gd.ellipsoidinertia != 0,
    );
    n.flag("bvactive", g.bvactive != 0, gd.bvactive != 0);
    push_some(&mut section, n);
    let (q, qd) = (&v.quality, &d.quality);
    let mut n = Node::new("quality");
    n.int("shadowsize", q.shadowsize, qd.shadowsize);
    n.int("offsamples", q.offsamples, qd.offsamples);
    n.int("numslices", q.numslices, qd.numslices);
    n.int("numstacks", q.numstacks, qd.numstacks);
    n.int("numquads", q.numquads, qd.numquads);
    push_some(&mut section, n);
    let (h, hd) = (&v.headlight, &d.headlight);
    let mut n = Node::new("headlight");
    n.nums("ambient", &h.ambient, &hd.ambient);
    n.nums("diffuse", &h.diffuse, &hd.diffuse);
    n.nums("specular", &h.specular, &hd.specular);
    n.int("active", h.active, hd.active);
    push_some(&mut section, n);
    let (m, md) = (&v.map, &d.map);
    let mut n = Node::new("map");
    for (name, x, xd) in [
        ("stiffness", m.stiffness, md.stiffness),
        ("stiffnessrot", m.stiffnessrot, md.stiffnessrot),
        ("force", m.force, md.force),
        ("torque", m.torque, md.torque),
        ("alpha", m.alpha, md.alpha),
        ("fogstart", m.fogstart, md.fogstart),
        ("fogend", m.fogend, md.fogend),
        ("znear", m.znear, md.znear),
        ("zfar", m.zfar, md.zfar),
        ("haze", m.haze, md.haze),
        ("shadowclip", m.shadowclip, md.shadowclip),
        ("shadowscale", m.shadowscale, md.shadowscale),
        ("actuatortendon", m.actuatortendon, md.actuatortendon),
    ] {
        n.num(name, x, xd);
    }
    push_some(&mut section, n);
    let (s, sd) = (&v.scale, &d.scale);
    let mut n = Node::new("scale");
    for (name, x, xd) in [
        ("forcewidth", s.forcewidth, sd.forcewidth),
        ("contactwidth", s.contactwidth, sd.contactwidth),
        ("contactheight", s.contactheight, sd.contactheight),
        ("connect", s.connect, sd.connect),
        ("com", s.com, sd.com),
        ("camera", s.camera, sd.camera),
        ("light", s.light, sd.light),
        ("selectpoint", s.selectpoint, sd.selectpoint),
        ("jointlength", s.jointlength, sd.jointlength),
        ("jointwidth", s.jointwidth, sd.jointwidth),
        ("actuatorlength", s.actuatorlength, sd.actuatorlength),
        ("actuatorwidth", s.actuatorwidth, sd.actuatorwidth),
        ("framelength", s.framelength, sd.framelength),
        ("framewidth", s.framewidth, sd.framewidth),
        ("constraint", s.constraint, sd.constraint),
        ("slidercrank", s.slidercrank, sd.slidercrank),
        ("frustum", s.frustum, sd.frustum),
    ] {
        n.num(name, x, xd);
    }
    push_some(&mut section, n);
    let (c, cd) = (&v.rgba, &d.rgba);
    let mut n = Node::new("rgba");
    for (name, x, xd) in [
        ("fog", c.fog, cd.fog),
        ("haze", c.haze, cd.haze),
        ("force", c.force, cd.force),
        ("inertia", c.inertia, cd.inertia),
        ("joint", c.joint, cd.joint),
        ("actuator", c.actuator, cd.actuator),
        ("actuatornegative", c.actuatornegative, cd.actuatornegative),
        ("actuatorpositive", c.actuatorpositive, cd.actuatorpositive),
        ("com", c.com, cd.com),
        ("camera", c.camera, cd.camera),
        ("light", c.light, cd.light),
        ("selectpoint", c.selectpoint, cd.selectpoint),
        ("connect", c.connect, cd.connect),
        ("contactpoint", c.contactpoint, cd.contactpoint),
        ("contactforce", c.contactforce, cd.contactforce),
        ("contactfriction", c.contactfriction, cd.contactfriction),
        ("contacttorque", c.contacttorque, cd.contacttorque),
        ("contactgap", c.contactgap, cd.contactgap),
        ("rangefinder", c.rangefinder, cd.rangefinder),
        ("constraint", c.constraint, cd.constraint),
        ("slidercrank", c.slidercrank, cd.slidercrank),
        ("crankbroken", c.crankbroken, cd.crankbroken),
        ("frustum", c.frustum, cd.frustum),
        ("bv", c.bv, cd.bv),
        ("bvactive", c.bvactive, cd.bvactive),
    ] {
        n.nums(name, &x, &xd);
    }
    push_some(&mut section, n);
    section
}

/// `statistic`: the values given (unset ones are NaN).
fn statistic(s: &StatSpec) -> Node {
    let d = StatSpec::default();
    let mut n = Node::new("statistic");
    n.num("meaninertia", s.meaninertia, d.meaninertia);
    n.num("meanmass", s.meanmass, d.meanmass);
    n.num("meansize", s.meansize, d.meansize);
    n.num("extent", s.extent, d.extent);
    n.nums("center", &s.center, &d.center);
    n
}

/// `custom` (`mjXWriter::Custom`).
fn custom(s: &Spec) -> Node {
    let mut section = Node::new("custom");
    for x in &s.numerics {
        let mut n = Node::new("numeric");
        n.text_some("name", &x.name);
        n.set("size", x.size.to_string());
        n.vec_some("data", &x.data);
        section.children.push(n);
    }
    for x in &s.texts {
        let mut n = Node::new("text");
        n.text_some("name", &x.name);
        n.set("data", x.data.as_str());
        section.children.push(n);
    }
    for x in &s.tuples {
        let mut n = Node::new("tuple");
        n.text_some("name", &x.name);
        for (k, ty) in x.objtype.iter().enumerate() {
            let mut e = Node::new("element");
            e.set("objtype", crate::compiler::type2str(*ty));
            e.set("objname", x.objname.get(k).map_or("", String::as_str));
            e.num("prm", x.objprm.get(k).copied().unwrap_or(0.0), 0.0);
            n.children.push(e);
        }
        section.children.push(n);
    }
    section
}

/// The class an asset or global element was read from (by name; `main` when unknown), and
/// whether it needs a `class` attribute (it is not the top class).
fn named_class<'a>(s: &'a Spec, classname: &str) -> (&'a DefaultClass, bool) {
    match s.defaults.iter().position(|d| d.name == classname) {
        Some(i) => (&s.defaults[i], i != 0),
        None => (&s.defaults[0], false),
    }
}

/// Sets the `class` attribute of `n` when `write`.
fn class_attr(n: &mut Node, classname: &str, write: bool) {
    if write {
        n.set_class(classname);
    }
}

/// `asset` (`mjXWriter::Asset`), with the skins (MuJoCo writes them in `deformable`).
fn asset(s: &Spec) -> Result<Node, XmlError> {
    let mut section = Node::new("asset");
    let td = Texture::default();
    for t in &s.textures {
        let mut n = Node::new("texture");
        n.key("type", kw::TEXTURE, t.ttype, td.ttype)?;
        n.text_some("name", &t.name);
        n.text_some("content_type", &t.content_type);
        n.text_some("file", &t.file);
        for (name, f) in [
            "fileright",
            "fileleft",
            "fileup",
            "filedown",
            "filefront",
            "fileback",
        ]
        .iter()
        .zip(&t.cubefiles)
        {
            n.text_some(name, f);
        }
        n.key("builtin", kw::BUILTIN, t.builtin, td.builtin)?;
        n.key("mark", kw::MARK, t.mark, td.mark)?;
        n.nums("rgb1", &t.rgb1, &td.rgb1);
        n.nums("rgb2", &t.rgb2, &td.rgb2);
        n.nums("markrgb", &t.markrgb, &td.markrgb);
        n.num("random", t.random, td.random);
        n.int("width", t.width, td.width);
        n.int("height", t.height, td.height);
        n.flag("hflip", t.hflip, td.hflip);
        n.flag("vflip", t.vflip, td.vflip);
        n.nums("gridsize", &t.gridsize, &td.gridsize);
        if t.gridlayout != td.gridlayout {
            let len = usize::try_from(t.gridsize[0] * t.gridsize[1])
                .unwrap_or(0)
                .min(12);
            n.set("gridlayout", String::from_utf8_lossy(&t.gridlayout[..len]));
        }
        section.children.push(n);
    }
    for m in &s.materials {
        let mut n = Node::new("material");
        let (d, class) = named_class(s, &m.classname);
        el::material(&mut n, m, &d.material);
        class_attr(&mut n, &m.classname, class);
        section.children.push(n);
    }
    for m in &s.meshes {
        let mut n = Node::new("mesh");
        let (d, class) = named_class(s, &m.classname);
        el::mesh(&mut n, m, &d.mesh);
        class_attr(&mut n, &m.classname, class);
        if let Some(r) = &m.plugin {
            n.children.push(plugin::child(r, s));
        }
        section.children.push(n);
    }
    for h in &s.hfields {
        let mut n = Node::new("hfield");
        n.text_some("name", &h.name);
        n.text_some("content_type", &h.content_type);
        n.text_some("file", &h.file);
        n.int("nrow", h.nrow, 0);
        n.int("ncol", h.ncol, 0);
        n.set("size", join(&h.size));
        if h.file.is_empty() && h.userdata.iter().any(|x| x.to_bits() != 0) {
            // the XML lists rows top to bottom; the spec holds them bottom to top
            let ncol = usize::try_from(h.ncol).unwrap_or(1).max(1);
            let rows: Vec<f32> = h.userdata.chunks(ncol).rev().flatten().copied().collect();
            n.set("elevation", join(&rows));
        }
        section.children.push(n);
    }
    let kd = Skin::default();
    for k in &s.skins {
        let mut n = Node::new("skin");
        n.text_some("name", &k.name);
        n.text_some("file", &k.file);
        n.text_some("material", &k.material);
        n.nums("rgba", &k.rgba, &kd.rgba);
        n.num("inflate", k.inflate, kd.inflate);
        n.int("group", k.group, kd.group);
        n.vec_some("vertex", &k.vert);
        n.vec_some("texcoord", &k.texcoord);
        n.vec_some("face", &k.face);
        for (i, body) in k.bodyname.iter().enumerate() {
            let mut b = Node::new("bone");
            b.set("body", body.as_str());
            b.set(
                "bindpos",
                join(k.bindpos.get(3 * i..3 * i + 3).unwrap_or_default()),
            );
            b.set(
                "bindquat",
                join(k.bindquat.get(4 * i..4 * i + 4).unwrap_or_default()),
            );
            b.set(
                "vertid",
                join(k.vertid.get(i).map_or(&[][..], Vec::as_slice)),
            );
            b.set(
                "vertweight",
                join(k.vertweight.get(i).map_or(&[][..], Vec::as_slice)),
            );
            n.children.push(b);
        }
        section.children.push(n);
    }
    Ok(section)
}

/// `contact` (`mjXWriter::Contact`).
fn contact(s: &Spec) -> Node {
    let mut section = Node::new("contact");
    for p in &s.pairs {
        let mut n = Node::new("pair");
        let (d, class) = named_class(s, &p.classname);
        el::pair(&mut n, p, &d.pair);
        class_attr(&mut n, &p.classname, class);
        section.children.push(n);
    }
    for x in &s.excludes {
        let mut n = Node::new("exclude");
        n.text_some("name", &x.name);
        n.set("body1", x.bodyname1.as_str());
        n.set("body2", x.bodyname2.as_str());
        section.children.push(n);
    }
    section
}

/// `deformable` (`mjXWriter::Deformable`): the flexes, those of flexcomps included (their
/// bodies are in the tree).
fn deformable(s: &Spec) -> Result<Node, XmlError> {
    let mut section = Node::new("deformable");
    for f in &s.flexes {
        section.children.push(el::flex(f)?);
    }
    Ok(section)
}

/// `equality` (`mjXWriter::Equality`).
fn equality(s: &Spec) -> Result<Node, XmlError> {
    let mut section = Node::new("equality");
    for q in &s.equalities {
        let (d, class) = named_class(s, &q.classname);
        let mut n = el::equality(q, &d.equality)?;
        class_attr(&mut n, &q.classname, class);
        section.children.push(n);
    }
    Ok(section)
}

/// `tendon` (`mjXWriter::Tendon`): `spatial` or `fixed`, with the path.
fn tendon(s: &Spec) -> Result<Node, XmlError> {
    let mut section = Node::new("tendon");
    for t in &s.tendons {
        let mut n = Node::new(if t.spatial { "spatial" } else { "fixed" });
        let (d, class) = named_class(s, &t.classname);
        el::tendon(&mut n, t, &d.tendon);
        class_attr(&mut n, &t.classname, class);
        for w in &t.path {
            let e = match w {
                Wrap::Joint { name, coef, .. } => {
                    let mut e = Node::new("joint");
                    e.set("joint", name.as_str());
                    e.set("coef", join(&[*coef]));
                    e
                }
                Wrap::Site { name, .. } => {
                    let mut e = Node::new("site");
                    e.set("site", name.as_str());
                    e
                }
                Wrap::Geom { name, sidesite, .. } => {
                    let mut e = Node::new("geom");
                    e.set("geom", name.as_str());
                    e.text_some("sidesite", sidesite);
                    e
                }
                Wrap::Pulley { divisor, .. } => {
                    let mut e = Node::new("pulley");
                    e.set("divisor", join(&[*divisor]));
                    e
                }
            };
            n.children.push(e);
        }
        section.children.push(n);
    }
    Ok(section)
}

/// `actuator` (`mjXWriter::Actuator`).
fn actuator(s: &Spec) -> Result<Node, XmlError> {
    let mut section = Node::new("actuator");
    for a in &s.actuators {
        let (d, class) = named_class(s, &a.classname);
        let mut n = match &a.plugin {
            Some(r) => {
                let mut n = el::plugin_actuator(a, &d.actuator)?;
                plugin::reference(&mut n, r, s);
                n
            }
            None => el::actuator(a, &d.actuator)?,
        };
        class_attr(&mut n, &a.classname, class);
        section.children.push(n);
    }
    Ok(section)
}

/// `sensor` (`mjXWriter::Sensor`).
fn sensor(s: &Spec) -> Result<Node, XmlError> {
    let mut section = Node::new("sensor");
    let type2str = crate::compiler::type2str;
    for x in &s.sensors {
        let mut n;
        if let Some(&(elem, _, _, attr)) = kw::SIMPLE_SENSORS.iter().find(|r| r.1 == x.stype) {
            n = Node::new(elem);
            n.set(attr, x.objname.as_str());
        } else if let Some(&(elem, _, with_ref)) = kw::FRAME_SENSORS.iter().find(|r| r.1 == x.stype)
        {
            n = Node::new(elem);
            n.set("objtype", type2str(x.objtype));
            n.set("objname", x.objname.as_str());
            if with_ref && x.reftype != OBJ_UNKNOWN {
                n.set("reftype", type2str(x.reftype));
                n.set("refname", x.refname.as_str());
            }
        } else {
            match x.stype {
                SENS_CAMPROJECTION => {
                    n = Node::new("camprojection");
                    n.set("site", x.objname.as_str());
                    n.set("camera", x.refname.as_str());
                }
                SENS_GEOMDIST | SENS_GEOMNORMAL | SENS_GEOMFROMTO => {
                    n = Node::new(match x.stype {
                        SENS_GEOMDIST => "distance",
                        SENS_GEOMNORMAL => "normal",
                        _ => "fromto",
                    });
                    n.set(
                        if x.objtype == OBJ_BODY {
                            "body1"
                        } else {
                            "geom1"
                        },
                        x.objname.as_str(),
                    );
                    n.set(
                        if x.reftype == OBJ_BODY {
                            "body2"
                        } else {
                            "geom2"
                        },
                        x.refname.as_str(),
                    );
                }
                SENS_CLOCK => n = Node::new("clock"),
                SENS_PLUGIN => {
                    n = Node::new("plugin");
                    if x.objtype != OBJ_UNKNOWN {
                        n.set("objtype", type2str(x.objtype));
                        n.set("objname", x.objname.as_str());
                    }
                    if x.reftype != OBJ_UNKNOWN {
                        n.set("reftype", type2str(x.reftype));
                        n.set("refname", x.refname.as_str());
                    }
                    if let Some(r) = &x.plugin {
                        plugin::reference(&mut n, r, s);
                    }
                }
                SENS_USER => {
                    n = Node::new("user");
                    if x.objtype != OBJ_UNKNOWN || !x.objname.is_empty() {
                        n.set("objtype", type2str(x.objtype));
                        n.set("objname", x.objname.as_str());
                    }
                    n.set("dim", x.dim.to_string());
                    n.key("needstage", kw::STAGE, x.needstage, STAGE_ACC)?;
                    n.key("datatype", kw::DATATYPE, x.datatype, DATATYPE_REAL)?;
                }
                other => {
                    return Err(XmlError::model(format!(
                        "XML Write error: unknown sensor type {other}"
                    )))
                }
            }
        }
        if !x.name.is_empty() {
            n.attrs.insert(0, ("name".into(), x.name.clone()));
        }
        n.num("cutoff", x.cutoff, 0.0);
        n.num("noise", x.noise, 0.0);
        n.vec_some("user", &x.userdata);
        section.children.push(n);
    }
    Ok(section)
}

/// `keyframe`: each key with the vectors it gives.
fn keyframe(s: &Spec) -> Node {
    let mut section = Node::new("keyframe");
    for k in &s.keys {
        let mut n = Node::new("key");
        n.text_some("name", &k.name);
        n.num("time", k.time, 0.0);
        n.vec_some("qpos", &k.qpos);
        n.vec_some("qvel", &k.qvel);
        n.vec_some("act", &k.act);
        n.vec_some("mpos", &k.mpos);
        n.vec_some("mquat", &k.mquat);
        n.vec_some("ctrl", &k.ctrl);
        section.children.push(n);
    }
    section
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(xml: &str) -> String {
        let res = crate::FileResources::new(None);
        let (spec, _) = crate::reader::read_mjcf(xml.as_bytes(), "t.xml", "", &res).unwrap();
        write_xml(&spec).unwrap()
    }

    #[test]
    fn broken_specs_are_errors() {
        let mut s = Spec::default();
        s.bodies[0].bodies.push(5);
        assert!(write_xml(&s).is_err());
        let mut s = Spec::default();
        s.frames.push(Frame::new(0, Some(0), 0));
        assert!(write_xml(&s).is_err());
        let mut s = Spec::default();
        s.actuators.push(Actuator {
            inheritrange: 1.0,
            ..Actuator::default()
        });
        assert!(write_xml(&s).is_err());
        assert!(write_xml(&Spec::default()).is_ok());
    }

    #[test]
    fn memory_suffixes() {
        assert_eq!(num_bytes(1024), "1K");
        assert_eq!(num_bytes(3 << 20), "3M");
        assert_eq!(num_bytes(1000), "1000");
        assert_eq!(num_bytes(1025), "1025");
    }

    #[test]
    fn layout_and_classes() {
        let text = roundtrip(
            r#"<mujoco model="m"><!-- hello -->
  <default>
    <geom size="0.1" rgba="1 0 0 1"/>
    <default class="big"><geom size="0.5"/></default>
  </default>
  <worldbody>
    <geom name="a"/>
    <body name="b" pos="0 0 1" childclass="big">
      <joint type="slide"/>
      <geom name="c" class="main" type="box" size="1 2 3"/>
      <frame pos="1 0 0"><site name="s"/></frame>
    </body>
  </worldbody>
</mujoco>"#,
        );
        assert_eq!(
            text,
            r#"<mujoco model="m">
  <!-- hello -->
  <compiler angle="degree"/>
  <default class="main">
    <geom size="0.10000000000000001" rgba="1 0 0 1"/>
    <default class="big">
      <geom size="0.5"/>
    </default>
  </default>
  <worldbody>
    <geom name="a"/>
    <body name="b" childclass="big" pos="0 0 1">
      <joint type="slide"/>
      <geom name="c" class="main" type="box" size="1 2 3"/>
      <frame pos="1 0 0">
        <site name="s"/>
      </frame>
    </body>
  </worldbody>
</mujoco>
"#
        );
    }
}
