//! Sensors (`mjXReader::Sensor`): each element fixes the sensor type and the kind of object it
//! is attached to.

use mjrs_core::types::*;

use super::attr::{self, keyword, read1, text, text_required};
use super::dom::Elem;
use super::sections::str2type;
use super::{info, Reader};
use crate::error::XmlError;
use crate::keywords as kw;
use crate::spec::Sensor;

impl Reader<'_> {
    /// `sensor` section.
    pub(super) fn sensor(&mut self, section: &Elem) -> Result<(), XmlError> {
        for e in &section.children {
            let s = self.one_sensor(e)?;
            self.spec.sensors.push(s);
        }
        Ok(())
    }

    fn one_sensor(&mut self, e: &Elem) -> Result<Sensor, XmlError> {
        let mut s = Sensor {
            info: info(e),
            ..Sensor::default()
        };
        if let Some(n) = text(e, "name") {
            s.name = n;
        }
        let w = &mut self.w;
        read1(e, "cutoff", &mut s.cutoff, w)?;
        read1(e, "noise", &mut s.noise, w)?;
        if let Some(v) = attr::values(e, "user", w)? {
            s.userdata = v;
        }
        let ty = e.name.as_str();
        if let Some(&(_, st, ot, a)) = kw::SIMPLE_SENSORS.iter().find(|r| r.0 == ty) {
            s.stype = st;
            s.objtype = ot;
            s.objname = text_required(e, a)?;
        } else if let Some(&(_, st, with_ref)) = kw::FRAME_SENSORS.iter().find(|r| r.0 == ty) {
            s.stype = st;
            s.objtype = str2type(&text_required(e, "objtype")?);
            s.objname = text_required(e, "objname")?;
            if with_ref {
                if let Some(rt) = text(e, "reftype") {
                    s.reftype = str2type(&rt);
                    s.refname = text_required(e, "refname")?;
                } else if let Some(rn) = text(e, "refname") {
                    return Err(e.error(format!("refname '{rn}' given but reftype is missing")));
                }
            }
        } else {
            match ty {
                "camprojection" => {
                    s.stype = SENS_CAMPROJECTION;
                    s.objtype = OBJ_SITE;
                    s.objname = text_required(e, "site")?;
                    s.refname = text_required(e, "camera")?;
                    s.reftype = OBJ_CAMERA;
                }
                "distance" | "normal" | "fromto" => self.distance_sensor(e, &mut s)?,
                "clock" => {
                    s.stype = SENS_CLOCK;
                    s.objtype = OBJ_UNKNOWN;
                }
                "user" => {
                    s.stype = SENS_USER;
                    let objname = text(e, "objname");
                    if let Some(ot) = text(e, "objtype") {
                        if objname.is_none() {
                            return Err(
                                e.error(format!("objtype '{ot}' given but objname is missing"))
                            );
                        }
                        s.objtype = str2type(&ot);
                    } else if let Some(on) = &objname {
                        return Err(e.error(format!("objname '{on}' given but objtype is missing")));
                    }
                    s.objname = objname.unwrap_or_default();
                    if e.attr("dim").is_none() {
                        return Err(attr::missing(e, "dim"));
                    }
                    read1(e, "dim", &mut s.dim, &mut self.w)?;
                    if let Some(v) = keyword(e, "needstage", kw::STAGE)? {
                        s.needstage = v;
                    }
                    if let Some(v) = keyword(e, "datatype", kw::DATATYPE)? {
                        s.datatype = v;
                    }
                }
                "plugin" => self.plugin_sensor(e, &mut s)?,
                _ => {}
            }
        }
        Ok(s)
    }

    /// `plugin`: values computed by a plugin instance, optionally about an object and relative
    /// to a reference object.
    fn plugin_sensor(&mut self, e: &Elem, s: &mut Sensor) -> Result<(), XmlError> {
        s.stype = SENS_PLUGIN;
        s.plugin = Some(self.one_plugin(e)?);
        s.objtype = str2type(e.attr("objtype").unwrap_or_default());
        s.objname = text(e, "objname").unwrap_or_default();
        if s.objtype != OBJ_UNKNOWN && s.objname.is_empty() {
            return Err(e.error("objtype is specified but objname is not"));
        }
        if s.objtype == OBJ_UNKNOWN && !s.objname.is_empty() {
            return Err(e.error("objname is specified but objtype is not"));
        }
        if let Some(rt) = e.attr("reftype") {
            s.reftype = str2type(rt);
        }
        s.refname = text(e, "refname").unwrap_or_default();
        if s.reftype != OBJ_UNKNOWN && s.refname.is_empty() {
            return Err(e.error("reftype is specified but refname is not"));
        }
        if s.reftype == OBJ_UNKNOWN && !s.refname.is_empty() {
            return Err(e.error("refname is specified but reftype is not"));
        }
        Ok(())
    }

    /// `distance`, `normal` and `fromto`: between two geoms or bodies.
    fn distance_sensor(&mut self, e: &Elem, s: &mut Sensor) -> Result<(), XmlError> {
        let (b1, g1) = (text(e, "body1"), text(e, "geom1"));
        if b1.is_some() == g1.is_some() {
            return Err(e.error("exactly one of (geom1, body1) must be specified"));
        }
        s.objtype = if b1.is_some() { OBJ_BODY } else { OBJ_GEOM };
        s.objname = g1.or(b1).unwrap_or_default();
        let (b2, g2) = (text(e, "body2"), text(e, "geom2"));
        if b2.is_some() == g2.is_some() {
            return Err(e.error("exactly one of (geom2, body2) must be specified"));
        }
        s.reftype = if b2.is_some() { OBJ_BODY } else { OBJ_GEOM };
        s.refname = g2.or(b2).unwrap_or_default();
        s.stype = match e.name.as_str() {
            "distance" => SENS_GEOMDIST,
            "normal" => SENS_GEOMNORMAL,
            _ => SENS_GEOMFROMTO,
        };
        Ok(())
    }
}
