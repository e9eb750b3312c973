//! The signed-distance-field plugins of MuJoCo 3.1.6 (`plugin/sdf`): `mujoco.sdf.bolt`,
//! `.bowl`, `.gear`, `.nut` and `.torus`, one module each, and what they share here: the
//! constructive operations, the conversion of configuration values to numbers with defaults,
//! and the check of those values that MuJoCo's `init` makes.
//!
//! MuJoCo's mesh SDF (`mujoco.sdf.sdflib`, built on the SdfLib library) is [`sdflib`]: an octree
//! built from the mesh and its queries.

pub mod bolt;
pub mod bowl;
pub mod gear;
pub mod nut;
pub mod sdflib;
pub mod torus;

use super::{plugin_config, register_plugin, Plugin, PluginError, PLUGIN_SDF};
use crate::math::misc::{max, min};
use crate::math::scalar::floor;
use crate::model::Model;
use crate::real::Real;

/// Union of two solids.
#[inline]
pub(crate) fn union(a: Real, b: Real) -> Real {
    min(a, b)
}

/// Intersection of two solids.
#[inline]
pub(crate) fn intersection(a: Real, b: Real) -> Real {
    max(a, b)
}

/// The first solid without the second.
#[inline]
pub(crate) fn subtraction(a: Real, b: Real) -> Real {
    max(a, -b)
}

/// Fractional part, `x - floor(x)`.
#[inline]
pub(crate) fn fract(x: Real) -> Real {
    x - floor(x)
}

/// Step of the finite-difference gradients: MuJoCo's 1e-8 in double precision; in single
/// precision 1e-8 is below the resolution of coordinates near 1 and every difference would be
/// 0, so the f32 build steps by 1e-3 (about the square root of its epsilon, times 3).
const GRADIENT_STEP: Real = if core::mem::size_of::<Real>() == 8 {
    1e-8
} else {
    1e-3
};

/// Gradient by forward differences, as the plugins without an analytic one.
pub(crate) fn forward_difference(
    distance: impl Fn(&[Real; 3]) -> Real,
    point: &[Real; 3],
) -> [Real; 3] {
    let eps = GRADIENT_STEP;
    let dist0 = distance(point);
    core::array::from_fn(|i| {
        let mut p = *point;
        p[i] += eps;
        (distance(&p) - dist0) / eps
    })
}

/// C++'s `std::stod`: `strtod` of the text, `None` when no number is in front (where `stod`
/// throws).
pub(crate) fn stod(value: &str) -> Option<Real> {
    let (x, len) = crate::plugin::number::strtod_end(value);
    (len > 0).then_some(x as Real)
}

/// Numeric attributes with defaults (MuJoCo's `SdfDefault::GetDefaults`): an unset or empty
/// value takes the default, any other is read by `stod`; a value with no number in front is
/// MuJoCo's error "invalid attribute value for '...'", whose text `invalid` gives per name.
pub(crate) fn attributes_with_defaults(
    attribute: &mut [Real],
    names: &[&str],
    values: &[Option<&str>],
    defaults: &[(&'static str, Real, &'static str)],
) -> Result<(), PluginError> {
    for (i, (slot, name)) in attribute.iter_mut().zip(names).enumerate() {
        let Some(&(_, default, invalid)) = defaults.iter().find(|d| d.0 == *name) else {
            continue;
        };
        *slot = match values.get(i).copied().flatten() {
            None | Some("") => default,
            Some(v) => stod(v).ok_or(PluginError::failed(invalid))?,
        };
    }
    Ok(())
}

/// MuJoCo's `CheckAttr`: the value of `name`, with all white space removed, is empty or one
/// number with nothing after it.
pub(crate) fn check_attr(m: &Model, instance: usize, name: &str) -> bool {
    let value = plugin_config(m, instance, name).unwrap_or("");
    crate::plugin::number::is_number_without_spaces(value)
}

/// [`check_attr`] for every name, else the plugin's warning as the error.
pub(crate) fn check_attrs(
    m: &Model,
    instance: usize,
    names: &[&str],
    warning: &'static str,
) -> Result<(), PluginError> {
    if names.iter().all(|n| check_attr(m, instance, n)) {
        Ok(())
    } else {
        Err(PluginError::failed(warning))
    }
}

/// A distance field's gradient at a point, given the numeric attributes.
type Gradient = fn(&[Real; 3], &[Real]) -> [Real; 3];

