//! How a `replicate` changes the model's referencing elements (pairs, excludes, tendons,
//! equalities, actuators, sensors, numerics, texts, tuples), as MuJoCo 3.1.6 does it.
//!
//! These sections are read before `worldbody`, so they all exist when a replicate is read.
//! MuJoCo attaches each replica to the model it is already in (`mjCModel::operator+=` on
//! itself) and removes the temporary body with `mjCModel::operator-=`, and both passes over the
//! referencing elements are observable:
//!
//! - Attaching replica `i` tries every existing element again with the replica's suffix added
//!   to the names it refers to (`NameSpace` then `ResolveReferences`); each one that resolves
//!   is copied. So `<motor joint="j"/>` gains one copy per replica of joint `j`, a pair with
//!   one geom inside the replicate and one outside gains a copy per replica, and numerics,
//!   texts and clock sensors (which refer to nothing) double with every replica.
//! - Detaching removes every pair, exclude, tendon, equality, actuator and sensor that resolved
//!   before the originals were removed and no longer does.
//!
//! The name lookups follow `FindObject`: a name map per object type built from the object
//! lists (the last object of a name wins; `xbody` searches the bodies linearly). During the
//! removal pass the maps are built once and the lists shrink under them, as in MuJoCo, so a
//! stale index can find a different object. The type checks see each geom's and joint's type
//! as its default class gave it, because that is the only type MuJoCo's objects hold before
//! compilation. Side effects that show in the compiled model are reproduced: the fallback names
//! written back into pairs, excludes and sensors, and a tendon's geom wrap that has once been
//! resolved to a cylinder failing every later resolution until the tendon is compiled.

use std::collections::HashMap;

use mjrs_core::types::*;

use super::Reader;
use crate::compiler::type2str;
use crate::error::XmlError;
use crate::spec::*;

/// Appends `suffix` to a non-empty name (`mjCBase::NameSpace`).
pub(super) fn add_suffix(name: &mut String, suffix: &str) {
    if !name.is_empty() {
        name.push_str(suffix);
    }
}

/// One object as the name lookup returns it.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    name: String,
    /// Body id: a body's own, a geom's body's.
    body: usize,
    /// A geom's or joint's type as its default class gave it.
    kind: i32,
}

impl Entry {
    fn named(name: &str) -> Self {
        Self {
            name: name.to_string(),
            body: 0,
            kind: 0,
        }
    }
}

/// The object lists of one model state and the name maps that search them (`object_lists_`
/// and `ids`).
#[derive(Debug, Default)]
pub(super) struct Lists {
    lists: HashMap<i32, Vec<Entry>>,
    ids: HashMap<i32, HashMap<String, usize>>,
}

impl Lists {
    /// Replaces the list of type `ty` and rebuilds its name map (`processlist`).
    fn set(&mut self, ty: i32, list: Vec<Entry>) {
        let ids = list
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.clone(), i))
            .collect();
        self.ids.insert(ty, ids);
        self.lists.insert(ty, list);
    }

    /// Removes object `i` of type `ty` from its list, leaving the name map as it was.
    fn remove(&mut self, ty: i32, i: usize) {
        if let Some(list) = self.lists.get_mut(&ty) {
            list.remove(i);
        }
    }

    /// `FindObject`: the object the name map gives for `name`, if that index is still in the
    /// list.
    fn find(&self, ty: i32, name: &str) -> Option<&Entry> {
        if ty == OBJ_XBODY {
            return self.lists.get(&OBJ_BODY)?.iter().find(|e| e.name == name);
        }
        let i = *self.ids.get(&ty)?.get(name)?;
        self.lists.get(&ty)?.get(i)
    }

    /// The world body.
    fn world(&self) -> Option<&Entry> {
        self.lists.get(&OBJ_BODY)?.first()
    }
}

/// The working state of an element between `CopyFromSpec` and `ResolveReferences`.
#[derive(Default)]
struct Work {
    /// Working copies of the two names of a pair, exclude or sensor.
    names: [String; 2],
    /// Per tendon wrap: already resolved to a cylinder.
    cylinder: Vec<bool>,
}

/// An element whose references `replicate` re-resolves.
trait Referencing: Clone {
    /// Its object type.
    const OBJ: i32;
    /// Its name.
    fn name(&self) -> &str;
    /// `NameSpace`: the suffix added to the name and to the references stored with it.
    fn namespace(&mut self, suffix: &str) {
        add_suffix(self.name_mut(), suffix);
    }
    /// The name, for `namespace`.
    fn name_mut(&mut self) -> &mut String;
    /// `CopyFromSpec`: the working state.
    fn work(&self) -> Work {
        Work::default()
    }
    /// `ResolveReferences` with the references suffixed by `suffix` (for the elements that
    /// apply it while resolving); false where MuJoCo throws.
    fn resolve(&mut self, work: &mut Work, suffix: &str, lists: &Lists) -> bool;
}

