//! One-element writers shared by the elements and the `default` classes (`mjXWriter::OneJoint`,
//! `OneGeom`, ...): each writes the attributes whose values differ from the class the element
//! is read from (for a class, from its parent class), so that the reader, starting from that
//! class, gets every field back.
//!
//! Fields MJCF cannot set in a class (names, targets) are equal to the parent's there, so the
//! same writers serve both.

use mjrs_core::types::*;

use super::node::Node;
use crate::error::XmlError;
use crate::keywords as kw;
use crate::spec::*;
use crate::util::geominfo;

/// `OneJoint`.
pub fn joint(n: &mut Node, j: &Joint, d: &Joint) -> Result<(), XmlError> {
    n.text("name", &j.name, &d.name);
    n.key("type", kw::JOINT, j.jtype, d.jtype)?;
    n.int("group", j.group, d.group);
    n.nums("pos", &j.pos, &d.pos);
    n.nums("axis", &j.axis, &d.axis);
    n.num("ref", j.ref_, d.ref_);
    n.num("springref", j.springref, d.springref);
    n.trim("solreflimit", &j.solref_limit, &d.solref_limit, 0);
    n.trim("solimplimit", &j.solimp_limit, &d.solimp_limit, 0);
    n.trim("solreffriction", &j.solref_friction, &d.solref_friction, 0);
    n.trim("solimpfriction", &j.solimp_friction, &d.solimp_friction, 0);
    n.num("stiffness", j.stiffness, d.stiffness);
    n.nums("springdamper", &j.springdamper, &d.springdamper);
    n.limited("limited", j.limited, d.limited);
    n.nums("range", &j.range, &d.range);
    n.limited("actuatorfrclimited", j.actfrclimited, d.actfrclimited);
    n.flag("actuatorgravcomp", j.actgravcomp, d.actgravcomp);
    n.nums("actuatorfrcrange", &j.actfrcrange, &d.actfrcrange);
    n.num("margin", j.margin, d.margin);
    n.num("armature", j.armature, d.armature);
    n.num("damping", j.damping, d.damping);
    n.num("frictionloss", j.frictionloss, d.frictionloss);
    n.vec("user", &j.userdata, &d.userdata);
    Ok(())
}

/// Is this joint what a `freejoint` element makes: MuJoCo's built-in joint defaults (not the
/// class's) with only a name and a group?
pub fn is_freejoint(j: &Joint) -> bool {
    let free = Joint {
        name: j.name.clone(),
        classname: j.classname.clone(),
        default: j.default,
        frame: j.frame,
        jtype: JNT_FREE,
        group: j.group,
        info: j.info.clone(),
        ..Joint::default()
    };
    crate::writer::same_debug(j, &free)
}

/// `OneGeom`.
pub fn geom(n: &mut Node, g: &Geom, d: &Geom) -> Result<(), XmlError> {
    n.text("name", &g.name, &d.name);
    n.key("type", kw::GEOM, g.gtype, d.gtype)?;
    n.trim("size", &g.size, &d.size, geominfo(g.gtype));
    n.int("contype", g.contype, d.contype);
    n.int("conaffinity", g.conaffinity, d.conaffinity);
    n.int("condim", g.condim, d.condim);
    n.int("group", g.group, d.group);
    n.int("priority", g.priority, d.priority);
    n.trim("friction", &g.friction, &d.friction, 0);
    n.num("solmix", g.solmix, d.solmix);
    n.trim("solref", &g.solref, &d.solref, 0);
    n.trim("solimp", &g.solimp, &d.solimp, 0);
    n.num("margin", g.margin, d.margin);
    n.num("gap", g.gap, d.gap);
    if g.fluid_ellipsoid.to_bits() != d.fluid_ellipsoid.to_bits() {
        let shape = fluid_shape(g.fluid_ellipsoid)?;
        n.key("fluidshape", kw::FLUID, shape, -1)?;
    }
    n.nums("fluidcoef", &g.fluid_coefs, &d.fluid_coefs);
    n.flag("shellinertia", g.shellinertia, d.shellinertia);
    n.num("mass", g.mass, d.mass);
    n.num("density", g.density, d.density);
    n.text("material", &g.material, &d.material);
    n.nums("rgba", &g.rgba, &d.rgba);
    n.text("hfield", &g.hfieldname, &d.hfieldname);
    n.text("mesh", &g.meshname, &d.meshname);
    n.num("fitscale", g.fitscale, d.fitscale);
    n.nums("fromto", &g.fromto, &d.fromto);
    n.nums("pos", &g.pos, &d.pos);
    n.nums("quat", &g.quat, &d.quat);
    n.orientation(&g.alt, &d.alt);
    n.vec("user", &g.userdata, &d.userdata);
    Ok(())
}

