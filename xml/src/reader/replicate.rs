//! The `replicate` meta-element: `count` copies of its contents, each in a frame moved by
//! `offset` and turned by `euler` relative to the previous one, with the names of the copies
//! suffixed `sep` + the copy's number (zero-padded to the digits of `count`).
//!
//! MuJoCo 3.1.6 (`mjXReader::Body`) builds this with its model-editing API, and the way it
//! does so shows in the compiled model, so it is reproduced step by step:
//!
//! 1. The contents are read `count` times into a temporary body `S` (a child of the
//!    enclosing body), each time inside a new frame `F_i` of `S` placed at the accumulated
//!    offset.
//! 2. After each reading, everything inside `F_i` is copied into the enclosing body with the
//!    suffix appended to every non-empty name (`mjs_attachFrame`). The originals stay in `S`.
//! 3. The copy also re-resolves the model's referencing elements against the suffixed names
//!    ([`namespace`](super::namespace)): a tendon, actuator, sensor... that refers to a
//!    replicated object gains one copy per replica, and numerics and texts are duplicated.
//! 4. Finally `S` is removed with the originals (`mjs_detachBody`), and so is every
//!    referencing element that only resolved through them.
//!
//! `S` and its frames stay in the spec's arenas until [`Spec::prune_detached`] at the end of
//! reading, so the indices held while reading nested replicates stay valid.

use super::attr::{self, read, text};
use super::dom::Elem;
use super::namespace::add_suffix;
use super::{info, Reader};
use crate::compiler::orient;
use crate::error::XmlError;
use crate::spec::{Body, Frame, Orientation, OrientationType};
use crate::util::frameaccum;

/// The most objects (frames, bodies, joints, geoms, sites, cameras, lights, and copies of
/// referencing elements) all replicates of a model may copy. MuJoCo 3.1.6 has no bound, but
/// its replicate takes time quadratic in the count (5,000 replicas of a body with a joint and
/// a geom take 3.6 s, 10,000 take 15 s, 20,000 take 167 s) and `count="300000"` had not
/// finished after 10 minutes; numerics, texts
/// and elements that refer to nothing double with every replica, so a modest `count` can ask
/// for billions. mjrs copies in linear time: 60,000 such replicas (240,000 copies) compile in
/// about 3 s.
pub const MAX_COPIES: usize = 1 << 18;

/// The most object names the replicas of a model with referencing elements (pairs, excludes,
/// tendons, equalities, actuators, sensors, numerics, texts, tuples) may list. Each replica then
/// re-resolves those elements against the names of every object of the model so far, as
/// MuJoCo's `mjs_attachFrame` does, so the work grows with the count times the model's size:
/// 2,000 replicas of a body with a joint and a geom next to one actuator take 2 s, 4,000 take
/// 9 s (just inside this bound, which counts every replica at the model's final size), and
/// 60,000 would take about 45 minutes.
pub const MAX_REFERENCE_WORK: usize = 1 << 26;

/// The objects in the bodies of `spec` so far: what one re-resolution of the referencing
/// elements lists.
fn tree_objects(bodies: &[Body]) -> usize {
    let objects = |b: &Body| {
        1 + b.frames.len()
            + b.joints.len()
            + b.geoms.len()
            + b.sites.len()
            + b.cameras.len()
            + b.lights.len()
    };
    bodies.iter().map(objects).sum()
}

/// The objects that the elements under `e` make, each `times` over, nested replicates
/// multiplied out (saturating), each replica's own frame included: what replicating them
/// copies. Walked with a stack, as the tree may be as deep as the parser allows.
fn planned_copies(e: &Elem, times: usize) -> usize {
    let mut total = 0usize;
    let mut stack = vec![(e, times)];
    while let Some((el, times)) = stack.pop() {
        for c in &el.children {
            let n = match c.name.as_str() {
                "replicate" => times.saturating_mul(count_attr(c)),
                "body" | "frame" | "joint" | "freejoint" | "geom" | "site" | "camera" | "light" => {
                    times
                }
                _ => continue,
            };
            total = total.saturating_add(n);
            stack.push((c, n));
        }
    }
    total
}

/// The `count` of a `replicate` element for [`planned_copies`]: 0 when it is missing or not a
/// positive integer (reading the element reports that).
fn count_attr(e: &Elem) -> usize {
    let count = e.attr("count").and_then(|c| c.trim().parse::<usize>().ok());
    count.unwrap_or(0)
}

