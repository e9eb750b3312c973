//! The `composite` element (`mjXReader::OneComposite`): its attributes and children, read
//! into a [`Composite`] that then adds its elements to the specification.

use super::attr::{self, read, read1, read_upto, set_text, text_required};
use super::dom::Elem;
use super::Reader;
use crate::composite::{
    Composite, Parent, SkinOptions, COMP_TYPES, JOINT_KINDS, SHAPES, TENDON_KINDS,
};
use crate::error::XmlError;
use crate::keywords as kw;
use crate::spec::NGROUP;

/// The keyword of a required attribute (`MapValue` with `required`).
fn required_keyword(e: &Elem, name: &str, map: &[(&str, i32)]) -> Result<i32, XmlError> {
    text_required(e, name)?;
    Ok(attr::keyword(e, name, map)?.expect("present"))
}

/// The `curve` attribute parsed as MuJoCo's stream loop does: up to three keywords, an unknown
/// one marked -1; without the attribute, or with trailing white space, the loop reads its
/// previous word again (`fallback` is the text MuJoCo's variable held before: the `vertex`
/// attribute, or nothing).
fn curve(e: &Elem, fallback: &str, out: &mut [i32; 3]) -> Result<(), XmlError> {
    let curves = e.attr("curve").unwrap_or_default();
    let find = |t: &str| SHAPES.iter().find(|(k, _)| *k == t).map_or(-1, |&(_, v)| v);
    let mut word = fallback;
    let mut rest = curves;
    let mut i = 0;
    loop {
        let trimmed = rest.trim_start_matches(|c: char| c.is_ascii_whitespace());
        let eof = if trimmed.is_empty() {
            true
        } else {
            let end = trimmed
                .find(|c: char| c.is_ascii_whitespace())
                .unwrap_or(trimmed.len());
            word = &trimmed[..end];
            rest = &trimmed[end..];
            rest.is_empty()
        };
        if i > 2 {
            return Err(e.error("The curve array must have a maximum of 3 components"));
        }
        out[i] = find(word);
        i += 1;
        if eof {
            return Ok(());
        }
    }
}

