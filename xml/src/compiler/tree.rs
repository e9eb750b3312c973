//! The kinematic tree: bodies with their frames, geoms, joints, sites, cameras and lights
//! (`mjCBody::Compile` and the `Compile` of each object in `user_objects.cc`).

use mjrs_core::math::quat::{mul_quat, rot_vec_quat};
use mjrs_core::types::*;

use super::orient::{full_inertia, resolve};
use super::plugin::{PluginUser, UserKind};
use super::{npos_nvel, CGeom, Compiler};
use crate::bvh::{self, BoundingVolume};
use crate::error::XmlError;
use crate::spec::Info;
use crate::util::*;

/// `mjMAXVAL`.
const MAXVAL: f64 = 1e10;

/// `checksize`: positive sizes for the type.
fn checksize(size: &[f64; 3], ty: i32, name: &str, id: usize, info: &Info) -> Result<(), XmlError> {
    if ty == GEOM_PLANE {
        if size[2] <= 0.0 {
            return Err(XmlError::compile(
                "plane size(3) must be positive",
                name,
                id,
                info,
            ));
        }
    } else {
        for (i, &s) in size.iter().enumerate().take(geominfo(ty)) {
            if s <= 0.0 {
                return Err(XmlError::compile(
                    format!("size {i} must be positive in geom"),
                    name,
                    id,
                    info,
                ));
            }
        }
    }
    Ok(())
}

/// `checklimited`: without `autolimits`, a range needs an explicit `limited`.
pub(crate) fn checklimited(
    autolimits: bool,
    entity: &str,
    attr: &str,
    hasrange: bool,
    name: &str,
    id: usize,
    info: &Info,
) -> Result<(), XmlError> {
    if !autolimits && hasrange {
        return Err(XmlError::compile(
            format!(
                "{entity} has `{attr}range` but not `{attr}limited`. set the autolimits=\"true\" \
                 compiler option, specify `{attr}limited` explicitly (\"true\" or \"false\"), or \
                 remove the `{attr}range` attribute."
            ),
            name,
            id,
            info,
        ));
    }
    Ok(())
}

/// Size, position and orientation of a capsule, cylinder, box or ellipsoid given by `fromto`.
fn fromto_frame(
    ty: i32,
    fromto: &[f64; 6],
    pos: &mut [f64; 3],
    quat: &mut [f64; 4],
    size: &mut [f64; 3],
) -> Result<(), &'static str> {
    if ![GEOM_CAPSULE, GEOM_CYLINDER, GEOM_ELLIPSOID, GEOM_BOX].contains(&ty) {
        return Err("fromto requires capsule, cylinder, box or ellipsoid in geom");
    }
    if pos.iter().any(|&p| p != 0.0) {
        return Err("both pos and fromto defined in geom");
    }
    let mut vec = [
        fromto[0] - fromto[3],
        fromto[1] - fromto[4],
        fromto[2] - fromto[5],
    ];
    size[1] = normvec(&mut vec) / 2.0;
    if size[1] < EPS {
        return Err("fromto points too close in geom");
    }
    if ty == GEOM_ELLIPSOID || ty == GEOM_BOX {
        size[2] = size[1];
        size[1] = size[0];
    }
    *pos = [
        (fromto[0] + fromto[3]) / 2.0,
        (fromto[1] + fromto[4]) / 2.0,
        (fromto[2] + fromto[5]) / 2.0,
    ];
    *quat = z2quat(&vec);
    Ok(())
}

