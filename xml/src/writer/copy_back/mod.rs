//! `mjs_copyBack` (MuJoCo's `mjCModel::CopyBack`): the values of a compiled model, changed after
//! compiling, written back into the spec it was compiled from, so that the spec written as MJCF
//! compiles to the changed model (what `mj_saveLastXML` does first).
//!
//! MuJoCo copies a fixed set of fields: options, visual, the statistics it did not compute, and
//! parameters of bodies, joints, geoms, sites, cameras, lights, height fields, materials, pairs,
//! equalities, tendons, actuators, sensors, custom data and keyframes. A change to any other
//! array is not saved, nor is one MuJoCo copies into the spec but does not write (mesh frames,
//! camera intrinsics, the inertia of bodies whose inertia the geoms give).
//!
//! mjrs writes the spec as given rather than as compiled (see the writer), so a value is copied
//! back only where it differs from the compiled one, and in the spec's terms: angles in the
//! file's unit, poses of objects declared in frames, or given by `fromto` or a mesh fit, as the
//! compiled pose outside the frame (as MuJoCo writes them). Unchanged values, class-inherited
//! ones included, stay as read.

mod objects;
mod tree;

use mjrs_core::layout::{Elem, Scalar};
use mjrs_core::Model;

use crate::error::XmlError;
use crate::spec::Spec;
use crate::util::PI;

/// Copies the values of `changed` that MuJoCo copies back into `spec`, the spec `compiled` was
/// compiled from (`mjs_copyBack`). Both models must have the sizes of `compiled`.
///
/// As in MuJoCo 3.1.6, a range copied back leaves its `limited` as given: under
/// `compiler/autolimits` a range given to an unlimited joint, tendon or actuator limits it,
/// and a tendon's color stays the loaded one (MuJoCo copies `tendon_rgba` into its tendon, but
/// its saved text keeps the loaded color).
pub fn copy_back(spec: &mut Spec, compiled: &Model, changed: &Model) -> Result<(), XmlError> {
    if compiled.sizes() != changed.sizes() {
        return Err(error("incompatible models in CopyBack"));
    }
    spec.option = changed.opt;
    spec.visual = changed.vis;
    statistics(spec, compiled, changed);
    tree::copy_tree(spec, compiled, changed)?;
    objects::hfields(spec, compiled, changed)?;
    objects::materials(spec, compiled, changed)?;
    objects::pairs(spec, compiled, changed)?;
    objects::equalities(spec, compiled, changed)?;
    tendons(spec, compiled, changed)?;
    actuators(spec, compiled, changed)?;
    sensors(spec, compiled, changed)?;
    objects::custom(spec, compiled, changed)?;
    objects::keys(spec, compiled, changed);
    Ok(())
}

fn error(message: &str) -> XmlError {
    XmlError::Compile {
        message: message.to_owned(),
        object: None,
    }
}

/// The statistics changed since compiling (MuJoCo: those differing from the computed ones).
fn statistics(spec: &mut Spec, a: &Model, b: &Model) {
    let (s, t, d) = (&a.stat, &b.stat, &mut spec.stat);
    for (old, new, dst) in [
        (s.meaninertia, t.meaninertia, &mut d.meaninertia),
        (s.meanmass, t.meanmass, &mut d.meanmass),
        (s.meansize, t.meansize, &mut d.meansize),
        (s.extent, t.extent, &mut d.extent),
    ] {
        if old.to_bits() != new.to_bits() {
            *dst = new;
        }
    }
    if !same(&s.center, &t.center) {
        d.center = t.center;
    }
}

/// Are two arrays the same, bit for bit (a NaN equals itself: a model's NaN is no change)?
fn same<T: Elem>(a: &[T], b: &[T]) -> bool {
    let bits = |x: T| match x.to_scalar() {
        Scalar::Int(n) => n as u64,
        Scalar::Real(r) => r.to_bits(),
    };
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| bits(x) == bits(y))
}

/// Did row `i` (of `n` values) change from `old` to `new`?
fn changed<T: Elem>(old: &[T], new: &[T], i: usize, n: usize) -> bool {
    !same(&old[i * n..(i + 1) * n], &new[i * n..(i + 1) * n])
}

/// Row `i` of `N` values of `x`.
fn row<T: Copy + Default, const N: usize>(x: &[T], i: usize) -> [T; N] {
    let mut out = [T::default(); N];
    out.copy_from_slice(&x[i * N..(i + 1) * N]);
    out
}

/// The spec value of a compiled angle `rad`: itself in radians; in degrees, of the numbers
/// nearest `rad` in degrees, one the compiler (`x * (PI / 180)`) turns into `rad` exactly
/// (such a number exists for most angles; otherwise the nearest, one rounding off).
fn spec_angle(rad: f64, degree: bool) -> f64 {
    let scale = PI / 180.0;
    if !degree || rad == 0.0 || !rad.is_finite() {
        return rad;
    }
    let guess = rad / scale;
    let (mut up, mut down) = (guess, guess);
    for _ in 0..4 {
        for x in [up, down] {
            if x * scale == rad {
                return x;
            }
        }
        up = up.next_up();
        down = down.next_down();
    }
    guess
}

