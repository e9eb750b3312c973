//! The kinematic tree (`mjXWriter::Body`) and the default classes (`mjXWriter::Default`).
//!
//! As MuJoCo does, a body writes its inertial, joints, geoms, sites, cameras, lights, then its
//! child bodies: only the order within each kind matters to the compiler. An object declared in
//! a `frame` is written inside that frame (and its enclosing frames); consecutive objects of the
//! same frame share one `frame` element, so a frame may be written more than once (its name
//! only the first time). Frames keep their own pose, which the compiler composes as before.

use std::collections::HashSet;

use mjrs_core::types::JNT_FREE;

use super::elements as el;
use super::node::Node;
use crate::error::XmlError;
use crate::spec::*;

/// The body writer's state: the spec and the frames whose name was written.
pub struct TreeWriter<'a> {
    spec: &'a Spec,
    named: HashSet<usize>,
}

/// An object of a body with the frame it is declared in.
struct Item {
    frame: Option<usize>,
    node: Node,
}

impl<'a> TreeWriter<'a> {
    /// A writer for `spec`'s tree.
    pub fn new(spec: &'a Spec) -> Self {
        Self {
            spec,
            named: HashSet::new(),
        }
    }

    /// The default class objects declared in `frame` (or directly in the body) read from.
    fn context(&self, frame: Option<usize>, body: usize) -> usize {
        frame.map_or(self.spec.bodies[body].default, |f| {
            self.spec.frames[f].default
        })
    }

    /// The class `def` of an object.
    fn class(&self, def: usize) -> Result<&'a DefaultClass, XmlError> {
        self.spec
            .defaults
            .get(def)
            .ok_or_else(|| XmlError::model(format!("XML Write error: unknown default class {def}")))
    }

    /// Writes an object with `write` from its class `def`, and its `class` attribute when the
    /// class differs from the context.
    fn object(
        &self,
        name: &str,
        def: usize,
        context: usize,
        write: impl FnOnce(&mut Node, &'a DefaultClass) -> Result<(), XmlError>,
    ) -> Result<Node, XmlError> {
        let d = self.class(def)?;
        let mut n = Node::new(name);
        write(&mut n, d)?;
        if def != context {
            n.set_class(&d.name);
        }
        Ok(n)
    }

    /// The `worldbody` element.
    pub fn worldbody(&mut self) -> Result<Node, XmlError> {
        let mut n = Node::new("worldbody");
        self.contents(0, &mut n)?;
        Ok(n)
    }

    fn body(&mut self, id: usize) -> Result<Node, XmlError> {
        let b = &self.spec.bodies[id];
        let mut n = Node::new("body");
        let parent_default = b.parent.map_or(0, |p| self.spec.bodies[p].default);
        let proto = Body::new(b.parent, b.default);
        n.text_some("name", &b.name);
        if !b.childclass.is_empty() || b.default != parent_default {
            n.set("childclass", self.class(b.default)?.name.as_str());
        }
        n.nums("pos", &b.pos, &proto.pos);
        n.nums("quat", &b.quat, &proto.quat);
        n.orientation(&b.alt, &proto.alt);
        n.flag("mocap", b.mocap, proto.mocap);
        n.num("gravcomp", b.gravcomp, proto.gravcomp);
        n.vec("user", &b.userdata, &proto.userdata);
        if b.explicitinertial {
            let mut i = Node::new("inertial");
            i.set("pos", super::number::join(&b.ipos));
            i.nums("quat", &b.iquat, &proto.iquat);
            i.orientation(&b.ialt, &proto.ialt);
            i.set("mass", super::number::join(&[b.mass]));
            i.nums("diaginertia", &b.inertia, &proto.inertia);
            i.nums("fullinertia", &b.fullinertia, &proto.fullinertia);
            n.children.push(i);
        }
        if let Some(r) = &b.plugin {
            n.children.push(super::plugin::child(r, self.spec));
        }
        self.contents(id, &mut n)?;
        Ok(n)
    }

    /// The objects and child bodies of body `id`, appended to `n`.
    fn contents(&mut self, id: usize, n: &mut Node) -> Result<(), XmlError> {
        let spec = self.spec;
        let b = &spec.bodies[id];
        let mut items = Vec::new();
        for j in &b.joints {
            let ctx = self.context(j.frame, id);
            let node = if j.jtype == JNT_FREE && el::is_freejoint(j) {
                let mut e = Node::new("freejoint");
                e.text_some("name", &j.name);
                e.int("group", j.group, 0);
                e
            } else {
                self.object("joint", j.default, ctx, |e, d| el::joint(e, j, &d.joint))?
            };
            items.push(Item {
                frame: j.frame,
                node,
            });
        }
        for g in &b.geoms {
            let ctx = self.context(g.frame, id);
            let mut node = self.object("geom", g.default, ctx, |e, d| el::geom(e, g, &d.geom))?;
            if let Some(r) = &g.plugin {
                node.children.push(super::plugin::child(r, spec));
            }
            items.push(Item {
                frame: g.frame,
                node,
            });
        }
        for s in &b.sites {
            let ctx = self.context(s.frame, id);
            let node = self.object("site", s.default, ctx, |e, d| el::site(e, s, &d.site))?;
            items.push(Item {
                frame: s.frame,
                node,
            });
        }
        for c in &b.cameras {
            let ctx = self.context(c.frame, id);
            let node = self.object("camera", c.default, ctx, |e, d| el::camera(e, c, &d.camera))?;
            items.push(Item {
                frame: c.frame,
                node,
            });
        }
        for l in &b.lights {
            let ctx = self.context(l.frame, id);
            let node = self.object("light", l.default, ctx, |e, d| el::light(e, l, &d.light))?;
            items.push(Item {
                frame: l.frame,
                node,
            });
        }
        for &c in &b.bodies {
            let node = self.body(c)?;
            items.push(Item {
                frame: spec.bodies[c].frame,
                node,
            });
        }
        let chains: Vec<Vec<usize>> = items.iter().map(|it| self.chain(it.frame)).collect();
        let nodes: Vec<Node> = items.into_iter().map(|it| it.node).collect();
        let mut nodes = nodes.into_iter().map(Some).collect::<Vec<_>>();
        n.children
            .extend(self.nest(id, &chains, &mut nodes, 0, 0, chains.len()));
        Ok(())
    }

    /// The frames enclosing `frame`, outermost first.
    fn chain(&self, frame: Option<usize>) -> Vec<usize> {
        let mut out = Vec::new();
        let mut f = frame;
        while let Some(i) = f {
            out.push(i);
            f = self.spec.frames[i].parent;
        }
        out.reverse();
        out
    }

    /// Nests `nodes[lo..hi]` (whose frame chains agree up to `depth`) into frame elements.
    fn nest(
        &mut self,
        body: usize,
        chains: &[Vec<usize>],
        nodes: &mut [Option<Node>],
        depth: usize,
        lo: usize,
        hi: usize,
    ) -> Vec<Node> {
        let mut out = Vec::new();
        let mut i = lo;
        while i < hi {
            if chains[i].len() == depth {
                out.extend(nodes[i].take());
                i += 1;
                continue;
            }
            let f = chains[i][depth];
            let mut j = i + 1;
            while j < hi && chains[j].len() > depth && chains[j][depth] == f {
                j += 1;
            }
            let mut frame = self.frame(f, body);
            frame.children = self.nest(body, chains, nodes, depth + 1, i, j);
            out.push(frame);
            i = j;
        }
        out
    }

    /// A `frame` element: its name the first time, its child class when it differs from its
    /// context, its pose.
    fn frame(&mut self, f: usize, body: usize) -> Node {
        let fr = &self.spec.frames[f];
        let mut n = Node::new("frame");
        if self.named.insert(f) {
            n.text_some("name", &fr.name);
        }
        let context = self.context(fr.parent, body);
        if !fr.childclass.is_empty() || fr.default != context {
            n.set("childclass", self.spec.defaults[fr.default].name.as_str());
        }
        let proto = Frame::new(body, fr.parent, fr.default);
        n.nums("pos", &fr.pos, &proto.pos);
        n.nums("quat", &fr.quat, &proto.quat);
        n.orientation(&fr.alt, &proto.alt);
        n
    }
}