impl Compiler<'_> {
    /// Compiles every body in id order (`mjCBody::Compile`).
    pub(super) fn compile_bodies(&mut self) -> Result<(), XmlError> {
        for id in 0..self.bodies.len() {
            self.compile_body(id)?;
        }
        Ok(())
    }

    /// A frame's pose in its body (`mjCFrame::Compile`): its own pose composed onto its
    /// enclosing frames'.
    fn compile_frame(&mut self, f: usize) -> Result<(), XmlError> {
        if self.frames[f].compiled {
            return Ok(());
        }
        let sf = &self.spec.frames[f];
        let mut quat = sf.quat;
        resolve(&mut quat, self.spec.degree, &self.spec.euler, &sf.alt).map_err(|e| {
            XmlError::compile(
                format!("orientation specification error '{e}' in site {f}"),
                &sf.name,
                f,
                &sf.info,
            )
        })?;
        let mut pos = sf.pos;
        if let Some(p) = sf.parent {
            self.compile_frame(p)?;
            let pf = &self.frames[p];
            frameaccum_child(&pf.pos, &pf.quat, &mut pos, &mut quat);
        }
        normvec(&mut quat);
        self.frames[f] = super::CFrame {
            pos,
            quat,
            compiled: true,
        };
        Ok(())
    }

    fn frame_pose(&self, f: Option<usize>) -> Option<([f64; 3], [f64; 4])> {
        f.map(|f| (self.frames[f].pos, self.frames[f].quat))
    }

    fn compile_body(&mut self, id: usize) -> Result<(), XmlError> {
        let sid = self.bodies[id].spec;
        for f in self.spec.bodies[sid].frames.clone() {
            self.compile_frame(f)?;
        }
        let b = &mut self.bodies[id];
        let (name, info) = (b.name.clone(), b.info.clone());
        let err = |msg: String| XmlError::compile(msg, &name, id, &info);
        if b.userdata.len() > self.nuser.body {
            return Err(err("user has more values than nuser_body in body".into()));
        }
        b.userdata.resize(self.nuser.body, 0.0);
        if !defined(b.pos[0]) {
            b.pos = [0.0; 3];
        }
        normvec(&mut b.quat);
        normvec(&mut b.iquat);
        let weldid = b.weldid;
        for c in b.bodies.clone() {
            let cb = &mut self.bodies[c];
            cb.parentid = id;
            cb.weldid = if cb.joints.is_empty() { weldid } else { c };
        }
        let b = &mut self.bodies[id];
        let alt = self.spec.bodies[sid].alt;
        resolve(&mut b.quat, self.spec.degree, &self.spec.euler, &alt)
            .map_err(|e| err(format!("error '{e}' in frame alternative")))?;
        if let Some(r) = full_inertia(&b.fullinertia) {
            let (q, i) = r.map_err(|e| err(format!("error '{e}' in inertia alternative")))?;
            b.iquat = q;
            b.inertia = i;
        }

        // geoms, phase 1
        let explicit = b.explicitinertial;
        let range = self.spec.inertiagrouprange;
        let fromgeom = self.spec.inertiafromgeom;
        for g in self.bodies[id].geoms.clone() {
            let grp = self.geoms[g].s.group;
            self.geoms[g].inferinertia = id > 0
                && (!explicit || fromgeom == crate::spec::InertiaFromGeom::True)
                && grp >= range[0]
                && grp <= range[1];
            self.compile_geom(g)?;
        }

        let b = &self.bodies[id];
        if id > 0
            && (fromgeom == crate::spec::InertiaFromGeom::True
                || (!defined(b.ipos[0]) && fromgeom == crate::spec::InertiaFromGeom::Auto))
        {
            self.geom_frame(id)?;
        }
        let b = &mut self.bodies[id];
        if !defined(b.ipos[0]) && !defined(b.pos[0]) {
            return Err(err("body pos and ipos are both undefined".into()));
        } else if !defined(b.ipos[0]) {
            b.ipos = b.pos;
            b.iquat = b.quat;
        } else if !defined(b.pos[0]) {
            b.pos = b.ipos;
            b.quat = b.iquat;
        }
        if id > 0 {
            b.mass = mju_max(b.mass, self.spec.boundmass);
            for x in &mut b.inertia {
                *x = mju_max(*x, self.spec.boundinertia);
            }
            if b.mass < 0.0 || b.inertia.iter().any(|&x| x < 0.0) {
                return Err(err("mass and inertia cannot be negative".into()));
            }
            let i = b.inertia;
            if i[0] + i[1] < i[2] || i[0] + i[2] < i[1] || i[1] + i[2] < i[0] {
                if self.spec.balanceinertia {
                    let m = (i[0] + i[1] + i[2]) / 3.0;
                    b.inertia = [m; 3];
                } else {
                    return Err(err(
                        "inertia must satisfy A + B >= C; use 'balanceinertia' to fix".into(),
                    ));
                }
            }
        }
        if let Some((fp, fq)) = self.frame_pose(self.spec.bodies[sid].frame) {
            let b = &mut self.bodies[id];
            frameaccum_child(&fp, &fq, &mut b.pos, &mut b.quat);
        }
        self.body_collision_summary(id);
        self.compute_bvh(id);

        // joints
        let mut dofnum = 0;
        for j in self.bodies[id].joints.clone() {
            dofnum += self.compile_joint(j)?;
        }
        self.bodies[id].dofnum = dofnum;
        if dofnum > 6 {
            return Err(err(format!("more than 6 dofs in body '{name}'")));
        }
        let mut hasball = false;
        for &j in &self.bodies[id].joints {
            let t = self.joints[j].s.jtype;
            if (t == JNT_BALL || t == JNT_HINGE) && hasball {
                return Err(err(format!("ball followed by rotation in body '{name}'")));
            }
            hasball |= t == JNT_BALL;
        }
        let b = &self.bodies[id];
        if b.mocap && (dofnum > 0 || b.parentid != 0) {
            return Err(err(format!(
                "mocap body '{name}' is not a fixed child of world"
            )));
        }
        if id > 0 {
            let par = &self.bodies[b.parentid];
            let mut xpos0 = rot_vec_quat(&b.pos, &par.xquat0);
            for k in 0..3 {
                xpos0[k] += par.xpos0[k];
            }
            let xquat0 = mul_quat(&par.xquat0, &b.quat);
            let b = &mut self.bodies[id];
            b.xpos0 = xpos0;
            b.xquat0 = xquat0;
        }
        for s in self.bodies[id].sites.clone() {
            self.compile_site(s)?;
        }
        for c in self.bodies[id].cameras.clone() {
            self.compile_camera(c)?;
        }
        for l in self.bodies[id].lights.clone() {
            self.compile_light(l)?;
        }
        if self.spec.discardvisual && self.bodies[id].geoms.iter().any(|&g| self.geoms[g].visual) {
            self.bodies[id].explicitinertial = true;
        }
        if let Some(r) = self.spec.bodies[sid].plugin.clone() {
            let b = &self.bodies[id];
            let user = PluginUser {
                kind: UserKind::Body,
                name: b.name.clone(),
                id,
                info: b.info.clone(),
            };
            self.bodies[id].plugin = Some(self.resolve_plugin(&r, user)?);
        }
        Ok(())
    }

    /// Contact type, affinity and margin of a body: the union over its geoms.
    pub(super) fn body_collision_summary(&mut self, id: usize) {
        let (mut ct, mut ca, mut margin) = (0, 0, 0.0f64);
        for &g in &self.bodies[id].geoms {
            let s = &self.geoms[g].s;
            ct |= s.contype;
            ca |= s.conaffinity;
            margin = mju_max(margin, s.margin);
        }
        let b = &mut self.bodies[id];
        b.contype = ct;
        b.conaffinity = ca;
        b.margin = margin;
    }

    /// The body's geom hierarchy, in its inertial frame (`ComputeBVH`).
    pub(super) fn compute_bvh(&mut self, id: usize) {
        let b = &self.bodies[id];
        if b.geoms.is_empty() {
            self.bodies[id].tree = crate::bvh::Bvh::default();
            return;
        }
        let leaves: Vec<BoundingVolume> = b
            .geoms
            .iter()
            .enumerate()
            .map(|(k, &g)| {
                let geom = &self.geoms[g];
                BoundingVolume {
                    contype: geom.s.contype,
                    conaffinity: geom.s.conaffinity,
                    aabb: geom.aabb,
                    pos: geom.s.pos,
                    quat: Some(geom.s.quat),
                    // the index in the body's geoms: global ids change when bodies are fused
                    id: k as i32,
                }
            })
            .collect();
        let tree = bvh::build(&leaves, &b.ipos, &b.iquat);
        if tree.too_deep {
            self.warnings
                .push(format!("max tree depth exceeded in body={}", b.name));
        }
        self.bodies[id].tree = tree;
    }

    /// The inertial frame from the geoms (`GeomFrame`).
    fn geom_frame(&mut self, id: usize) -> Result<(), XmlError> {
        let range = self.spec.inertiagrouprange;
        let sel: Vec<usize> = self.bodies[id]
            .geoms
            .iter()
            .copied()
            .filter(|&g| self.geoms[g].s.group >= range[0] && self.geoms[g].s.group <= range[1])
            .collect();
        let b = &self.bodies[id];
        let (name, info) = (b.name.clone(), b.info.clone());
        if sel.len() == 1 {
            let g = &self.geoms[sel[0]];
            let b = &mut self.bodies[id];
            b.ipos = g.s.pos;
            b.iquat = g.s.quat;
            b.mass = g.mass;
            b.inertia = g.inertia;
        } else if sel.len() > 1 {
            let mut mass = 0.0;
            let mut com = [0.0; 3];
            for &g in &sel {
                let g = &self.geoms[g];
                mass += g.mass;
                com[0] += g.mass * g.s.pos[0];
                com[1] += g.mass * g.s.pos[1];
                com[2] += g.mass * g.s.pos[2];
            }
            if mass < MINVAL {
                return Err(XmlError::compile(
                    "body mass is too small, cannot compute center of mass",
                    &name,
                    id,
                    &info,
                ));
            }
            let ipos = [com[0] / mass, com[1] / mass, com[2] / mass];
            let mut toti = [0.0; 6];
            for &g in &sel {
                let g = &self.geoms[g];
                let dpos = [
                    g.s.pos[0] - ipos[0],
                    g.s.pos[1] - ipos[1],
                    g.s.pos[2] - ipos[2],
                ];
                let i0 = globalinertia(&g.inertia, &g.s.quat);
                let i1 = offcenter(g.mass, &dpos);
                for j in 0..6 {
                    toti[j] = toti[j] + i0[j] + i1[j];
                }
            }
            let b = &mut self.bodies[id];
            b.mass = mass;
            b.ipos = ipos;
            b.fullinertia = toti;
            if let Some(r) = full_inertia(&toti) {
                let (q, i) = r.map_err(|e| {
                    XmlError::compile(
                        format!("error '{e}' in alternative for principal axes"),
                        &name,
                        id,
                        &info,
                    )
                })?;
                b.iquat = q;
                b.inertia = i;
            }
        }
        Ok(())
    }

    /// `mjCJoint::Compile`; returns the joint's number of dofs.
    fn compile_joint(&mut self, j: usize) -> Result<usize, XmlError> {
        let frame = self.frame_pose(self.joints[j].s.frame);
        let (autolimits, degree, nuser) = (self.spec.autolimits, self.spec.degree, self.nuser.jnt);
        let s = &mut self.joints[j].s;
        let (name, info) = (s.name.clone(), s.info.clone());
        let err = |msg: &str| XmlError::compile(msg, &name, j, &info);
        if s.userdata.len() > nuser {
            return Err(err("user has more values than nuser_jnt in joint"));
        }
        s.userdata.resize(nuser, 0.0);
        if (s.springdamper[0] != 0.0 || s.springdamper[1] != 0.0)
            && (s.springdamper[0] <= 0.0 || s.springdamper[1] <= 0.0)
        {
            return Err(err(
                "when defined, springdamper values must be positive in joint",
            ));
        }
        use crate::spec::Limited;
        if s.jtype == JNT_FREE {
            s.limited = Limited::False;
        } else if s.limited == Limited::Auto {
            let hasrange = !(s.range[0] == 0.0 && s.range[1] == 0.0);
            checklimited(autolimits, "joint", "", hasrange, &name, j, &info)?;
        }
        if s.limited.is_limited(&s.range) {
            if s.range[0] >= s.range[1] && s.jtype != JNT_BALL {
                return Err(err("range[0] should be smaller than range[1] in joint"));
            }
            if s.range[0] != 0.0 && s.jtype == JNT_BALL {
                return Err(err("range[0] should be 0 in ball joint"));
            }
            if degree && (s.jtype == JNT_HINGE || s.jtype == JNT_BALL) {
                for r in &mut s.range {
                    if *r != 0.0 {
                        *r *= PI / 180.0;
                    }
                }
            }
        }
        if s.jtype == JNT_FREE || s.jtype == JNT_BALL {
            s.actfrclimited = Limited::False;
        } else if s.actfrclimited == Limited::Auto {
            let hasrange = !(s.actfrcrange[0] == 0.0 && s.actfrcrange[1] == 0.0);
            checklimited(autolimits, "joint", "", hasrange, &name, j, &info)?;
        }
        if s.actfrclimited.is_limited(&s.actfrcrange) && s.actfrcrange[0] >= s.actfrcrange[1] {
            return Err(err(
                "actfrcrange[0] should be smaller than actfrcrange[1] in joint",
            ));
        }
        if let Some((_, fq)) = frame {
            s.axis = mulvecmat(&s.axis, &quat2mat(&fq));
        }
        if s.jtype == JNT_FREE || s.jtype == JNT_BALL {
            s.axis = [0.0, 0.0, 1.0];
        }
        if s.jtype == JNT_FREE {
            s.pos = [0.0; 3];
        }
        if normvec(&mut s.axis) < EPS {
            return Err(err("axis too small in joint"));
        }
        if s.jtype == JNT_FREE && s.limited == Limited::True {
            return Err(err("limits should not be defined in free joint"));
        }
        if s.jtype == JNT_FREE {
            s.pos = [0.0; 3];
        } else if let Some((fp, fq)) = frame {
            let mut q = [1.0, 0.0, 0.0, 0.0];
            frameaccum_child(&fp, &fq, &mut s.pos, &mut q);
        }
        if s.jtype == JNT_HINGE && degree {
            s.ref_ *= PI / 180.0;
            s.springref *= PI / 180.0;
        }
        Ok(npos_nvel(s.jtype).1)
    }

    /// `mjCGeom::Compile`.
    fn compile_geom(&mut self, gid: usize) -> Result<(), XmlError> {
        let frame = self.frame_pose(self.geoms[gid].s.frame);
        let weldid = self.bodies[self.geoms[gid].body].weldid;
        let nuser = self.nuser.geom;
        let (name, info) = (
            self.geoms[gid].s.name.clone(),
            self.geoms[gid].s.info.clone(),
        );
        let err = |msg: String| XmlError::compile(msg, &name, gid, &info);
        let g = &mut self.geoms[gid];
        if g.s.userdata.len() > nuser {
            return Err(err(format!(
                "user has more values than nuser_geom in geom '{name}' (id = {gid})"
            )));
        }
        g.s.userdata.resize(nuser, 0.0);
        if !(0..NGEOMTYPES).contains(&g.s.gtype) {
            return Err(err("invalid type in geom".into()));
        }
        if ![1, 3, 4, 6].contains(&g.s.condim) {
            return Err(err("invalid condim in geom".into()));
        }
        let is_mesh = g.s.gtype == GEOM_MESH || g.s.gtype == GEOM_SDF;
        if is_mesh && g.mesh.is_none() {
            return Err(err(format!(
                "mesh geom '{name}' (id = {gid}) must have valid meshid"
            )));
        }
        if (g.s.gtype == GEOM_HFIELD) != g.hfield.is_some() {
            return Err(err(format!(
                "hfield geom '{name}' (id = {gid}) must have valid hfieldid"
            )));
        }
        if g.s.gtype == GEOM_PLANE && weldid != 0 {
            return Err(err("plane only allowed in static bodies".into()));
        }
        g.visual = g.s.contype == 0 && g.s.conaffinity == 0;
        normvec(&mut g.s.quat);
        if defined(g.s.fromto[0]) {
            let s = &mut g.s;
            fromto_frame(s.gtype, &s.fromto, &mut s.pos, &mut s.quat, &mut s.size)
                .map_err(|e| err(e.into()))?;
        } else {
            resolve(&mut g.s.quat, self.spec.degree, &self.spec.euler, &g.s.alt).map_err(|e| {
                err(format!(
                    "orientation specification error '{e}' in geom {gid}"
                ))
            })?;
        }
        if let Some(mid) = g.mesh {
            self.place_mesh_geom(gid, mid)?;
        }
        let g = &mut self.geoms[gid];
        checksize(&g.s.size, g.s.gtype, &name, gid, &info)?;
        if let (GEOM_HFIELD, Some(h)) = (g.s.gtype, g.hfield) {
            let hs = self.spec.hfields[h].size;
            g.s.size = [hs[0], hs[1], 0.25 * hs[2] + 0.5 * hs[3]];
        } else if let (GEOM_MESH | GEOM_SDF, Some(m)) = (g.s.gtype, g.mesh) {
            let a = self.meshes[m].as_ref().map_or([0.0; 6], |m| m.aamm());
            g.s.size = [
                mju_max(a[0].abs(), a[3].abs()),
                mju_max(a[1].abs(), a[4].abs()),
                mju_max(a[2].abs(), a[5].abs()),
            ];
        }
        if g.s.size.iter().any(|s| s.is_nan()) {
            return Err(err("nan size in geom".into()));
        }
        self.compute_aabb(gid);
        if self.geoms[gid].inferinertia {
            self.geom_mass(gid)?;
        }
        let g = &mut self.geoms[gid];
        if g.s.fluid_ellipsoid > 0.0 {
            set_fluid_coefs(g);
        }
        if let Some(r) = g.s.plugin.clone() {
            let user = PluginUser {
                kind: UserKind::Geom,
                name,
                id: gid,
                info,
            };
            self.geoms[gid].plugin = Some(self.resolve_plugin(&r, user)?);
        }
        let g = &mut self.geoms[gid];
        if let Some((fp, fq)) = frame {
            frameaccum_child(&fp, &fq, &mut g.s.pos, &mut g.s.quat);
        }
        Ok(())
    }

    /// A geom with a mesh: non-mesh types are fitted to the mesh and forget it; the geom frame
    /// is offset by the mesh's frame, which the mesh remembers as `mesh_pos`/`mesh_quat`.
    fn place_mesh_geom(&mut self, gid: usize, mid: usize) -> Result<(), XmlError> {
        let fitaabb = self.spec.fitaabb;
        let g = &mut self.geoms[gid];
        if defined(g.s.fromto[0]) {
            return Err(XmlError::compile(
                "fromto cannot be used with mesh geom",
                &g.s.name,
                gid,
                &g.s.info,
            ));
        }
        let shell = g.s.shellinertia;
        let Some(mesh) = self.meshes[mid].as_mut() else {
            return Ok(());
        };
        let meshpos = if g.s.gtype != GEOM_MESH && g.s.gtype != GEOM_SDF {
            // the geom keeps its mesh reference: MuJoCo re-links it when it indexes assets again
            mesh.fit_geom(g.s.gtype, &mut g.s.size, g.s.fitscale, shell, fitaabb)?
        } else {
            mesh.pos(shell)
        };
        let mquat = mesh.quat(shell);
        frameaccum(&mut g.s.pos, &mut g.s.quat, &meshpos, &mquat);
        mesh.offset_pos = meshpos;
        mesh.offset_quat = mquat;
        Ok(())
    }

    /// `ComputeAABB`: the geom's box in its own frame, as (center, half sizes).
    fn compute_aabb(&mut self, gid: usize) {
        let g = &self.geoms[gid];
        let s = &g.s.size;
        let aamm: [f64; 6] = match g.s.gtype {
            GEOM_HFIELD => {
                let h = self.spec.hfields[g.hfield.unwrap_or(0)].size;
                [-h[0], -h[1], -h[3], h[0], h[1], h[2]]
            }
            GEOM_SPHERE => [-s[0], -s[0], -s[0], s[0], s[0], s[0]],
            GEOM_CAPSULE => [-s[0], -s[0], -(s[0] + s[1]), s[0], s[0], s[0] + s[1]],
            GEOM_CYLINDER => [-s[0], -s[0], -s[1], s[0], s[0], s[1]],
            GEOM_MESH | GEOM_SDF => g
                .mesh
                .and_then(|m| self.meshes[m].as_ref())
                .map_or([0.0; 6], |m| m.aamm()),
            GEOM_PLANE => [-MAXVAL, -MAXVAL, -MAXVAL, MAXVAL, MAXVAL, 0.0],
            _ => [-s[0], -s[1], -s[2], s[0], s[1], s[2]],
        };
        self.geoms[gid].aabb = [
            (aamm[3] + aamm[0]) / 2.0,
            (aamm[4] + aamm[1]) / 2.0,
            (aamm[5] + aamm[2]) / 2.0,
            (aamm[3] - aamm[0]) / 2.0,
            (aamm[4] - aamm[1]) / 2.0,
            (aamm[5] - aamm[2]) / 2.0,
        ];
    }

    /// `GetVolume`.
    fn geom_volume(&self, g: &CGeom) -> Result<f64, XmlError> {
        let s = &g.s.size;
        Ok(match g.s.gtype {
            GEOM_MESH | GEOM_SDF => match g.mesh.and_then(|m| self.meshes[m].as_ref()) {
                Some(m) => {
                    m.check(g.s.shellinertia)?;
                    m.volume(g.s.shellinertia)
                }
                None => 0.0,
            },
            GEOM_SPHERE => 4.0 * PI * s[0] * s[0] * s[0] / 3.0,
            GEOM_CAPSULE => {
                let height = 2.0 * s[1];
                PI * (s[0] * s[0] * height + 4.0 * s[0] * s[0] * s[0] / 3.0)
            }
            GEOM_CYLINDER => {
                let height = 2.0 * s[1];
                PI * s[0] * s[0] * height
            }
            GEOM_ELLIPSOID => 4.0 * PI * s[0] * s[1] * s[2] / 3.0,
            GEOM_HFIELD | GEOM_BOX => s[0] * s[1] * s[2] * 8.0,
            _ => 0.0,
        })
    }

    /// Mass and inertia of a geom from its mass or density.
    fn geom_mass(&mut self, gid: usize) -> Result<(), XmlError> {
        let g = &self.geoms[gid];
        let (name, info) = (g.s.name.clone(), g.s.info.clone());
        if defined(g.s.mass) {
            if g.s.mass == 0.0 {
                let g = &mut self.geoms[gid];
                g.mass = 0.0;
                g.s.density = 0.0;
            } else {
                let vol = self.geom_volume(g)?;
                if vol > MINVAL {
                    let vol2 = self.geom_volume(g)?;
                    let g = &mut self.geoms[gid];
                    g.mass = g.s.mass;
                    g.s.density = g.s.mass / vol2;
                    self.set_inertia(gid)?;
                }
            }
        } else if g.s.density == 0.0 {
            self.geoms[gid].mass = 0.0;
        } else {
            let vol = self.geom_volume(g)?;
            self.geoms[gid].mass = self.geoms[gid].s.density * vol;
            self.set_inertia(gid)?;
        }
        let g = &self.geoms[gid];
        if g.mass < 0.0 || g.inertia.iter().any(|&x| x < 0.0) || g.s.density < 0.0 {
            return Err(XmlError::compile(
                "mass, inertia or density are negative in geom",
                &name,
                gid,
                &info,
            ));
        }
        Ok(())
    }

    /// `SetInertia`: the diagonal inertia of a geom of known mass.
    fn set_inertia(&mut self, gid: usize) -> Result<(), XmlError> {
        let g = &self.geoms[gid];
        let m = g.mass;
        let s = g.s.size;
        let inertia = match g.s.gtype {
            GEOM_MESH | GEOM_SDF => match g.mesh.and_then(|i| self.meshes[i].as_ref()) {
                Some(mesh) => {
                    mesh.check(g.s.shellinertia)?;
                    let b = mesh.inertia_box(g.s.shellinertia);
                    [
                        m * (b[1] * b[1] + b[2] * b[2]) / 3.0,
                        m * (b[0] * b[0] + b[2] * b[2]) / 3.0,
                        m * (b[0] * b[0] + b[1] * b[1]) / 3.0,
                    ]
                }
                None => [0.0; 3],
            },
            _ if g.s.shellinertia => {
                return Err(XmlError::compile(
                    format!(
                        "typeinertia currently only available for meshes'{}' (id = {gid})",
                        g.s.name
                    ),
                    &g.s.name,
                    gid,
                    &g.s.info,
                ))
            }
            GEOM_SPHERE => [2.0 * m * s[0] * s[0] / 5.0; 3],
            GEOM_CAPSULE => {
                let height = 2.0 * s[1];
                let radius = s[0];
                let sphere_mass = m * 4.0 * radius / (4.0 * radius + 3.0 * height);
                let cylinder_mass = m - sphere_mass;
                let mut i0 = cylinder_mass * (3.0 * radius * radius + height * height) / 12.0;
                let mut i2 = cylinder_mass * radius * radius / 2.0;
                let sphere_inertia = 2.0 * sphere_mass * radius * radius / 5.0;
                i0 += sphere_inertia + sphere_mass * height * (3.0 * radius + 2.0 * height) / 8.0;
                i2 += sphere_inertia;
                [i0, i0, i2]
            }
            GEOM_CYLINDER => {
                let height = 2.0 * s[1];
                let i0 = m * (3.0 * s[0] * s[0] + height * height) / 12.0;
                [i0, i0, m * s[0] * s[0] / 2.0]
            }
            GEOM_ELLIPSOID => [
                m * (s[1] * s[1] + s[2] * s[2]) / 5.0,
                m * (s[0] * s[0] + s[2] * s[2]) / 5.0,
                m * (s[0] * s[0] + s[1] * s[1]) / 5.0,
            ],
            GEOM_HFIELD | GEOM_BOX => [
                m * (s[1] * s[1] + s[2] * s[2]) / 3.0,
                m * (s[0] * s[0] + s[2] * s[2]) / 3.0,
                m * (s[0] * s[0] + s[1] * s[1]) / 3.0,
            ],
            _ => [0.0; 3],
        };
        self.geoms[gid].inertia = inertia;
        Ok(())
    }

    /// `mjCSite::Compile`.
    fn compile_site(&mut self, sid: usize) -> Result<(), XmlError> {
        let frame = self.frame_pose(self.sites[sid].s.frame);
        let nuser = self.nuser.site;
        let (degree, seq) = (self.spec.degree, self.spec.euler);
        let s = &mut self.sites[sid].s;
        let (name, info) = (s.name.clone(), s.info.clone());
        let err = |msg: String| XmlError::compile(msg, &name, sid, &info);
        if s.userdata.len() > nuser {
            return Err(err("user has more values than nuser_site in site".into()));
        }
        s.userdata.resize(nuser, 0.0);
        if !(0..NGEOMTYPES).contains(&s.stype) {
            return Err(err("invalid type in site".into()));
        }
        if [GEOM_MESH, GEOM_HFIELD, GEOM_PLANE].contains(&s.stype) {
            return Err(err("meshes, hfields and planes not allowed in site".into()));
        }
        if defined(s.fromto[0]) {
            fromto_frame(s.stype, &s.fromto, &mut s.pos, &mut s.quat, &mut s.size)
                .map_err(|e| err(e.into()))?;
        } else {
            resolve(&mut s.quat, degree, &seq, &s.alt).map_err(|e| {
                err(format!(
                    "orientation specification error '{e}' in site {sid}"
                ))
            })?;
        }
        if let Some((fp, fq)) = frame {
            frameaccum_child(&fp, &fq, &mut s.pos, &mut s.quat);
        }
        normvec(&mut s.quat);
        checksize(&s.size, s.stype, &name, sid, &info)
    }

    /// `mjCCamera::Compile`.
    fn compile_camera(&mut self, cid: usize) -> Result<(), XmlError> {
        let frame = self.frame_pose(self.cameras[cid].s.frame);
        let nuser = self.nuser.cam;
        let (degree, seq, znear) = (
            self.spec.degree,
            self.spec.euler,
            self.spec.visual.map.znear,
        );
        let target = self.cameras[cid].s.targetbody.clone();
        let target_id = if target.is_empty() {
            None
        } else {
            Some(self.find(OBJ_BODY, &target))
        };
        let c = &mut self.cameras[cid];
        let s = &mut c.s;
        let (name, info) = (s.name.clone(), s.info.clone());
        let err = |msg: String| XmlError::compile(msg, &name, cid, &info);
        if s.userdata.len() > nuser {
            return Err(err("user has more values than nuser_cam in camera".into()));
        }
        s.userdata.resize(nuser, 0.0);
        resolve(&mut s.quat, degree, &seq, &s.alt).map_err(|e| {
            err(format!(
                "orientation specification error '{e}' in camera {cid}"
            ))
        })?;
        if let Some((fp, fq)) = frame {
            frameaccum_child(&fp, &fq, &mut s.pos, &mut s.quat);
        }
        normvec(&mut s.quat);
        if let Some(t) = target_id {
            c.targetbodyid = t.ok_or_else(|| err("unknown target body in camera".into()))? as i32;
        }
        let s = &mut c.s;
        if s.fovy >= 180.0 {
            // MuJoCo formats the double fovy with %d; the printed number is meaningless
            return Err(err(format!(
                "fovy too large in camera '{name}' (id = {cid}, value = {})",
                s.fovy
            )));
        }
        if (s.principal_length[0] != 0.0 && s.principal_pixel[0] != 0.0)
            || (s.principal_length[1] != 0.0 && s.principal_pixel[1] != 0.0)
        {
            return Err(err("principal length duplicated in camera".into()));
        }
        if (s.focal_length[0] != 0.0 && s.focal_pixel[0] != 0.0)
            || (s.focal_length[1] != 0.0 && s.focal_pixel[1] != 0.0)
        {
            return Err(err("focal length duplicated in camera".into()));
        }
        if s.sensor_size[0] > 0.0 && s.sensor_size[1] > 0.0 {
            let density = [
                s.resolution[0] / s.sensor_size[0],
                s.resolution[1] / s.sensor_size[1],
            ];
            s.intrinsic = [
                s.focal_pixel[0] / density[0] + s.focal_length[0],
                s.focal_pixel[1] / density[1] + s.focal_length[1],
                s.principal_pixel[0] / density[0] + s.principal_length[0],
                s.principal_pixel[1] / density[1] + s.principal_length[1],
            ];
            // C++ picks the float overload of atan2 for float arguments
            s.fovy = f64::from((s.sensor_size[1] / 2.0).atan2(s.intrinsic[1])) * 360.0 / PI;
        } else {
            s.intrinsic[0] = znear;
            s.intrinsic[1] = znear;
        }
        Ok(())
    }

    /// `mjCLight::Compile`: the frame moves the light but does not turn its direction.
    fn compile_light(&mut self, lid: usize) -> Result<(), XmlError> {
        let frame = self.frame_pose(self.lights[lid].s.frame);
        let target = self.lights[lid].s.targetbody.clone();
        let target_id = if target.is_empty() {
            None
        } else {
            Some(self.find(OBJ_BODY, &target))
        };
        let l = &mut self.lights[lid];
        let (name, info) = (l.s.name.clone(), l.s.info.clone());
        if let Some((fp, fq)) = frame {
            let mut q = [1.0, 0.0, 0.0, 0.0];
            frameaccum_child(&fp, &fq, &mut l.s.pos, &mut q);
        }
        if normvec(&mut l.s.dir) < MINVAL {
            return Err(XmlError::compile(
                "zero direction in light",
                &name,
                lid,
                &info,
            ));
        }
        if let Some(t) = target_id {
            l.targetbodyid = t.ok_or_else(|| {
                XmlError::compile("unknown target body in light", &name, lid, &info)
            })? as i32;
        }
        Ok(())
    }
}

