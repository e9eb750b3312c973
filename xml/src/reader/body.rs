//! The kinematic tree (`worldbody`, `body`, `frame`) and the one-element readers shared by
//! elements and default classes (`mjXReader::OneJoint`, `OneGeom`, ... and `Body`).

use mjrs_core::types::*;

use super::attr::{self, keyword, read, read1, read_upto, set_bool, set_text, text, Warnings};
use super::dom::Elem;
use super::sections::limited;
use super::{info, Reader};
use crate::error::XmlError;
use crate::keywords as kw;
use crate::spec::*;

/// `ReadQuat`: a quaternion of exactly four numbers, never all zero.
fn read_quat(e: &Elem, dst: &mut [f64; 4], w: &mut Warnings) -> Result<(), XmlError> {
    read(e, "quat", dst, w)?;
    if dst.iter().all(|&x| x == 0.0) {
        return Err(e.error("zero quaternion is not allowed"));
    }
    Ok(())
}

/// `ReadAlternative`: the alternative orientation specifiers; at most one (with `quat`) may be
/// given. Returns how many were.
pub(super) fn read_alternative(
    e: &Elem,
    alt: &mut Orientation,
    w: &mut Warnings,
) -> Result<usize, XmlError> {
    let mut n = usize::from(e.attr("quat").is_some());
    if read(e, "axisangle", &mut alt.axisangle, w)? {
        n += 1;
        alt.kind = OrientationType::AxisAngle;
    }
    if read(e, "xyaxes", &mut alt.xyaxes, w)? {
        n += 1;
        alt.kind = OrientationType::XYAxes;
    }
    if read(e, "zaxis", &mut alt.zaxis, w)? {
        n += 1;
        alt.kind = OrientationType::ZAxis;
    }
    if read(e, "euler", &mut alt.euler, w)? {
        n += 1;
        alt.kind = OrientationType::Euler;
    }
    if n > 1 {
        return Err(e.error("multiple orientation specifiers are not allowed"));
    }
    Ok(n)
}

/// `user` data.
fn user(e: &Elem, dst: &mut Vec<f64>, w: &mut Warnings) -> Result<(), XmlError> {
    if let Some(v) = attr::values(e, "user", w)? {
        *dst = v;
    }
    Ok(())
}

/// The attributes a geom shares with a composite's geom template: size, group and everything
/// about its contacts, in the order MuJoCo reads them.
pub(super) fn geom_contact(e: &Elem, g: &mut Geom, w: &mut Warnings) -> Result<(), XmlError> {
    read_upto(e, "size", &mut g.size, w)?;
    read1(e, "contype", &mut g.contype, w)?;
    read1(e, "conaffinity", &mut g.conaffinity, w)?;
    read1(e, "condim", &mut g.condim, w)?;
    read1(e, "group", &mut g.group, w)?;
    read1(e, "priority", &mut g.priority, w)?;
    read_upto(e, "friction", &mut g.friction, w)?;
    read1(e, "solmix", &mut g.solmix, w)?;
    read_upto(e, "solref", &mut g.solref, w)?;
    read_upto(e, "solimp", &mut g.solimp, w)?;
    read1(e, "margin", &mut g.margin, w)?;
    read1(e, "gap", &mut g.gap, w)?;
    Ok(())
}

