//! Copy-back of the kinematic tree: bodies, joints (with their dofs and `qpos0`), geoms, sites,
//! cameras and lights, matched to the model in the compiler's order (`MakeLists`: bodies depth
//! first, the objects of each body in declaration order).
//!
//! A changed pose is the compiled one, in the body's frame: the object leaves the `frame` it was
//! declared in (whose pose the compiler would compose again) and loses its alternative
//! orientation, `fromto` and mesh fit, as MuJoCo writes compiled poses.

use mjrs_core::types::*;
use mjrs_core::Model;

use super::{changed, copy_one, copy_row, copy_user, error, row, same, spec_angle};
use crate::error::XmlError;
use crate::spec::*;
use crate::util::{frameaccuminv, geominfo};

/// The spec bodies in model order, and where each joint, geom, site, camera and light of the
/// model is in the spec (body, index in the body).
struct Order {
    bodies: Vec<usize>,
    joints: Vec<(usize, usize)>,
    geoms: Vec<(usize, usize)>,
    sites: Vec<(usize, usize)>,
    cameras: Vec<(usize, usize)>,
    lights: Vec<(usize, usize)>,
}

impl Order {
    fn new(spec: &Spec) -> Self {
        let mut bodies = Vec::with_capacity(spec.bodies.len());
        let mut stack = vec![0usize];
        while let Some(b) = stack.pop() {
            bodies.push(b);
            stack.extend(spec.bodies[b].bodies.iter().rev());
        }
        let list = |count: fn(&Body) -> usize| -> Vec<(usize, usize)> {
            bodies
                .iter()
                .flat_map(|&b| (0..count(&spec.bodies[b])).map(move |k| (b, k)))
                .collect()
        };
        Self {
            joints: list(|b| b.joints.len()),
            geoms: list(|b| b.geoms.len()),
            sites: list(|b| b.sites.len()),
            cameras: list(|b| b.cameras.len()),
            lights: list(|b| b.lights.len()),
            bodies,
        }
    }

    /// Does the spec hold the model's tree object for object (not so after `fusestatic` or
    /// `discardvisual`)?
    fn matches(&self, m: &Model) -> bool {
        let z = m.sizes();
        self.bodies.len() == z.nbody
            && self.joints.len() == z.njnt
            && self.geoms.len() == z.ngeom
            && self.sites.len() == z.nsite
            && self.cameras.len() == z.ncam
            && self.lights.len() == z.nlight
    }
}

/// Copies the changed tree values of `b` into `spec` (`a`: as compiled).
pub(super) fn copy_tree(spec: &mut Spec, a: &Model, b: &Model) -> Result<(), XmlError> {
    let order = Order::new(spec);
    if !order.matches(a) {
        if tree_changed(a, b) {
            return Err(error(
                "mj_saveLastXML: the model's bodies or their objects do not match the spec's \
                 (fusestatic or discardvisual removed some), so their changed values cannot be \
                 copied back",
            ));
        }
        return Ok(());
    }
    bodies(spec, &order, a, b);
    joints(spec, &order, a, b);
    geoms(spec, &order, a, b)?;
    sites(spec, &order, a, b)?;
    cameras(spec, &order, a, b)?;
    lights(spec, &order, a, b);
    Ok(())
}

/// Did any tree value MuJoCo copies back change?
fn tree_changed(a: &Model, b: &Model) -> bool {
    macro_rules! any {
        ($($f:ident),*) => { false $(|| !same(&a.$f, &b.$f))* };
    }
    any!(
        qpos0,
        qpos_spring,
        body_pos,
        body_quat,
        body_ipos,
        body_iquat,
        body_mass,
        body_inertia,
        body_user,
        jnt_pos,
        jnt_axis,
        jnt_stiffness,
        jnt_range,
        jnt_solref,
        jnt_solimp,
        jnt_margin,
        jnt_user,
        dof_solref,
        dof_solimp,
        dof_armature,
        dof_damping,
        dof_frictionloss,
        geom_size,
        geom_pos,
        geom_quat,
        geom_friction,
        geom_solref,
        geom_solimp,
        geom_rgba,
        geom_solmix,
        geom_margin,
        geom_gap,
        geom_user,
        site_size,
        site_pos,
        site_quat,
        site_rgba,
        site_user,
        cam_pos,
        cam_quat,
        cam_fovy,
        cam_ipd,
        cam_resolution,
        cam_user,
        light_pos,
        light_dir,
        light_attenuation,
        light_cutoff,
        light_exponent,
        light_ambient,
        light_diffuse,
        light_specular
    )
}