/// `GetAddedMassKappa`: a 15-point Gauss-Kronrod quadrature of the added-mass integral of an
/// ellipsoid with semi-axes (dx, dy, dz).
fn added_mass_kappa(dx: f64, dy: f64, dz: f64) -> f64 {
    const W: [f64; 15] = [
        0.01146766, 0.03154605, 0.05239501, 0.07032663, 0.08450236, 0.09517529, 0.10221647,
        0.10474107, 0.10221647, 0.09517529, 0.08450236, 0.07032663, 0.05239501, 0.03154605,
        0.01146766,
    ];
    const L: [f64; 15] = [
        7.865151709349917e-08,
        1.7347976913907274e-05,
        0.0003548008144506193,
        0.002846636252924549,
        0.014094260903596077,
        0.053063261727396636,
        0.17041978741317773,
        0.5,
        1.4036301548686991,
        3.9353484827022642,
        11.644841677041734,
        39.53187807410903,
        177.5711362220801,
        1429.4772912937397,
        54087.416549217705,
    ];
    const D: [f64; 15] = [
        5.538677720489877e-05,
        0.002080868285293228,
        0.016514126520723166,
        0.07261900344370877,
        0.23985243401862602,
        0.6868318249020725,
        1.8551129519182894,
        5.0,
        14.060031152313941,
        43.28941239611009,
        156.58546376397112,
        747.9826085305024,
        5827.4042950027115,
        116754.0197944512,
        25482945.327264845,
    ];
    let invdx2 = 1.0 / (dx * dx);
    let invdy2 = 1.0 / (dy * dy);
    let invdz2 = 1.0 / (dz * dz);
    let scale = (dx * dx * dx * dy * dz).powf(0.4);
    let mut kappa = 0.0;
    for i in 0..15 {
        let lambda = scale * L[i];
        let denom = (1.0 + lambda * invdx2)
            * ((1.0 + lambda * invdx2) * (1.0 + lambda * invdy2) * (1.0 + lambda * invdz2)).sqrt();
        kappa += scale * D[i] / denom * W[i];
    }
    kappa * invdx2
}

