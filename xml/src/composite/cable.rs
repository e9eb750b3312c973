//! Cables (`MakeCable`, `AddCableBody`): a chain of bodies along a curve, each the parent of
//! the next, connected by ball joints and oriented by a frame moving along the curve.

use mjrs_core::math::quat::{axis_angle2quat, rot_vec_quat};
use mjrs_core::types::*;

use super::{shape, Maker};
use crate::spec::{Joint, Site};
use crate::util::{crossvec, dot3, frame2quat, mulquat, normvec};

/// The frame of the next edge of a curve (`mju_updateFrame`): its orientation and length.
/// `normal` carries the edge normal from one call to the next; the first edge takes its
/// binormal from the next tangent, the others rotate the normal by the vertex's turn.
fn update_frame(
    normal: &mut [f64; 3],
    edge: &[f64; 3],
    tprv: &[f64; 3],
    tnxt: &[f64; 3],
    first: bool,
) -> ([f64; 4], f64) {
    let mut tangent = *edge;
    normvec(&mut tangent);
    let mut binormal;
    if first {
        binormal = crossvec(&tangent, tnxt);
        normvec(&mut binormal);
        *normal = crossvec(&binormal, &tangent);
        normvec(normal);
    } else {
        binormal = crossvec(tprv, &tangent);
        let angle = normvec(&mut binormal).atan2(dot3(tprv, &tangent));
        let darboux = axis_angle2quat(&binormal, angle);
        *normal = rot_vec_quat(normal, &darboux);
        normvec(normal);
        binormal = crossvec(&tangent, normal);
        normvec(&mut binormal);
    }
    let quat = frame2quat(&tangent, normal, &binormal);
    (quat, dot3(edge, edge).sqrt())
}

/// The difference of two single-precision vertices, computed in single precision as MuJoCo
/// does, then widened.
fn vdiff(v: &[f32], a: usize, b: usize) -> [f64; 3] {
    core::array::from_fn(|i| f64::from(v[3 * a + i] - v[3 * b + i]))
}

/// The chain's running state: the moving frame's normal and the previous body's orientation.
struct Frame {
    normal: [f64; 3],
    prev_quat: [f64; 4],
}