/// An error unless an object whose pose is replaced can be written with a quaternion: a class
/// giving an alternative orientation or `fromto` would override it when the text is read.
fn check_class_pose(
    what: &str,
    name: &str,
    class: &DefaultClass,
    alt: &Orientation,
    fromto: Option<&[f64; 6]>,
) -> Result<(), XmlError> {
    if alt.kind == OrientationType::Quat && fromto.is_none_or(|f| f[0].is_nan()) {
        return Ok(());
    }
    Err(error(&format!(
        "mj_saveLastXML: the pose of {what} '{name}' was changed, but its class '{}' gives an \
         alternative orientation or fromto, which the saved quaternion cannot override",
        class.name
    )))
}

fn bodies(spec: &mut Spec, order: &Order, a: &Model, b: &Model) {
    let nuser = a.sizes().nuser_body;
    // with inertiafromgeom="true" MuJoCo writes no inertial: the geoms give the inertia again
    let inertial_saved = spec.inertiafromgeom != InertiaFromGeom::True;
    // the world's pose and inertia are not written
    for (i, &s) in order.bodies.iter().enumerate().skip(1) {
        let body = &mut spec.bodies[s];
        if changed(&a.body_pos, &b.body_pos, i, 3) || changed(&a.body_quat, &b.body_quat, i, 4) {
            body.pos = row(&b.body_pos, i);
            body.quat = row(&b.body_quat, i);
            body.alt = Orientation::default();
            body.frame = None;
        }
        let inertia = changed(&a.body_ipos, &b.body_ipos, i, 3)
            || changed(&a.body_iquat, &b.body_iquat, i, 4)
            || changed(&a.body_mass, &b.body_mass, i, 1)
            || changed(&a.body_inertia, &b.body_inertia, i, 3);
        // an inertia inferred from the geoms is inferred again (MuJoCo writes no inertial)
        if inertia && body.explicitinertial && inertial_saved {
            body.ipos = row(&b.body_ipos, i);
            body.iquat = row(&b.body_iquat, i);
            body.ialt = Orientation::default();
            body.mass = b.body_mass[i];
            body.inertia = row(&b.body_inertia, i);
            body.fullinertia = Body::new(None, 0).fullinertia;
        }
        copy_user(&mut body.userdata, &a.body_user, &b.body_user, nuser, i);
    }
}

