//! The global sections of MJCF: compiler, option, size, visual, statistic, default, custom,
//! asset, contact, equality, tendon and keyframe (`mjXReader::Compiler` ... `Keyframe`).

use mjrs_core::types::*;

use super::attr::{
    self, keyword, read, read1, read_upto, set_bool, set_text, text, text_required, BOOL,
};
use super::dom::Elem;
use super::{info, Reader};
use crate::error::XmlError;
use crate::keywords as kw;
use crate::limits;
use crate::spec::*;

/// A three-valued `limited` keyword.
pub(super) fn limited(elem: &Elem, name: &str, dst: &mut Limited) -> Result<(), XmlError> {
    if let Some(v) = keyword(elem, name, kw::TFAUTO)? {
        *dst = match v {
            0 => Limited::False,
            1 => Limited::True,
            _ => Limited::Auto,
        };
    }
    Ok(())
}

impl Reader<'_> {
    /// `compiler` (`mjXReader::Compiler`).
    pub(super) fn compiler(&mut self, e: &Elem) -> Result<(), XmlError> {
        let w = &mut self.w;
        let s = &mut self.spec;
        set_bool(e, "autolimits", &mut s.autolimits)?;
        read1(e, "boundmass", &mut s.boundmass, w)?;
        read1(e, "boundinertia", &mut s.boundinertia, w)?;
        read1(e, "settotalmass", &mut s.settotalmass, w)?;
        set_bool(e, "balanceinertia", &mut s.balanceinertia)?;
        set_bool(e, "strippath", &mut s.strippath)?;
        set_bool(e, "fitaabb", &mut s.fitaabb)?;
        if keyword(e, "coordinate", kw::COORDINATE)? == Some(1) {
            return Err(e.error(
                "global coordinates no longer supported. To convert existing models, load and \
                 save them in MuJoCo 2.3.3 or older",
            ));
        }
        if let Some(a) = keyword(e, "angle", kw::ANGLE)? {
            s.degree = a == 1;
        }
        if let Some(seq) = e.attr("eulerseq") {
            let b = seq.as_bytes();
            if b.len() != 3 {
                return Err(e.error("euler format must have length 3"));
            }
            s.euler.copy_from_slice(b);
        }
        if let Some(d) = text(e, "assetdir") {
            s.meshdir.clone_from(&d);
            s.texturedir = d;
        }
        set_text(e, "meshdir", &mut s.meshdir);
        set_text(e, "texturedir", &mut s.texturedir);
        set_bool(e, "discardvisual", &mut s.discardvisual)?;
        set_bool(e, "convexhull", &mut s.convexhull)?;
        set_bool(e, "usethread", &mut s.usethread)?;
        set_bool(e, "fusestatic", &mut s.fusestatic)?;
        if let Some(v) = keyword(e, "inertiafromgeom", kw::TFAUTO)? {
            s.inertiafromgeom = match v {
                0 => InertiaFromGeom::False,
                1 => InertiaFromGeom::True,
                _ => InertiaFromGeom::Auto,
            };
        }
        read(e, "inertiagrouprange", &mut s.inertiagrouprange, w)?;
        set_bool(e, "exactmeshinertia", &mut s.exactmeshinertia)?;
        if let Some(lr) = find_sub(e, "lengthrange")? {
            let o = &mut s.lropt;
            if let Some(m) = keyword(lr, "mode", kw::LRMODE)? {
                o.mode = m;
            }
            set_bool(lr, "useexisting", &mut o.useexisting)?;
            set_bool(lr, "uselimit", &mut o.uselimit)?;
            read1(lr, "accel", &mut o.accel, w)?;
            read1(lr, "maxforce", &mut o.maxforce, w)?;
            read1(lr, "timeconst", &mut o.timeconst, w)?;
            read1(lr, "timestep", &mut o.timestep, w)?;
            read1(lr, "inttotal", &mut o.inttotal, w)?;
            read1(lr, "interval", &mut o.interval, w)?;
            read1(lr, "tolrange", &mut o.tolrange, w)?;
        }
        Ok(())
    }

    /// `option` and its `flag` (`mjXReader::Option`).
    pub(super) fn option(&mut self, e: &Elem) -> Result<(), XmlError> {
        let w = &mut self.w;
        let o = &mut self.spec.option;
        read1(e, "timestep", &mut o.timestep, w)?;
        read1(e, "apirate", &mut o.apirate, w)?;
        read1(e, "impratio", &mut o.impratio, w)?;
        read1(e, "tolerance", &mut o.tolerance, w)?;
        read1(e, "ls_tolerance", &mut o.ls_tolerance, w)?;
        read1(e, "noslip_tolerance", &mut o.noslip_tolerance, w)?;
        read1(e, "mpr_tolerance", &mut o.mpr_tolerance, w)?;
        read(e, "gravity", &mut o.gravity, w)?;
        read(e, "wind", &mut o.wind, w)?;
        read(e, "magnetic", &mut o.magnetic, w)?;
        read1(e, "density", &mut o.density, w)?;
        read1(e, "viscosity", &mut o.viscosity, w)?;
        read1(e, "o_margin", &mut o.o_margin, w)?;
        read_upto(e, "o_solref", &mut o.o_solref, w)?;
        read_upto(e, "o_solimp", &mut o.o_solimp, w)?;
        read_upto(e, "o_friction", &mut o.o_friction, w)?;
        if let Some(v) = keyword(e, "integrator", kw::INTEGRATOR)? {
            o.integrator = v;
        }
        if let Some(v) = keyword(e, "cone", kw::CONE)? {
            o.cone = v;
        }
        if let Some(v) = keyword(e, "jacobian", kw::JACOBIAN)? {
            o.jacobian = v;
        }
        if let Some(v) = keyword(e, "solver", kw::SOLVER)? {
            o.solver = v;
        }
        read1(e, "iterations", &mut o.iterations, w)?;
        read1(e, "ls_iterations", &mut o.ls_iterations, w)?;
        read1(e, "noslip_iterations", &mut o.noslip_iterations, w)?;
        read1(e, "mpr_iterations", &mut o.mpr_iterations, w)?;
        read1(e, "sdf_iterations", &mut o.sdf_iterations, w)?;
        read1(e, "sdf_initpoints", &mut o.sdf_initpoints, w)?;
        let mut groups = [0i32; 31];
        let n = attr::read_into(e, "actuatorgroupdisable", &mut groups, false, w)?;
        for &g in &groups[..n] {
            if g < 0 {
                return Err(e.error("disabled actuator group value must be non-negative"));
            }
            if g > 30 {
                return Err(e.error("disabled actuator group value cannot exceed 30"));
            }
            o.disableactuator |= 1 << g;
        }
        if let Some(f) = find_sub(e, "flag")? {
            for &(name, mask) in kw::DISABLE_FLAGS {
                if let Some(v) = keyword(f, name, kw::ENABLE)? {
                    o.disableflags = (o.disableflags & !mask) | if v == 1 { 0 } else { mask };
                }
            }
            for &(name, mask) in kw::ENABLE_FLAGS {
                if let Some(v) = keyword(f, name, kw::ENABLE)? {
                    o.enableflags = (o.enableflags & !mask) | if v == 1 { mask } else { 0 };
                }
            }
        }
        Ok(())
    }

    /// `size` (`mjXReader::Size`).
    pub(super) fn size(&mut self, e: &Elem) -> Result<(), XmlError> {
        if let Some(m) = memory(e)? {
            self.spec.memory = m;
        }
        let w = &mut self.w;
        let s = &mut self.spec;
        read1(e, "nuserdata", &mut s.nuserdata, w)?;
        read1(e, "nkey", &mut s.nkey, w)?;
        read1(e, "nconmax", &mut s.nconmax, w)?;
        if s.nconmax < -1 {
            return Err(e.error("nconmax must be >= -1"));
        }
        // MuJoCo checks the previous value of nstack and njmax here, not the one just read
        let mut nstack = -1;
        if read1(e, "nstack", &mut nstack, w)? {
            if s.nstack < -1 {
                return Err(e.error("nstack must be >= -1"));
            }
            if s.memory != -1 && nstack != -1 {
                return Err(
                    e.error("either 'memory' and 'nstack' attribute can be specified, not both")
                );
            }
            s.nstack = i64::from(nstack);
        }
        let mut njmax = -1;
        if read1(e, "njmax", &mut njmax, w)? {
            if s.njmax < -1 {
                return Err(e.error("njmax must be >= -1"));
            }
            if s.memory != -1 && njmax != -1 {
                return Err(
                    e.error("either 'memory' and 'njmax' attribute can be specified, not both")
                );
            }
            s.njmax = njmax;
        }
        for (name, dst) in [
            ("nuser_body", &mut s.nuser_body),
            ("nuser_jnt", &mut s.nuser_jnt),
            ("nuser_geom", &mut s.nuser_geom),
            ("nuser_site", &mut s.nuser_site),
            ("nuser_cam", &mut s.nuser_cam),
            ("nuser_tendon", &mut s.nuser_tendon),
            ("nuser_actuator", &mut s.nuser_actuator),
            ("nuser_sensor", &mut s.nuser_sensor),
        ] {
            read1(e, name, dst, w)?;
            if *dst < -1 {
                return Err(e.error(format!("{name} must be >= -1")));
            }
        }
        Ok(())
    }

    /// `visual` (`mjXReader::Visual`).
    pub(super) fn visual(&mut self, section: &Elem) -> Result<(), XmlError> {
        let w = &mut self.w;
        let v = &mut self.spec.visual;
        for e in &section.children {
            match e.name.as_str() {
                "global" => {
                    let g = &mut v.global;
                    read1(e, "fovy", &mut g.fovy, w)?;
                    read1(e, "ipd", &mut g.ipd, w)?;
                    read1(e, "azimuth", &mut g.azimuth, w)?;
                    read1(e, "elevation", &mut g.elevation, w)?;
                    read1(e, "linewidth", &mut g.linewidth, w)?;
                    read1(e, "glow", &mut g.glow, w)?;
                    read1(e, "offwidth", &mut g.offwidth, w)?;
                    read1(e, "offheight", &mut g.offheight, w)?;
                    if read1(e, "realtime", &mut g.realtime, w)? && g.realtime <= 0.0 {
                        return Err(e.error("realtime must be greater than 0"));
                    }
                    if let Some(b) = keyword(e, "ellipsoidinertia", BOOL)? {
                        g.ellipsoidinertia = b;
                    }
                    if let Some(b) = keyword(e, "bvactive", BOOL)? {
                        g.bvactive = b;
                    }
                }
                "quality" => {
                    let q = &mut v.quality;
                    read1(e, "shadowsize", &mut q.shadowsize, w)?;
                    read1(e, "offsamples", &mut q.offsamples, w)?;
                    read1(e, "numslices", &mut q.numslices, w)?;
                    read1(e, "numstacks", &mut q.numstacks, w)?;
                    read1(e, "numquads", &mut q.numquads, w)?;
                }
                "headlight" => {
                    let h = &mut v.headlight;
                    read(e, "ambient", &mut h.ambient, w)?;
                    read(e, "diffuse", &mut h.diffuse, w)?;
                    read(e, "specular", &mut h.specular, w)?;
                    read1(e, "active", &mut h.active, w)?;
                }
                "map" => {
                    let m = &mut v.map;
                    read1(e, "stiffness", &mut m.stiffness, w)?;
                    read1(e, "stiffnessrot", &mut m.stiffnessrot, w)?;
                    read1(e, "force", &mut m.force, w)?;
                    read1(e, "torque", &mut m.torque, w)?;
                    read1(e, "alpha", &mut m.alpha, w)?;
                    read1(e, "fogstart", &mut m.fogstart, w)?;
                    read1(e, "fogend", &mut m.fogend, w)?;
                    read1(e, "znear", &mut m.znear, w)?;
                    if m.znear <= 0.0 {
                        return Err(e.error("znear must be strictly positive"));
                    }
                    read1(e, "zfar", &mut m.zfar, w)?;
                    read1(e, "haze", &mut m.haze, w)?;
                    read1(e, "shadowclip", &mut m.shadowclip, w)?;
                    read1(e, "shadowscale", &mut m.shadowscale, w)?;
                    read1(e, "actuatortendon", &mut m.actuatortendon, w)?;
                }
                "scale" => {
                    let s = &mut v.scale;
                    for (name, dst) in [
                        ("forcewidth", &mut s.forcewidth),
                        ("contactwidth", &mut s.contactwidth),
                        ("contactheight", &mut s.contactheight),
                        ("connect", &mut s.connect),
                        ("com", &mut s.com),
                        ("camera", &mut s.camera),
                        ("light", &mut s.light),
                        ("selectpoint", &mut s.selectpoint),
                        ("jointlength", &mut s.jointlength),
                        ("jointwidth", &mut s.jointwidth),
                        ("actuatorlength", &mut s.actuatorlength),
                        ("actuatorwidth", &mut s.actuatorwidth),
                        ("framelength", &mut s.framelength),
                        ("framewidth", &mut s.framewidth),
                        ("constraint", &mut s.constraint),
                        ("slidercrank", &mut s.slidercrank),
                        ("frustum", &mut s.frustum),
                    ] {
                        read1(e, name, dst, w)?;
                    }
                }
                "rgba" => {
                    let c = &mut v.rgba;
                    for (name, dst) in [
                        ("fog", &mut c.fog),
                        ("haze", &mut c.haze),
                        ("force", &mut c.force),
                        ("inertia", &mut c.inertia),
                        ("joint", &mut c.joint),
                        ("actuator", &mut c.actuator),
                        ("actuatornegative", &mut c.actuatornegative),
                        ("actuatorpositive", &mut c.actuatorpositive),
                        ("com", &mut c.com),
                        ("camera", &mut c.camera),
                        ("light", &mut c.light),
                        ("selectpoint", &mut c.selectpoint),
                        ("connect", &mut c.connect),
                        ("contactpoint", &mut c.contactpoint),
                        ("contactforce", &mut c.contactforce),
                        ("contactfriction", &mut c.contactfriction),
                        ("contacttorque", &mut c.contacttorque),
                        ("contactgap", &mut c.contactgap),
                        ("rangefinder", &mut c.rangefinder),
                        ("constraint", &mut c.constraint),
                        ("slidercrank", &mut c.slidercrank),
                        ("crankbroken", &mut c.crankbroken),
                        ("frustum", &mut c.frustum),
                        ("bv", &mut c.bv),
                        ("bvactive", &mut c.bvactive),
                    ] {
                        read(e, name, dst, w)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `statistic` (`mjXReader::Statistic`).
    pub(super) fn statistic(&mut self, e: &Elem) -> Result<(), XmlError> {
        let w = &mut self.w;
        let s = &mut self.spec.stat;
        read1(e, "meaninertia", &mut s.meaninertia, w)?;
        read1(e, "meanmass", &mut s.meanmass, w)?;
        read1(e, "meansize", &mut s.meansize, w)?;
        read1(e, "extent", &mut s.extent, w)?;
        if !s.extent.is_nan() && s.extent <= 0.0 {
            return Err(e.error("extent must be strictly positive"));
        }
        read(e, "center", &mut s.center, w)?;
        Ok(())
    }

    /// A `default` class and its nested classes (`mjXReader::Default`).
    pub(super) fn default(
        &mut self,
        section: &Elem,
        parent: Option<usize>,
    ) -> Result<(), XmlError> {
        let id = self.default_class(section, parent)?;
        self.default_elements(section, id)?;
        for e in section.children_named("default") {
            self.default(e, Some(id))?;
        }
        Ok(())
    }

    /// The class a `default` element declares: class 0 for the top one (named by its
    /// `class`, "main" if none), else a new class copied from its parent's. Not inlined, as
    /// [`Self::default_elements`].
    #[inline(never)]
    fn default_class(&mut self, section: &Elem, parent: Option<usize>) -> Result<usize, XmlError> {
        let mut name = text(section, "class").unwrap_or_default();
        let id = match parent {
            None => {
                if name.is_empty() {
                    name = "main".into();
                }
                self.rename_main_default(name);
                0
            }
            Some(p) => {
                if name.is_empty() {
                    return Err(section.error("empty class name"));
                }
                if self.find_default(&name).is_some() {
                    return Err(section.error("repeated default class name"));
                }
                let mut def = self.spec.defaults[p].clone();
                def.name = name;
                def.parent = Some(p);
                def.children.clear();
                let id = self.spec.defaults.len();
                self.default_index.entry(def.name.clone()).or_insert(id);
                self.spec.defaults[p].children.push(id);
                self.spec.defaults.push(def);
                id
            }
        };
        Ok(id)
    }

    /// Names class 0 (the top `default` element's `class`), which a lookup then finds first.
    fn rename_main_default(&mut self, name: String) {
        let old = std::mem::replace(&mut self.spec.defaults[0].name, name.clone());
        if self.default_index.get(&old) == Some(&0) {
            self.default_index.remove(&old);
        }
        self.default_index.insert(name, 0);
    }

    /// The element defaults a class sets. Not inlined: the class is large, and keeping it out
    /// of the frame of [`Self::default`], which recurses once per nesting level, lets classes
    /// nested as deep as the parser allows be read on a 2 MiB thread stack.
    #[inline(never)]
    fn default_elements(&mut self, section: &Elem, id: usize) -> Result<(), XmlError> {
        for e in &section.children {
            let mut d =
                std::mem::replace(&mut self.spec.defaults[id], DefaultClass::named("", None));
            let r = match e.name.as_str() {
                "mesh" => self.one_mesh(e, &mut d.mesh),
                "material" => self.one_material(e, &mut d.material),
                "joint" => self.one_joint(e, &mut d.joint),
                "geom" => self.one_geom(e, &mut d.geom),
                "site" => self.one_site(e, &mut d.site),
                "camera" => self.one_camera(e, &mut d.camera),
                "light" => self.one_light(e, &mut d.light),
                "pair" => self.one_pair(e, &mut d.pair),
                "equality" => self.one_equality(e, &mut d.equality),
                "tendon" => self.one_tendon(e, &mut d.tendon),
                "general" | "motor" | "position" | "velocity" | "damper" | "intvelocity"
                | "cylinder" | "muscle" | "adhesion" => self.one_actuator(e, &mut d.actuator),
                _ => Ok(()),
            };
            self.spec.defaults[id] = d;
            r?;
        }
        Ok(())
    }

    /// `custom` (`mjXReader::Custom`).
    pub(super) fn custom(&mut self, section: &Elem) -> Result<(), XmlError> {
        for e in &section.children {
            match e.name.as_str() {
                "numeric" => {
                    let name = text_required(e, "name")?;
                    let mut size = 501;
                    let given = read1(e, "size", &mut size, &mut self.w)?;
                    let mut data = [0.0f64; 501];
                    let cap = if given {
                        size.clamp(0, 501) as usize
                    } else {
                        501
                    };
                    let n = attr::read_into(e, "data", &mut data[..cap], false, &mut self.w)?;
                    if !given {
                        size = n as i32;
                    }
                    if !(1..=500).contains(&size) {
                        return Err(e.error("custom field size must be between 1 and 500"));
                    }
                    self.spec.numerics.push(Numeric {
                        name,
                        data: data[..size as usize].to_vec(),
                        size,
                        info: info(e),
                    });
                }
                "text" => {
                    let name = text_required(e, "name")?;
                    let data = text_required(e, "data")?;
                    if data.is_empty() {
                        return Err(e.error("text field cannot be empty"));
                    }
                    self.spec.texts.push(Text {
                        name,
                        data,
                        info: info(e),
                    });
                }
                "tuple" => {
                    let name = text_required(e, "name")?;
                    let mut t = Tuple {
                        name,
                        info: info(e),
                        ..Tuple::default()
                    };
                    for o in e.children_named("element") {
                        let ty = text_required(o, "objtype")?;
                        let objtype = str2type(&ty);
                        if objtype == OBJ_UNKNOWN {
                            return Err(o.error("unknown object type"));
                        }
                        t.objtype.push(objtype);
                        t.objname.push(text_required(o, "objname")?);
                        let mut prm = 0.0;
                        read1(o, "prm", &mut prm, &mut self.w)?;
                        t.objprm.push(prm);
                    }
                    self.spec.tuples.push(t);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `asset` (`mjXReader::Asset`).
    pub(super) fn asset(&mut self, section: &Elem) -> Result<(), XmlError> {
        for e in &section.children {
            let def = self.class(e)?.unwrap_or(0);
            match e.name.as_str() {
                "texture" => self.texture(e)?,
                "material" => {
                    let mut m = self.spec.defaults[def].material.clone();
                    m.classname = self.spec.defaults[def].name.clone();
                    self.one_material(e, &mut m)?;
                    self.spec.materials.push(m);
                }
                "mesh" => {
                    let mut m = self.spec.defaults[def].mesh.clone();
                    m.classname = self.spec.defaults[def].name.clone();
                    self.one_mesh(e, &mut m)?;
                    self.spec.meshes.push(m);
                }
                "skin" => {
                    let s = self.one_skin(e)?;
                    self.spec.skins.push(s);
                }
                "hfield" => self.hfield(e)?,
                _ => {}
            }
        }
        Ok(())
    }

    fn texture(&mut self, e: &Elem) -> Result<(), XmlError> {
        let dir = self.texture_dir();
        let file = self.file_attr(e, "file", &dir);
        let cubefiles = [
            "fileright",
            "fileleft",
            "fileup",
            "filedown",
            "filefront",
            "fileback",
        ]
        .map(|name| self.file_attr(e, name, &dir).unwrap_or_default());
        let w = &mut self.w;
        let mut t = Texture {
            cubefiles,
            info: info(e),
            ..Texture::default()
        };
        if let Some(v) = keyword(e, "type", kw::TEXTURE)? {
            t.ttype = v;
        }
        set_text(e, "name", &mut t.name);
        set_text(e, "content_type", &mut t.content_type);
        if let Some(f) = file {
            t.file = f;
        }
        read1(e, "width", &mut t.width, w)?;
        read1(e, "height", &mut t.height, w)?;
        read(e, "rgb1", &mut t.rgb1, w)?;
        read(e, "rgb2", &mut t.rgb2, w)?;
        read(e, "markrgb", &mut t.markrgb, w)?;
        read1(e, "random", &mut t.random, w)?;
        if let Some(v) = keyword(e, "builtin", kw::BUILTIN)? {
            t.builtin = v;
        }
        if let Some(v) = keyword(e, "mark", kw::MARK)? {
            t.mark = v;
        }
        set_bool(e, "hflip", &mut t.hflip)?;
        set_bool(e, "vflip", &mut t.vflip)?;
        read(e, "gridsize", &mut t.gridsize, w)?;
        if let Some(layout) = e.attr("gridlayout") {
            if layout.len() > 12 {
                return Err(e.error("gridlayout length cannot exceed 12 characters"));
            }
            if layout.len() as i64 != i64::from(t.gridsize[0]) * i64::from(t.gridsize[1]) {
                return Err(e.error("gridlayout length must match gridsize"));
            }
            t.gridlayout[..layout.len()].copy_from_slice(layout.as_bytes());
        }
        self.spec.textures.push(t);
        Ok(())
    }

    fn hfield(&mut self, e: &Elem) -> Result<(), XmlError> {
        let dir = self.asset_dir();
        let file = self.file_attr(e, "file", &dir);
        let w = &mut self.w;
        let mut h = HField {
            info: info(e),
            ..HField::default()
        };
        set_text(e, "name", &mut h.name);
        set_text(e, "content_type", &mut h.content_type);
        if let Some(f) = &file {
            h.file.clone_from(f);
        }
        read1(e, "nrow", &mut h.nrow, w)?;
        read1(e, "ncol", &mut h.ncol, w)?;
        attr::read_required(e, "size", &mut h.size, w)?;
        if file.is_none() && h.nrow > 0 && h.ncol > 0 {
            let (nrow, ncol) = (h.nrow as usize, h.ncol as usize);
            // the elevations are made (or checked) here: nrow*ncol must fit in memory first
            let what = format!("the elevation of hfield '{}' (nrow*ncol)", h.name);
            let n = limits::count(nrow, ncol, &what).map_err(|m| e.error(m))?;
            limits::check(n, size_of::<f32>(), &what).map_err(|m| e.error(m))?;
            match attr::values::<f32>(e, "elevation", w)? {
                Some(v) => {
                    if v.len() != n {
                        return Err(e.error("elevation data length must match nrow*ncol"));
                    }
                    // the XML lists rows top to bottom; MuJoCo stores them bottom to top
                    h.userdata = v.chunks(ncol).rev().flatten().copied().collect();
                }
                None => h.userdata = limits::filled(n, 0.0, &what).map_err(|m| e.error(m))?,
            }
        }
        self.spec.hfields.push(h);
        Ok(())
    }

    /// `contact` (`mjXReader::Contact`).
    pub(super) fn contact(&mut self, section: &Elem) -> Result<(), XmlError> {
        for e in &section.children {
            let def = self.class(e)?.unwrap_or(0);
            match e.name.as_str() {
                "pair" => {
                    let mut p = self.spec.defaults[def].pair.clone();
                    p.classname = self.spec.defaults[def].name.clone();
                    self.one_pair(e, &mut p)?;
                    self.spec.pairs.push(p);
                }
                "exclude" => {
                    let mut x = Exclude {
                        info: info(e),
                        ..Exclude::default()
                    };
                    set_text(e, "name", &mut x.name);
                    x.bodyname1 = text_required(e, "body1")?;
                    x.bodyname2 = text_required(e, "body2")?;
                    self.spec.excludes.push(x);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `equality` (`mjXReader::Equality`).
    pub(super) fn equality(&mut self, section: &Elem) -> Result<(), XmlError> {
        for e in &section.children {
            let def = self.class(e)?.unwrap_or(0);
            let mut q = self.spec.defaults[def].equality.clone();
            q.classname = self.spec.defaults[def].name.clone();
            self.one_equality(e, &mut q)?;
            self.spec.equalities.push(q);
        }
        Ok(())
    }

    /// `tendon` (`mjXReader::Tendon`).
    pub(super) fn tendon(&mut self, section: &Elem) -> Result<(), XmlError> {
        for e in &section.children {
            let def = self.class(e)?.unwrap_or(0);
            let mut t = self.spec.defaults[def].tendon.clone();
            t.classname = self.spec.defaults[def].name.clone();
            self.one_tendon(e, &mut t)?;
            t.spatial = e.name == "spatial";
            for sub in &e.children {
                let inf = info(sub);
                let wrap = match sub.name.as_str() {
                    "site" => Wrap::Site {
                        name: text_required(sub, "site")?,
                        info: inf,
                    },
                    "geom" => Wrap::Geom {
                        name: text_required(sub, "geom")?,
                        sidesite: text(sub, "sidesite").unwrap_or_default(),
                        info: inf,
                    },
                    "pulley" => {
                        let mut divisor = 0.0;
                        attr::read_required(
                            sub,
                            "divisor",
                            core::slice::from_mut(&mut divisor),
                            &mut self.w,
                        )?;
                        Wrap::Pulley { divisor, info: inf }
                    }
                    "joint" => {
                        let name = text_required(sub, "joint")?;
                        let mut coef = 0.0;
                        attr::read_required(
                            sub,
                            "coef",
                            core::slice::from_mut(&mut coef),
                            &mut self.w,
                        )?;
                        Wrap::Joint {
                            name,
                            coef,
                            info: inf,
                        }
                    }
                    _ => return Err(sub.error("unknown wrap type")),
                };
                t.path.push(wrap);
            }
            self.spec.tendons.push(t);
        }
        Ok(())
    }

    /// `keyframe` (`mjXReader::Keyframe`).
    pub(super) fn keyframe(&mut self, section: &Elem) -> Result<(), XmlError> {
        for e in &section.children {
            let mut k = Key {
                info: info(e),
                ..Key::default()
            };
            set_text(e, "name", &mut k.name);
            read1(e, "time", &mut k.time, &mut self.w)?;
            for (name, dst) in [
                ("qpos", &mut k.qpos),
                ("qvel", &mut k.qvel),
                ("act", &mut k.act),
                ("mpos", &mut k.mpos),
                ("mquat", &mut k.mquat),
                ("ctrl", &mut k.ctrl),
            ] {
                let mut buf = [0.0f64; 1000];
                let n = attr::read_into(e, name, &mut buf, false, &mut self.w)?;
                *dst = buf[..n].to_vec();
            }
            self.spec.keys.push(k);
        }
        Ok(())
    }
}

/// `FindSubElem`: the unique child named `name`, if any.
pub(super) fn find_sub<'e>(e: &'e Elem, name: &'e str) -> Result<Option<&'e Elem>, XmlError> {
    let mut found: Option<&Elem> = None;
    for c in e.children_named(name) {
        if let Some(first) = found {
            // MuJoCo names the first of the repeated elements
            return Err(first.error(format!("repeated element: '{name}'")));
        }
        found = Some(c);
    }
    Ok(found)
}

/// The `size/memory` attribute: an unsigned integer with an optional K/M/G/T/P/E suffix.
fn memory(e: &Elem) -> Result<Option<i64>, XmlError> {
    const MSG: &str = "unsigned integer with an optional suffix {K,M,G,T,P,E} is expected in \
                       attribute 'memory' (or the size specified is too big)";
    let Some(t) = e.attr("memory") else {
        return Ok(None);
    };
    let mut words = t.split_ascii_whitespace();
    let (Some(word), None) = (words.next(), words.next()) else {
        return Err(e.error(MSG));
    };
    if word == "-1" {
        return Ok(None);
    }
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(e.error(MSG));
    }
    let base: u64 = word[..digits].parse().map_err(|_| e.error(MSG))?;
    let shift = match &word[digits..] {
        "" => 0,
        "K" | "k" => 10,
        "M" | "m" => 20,
        "G" | "g" => 30,
        "T" | "t" => 40,
        "P" | "p" => 50,
        "E" | "e" => 60,
        _ => return Err(e.error(MSG)),
    };
    if base > (u64::MAX << shift) >> shift {
        return Err(e.error(MSG));
    }
    i64::try_from(base << shift)
        .map(Some)
        .map_err(|_| e.error(MSG))
}

/// `mju_str2Type`: an object type by its name.
pub(crate) fn str2type(name: &str) -> i32 {
    match name {
        "body" => OBJ_BODY,
        "xbody" => OBJ_XBODY,
        "joint" => OBJ_JOINT,
        "dof" => OBJ_DOF,
        "geom" => OBJ_GEOM,
        "site" => OBJ_SITE,
        "camera" => OBJ_CAMERA,
        "light" => OBJ_LIGHT,
        "flex" => OBJ_FLEX,
        "mesh" => OBJ_MESH,
        "skin" => OBJ_SKIN,
        "hfield" => OBJ_HFIELD,
        "texture" => OBJ_TEXTURE,
        "material" => OBJ_MATERIAL,
        "pair" => OBJ_PAIR,
        "exclude" => OBJ_EXCLUDE,
        "equality" => OBJ_EQUALITY,
        "tendon" => OBJ_TENDON,
        "actuator" => OBJ_ACTUATOR,
        "sensor" => OBJ_SENSOR,
        "numeric" => OBJ_NUMERIC,
        "text" => OBJ_TEXT,
        "tuple" => OBJ_TUPLE,
        "key" => OBJ_KEY,
        "plugin" => OBJ_PLUGIN,
        _ => OBJ_UNKNOWN,
    }
}