impl Maker<'_> {
    /// `MakeCable`.
    pub(super) fn cable(&mut self) -> Result<(), String> {
        if self.c.dim != 1 {
            return Err("Cable must be one-dimensional".into());
        }
        let gtype = self.c.def[0].geom.gtype;
        if !matches!(gtype, GEOM_CYLINDER | GEOM_CAPSULE | GEOM_BOX) {
            return Err("Cable geom type must be sphere, capsule or box".into());
        }
        let pre = self.c.prefix.clone();
        self.spec.texts.push(crate::spec::Text {
            name: format!("composite_{pre}"),
            data: format!("rope_{pre}"),
            info: Default::default(),
        });
        if self.c.uservert.is_empty() {
            self.curve_vertices()?;
        }
        let mut frame = Frame {
            normal: [0.0, 1.0, 0.0],
            prev_quat: [1.0, 0.0, 0.0, 0.0],
        };
        let mut body = self.at.body;
        for ix in 0..self.c.count[0] - 1 {
            body = self.cable_body(body, ix, &mut frame);
        }
        if gtype == GEOM_BOX {
            let inflate = 2.0 * self.c.def[0].geom.size[2];
            self.cable_skin(inflate);
        }
        Ok(())
    }

    /// Vertices along the curve given by `curve` and `size`.
    fn curve_vertices(&mut self) -> Result<(), String> {
        let c = &mut *self.c;
        let n1 = f64::from(c.count[0] - 1);
        for ix in 0..c.count[0] {
            let s = f64::from(ix);
            for k in 0..3 {
                let v = match c.curve[k] {
                    shape::LINE => s * c.size[0] / n1,
                    shape::COS => c.size[1] * (core::f64::consts::PI * s * c.size[2] / n1).cos(),
                    shape::SIN => c.size[1] * (core::f64::consts::PI * s * c.size[2] / n1).sin(),
                    shape::ZERO => 0.0,
                    other => return Err(format!("Invalid composite shape: {other}")),
                };
                c.uservert.push(v as f32);
            }
        }
        Ok(())
    }

    /// `AddCableBody`: the body of edge `ix` as a child of `parent`.
    fn cable_body(&mut self, parent: usize, ix: i32, frame: &mut Frame) -> usize {
        let pre = self.c.prefix.clone();
        let lastidx = self.c.count[0] - 2;
        let (first, last) = (ix == 0, ix == lastidx);
        let secondlast = ix == lastidx - 1;
        let i = ix as usize;
        let v = &self.c.uservert;
        let edge = vdiff(v, i + 1, i);
        let mut tprev = [0.0; 3];
        let mut tnext = [0.0; 3];
        let mut length_prev = 0.0;
        if !first {
            tprev = vdiff(v, i, i - 1);
            length_prev = normvec(&mut tprev);
        }
        if !last {
            tnext = vdiff(v, i + 2, i + 1);
            normvec(&mut tnext);
        }
        let (this_quat, length) = update_frame(&mut frame.normal, &edge, &tprev, &tnext, first);

        let (this_body, next_body, this_joint, site) = if first {
            (
                format!("{pre}B_first"),
                format!("{pre}B_{}", ix + 1),
                format!("{pre}J_first"),
                format!("{pre}S_first"),
            )
        } else if last {
            (
                format!("{pre}B_last"),
                format!("{pre}B_first"),
                format!("{pre}J_last"),
                format!("{pre}S_last"),
            )
        } else if secondlast {
            (
                format!("{pre}B_{ix}"),
                format!("{pre}B_last"),
                format!("{pre}J_{ix}"),
                String::new(),
            )
        } else {
            (
                format!("{pre}B_{ix}"),
                format!("{pre}B_{}", ix + 1),
                format!("{pre}J_{ix}"),
                String::new(),
            )
        };

        let (pos, quat) = if first {
            let o = self.c.offset;
            let p: [f64; 3] = core::array::from_fn(|k| o[k] + f64::from(v[3 * i + k]));
            (p, this_quat)
        } else {
            let q = frame.prev_quat;
            let neg = [q[0], -q[1], -q[2], -q[3]];
            ([length_prev, 0.0, 0.0], mulquat(&neg, &this_quat))
        };
        let body = self.add_body(parent, this_body.clone(), pos);
        self.spec.bodies[body].quat = quat;

        let mut g = self.geom();
        g.name = format!("{pre}G{ix}");
        if matches!(g.gtype, GEOM_CYLINDER | GEOM_CAPSULE) {
            g.fromto = [0.0; 6];
            g.fromto[3] = length;
        } else if g.gtype == GEOM_BOX {
            g.pos = [length / 2.0, 0.0, 0.0];
            g.size[0] = length / 2.0;
        }
        self.spec.bodies[body].geoms.push(g);
        self.body_plugin(body);
        frame.prev_quat = this_quat;

        if !first || self.c.initial != "none" {
            let j = self.cable_joint(first, this_joint);
            self.spec.bodies[body].joints.push(j);
        }
        if !last {
            self.exclude(this_body, next_body);
        }
        if last || first {
            let s = Site {
                name: site,
                pos: [if last { length } else { 0.0 }, 0.0, 0.0],
                quat: [1.0, 0.0, 0.0, 0.0],
                ..self.site()
            };
            self.spec.bodies[body].sites.push(s);
        }
        body
    }

    /// The joint of a cable body: free for a free first body (without damping, armature and
    /// friction loss), ball otherwise.
    fn cable_joint(&self, first: bool, name: String) -> Joint {
        let mut j = self.joint(&self.c.defjoint[super::kind::JOINT][0]);
        j.jtype = if first && self.c.initial == "free" {
            JNT_FREE
        } else {
            JNT_BALL
        };
        if j.jtype == JNT_FREE {
            j.damping = 0.0;
            j.armature = 0.0;
            j.frictionloss = 0.0;
        }
        j.name = name;
        j
    }
}
