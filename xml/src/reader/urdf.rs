//! URDF import: a `robot` document to [`Spec`] (MuJoCo 3.1.6's `mjXURDF`, `xml_urdf.cc`, as
//! `mjParseXML` runs it).
//!
//! The reader walks the document in MuJoCo's passes: the MuJoCo-specific `<mujoco>` section
//! (only its `compiler`, `option` and `size`), the material table (every named `material` with
//! a `color`, anywhere in the document), the link names, the joints' parent/child links, the
//! body tree (depth first from each link without a parent, in link order), then every link's
//! inertial and geoms, then every joint. URDF input gets `strippath`, `fusestatic` and
//! `discardvisual` on before the `<mujoco>` section is read, and radians after it. The base
//! links stay welded to the world (MuJoCo's XML loader imports them as static bodies).
//!
//! What MuJoCo 3.1.6 does not read is ignored here too: `mimic`, `safety_controller`,
//! `calibration`, `transmission`, `gazebo`, joint `velocity` limits, and any other element.
//! Objects made by this reader carry no source line, as in MuJoCo (compile errors about them
//! name the object without a line).

use std::collections::{HashMap, HashSet};

use mjrs_core::types::*;

use super::attr::{self, read, read1, read_required, text_required, Warnings};
use super::dom::{Document, Elem, Resources};
use super::Reader;
use crate::compiler::orient;
use crate::error::XmlError;
use crate::spec::{Body, Geom, Joint, Limited, Mesh, Orientation, OrientationType, Spec};
use crate::util;

/// URDF joint types (`urJoint_map`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JointKind {
    Revolute,
    Continuous,
    Prismatic,
    Fixed,
    Floating,
    Planar,
}

const JOINT_TYPES: &[(&str, JointKind)] = &[
    ("revolute", JointKind::Revolute),
    ("continuous", JointKind::Continuous),
    ("prismatic", JointKind::Prismatic),
    ("fixed", JointKind::Fixed),
    ("floating", JointKind::Floating),
    ("planar", JointKind::Planar),
];

/// The name of the default class every URDF object belongs to.
const MAIN: &str = "main";

/// Reads a parsed document whose root is `robot` (MuJoCo's URDF branch of `mjParseXML`).
/// `modeldir` is the model file's directory with a trailing separator ("" for the working
/// directory). Returns the spec and the reader's warnings.
pub fn read_urdf(
    doc: &Document,
    modeldir: &str,
    res: &dyn Resources,
) -> Result<(Spec, Vec<String>), XmlError> {
    let mut spec = Spec {
        modelfiledir: modeldir.to_string(),
        ..Spec::default()
    };
    spec.strippath = true;
    spec.fusestatic = true;
    spec.discardvisual = true;
    let mut u = Urdf {
        r: Reader::new(spec, res),
        links: Vec::new(),
        parent: Vec::new(),
        children: Vec::new(),
        materials: Vec::new(),
        geom_names: HashSet::new(),
        bodies: HashMap::from([("world".to_string(), 0)]),
    };
    u.parse(&doc.root)?;
    Ok((u.r.spec, u.r.w.list))
}

/// The URDF reader's state (`mjXURDF`'s tables).
struct Urdf<'a> {
    /// The spec being filled, its warnings, and the MJCF section readers.
    r: Reader<'a>,
    /// Link names in document order (`urName`).
    links: Vec<String>,
    /// Each link's parent link (`urParent`).
    parent: Vec<Option<usize>>,
    /// Each link's child links, in joint order (`urChildren`).
    children: Vec<Vec<usize>>,
    /// Named materials with a color (`urMat`, `urRGBA`).
    materials: Vec<(String, [f32; 4])>,
    /// Geom names given so far (`urGeomNames`).
    geom_names: HashSet<String>,
    /// Bodies in the tree by name, the world included (what `mjs_findChild` from the world
    /// finds: link names are unique, and a link named `world` is the world body).
    bodies: HashMap<String, usize>,
}