/// Resolution of the two names of a pair (geoms) or exclude (bodies): suffixed names first,
/// and when only one of them resolves the other falls back to its spec name; the resolved
/// names are written back, and the working names swapped into body order.
fn resolve_two(
    ty: i32,
    spec: [&mut String; 2],
    work: &mut Work,
    suffix: &str,
    lists: &Lists,
) -> bool {
    let w = &mut work.names;
    w[0].push_str(suffix);
    w[1].push_str(suffix);
    let mut o1 = lists.find(ty, &w[0]).map(|e| e.body);
    let mut o2 = lists.find(ty, &w[1]).map(|e| e.body);
    if o1.is_none() && o2.is_some() {
        w[0] = spec[0].clone();
        o1 = lists.find(ty, &w[0]).map(|e| e.body);
    }
    if o1.is_some() && o2.is_none() {
        w[1] = spec[1].clone();
        o2 = lists.find(ty, &w[1]).map(|e| e.body);
    }
    let (Some(b1), Some(b2)) = (o1, o2) else {
        return false;
    };
    *spec[0] = w[0].clone();
    *spec[1] = w[1].clone();
    if b1 > b2 {
        w.swap(0, 1);
    }
    true
}

impl Referencing for Pair {
    const OBJ: i32 = OBJ_PAIR;
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
    fn work(&self) -> Work {
        Work {
            names: [self.geomname1.clone(), self.geomname2.clone()],
            ..Work::default()
        }
    }
    fn resolve(&mut self, work: &mut Work, suffix: &str, lists: &Lists) -> bool {
        let spec = [&mut self.geomname1, &mut self.geomname2];
        resolve_two(OBJ_GEOM, spec, work, suffix, lists)
    }
}

impl Referencing for Exclude {
    const OBJ: i32 = OBJ_EXCLUDE;
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
    fn work(&self) -> Work {
        Work {
            names: [self.bodyname1.clone(), self.bodyname2.clone()],
            ..Work::default()
        }
    }
    fn resolve(&mut self, work: &mut Work, suffix: &str, lists: &Lists) -> bool {
        let spec = [&mut self.bodyname1, &mut self.bodyname2];
        resolve_two(OBJ_BODY, spec, work, suffix, lists)
    }
}

/// `mjCWrap::ResolveReferences`. `cylinder`: the wrap was already resolved to a cylinder,
/// a type the resolution does not accept.
fn wrap_resolves(wrap: &Wrap, cylinder: &mut bool, lists: &Lists) -> bool {
    match wrap {
        Wrap::Joint { name, .. } => lists.find(OBJ_JOINT, name).is_some(),
        Wrap::Site { name, .. } => lists.find(OBJ_SITE, name).is_some(),
        Wrap::Pulley { divisor, .. } => *divisor >= 0.0,
        Wrap::Geom { name, sidesite, .. } => {
            if *cylinder {
                return false;
            }
            let Some(g) = lists.find(OBJ_GEOM, name) else {
                return false;
            };
            if g.kind == GEOM_CYLINDER {
                *cylinder = true;
            } else if g.kind != GEOM_SPHERE {
                return false;
            }
            sidesite.is_empty() || lists.find(OBJ_SITE, sidesite).is_some()
        }
    }
}

/// A wrap's names with the suffix (the side site too, even when empty).
fn suffixed_wrap(wrap: &Wrap, suffix: &str) -> Wrap {
    let mut w = wrap.clone();
    match &mut w {
        Wrap::Joint { name, .. } | Wrap::Site { name, .. } => name.push_str(suffix),
        Wrap::Geom { name, sidesite, .. } => {
            name.push_str(suffix);
            sidesite.push_str(suffix);
        }
        Wrap::Pulley { .. } => {}
    }
    w
}

impl Referencing for Tendon {
    const OBJ: i32 = OBJ_TENDON;
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
    fn work(&self) -> Work {
        Work {
            cylinder: vec![false; self.path.len()],
            ..Work::default()
        }
    }
    /// Each wrap is tried with the suffix, then without it (a "failure"); a tendon none of
    /// whose wraps resolved with the suffix does not resolve.
    fn resolve(&mut self, work: &mut Work, suffix: &str, lists: &Lists) -> bool {
        let mut nfailure = 0;
        for (wrap, cyl) in self.path.iter_mut().zip(&mut work.cylinder) {
            let tried = suffixed_wrap(wrap, suffix);
            if wrap_resolves(&tried, cyl, lists) {
                *wrap = tried;
            } else {
                if !wrap_resolves(wrap, cyl, lists) {
                    return false;
                }
                nfailure += 1;
            }
        }
        nfailure != self.path.len()
    }
}

