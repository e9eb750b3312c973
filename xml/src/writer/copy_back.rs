//! `mjs_copyBack` (MuJoCo's `mjCModel::CopyBack`): the values of a compiled model, changed after
//! compiling, written back into the spec it was compiled from, so that the spec written as MJCF
//! compiles to the changed model (what `mj_saveLastXML` does first).
//!
//! MuJoCo copies a fixed set of fields (options, visual, statistics, and parameters of bodies,
//! joints, geoms, sites, cameras, lights, materials, pairs, equalities, tendons, actuators,
//! sensors, custom data and keyframes); a change to any other array is not saved. mjrs writes
//! the spec as given rather than as compiled (see the writer), so a value is copied back only
//! where it differs from the compiled one, and only for the fields whose spec value compiles
//! to the model's value as is: options, visual, tendons, actuators and sensors. A change to
//! another field that MuJoCo copies back is an error naming it, never a silently lost value.

use mjrs_core::layout::{ArrayVisitor, Elem, FieldInfo, Scalar};
use mjrs_core::Model;

use crate::error::XmlError;
use crate::spec::Spec;

/// The arrays MuJoCo copies back that mjrs does not copy back yet (objects nested in bodies
/// or values the compiler transforms: frames, orientations, angle units, inertias).
const NOT_COPIED_YET: &[&str] = &[
    "qpos0",
    "qpos_spring",
    "body_pos",
    "body_quat",
    "body_ipos",
    "body_iquat",
    "body_mass",
    "body_inertia",
    "body_user",
    "jnt_pos",
    "jnt_axis",
    "jnt_stiffness",
    "jnt_range",
    "jnt_solref",
    "jnt_solimp",
    "jnt_margin",
    "jnt_user",
    "dof_solref",
    "dof_solimp",
    "dof_armature",
    "dof_damping",
    "dof_frictionloss",
    "geom_size",
    "geom_pos",
    "geom_quat",
    "geom_friction",
    "geom_solref",
    "geom_solimp",
    "geom_rgba",
    "geom_solmix",
    "geom_margin",
    "geom_gap",
    "geom_user",
    "mesh_pos",
    "mesh_quat",
    "hfield_data",
    "site_size",
    "site_pos",
    "site_quat",
    "site_rgba",
    "site_user",
    "cam_pos",
    "cam_quat",
    "cam_fovy",
    "cam_ipd",
    "cam_resolution",
    "cam_intrinsic",
    "cam_user",
    "light_pos",
    "light_dir",
    "light_attenuation",
    "light_cutoff",
    "light_exponent",
    "light_ambient",
    "light_diffuse",
    "light_specular",
    "mat_texrepeat",
    "mat_emission",
    "mat_specular",
    "mat_shininess",
    "mat_reflectance",
    "mat_rgba",
    "pair_solref",
    "pair_solreffriction",
    "pair_solimp",
    "pair_margin",
    "pair_gap",
    "pair_friction",
    "eq_data",
    "eq_solref",
    "eq_solimp",
    "numeric_data",
    "tuple_objprm",
    "key_time",
    "key_qpos",
    "key_qvel",
    "key_act",
    "key_mpos",
    "key_mquat",
    "key_ctrl",
];

/// Copies the values of `changed` that MuJoCo copies back into `spec`, the spec `compiled` was
/// compiled from (`mjs_copyBack`). Both models must have the sizes of `compiled`.
///
/// As in MuJoCo 3.1.6, a range copied back leaves its `limited` as given: under
/// `compiler/autolimits` a range given to an unlimited tendon or actuator limits it, and a
/// tendon's color stays the loaded one (MuJoCo copies `tendon_rgba` into its tendon, but its
/// saved text keeps the loaded color).
pub fn copy_back(spec: &mut Spec, compiled: &Model, changed: &Model) -> Result<(), XmlError> {
    if compiled.sizes() != changed.sizes() {
        return Err(error("incompatible models in CopyBack"));
    }
    refuse_uncopied(compiled, changed)?;
    spec.option = changed.opt;
    spec.visual = changed.vis;
    tendons(spec, compiled, changed)?;
    actuators(spec, compiled, changed)?;
    sensors(spec, compiled, changed)
}

fn error(message: &str) -> XmlError {
    XmlError::Compile {
        message: message.to_owned(),
        object: None,
    }
}

/// An error naming the first changed array of [`NOT_COPIED_YET`] or statistic.
fn refuse_uncopied(compiled: &Model, changed: &Model) -> Result<(), XmlError> {
    let (mut before, mut after) = (Arrays::default(), Arrays::default());
    compiled.visit(&mut before);
    changed.visit(&mut after);
    let changed_array = before
        .0
        .iter()
        .zip(&after.0)
        .find(|(b, a)| NOT_COPIED_YET.contains(&b.0) && b.1 != a.1);
    let name = match changed_array {
        Some((b, _)) => b.0,
        None if !same_stat(compiled, changed) => "stat",
        None => return Ok(()),
    };
    Err(error(&format!(
        "mj_saveLastXML: {name} was changed after compiling, and mjrs does not copy {name} \
         back into the XML yet (mjs_copyBack copies options, visual, tendons, actuators and \
         sensors)"
    )))
}