/// `fluid_ellipsoid` as its keyword's value.
fn fluid_shape(x: f64) -> Result<i32, XmlError> {
    if x == 0.0 {
        Ok(0)
    } else if x == 1.0 {
        Ok(1)
    } else {
        Err(XmlError::model(format!(
            "XML Write error: invalid fluid shape {x}"
        )))
    }
}

/// `OneSite`.
pub fn site(n: &mut Node, s: &Site, d: &Site) -> Result<(), XmlError> {
    n.text("name", &s.name, &d.name);
    n.key("type", kw::GEOM, s.stype, d.stype)?;
    n.trim("size", &s.size, &d.size, geominfo(s.stype));
    n.int("group", s.group, d.group);
    n.text("material", &s.material, &d.material);
    n.nums("rgba", &s.rgba, &d.rgba);
    n.nums("fromto", &s.fromto, &d.fromto);
    n.nums("pos", &s.pos, &d.pos);
    n.nums("quat", &s.quat, &d.quat);
    n.orientation(&s.alt, &d.alt);
    n.vec("user", &s.userdata, &d.userdata);
    Ok(())
}

/// `OneCamera`. The reader clears a camera's user data before reading `user`, so the user data
/// is compared with nothing rather than with the class's. Intrinsics need `sensorsize`, and
/// `focal` or `sensorsize` need `resolution`, even when equal to the class's.
pub fn camera(n: &mut Node, c: &Camera, d: &Camera) -> Result<(), XmlError> {
    n.text("name", &c.name, &d.name);
    n.text("target", &c.targetbody, &d.targetbody);
    n.key("mode", kw::CAMLIGHT, c.mode, d.mode)?;
    n.nums("pos", &c.pos, &d.pos);
    n.nums("quat", &c.quat, &d.quat);
    n.orientation(&c.alt, &d.alt);
    n.num("ipd", c.ipd, d.ipd);
    n.num("fovy", c.fovy, d.fovy);
    let len = n.attrs.len();
    n.nums("principalpixel", &c.principal_pixel, &d.principal_pixel);
    if n.attrs.len() == len {
        n.nums("principal", &c.principal_length, &d.principal_length);
    }
    let has_principal = n.attrs.len() > len;
    let len = n.attrs.len();
    n.nums("focalpixel", &c.focal_pixel, &d.focal_pixel);
    if n.attrs.len() == len {
        n.nums("focal", &c.focal_length, &d.focal_length);
    }
    let has_focal = n.attrs.len() > len;
    let len = n.attrs.len();
    if has_principal || has_focal {
        n.set("sensorsize", super::number::join(&c.sensor_size));
    } else {
        n.nums("sensorsize", &c.sensor_size, &d.sensor_size);
    }
    let has_sensorsize = n.attrs.len() > len;
    if has_focal || has_sensorsize {
        n.set("resolution", super::number::join(&c.resolution));
    } else {
        n.nums("resolution", &c.resolution, &d.resolution);
    }
    n.vec_some("user", &c.userdata);
    Ok(())
}

/// `OneLight`.
pub fn light(n: &mut Node, l: &Light, d: &Light) -> Result<(), XmlError> {
    n.text("name", &l.name, &d.name);
    n.text("target", &l.targetbody, &d.targetbody);
    n.key("mode", kw::CAMLIGHT, l.mode, d.mode)?;
    n.nums("pos", &l.pos, &d.pos);
    n.nums("dir", &l.dir, &d.dir);
    n.num("bulbradius", l.bulbradius, d.bulbradius);
    n.flag("directional", l.directional, d.directional);
    n.flag("castshadow", l.castshadow, d.castshadow);
    n.flag("active", l.active, d.active);
    n.nums("attenuation", &l.attenuation, &d.attenuation);
    n.num("cutoff", l.cutoff, d.cutoff);
    n.num("exponent", l.exponent, d.exponent);
    n.nums("ambient", &l.ambient, &d.ambient);
    n.nums("diffuse", &l.diffuse, &d.diffuse);
    n.nums("specular", &l.specular, &d.specular);
    Ok(())
}