impl Referencing for Equality {
    const OBJ: i32 = OBJ_EQUALITY;
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
    fn namespace(&mut self, suffix: &str) {
        add_suffix(&mut self.name, suffix);
        self.name1.push_str(suffix);
        self.name2.push_str(suffix);
    }
    fn resolve(&mut self, _work: &mut Work, _suffix: &str, lists: &Lists) -> bool {
        let ty = match self.etype {
            EQ_CONNECT | EQ_WELD => OBJ_BODY,
            EQ_JOINT => OBJ_JOINT,
            EQ_TENDON => OBJ_TENDON,
            EQ_FLEX => OBJ_FLEX,
            _ => return false,
        };
        let Some(p1) = lists.find(ty, &self.name1) else {
            return false;
        };
        let p2 = if self.name2.is_empty() {
            None
        } else {
            match lists.find(ty, &self.name2) {
                Some(p) => Some(p),
                None => return false,
            }
        };
        // a missing second body is the world
        let other = if ty == OBJ_BODY {
            p2.or(lists.world())
        } else {
            p2
        };
        if other.is_some_and(|o| std::ptr::eq(o, p1)) {
            return false;
        }
        let scalar = |k: i32| k == JNT_HINGE || k == JNT_SLIDE;
        ty != OBJ_JOINT || (scalar(p1.kind) && scalar(p2.map_or(JNT_HINGE, |p| p.kind)))
    }
}

impl Referencing for Actuator {
    const OBJ: i32 = OBJ_ACTUATOR;
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
    fn namespace(&mut self, suffix: &str) {
        add_suffix(&mut self.name, suffix);
        self.target.push_str(suffix);
        self.refsite.push_str(suffix);
        self.slidersite.push_str(suffix);
    }
    fn resolve(&mut self, _work: &mut Work, _suffix: &str, lists: &Lists) -> bool {
        let has = |ty: i32, name: &str| lists.find(ty, name).is_some();
        match self.trntype {
            TRN_JOINT | TRN_JOINTINPARENT => has(OBJ_JOINT, &self.target),
            TRN_SLIDERCRANK => {
                !self.slidersite.is_empty()
                    && has(OBJ_SITE, &self.slidersite)
                    // a NaN length passes, as MuJoCo's `cranklength <= 0` test lets it
                    && (self.cranklength > 0.0 || self.cranklength.is_nan())
                    && has(OBJ_SITE, &self.target)
            }
            TRN_TENDON => has(OBJ_TENDON, &self.target),
            TRN_SITE => {
                (self.refsite.is_empty() || has(OBJ_SITE, &self.refsite))
                    && has(OBJ_SITE, &self.target)
            }
            TRN_BODY => has(OBJ_BODY, &self.target),
            _ => false,
        }
    }
}

impl Referencing for Sensor {
    const OBJ: i32 = OBJ_SENSOR;
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
    fn work(&self) -> Work {
        Work {
            names: [self.objname.clone(), self.refname.clone()],
            ..Work::default()
        }
    }
    /// Suffixed names first; when both an object and a reference are wanted and only one
    /// resolves, the other falls back to its spec name.
    fn resolve(&mut self, work: &mut Work, suffix: &str, lists: &Lists) -> bool {
        let w = &mut work.names;
        w[0].push_str(suffix);
        w[1].push_str(suffix);
        let (hasobj, hasref) = (self.objtype != OBJ_UNKNOWN, self.reftype != OBJ_UNKNOWN);
        let find = |ty: i32, name: &str| lists.find(ty, name).is_some();
        let mut obj = hasobj && find(self.objtype, &w[0]);
        let mut rf = hasref && find(self.reftype, &w[1]);
        if hasobj && hasref && !obj && rf {
            w[0] = self.objname.clone();
            obj = find(self.objtype, &w[0]);
        }
        if hasobj && hasref && obj && !rf {
            w[1] = self.refname.clone();
            rf = find(self.reftype, &w[1]);
        }
        if hasobj {
            if w[0].is_empty() || !obj {
                return false;
            }
        } else if ![SENS_CLOCK, SENS_PLUGIN, SENS_USER].contains(&self.stype) {
            return false;
        }
        let frame_types = [OBJ_BODY, OBJ_XBODY, OBJ_GEOM, OBJ_SITE, OBJ_CAMERA];
        if hasref && (w[1].is_empty() || !rf || !frame_types.contains(&self.reftype)) {
            return false;
        }
        self.objname = w[0].clone();
        self.refname = w[1].clone();
        true
    }
}