impl Reader<'_> {
    /// `OneComposite`: reads `e` and makes the composite inside `body`.
    pub(super) fn composite(&mut self, e: &Elem, body: usize) -> Result<(), XmlError> {
        let ctype = required_keyword(e, "type", &comp_keywords())?;
        let mut c = Composite::new(COMP_TYPES[ctype as usize].1);
        set_text(e, "prefix", &mut c.prefix);
        let w = &mut self.w;
        attr::read_into(e, "count", &mut c.count, false, w)?;
        read1(e, "spacing", &mut c.spacing, w)?;
        read(e, "offset", &mut c.offset, w)?;
        let mut flatinertia = 0.0;
        read1(e, "flatinertia", &mut flatinertia, w)?;
        if let Some(p) = e.children_named("plugin").next() {
            c.plugin = Some(self.one_plugin(p)?);
        }
        let w = &mut self.w;
        set_text(e, "initial", &mut c.initial);
        read_upto(e, "size", &mut c.size, w)?;
        let vertex = e.attr("vertex");
        if let Some(v) = vertex {
            c.uservert = attr::string_to_vec(v);
        }
        set_text(e, "face", &mut c.userface);
        curve(e, vertex.unwrap_or_default(), &mut c.curve)?;
        if let Some(s) = e.children_named("skin").next() {
            c.skin = Some(self.composite_skin(s)?);
        }
        c.set_default();
        let w = &mut self.w;
        read_upto(e, "solrefsmooth", &mut c.solrefsmooth, w)?;
        read_upto(e, "solimpsmooth", &mut c.solimpsmooth, w)?;
        if let Some(g) = e.children_named("geom").next() {
            self.composite_geom(g, &mut c)?;
        }
        if let Some(s) = e.children_named("site").next() {
            let w = &mut self.w;
            let site = &mut c.def[0].site;
            read_upto(s, "size", &mut site.size, w)?;
            read1(s, "group", &mut site.group, w)?;
            set_text(s, "material", &mut site.material);
            read(s, "rgba", &mut site.rgba, w)?;
        }
        for j in e.children_named("joint") {
            self.composite_joint(e, j, &mut c)?;
        }
        for t in e.children_named("tendon") {
            self.composite_tendon(t, &mut c)?;
        }
        for p in e.children_named("pin") {
            let mut coord = [0i32; 2];
            if p.attr("coord").is_none() {
                return Err(attr::missing(p, "coord"));
            }
            attr::read_into(p, "coord", &mut coord, false, &mut self.w)?;
            c.pin.extend(coord);
        }
        let at = Parent {
            body,
            default: self.spec.bodies[body].default,
        };
        let mut warnings = Vec::new();
        let made = c.make(&mut self.spec, at, &mut warnings);
        for t in &warnings {
            self.w.warn(t);
        }
        made.map_err(|m| e.error(m))
    }

    fn composite_skin(&mut self, s: &Elem) -> Result<SkinOptions, XmlError> {
        let mut o = SkinOptions::default();
        if let Some(b) = attr::boolean(s, "texcoord")? {
            o.texcoord = b;
        }
        set_text(s, "material", &mut o.material);
        let w = &mut self.w;
        read(s, "rgba", &mut o.rgba, w)?;
        read1(s, "inflate", &mut o.inflate, w)?;
        read1(s, "subgrid", &mut o.subgrid, w)?;
        read1(s, "group", &mut o.group, w)?;
        if !(0..NGROUP as i32).contains(&o.group) {
            return Err(s.error("skin group must be between 0 and 5"));
        }
        Ok(o)
    }

    fn composite_geom(&mut self, e: &Elem, c: &mut Composite) -> Result<(), XmlError> {
        let w = &mut self.w;
        let g = &mut c.def[0].geom;
        if let Some(t) = attr::keyword(e, "type", kw::GEOM)? {
            g.gtype = t;
        }
        super::body::geom_contact(e, g, w)?;
        set_text(e, "material", &mut g.material);
        read(e, "rgba", &mut g.rgba, w)?;
        read1(e, "mass", &mut g.mass, w)?;
        read1(e, "density", &mut g.density, w)?;
        Ok(())
    }

    /// A `joint` child. Its `solreffix` and `solimpfix` are read into the joint's own
    /// defaults, which MuJoCo 3.1.6 never uses (the fix constraints take the kind's
    /// defaults), and its `limited` is not read (MuJoCo reads it from the composite).
    fn composite_joint(&mut self, ce: &Elem, e: &Elem, c: &mut Composite) -> Result<(), XmlError> {
        let k = required_keyword(e, "kind", JOINT_KINDS)? as usize;
        if c.add[k] {
            c.add_default_joint().map_err(|m| ce.error(m))?;
        }
        c.add[k] = true;
        let j = c.defjoint[k].last_mut().expect("set_default made one");
        let w = &mut self.w;
        if let Some(t) = attr::keyword(e, "type", kw::JOINT)? {
            j.jtype = t;
        }
        read(e, "axis", &mut j.axis, w)?;
        let mut unused = crate::spec::Equality::default();
        read_upto(e, "solreffix", &mut unused.solref, w)?;
        read_upto(e, "solimpfix", &mut unused.solimp, w)?;
        read1(e, "group", &mut j.group, w)?;
        read_upto(e, "solreflimit", &mut j.solref_limit, w)?;
        read_upto(e, "solimplimit", &mut j.solimp_limit, w)?;
        read_upto(e, "solreffriction", &mut j.solref_friction, w)?;
        read_upto(e, "solimpfriction", &mut j.solimp_friction, w)?;
        read1(e, "stiffness", &mut j.stiffness, w)?;
        read(e, "range", &mut j.range, w)?;
        read1(e, "margin", &mut j.margin, w)?;
        read1(e, "armature", &mut j.armature, w)?;
        read1(e, "damping", &mut j.damping, w)?;
        read1(e, "frictionloss", &mut j.frictionloss, w)?;
        Ok(())
    }

    /// A `tendon` child (its `limited`, as the joint's, is not read).
    fn composite_tendon(&mut self, e: &Elem, c: &mut Composite) -> Result<(), XmlError> {
        let k = required_keyword(e, "kind", TENDON_KINDS)? as usize;
        c.add[k] = true;
        let d = &mut c.def[k];
        let w = &mut self.w;
        read_upto(e, "solreffix", &mut d.equality.solref, w)?;
        read_upto(e, "solimpfix", &mut d.equality.solimp, w)?;
        let t = &mut d.tendon;
        read1(e, "group", &mut t.group, w)?;
        read_upto(e, "solreflimit", &mut t.solref_limit, w)?;
        read_upto(e, "solimplimit", &mut t.solimp_limit, w)?;
        read_upto(e, "solreffriction", &mut t.solref_friction, w)?;
        read_upto(e, "solimpfriction", &mut t.solimp_friction, w)?;
        read(e, "range", &mut t.range, w)?;
        read1(e, "margin", &mut t.margin, w)?;
        read1(e, "stiffness", &mut t.stiffness, w)?;
        read1(e, "damping", &mut t.damping, w)?;
        read1(e, "frictionloss", &mut t.frictionloss, w)?;
        set_text(e, "material", &mut t.material);
        read(e, "rgba", &mut t.rgba, w)?;
        read1(e, "width", &mut t.width, w)?;
        Ok(())
    }
}

/// The composite type keywords with their index in [`COMP_TYPES`].
fn comp_keywords() -> Vec<(&'static str, i32)> {
    COMP_TYPES
        .iter()
        .enumerate()
        .map(|(i, &(k, _))| (k, i as i32))
        .collect()
}