/// The suffix of replica `i` of `count` (`UpdateString`): `sep` and `i` zero-padded to as many
/// digits as `count` has.
fn replica_suffix(sep: &str, count: i32, i: i32) -> String {
    let width = count.to_string().len();
    format!("{sep}{i:0width$}")
}

/// Does the chain of frames from `f` outwards contain `ancestor` (`mjCFrame::IsAncestor`)?
fn inside(frames: &[Frame], f: Option<usize>, ancestor: usize) -> bool {
    let mut f = f;
    while let Some(k) = f {
        if k == ancestor {
            return true;
        }
        f = frames[k].parent;
    }
    false
}

/// The lengths of a body's lists at one moment: the objects read into it afterwards follow.
#[derive(Clone, Copy)]
struct Mark {
    frames: usize,
    joints: usize,
    geoms: usize,
    sites: usize,
    cameras: usize,
    lights: usize,
    bodies: usize,
}

impl Mark {
    fn of(b: &Body) -> Mark {
        Mark {
            frames: b.frames.len(),
            joints: b.joints.len(),
            geoms: b.geoms.len(),
            sites: b.sites.len(),
            cameras: b.cameras.len(),
            lights: b.lights.len(),
            bodies: b.bodies.len(),
        }
    }

    /// A body holding the objects and child bodies `b` gained since this mark (a nested
    /// replicate's temporary body, removed again, leaves the earlier ones in place).
    fn read_since(&self, b: &Body) -> Body {
        let mut since = Body::new(b.parent, b.default);
        since.joints = b.joints[self.joints..].to_vec();
        since.geoms = b.geoms[self.geoms..].to_vec();
        since.sites = b.sites[self.sites..].to_vec();
        since.cameras = b.cameras[self.cameras..].to_vec();
        since.lights = b.lights[self.lights..].to_vec();
        since.bodies = b.bodies[self.bodies.min(b.bodies.len())..].to_vec();
        since
    }
}

/// The attributes of a `replicate` element.
struct Replicate {
    count: i32,
    offset: [f64; 3],
    euler: [f64; 3],
    /// The rotation from one replica to the next.
    rotation: [f64; 4],
    sep: String,
    childdef: Option<usize>,
}