fn same_stat(a: &Model, b: &Model) -> bool {
    let (s, t) = (&a.stat, &b.stat);
    let pairs = [
        (s.meaninertia, t.meaninertia),
        (s.meanmass, t.meanmass),
        (s.meansize, t.meansize),
        (s.extent, t.extent),
        (s.center[0], t.center[0]),
        (s.center[1], t.center[1]),
        (s.center[2], t.center[2]),
    ];
    pairs.iter().all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Every array of a model by name, as bit patterns (a NaN equals itself).
#[derive(Default)]
struct Arrays(Vec<(&'static str, Vec<u64>)>);

impl ArrayVisitor for Arrays {
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]) {
        let bits = data
            .iter()
            .map(|x| match x.to_scalar() {
                Scalar::Int(n) => n as u64,
                Scalar::Real(r) => r.to_bits(),
            })
            .collect();
        self.0.push((info.name, bits));
    }
}

/// Copies row `i` of `new` into `dst` when it differs from row `i` of `old`; true if it did.
fn copy_row<T: Copy + PartialEq, D: From<T>>(
    dst: &mut [D],
    old: &[T],
    new: &[T],
    i: usize,
) -> bool {
    let n = dst.len();
    let (o, w) = (&old[i * n..(i + 1) * n], &new[i * n..(i + 1) * n]);
    if o == w {
        return false;
    }
    for (d, &v) in dst.iter_mut().zip(w) {
        *d = v.into();
    }
    true
}

/// Copies scalar `i` of `new` into `dst` when it differs from `old`'s.
fn copy_one<T: Copy + PartialEq>(dst: &mut T, old: &[T], new: &[T], i: usize) {
    if old[i] != new[i] {
        *dst = new[i];
    }
}

/// Copies row `i` of the user arrays (`*_user`, `nuser` values per object) when changed.
fn copy_user(dst: &mut Vec<f64>, old: &[f64], new: &[f64], nuser: usize, i: usize) {
    let (o, w) = (
        &old[i * nuser..(i + 1) * nuser],
        &new[i * nuser..(i + 1) * nuser],
    );
    if o != w {
        *dst = w.to_vec();
    }
}

fn check_count(what: &str, spec_count: usize, model_count: usize) -> Result<(), XmlError> {
    if spec_count == model_count {
        Ok(())
    } else {
        Err(error(&format!(
            "mj_saveLastXML: the spec has {spec_count} {what}, the model {model_count}"
        )))
    }
}

fn tendons(spec: &mut Spec, a: &Model, b: &Model) -> Result<(), XmlError> {
    check_count("tendons", spec.tendons.len(), a.sizes().ntendon)?;
    let nuser = a.sizes().nuser_tendon;
    for (i, t) in spec.tendons.iter_mut().enumerate() {
        copy_row(&mut t.range, &a.tendon_range, &b.tendon_range, i);
        copy_row(
            &mut t.solref_limit,
            &a.tendon_solref_lim,
            &b.tendon_solref_lim,
            i,
        );
        copy_row(
            &mut t.solimp_limit,
            &a.tendon_solimp_lim,
            &b.tendon_solimp_lim,
            i,
        );
        copy_row(
            &mut t.solref_friction,
            &a.tendon_solref_fri,
            &b.tendon_solref_fri,
            i,
        );
        copy_row(
            &mut t.solimp_friction,
            &a.tendon_solimp_fri,
            &b.tendon_solimp_fri,
            i,
        );
        copy_one(&mut t.width, &a.tendon_width, &b.tendon_width, i);
        copy_one(&mut t.margin, &a.tendon_margin, &b.tendon_margin, i);
        copy_one(
            &mut t.stiffness,
            &a.tendon_stiffness,
            &b.tendon_stiffness,
            i,
        );
        copy_one(&mut t.damping, &a.tendon_damping, &b.tendon_damping, i);
        copy_one(
            &mut t.frictionloss,
            &a.tendon_frictionloss,
            &b.tendon_frictionloss,
            i,
        );
        copy_user(&mut t.userdata, &a.tendon_user, &b.tendon_user, nuser, i);
    }
    Ok(())
}

fn actuators(spec: &mut Spec, a: &Model, b: &Model) -> Result<(), XmlError> {
    check_count("actuators", spec.actuators.len(), a.sizes().nu)?;
    let nuser = a.sizes().nuser_actuator;
    for (i, u) in spec.actuators.iter_mut().enumerate() {
        copy_row(&mut u.dynprm, &a.actuator_dynprm, &b.actuator_dynprm, i);
        copy_row(&mut u.gainprm, &a.actuator_gainprm, &b.actuator_gainprm, i);
        copy_row(&mut u.biasprm, &a.actuator_biasprm, &b.actuator_biasprm, i);
        if copy_row(
            &mut u.ctrlrange,
            &a.actuator_ctrlrange,
            &b.actuator_ctrlrange,
            i,
        ) {
            // the range is now given, no longer inherited from the joint
            u.inheritrange = 0.0;
        }
        copy_row(
            &mut u.forcerange,
            &a.actuator_forcerange,
            &b.actuator_forcerange,
            i,
        );
        copy_row(
            &mut u.actrange,
            &a.actuator_actrange,
            &b.actuator_actrange,
            i,
        );
        // always, as MuJoCo: a length range the compiler computed is saved, so that compiling
        // the text again does not compute it again (with the changed values)
        let lr = a.actuator_lengthrange.len() / a.sizes().nu.max(1);
        u.lengthrange
            .copy_from_slice(&b.actuator_lengthrange[i * lr..(i + 1) * lr]);
        copy_row(&mut u.gear, &a.actuator_gear, &b.actuator_gear, i);
        copy_one(
            &mut u.cranklength,
            &a.actuator_cranklength,
            &b.actuator_cranklength,
            i,
        );
        copy_user(
            &mut u.userdata,
            &a.actuator_user,
            &b.actuator_user,
            nuser,
            i,
        );
    }
    Ok(())
}

fn sensors(spec: &mut Spec, a: &Model, b: &Model) -> Result<(), XmlError> {
    check_count("sensors", spec.sensors.len(), a.sizes().nsensor)?;
    let nuser = a.sizes().nuser_sensor;
    for (i, s) in spec.sensors.iter_mut().enumerate() {
        copy_one(&mut s.cutoff, &a.sensor_cutoff, &b.sensor_cutoff, i);
        copy_one(&mut s.noise, &a.sensor_noise, &b.sensor_noise, i);
        copy_user(&mut s.userdata, &a.sensor_user, &b.sensor_user, nuser, i);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{compiler, reader::read_mjcf, FileResources};
    use mjrs_alloc::OwnedModel;

    const MODEL: &str = r#"<mujoco>
  <worldbody>
    <body><joint name="j" range="-1 1"/><geom size="0.1"/></body>
  </worldbody>
  <tendon><fixed name="t"><joint joint="j" coef="1"/></fixed></tendon>
  <actuator><motor joint="j" gear="2"/><position tendon="t" kp="3"/></actuator>
  <sensor><jointpos joint="j"/></sensor>
</mujoco>"#;

    fn load(text: &str) -> (Spec, OwnedModel) {
        let res = FileResources::new(None);
        let (spec, _) = read_mjcf(text.as_bytes(), "t.xml", "", &res).unwrap();
        let compiled = compiler::compile(spec.clone(), &res).unwrap();
        (spec, compiled.model)
    }

    #[test]
    fn changed_values_compile_back() {
        let (mut spec, mut compiled) = load(MODEL);
        let mut changed = compiled.clone();
        {
            let mut m = changed.view();
            m.opt.timestep = 0.003;
            m.actuator_gear[0] = 5.0;
            m.actuator_gainprm[10] = 4.0;
            m.tendon_stiffness[0] = 7.0;
            m.sensor_noise[0] = 0.5;
            // not copied back (by MuJoCo either): saved as loaded
            m.body_gravcomp[1] = 1.0;
        }
        copy_back(&mut spec, &compiled.view(), &changed.view()).unwrap();
        let (_, mut again) = load(&crate::writer::write_xml(&spec).unwrap());
        let again = again.view();
        assert_eq!(again.opt.timestep, 0.003);
        assert_eq!(again.actuator_gear[0], 5.0);
        assert_eq!(again.actuator_gainprm[10], 4.0);
        assert_eq!(again.tendon_stiffness[0], 7.0);
        assert_eq!(again.sensor_noise[0], 0.5);
        assert_eq!(again.body_gravcomp[1], 0.0);
    }

    #[test]
    fn fields_not_copied_yet_and_other_models_are_errors() {
        let (mut spec, mut compiled) = load(MODEL);
        let mut changed = compiled.clone();
        changed.view().geom_size[0] = 0.2;
        let e = copy_back(&mut spec, &compiled.view(), &changed.view()).unwrap_err();
        assert!(e.to_string().contains("geom_size was changed"), "{e}");
        let (_, mut other) = load("<mujoco><worldbody><geom size='1'/></worldbody></mujoco>");
        let e = copy_back(&mut spec, &compiled.view(), &other.view()).unwrap_err();
        assert!(e.to_string().contains("incompatible models"), "{e}");
    }
}