fn joints(spec: &mut Spec, order: &Order, a: &Model, b: &Model) {
    let nuser = a.sizes().nuser_jnt;
    let degree = spec.degree;
    for (i, &(s, k)) in order.joints.iter().enumerate() {
        let j = &mut spec.bodies[s].joints[k];
        let ty = a.jnt_type[i];
        let angular = degree && (ty == JNT_HINGE || ty == JNT_BALL);
        // a free joint's position and axis are fixed; its qpos0 is the body's pose
        if ty != JNT_FREE
            && (changed(&a.jnt_pos, &b.jnt_pos, i, 3) || changed(&a.jnt_axis, &b.jnt_axis, i, 3))
        {
            j.pos = row(&b.jnt_pos, i);
            j.axis = row(&b.jnt_axis, i);
            j.frame = None;
        }
        if changed(&a.jnt_range, &b.jnt_range, i, 2) {
            let r: [f64; 2] = row(&b.jnt_range, i);
            j.range = r.map(|x| spec_angle(x, angular));
        }
        copy_row(&mut j.solref_limit, &a.jnt_solref, &b.jnt_solref, i);
        copy_row(&mut j.solimp_limit, &a.jnt_solimp, &b.jnt_solimp, i);
        copy_one(&mut j.margin, &a.jnt_margin, &b.jnt_margin, i);
        copy_user(&mut j.userdata, &a.jnt_user, &b.jnt_user, nuser, i);
        let d = a.jnt_dofadr[i] as usize;
        copy_row(&mut j.solref_friction, &a.dof_solref, &b.dof_solref, d);
        copy_row(&mut j.solimp_friction, &a.dof_solimp, &b.dof_solimp, d);
        copy_one(&mut j.armature, &a.dof_armature, &b.dof_armature, d);
        copy_one(
            &mut j.frictionloss,
            &a.dof_frictionloss,
            &b.dof_frictionloss,
            d,
        );
        let stiffness = changed(&a.jnt_stiffness, &b.jnt_stiffness, i, 1);
        let damping = changed(&a.dof_damping, &b.dof_damping, d, 1);
        if stiffness || damping {
            // `springdamper` would compute both again: the saved joint gives them instead
            if j.springdamper != [0.0; 2] {
                j.springdamper = [0.0; 2];
                j.stiffness = b.jnt_stiffness[i];
                j.damping = b.dof_damping[d];
            }
            copy_one(&mut j.stiffness, &a.jnt_stiffness, &b.jnt_stiffness, i);
            copy_one(&mut j.damping, &a.dof_damping, &b.dof_damping, d);
        }
        if ty == JNT_HINGE || ty == JNT_SLIDE {
            let q = a.jnt_qposadr[i] as usize;
            let hinge = degree && ty == JNT_HINGE;
            if changed(&a.qpos0, &b.qpos0, q, 1) {
                j.ref_ = spec_angle(b.qpos0[q], hinge);
            }
            if changed(&a.qpos_spring, &b.qpos_spring, q, 1) {
                j.springref = spec_angle(b.qpos_spring[q], hinge);
            }
        }
    }
}

fn geoms(spec: &mut Spec, order: &Order, a: &Model, b: &Model) -> Result<(), XmlError> {
    let nuser = a.sizes().nuser_geom;
    for (i, &(s, k)) in order.geoms.iter().enumerate() {
        let class = &spec.defaults[spec.bodies[s].geoms[k].default];
        let class_alt = class.geom.alt;
        let class_fromto = class.geom.fromto;
        let g = &mut spec.bodies[s].geoms[k];
        let mesh_type = g.gtype == GEOM_MESH || g.gtype == GEOM_SDF;
        // a primitive fitted to a mesh: MuJoCo writes the fitted primitive, without the mesh
        let fitted = !g.meshname.is_empty() && !mesh_type;
        let derived = fitted || !g.fromto[0].is_nan();
        let pose =
            changed(&a.geom_pos, &b.geom_pos, i, 3) || changed(&a.geom_quat, &b.geom_quat, i, 4);
        let size = changed(&a.geom_size, &b.geom_size, i, 3);
        if pose || (size && derived) {
            check_class_pose("geom", &g.name, class, &class_alt, Some(&class_fromto))?;
            let (mut pos, mut quat): ([f64; 3], [f64; 4]) =
                (row(&b.geom_pos, i), row(&b.geom_quat, i));
            if mesh_type && a.geom_dataid[i] >= 0 {
                // the compiler offsets the geom by the mesh's frame: undo it (as MuJoCo's writer)
                let m = a.geom_dataid[i] as usize;
                let mquat: [f64; 4] = row(&a.mesh_quat, m);
                frameaccuminv(&mut pos, &mut quat, &a.mesh_pos[3 * m..3 * m + 3], &mquat);
            }
            if fitted {
                g.meshname.clear();
            }
            g.fromto = class_fromto;
            g.pos = pos;
            g.quat = quat;
            g.alt = Orientation::default();
            g.frame = None;
        }
        if size || (pose && derived) {
            let n = geominfo(g.gtype);
            g.size[..n].copy_from_slice(&b.geom_size[3 * i..3 * i + n]);
        }
        copy_row(&mut g.friction, &a.geom_friction, &b.geom_friction, i);
        copy_row(&mut g.solref, &a.geom_solref, &b.geom_solref, i);
        copy_row(&mut g.solimp, &a.geom_solimp, &b.geom_solimp, i);
        copy_row(&mut g.rgba, &a.geom_rgba, &b.geom_rgba, i);
        copy_one(&mut g.solmix, &a.geom_solmix, &b.geom_solmix, i);
        copy_one(&mut g.margin, &a.geom_margin, &b.geom_margin, i);
        copy_one(&mut g.gap, &a.geom_gap, &b.geom_gap, i);
        copy_user(&mut g.userdata, &a.geom_user, &b.geom_user, nuser, i);
    }
    Ok(())
}