/// `FindSubElem`: the only child named `name`, if any. A repeated element is an error at its
/// first occurrence.
fn find_sub<'e>(e: &'e Elem, name: &str) -> Result<Option<&'e Elem>, XmlError> {
    let mut found: Option<&Elem> = None;
    for c in e.children.iter().filter(|c| c.name == name) {
        if let Some(first) = found {
            return Err(first.error(format!("repeated element: '{name}'")));
        }
        found = Some(c);
    }
    Ok(found)
}

/// `FindSubElem` with `required`: a missing element is an error at `e`.
fn find_required<'e>(e: &'e Elem, name: &str) -> Result<&'e Elem, XmlError> {
    find_sub(e, name)?.ok_or_else(|| e.error(format!("missing element: '{name}'")))
}

/// `ReadAttrArr<double, N>`: exactly `N` numbers if the attribute is present. Unlike `ReadAttr`,
/// MuJoCo stops parsing after `N` numbers, so whatever follows them is "too much data" even
/// when it is not a number.
fn read_arr<const N: usize>(
    e: &Elem,
    name: &str,
    w: &mut Warnings,
) -> Result<Option<[f64; N]>, XmlError> {
    let Some(text) = e.attr(name) else {
        return Ok(None);
    };
    let tokens: Vec<&str> = text.split_ascii_whitespace().collect();
    if tokens.len() > N {
        // the first N tokens are still parsed (and can fail) before the excess is noticed
        let head = Elem {
            name: e.name.clone(),
            attrs: vec![(name.to_string(), tokens[..N].join(" "))],
            children: Vec::new(),
            line: e.line,
            file: e.file.clone(),
            include_dir: e.include_dir.clone(),
        };
        attr::values::<f64>(&head, name, w)?;
        return Err(e.error(format!("attribute '{name}' has too much data")));
    }
    let mut v = [0.0; N];
    read(e, name, &mut v, w)?;
    Ok(Some(v))
}

/// `mjXURDF::Origin`: the pose in the `origin` child of `e` (identity when absent); `rpy` are
/// fixed-axis X, Y, Z rotations in radians.
fn origin(e: &Elem, w: &mut Warnings) -> Result<([f64; 3], [f64; 4]), XmlError> {
    let mut pos = [0.0; 3];
    let mut quat = [1.0, 0.0, 0.0, 0.0];
    if let Some(o) = find_sub(e, "origin")? {
        read(o, "xyz", &mut pos, w)?;
        let mut alt = Orientation::default();
        if read(o, "rpy", &mut alt.euler, w)? {
            alt.kind = OrientationType::Euler;
            // "XYZ" is a valid sequence: resolving cannot fail
            let _ = orient::resolve(&mut quat, false, b"XYZ", &alt);
        }
    }
    Ok((pos, quat))
}

/// A joint of the main class, as `mjs_addJoint` makes it, at the body origin.
fn new_joint(name: String, jtype: i32, axis: Option<[f64; 3]>) -> Joint {
    let mut j = Joint {
        name,
        classname: MAIN.into(),
        jtype,
        ..Joint::default()
    };
    if let Some(a) = axis {
        j.axis = a;
    }
    j
}

