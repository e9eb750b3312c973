//! Flexes in MJCF: the `deformable` section (`mjXReader::Deformable`, `OneFlex`) and the
//! attributes of `flexcomp` (`OneFlexcomp`); the flexcomp itself is made in [`super::flexcomp`].

use super::attr::{self, keyword, read, read1, read_upto, set_bool, set_text, Warnings};
use super::dom::Elem;
use super::flexcomp::Flexcomp;
use super::{info, Reader};
use crate::error::XmlError;
use crate::spec::Flex;

/// `fcomp_map`: the flexcomp types, in `mjtFcompType` order.
pub(super) const FCOMP_TYPES: &[(&str, i32)] = &[
    ("grid", 0),
    ("box", 1),
    ("cylinder", 2),
    ("ellipsoid", 3),
    ("square", 4),
    ("disc", 5),
    ("mesh", 6),
    ("gmsh", 7),
    ("direct", 8),
];

/// `flexself_map`.
pub(crate) const FLEXSELF: &[(&str, i32)] = &[
    ("none", 0),
    ("narrow", 1),
    ("bvh", 2),
    ("sap", 3),
    ("auto", 4),
];

/// The `contact` child of a flex or flexcomp.
fn contact(e: &Elem, f: &mut Flex, w: &mut Warnings) -> Result<(), XmlError> {
    let Some(c) = e.children_named("contact").next() else {
        return Ok(());
    };
    read1(c, "contype", &mut f.contype, w)?;
    read1(c, "conaffinity", &mut f.conaffinity, w)?;
    read1(c, "condim", &mut f.condim, w)?;
    read1(c, "priority", &mut f.priority, w)?;
    read_upto(c, "friction", &mut f.friction, w)?;
    read1(c, "solmix", &mut f.solmix, w)?;
    read_upto(c, "solref", &mut f.solref, w)?;
    read_upto(c, "solimp", &mut f.solimp, w)?;
    read1(c, "margin", &mut f.margin, w)?;
    read1(c, "gap", &mut f.gap, w)?;
    set_bool(c, "internal", &mut f.internal)?;
    if let Some(v) = keyword(c, "selfcollide", FLEXSELF)? {
        f.selfcollide = v;
    }
    read1(c, "activelayers", &mut f.activelayers, w)?;
    Ok(())
}

/// The attributes a flex and a flexcomp share.
fn common(e: &Elem, f: &mut Flex, w: &mut Warnings) -> Result<(), XmlError> {
    set_text(e, "material", &mut f.material);
    read(e, "rgba", &mut f.rgba, w)?;
    set_bool(e, "flatskin", &mut f.flatskin)?;
    read1(e, "dim", &mut f.dim, w)?;
    read1(e, "radius", &mut f.radius, w)?;
    read1(e, "group", &mut f.group, w)?;
    Ok(())
}

impl Reader<'_> {
    /// `deformable` (`mjXReader::Deformable`): flexes and skins, in document order.
    pub(super) fn deformable(&mut self, section: &Elem) -> Result<(), XmlError> {
        for e in &section.children {
            match e.name.as_str() {
                "flex" => {
                    let f = self.one_flex(e)?;
                    self.spec.flexes.push(f);
                }
                "skin" => {
                    let s = self.one_skin(e)?;
                    self.spec.skins.push(s);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `OneFlex`.
    fn one_flex(&mut self, e: &Elem) -> Result<Flex, XmlError> {
        let w = &mut self.w;
        let mut f = Flex::default();
        set_text(e, "name", &mut f.name);
        common(e, &mut f, w)?;
        let body = attr::text_required(e, "body")?;
        f.vertbody = body.split_ascii_whitespace().map(str::to_string).collect();
        if let Some(t) = e.attr("vertex") {
            f.vert = attr::string_to_vec(t);
        }
        f.elem = attr::string_to_vec(&attr::text_required(e, "element")?);
        if let Some(t) = e.attr("texcoord") {
            f.texcoord = attr::string_to_vec(t);
        }
        contact(e, &mut f, w)?;
        if let Some(edge) = e.children_named("edge").next() {
            read1(edge, "stiffness", &mut f.edgestiffness, w)?;
            read1(edge, "damping", &mut f.edgedamping, w)?;
        }
        f.info = info(e);
        Ok(f)
    }

    /// `OneFlexcomp`: reads the flexcomp `e` of `body` and makes its flex, bodies and
    /// equality.
    pub(super) fn flexcomp(&mut self, e: &Elem, body: usize) -> Result<(), XmlError> {
        let mut fc = Flexcomp::default();
        let w = &mut self.w;
        fc.name = attr::text_required(e, "name")?;
        if let Some(t) = keyword(e, "type", FCOMP_TYPES)? {
            fc.ftype = t;
        }
        read(e, "count", &mut fc.count, w)?;
        read(e, "spacing", &mut fc.spacing, w)?;
        read(e, "scale", &mut fc.scale, w)?;
        read1(e, "mass", &mut fc.mass, w)?;
        read1(e, "inertiabox", &mut fc.inertiabox, w)?;
        common(e, &mut fc.flex, w)?;
        read(e, "pos", &mut fc.pos, w)?;
        read(e, "quat", &mut fc.quat, w)?;
        super::body::read_alternative(e, &mut fc.alt, w)?;
        set_bool(e, "rigid", &mut fc.rigid)?;
        if let Some(t) = e.attr("point") {
            fc.point = attr::string_to_vec(t);
        }
        if let Some(t) = e.attr("element") {
            fc.element = attr::string_to_vec(t);
        }
        if let Some(t) = e.attr("texcoord") {
            fc.texcoord = attr::string_to_vec(t);
        }
        if let Some(edge) = e.children_named("edge").next() {
            set_bool(edge, "equality", &mut fc.equality)?;
            read_upto(edge, "solref", &mut fc.eq_solref, w)?;
            read_upto(edge, "solimp", &mut fc.eq_solimp, w)?;
            read1(edge, "stiffness", &mut fc.flex.edgestiffness, w)?;
            read1(edge, "damping", &mut fc.flex.edgedamping, w)?;
        }
        contact(e, &mut fc.flex, w)?;
        for p in e.children_named("pin") {
            let ints = |name: &str| p.attr(name).map(attr::string_to_vec::<i32>);
            fc.pinid.extend(ints("id").unwrap_or_default());
            fc.pinrange.extend(ints("range").unwrap_or_default());
            fc.pingrid.extend(ints("grid").unwrap_or_default());
            fc.pingridrange
                .extend(ints("gridrange").unwrap_or_default());
        }
        if let Some(p) = e.children_named("plugin").next() {
            fc.plugin = Some(self.one_plugin(p)?);
        }
        let dir = self.spec.modelfiledir.clone();
        fc.file = self.file_attr(e, "file", &dir).unwrap_or_default();
        fc.flex.info = info(e);
        self.make_flexcomp(fc, body).map_err(|m| e.error(m))
    }
}