impl Reader<'_> {
    /// Reads a `replicate` element declared in body `pbody` (inside `frame`, with default class
    /// `def`).
    pub(super) fn replicate(
        &mut self,
        e: &Elem,
        pbody: usize,
        frame: Option<usize>,
        def: usize,
    ) -> Result<(), XmlError> {
        let r = self.replicate_attrs(e)?;
        // refused before anything is copied, so that a large count fails at once
        let count = usize::try_from(r.count).unwrap_or(0);
        let planned = planned_copies(e, count).saturating_add(count);
        if self.copies.saturating_add(planned) > MAX_COPIES {
            return Err(e.error(format!(
                "replicate count=\"{}\" would make {planned} copies of objects, more than the \
                 {MAX_COPIES} mjrs allows in a model",
                r.count
            )));
        }
        if self.has_references() {
            // each replica lists the model's objects once: those so far, and at most `planned`
            let objects = tree_objects(&self.spec.bodies).saturating_add(planned);
            let work = count.saturating_mul(objects);
            if work > MAX_REFERENCE_WORK {
                return Err(e.error(format!(
                    "replicate count=\"{}\" in a model with referencing elements would \
                     re-resolve them against {work} object names, more than the \
                     {MAX_REFERENCE_WORK} mjrs allows",
                    r.count
                )));
            }
        }
        let s = self.spec.bodies.len();
        let sdef = r.childdef.unwrap_or(self.spec.bodies[pbody].default);
        self.spec.bodies.push(Body::new(Some(pbody), sdef));
        self.spec.bodies[pbody].bodies.push(s);
        self.replicated = true;

        let (mut pos, mut quat) = ([0.0; 3], [1.0, 0.0, 0.0, 0.0]);
        for i in 0..r.count {
            let mut f = Frame::new(s, frame, r.childdef.unwrap_or(def));
            f.info = info(e);
            f.pos = pos;
            frameaccum(&mut pos, &mut quat, &r.offset, &r.rotation);
            // each replica's orientation is computed afresh, not accumulated, for precision
            let n = f64::from(i);
            quat = self.euler_quat(&r.euler.map(|a| n * a));
            f.quat = quat;
            let mark = Mark::of(&self.spec.bodies[s]);
            let fi = self.push_frame(s, f);

            self.body(e, s, Some(fi))?;
            let suffix = replica_suffix(&r.sep, r.count, i);
            self.copies += self.attach(pbody, s, fi, mark, &suffix);
            self.copies += self.copy_references(&suffix)?;
            if self.copies > MAX_COPIES {
                return Err(e.error(format!(
                    "replicate makes more than {MAX_COPIES} copies of objects, the most mjrs allows"
                )));
            }
        }
        self.detach(pbody, s);
        Ok(())
    }

    fn replicate_attrs(&mut self, e: &Elem) -> Result<Replicate, XmlError> {
        let mut count = 0i32;
        attr::read_required(e, "count", core::slice::from_mut(&mut count), &mut self.w)?;
        let (mut offset, mut euler) = ([0.0; 3], [0.0; 3]);
        read(e, "offset", &mut offset, &mut self.w)?;
        read(e, "euler", &mut euler, &mut self.w)?;
        let childdef = match e.attr("childclass") {
            Some(c) => Some(
                self.find_default(c)
                    .ok_or_else(|| e.error("unknown default childclass"))?,
            ),
            None => None,
        };
        Ok(Replicate {
            count,
            offset,
            euler,
            rotation: self.euler_quat(&euler),
            sep: text(e, "sep").unwrap_or_default(),
            childdef,
        })
    }

    /// The rotation of Euler angles in the model's angle unit and sequence.
    fn euler_quat(&self, euler: &[f64; 3]) -> [f64; 4] {
        let alt = Orientation {
            kind: OrientationType::Euler,
            euler: *euler,
            ..Orientation::default()
        };
        let mut q = [1.0, 0.0, 0.0, 0.0];
        // the sequence was checked when `compiler` was read, so this cannot fail
        let _ = orient::resolve(&mut q, self.spec.degree, &self.spec.euler, &alt);
        q
    }

    /// Copies what frame `fi` of the temporary body `s` holds into `pbody`, names suffixed
    /// (`mjCBody::operator+=(const mjCFrame&)`). Returns how many objects it copied.
    ///
    /// MuJoCo looks through all of `s`, which holds every earlier replica too; what `fi` holds
    /// was read after `mark`, so only that part is looked through, in the same order, and a
    /// replicate takes time linear in its count instead of quadratic.
    fn attach(&mut self, pbody: usize, s: usize, fi: usize, mark: Mark, suffix: &str) -> usize {
        let nframes = self.spec.frames.len();
        let mut fmap = std::collections::HashMap::new();
        let mut top = self.spec.frames[fi].clone();
        top.body = pbody;
        fmap.insert(fi, self.push_frame(pbody, top));
        // `s` gains no frames here (the copies go to `pbody`)
        for k in mark.frames..self.spec.bodies[s].frames.len() {
            let f = self.spec.bodies[s].frames[k];
            if f != fi && inside(&self.spec.frames, Some(f), fi) {
                let mut copy = self.spec.frames[f].clone();
                copy.body = pbody;
                copy.parent = copy.parent.map(|p| fmap[&p]);
                add_suffix(&mut copy.name, suffix);
                fmap.insert(f, self.push_frame(pbody, copy));
            }
        }
        let frames = &self.spec.frames;
        let keep = |frame: Option<usize>| inside(frames, frame, fi);
        let mut src = mark.read_since(&self.spec.bodies[s]);
        src.joints.retain(|x| keep(x.frame));
        src.geoms.retain(|x| keep(x.frame));
        src.sites.retain(|x| keep(x.frame));
        src.cameras.retain(|x| keep(x.frame));
        src.lights.retain(|x| keep(x.frame));
        src.bodies.retain(|&b| keep(self.spec.bodies[b].frame));
        let mut n = rename_objects(&mut src, &fmap, suffix);
        let dst = &mut self.spec.bodies[pbody];
        dst.joints.append(&mut src.joints);
        dst.geoms.append(&mut src.geoms);
        dst.sites.append(&mut src.sites);
        dst.cameras.append(&mut src.cameras);
        dst.lights.append(&mut src.lights);
        for b in src.bodies {
            let frame = self.spec.bodies[b].frame.map(|f| fmap[&f]);
            let copy = self.copy_body(b, pbody, suffix, &mut n);
            self.spec.bodies[copy].frame = frame;
            self.spec.bodies[pbody].bodies.push(copy);
        }
        n + self.spec.frames.len() - nframes
    }

    /// Adds a frame to the arena and to `body`'s list; returns its index.
    fn push_frame(&mut self, body: usize, frame: Frame) -> usize {
        let id = self.spec.frames.len();
        self.spec.frames.push(frame);
        self.spec.bodies[body].frames.push(id);
        id
    }

    /// Deep copy of body `b` and its subtree as a child of `parent`, every name suffixed
    /// (`mjCBody`'s copy constructor followed by `NameSpace`). Returns the copy's index; the
    /// caller sets its frame and adds it to the parent's children. `n` counts the objects
    /// copied.
    fn copy_body(&mut self, b: usize, parent: usize, suffix: &str, n: &mut usize) -> usize {
        let id = self.spec.bodies.len();
        let mut body = self.spec.bodies[b].clone();
        body.parent = Some(parent);
        add_suffix(&mut body.name, suffix);
        let (frames, children) = (
            std::mem::take(&mut body.frames),
            std::mem::take(&mut body.bodies),
        );
        self.spec.bodies.push(body);
        let mut fmap = std::collections::HashMap::new();
        for f in frames {
            let mut copy = self.spec.frames[f].clone();
            copy.body = id;
            copy.parent = copy.parent.map(|p| fmap[&p]);
            add_suffix(&mut copy.name, suffix);
            fmap.insert(f, self.push_frame(id, copy));
        }
        *n += 1 + rename_objects(&mut self.spec.bodies[id], &fmap, suffix);
        for c in children {
            let frame = self.spec.bodies[c].frame.map(|f| fmap[&f]);
            let copy = self.copy_body(c, id, suffix, n);
            self.spec.bodies[copy].frame = frame;
            self.spec.bodies[id].bodies.push(copy);
        }
        id
    }

    /// Removes the temporary body from its parent (`mjs_detachBody`), then the referencing
    /// elements that only resolved through its contents.
    fn detach(&mut self, pbody: usize, s: usize) {
        let old = self.has_references().then(|| self.spec_lists());
        self.spec.bodies[pbody].bodies.retain(|&b| b != s);
        if let Some(old) = old {
            self.remove_dangling_references(old);
        }
    }
}