/// `SetFluidCoefs`: the ellipsoid fluid model's virtual mass and inertia, written with the
/// user's coefficients into `geom_fluid` (`writeFluidGeomInteraction`).
fn set_fluid_coefs(g: &mut CGeom) {
    let s = &g.s.size;
    let (dx, dy, dz) = match g.s.gtype {
        GEOM_SPHERE => (s[0], s[0], s[0]),
        GEOM_CAPSULE => (s[0], s[0], s[1] + s[0]),
        GEOM_CYLINDER => (s[0], s[0], s[1]),
        _ => (s[0], s[1], s[2]),
    };
    let volume = 4.0 / 3.0 * PI * dx * dy * dz;
    let kx = added_mass_kappa(dx, dy, dz);
    let ky = added_mass_kappa(dy, dz, dx);
    let kz = added_mass_kappa(dz, dx, dy);
    let pow2 = |v: f64| v * v;
    let ixfac = pow2(dy * dy - dz * dz) * (kz - ky).abs()
        / MINVAL.max((2.0 * (dy * dy - dz * dz) + (dy * dy + dz * dz) * (ky - kz)).abs());
    let iyfac = pow2(dz * dz - dx * dx) * (kx - kz).abs()
        / MINVAL.max((2.0 * (dz * dz - dx * dx) + (dz * dz + dx * dx) * (kz - kx)).abs());
    let izfac = pow2(dx * dx - dy * dy) * (ky - kx).abs()
        / MINVAL.max((2.0 * (dx * dx - dy * dy) + (dx * dx + dy * dy) * (kx - ky)).abs());
    let c = &g.s.fluid_coefs;
    g.fluid = [
        g.s.fluid_ellipsoid,
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        volume * kx / MINVAL.max(2.0 - kx),
        volume * ky / MINVAL.max(2.0 - ky),
        volume * kz / MINVAL.max(2.0 - kz),
        volume * ixfac / 5.0,
        volume * iyfac / 5.0,
        volume * izfac / 5.0,
    ];
}