impl Referencing for Numeric {
    const OBJ: i32 = OBJ_NUMERIC;
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
    fn resolve(&mut self, _: &mut Work, _: &str, _: &Lists) -> bool {
        true
    }
}

impl Referencing for Text {
    const OBJ: i32 = OBJ_TEXT;
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
    fn resolve(&mut self, _: &mut Work, _: &str, _: &Lists) -> bool {
        true
    }
}

impl Referencing for Tuple {
    const OBJ: i32 = OBJ_TUPLE;
    fn name(&self) -> &str {
        &self.name
    }
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
    fn namespace(&mut self, suffix: &str) {
        add_suffix(&mut self.name, suffix);
        for n in &mut self.objname {
            n.push_str(suffix);
        }
    }
    fn resolve(&mut self, _: &mut Work, _: &str, lists: &Lists) -> bool {
        let n = self.objtype.len();
        n > 0
            && self.objname.len() == n
            && self.objprm.len() == n
            && (self.objtype.iter())
                .zip(&self.objname)
                .all(|(&ty, name)| lists.find(ty, name).is_some())
    }
}

/// The names of a list of elements, as lookup entries.
fn entries<T>(list: &[T], name: impl Fn(&T) -> &str) -> Vec<Entry> {
    list.iter().map(|x| Entry::named(name(x))).collect()
}

/// Copies of the elements of `list` that resolve with `suffix`, appended to it
/// (`mjCModel::CopyList`), then the list's name map and its check for repeated names.
/// Returns how many were copied.
fn copy_list<T: Referencing>(
    list: &mut Vec<T>,
    suffix: &str,
    lists: &mut Lists,
) -> Result<usize, XmlError> {
    let mut copies = Vec::new();
    for x in list.iter() {
        let mut c = x.clone();
        c.namespace(suffix);
        let mut work = c.work();
        if c.resolve(&mut work, suffix, lists) {
            copies.push(c);
        }
    }
    let n = copies.len();
    list.extend(copies);
    if list.is_empty() {
        return Ok(0);
    }
    let mut names: Vec<&str> = list
        .iter()
        .map(|x| x.name())
        .filter(|n| !n.is_empty())
        .collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(XmlError::model(format!(
            "repeated name '{}' in {} (made by replicate)",
            w[0],
            type2str(T::OBJ)
        )));
    }
    lists.set(T::OBJ, entries(list, |x| x.name()));
    Ok(n)
}

/// Removes the elements of `list` that resolve in `old` but not in `new`
/// (`mjCModel::RemoveFromList`); `new` loses them too.
fn remove_list<T: Referencing>(list: &mut Vec<T>, old: &Lists, new: &mut Lists) {
    let mut i = 0;
    while i < list.len() {
        let mut work = list[i].work();
        if list[i].resolve(&mut work, "", old) && !list[i].resolve(&mut work, "", new) {
            list.remove(i);
            new.remove(T::OBJ, i);
        } else {
            i += 1;
        }
    }
}

/// The elements of `list` that resolve in `lists` (an attached model keeps only those).
fn resolving<T: Referencing>(list: &[T], lists: &Lists) -> Vec<Entry> {
    let keep = |x: &T| x.clone().resolve(&mut x.work(), "", lists);
    list.iter()
        .filter(|x| keep(x))
        .map(|x| Entry::named(x.name()))
        .collect()
}

