//! Objects outside the kinematic tree: contact pairs and excludes, equality constraints,
//! tendons, actuators, sensors, custom data and keyframes (their `Compile` and
//! `ResolveReferences` in `user_objects.cc`).

use mjrs_core::types::*;

use super::plugin::{PluginUser, UserKind};
use super::tree::checklimited;
use super::Compiler;
use crate::error::XmlError;
use crate::spec::{self, Limited, Wrap};
use crate::util::{c_max, defined, mju_max, mju_min, MINVAL};

/// A compiled contact pair.
#[derive(Clone, Debug)]
pub(crate) struct CPair {
    pub name: String,
    pub condim: i32,
    pub geom1: usize,
    pub geom2: usize,
    pub signature: i32,
    pub solref: [f64; NREF],
    pub solreffriction: [f64; NREF],
    pub solimp: [f64; NIMP],
    pub margin: f64,
    pub gap: f64,
    pub friction: [f64; 5],
}

/// A compiled excluded body pair.
#[derive(Clone, Debug)]
pub(crate) struct CExclude {
    pub name: String,
    pub signature: i32,
}

/// A compiled equality constraint.
#[derive(Clone, Debug)]
pub(crate) struct CEquality {
    pub name: String,
    pub etype: i32,
    pub obj1id: i32,
    pub obj2id: i32,
    pub active: bool,
    pub solref: [f64; NREF],
    pub solimp: [f64; NIMP],
    pub data: [f64; NEQDATA],
}

/// One compiled element of a tendon path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CWrap {
    pub wtype: i32,
    pub objid: i32,
    pub prm: f64,
}

/// A compiled tendon.
#[derive(Clone, Debug)]
pub(crate) struct CTendon {
    pub s: spec::Tendon,
    pub path: Vec<CWrap>,
}

/// A compiled actuator.
#[derive(Clone, Debug)]
pub(crate) struct CActuator {
    pub s: spec::Actuator,
    pub trnid: [i32; 2],
    /// The plugin instance computing its force.
    pub plugin: Option<usize>,
}

/// A compiled sensor.
#[derive(Clone, Debug)]
pub(crate) struct CSensor {
    pub s: spec::Sensor,
    pub objid: i32,
    pub refid: i32,
    /// The plugin instance computing its values (plugin sensors).
    pub plugin: Option<usize>,
}

/// A compiled tuple.
#[derive(Clone, Debug)]
pub(crate) struct CTuple {
    pub name: String,
    pub objtype: Vec<i32>,
    pub objid: Vec<i32>,
    pub objprm: Vec<f64>,
}

/// Everything outside the tree, compiled.
#[derive(Clone, Debug, Default)]
pub(crate) struct Objects {
    pub pairs: Vec<CPair>,
    pub excludes: Vec<CExclude>,
    pub equalities: Vec<CEquality>,
    pub tendons: Vec<CTendon>,
    pub actuators: Vec<CActuator>,
    pub sensors: Vec<CSensor>,
    pub tuples: Vec<CTuple>,
    pub keys: Vec<spec::Key>,
    pub skin_matid: Vec<i32>,
    pub tendon_matid: Vec<i32>,
    pub mat_texid: Vec<i32>,
}

impl Objects {
    /// Renumbers geom references after visual geoms were dropped (`gid[old]` = new id).
    pub fn remap_geoms(&mut self, gid: &[usize]) {
        let map = |g: i32| gid[g as usize] as i32;
        for p in &mut self.pairs {
            p.geom1 = gid[p.geom1];
            p.geom2 = gid[p.geom2];
        }
        for t in &mut self.tendons {
            for w in &mut t.path {
                if w.wtype == WRAP_SPHERE || w.wtype == WRAP_CYLINDER {
                    w.objid = map(w.objid);
                }
            }
        }
        for s in &mut self.sensors {
            if s.s.objtype == OBJ_GEOM {
                s.objid = map(s.objid);
            }
            if s.s.reftype == OBJ_GEOM {
                s.refid = map(s.refid);
            }
        }
        for t in &mut self.tuples {
            for (ty, id) in t.objtype.iter().zip(&mut t.objid) {
                if *ty == OBJ_GEOM {
                    *id = map(*id);
                }
            }
        }
    }
}

/// MuJoCo's `mjMAXVAL`-free limit check helper: the `limited` flag after `autolimits`.
fn check_auto(
    autolimits: bool,
    limited: Limited,
    range: &[f64; 2],
    entity: &str,
    attr: &str,
    name: &str,
    id: usize,
    info: &spec::Info,
) -> Result<(), XmlError> {
    if limited == Limited::Auto {
        let hasrange = !(range[0] == 0.0 && range[1] == 0.0);
        checklimited(autolimits, entity, attr, hasrange, name, id, info)?;
    }
    Ok(())
}