/// `OneMesh`.
pub fn mesh(n: &mut Node, m: &Mesh, d: &Mesh) {
    n.text("name", &m.name, &d.name);
    n.text("content_type", &m.content_type, &d.content_type);
    n.text("file", &m.file, &d.file);
    n.vec("vertex", &m.uservert, &d.uservert);
    n.vec("normal", &m.usernormal, &d.usernormal);
    n.vec("texcoord", &m.usertexcoord, &d.usertexcoord);
    n.vec("face", &m.userface, &d.userface);
    n.nums("refpos", &m.refpos, &d.refpos);
    n.nums("refquat", &m.refquat, &d.refquat);
    n.nums("scale", &m.scale, &d.scale);
    n.flag("smoothnormal", m.smoothnormal, d.smoothnormal);
}

/// `OneMaterial`.
pub fn material(n: &mut Node, m: &Material, d: &Material) {
    n.text("name", &m.name, &d.name);
    n.text("texture", &m.texture, &d.texture);
    n.flag("texuniform", m.texuniform, d.texuniform);
    n.nums("texrepeat", &m.texrepeat, &d.texrepeat);
    n.num("emission", m.emission, d.emission);
    n.num("specular", m.specular, d.specular);
    n.num("shininess", m.shininess, d.shininess);
    n.num("reflectance", m.reflectance, d.reflectance);
    n.num("metallic", m.metallic, d.metallic);
    n.num("roughness", m.roughness, d.roughness);
    n.nums("rgba", &m.rgba, &d.rgba);
}

/// `OnePair`.
pub fn pair(n: &mut Node, p: &Pair, d: &Pair) {
    n.text("name", &p.name, &d.name);
    n.text("geom1", &p.geomname1, &d.geomname1);
    n.text("geom2", &p.geomname2, &d.geomname2);
    n.int("condim", p.condim, d.condim);
    n.num("margin", p.margin, d.margin);
    n.num("gap", p.gap, d.gap);
    n.trim("solref", &p.solref, &d.solref, 0);
    n.trim("solreffriction", &p.solreffriction, &d.solreffriction, 0);
    n.trim("solimp", &p.solimp, &d.solimp, 0);
    n.nums("friction", &p.friction, &d.friction);
}

/// The attributes of `OneEquality` that a class can set.
pub fn equality_common(n: &mut Node, q: &Equality, d: &Equality) {
    n.flag("active", q.active, d.active);
    n.trim("solref", &q.solref, &d.solref, 0);
    n.trim("solimp", &q.solimp, &d.solimp, 0);
}

/// `OneEquality` for an element: its type decides the element name and the data attributes.
pub fn equality(q: &Equality, d: &Equality) -> Result<Node, XmlError> {
    let element = super::node::keyword(kw::EQUALITY_WRITTEN, "equality", q.etype)?;
    let mut n = Node::new(element);
    n.text("name", &q.name, &d.name);
    let (a1, a2) = match q.etype {
        EQ_CONNECT | EQ_WELD => ("body1", "body2"),
        EQ_JOINT => ("joint1", "joint2"),
        EQ_FLEX => ("flex", ""),
        _ => ("tendon1", "tendon2"),
    };
    n.set(a1, q.name1.as_str());
    if !a2.is_empty() {
        n.text_some(a2, &q.name2);
    }
    match q.etype {
        EQ_FLEX => {}
        EQ_CONNECT => n.set("anchor", super::number::join(&q.data[..3])),
        EQ_WELD => {
            n.nums("anchor", &q.data[..3], &[0.0; 3]);
            n.nums("relpose", &q.data[3..10], &d.data[3..10]);
            n.num("torquescale", q.data[10], d.data[10]);
        }
        _ => n.trim("polycoef", &q.data[..5], &d.data[..5], 0),
    }
    equality_common(&mut n, q, d);
    Ok(n)
}

