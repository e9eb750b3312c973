//! `compiler/fusestatic`: bodies without joints are merged into their parents (`FuseStatic`).
//!
//! MuJoCo skips fusing when anything could refer to a body, geom or site by id (skins, pairs,
//! excludes, equalities, tendons, actuators, sensors, tuples, cameras, lights). A fused body's
//! mass and inertia join its parent's, its children, geoms and sites move to the parent with
//! their frames composed, and ids are renumbered in depth-first order.

use super::orient::full_inertia;
use super::Compiler;
use crate::error::XmlError;
use crate::util::{frameaccum, globalinertia, offcenter, MINVAL};

/// `changeframe`: the child frame expressed in the body's parent.
fn changeframe(
    childpos: &mut [f64; 3],
    childquat: &mut [f64; 4],
    bodypos: &[f64; 3],
    bodyquat: &[f64; 4],
) {
    let (mut pos, mut quat) = (*bodypos, *bodyquat);
    frameaccum(&mut pos, &mut quat, childpos, childquat);
    *childpos = pos;
    *childquat = quat;
}

impl Compiler<'_> {
    pub(super) fn fuse_static(&mut self) -> Result<(), XmlError> {
        let s = &self.spec;
        if !s.skins.is_empty()
            || !s.pairs.is_empty()
            || !s.excludes.is_empty()
            || !s.equalities.is_empty()
            || !s.tendons.is_empty()
            || !s.actuators.is_empty()
            || !s.sensors.is_empty()
            || !s.tuples.is_empty()
            || !self.cameras.is_empty()
            || !self.lights.is_empty()
        {
            return Ok(());
        }
        let mut i = 1;
        while i < self.bodies.len() {
            if self.bodies[i].joints.is_empty() && !self.bodies[i].mocap {
                self.fuse_body(i)?;
            } else {
                i += 1;
            }
        }
        Ok(())
    }

    /// Merges body `i` into its parent and renumbers everything.
    fn fuse_body(&mut self, i: usize) -> Result<(), XmlError> {
        let p = self.bodies[i].parentid;
        if p > 0 && self.bodies[i].mass >= MINVAL {
            self.merge_inertia(i, p)?;
        }
        let (bpos, bquat) = (self.bodies[i].pos, self.bodies[i].quat);
        let children = self.bodies[i].bodies.clone();
        for &c in &children {
            let cb = &mut self.bodies[c];
            changeframe(&mut cb.pos, &mut cb.quat, &bpos, &bquat);
        }
        let at = self.bodies[p]
            .bodies
            .iter()
            .position(|&b| b == i)
            .ok_or_else(|| XmlError::model("Internal error: FuseStatic: body not found"))?;
        self.bodies[p].bodies.splice(at..=at, children);
        for g in std::mem::take(&mut self.bodies[i].geoms) {
            let s = &mut self.geoms[g].s;
            changeframe(&mut s.pos, &mut s.quat, &bpos, &bquat);
            self.geoms[g].body = p;
            self.bodies[p].geoms.push(g);
        }
        for x in std::mem::take(&mut self.bodies[i].sites) {
            let s = &mut self.sites[x].s;
            changeframe(&mut s.pos, &mut s.quat, &bpos, &bquat);
            self.sites[x].body = p;
            self.bodies[p].sites.push(x);
        }
        self.remove_body(i);
        let p = if p > i { p - 1 } else { p };
        self.reindex();
        self.body_collision_summary(p);
        self.compute_bvh(p);
        Ok(())
    }

    /// The parent's mass, center of mass and principal inertia with the child's added.
    fn merge_inertia(&mut self, i: usize, p: usize) -> Result<(), XmlError> {
        let b = &mut self.bodies[i];
        let (bpos, bquat) = (b.pos, b.quat);
        changeframe(&mut b.ipos, &mut b.iquat, &bpos, &bquat);
        let (b, par) = (&self.bodies[i], &self.bodies[p]);
        let mass = [par.mass, b.mass];
        let inertia = [par.inertia, b.inertia];
        let ipos = [par.ipos, b.ipos];
        let iquat = [par.iquat, b.iquat];
        let par = &mut self.bodies[p];
        par.mass = 0.0;
        par.ipos = [0.0; 3];
        for j in 0..2 {
            par.mass += mass[j];
            for k in 0..3 {
                par.ipos[k] += mass[j] * ipos[j][k];
            }
        }
        if par.mass < MINVAL {
            par.mass = 0.0;
            par.inertia = [0.0; 3];
            par.ipos = [0.0; 3];
            par.iquat = [1.0, 0.0, 0.0, 0.0];
            return Ok(());
        }
        for k in 0..3 {
            par.ipos[k] /= par.mass;
        }
        let mut toti = [0.0; 6];
        for j in 0..2 {
            let dpos = [
                ipos[j][0] - par.ipos[0],
                ipos[j][1] - par.ipos[1],
                ipos[j][2] - par.ipos[2],
            ];
            let a = globalinertia(&inertia[j], &iquat[j]);
            let b = offcenter(mass[j], &dpos);
            for k in 0..6 {
                toti[k] += a[k] + b[k];
            }
        }
        par.fullinertia = toti;
        if let Some(r) = full_inertia(&toti) {
            let (q, inert) = r.map_err(|e| {
                XmlError::model(format!("error '{e}' in fusing static body inertias"))
            })?;
            par.iquat = q;
            par.inertia = inert;
        }
        Ok(())
    }

    /// Drops body `i` from the body list and shifts the ids of the bodies after it.
    fn remove_body(&mut self, i: usize) {
        self.bodies.remove(i);
        let shift = |b: usize| if b > i { b - 1 } else { b };
        for b in &mut self.bodies {
            b.parentid = shift(b.parentid);
            for c in &mut b.bodies {
                *c = shift(*c);
            }
        }
        for j in &mut self.joints {
            j.body = shift(j.body);
        }
        for g in &mut self.geoms {
            g.body = shift(g.body);
        }
        for x in &mut self.sites {
            x.body = shift(x.body);
        }
    }

    /// `FuseReindex`: parents and weld ids from the tree, and the joint, geom and site lists in
    /// depth-first order.
    fn reindex(&mut self) {
        let mut order = Vec::new();
        let mut stack = vec![0usize];
        while let Some(b) = stack.pop() {
            order.push(b);
            stack.extend(self.bodies[b].bodies.iter().rev());
        }
        for &b in &order {
            let weld = self.bodies[b].weldid;
            for c in self.bodies[b].bodies.clone() {
                let cb = &mut self.bodies[c];
                cb.parentid = b;
                cb.weldid = if cb.joints.is_empty() { weld } else { c };
            }
        }
        let (mut jmap, mut gmap, mut smap) = (Vec::new(), Vec::new(), Vec::new());
        for &b in &order {
            let body = &mut self.bodies[b];
            for j in &mut body.joints {
                jmap.push(*j);
                *j = jmap.len() - 1;
            }
            for g in &mut body.geoms {
                gmap.push(*g);
                *g = gmap.len() - 1;
            }
            for x in &mut body.sites {
                smap.push(*x);
                *x = smap.len() - 1;
            }
        }
        self.joints = jmap.iter().map(|&j| self.joints[j].clone()).collect();
        self.geoms = gmap.iter().map(|&g| self.geoms[g].clone()).collect();
        self.sites = smap.iter().map(|&x| self.sites[x].clone()).collect();
    }
}