/// Points a copied body's objects at the copied frames and suffixes their names (and the
/// target bodies of cameras and lights). Returns how many objects that is.
fn rename_objects(
    b: &mut Body,
    fmap: &std::collections::HashMap<usize, usize>,
    suffix: &str,
) -> usize {
    let frame = |f: Option<usize>| f.map(|f| fmap[&f]);
    for x in &mut b.joints {
        x.frame = frame(x.frame);
        add_suffix(&mut x.name, suffix);
    }
    for x in &mut b.geoms {
        x.frame = frame(x.frame);
        add_suffix(&mut x.name, suffix);
    }
    for x in &mut b.sites {
        x.frame = frame(x.frame);
        add_suffix(&mut x.name, suffix);
    }
    for x in &mut b.cameras {
        x.frame = frame(x.frame);
        add_suffix(&mut x.name, suffix);
        add_suffix(&mut x.targetbody, suffix);
    }
    for x in &mut b.lights {
        x.frame = frame(x.frame);
        add_suffix(&mut x.name, suffix);
        add_suffix(&mut x.targetbody, suffix);
    }
    b.joints.len() + b.geoms.len() + b.sites.len() + b.cameras.len() + b.lights.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_are_zero_padded_to_the_digits_of_count() {
        assert_eq!(replica_suffix("", 2, 1), "1");
        assert_eq!(replica_suffix("_", 10, 3), "_03");
        assert_eq!(replica_suffix("-", 101, 7), "-007");
        assert_eq!(replica_suffix("", 100, 99), "099");
    }

    #[test]
    fn ancestry_follows_enclosing_frames() {
        let mut frames = vec![Frame::new(0, None, 0), Frame::new(0, Some(0), 0)];
        frames.push(Frame::new(0, Some(1), 0));
        assert!(inside(&frames, Some(2), 0));
        assert!(inside(&frames, Some(1), 1));
        assert!(!inside(&frames, Some(0), 1));
        assert!(!inside(&frames, None, 0));
    }
}
