//! Actuators and their shortcuts (`mjXReader::OneActuator`, `Actuator`): `general` sets every
//! parameter explicitly; `motor`, `position`, `velocity`, `intvelocity`, `damper`, `cylinder`,
//! `muscle` and `adhesion` set the dynamics, gain and bias types and parameters they imply.

use mjrs_core::types::*;

use super::attr::{self, keyword, read, read1, read_upto, set_bool, set_text};
use super::dom::Elem;
use super::sections::limited;
use super::{info, Reader};
use crate::error::XmlError;
use crate::keywords as kw;
use crate::spec::*;

impl Reader<'_> {
    /// `actuator` section.
    pub(super) fn actuator(&mut self, section: &Elem) -> Result<(), XmlError> {
        for e in &section.children {
            let def = self.class(e)?.unwrap_or(0);
            let mut a = self.spec.defaults[def].actuator.clone();
            a.classname = self.spec.defaults[def].name.clone();
            self.one_actuator(e, &mut a)?;
            self.spec.actuators.push(a);
        }
        Ok(())
    }

    /// `OneActuator`: common attributes, transmission, then the shortcut's semantics.
    pub(super) fn one_actuator(&mut self, e: &Elem, a: &mut Actuator) -> Result<(), XmlError> {
        let w = &mut self.w;
        set_text(e, "name", &mut a.name);
        set_text(e, "class", &mut a.classname);
        read1(e, "group", &mut a.group, w)?;
        limited(e, "ctrllimited", &mut a.ctrllimited)?;
        limited(e, "forcelimited", &mut a.forcelimited)?;
        limited(e, "actlimited", &mut a.actlimited)?;
        read(e, "ctrlrange", &mut a.ctrlrange, w)?;
        read(e, "forcerange", &mut a.forcerange, w)?;
        read(e, "actrange", &mut a.actrange, w)?;
        read(e, "lengthrange", &mut a.lengthrange, w)?;
        read_upto(e, "gear", &mut a.gear, w)?;

        let mut count = 0;
        for (name, trn) in [
            ("joint", TRN_JOINT),
            ("jointinparent", TRN_JOINTINPARENT),
            ("tendon", TRN_TENDON),
            ("cranksite", TRN_SLIDERCRANK),
            ("site", TRN_SITE),
            ("body", TRN_BODY),
        ] {
            if let Some(t) = e.attr(name) {
                a.target = t.to_string();
                a.trntype = trn;
                count += 1;
            }
        }
        if count > 1 {
            return Err(e.error("actuator can have at most one of transmission target"));
        }
        let r1 = read1(e, "cranklength", &mut a.cranklength, w)?;
        let r2 = e.attr("slidersite").is_some();
        set_text(e, "slidersite", &mut a.slidersite);
        if (r1 || r2) && a.trntype != TRN_SLIDERCRANK && a.trntype != TRN_UNDEFINED {
            return Err(
                e.error("cranklength and slidersite can only be used in slidercrank transmission")
            );
        }
        let r3 = e.attr("refsite").is_some();
        set_text(e, "refsite", &mut a.refsite);
        if r3 && a.trntype != TRN_SITE && a.trntype != TRN_UNDEFINED {
            return Err(e.error("refsite can only be used with site transmission"));
        }

        a.kind = e.name.clone();
        match e.name.as_str() {
            "general" => self.general(e, a)?,
            "motor" => {
                a.gainprm[0] = 1.0;
                a.dyntype = DYN_NONE;
                a.gaintype = GAIN_FIXED;
                a.biastype = BIAS_NONE;
            }
            "position" | "intvelocity" => self.servo(e, a)?,
            "velocity" => {
                a.biasprm = [0.0; NBIAS];
                read1(e, "kv", &mut a.gainprm[0], &mut self.w)?;
                a.biasprm[2] = -a.gainprm[0];
                a.dyntype = DYN_NONE;
                a.gaintype = GAIN_FIXED;
                a.biastype = BIAS_AFFINE;
            }
            "damper" => {
                a.gainprm = [0.0; NGAIN];
                read1(e, "kv", &mut a.gainprm[2], &mut self.w)?;
                if a.gainprm[2] < 0.0 {
                    return Err(e.error("damping coefficient cannot be negative"));
                }
                a.gainprm[2] = -a.gainprm[2];
                if a.ctrlrange[0] < 0.0 || a.ctrlrange[1] < 0.0 {
                    return Err(e.error("damper control range cannot be negative"));
                }
                a.ctrllimited = Limited::True;
                a.dyntype = DYN_NONE;
                a.gaintype = GAIN_AFFINE;
                a.biastype = BIAS_NONE;
            }
            "cylinder" => {
                let w = &mut self.w;
                read1(e, "timeconst", &mut a.dynprm[0], w)?;
                read(e, "bias", &mut a.biasprm[..3], w)?;
                read1(e, "area", &mut a.gainprm[0], w)?;
                let mut diameter = 0.0;
                if read1(e, "diameter", &mut diameter, w)? {
                    a.gainprm[0] = std::f64::consts::PI / 4.0 * diameter * diameter;
                }
                a.dyntype = DYN_FILTER;
                a.gaintype = GAIN_FIXED;
                a.biastype = BIAS_AFFINE;
            }
            "muscle" => self.muscle(e, a)?,
            "adhesion" => {
                let w = &mut self.w;
                read1(e, "gain", &mut a.gainprm[0], w)?;
                if a.gainprm[0] < 0.0 {
                    return Err(e.error("adhesion gain cannot be negative"));
                }
                read(e, "ctrlrange", &mut a.ctrlrange, w)?;
                if a.ctrlrange[0] < 0.0 || a.ctrlrange[1] < 0.0 {
                    return Err(e.error("adhesion control range cannot be negative"));
                }
                a.ctrllimited = Limited::True;
                a.gaintype = GAIN_FIXED;
                a.biastype = BIAS_NONE;
            }
            "plugin" => self.plugin_actuator(e, a)?,
            other => return Err(e.error(format!("unrecognized actuator type: {other}"))),
        }
        if let Some(v) = attr::values(e, "user", &mut self.w)? {
            a.userdata = v;
        }
        a.info = info(e);
        Ok(())
    }

    /// `plugin`: forces from a plugin instance, with optional built-in activation dynamics.
    fn plugin_actuator(&mut self, e: &Elem, a: &mut Actuator) -> Result<(), XmlError> {
        a.plugin = Some(self.one_plugin(e)?);
        if let Some(v) = keyword(e, "dyntype", kw::DYN)? {
            a.dyntype = v;
        }
        set_bool(e, "actearly", &mut a.actearly)?;
        read_upto(e, "dynprm", &mut a.dynprm, &mut self.w)?;
        Ok(())
    }

    fn general(&mut self, e: &Elem, a: &mut Actuator) -> Result<(), XmlError> {
        if let Some(v) = keyword(e, "dyntype", kw::DYN)? {
            a.dyntype = v;
        }
        if let Some(v) = keyword(e, "gaintype", kw::GAIN)? {
            a.gaintype = v;
        }
        if let Some(v) = keyword(e, "biastype", kw::BIAS)? {
            a.biastype = v;
        }
        set_bool(e, "actearly", &mut a.actearly)?;
        let w = &mut self.w;
        read_upto(e, "dynprm", &mut a.dynprm, w)?;
        read_upto(e, "gainprm", &mut a.gainprm, w)?;
        read_upto(e, "biasprm", &mut a.biasprm, w)?;
        read1(e, "actdim", &mut a.actdim, w)?;
        Ok(())
    }

    /// `position` and `intvelocity`: a proportional servo with optional damping (`kv`, or
    /// `dampratio` stored positive in `biasprm[2]`) and optional first-order filter.
    fn servo(&mut self, e: &Elem, a: &mut Actuator) -> Result<(), XmlError> {
        let w = &mut self.w;
        read1(e, "kp", &mut a.gainprm[0], w)?;
        a.biasprm[1] = -a.gainprm[0];
        let mut kv = -1.0;
        if read1(e, "kv", &mut kv, w)? && kv < 0.0 {
            return Err(e.error("kv cannot be negative"));
        }
        let mut dampratio = -1.0;
        if read1(e, "dampratio", &mut dampratio, w)? && dampratio < 0.0 {
            return Err(e.error("dampratio cannot be negative"));
        }
        if dampratio > 0.0 && kv > 0.0 {
            return Err(e.error("kv and dampratio cannot both be defined"));
        }
        if kv > 0.0 {
            a.biasprm[2] = -kv;
        }
        if dampratio > 0.0 {
            a.biasprm[2] = dampratio;
        }
        if read1(e, "timeconst", &mut a.dynprm[0], w)? {
            if a.dynprm[0] < 0.0 {
                return Err(e.error("timeconst cannot be negative"));
            }
            a.dyntype = if a.dynprm[0] != 0.0 {
                DYN_FILTEREXACT
            } else {
                DYN_NONE
            };
        }
        read1(e, "inheritrange", &mut a.inheritrange, w)?;
        if a.inheritrange > 0.0 {
            if e.name == "position" {
                if a.ctrlrange[0] != 0.0 || a.ctrlrange[1] != 0.0 {
                    return Err(e.error("ctrlrange and inheritrange cannot both be defined"));
                }
            } else if a.actrange[0] != 0.0 || a.actrange[1] != 0.0 {
                return Err(e.error("actrange and inheritrange cannot both be defined"));
            }
        }
        a.gaintype = GAIN_FIXED;
        a.biastype = BIAS_AFFINE;
        if e.name == "intvelocity" {
            a.dyntype = DYN_INTEGRATOR;
            a.actlimited = Limited::True;
        }
        Ok(())
    }

    /// `muscle`: MuJoCo's muscle defaults where the parameters still hold the global defaults,
    /// then the explicit attributes; the bias parameters mirror the gain parameters.
    fn muscle(&mut self, e: &Elem, a: &mut Actuator) -> Result<(), XmlError> {
        let set_if = |x: &mut f64, was: f64, to: f64| {
            if *x == was {
                *x = to;
            }
        };
        set_if(&mut a.dynprm[0], 1.0, 0.01);
        set_if(&mut a.dynprm[1], 0.0, 0.04);
        for (k, (was, to)) in [
            (1.0, 0.75),
            (0.0, 1.05),
            (0.0, -1.0),
            (0.0, 200.0),
            (0.0, 0.5),
            (0.0, 1.6),
            (0.0, 1.5),
            (0.0, 1.3),
            (0.0, 1.2),
        ]
        .into_iter()
        .enumerate()
        {
            set_if(&mut a.gainprm[k], was, to);
        }
        let w = &mut self.w;
        read(e, "timeconst", &mut a.dynprm[..2], w)?;
        read1(e, "tausmooth", &mut a.dynprm[2], w)?;
        if a.dynprm[2] < 0.0 {
            return Err(e.error("muscle tausmooth cannot be negative"));
        }
        read(e, "range", &mut a.gainprm[..2], w)?;
        for (k, name) in ["force", "scale", "lmin", "lmax", "vmax", "fpmax", "fvmax"]
            .iter()
            .enumerate()
        {
            read1(e, name, &mut a.gainprm[k + 2], w)?;
        }
        a.biasprm[..9].copy_from_slice(&a.gainprm[..9]);
        a.dyntype = DYN_MUSCLE;
        a.gaintype = GAIN_MUSCLE;
        a.biastype = BIAS_MUSCLE;
        Ok(())
    }
}