/// `OneFlex`: the flex, with its `contact` and `edge` children when they differ from the
/// defaults.
pub fn flex(f: &Flex) -> Result<Node, XmlError> {
    let d = Flex::default();
    let mut n = Node::new("flex");
    n.text_some("name", &f.name);
    n.num("radius", f.radius, d.radius);
    n.text_some("material", &f.material);
    n.nums("rgba", &f.rgba, &d.rgba);
    n.flag("flatskin", f.flatskin, d.flatskin);
    n.int("dim", f.dim, d.dim);
    n.int("group", f.group, d.group);
    n.set("body", f.vertbody.join(" "));
    n.vec_some("vertex", &f.vert);
    n.set("element", super::number::join(&f.elem));
    n.vec_some("texcoord", &f.texcoord);
    let mut c = Node::new("contact");
    c.int("contype", f.contype, d.contype);
    c.int("conaffinity", f.conaffinity, d.conaffinity);
    c.int("condim", f.condim, d.condim);
    c.int("priority", f.priority, d.priority);
    c.nums("friction", &f.friction, &d.friction);
    c.num("solmix", f.solmix, d.solmix);
    c.nums("solref", &f.solref, &d.solref);
    c.nums("solimp", &f.solimp, &d.solimp);
    c.num("margin", f.margin, d.margin);
    c.num("gap", f.gap, d.gap);
    c.flag("internal", f.internal, d.internal);
    c.key(
        "selfcollide",
        crate::reader::FLEXSELF,
        f.selfcollide,
        d.selfcollide,
    )?;
    c.int("activelayers", f.activelayers, d.activelayers);
    if !c.is_empty() {
        n.children.push(c);
    }
    let mut e = Node::new("edge");
    e.num("stiffness", f.edgestiffness, d.edgestiffness);
    e.num("damping", f.edgedamping, d.edgedamping);
    if !e.is_empty() {
        n.children.push(e);
    }
    Ok(n)
}

/// `OneTendon`.
pub fn tendon(n: &mut Node, t: &Tendon, d: &Tendon) {
    n.text("name", &t.name, &d.name);
    n.int("group", t.group, d.group);
    n.trim("solreflimit", &t.solref_limit, &d.solref_limit, 0);
    n.trim("solimplimit", &t.solimp_limit, &d.solimp_limit, 0);
    n.trim("solreffriction", &t.solref_friction, &d.solref_friction, 0);
    n.trim("solimpfriction", &t.solimp_friction, &d.solimp_friction, 0);
    n.limited("limited", t.limited, d.limited);
    n.nums("range", &t.range, &d.range);
    n.num("margin", t.margin, d.margin);
    n.num("stiffness", t.stiffness, d.stiffness);
    n.num("damping", t.damping, d.damping);
    n.num("frictionloss", t.frictionloss, d.frictionloss);
    n.nums("springlength", &t.springlength, &d.springlength);
    n.text("material", &t.material, &d.material);
    n.num("width", t.width, d.width);
    n.nums("rgba", &t.rgba, &d.rgba);
    n.vec("user", &t.userdata, &d.userdata);
}

/// The transmission attributes of an actuator element.
const TRANSMISSION: &[(i32, &str)] = &[
    (TRN_JOINT, "joint"),
    (TRN_JOINTINPARENT, "jointinparent"),
    (TRN_TENDON, "tendon"),
    (TRN_SLIDERCRANK, "cranksite"),
    (TRN_SITE, "site"),
    (TRN_BODY, "body"),
];

/// The attributes every actuator element has (name, limits, ranges, gear, transmission, user
/// data); `act_limited` and `act_range` say whether the element has `actlimited` and
/// `actrange`.
fn actuator_common(
    n: &mut Node,
    a: &Actuator,
    d: &Actuator,
    act_limited: bool,
    act_range: bool,
) -> Result<(), XmlError> {
    n.text("name", &a.name, &d.name);
    if a.trntype != d.trntype || a.target != d.target {
        let attr = TRANSMISSION
            .iter()
            .find(|(t, _)| *t == a.trntype)
            .map(|(_, name)| *name)
            .ok_or_else(|| {
                XmlError::model(format!(
                    "XML Write error: actuator '{}' has no transmission target",
                    a.name
                ))
            })?;
        n.set(attr, a.target.as_str());
    }
    // like MuJoCo, only the transmission that uses them writes them (a replicated actuator
    // carries suffixed ones it never uses)
    if a.trntype == TRN_SLIDERCRANK {
        n.text("slidersite", &a.slidersite, &d.slidersite);
    }
    if a.trntype == TRN_SITE {
        n.text("refsite", &a.refsite, &d.refsite);
    }
    n.int("group", a.group, d.group);
    n.limited("ctrllimited", a.ctrllimited, d.ctrllimited);
    n.nums("ctrlrange", &a.ctrlrange, &d.ctrlrange);
    n.limited("forcelimited", a.forcelimited, d.forcelimited);
    n.nums("forcerange", &a.forcerange, &d.forcerange);
    if act_limited {
        n.limited("actlimited", a.actlimited, d.actlimited);
    }
    if act_range {
        n.nums("actrange", &a.actrange, &d.actrange);
    }
    n.nums("lengthrange", &a.lengthrange, &d.lengthrange);
    n.nums("gear", &a.gear, &d.gear);
    n.num("cranklength", a.cranklength, d.cranklength);
    n.vec("user", &a.userdata, &d.userdata);
    Ok(())
}