/// One of MuJoCo's SDF plugins. The five differ only in their names, values and geometry, so
/// one implementation of the trait serves them all.
pub struct SdfPlugin {
    name: &'static str,
    attributes: &'static [&'static str],
    /// The attributes `init` checks (MuJoCo's `CheckAttr`) and its warning when one fails.
    checked: &'static [&'static str],
    warning: &'static str,
    /// Each attribute's default and the error for a value that is not a number.
    defaults: &'static [(&'static str, Real, &'static str)],
    distance: fn(&[Real; 3], &[Real]) -> Real,
    /// An analytic gradient; forward differences of `distance` without one.
    gradient: Option<Gradient>,
    aabb: fn(&[Real]) -> [Real; 6],
}

impl SdfPlugin {
    /// Registers the plugin at its fixed slot; registering the same static again is harmless.
    pub fn register(&'static self) {
        let _ = register_plugin(self);
    }
}

impl Plugin for SdfPlugin {
    fn name(&self) -> &'static str {
        self.name
    }

    fn attributes(&self) -> &'static [&'static str] {
        self.attributes
    }

    fn capabilities(&self) -> u32 {
        PLUGIN_SDF
    }

    fn init(&self, m: &Model, instance: usize) -> Result<(), PluginError> {
        check_attrs(m, instance, self.checked, self.warning)
    }

    fn sdf_distance(&self, point: &[Real; 3], attributes: &[Real], _object: &[u8]) -> Real {
        (self.distance)(point, attributes)
    }

    fn sdf_gradient(&self, point: &[Real; 3], attributes: &[Real], _object: &[u8]) -> [Real; 3] {
        match self.gradient {
            Some(gradient) => gradient(point, attributes),
            None => forward_difference(|p| (self.distance)(p, attributes), point),
        }
    }

    fn sdf_attribute(
        &self,
        attribute: &mut [Real],
        names: &[&str],
        values: &[Option<&str>],
    ) -> Result<(), PluginError> {
        attributes_with_defaults(attribute, names, values, self.defaults)
    }

    fn sdf_aabb(&self, attributes: &[Real]) -> [Real; 6] {
        (self.aabb)(attributes)
    }
}

/// Registers the five SDF plugins at their fixed slots.
pub fn register() {
    bolt::register();
    bowl::register();
    gear::register();
    nut::register();
    torus::register();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stod_reads_the_longest_number_in_front() {
        assert_eq!(stod(" 0.25"), Some(0.25));
        assert_eq!(stod("1.5abc"), Some(1.5));
        assert_eq!(stod("1e"), Some(1.0));
        assert_eq!(stod("-.5e1x"), Some(-5.0));
        assert_eq!(stod("abc"), None);
        assert_eq!(stod(""), None);
        assert_eq!(stod("e5"), None);
        assert!(stod("inf").is_some_and(|x| x.is_infinite()));
    }

    #[test]
    fn defaults_fill_unset_values_and_garbage_is_refused() {
        let defaults = [("a", 1.0, "bad a"), ("b", 2.0, "bad b")];
        let mut out = [0.0; 2];
        attributes_with_defaults(&mut out, &["a", "b"], &[None, Some("3")], &defaults).unwrap();
        assert_eq!(out, [1.0, 3.0]);
        let err = attributes_with_defaults(&mut out, &["a", "b"], &[Some("x"), None], &defaults);
        assert_eq!(err, Err(PluginError::failed("bad a")));
    }
}

#[cfg(test)]
mod plugin_tests {
    use super::bolt::BOLT;
    use super::bowl::BOWL;
    use super::gear::GEAR;
    use super::nut::NUT;
    use super::torus::TORUS;
    use crate::plugin::{Plugin, MAX_SDF_ATTRIBUTES, PLUGIN_SDF};
    use crate::real::Real;

    /// The plugin's attributes with every value unset: its defaults.
    fn defaults(p: &dyn Plugin) -> [Real; MAX_SDF_ATTRIBUTES] {
        let names = p.attributes();
        let values = vec![None; names.len()];
        let mut out = [0.0; MAX_SDF_ATTRIBUTES];
        p.sdf_attribute(&mut out[..names.len()], names, &values)
            .unwrap();
        out
    }