impl Reader<'_> {
    /// Are there elements a replicate re-resolves?
    pub(super) fn has_references(&self) -> bool {
        let s = &self.spec;
        !(s.pairs.is_empty()
            && s.excludes.is_empty()
            && s.tendons.is_empty()
            && s.equalities.is_empty()
            && s.actuators.is_empty()
            && s.sensors.is_empty()
            && s.numerics.is_empty()
            && s.texts.is_empty()
            && s.tuples.is_empty())
    }

    /// The object lists of the current spec (`MakeLists` and `ProcessLists`): the tree's
    /// objects in depth-first order from the world, then every other list.
    pub(super) fn spec_lists(&self) -> Lists {
        let mut tree: [Vec<Entry>; 6] = Default::default();
        let mut stack = vec![0usize];
        while let Some(b) = stack.pop() {
            let body = &self.spec.bodies[b];
            let id = tree[0].len();
            let at = |name: &str, kind: i32| Entry {
                name: name.to_string(),
                body: id,
                kind,
            };
            let defaults = &self.spec.defaults;
            tree[0].push(at(&body.name, 0));
            tree[1]
                .extend((body.joints.iter()).map(|j| at(&j.name, defaults[j.default].joint.jtype)));
            tree[2]
                .extend((body.geoms.iter()).map(|g| at(&g.name, defaults[g.default].geom.gtype)));
            tree[3].extend(body.sites.iter().map(|x| at(&x.name, 0)));
            tree[4].extend(body.cameras.iter().map(|x| at(&x.name, 0)));
            tree[5].extend(body.lights.iter().map(|x| at(&x.name, 0)));
            stack.extend(body.bodies.iter().rev());
        }
        let mut lists = Lists::default();
        let types = [
            OBJ_BODY, OBJ_JOINT, OBJ_GEOM, OBJ_SITE, OBJ_CAMERA, OBJ_LIGHT,
        ];
        for (ty, list) in types.into_iter().zip(tree) {
            lists.set(ty, list);
        }
        let s = &self.spec;
        lists.set(OBJ_FLEX, Vec::new());
        lists.set(OBJ_PLUGIN, Vec::new());
        lists.set(OBJ_MESH, entries(&s.meshes, |x| &x.name));
        lists.set(OBJ_SKIN, entries(&s.skins, |x| &x.name));
        lists.set(OBJ_HFIELD, entries(&s.hfields, |x| &x.name));
        lists.set(OBJ_TEXTURE, entries(&s.textures, |x| &x.name));
        lists.set(OBJ_MATERIAL, entries(&s.materials, |x| &x.name));
        lists.set(OBJ_PAIR, entries(&s.pairs, |x| &x.name));
        lists.set(OBJ_EXCLUDE, entries(&s.excludes, |x| &x.name));
        lists.set(OBJ_EQUALITY, entries(&s.equalities, |x| &x.name));
        lists.set(OBJ_TENDON, entries(&s.tendons, |x| &x.name));
        lists.set(OBJ_ACTUATOR, entries(&s.actuators, |x| &x.name));
        lists.set(OBJ_SENSOR, entries(&s.sensors, |x| &x.name));
        lists.set(OBJ_NUMERIC, entries(&s.numerics, |x| &x.name));
        lists.set(OBJ_TEXT, entries(&s.texts, |x| &x.name));
        lists.set(OBJ_TUPLE, entries(&s.tuples, |x| &x.name));
        lists.set(OBJ_KEY, entries(&s.keys, |x| &x.name));
        lists
    }

    /// The referencing elements that resolve with a replica's suffix, copied (the second half
    /// of `mjs_attachFrame`). Returns how many were copied.
    pub(super) fn copy_references(&mut self, suffix: &str) -> Result<usize, XmlError> {
        if !self.has_references() {
            return Ok(0);
        }
        let mut lists = self.spec_lists();
        let s = &mut self.spec;
        Ok(copy_list(&mut s.pairs, suffix, &mut lists)?
            + copy_list(&mut s.excludes, suffix, &mut lists)?
            + copy_list(&mut s.tendons, suffix, &mut lists)?
            + copy_list(&mut s.equalities, suffix, &mut lists)?
            + copy_list(&mut s.actuators, suffix, &mut lists)?
            + copy_list(&mut s.sensors, suffix, &mut lists)?
            + copy_list(&mut s.numerics, suffix, &mut lists)?
            + copy_list(&mut s.texts, suffix, &mut lists)?
            + copy_list(&mut s.tuples, suffix, &mut lists)?)
    }

    /// After the temporary body was removed: the elements that resolved with it (in `old`,
    /// its lists from before) and no longer do, removed.
    pub(super) fn remove_dangling_references(&mut self, mut old: Lists) {
        // the model copy MuJoCo compares against holds only the tendons and actuators that
        // resolved in it
        old.set(OBJ_TENDON, resolving(&self.spec.tendons, &old));
        old.set(OBJ_ACTUATOR, resolving(&self.spec.actuators, &old));
        let mut new = self.spec_lists();
        let s = &mut self.spec;
        remove_list(&mut s.pairs, &old, &mut new);
        remove_list(&mut s.excludes, &old, &mut new);
        remove_list(&mut s.tendons, &old, &mut new);
        remove_list(&mut s.equalities, &old, &mut new);
        remove_list(&mut s.actuators, &old, &mut new);
        remove_list(&mut s.sensors, &old, &mut new);
    }
}