impl Urdf<'_> {
    /// `mjXURDF::Parse`.
    fn parse(&mut self, root: &Elem) -> Result<(), XmlError> {
        if let Some(mjc) = find_sub(root, "mujoco")? {
            if let Some(s) = find_sub(mjc, "compiler")? {
                self.r.compiler(s)?;
            }
            if let Some(s) = find_sub(mjc, "option")? {
                self.r.option(s)?;
            }
            if let Some(s) = find_sub(mjc, "size")? {
                self.r.size(s)?;
            }
        }
        // URDF angles are radians whatever the compiler section says
        self.r.spec.degree = false;
        if let Some(name) = root.attr("name") {
            self.r.spec.modelname = name.to_string();
        }
        self.make_materials(root)?;

        for e in root.children_named("link") {
            let name = text_required(e, "name")?;
            if self.find_link(&name).is_some() {
                // MuJoCo raises this without an element; the repeated link locates it here
                return Err(e.error("repeated URDF name: "));
            }
            self.links.push(name);
            self.parent.push(None);
            self.children.push(Vec::new());
        }

        for e in root.children_named("joint") {
            let parent = self.find_link(&joint_link(e, "parent")?);
            let child = self.find_link(&joint_link(e, "child")?);
            let (Some(parent), Some(child)) = (parent, child) else {
                return Err(e.error("URDF joint parent or child missing"));
            };
            if self.parent[child].is_some() {
                // MuJoCo's format string has no placeholder: the link name is not printed
                return Err(e.error("URDF body has multiple parents:"));
            }
            self.parent[child] = Some(parent);
            self.children[parent].push(child);
        }

        for i in 0..self.links.len() {
            if self.parent[i].is_none() {
                self.add_to_tree(i)?;
            }
        }
        for e in root.children_named("link") {
            self.link(e)?;
        }
        for e in root.children_named("joint") {
            self.joint(e)?;
        }

        // the base links sit at the world origin; the XML loader imports them as static
        // bodies, so they get no free joint
        for i in 0..self.links.len() {
            if self.parent[i].is_none() {
                if let Some(&b) = self.bodies.get(&self.links[i]) {
                    let body = &mut self.r.spec.bodies[b];
                    body.pos = [0.0; 3];
                    body.quat = [1.0, 0.0, 0.0, 0.0];
                }
            }
        }
        Ok(())
    }

    /// `FindName` in the link table.
    fn find_link(&self, name: &str) -> Option<usize> {
        self.links.iter().position(|l| l == name)
    }

    /// `AddToTree`: the bodies of link `root` and its descendants, depth first, children in
    /// joint order. A link named `world` is the world body itself.
    fn add_to_tree(&mut self, root: usize) -> Result<(), XmlError> {
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            let parent = match self.parent[n] {
                Some(p) => {
                    let pname = &self.links[p];
                    *self.bodies.get(pname).ok_or_else(|| {
                        XmlError::model(format!(
                            "URDF body parent should already be in tree: {pname}"
                        ))
                    })?
                }
                None => 0,
            };
            if self.links[n] != "world" {
                let spec = &mut self.r.spec;
                let id = spec.bodies.len();
                let mut b = Body::new(Some(parent), spec.bodies[parent].default);
                b.name.clone_from(&self.links[n]);
                spec.bodies.push(b);
                spec.bodies[parent].bodies.push(id);
                self.bodies.insert(self.links[n].clone(), id);
            }
            stack.extend(self.children[n].iter().rev());
        }
        Ok(())
    }

    /// `MakeMaterials`: every named `material` with a `color` in the subtree of `e`, the
    /// first definition of a name winning.
    fn make_materials(&mut self, e: &Elem) -> Result<(), XmlError> {
        if e.name == "material" {
            if let Some(name) = e.attr("name") {
                if !self.materials.iter().any(|(n, _)| n == name) {
                    if let Some(color) = find_sub(e, "color")? {
                        let mut rgba = [0.0f32; 4];
                        read_required(color, "rgba", &mut rgba, &mut self.r.w)?;
                        self.materials.push((name.to_string(), rgba));
                    }
                }
            }
        }
        for c in &e.children {
            self.make_materials(c)?;
        }
        Ok(())
    }

    /// `mjXURDF::Body`: a link's inertial and its visual and collision geoms.
    fn link(&mut self, e: &Elem) -> Result<(), XmlError> {
        let name = text_required(e, "name")?;
        let Some(&b) = self.bodies.get(&name) else {
            return Err(e.error("URDF body not found"));
        };
        if let Some(inertial) = find_sub(e, "inertial")? {
            self.inertial(inertial, b)?;
        }
        let body = &mut self.r.spec.bodies[b];
        body.pos = [0.0; 3];
        body.quat = [1.0, 0.0, 0.0, 0.0];

        // the color of the last visual applies to the geoms after it; the name of the last
        // named geom to later unnamed ones
        let mut rgba = [-1.0f32, 0.0, 0.0, 0.0];
        let mut geom_name = String::new();
        for c in &e.children {
            let collision = match c.name.as_str() {
                "visual" => false,
                "collision" => true,
                _ => continue,
            };
            if !collision {
                self.visual_color(c, &mut rgba)?;
                if self.r.spec.discardvisual {
                    continue;
                }
            }
            let mut g = self.geom(c, collision)?;
            if rgba[0] >= 0.0 {
                g.rgba = rgba;
            }
            if let Some(n) = c.attr("name") {
                geom_name = n.to_string();
            }
            if self.geom_names.insert(geom_name.clone()) {
                g.name.clone_from(&geom_name);
            } else {
                self.r.w.warn(&format!(
                    "Geom with duplicate name '{geom_name}' encountered in URDF, creating an unnamed geom."
                ));
            }
            self.r.spec.bodies[b].geoms.push(g);
        }
        Ok(())
    }

    /// A link's `inertial`: mass, and the full inertia turned into principal axes composed
    /// with the `origin` rotation. An all-zero inertia counts as not given; one without
    /// positive eigenvalues keeps the origin frame and a zero diagonal.
    fn inertial(&mut self, e: &Elem, b: usize) -> Result<(), XmlError> {
        let w = &mut self.r.w;
        let (ipos, iquat) = origin(e, w)?;
        let mut mass = 0.0;
        read_required(
            find_required(e, "mass")?,
            "value",
            core::slice::from_mut(&mut mass),
            w,
        )?;
        let inertia = find_required(e, "inertia")?;
        let mut full = [0.0; 6];
        for (k, a) in ["ixx", "iyy", "izz", "ixy", "ixz", "iyz"]
            .into_iter()
            .enumerate()
        {
            read_required(inertia, a, &mut full[k..=k], w)?;
        }
        if full.iter().all(|&x| x == 0.0) {
            full[0] = f64::NAN;
        }
        let body = &mut self.r.spec.bodies[b];
        body.explicitinertial = true;
        body.ipos = ipos;
        body.mass = mass;
        body.fullinertia = full;
        let mut lquat = [1.0, 0.0, 0.0, 0.0];
        if let Some(Ok((q, diag))) = orient::full_inertia(&full) {
            lquat = q;
            body.inertia = diag;
        }
        body.iquat = util::mulquat(&iquat, &lquat);
        Ok(())
    }

    /// The color a visual's `material` gives: its own `color`, else the named material's
    /// color when the table has it (`rgba` unchanged otherwise).
    fn visual_color(&mut self, e: &Elem, rgba: &mut [f32; 4]) -> Result<(), XmlError> {
        let Some(m) = find_sub(e, "material")? else {
            return Ok(());
        };
        if let Some(color) = find_sub(m, "color")? {
            read_required(color, "rgba", rgba, &mut self.r.w)?;
        } else {
            let name = text_required(m, "name")?;
            if let Some((_, c)) = self.materials.iter().find(|(n, _)| *n == name) {
                *rgba = *c;
            }
        }
        Ok(())
    }

    /// `mjXURDF::Geom`: the shape and pose of a `visual` or `collision` element. Visual geoms
    /// do not collide, are massless and go to group 1.
    fn geom(&mut self, e: &Elem, collision: bool) -> Result<Geom, XmlError> {
        let geometry = find_required(e, "geometry")?;
        let mut g = Geom {
            classname: MAIN.into(),
            gtype: GEOM_BOX,
            ..Geom::default()
        };
        if !collision {
            g.contype = 0;
            g.conaffinity = 0;
            g.group = 1;
            g.density = 0.0;
        }
        let w = &mut self.r.w;
        if let Some(s) = find_sub(geometry, "box")? {
            read_required(s, "size", &mut g.size, w)?;
            for x in &mut g.size {
                *x /= 2.0;
            }
        } else if let Some(s) = find_sub(geometry, "cylinder")? {
            g.gtype = GEOM_CYLINDER;
            read_required(s, "radius", &mut g.size[0..1], w)?;
            read_required(s, "length", &mut g.size[1..2], w)?;
            g.size[1] /= 2.0;
        } else if let Some(s) = find_sub(geometry, "sphere")? {
            g.gtype = GEOM_SPHERE;
            read_required(s, "radius", &mut g.size[0..1], w)?;
        } else if let Some(s) = find_sub(geometry, "capsule")? {
            g.gtype = GEOM_CAPSULE;
            read_required(s, "radius", &mut g.size[0..1], w)?;
            read_required(s, "length", &mut g.size[1..2], w)?;
            g.size[1] /= 2.0;
        } else if let Some(s) = find_sub(geometry, "mesh")? {
            g.gtype = GEOM_MESH;
            g.meshname = self.mesh(s)?;
        } else {
            return Err(geometry.error("visual geometry specification not found"));
        }
        let (pos, quat) = origin(e, &mut self.r.w)?;
        g.pos = pos;
        g.quat = quat;
        Ok(g)
    }

    /// The mesh asset of a `mesh` geometry, named after its file: reused when a mesh of that
    /// name has the same scale, else a new one (named with a `1` appended when the name is
    /// taken). Returns the mesh name.
    fn mesh(&mut self, e: &Elem) -> Result<String, XmlError> {
        let mut file = text_required(e, "filename")?;
        let scale = read_arr::<3>(e, "scale", &mut self.r.w)?.unwrap_or([1.0; 3]);
        if self.r.spec.strippath {
            file = util::strippath(&file).to_string();
        }
        let mut name = util::stripext(util::strippath(&file)).to_string();
        let meshes = &mut self.r.spec.meshes;
        let id = match meshes.iter().position(|m| m.name == name) {
            Some(i) if meshes[i].scale == scale => i,
            found => {
                if found.is_some() {
                    name.push('1');
                }
                meshes.push(Mesh {
                    classname: MAIN.into(),
                    ..Mesh::default()
                });
                meshes.len() - 1
            }
        };
        let m = &mut meshes[id];
        m.file = file;
        m.name.clone_from(&name);
        m.scale = scale;
        Ok(name)
    }

    /// `mjXURDF::Joint`: the child body's frame, and its joints (none for `fixed`, three for
    /// `planar`: slides along the plane's x and y, a hinge about its normal).
    fn joint(&mut self, e: &Elem) -> Result<(), XmlError> {
        let ty = text_required(e, "type")?;
        let Some(&(_, kind)) = JOINT_TYPES.iter().find(|(k, _)| *k == ty) else {
            return Err(e.error("invalid joint type in URDF joint definition"));
        };
        let name = text_required(e, "name")?;
        let pe = find_required(e, "parent")?;
        if !self.bodies.contains_key(&text_required(pe, "link")?) {
            return Err(pe.error("invalid parent name in URDF joint definition"));
        }
        let ce = find_required(e, "child")?;
        let Some(&b) = self.bodies.get(&text_required(ce, "link")?) else {
            return Err(ce.error("invalid child name in URDF joint definition"));
        };

        let w = &mut self.r.w;
        let (pos, quat) = origin(e, w)?;
        let body = &mut self.r.spec.bodies[b];
        body.pos = pos;
        body.quat = quat;
        let mut axis = [1.0, 0.0, 0.0];
        if let Some(a) = find_sub(e, "axis")? {
            read_required(a, "xyz", &mut axis, w)?;
        }

        let mut joints = match kind {
            JointKind::Revolute | JointKind::Continuous => {
                vec![new_joint(name, JNT_HINGE, Some(axis))]
            }
            JointKind::Prismatic => vec![new_joint(name, JNT_SLIDE, Some(axis))],
            JointKind::Fixed => return Ok(()),
            JointKind::Floating => vec![new_joint(name, JNT_FREE, None)],
            JointKind::Planar => {
                let mat = util::quat2mat(&util::z2quat(&axis));
                vec![
                    new_joint(
                        format!("{name}_TX"),
                        JNT_SLIDE,
                        Some([mat[0], mat[3], mat[6]]),
                    ),
                    new_joint(
                        format!("{name}_TY"),
                        JNT_SLIDE,
                        Some([mat[1], mat[4], mat[7]]),
                    ),
                    new_joint(format!("{name}_RZ"), JNT_HINGE, Some(axis)),
                ]
            }
        };

        if let Some(d) = find_sub(e, "dynamics")? {
            read1(d, "damping", &mut joints[0].damping, w)?;
            read1(d, "friction", &mut joints[0].frictionloss, w)?;
            let (damping, frictionloss) = (joints[0].damping, joints[0].frictionloss);
            for j in &mut joints[1..] {
                j.damping = damping;
                j.frictionloss = frictionloss;
            }
        }

        // limits apply to the first joint only (the x slide of a planar joint)
        if let Some(l) = find_sub(e, "limit")? {
            let j = &mut joints[0];
            let haslower = read1(l, "lower", &mut j.range[0], w)?;
            let hasupper = read1(l, "upper", &mut j.range[1], w)?;
            if haslower != hasupper || j.range[0] > j.range[1] {
                j.limited = Limited::False;
            }
            let mut effort = 0.0f64;
            read1(l, "effort", &mut effort, w)?;
            let effort = effort.abs();
            if effort > 0.0 {
                j.actfrcrange = [-effort, effort];
            }
        }

        self.r.spec.bodies[b].joints.append(&mut joints);
        Ok(())
    }
}