    #[test]
    fn defaults_and_boxes_are_mujocos() {
        assert_eq!(defaults(&TORUS)[..2], [0.35, 0.15]);
        assert_eq!(defaults(&BOLT)[..1], [0.26]);
        assert_eq!(defaults(&NUT)[..1], [0.26]);
        assert_eq!(defaults(&BOWL)[..3], [0.4, 1.0, 0.02]);
        assert_eq!(defaults(&GEAR)[..5], [0.0, 2.8, 25.0, 0.2, -1.0]);
        assert_eq!(
            TORUS.sdf_aabb(&defaults(&TORUS)),
            [0.0, 0.0, 0.0, 0.5, 0.5, 0.15]
        );
        assert_eq!(
            BOLT.sdf_aabb(&defaults(&BOLT)),
            [0.0, 0.0, 0.0, 0.6, 0.6, 1.0]
        );
        assert_eq!(
            NUT.sdf_aabb(&defaults(&NUT)),
            [0.0, 0.0, 0.0, 0.6, 0.6, 1.0]
        );
        assert_eq!(
            BOWL.sdf_aabb(&defaults(&BOWL)),
            [0.0, 0.0, 0.0, 1.02, 1.02, 1.02]
        );
        let gear = GEAR.sdf_aabb(&defaults(&GEAR));
        assert_eq!(
            gear,
            [
                0.0,
                0.0,
                0.0,
                2.8 / 2.0 * 1.25,
                2.8 / 2.0 * 1.25,
                0.2 / 2.0 * 1.1
            ]
        );
        for p in [&TORUS as &dyn Plugin, &BOLT, &BOWL, &GEAR, &NUT] {
            assert_eq!(p.capabilities(), PLUGIN_SDF, "{}", p.name());
        }
    }

    #[test]
    fn torus_distance_and_gradient() {
        // a few ulps of the build's precision
        const TOL: Real = 8.0 * Real::EPSILON;
        let a = defaults(&TORUS);
        assert!(TORUS.sdf_distance(&[0.5, 0.0, 0.0], &a, &[]).abs() < TOL);
        assert!((TORUS.sdf_distance(&[0.0, 0.0, 0.0], &a, &[]) - 0.2).abs() < TOL);
        assert_eq!(TORUS.sdf_distance(&[0.0, 0.35, 0.0], &a, &[]), -0.15);
        let g = TORUS.sdf_gradient(&[0.0, 0.6, 0.25], &a, &[]);
        let n: Real = (0.25 as Real * 0.25 + 0.25 * 0.25).sqrt();
        assert!((g[0]).abs() < TOL && (g[1] - 0.25 / n).abs() < TOL);
        assert!((g[2] - 0.25 / n).abs() < TOL);
        assert_eq!(
            TORUS.sdf_staticdistance(&[0.1, 0.2, 0.3], &a),
            TORUS.sdf_distance(&[0.1, 0.2, 0.3], &a, &[])
        );
    }

    /// Distance fields are 1-Lipschitz: the finite-difference gradients of the exact ones
    /// (bowl, gear away from its smoothing) have unit length off the surface.
    #[test]
    fn finite_difference_gradients_have_unit_length() {
        // the differences' error: about the step in f32, far below it in f64
        const TOL: Real = if core::mem::size_of::<Real>() == 8 {
            1e-6
        } else {
            2e-3
        };
        let bowl = defaults(&BOWL);
        for p in [[0.0, 0.0, -1.3], [0.5, 0.2, -0.5], [0.1, 0.0, 0.0]] {
            let g = BOWL.sdf_gradient(&p, &bowl, &[]);
            let len = (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).sqrt();
            assert!((len - 1.0).abs() < TOL, "bowl {p:?}: {len}");
        }
        let gear = defaults(&GEAR);
        let g = GEAR.sdf_gradient(&[0.2, 0.0, 0.0], &gear, &[]);
        assert!((g[0] + 1.0).abs() < TOL, "inside the bore: {g:?}");
        assert!(GEAR.sdf_distance(&[0.0, 0.0, 2.0], &gear, &[]) > 1.0);
    }

    #[test]
    fn bolt_and_nut_fit() {
        // the nut's hole is where the bolt's thread is: a point on the bolt's core is inside
        // the bolt and outside the nut
        let (b, n) = (defaults(&BOLT), defaults(&NUT));
        let p = [0.1, 0.0, -0.3];
        assert!(BOLT.sdf_distance(&p, &b, &[]) < 0.0);
        assert!(NUT.sdf_distance(&p, &n, &[]) > 0.0);
        // the head: inside both
        let head = [0.4, 0.0, -0.1];
        assert!(NUT.sdf_distance(&head, &n, &[]) < 0.0);
    }
}
