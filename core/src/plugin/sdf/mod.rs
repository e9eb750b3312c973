//! The signed-distance-field plugins of MuJoCo 3.1.6 (`plugin/sdf`): `mujoco.sdf.bolt`,
//! `.bowl`, `.gear`, `.nut` and `.torus`, one module each, and what they share here: the
//! constructive operations, the conversion of configuration values to numbers with defaults,
//! and the check of those values that MuJoCo's `init` makes.
//!
//! MuJoCo's mesh SDF (`mujoco.sdf.sdflib`, built on the SdfLib library) is not implemented.

pub mod bolt;
pub mod bowl;
pub mod gear;
pub mod nut;
pub mod torus;

use super::{plugin_config, PluginError};
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

/// Gradient by forward differences with step 1e-8, as the plugins without an analytic one.
pub(crate) fn forward_difference(
    distance: impl Fn(&[Real; 3]) -> Real,
    point: &[Real; 3],
) -> [Real; 3] {
    let eps: Real = 1e-8;
    let dist0 = distance(point);
    core::array::from_fn(|i| {
        let mut p = *point;
        p[i] += eps;
        (distance(&p) - dist0) / eps
    })
}

/// C++'s `std::stod`: leading white space skipped, then the longest prefix that is a number;
/// `None` when no prefix is one.
pub(crate) fn stod(value: &str) -> Option<Real> {
    let s = value.trim_start_matches(is_c_space);
    (1..=s.len())
        .rev()
        .filter(|&n| s.is_char_boundary(n))
        .find_map(|n| parse_c_number(&s[..n]))
}

/// White space as C's `isspace` in the C locale.
fn is_c_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// A whole string as `strtod` reads a number: decimal with optional sign and exponent, or
/// `inf`/`infinity`/`nan` in any case. (Hexadecimal floats are not read.)
fn parse_c_number(s: &str) -> Option<Real> {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let first = body.chars().next()?;
    let numeric = first.is_ascii_digit() || first == '.';
    let word = ["inf", "infinity", "nan"]
        .iter()
        .any(|w| body.eq_ignore_ascii_case(w));
    if !(numeric || word) {
        return None;
    }
    s.parse::<Real>().ok()
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
            Some(v) => stod(v).ok_or(PluginError(invalid))?,
        };
    }
    Ok(())
}

/// MuJoCo's `CheckAttr`: the value of `name`, with all white space removed, is empty or one
/// number with nothing after it.
pub(crate) fn check_attr(m: &Model, instance: usize, name: &str) -> bool {
    let value = plugin_config(m, instance, name).unwrap_or("");
    let mut buf = [0u8; 64];
    let mut len = 0;
    for c in value.chars().filter(|c| !is_c_space(*c)) {
        let n = c.len_utf8();
        if len + n > buf.len() {
            return false;
        }
        c.encode_utf8(&mut buf[len..len + n]);
        len += n;
    }
    let compact = core::str::from_utf8(&buf[..len]).unwrap_or("x");
    compact.is_empty() || parse_c_number(compact).is_some()
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
        Err(PluginError(warning))
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
        assert_eq!(err, Err(PluginError("bad a")));
    }
}