impl Compiler<'_> {
    /// Compiles every object outside the tree, in MuJoCo's order.
    pub(super) fn compile_objects(&mut self) -> Result<(), XmlError> {
        for i in 0..self.spec.pairs.len() {
            let p = self.compile_pair(i)?;
            self.objects.pairs.push(p);
        }
        for i in 0..self.spec.excludes.len() {
            let x = self.compile_exclude(i)?;
            self.objects.excludes.push(x);
        }
        for i in 0..self.spec.equalities.len() {
            let q = self.compile_equality(i)?;
            self.objects.equalities.push(q);
        }
        for i in 0..self.spec.tendons.len() {
            let t = self.compile_tendon(i)?;
            self.objects.tendons.push(t);
        }
        for i in 0..self.spec.actuators.len() {
            let mut a = self.compile_actuator(i)?;
            if let Some(r) = &a.s.plugin {
                let user = PluginUser {
                    kind: UserKind::Actuator,
                    name: a.s.name.clone(),
                    id: i,
                    info: a.s.info.clone(),
                };
                a.plugin = Some(self.resolve_plugin(&r.clone(), user)?);
            }
            self.objects.actuators.push(a);
        }
        for i in 0..self.spec.sensors.len() {
            let s = self.compile_sensor(i)?;
            self.objects.sensors.push(s);
        }
        for (i, n) in self.spec.numerics.iter().enumerate() {
            if n.size == 0 && n.data.is_empty() {
                return Err(XmlError::compile(
                    format!("numeric '{}' (id = {i}): size cannot be zero", n.name),
                    &n.name,
                    i,
                    &n.info,
                ));
            }
        }
        for (i, t) in self.spec.texts.iter().enumerate() {
            if t.data.is_empty() {
                return Err(XmlError::compile(
                    format!("text '{}' (id = {i}): size cannot be zero", t.name),
                    &t.name,
                    i,
                    &t.info,
                ));
            }
        }
        for i in 0..self.spec.tuples.len() {
            let t = self.compile_tuple(i)?;
            self.objects.tuples.push(t);
        }
        Ok(())
    }

    /// `mjCPair::Compile`: the two geoms, ordered by body, and the pair's parameters.
    fn compile_pair(&mut self, i: usize) -> Result<CPair, XmlError> {
        let p = self.spec.pairs[i].clone();
        let err = |msg: String| XmlError::compile(msg, &p.name, i, &p.info);
        if ![1, 3, 4, 6].contains(&p.condim) {
            return Err(err("invalid condim in contact pair".into()));
        }
        let g1 = self
            .find(OBJ_GEOM, &p.geomname1)
            .ok_or_else(|| err(format!("geom '{}' not found in collision {i}", p.geomname1)))?;
        let g2 = self
            .find(OBJ_GEOM, &p.geomname2)
            .ok_or_else(|| err(format!("geom '{}' not found in collision {i}", p.geomname2)))?;
        let (g1, g2) = if self.geoms[g1].body > self.geoms[g2].body {
            (g2, g1)
        } else {
            (g1, g2)
        };
        let signature = signature(self.geoms[g1].body, self.geoms[g2].body);
        self.geoms[g1].visual = false;
        self.geoms[g2].visual = false;
        let mut c = CPair {
            name: p.name.clone(),
            condim: p.condim,
            geom1: g1,
            geom2: g2,
            signature,
            solref: p.solref,
            solreffriction: p.solreffriction,
            solimp: p.solimp,
            margin: p.margin,
            gap: p.gap,
            friction: p.friction,
        };
        self.pair_defaults(&mut c);
        Ok(c)
    }

    /// Parameters the pair leaves undefined are mixed from its geoms (never the case for
    /// pairs read from MJCF, whose defaults are all defined; kept for specs built in code).
    fn pair_defaults(&self, c: &mut CPair) {
        let (a, b) = (&self.geoms[c.geom1].s, &self.geoms[c.geom2].s);
        if !defined(c.margin) {
            c.margin = c_max(a.margin, b.margin);
        }
        if !defined(c.gap) {
            c.gap = c_max(a.gap, b.gap);
        }
        if a.priority != b.priority {
            let h = if a.priority > b.priority { a } else { b };
            if c.condim < 0 {
                c.condim = h.condim;
            }
            if !defined(c.friction[0]) {
                c.friction = [
                    h.friction[0],
                    h.friction[0],
                    h.friction[1],
                    h.friction[2],
                    h.friction[2],
                ];
            }
            if !defined(c.solref[0]) {
                c.solref = h.solref;
            }
            if !defined(c.solimp[0]) {
                c.solimp = h.solimp;
            }
            return;
        }
        if c.condim < 0 {
            c.condim = if a.condim > b.condim {
                a.condim
            } else {
                b.condim
            };
        }
        if !defined(c.friction[0]) {
            let f0 = mju_max(a.friction[0], b.friction[0]);
            let f2 = mju_max(a.friction[2], b.friction[2]);
            c.friction = [f0, f0, mju_max(a.friction[1], b.friction[1]), f2, f2];
        }
        let mix = if a.solmix >= MINVAL && b.solmix >= MINVAL {
            a.solmix / (a.solmix + b.solmix)
        } else if a.solmix < MINVAL && b.solmix < MINVAL {
            0.5
        } else if a.solmix < MINVAL {
            0.0
        } else {
            1.0
        };
        if !defined(c.solref[0]) {
            for k in 0..NREF {
                c.solref[k] = if c.solref[0] > 0.0 {
                    mix * a.solref[k] + (1.0 - mix) * b.solref[k]
                } else {
                    mju_min(a.solref[k], b.solref[k])
                };
            }
        }
        if !defined(c.solimp[0]) {
            for k in 0..NIMP {
                c.solimp[k] = mix * a.solimp[k] + (1.0 - mix) * b.solimp[k];
            }
        }
    }

    /// `mjCBodyPair::Compile`.
    fn compile_exclude(&self, i: usize) -> Result<CExclude, XmlError> {
        let x = &self.spec.excludes[i];
        let err = |n: &str| {
            XmlError::compile(
                format!("body '{n}' not found in bodypair {i}"),
                &x.name,
                i,
                &x.info,
            )
        };
        let b1 = self
            .find(OBJ_BODY, &x.bodyname1)
            .ok_or_else(|| err(&x.bodyname1))?;
        let b2 = self
            .find(OBJ_BODY, &x.bodyname2)
            .ok_or_else(|| err(&x.bodyname2))?;
        let (b1, b2) = if b1 > b2 { (b2, b1) } else { (b1, b2) };
        Ok(CExclude {
            name: x.name.clone(),
            signature: signature(b1, b2),
        })
    }

    /// `mjCEquality::Compile`.
    fn compile_equality(&self, i: usize) -> Result<CEquality, XmlError> {
        let q = &self.spec.equalities[i];
        let err = |msg: String| XmlError::compile(msg, &q.name, i, &q.info);
        let objtype = match q.etype {
            EQ_CONNECT | EQ_WELD => OBJ_BODY,
            EQ_JOINT => OBJ_JOINT,
            EQ_TENDON => OBJ_TENDON,
            EQ_FLEX => OBJ_FLEX,
            _ => return Err(err("invalid type in equality constraint".into())),
        };
        let unknown = |n: &str| err(format!("unknown element '{n}' in equality constraint {i}"));
        let o1 = self
            .find(objtype, &q.name1)
            .ok_or_else(|| unknown(&q.name1))? as i32;
        let mut o2 = if q.name2.is_empty() {
            -1
        } else {
            self.find(objtype, &q.name2)
                .ok_or_else(|| unknown(&q.name2))? as i32
        };
        if objtype == OBJ_BODY && o2 == -1 {
            o2 = 0;
        }
        if o1 == o2 {
            return Err(err(format!(
                "element '{}' is repeated in equality constraint {i}",
                q.name1
            )));
        }
        if q.etype == EQ_FLEX && self.flexes[o1 as usize].rigid {
            return Err(err(format!(
                "rigid flex '{}' in equality constraint {i}",
                q.name1
            )));
        }
        if q.etype == EQ_JOINT {
            let scalar = |t: i32| t == JNT_HINGE || t == JNT_SLIDE;
            let t1 = self.joints[o1 as usize].s.jtype;
            let t2 = if o2 >= 0 {
                self.joints[o2 as usize].s.jtype
            } else {
                JNT_HINGE
            };
            if !scalar(t1) || !scalar(t2) {
                return Err(err(
                    "only HINGE and SLIDE joint allowed in constraint".into()
                ));
            }
        }
        Ok(CEquality {
            name: q.name.clone(),
            etype: q.etype,
            obj1id: o1,
            obj2id: o2,
            active: q.active,
            solref: q.solref,
            solimp: q.solimp,
            data: q.data,
        })
    }

    /// `mjCTendon::Compile` with its wraps' `ResolveReferences`.
    fn compile_tendon(&mut self, i: usize) -> Result<CTendon, XmlError> {
        let mut t = self.spec.tendons[i].clone();
        let (name, info) = (t.name.clone(), t.info.clone());
        let err = |msg: String| XmlError::compile(msg, &name, i, &info);
        if t.userdata.len() > self.nuser.tendon {
            return Err(err(
                "user has more values than nuser_tendon in tendon".into()
            ));
        }
        t.userdata.resize(self.nuser.tendon, 0.0);
        let sz = t.path.len();
        if sz == 0 {
            return Err(err(format!(
                "tendon '{name}' (id = {i}): path cannot be empty"
            )));
        }
        let spatial = !matches!(t.path[0], Wrap::Joint { .. });
        if spatial && sz < 2 {
            return Err(err(format!(
                "tendon '{name}' (id = {i}): spatial path must contain at least two objects"
            )));
        }
        if spatial && t.width <= 0.0 {
            return Err(err(format!(
                "tendon '{name}' (id = {i}) must have positive width"
            )));
        }
        let mut path = Vec::with_capacity(sz);
        for (k, w) in t.path.iter().enumerate() {
            path.push(self.resolve_wrap(w, i, k)?);
        }
        for k in 0..sz {
            let prev = (k > 0).then(|| path[k - 1].wtype);
            let next = (k + 1 < sz).then(|| path[k + 1].wtype);
            let w = path[k];
            if !spatial {
                if w.wtype != WRAP_JOINT {
                    return Err(err(format!(
                        "tendon '{name}' (id = {i}): spatial object found in fixed path at pos {k}"
                    )));
                }
                continue;
            }
            match w.wtype {
                WRAP_PULLEY => {
                    if prev == Some(WRAP_PULLEY) {
                        return Err(err(format!(
                            "tendon '{name}' (id = {i}): consequtive pulleys (pos {k})"
                        )));
                    }
                    if next.is_none() {
                        return Err(err(format!(
                            "tendon '{name}' (id = {i}): path ends with pulley"
                        )));
                    }
                }
                WRAP_SITE => {
                    if matches!(prev, None | Some(WRAP_PULLEY))
                        && matches!(next, None | Some(WRAP_PULLEY))
                    {
                        return Err(err(format!(
                            "tendon '{name}' (id = {i}): site {k} needs a neighbor that is not a pulley"
                        )));
                    }
                    if next == Some(WRAP_SITE) && w.objid == path[k + 1].objid {
                        return Err(err(format!(
                            "tendon '{name}' (id = {i}): site {k} is repeated"
                        )));
                    }
                }
                WRAP_SPHERE | WRAP_CYLINDER => {
                    if prev != Some(WRAP_SITE) || next != Some(WRAP_SITE) {
                        return Err(err(format!(
                            "tendon '{name}' (id = {i}): geom at pos {k} not bracketed by sites"
                        )));
                    }
                    self.geoms[w.objid as usize].visual = false;
                }
                WRAP_JOINT => {
                    return Err(err(format!(
                        "tendon '{name} (id = {i})': joint wrap found in spatial path at pos {k}"
                    )))
                }
                _ => {
                    return Err(err(format!(
                        "tendon '{name} (id = {i})': invalid wrap object at pos {k}"
                    )))
                }
            }
        }
        check_auto(
            self.spec.autolimits,
            t.limited,
            &t.range,
            "tendon",
            "",
            &name,
            i,
            &info,
        )?;
        if t.range[0] >= t.range[1] && t.limited.is_limited(&t.range) {
            return Err(err("invalid limits in tendon".into()));
        }
        if t.springlength[0] > t.springlength[1] {
            return Err(err("invalid springlength in tendon".into()));
        }
        Ok(CTendon { s: t, path })
    }

    /// `mjCWrap::ResolveReferences`.
    fn resolve_wrap(&self, w: &Wrap, tendon: usize, k: usize) -> Result<CWrap, XmlError> {
        let err = |msg: String, info: &spec::Info| XmlError::compile(msg, "", k, info);
        match w {
            Wrap::Joint { name, coef, info } => {
                let j = self.find(OBJ_JOINT, name).ok_or_else(|| {
                    err(
                        format!("joint '{name}' not found in tendon {tendon}, wrap {k}"),
                        info,
                    )
                })?;
                Ok(CWrap {
                    wtype: WRAP_JOINT,
                    objid: j as i32,
                    prm: *coef,
                })
            }
            Wrap::Geom {
                name,
                sidesite,
                info,
            } => {
                let g = self.find(OBJ_GEOM, name).ok_or_else(|| {
                    err(
                        format!("geom '{name}' not found in tendon {tendon}, wrap {k}"),
                        info,
                    )
                })?;
                let wtype = match self.geoms[g].s.gtype {
                    GEOM_CYLINDER => WRAP_CYLINDER,
                    GEOM_SPHERE => WRAP_SPHERE,
                    _ => {
                        return Err(err(
                            format!(
                            "geom '{name}' in tendon {tendon}, wrap {k} is not sphere or cylinder"
                        ),
                            info,
                        ))
                    }
                };
                let mut sideid = -1;
                if !sidesite.is_empty() {
                    sideid = self.find(OBJ_SITE, sidesite).ok_or_else(|| {
                        err(
                            format!(
                                "side site '{sidesite}' not found in tendon {tendon}, wrap {k}"
                            ),
                            info,
                        )
                    })? as i32;
                }
                Ok(CWrap {
                    wtype,
                    objid: g as i32,
                    prm: f64::from(sideid),
                })
            }
            Wrap::Pulley { divisor, info } => {
                if *divisor < 0.0 {
                    return Err(err(
                        format!("pulley has negative divisor in tendon {tendon}, wrap {k}"),
                        info,
                    ));
                }
                Ok(CWrap {
                    wtype: WRAP_PULLEY,
                    objid: -1,
                    prm: *divisor,
                })
            }
            Wrap::Site { name, info } => {
                let s = self
                    .find(OBJ_SITE, name)
                    .ok_or_else(|| err(format!("site '{name}' not found in wrap {k}"), info))?;
                Ok(CWrap {
                    wtype: WRAP_SITE,
                    objid: s as i32,
                    prm: 0.0,
                })
            }
        }
    }

    /// `mjCActuator::Compile`.
    fn compile_actuator(&self, i: usize) -> Result<CActuator, XmlError> {
        let mut a = self.spec.actuators[i].clone();
        let (name, info) = (a.name.clone(), a.info.clone());
        let err = |msg: String| XmlError::compile(msg, &name, i, &info);
        if a.userdata.len() > self.nuser.actuator {
            return Err(err(format!(
                "user has more values than nuser_actuator in actuator '{name}' (id = {i})"
            )));
        }
        a.userdata.resize(self.nuser.actuator, 0.0);
        if a.target.is_empty() {
            return Err(err("missing transmission target for actuator".into()));
        }
        let trnid = self.actuator_target(&a, i)?;
        if a.gaintype == GAIN_FIXED
            && a.biastype == BIAS_AFFINE
            && a.gainprm[0] == -a.biasprm[1]
            && a.inheritrange > 0.0
        {
            self.inherit_range(&mut a, trnid[0] as usize, i)?;
        }
        let auto = self.spec.autolimits;
        check_auto(
            auto,
            a.forcelimited,
            &a.forcerange,
            "actuator",
            "force",
            &name,
            i,
            &info,
        )?;
        check_auto(
            auto,
            a.ctrllimited,
            &a.ctrlrange,
            "actuator",
            "ctrl",
            &name,
            i,
            &info,
        )?;
        check_auto(
            auto,
            a.actlimited,
            &a.actrange,
            "actuator",
            "act",
            &name,
            i,
            &info,
        )?;
        if a.forcerange[0] >= a.forcerange[1] && a.forcelimited.is_limited(&a.forcerange) {
            return Err(err("invalid force range for actuator".into()));
        }
        if a.ctrlrange[0] >= a.ctrlrange[1] && a.ctrllimited.is_limited(&a.ctrlrange) {
            return Err(err("invalid control range for actuator".into()));
        }
        if a.actrange[0] >= a.actrange[1] && a.actlimited.is_limited(&a.actrange) {
            return Err(err("invalid actrange for actuator".into()));
        }
        if a.actlimited.is_limited(&a.actrange) && a.dyntype == DYN_NONE {
            return Err(err(
                "actrange specified but dyntype is 'none' in actuator".into()
            ));
        }
        if a.actdim > 1 && a.dyntype != DYN_USER {
            return Err(err(
                "actdim > 1 is only allowed for dyntype 'user' in actuator".into(),
            ));
        }
        if a.actdim == 1 && a.dyntype == DYN_NONE {
            return Err(err("invalid actdim 1 in stateless actuator".into()));
        }
        if a.actdim == 0 && a.dyntype != DYN_NONE {
            return Err(err("invalid actdim 0 in stateful actuator".into()));
        }
        if a.actdim < 0 {
            a.actdim = i32::from(a.dyntype != DYN_NONE);
        }
        for prm in [
            (a.gaintype == GAIN_MUSCLE).then_some(&a.gainprm),
            (a.biastype == BIAS_MUSCLE).then_some(&a.biasprm),
        ]
        .into_iter()
        .flatten()
        {
            if prm[0] >= prm[1] {
                return Err(err("range[0]<range[1] required in muscle".into()));
            }
            if prm[4] >= 1.0 || prm[5] <= 1.0 {
                return Err(err("lmin<1<lmax required in muscle".into()));
            }
            if prm[3] <= 0.0 || prm[6] <= 0.0 || prm[7] <= 0.0 || prm[8] <= 0.0 {
                return Err(err(format!(
                    "positive scale, vmax, fpmax, fvmax required in muscle '{name}' (id = {i})"
                )));
            }
        }
        Ok(CActuator {
            s: a,
            trnid,
            plugin: None,
        })
    }

    /// The transmission target (and second id) of an actuator (`ResolveReferences`).
    fn actuator_target(&self, a: &spec::Actuator, i: usize) -> Result<[i32; 2], XmlError> {
        let err = |msg: String| XmlError::compile(msg, &a.name, i, &a.info);
        let mut trnid = [-1, -1];
        let target = match a.trntype {
            TRN_JOINT | TRN_JOINTINPARENT => {
                Some(self.find(OBJ_JOINT, &a.target).ok_or_else(|| {
                    err(format!(
                        "unknown transmission target '{}' for actuator id = {i}",
                        a.target
                    ))
                })?)
            }
            TRN_SLIDERCRANK => {
                if a.slidersite.is_empty() {
                    return Err(err(format!(
                        "missing base site for slider-crank '{}' (id = {i})",
                        a.name
                    )));
                }
                let s = self.find(OBJ_SITE, &a.slidersite).ok_or_else(|| {
                    err(format!(
                        "base site '{}' not found for actuator {i}",
                        a.slidersite
                    ))
                })?;
                trnid[1] = s as i32;
                if a.cranklength <= 0.0 {
                    return Err(err(format!(
                        "crank length must be positive in actuator '{}' (id = {i})",
                        a.name
                    )));
                }
                self.find(OBJ_SITE, &a.target)
            }
            TRN_TENDON => self.find(OBJ_TENDON, &a.target),
            TRN_SITE => {
                if !a.refsite.is_empty() {
                    let s = self.find(OBJ_SITE, &a.refsite).ok_or_else(|| {
                        err(format!(
                            "reference site '{}' not found for actuator {i}",
                            a.refsite
                        ))
                    })?;
                    trnid[1] = s as i32;
                }
                self.find(OBJ_SITE, &a.target)
            }
            TRN_BODY => self.find(OBJ_BODY, &a.target),
            _ => return Err(err("invalid transmission type in actuator".into())),
        };
        let t = target.ok_or_else(|| {
            err(format!(
                "transmission target '{}' not found in actuator {i}",
                a.target
            ))
        })?;
        trnid[0] = t as i32;
        Ok(trnid)
    }

    /// `inheritrange`: the control (position) or activation (intvelocity) range from the
    /// target joint's or tendon's range.
    fn inherit_range(
        &self,
        a: &mut spec::Actuator,
        target: usize,
        i: usize,
    ) -> Result<(), XmlError> {
        let err = |msg: String| XmlError::compile(msg, &a.name, i, &a.info);
        let use_ctrl = match a.dyntype {
            DYN_NONE | DYN_FILTEREXACT => true,
            DYN_INTEGRATOR => false,
            _ => {
                return Err(err(
                    "inheritrange only available for position and intvelocity actuators".into(),
                ))
            }
        };
        let range =
            match a.trntype {
                TRN_JOINT => {
                    let j = &self.joints[target].s;
                    if j.jtype != JNT_HINGE && j.jtype != JNT_SLIDE {
                        return Err(err(
                            "inheritrange can only be used with hinge and slide joints, actuator"
                                .into(),
                        ));
                    }
                    j.range
                }
                TRN_TENDON => self.objects.tendons[target].s.range,
                _ => return Err(err(
                    "inheritrange can only be used with joint and tendon transmission, actuator"
                        .into(),
                )),
            };
        if range[0] == range[1] {
            return Err(err(format!(
                "inheritrange used but target '{}' has no range defined in actuator {i}",
                a.target
            )));
        }
        let mean = 0.5 * (range[1] + range[0]);
        let radius = 0.5 * (range[1] - range[0]) * a.inheritrange;
        let dst = if use_ctrl {
            &mut a.ctrlrange
        } else {
            &mut a.actrange
        };
        *dst = [mean - radius, mean + radius];
        Ok(())
    }

    /// `mjCSensor::Compile`.
    fn compile_sensor(&mut self, i: usize) -> Result<CSensor, XmlError> {
        let mut s = self.spec.sensors[i].clone();
        let (name, info) = (s.name.clone(), s.info.clone());
        let err = |msg: &str| XmlError::compile(msg, &name, i, &info);
        if s.userdata.len() > self.nuser.sensor {
            return Err(err("user has more values than nuser_sensor in sensor"));
        }
        s.userdata.resize(self.nuser.sensor, 0.0);
        if s.noise < 0.0 {
            return Err(err("negative noise in sensor"));
        }
        if s.cutoff < 0.0 {
            return Err(err("negative cutoff in sensor"));
        }
        let (mut objid, mut refid) = (-1, -1);
        if s.objtype != OBJ_UNKNOWN {
            if s.objname.is_empty() {
                return Err(err("missing name of sensorized object in sensor"));
            }
            let o = self.find_any(s.objtype, &s.objname).ok_or_else(|| {
                err(&format!(
                    "unrecognized name '{}' of sensorized object",
                    s.objname
                ))
            })?;
            if s.objtype == OBJ_GEOM {
                self.geoms[o].visual = false;
            }
            objid = o as i32;
        } else if s.stype != SENS_CLOCK && s.stype != SENS_PLUGIN && s.stype != SENS_USER {
            return Err(err("invalid type in sensor"));
        }
        if s.reftype != OBJ_UNKNOWN {
            if s.refname.is_empty() {
                return Err(err("missing name of reference frame object in sensor"));
            }
            let r = self
                .find_any(s.reftype, &s.refname)
                .ok_or_else(|| err(&format!("unrecognized name '{}' of object", s.refname)))?;
            if ![OBJ_BODY, OBJ_XBODY, OBJ_GEOM, OBJ_SITE, OBJ_CAMERA].contains(&s.reftype) {
                return Err(err(
                    "reference frame object must be (x)body, geom, site or camera in sensor",
                ));
            }
            refid = r as i32;
        }
        let mut plugin = None;
        if s.stype == SENS_PLUGIN {
            // the dimension and stage come from the plugin once the model exists
            s.dim = 0;
            s.datatype = DATATYPE_REAL;
            plugin = Some(self.sensor_plugin(&s, i)?);
        } else {
            self.sensor_shape(&mut s, objid, refid).map_err(err)?;
        }
        if s.cutoff > 0.0
            && (s.datatype == DATATYPE_QUATERNION
                || (s.datatype == DATATYPE_AXIS && s.stype != SENS_GEOMNORMAL))
        {
            return Err(err(
                "cutoff applied to axis or quaternion datatype in sensor",
            ));
        }
        Ok(CSensor {
            s,
            objid,
            refid,
            plugin,
        })
    }

    /// The instance of plugin sensor `i`.
    fn sensor_plugin(&mut self, s: &spec::Sensor, i: usize) -> Result<usize, XmlError> {
        let user = PluginUser {
            kind: UserKind::Sensor,
            name: s.name.clone(),
            id: i,
            info: s.info.clone(),
        };
        let r = s.plugin.clone().unwrap_or_default();
        self.resolve_plugin(&r, user)
    }

    /// Dimension, data type and stage of a sensor, with the checks of its attachment.
    fn sensor_shape(
        &self,
        s: &mut spec::Sensor,
        objid: i32,
        refid: i32,
    ) -> Result<(), &'static str> {
        let set = |s: &mut spec::Sensor, dim, datatype, stage| {
            s.dim = dim;
            s.datatype = datatype;
            s.needstage = stage;
        };
        let joint = |id: i32| &self.joints[id as usize].s;
        match s.stype {
            SENS_TOUCH | SENS_ACCELEROMETER | SENS_VELOCIMETER | SENS_GYRO | SENS_FORCE
            | SENS_TORQUE | SENS_MAGNETOMETER | SENS_RANGEFINDER | SENS_CAMPROJECTION => {
                if s.objtype != OBJ_SITE {
                    return Err("sensor must be attached to site");
                }
                let (dim, dt) = match s.stype {
                    SENS_TOUCH | SENS_RANGEFINDER => (1, DATATYPE_POSITIVE),
                    SENS_CAMPROJECTION => (2, DATATYPE_REAL),
                    _ => (3, DATATYPE_REAL),
                };
                let stage = match s.stype {
                    SENS_MAGNETOMETER | SENS_RANGEFINDER | SENS_CAMPROJECTION => STAGE_POS,
                    SENS_GYRO | SENS_VELOCIMETER => STAGE_VEL,
                    _ => STAGE_ACC,
                };
                set(s, dim, dt, stage);
                if s.stype == SENS_CAMPROJECTION {
                    let r = self.cameras[refid as usize].s.resolution;
                    if r[0] == 0.0 || r[1] == 0.0 {
                        return Err("camera projection sensor requires camera resolution");
                    }
                }
            }
            SENS_JOINTPOS | SENS_JOINTVEL | SENS_JOINTACTFRC => {
                if s.objtype != OBJ_JOINT {
                    return Err("sensor must be attached to joint");
                }
                let t = joint(objid).jtype;
                if t != JNT_SLIDE && t != JNT_HINGE {
                    return Err("joint must be slide or hinge in sensor");
                }
                let stage = match s.stype {
                    SENS_JOINTPOS => STAGE_POS,
                    SENS_JOINTVEL => STAGE_VEL,
                    _ => STAGE_ACC,
                };
                set(s, 1, DATATYPE_REAL, stage);
            }
            SENS_TENDONPOS | SENS_TENDONVEL => {
                if s.objtype != OBJ_TENDON {
                    return Err("sensor must be attached to tendon");
                }
                let stage = if s.stype == SENS_TENDONPOS {
                    STAGE_POS
                } else {
                    STAGE_VEL
                };
                set(s, 1, DATATYPE_REAL, stage);
            }
            SENS_ACTUATORPOS | SENS_ACTUATORVEL | SENS_ACTUATORFRC => {
                if s.objtype != OBJ_ACTUATOR {
                    return Err("sensor must be attached to actuator");
                }
                let stage = match s.stype {
                    SENS_ACTUATORPOS => STAGE_POS,
                    SENS_ACTUATORVEL => STAGE_VEL,
                    _ => STAGE_ACC,
                };
                set(s, 1, DATATYPE_REAL, stage);
            }
            SENS_BALLQUAT | SENS_BALLANGVEL => {
                if s.objtype != OBJ_JOINT {
                    return Err("sensor must be attached to joint");
                }
                if joint(objid).jtype != JNT_BALL {
                    return Err("joint must be ball in sensor");
                }
                if s.stype == SENS_BALLQUAT {
                    set(s, 4, DATATYPE_QUATERNION, STAGE_POS);
                } else {
                    set(s, 3, DATATYPE_REAL, STAGE_VEL);
                }
            }
            SENS_JOINTLIMITPOS | SENS_JOINTLIMITVEL | SENS_JOINTLIMITFRC => {
                if s.objtype != OBJ_JOINT {
                    return Err("sensor must be attached to joint");
                }
                let j = joint(objid);
                if !j.limited.is_limited(&j.range) {
                    return Err("joint must be limited in sensor");
                }
                let stage = match s.stype {
                    SENS_JOINTLIMITPOS => STAGE_POS,
                    SENS_JOINTLIMITVEL => STAGE_VEL,
                    _ => STAGE_ACC,
                };
                set(s, 1, DATATYPE_REAL, stage);
            }
            SENS_TENDONLIMITPOS | SENS_TENDONLIMITVEL | SENS_TENDONLIMITFRC => {
                if s.objtype != OBJ_TENDON {
                    return Err("sensor must be attached to tendon");
                }
                let t = &self.objects.tendons[objid as usize].s;
                if !t.limited.is_limited(&t.range) {
                    return Err("tendon must be limited in sensor");
                }
                let stage = match s.stype {
                    SENS_TENDONLIMITPOS => STAGE_POS,
                    SENS_TENDONLIMITVEL => STAGE_VEL,
                    _ => STAGE_ACC,
                };
                set(s, 1, DATATYPE_REAL, stage);
            }
            SENS_FRAMEPOS | SENS_FRAMEQUAT | SENS_FRAMEXAXIS | SENS_FRAMEYAXIS
            | SENS_FRAMEZAXIS | SENS_FRAMELINVEL | SENS_FRAMEANGVEL | SENS_FRAMELINACC
            | SENS_FRAMEANGACC => {
                if ![OBJ_BODY, OBJ_XBODY, OBJ_GEOM, OBJ_SITE, OBJ_CAMERA].contains(&s.objtype) {
                    return Err("sensor must be attached to (x)body, geom, site or camera");
                }
                let dim = if s.stype == SENS_FRAMEQUAT { 4 } else { 3 };
                let dt = match s.stype {
                    SENS_FRAMEQUAT => DATATYPE_QUATERNION,
                    SENS_FRAMEXAXIS | SENS_FRAMEYAXIS | SENS_FRAMEZAXIS => DATATYPE_AXIS,
                    _ => DATATYPE_REAL,
                };
                let stage = match s.stype {
                    SENS_FRAMELINACC | SENS_FRAMEANGACC => STAGE_ACC,
                    SENS_FRAMELINVEL | SENS_FRAMEANGVEL => STAGE_VEL,
                    _ => STAGE_POS,
                };
                set(s, dim, dt, stage);
            }
            SENS_SUBTREECOM | SENS_SUBTREELINVEL | SENS_SUBTREEANGMOM => {
                if s.objtype != OBJ_BODY {
                    return Err("sensor must be attached to body");
                }
                let stage = if s.stype == SENS_SUBTREECOM {
                    STAGE_POS
                } else {
                    STAGE_VEL
                };
                set(s, 3, DATATYPE_REAL, stage);
            }
            SENS_GEOMDIST | SENS_GEOMNORMAL | SENS_GEOMFROMTO => {
                let ok = |t: i32| t == OBJ_BODY || t == OBJ_GEOM;
                if !ok(s.objtype) || !ok(s.reftype) {
                    return Err("sensor must be attached to body or geom");
                }
                if s.objtype == s.reftype && objid == refid {
                    return Err("1st body/geom must be different from 2nd body/geom");
                }
                let (dim, dt) = match s.stype {
                    SENS_GEOMDIST => (1, DATATYPE_POSITIVE),
                    SENS_GEOMNORMAL => (3, DATATYPE_AXIS),
                    _ => (6, DATATYPE_REAL),
                };
                set(s, dim, dt, STAGE_POS);
            }
            SENS_CLOCK => set(s, 1, DATATYPE_REAL, STAGE_POS),
            SENS_USER => {
                if s.dim < 0 {
                    return Err("sensor dim must be positive in sensor");
                }
                if s.datatype == DATATYPE_AXIS && s.dim != 3 {
                    return Err("datatype AXIS requires dim=3 in sensor");
                }
                if s.datatype == DATATYPE_QUATERNION && s.dim != 4 {
                    return Err("datatype QUATERNION requires dim=4 in sensor");
                }
            }
            _ => return Err("invalid type in sensor"),
        }
        Ok(())
    }

    /// `mjCTuple::Compile`.
    fn compile_tuple(&mut self, i: usize) -> Result<CTuple, XmlError> {
        let t = self.spec.tuples[i].clone();
        let err = |msg: String| XmlError::compile(msg, &t.name, i, &t.info);
        if t.objtype.is_empty() {
            return Err(err(format!("tuple '{}' (id = {i}) is empty", t.name)));
        }
        let mut objid = Vec::with_capacity(t.objtype.len());
        for (ty, name) in t.objtype.iter().zip(&t.objname) {
            let o = self
                .find_any(*ty, name)
                .ok_or_else(|| err(format!("unrecognized object '{name}' in tuple {i}")))?;
            if *ty == OBJ_GEOM {
                self.geoms[o].visual = false;
            }
            objid.push(o as i32);
        }
        Ok(CTuple {
            name: t.name.clone(),
            objtype: t.objtype.clone(),
            objid,
            objprm: t.objprm.clone(),
        })
    }

    /// `FindObject` for any object type, including `xbody` (bodies) and the assets.
    fn find_any(&self, ty: i32, name: &str) -> Option<usize> {
        self.find(if ty == OBJ_XBODY { OBJ_BODY } else { ty }, name)
    }
}

/// MuJoCo's body-pair signature `(b1 << 16) + b2`, in 32-bit `int` arithmetic that wraps as
/// MuJoCo's does: body ids beyond 65535 do not fit its 16 bits (MuJoCo 3.1.6 compiles such
/// models all the same).
fn signature(b1: usize, b2: usize) -> i32 {
    (b1 as i32).wrapping_shl(16).wrapping_add(b2 as i32)
}