fn sites(spec: &mut Spec, order: &Order, a: &Model, b: &Model) -> Result<(), XmlError> {
    let nuser = a.sizes().nuser_site;
    for (i, &(s, k)) in order.sites.iter().enumerate() {
        let class = &spec.defaults[spec.bodies[s].sites[k].default];
        let (class_alt, class_fromto) = (class.site.alt, class.site.fromto);
        let x = &mut spec.bodies[s].sites[k];
        let derived = !x.fromto[0].is_nan();
        let pose =
            changed(&a.site_pos, &b.site_pos, i, 3) || changed(&a.site_quat, &b.site_quat, i, 4);
        let size = changed(&a.site_size, &b.site_size, i, 3);
        if pose || (size && derived) {
            check_class_pose("site", &x.name, class, &class_alt, Some(&class_fromto))?;
            x.fromto = class_fromto;
            x.pos = row(&b.site_pos, i);
            x.quat = row(&b.site_quat, i);
            x.alt = Orientation::default();
            x.frame = None;
        }
        if size || (pose && derived) {
            let n = geominfo(x.stype);
            x.size[..n].copy_from_slice(&b.site_size[3 * i..3 * i + n]);
        }
        copy_row(&mut x.rgba, &a.site_rgba, &b.site_rgba, i);
        copy_user(&mut x.userdata, &a.site_user, &b.site_user, nuser, i);
    }
    Ok(())
}

fn cameras(spec: &mut Spec, order: &Order, a: &Model, b: &Model) -> Result<(), XmlError> {
    let nuser = a.sizes().nuser_cam;
    for (i, &(s, k)) in order.cameras.iter().enumerate() {
        let class = &spec.defaults[spec.bodies[s].cameras[k].default];
        let class_alt = class.camera.alt;
        let c = &mut spec.bodies[s].cameras[k];
        if changed(&a.cam_pos, &b.cam_pos, i, 3) || changed(&a.cam_quat, &b.cam_quat, i, 4) {
            check_class_pose("camera", &c.name, class, &class_alt, None)?;
            c.pos = row(&b.cam_pos, i);
            c.quat = row(&b.cam_quat, i);
            c.alt = Orientation::default();
            c.frame = None;
        }
        // with a sensor size, the compiler computes fovy (and the intrinsics MuJoCo copies
        // back but does not write) from it again
        copy_one(&mut c.fovy, &a.cam_fovy, &b.cam_fovy, i);
        copy_one(&mut c.ipd, &a.cam_ipd, &b.cam_ipd, i);
        if changed(&a.cam_resolution, &b.cam_resolution, i, 2) {
            c.resolution = [
                b.cam_resolution[2 * i] as f32,
                b.cam_resolution[2 * i + 1] as f32,
            ];
        }
        copy_user(&mut c.userdata, &a.cam_user, &b.cam_user, nuser, i);
    }
    Ok(())
}

fn lights(spec: &mut Spec, order: &Order, a: &Model, b: &Model) {
    for (i, &(s, k)) in order.lights.iter().enumerate() {
        let l = &mut spec.bodies[s].lights[k];
        // a frame moves a light but does not turn it
        if changed(&a.light_pos, &b.light_pos, i, 3) {
            l.pos = row(&b.light_pos, i);
            l.frame = None;
        }
        copy_row(&mut l.dir, &a.light_dir, &b.light_dir, i);
        copy_row(
            &mut l.attenuation,
            &a.light_attenuation,
            &b.light_attenuation,
            i,
        );
        copy_one(&mut l.cutoff, &a.light_cutoff, &b.light_cutoff, i);
        copy_one(&mut l.exponent, &a.light_exponent, &b.light_exponent, i);
        copy_row(&mut l.ambient, &a.light_ambient, &b.light_ambient, i);
        copy_row(&mut l.diffuse, &a.light_diffuse, &b.light_diffuse, i);
        copy_row(&mut l.specular, &a.light_specular, &b.light_specular, i);
    }
}