/// The `default` element of class `id` and its descendants, or `None` for a `main` class that
/// changes nothing and has no children.
pub fn default_class(spec: &Spec, id: usize) -> Result<Option<Node>, XmlError> {
    let c = &spec.defaults[id];
    let builtin;
    let p = match c.parent {
        Some(p) => &spec.defaults[p],
        None => {
            builtin = DefaultClass::named("main", None);
            &builtin
        }
    };
    let mut n = Node::new("default");
    n.set("class", c.name.as_str());
    let mut push = |e: Node| {
        if !e.attrs.is_empty() {
            n.children.push(e);
        }
    };
    let mut e = Node::new("mesh");
    el::mesh(&mut e, &c.mesh, &p.mesh);
    push(e);
    let mut e = Node::new("material");
    el::material(&mut e, &c.material, &p.material);
    push(e);
    let mut e = Node::new("joint");
    el::joint(&mut e, &c.joint, &p.joint)?;
    push(e);
    let mut e = Node::new("geom");
    el::geom(&mut e, &c.geom, &p.geom)?;
    push(e);
    let mut e = Node::new("site");
    el::site(&mut e, &c.site, &p.site)?;
    push(e);
    let mut e = Node::new("camera");
    el::camera(&mut e, &c.camera, &p.camera)?;
    // a camera element clears the class's user data: write one to drop the parent's
    let clears = c.camera.userdata.is_empty() && !p.camera.userdata.is_empty();
    if !e.attrs.is_empty() || clears {
        n.children.push(e);
    }
    let mut push = |e: Node| {
        if !e.attrs.is_empty() {
            n.children.push(e);
        }
    };
    let mut e = Node::new("light");
    el::light(&mut e, &c.light, &p.light)?;
    push(e);
    let mut e = Node::new("pair");
    el::pair(&mut e, &c.pair, &p.pair);
    push(e);
    let mut e = Node::new("equality");
    el::equality_common(&mut e, &c.equality, &p.equality);
    push(e);
    let mut e = Node::new("tendon");
    el::tendon(&mut e, &c.tendon, &p.tendon);
    push(e);
    n.children
        .extend(el::default_actuator(&c.actuator, &p.actuator)?);
    if c.parent.is_none() && n.children.is_empty() && c.children.is_empty() && c.name == "main" {
        return Ok(None);
    }
    for &k in &c.children {
        if let Some(child) = default_class(spec, k)? {
            n.children.push(child);
        }
    }
    Ok(Some(n))
}