/// The `link` attribute of a joint's required `parent` or `child` element.
fn joint_link(joint: &Elem, which: &str) -> Result<String, XmlError> {
    text_required(find_required(joint, which)?, "link")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::dom::parse_document;
    use mjrs_std::ResourceError;

    struct NoFiles;

    impl Resources for NoFiles {
        fn read(&self, path: &str) -> Result<crate::reader::dom::ResourceFile, ResourceError> {
            Err(ResourceError::NotFound(path.to_owned()))
        }
        fn exists(&self, _: &str) -> bool {
            false
        }
    }

    fn read_str(text: &str) -> Result<(Spec, Vec<String>), XmlError> {
        let doc = parse_document(text.as_bytes(), "test.urdf", "", &NoFiles)?;
        crate::reader::read_document(&doc, "", &NoFiles)
    }

    fn message(text: &str) -> (String, String, u32) {
        match read_str(text) {
            Err(XmlError::Parse {
                message,
                element,
                line,
                ..
            }) => (message, element, line),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    fn body<'s>(s: &'s Spec, name: &str) -> &'s Body {
        s.bodies.iter().find(|b| b.name == name).unwrap()
    }

    const ARM: &str = r#"<robot name="arm">
  <link name="base"/>
  <joint name="j2" type="prismatic">
    <parent link="l1"/><child link="l2"/>
    <origin xyz="0 0 1"/>
    <axis xyz="0 0 1"/>
    <limit lower="-0.5" effort="-7"/>
  </joint>
  <link name="l1">
    <inertial><origin xyz="0.1 0 0" rpy="0 0 1.5707963"/><mass value="2"/>
      <inertia ixx="1" iyy="2" izz="3" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><cylinder radius="0.1" length="1"/></geometry></collision>
  </link>
  <link name="l2"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="l1"/>
    <origin xyz="1 2 3" rpy="0.5 0 0"/>
    <dynamics damping="0.3" friction="0.2"/>
    <limit lower="-1" upper="1" effort="10" velocity="3"/>
  </joint>
</robot>"#;

    #[test]
    fn bodies_follow_the_joint_tree() {
        let (s, w) = read_str(ARM).unwrap();
        assert!(w.is_empty());
        assert_eq!(s.modelname, "arm");
        assert!(s.strippath && s.fusestatic && s.discardvisual && !s.degree);
        let names: Vec<&str> = s.bodies.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["world", "base", "l1", "l2"]);
        assert_eq!(s.bodies[0].bodies, [1]);
        assert_eq!(s.bodies[2].parent, Some(1));
        let l1 = body(&s, "l1");
        assert_eq!(l1.pos, [1.0, 2.0, 3.0]);
        let h = 0.25f64;
        let want = [h.cos(), h.sin(), 0.0, 0.0];
        assert!(l1.quat.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-15));
        let j = &l1.joints[0];
        assert_eq!(
            (j.name.as_str(), j.jtype, j.axis),
            ("j1", JNT_HINGE, [1.0, 0.0, 0.0])
        );
        assert_eq!((j.damping, j.frictionloss), (0.3, 0.2));
        assert_eq!((j.range, j.limited), ([-1.0, 1.0], Limited::Auto));
        assert_eq!(j.actfrcrange, [-10.0, 10.0]);
        assert!(l1.explicitinertial);
        assert_eq!((l1.mass, l1.ipos), (2.0, [0.1, 0.0, 0.0]));
        assert_eq!(l1.inertia, [3.0, 2.0, 1.0]);
        assert_eq!(l1.geoms[0].gtype, GEOM_CYLINDER);
        assert_eq!(l1.geoms[0].size, [0.1, 0.5, 0.0]);
        // one bound only: not limited, effort taken by magnitude
        let j2 = &body(&s, "l2").joints[0];
        assert_eq!(
            (j2.jtype, j2.limited, j2.actfrcrange),
            (JNT_SLIDE, Limited::False, [-7.0, 7.0])
        );
        // base links are static
        assert!(body(&s, "base").joints.is_empty());
    }

    #[test]
    fn zero_inertia_counts_as_not_given() {
        let (s, _) = read_str(
            r#"<robot><link name="a"><inertial><mass value="1"/>
            <inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial></link></robot>"#,
        )
        .unwrap();
        let a = body(&s, "a");
        assert!(a.fullinertia[0].is_nan());
        assert_eq!((a.inertia, a.iquat), ([0.0; 3], [1.0, 0.0, 0.0, 0.0]));
        assert_eq!(s.modelname, "MuJoCo Model");
    }

    #[test]
    fn planar_and_floating_joints() {
        let (s, _) = read_str(
            r#"<robot><link name="a"/><link name="b"/><link name="c"/>
            <joint name="p" type="planar"><parent link="a"/><child link="b"/>
              <axis xyz="0 0 1"/><dynamics damping="2"/><limit lower="0" upper="1"/></joint>
            <joint name="f" type="floating"><parent link="b"/><child link="c"/></joint></robot>"#,
        )
        .unwrap();
        let b = body(&s, "b");
        let names: Vec<&str> = b.joints.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(names, ["p_TX", "p_TY", "p_RZ"]);
        assert_eq!(b.joints[0].axis, [1.0, 0.0, 0.0]);
        assert_eq!(b.joints[1].axis, [0.0, 1.0, 0.0]);
        assert!(b.joints.iter().all(|j| j.damping == 2.0));
        assert_eq!(b.joints[0].range, [0.0, 1.0]);
        assert_eq!(b.joints[2].range, [0.0, 0.0]);
        assert_eq!(body(&s, "c").joints[0].jtype, JNT_FREE);
    }

    #[test]
    fn colors_names_and_meshes() {
        let (s, w) = read_str(
            r#"<robot><mujoco><compiler discardvisual="false" strippath="false"/></mujoco>
            <material name="red"><color rgba="1 0 0 1"/></material>
            <link name="a">
              <visual name="v"><geometry><sphere radius="1"/></geometry><material name="red"/></visual>
              <collision><geometry><mesh filename="dir/m.stl"/></geometry></collision>
              <collision name="c"><geometry><mesh filename="m.obj" scale="2 2 2"/></geometry></collision>
              <collision name="c"><geometry><mesh filename="other/m.stl"/></geometry></collision>
            </link></robot>"#,
        )
        .unwrap();
        let g = &body(&s, "a").geoms;
        assert_eq!(
            (g[0].name.as_str(), g[0].group, g[0].contype, g[0].density),
            ("v", 1, 0, 0.0)
        );
        assert_eq!(g[0].rgba, [1.0, 0.0, 0.0, 1.0]);
        // the unnamed collision reuses the visual's name: a duplicate, left unnamed
        assert_eq!(g[1].name, "");
        assert_eq!(g[1].rgba, [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(g[2].name, "c");
        assert_eq!(g[3].name, "");
        assert_eq!(w.len(), 2);
        assert_eq!(
            w[0],
            "Geom with duplicate name 'v' encountered in URDF, creating an unnamed geom."
        );
        let meshes: Vec<(&str, &str, f64)> = s
            .meshes
            .iter()
            .map(|m| (m.name.as_str(), m.file.as_str(), m.scale[0]))
            .collect();
        assert_eq!(meshes, [("m", "other/m.stl", 1.0), ("m1", "m.obj", 2.0)]);
        assert_eq!(
            (g[1].meshname.as_str(), g[2].meshname.as_str()),
            ("m", "m1")
        );
    }

    #[test]
    fn world_link_is_the_world_body() {
        let (s, _) = read_str(
            r#"<robot><link name="world"/><link name="a"/>
            <joint name="j" type="fixed"><parent link="world"/><child link="a"/>
            <origin xyz="0 0 2"/></joint></robot>"#,
        )
        .unwrap();
        assert_eq!(s.bodies.len(), 2);
        assert_eq!(
            (s.bodies[1].name.as_str(), s.bodies[1].parent),
            ("a", Some(0))
        );
        assert_eq!(s.bodies[1].pos, [0.0, 0.0, 2.0]);
    }

    #[test]
    fn errors_read_as_mujoco_words_them() {
        let e = |m: &str, el: &str, l: u32| (m.to_string(), el.to_string(), l);
        assert_eq!(
            message("<robot><link name=\"a\"/>\n<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint></robot>"),
            e("URDF joint parent or child missing", "joint", 2)
        );
        assert_eq!(
            message("<robot><link name=\"a\"/><link name=\"b\"/>\n<joint name=\"j\" type=\"hinge\"><parent link=\"a\"/><child link=\"b\"/></joint></robot>"),
            e("invalid joint type in URDF joint definition", "joint", 2)
        );
        assert_eq!(
            message("<robot><link name=\"a\"/>\n<link name=\"a\"/></robot>"),
            e("repeated URDF name: ", "link", 2)
        );
        assert_eq!(
            message("<robot><link/></robot>"),
            e("required attribute missing: 'name'", "link", 1)
        );
        assert_eq!(
            message("<robot><link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n<joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/></joint>\n<joint name=\"k\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint></robot>"),
            e("URDF body has multiple parents:", "joint", 3)
        );
        assert_eq!(
            message("<robot><link name=\"a\"/><link name=\"b\"/>\n<joint name=\"j\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint><joint name=\"k\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint></robot>"),
            e("URDF body not found", "link", 1)
        );
        assert_eq!(
            message("<robot><link name=\"a\"><collision>\n<geometry><cone/></geometry></collision></link></robot>"),
            e("visual geometry specification not found", "geometry", 2)
        );
        assert_eq!(
            message("<robot><link name=\"a\"><collision><geometry>\n<mesh filename=\"m.stl\" scale=\"1 1 1 x\"/></geometry></collision></link></robot>"),
            e("attribute 'scale' has too much data", "mesh", 2)
        );
        assert_eq!(
            message("<robot><link name=\"a\"><collision><geometry>\n<box size=\"1 1\"/></geometry></collision></link></robot>"),
            e("attribute 'size' does not have enough data", "box", 2)
        );
        assert_eq!(
            message("<robot><link name=\"a\">\n<inertial/><inertial/></link></robot>"),
            e("repeated element: 'inertial'", "inertial", 2)
        );
        assert_eq!(
            message(
                "<robot><link name=\"a\">\n<inertial><mass value=\"1\"/></inertial></link></robot>"
            ),
            e("missing element: 'inertia'", "inertial", 2)
        );
    }

    #[test]
    fn other_roots_are_refused() {
        let err = read_str("<model/>").unwrap_err();
        assert!(err
            .to_string()
            .contains("Unrecognized XML model type: 'model'"));
        assert!(read_str("<ROBOT><link name=\"a\"/></ROBOT>").is_ok());
    }
}