impl Reader<'_> {
    /// `OneJoint`.
    pub(super) fn one_joint(&mut self, e: &Elem, j: &mut Joint) -> Result<(), XmlError> {
        let w = &mut self.w;
        set_text(e, "name", &mut j.name);
        set_text(e, "class", &mut j.classname);
        if let Some(t) = keyword(e, "type", kw::JOINT)? {
            j.jtype = t;
        }
        limited(e, "limited", &mut j.limited)?;
        limited(e, "actuatorfrclimited", &mut j.actfrclimited)?;
        read1(e, "group", &mut j.group, w)?;
        read_upto(e, "solreflimit", &mut j.solref_limit, w)?;
        read_upto(e, "solimplimit", &mut j.solimp_limit, w)?;
        read_upto(e, "solreffriction", &mut j.solref_friction, w)?;
        read_upto(e, "solimpfriction", &mut j.solimp_friction, w)?;
        read(e, "pos", &mut j.pos, w)?;
        read(e, "axis", &mut j.axis, w)?;
        read(e, "springdamper", &mut j.springdamper, w)?;
        read1(e, "stiffness", &mut j.stiffness, w)?;
        read(e, "range", &mut j.range, w)?;
        read(e, "actuatorfrcrange", &mut j.actfrcrange, w)?;
        read1(e, "margin", &mut j.margin, w)?;
        read1(e, "ref", &mut j.ref_, w)?;
        read1(e, "springref", &mut j.springref, w)?;
        read1(e, "armature", &mut j.armature, w)?;
        read1(e, "damping", &mut j.damping, w)?;
        read1(e, "frictionloss", &mut j.frictionloss, w)?;
        set_bool(e, "actuatorgravcomp", &mut j.actgravcomp)?;
        user(e, &mut j.userdata, w)?;
        j.info = info(e);
        Ok(())
    }

    /// `OneGeom`.
    pub(super) fn one_geom(&mut self, e: &Elem, g: &mut Geom) -> Result<(), XmlError> {
        let w = &mut self.w;
        set_text(e, "name", &mut g.name);
        set_text(e, "class", &mut g.classname);
        if let Some(t) = keyword(e, "type", kw::GEOM)? {
            g.gtype = t;
        }
        geom_contact(e, g, w)?;
        set_text(e, "hfield", &mut g.hfieldname);
        set_text(e, "mesh", &mut g.meshname);
        read1(e, "fitscale", &mut g.fitscale, w)?;
        set_text(e, "material", &mut g.material);
        read(e, "rgba", &mut g.rgba, w)?;
        if let Some(v) = keyword(e, "fluidshape", kw::FLUID)? {
            g.fluid_ellipsoid = f64::from(v);
        }
        read_upto(e, "fluidcoef", &mut g.fluid_coefs, w)?;
        user(e, &mut g.userdata, w)?;
        if let Some(p) = e.children_named("plugin").next() {
            g.plugin = Some(self.one_plugin(p)?);
        }
        let w = &mut self.w;
        read1(e, "mass", &mut g.mass, w)?;
        read1(e, "density", &mut g.density, w)?;
        read(e, "fromto", &mut g.fromto, w)?;
        read(e, "pos", &mut g.pos, w)?;
        read_quat(e, &mut g.quat, w)?;
        read_alternative(e, &mut g.alt, w)?;
        set_bool(e, "shellinertia", &mut g.shellinertia)?;
        g.info = info(e);
        Ok(())
    }

    /// `OneSite`.
    pub(super) fn one_site(&mut self, e: &Elem, s: &mut Site) -> Result<(), XmlError> {
        let w = &mut self.w;
        set_text(e, "name", &mut s.name);
        set_text(e, "class", &mut s.classname);
        if let Some(t) = keyword(e, "type", kw::GEOM)? {
            s.stype = t;
        }
        read_upto(e, "size", &mut s.size, w)?;
        read1(e, "group", &mut s.group, w)?;
        read(e, "pos", &mut s.pos, w)?;
        read_quat(e, &mut s.quat, w)?;
        set_text(e, "material", &mut s.material);
        read(e, "rgba", &mut s.rgba, w)?;
        read(e, "fromto", &mut s.fromto, w)?;
        read_alternative(e, &mut s.alt, w)?;
        user(e, &mut s.userdata, w)?;
        s.info = info(e);
        Ok(())
    }

    /// `OneCamera`.
    pub(super) fn one_camera(&mut self, e: &Elem, c: &mut Camera) -> Result<(), XmlError> {
        let w = &mut self.w;
        set_text(e, "name", &mut c.name);
        set_text(e, "class", &mut c.classname);
        set_text(e, "target", &mut c.targetbody);
        if let Some(m) = keyword(e, "mode", kw::CAMLIGHT)? {
            c.mode = m;
        }
        read(e, "pos", &mut c.pos, w)?;
        read_quat(e, &mut c.quat, w)?;
        read_alternative(e, &mut c.alt, w)?;
        read1(e, "ipd", &mut c.ipd, w)?;
        let has_principal = read(e, "principalpixel", &mut c.principal_pixel, w)?
            || read(e, "principal", &mut c.principal_length, w)?;
        let has_focal = read(e, "focalpixel", &mut c.focal_pixel, w)?
            || read(e, "focal", &mut c.focal_length, w)?;
        let needs_sensorsize = has_principal || has_focal;
        if needs_sensorsize && e.attr("sensorsize").is_none() {
            return Err(attr::missing(e, "sensorsize"));
        }
        let has_sensorsize = read(e, "sensorsize", &mut c.sensor_size, w)?;
        let has_fovy = read1(e, "fovy", &mut c.fovy, w)?;
        if (has_focal || has_sensorsize) && e.attr("resolution").is_none() {
            return Err(attr::missing(e, "resolution"));
        }
        read(e, "resolution", &mut c.resolution, w)?;
        if c.resolution[0] < 0.0 || c.resolution[1] < 0.0 {
            return Err(e.error("camera resolution cannot be negative"));
        }
        if has_fovy && has_sensorsize {
            return Err(
                e.error("either 'fovy' or 'sensorsize' attribute can be specified, not both")
            );
        }
        c.userdata.clear();
        user(e, &mut c.userdata, w)?;
        c.info = info(e);
        Ok(())
    }

    /// `OneLight`.
    pub(super) fn one_light(&mut self, e: &Elem, l: &mut Light) -> Result<(), XmlError> {
        let w = &mut self.w;
        set_text(e, "name", &mut l.name);
        set_text(e, "class", &mut l.classname);
        set_text(e, "target", &mut l.targetbody);
        if let Some(m) = keyword(e, "mode", kw::CAMLIGHT)? {
            l.mode = m;
        }
        set_bool(e, "directional", &mut l.directional)?;
        set_bool(e, "castshadow", &mut l.castshadow)?;
        set_bool(e, "active", &mut l.active)?;
        read(e, "pos", &mut l.pos, w)?;
        read(e, "dir", &mut l.dir, w)?;
        read1(e, "bulbradius", &mut l.bulbradius, w)?;
        read(e, "attenuation", &mut l.attenuation, w)?;
        read1(e, "cutoff", &mut l.cutoff, w)?;
        read1(e, "exponent", &mut l.exponent, w)?;
        read(e, "ambient", &mut l.ambient, w)?;
        read(e, "diffuse", &mut l.diffuse, w)?;
        read(e, "specular", &mut l.specular, w)?;
        l.info = info(e);
        Ok(())
    }

    /// `OneMesh`.
    pub(super) fn one_mesh(&mut self, e: &Elem, m: &mut Mesh) -> Result<(), XmlError> {
        set_text(e, "name", &mut m.name);
        set_text(e, "class", &mut m.classname);
        set_text(e, "content_type", &mut m.content_type);
        let dir = self.mesh_dir();
        if let Some(f) = self.file_attr(e, "file", &dir) {
            m.file = f;
        }
        let w = &mut self.w;
        read(e, "refpos", &mut m.refpos, w)?;
        read(e, "refquat", &mut m.refquat, w)?;
        read(e, "scale", &mut m.scale, w)?;
        if let Some(p) = e.children_named("plugin").next() {
            m.plugin = Some(self.one_plugin(p)?);
        }
        let w = &mut self.w;
        set_bool(e, "smoothnormal", &mut m.smoothnormal)?;
        if let Some(v) = attr::values(e, "vertex", w)? {
            m.uservert = v;
        }
        if let Some(v) = attr::values(e, "normal", w)? {
            m.usernormal = v;
        }
        if let Some(v) = attr::values(e, "texcoord", w)? {
            m.usertexcoord = v;
        }
        if let Some(v) = attr::values(e, "face", w)? {
            m.userface = v;
        }
        m.info = info(e);
        Ok(())
    }

    /// `OneSkin`.
    pub(super) fn one_skin(&mut self, e: &Elem) -> Result<Skin, XmlError> {
        let mut s = Skin {
            info: info(e),
            ..Skin::default()
        };
        set_text(e, "name", &mut s.name);
        let dir = self.asset_dir();
        if let Some(f) = self.file_attr(e, "file", &dir) {
            s.file = f;
        }
        set_text(e, "material", &mut s.material);
        let w = &mut self.w;
        read1(e, "group", &mut s.group, w)?;
        if !(0..NGROUP as i32).contains(&s.group) {
            return Err(e.error("skin group must be between 0 and 5"));
        }
        read(e, "rgba", &mut s.rgba, w)?;
        read1(e, "inflate", &mut s.inflate, w)?;
        if let Some(t) = e.attr("vertex") {
            s.vert = attr::string_to_vec(t);
        }
        if let Some(t) = e.attr("texcoord") {
            s.texcoord = attr::string_to_vec(t);
        }
        if let Some(t) = e.attr("face") {
            s.face = attr::string_to_vec(t);
        }
        for b in e.children_named("bone") {
            s.bodyname.push(attr::text_required(b, "body")?);
            let mut pos = [0.0f32; 3];
            attr::read_required(b, "bindpos", &mut pos, w)?;
            s.bindpos.extend(pos);
            let mut quat = [0.0f32; 4];
            attr::read_required(b, "bindquat", &mut quat, w)?;
            s.bindquat.extend(quat);
            s.vertid
                .push(attr::string_to_vec(&attr::text_required(b, "vertid")?));
            s.vertweight
                .push(attr::string_to_vec(&attr::text_required(b, "vertweight")?));
        }
        Ok(s)
    }

    /// `OneMaterial`.
    pub(super) fn one_material(&mut self, e: &Elem, m: &mut Material) -> Result<(), XmlError> {
        let w = &mut self.w;
        set_text(e, "name", &mut m.name);
        set_text(e, "class", &mut m.classname);
        set_text(e, "texture", &mut m.texture);
        set_bool(e, "texuniform", &mut m.texuniform)?;
        read(e, "texrepeat", &mut m.texrepeat, w)?;
        read1(e, "emission", &mut m.emission, w)?;
        read1(e, "specular", &mut m.specular, w)?;
        read1(e, "shininess", &mut m.shininess, w)?;
        read1(e, "reflectance", &mut m.reflectance, w)?;
        read1(e, "metallic", &mut m.metallic, w)?;
        read1(e, "roughness", &mut m.roughness, w)?;
        read(e, "rgba", &mut m.rgba, w)?;
        m.info = info(e);
        Ok(())
    }

    /// `OnePair`.
    pub(super) fn one_pair(&mut self, e: &Elem, p: &mut Pair) -> Result<(), XmlError> {
        if !self.readingdefaults {
            set_text(e, "class", &mut p.classname);
            set_text(e, "geom1", &mut p.geomname1);
            set_text(e, "geom2", &mut p.geomname2);
        }
        let w = &mut self.w;
        set_text(e, "name", &mut p.name);
        read1(e, "condim", &mut p.condim, w)?;
        read_upto(e, "solref", &mut p.solref, w)?;
        read_upto(e, "solreffriction", &mut p.solreffriction, w)?;
        read_upto(e, "solimp", &mut p.solimp, w)?;
        read1(e, "margin", &mut p.margin, w)?;
        read1(e, "gap", &mut p.gap, w)?;
        read_upto(e, "friction", &mut p.friction, w)?;
        p.info = info(e);
        Ok(())
    }

    /// `OneEquality`.
    pub(super) fn one_equality(&mut self, e: &Elem, q: &mut Equality) -> Result<(), XmlError> {
        q.etype = kw::EQUALITY
            .iter()
            .find(|(k, _)| *k == e.name)
            .map_or(-1, |&(_, v)| v);
        let w = &mut self.w;
        if !self.readingdefaults {
            set_text(e, "name", &mut q.name);
            set_text(e, "class", &mut q.classname);
            let (name1, name2) = match q.etype {
                EQ_CONNECT => {
                    let n1 = attr::text_required(e, "body1")?;
                    let n2 = text(e, "body2");
                    attr::read_required(e, "anchor", &mut q.data[..3], w)?;
                    (n1, n2)
                }
                EQ_WELD => {
                    let n1 = attr::text_required(e, "body1")?;
                    let n2 = text(e, "body2");
                    read(e, "relpose", &mut q.data[3..10], w)?;
                    read1(e, "torquescale", &mut q.data[10], w)?;
                    if !read(e, "anchor", &mut q.data[..3], w)? {
                        q.data[..3].fill(0.0);
                    }
                    (n1, n2)
                }
                EQ_JOINT | EQ_TENDON => {
                    let (a, b) = if q.etype == EQ_JOINT {
                        ("joint1", "joint2")
                    } else {
                        ("tendon1", "tendon2")
                    };
                    let n1 = attr::text_required(e, a)?;
                    let n2 = text(e, b);
                    read_upto(e, "polycoef", &mut q.data[..5], w)?;
                    (n1, n2)
                }
                EQ_FLEX => (attr::text_required(e, "flex")?, None),
                EQ_DISTANCE => {
                    return Err(e.error(
                        "support for distance equality constraints was removed in MuJoCo 2.2.2",
                    ))
                }
                _ => return Err(e.error("unrecognized equality constraint type")),
            };
            q.name1 = name1;
            if let Some(n2) = name2.filter(|n| !n.is_empty()) {
                q.name2 = n2;
            }
        }
        set_bool(e, "active", &mut q.active)?;
        read_upto(e, "solref", &mut q.solref, w)?;
        read_upto(e, "solimp", &mut q.solimp, w)?;
        q.info = info(e);
        Ok(())
    }

    /// `OneTendon`.
    pub(super) fn one_tendon(&mut self, e: &Elem, t: &mut Tendon) -> Result<(), XmlError> {
        let w = &mut self.w;
        set_text(e, "name", &mut t.name);
        set_text(e, "class", &mut t.classname);
        read1(e, "group", &mut t.group, w)?;
        set_text(e, "material", &mut t.material);
        limited(e, "limited", &mut t.limited)?;
        read1(e, "width", &mut t.width, w)?;
        read_upto(e, "solreflimit", &mut t.solref_limit, w)?;
        read_upto(e, "solimplimit", &mut t.solimp_limit, w)?;
        read_upto(e, "solreffriction", &mut t.solref_friction, w)?;
        read_upto(e, "solimpfriction", &mut t.solimp_friction, w)?;
        read(e, "range", &mut t.range, w)?;
        read1(e, "margin", &mut t.margin, w)?;
        read1(e, "stiffness", &mut t.stiffness, w)?;
        read1(e, "damping", &mut t.damping, w)?;
        read1(e, "frictionloss", &mut t.frictionloss, w)?;
        if attr::read_into(e, "springlength", &mut t.springlength, false, w)? == 1 {
            t.springlength[1] = t.springlength[0];
        }
        read(e, "rgba", &mut t.rgba, w)?;
        user(e, &mut t.userdata, w)?;
        t.info = info(e);
        Ok(())
    }

    /// A body's (or the world's, or a frame's) children (`mjXReader::Body`): `body` is the
    /// body they belong to, `frame` the frame they are declared in.
    pub(super) fn body(
        &mut self,
        section: &Elem,
        body: usize,
        frame: Option<usize>,
    ) -> Result<(), XmlError> {
        if body == 0 && frame.is_none() && !section.attrs.is_empty() {
            return Err(section.error("World body cannot have attributes"));
        }
        for e in &section.children {
            let def = match self.class(e)? {
                Some(d) => d,
                None => match frame {
                    Some(f) => self.spec.frames[f].default,
                    None => self.spec.bodies[body].default,
                },
            };
            match e.name.as_str() {
                "replicate" => self.replicate(e, body, frame, def)?,
                "frame" => self.frame(e, body, frame, def)?,
                "body" => self.child_body(e, body, frame, def)?,
                _ => self.body_element(e, body, frame, def)?,
            }
        }
        Ok(())
    }

    /// An element of a body other than a nested body, frame or replicate. Kept out of
    /// [`Self::body`] so that the recursion through nested bodies (up to TinyXML2's nesting limit)
    /// does not carry these objects' stack space at every level.
    #[inline(never)]
    fn body_element(
        &mut self,
        e: &Elem,
        body: usize,
        frame: Option<usize>,
        def: usize,
    ) -> Result<(), XmlError> {
        let classname = self.spec.defaults[def].name.clone();
        match e.name.as_str() {
            "inertial" => {
                if body == 0 {
                    return Err(e.error("World body cannot have inertia"));
                }
                self.inertial(e, body)?;
            }
            "joint" => {
                if body == 0 {
                    return Err(e.error("World body cannot have joints"));
                }
                let mut j = self.spec.defaults[def].joint.clone();
                j.classname = classname;
                j.default = def;
                self.one_joint(e, &mut j)?;
                j.frame = frame;
                self.spec.bodies[body].joints.push(j);
            }
            "freejoint" => {
                if body == 0 {
                    return Err(e.error("World body cannot have joints"));
                }
                let mut j = Joint {
                    jtype: JNT_FREE,
                    frame,
                    default: def,
                    classname,
                    info: info(e),
                    ..Joint::default()
                };
                set_text(e, "name", &mut j.name);
                read1(e, "group", &mut j.group, &mut self.w)?;
                self.spec.bodies[body].joints.push(j);
            }
            "geom" => {
                let mut g = self.spec.defaults[def].geom.clone();
                g.classname = classname;
                g.default = def;
                self.one_geom(e, &mut g)?;
                g.frame = frame;
                self.spec.bodies[body].geoms.push(g);
            }
            "site" => {
                let mut s = self.spec.defaults[def].site.clone();
                s.classname = classname;
                s.default = def;
                self.one_site(e, &mut s)?;
                s.frame = frame;
                self.spec.bodies[body].sites.push(s);
            }
            "camera" => {
                let mut c = self.spec.defaults[def].camera.clone();
                c.classname = classname;
                c.default = def;
                self.one_camera(e, &mut c)?;
                c.frame = frame;
                self.spec.bodies[body].cameras.push(c);
            }
            "light" => {
                let mut l = self.spec.defaults[def].light.clone();
                l.classname = classname;
                l.default = def;
                self.one_light(e, &mut l)?;
                l.frame = frame;
                self.spec.bodies[body].lights.push(l);
            }
            "plugin" => {
                let r = self.one_plugin(e)?;
                self.spec.bodies[body].plugin = Some(r);
            }
            "composite" => self.composite(e, body)?,
            "flexcomp" => self.flexcomp(e, body)?,
            other => return Err(e.error(format!("unrecognized model element '{other}'"))),
        }
        Ok(())
    }

    fn inertial(&mut self, e: &Elem, body: usize) -> Result<(), XmlError> {
        let w = &mut self.w;
        let b = &mut self.spec.bodies[body];
        b.explicitinertial = true;
        attr::read_required(e, "pos", &mut b.ipos, w)?;
        read_quat(e, &mut b.iquat, w)?;
        attr::read_required(e, "mass", core::slice::from_mut(&mut b.mass), w)?;
        read(e, "diaginertia", &mut b.inertia, w)?;
        let alt = read_alternative(e, &mut b.ialt, w)? > 0;
        let full = read(e, "fullinertia", &mut b.fullinertia, w)?;
        if alt && full {
            return Err(e.error("multiple orientation specifiers are not allowed"));
        }
        Ok(())
    }

    /// The default class a `childclass` attribute names, or `def`.
    fn childclass(&self, e: &Elem, def: usize) -> Result<usize, XmlError> {
        match e.attr("childclass") {
            Some(c) => self
                .find_default(c)
                .ok_or_else(|| e.error("unknown default childclass")),
            None => Ok(def),
        }
    }

    fn frame(
        &mut self,
        e: &Elem,
        body: usize,
        parent: Option<usize>,
        def: usize,
    ) -> Result<(), XmlError> {
        let id = self.new_frame(e, body, parent, def)?;
        self.body(e, body, Some(id))
    }

    /// Adds the frame `e` declares and returns its id (apart from [`Self::frame`] for the same
    /// reason as [`Self::new_body`]).
    #[inline(never)]
    fn new_frame(
        &mut self,
        e: &Elem,
        body: usize,
        parent: Option<usize>,
        def: usize,
    ) -> Result<usize, XmlError> {
        let childdef = self.childclass(e, def)?;
        let id = self.spec.frames.len();
        let mut f = Frame::new(body, parent, childdef);
        f.info = info(e);
        set_text(e, "name", &mut f.name);
        set_text(e, "childclass", &mut f.childclass);
        let w = &mut self.w;
        read(e, "pos", &mut f.pos, w)?;
        read_quat(e, &mut f.quat, w)?;
        read_alternative(e, &mut f.alt, w)?;
        self.spec.frames.push(f);
        self.spec.bodies[body].frames.push(id);
        Ok(id)
    }

    fn child_body(
        &mut self,
        e: &Elem,
        parent: usize,
        frame: Option<usize>,
        def: usize,
    ) -> Result<(), XmlError> {
        let id = self.new_body(e, parent, frame, def)?;
        self.body(e, id, None)
    }

    /// Adds the body `e` declares under `parent` and returns its id; apart from
    /// [`Self::child_body`] so that the `Body` under construction is not on the stack of every
    /// level of nested bodies.
    #[inline(never)]
    fn new_body(
        &mut self,
        e: &Elem,
        parent: usize,
        frame: Option<usize>,
        def: usize,
    ) -> Result<usize, XmlError> {
        // a body without childclass inherits its parent body's class, not the element class
        let inherited = self.spec.bodies[parent].default;
        let childdef = match e.attr("childclass") {
            Some(_) => self.childclass(e, def)?,
            None => inherited,
        };
        let id = self.spec.bodies.len();
        let mut b = Body::new(Some(parent), childdef);
        b.info = info(e);
        set_text(e, "name", &mut b.name);
        set_text(e, "childclass", &mut b.childclass);
        let w = &mut self.w;
        read(e, "pos", &mut b.pos, w)?;
        read_quat(e, &mut b.quat, w)?;
        set_bool(e, "mocap", &mut b.mocap)?;
        read_alternative(e, &mut b.alt, w)?;
        read1(e, "gravcomp", &mut b.gravcomp, w)?;
        user(e, &mut b.userdata, w)?;
        b.frame = frame;
        self.spec.bodies.push(b);
        self.spec.bodies[parent].bodies.push(id);
        Ok(id)
    }
}