/// Copies row `i` of `new` into `dst` when it differs from row `i` of `old`; true if it did.
fn copy_row<T: Elem, D: From<T>>(dst: &mut [D], old: &[T], new: &[T], i: usize) -> bool {
    let n = dst.len();
    if !changed(old, new, i, n) {
        return false;
    }
    for (d, &v) in dst.iter_mut().zip(&new[i * n..(i + 1) * n]) {
        *d = v.into();
    }
    true
}

/// Copies scalar `i` of `new` into `dst` when it differs from `old`'s.
fn copy_one<T: Elem>(dst: &mut T, old: &[T], new: &[T], i: usize) {
    if changed(old, new, i, 1) {
        *dst = new[i];
    }
}

/// Copies row `i` of the user arrays (`*_user`, `nuser` values per object) when changed.
fn copy_user(dst: &mut Vec<f64>, old: &[f64], new: &[f64], nuser: usize, i: usize) {
    if changed(old, new, i, nuser) {
        *dst = new[i * nuser..(i + 1) * nuser].to_vec();
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
    use mjrs_core::Model;

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
    fn other_models_are_errors() {
        let (mut spec, mut compiled) = load(MODEL);
        let (_, mut other) = load("<mujoco><worldbody><geom size='1'/></worldbody></mujoco>");
        let e = copy_back(&mut spec, &compiled.view(), &other.view()).unwrap_err();
        assert!(e.to_string().contains("incompatible models"), "{e}");
    }

    #[test]
    fn angles_in_degrees_compile_back_exactly() {
        let scale = PI / 180.0;
        let mut exact = 0;
        for k in 1..2000 {
            let rad = f64::from(k) * 0.001_7 - 1.7;
            let deg = spec_angle(rad, true);
            assert!(
                (deg * scale - rad).abs() <= rad.abs() * f64::EPSILON,
                "{rad}"
            );
            exact += usize::from(deg * scale == rad);
        }
        // about one angle in ten has no degree value that the compiler's product rounds to it
        assert!(exact > 1750, "{exact} of 1999 exact");
        assert_eq!(spec_angle(0.3, false), 0.3);
    }

    /// `text` changed by `edit`, saved and compiled again.
    fn save_changed(text: &str, edit: impl FnOnce(&mut Model)) -> Result<OwnedModel, XmlError> {
        let (mut spec, mut compiled) = load(text);
        let mut changed = compiled.clone();
        edit(&mut changed.view());
        copy_back(&mut spec, &compiled.view(), &changed.view())?;
        Ok(load(&crate::writer::write_xml(&spec).unwrap()).1)
    }

    #[test]
    fn radians_inferred_inertia_and_springdampers() {
        let text = r#"<mujoco><compiler angle="radian" inertiafromgeom="true"/>
  <worldbody><body><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
    <joint range="-1 1" springdamper="1 0.5"/><geom size="0.1"/></body></worldbody></mujoco>"#;
        let mut again = save_changed(text, |m| {
            m.jnt_range[..2].copy_from_slice(&[-0.123_456_789, 0.987_654_321]);
            m.body_mass[1] = 5.0;
            m.jnt_stiffness[0] = 2.5;
        })
        .unwrap();
        let m = again.view();
        assert_eq!(&m.jnt_range[..2], &[-0.123_456_789, 0.987_654_321]);
        // inertiafromgeom="true": the geoms give the mass again, as in MuJoCo
        assert_ne!(m.body_mass[1], 5.0);
        assert_eq!(m.jnt_stiffness[0], 2.5);
    }

    #[test]
    fn unwritable_changes_are_errors() {
        // a class's Euler angles would override the saved quaternion
        let text = r#"<mujoco><default><site euler="0 0 30"/></default>
  <worldbody><site name="s"/></worldbody></mujoco>"#;
        let e = save_changed(text, |m| {
            m.site_quat[..4].copy_from_slice(&[0.0, 1.0, 0.0, 0.0])
        });
        let e = e.err().unwrap().to_string();
        assert!(
            e.contains("site 's'") && e.contains("alternative orientation"),
            "{e}"
        );
        // fusestatic merged a body: the model's bodies are not the spec's
        let text = r#"<mujoco><compiler fusestatic="true"/>
  <worldbody><body><geom size="0.1"/></body></worldbody></mujoco>"#;
        let e = save_changed(text, |m| m.geom_size[0] = 0.2).err().unwrap();
        assert!(e.to_string().contains("fusestatic"), "{e}");
        // unchanged, the same model saves
        assert!(save_changed(text, |_| ()).is_ok());
    }
}