/// `OneActuator` as a `general` element: every parameter explicit (MuJoCo writes all actuators
/// so). It cannot set `inheritrange`, which only `position` and `intvelocity` have.
pub fn general(n: &mut Node, a: &Actuator, d: &Actuator) -> Result<(), XmlError> {
    actuator_common(n, a, d, true, true)?;
    n.flag("actearly", a.actearly, d.actearly);
    n.key("dyntype", kw::DYN, a.dyntype, d.dyntype)?;
    n.nums("dynprm", &a.dynprm, &d.dynprm);
    n.int("actdim", a.actdim, d.actdim);
    n.key("gaintype", kw::GAIN, a.gaintype, d.gaintype)?;
    n.key("biastype", kw::BIAS, a.biastype, d.biastype)?;
    n.trim("gainprm", &a.gainprm, &d.gainprm, 0);
    n.trim("biasprm", &a.biasprm, &d.biasprm, 0);
    Ok(())
}

/// An actuator `plugin` element: what it reads besides the plugin reference (transmission,
/// ranges, activation dynamics); its gains and biases are the class's.
pub fn plugin_actuator(a: &Actuator, d: &Actuator) -> Result<Node, XmlError> {
    let mut n = Node::new("plugin");
    actuator_common(&mut n, a, d, true, true)?;
    n.flag("actearly", a.actearly, d.actearly);
    n.key("dyntype", kw::DYN, a.dyntype, d.dyntype)?;
    n.nums("dynprm", &a.dynprm, &d.dynprm);
    Ok(n)
}

/// The servo attributes of a `position` or `intvelocity` element, as the values they set.
#[derive(Default)]
struct Servo {
    /// `kp`: `gainprm[0]`.
    kp: Option<f64>,
    /// `kv` (negated) or `dampratio`: `biasprm[2]`.
    bias2: Option<f64>,
    /// `timeconst`: `dynprm[0]` (and the dynamics type).
    timeconst: Option<f64>,
}

/// What reading a `position` or `intvelocity` element with the servo attributes `s` does to
/// the actuator `a` (`mjXReader::OneActuator`'s servo branch).
fn apply_servo(a: &mut Actuator, intvelocity: bool, s: &Servo, inheritrange: f64) {
    if let Some(kp) = s.kp {
        a.gainprm[0] = kp;
    }
    a.biasprm[1] = -a.gainprm[0];
    if let Some(b) = s.bias2 {
        a.biasprm[2] = b;
    }
    if let Some(tc) = s.timeconst {
        a.dynprm[0] = tc;
        a.dyntype = if tc != 0.0 { DYN_FILTEREXACT } else { DYN_NONE };
    }
    a.inheritrange = inheritrange;
    a.gaintype = GAIN_FIXED;
    a.biastype = BIAS_AFFINE;
    if intvelocity {
        a.dyntype = DYN_INTEGRATOR;
        a.actlimited = Limited::True;
    }
}

/// The servo shortcut of an actuator kind, if it is one (`intvelocity` or not).
fn servo_kind(kind: &str) -> Option<bool> {
    match kind {
        "position" => Some(false),
        "intvelocity" => Some(true),
        _ => None,
    }
}

fn cannot_write(a: &Actuator) -> XmlError {
    XmlError::model(format!(
        "XML Write error: actuator '{}' has an inheritrange that no MJCF element can reproduce",
        a.name
    ))
}

/// An actuator element read from class `d`: `general`, unless its `inheritrange` differs from
/// the class's, which only the `position`/`intvelocity` shortcut (its `kind`) can set; the
/// shortcut's effect is then checked to give the actuator back.
pub fn actuator(a: &Actuator, d: &Actuator) -> Result<Node, XmlError> {
    if a.inheritrange.to_bits() == d.inheritrange.to_bits() {
        let mut n = Node::new("general");
        general(&mut n, a, d)?;
        return Ok(n);
    }
    let intvelocity = servo_kind(&a.kind).ok_or_else(|| cannot_write(a))?;
    let mut n = Node::new(&a.kind);
    actuator_common(&mut n, a, d, false, intvelocity)?;
    let mut predicted = d.clone();
    predicted.name.clone_from(&a.name);
    predicted.classname.clone_from(&a.classname);
    predicted.trntype = a.trntype;
    predicted.target.clone_from(&a.target);
    // written only for their transmission, unused otherwise
    predicted.slidersite.clone_from(&a.slidersite);
    predicted.refsite.clone_from(&a.refsite);
    predicted.group = a.group;
    predicted.ctrllimited = a.ctrllimited;
    predicted.ctrlrange = a.ctrlrange;
    predicted.forcelimited = a.forcelimited;
    predicted.forcerange = a.forcerange;
    if intvelocity {
        predicted.actrange = a.actrange;
    }
    predicted.lengthrange = a.lengthrange;
    predicted.gear = a.gear;
    predicted.cranklength = a.cranklength;
    predicted.userdata.clone_from(&a.userdata);
    let servo = servo_attrs(&mut n, a, d, intvelocity)?;
    apply_servo(&mut predicted, intvelocity, &servo, a.inheritrange);
    n.num("inheritrange", a.inheritrange, d.inheritrange);
    predicted.kind.clone_from(&a.kind);
    predicted.info = a.info.clone();
    if !crate::writer::same_debug(&predicted, a) {
        return Err(cannot_write(a));
    }
    Ok(n)
}

/// Writes `kp`, `kv`/`dampratio` and `timeconst` where the actuator differs from `d`, and
/// returns what they set.
fn servo_attrs(
    n: &mut Node,
    a: &Actuator,
    d: &Actuator,
    intvelocity: bool,
) -> Result<Servo, XmlError> {
    let mut kp = None;
    if a.gainprm[0].to_bits() != d.gainprm[0].to_bits() {
        n.num("kp", a.gainprm[0], d.gainprm[0]);
        kp = Some(a.gainprm[0]);
    }
    let mut bias2 = None;
    let b = a.biasprm[2];
    if b.to_bits() != d.biasprm[2].to_bits() {
        if b < 0.0 {
            n.set("kv", super::number::join(&[-b]));
        } else if b > 0.0 {
            n.set("dampratio", super::number::join(&[b]));
        } else {
            return Err(cannot_write(a));
        }
        bias2 = Some(b);
    }
    let mut timeconst = None;
    if !intvelocity && (a.dynprm[0].to_bits() != d.dynprm[0].to_bits() || a.dyntype != d.dyntype) {
        n.set("timeconst", super::number::join(&[a.dynprm[0]]));
        timeconst = Some(a.dynprm[0]);
    }
    Ok(Servo {
        kp,
        bias2,
        timeconst,
    })
}

/// The actuator of a default class `c` read from its parent `p`: `general` with the differences,
/// preceded by a bare `position` (or `intvelocity`, when the parent has a control range) that
/// sets `inheritrange` when it differs; the `general` then starts from what that shortcut
/// leaves, so either shortcut does (a class's `kind` is not kept by the reader anyway).
pub fn default_actuator(c: &Actuator, p: &Actuator) -> Result<Vec<Node>, XmlError> {
    let mut out = Vec::new();
    let mut base = p.clone();
    if c.inheritrange.to_bits() != p.inheritrange.to_bits() {
        // the reader refuses a positive inheritrange with a control (position) or an
        // activation (intvelocity) range
        let intvelocity = if p.ctrlrange == [0.0; 2] {
            false
        } else if p.actrange == [0.0; 2] {
            true
        } else {
            return Err(cannot_write(c));
        };
        let mut n = Node::new(if intvelocity {
            "intvelocity"
        } else {
            "position"
        });
        n.num("inheritrange", c.inheritrange, p.inheritrange);
        apply_servo(&mut base, intvelocity, &Servo::default(), c.inheritrange);
        out.push(n);
    }
    let mut n = Node::new("general");
    general(&mut n, c, &base)?;
    if !n.is_empty() {
        out.push(n);
    }
    Ok(out)
}
