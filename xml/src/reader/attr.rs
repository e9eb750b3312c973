//! Reading attribute values the way MuJoCo's reader does (`mjXUtil::ReadAttr` and friends).
//!
//! Numbers are whitespace-separated tokens parsed like a C++ `istringstream`: a token must be a
//! whole number of the requested type (`1.5` is not an int, `1,5` is nothing), a leading `.`
//! is allowed, `inf`/`nan` (any case, optionally `-`) are accepted, and an overflowing value is
//! an error. Fixed-length attributes must have exactly their length unless MuJoCo allows fewer.

use super::dom::Elem;
use crate::error::XmlError;
/// `bool_map`, also reachable here, where the attribute helpers that read it live.
pub use crate::keywords::BOOL;

/// A number type an attribute can hold.
pub trait Num: Copy + Default {
    /// Parses one token as a C++ stream extraction of this type would, or `None`.
    fn parse_token(token: &str) -> Option<Self>;
    /// Is this value a NaN (MuJoCo warns about NaNs in the XML)?
    fn is_nan(self) -> bool {
        false
    }
}

impl Num for i32 {
    fn parse_token(token: &str) -> Option<Self> {
        token.parse().ok()
    }
}

/// C++'s `>> double`/`>> float`: a finite decimal, or exactly `inf`/`nan` with an optional `-`.
fn parse_real<T: std::str::FromStr + Copy>(
    token: &str,
    inf: T,
    nan: T,
    neg: fn(T) -> T,
    finite: fn(T) -> bool,
) -> Option<T> {
    let lower = token.to_ascii_lowercase();
    let (sign, body) = match lower.strip_prefix('-') {
        Some(b) if lower.len() == 4 => (true, b),
        _ => (false, lower.as_str()),
    };
    if body == "inf" || body == "nan" {
        let v = if body == "inf" { inf } else { nan };
        return Some(if sign { neg(v) } else { v });
    }
    // only decimal digits, signs, points and exponents, as the C++ stream scanner accepts
    if !token
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.' | b'e' | b'E'))
    {
        return None;
    }
    let v: T = token.parse().ok()?;
    finite(v).then_some(v)
}

impl Num for f64 {
    fn parse_token(token: &str) -> Option<Self> {
        parse_real(token, f64::INFINITY, f64::NAN, |x| -x, f64::is_finite)
    }
    fn is_nan(self) -> bool {
        self.is_nan()
    }
}

impl Num for f32 {
    fn parse_token(token: &str) -> Option<Self> {
        parse_real(token, f32::INFINITY, f32::NAN, |x| -x, f32::is_finite)
    }
    fn is_nan(self) -> bool {
        self.is_nan()
    }
}

/// Everything the attribute readers need besides the element: the warnings they raise.
#[derive(Default)]
pub struct Warnings {
    /// MuJoCo's warning texts, in order.
    pub list: Vec<String>,
}

impl Warnings {
    /// Records a warning once (MuJoCo prints every one; mjrs keeps the distinct texts).
    pub fn warn(&mut self, text: &str) {
        if !self.list.iter().any(|w| w == text) {
            self.list.push(text.to_string());
        }
    }
}

/// All numbers of attribute `name`, or `None` when it is absent (`ReadAttrVec`).
pub fn values<T: Num>(
    elem: &Elem,
    name: &str,
    w: &mut Warnings,
) -> Result<Option<Vec<T>>, XmlError> {
    let Some(text) = elem.attr(name) else {
        return Ok(None);
    };
    let mut out = Vec::new();
    let mut tokens = text.split_ascii_whitespace().peekable();
    if tokens.peek().is_none() {
        return Err(elem.error(format!("problem reading attribute '{name}'")));
    }
    for token in tokens {
        let token = if let Some(rest) = token.strip_prefix('.') {
            format!("0.{rest}")
        } else if let Some(rest) = token.strip_prefix("-.") {
            format!("-0.{rest}")
        } else {
            token.to_string()
        };
        let v = T::parse_token(&token)
            .ok_or_else(|| elem.error(format!("problem reading attribute '{name}'")))?;
        if v.is_nan() {
            w.warn("XML contains a 'NaN'. Please check it carefully.");
        }
        out.push(v);
    }
    Ok(Some(out))
}

/// Reads attribute `name` into the front of `dst` (`ReadAttr`): at most `dst.len()` values,
/// exactly that many when `exact`; returns how many were read (0 when absent).
pub fn read_into<T: Num>(
    elem: &Elem,
    name: &str,
    dst: &mut [T],
    exact: bool,
    w: &mut Warnings,
) -> Result<usize, XmlError> {
    let Some(v) = values::<T>(elem, name, w)? else {
        return Ok(0);
    };
    if exact && v.len() < dst.len() {
        return Err(elem.error(format!("attribute '{name}' does not have enough data")));
    }
    if v.len() > dst.len() {
        return Err(elem.error(format!("attribute '{name}' has too much data")));
    }
    dst[..v.len()].copy_from_slice(&v);
    Ok(v.len())
}

/// Reads exactly `dst.len()` values if the attribute is present; true when it was.
pub fn read<T: Num>(
    elem: &Elem,
    name: &str,
    dst: &mut [T],
    w: &mut Warnings,
) -> Result<bool, XmlError> {
    Ok(read_into(elem, name, dst, true, w)? > 0)
}

/// Reads up to `dst.len()` values (fewer allowed); true when present.
pub fn read_upto<T: Num>(
    elem: &Elem,
    name: &str,
    dst: &mut [T],
    w: &mut Warnings,
) -> Result<bool, XmlError> {
    Ok(read_into(elem, name, dst, false, w)? > 0)
}

/// Reads one value if present.
pub fn read1<T: Num>(
    elem: &Elem,
    name: &str,
    dst: &mut T,
    w: &mut Warnings,
) -> Result<bool, XmlError> {
    read(elem, name, core::slice::from_mut(dst), w)
}

/// Reads a required attribute of exactly `dst.len()` values.
pub fn read_required<T: Num>(
    elem: &Elem,
    name: &str,
    dst: &mut [T],
    w: &mut Warnings,
) -> Result<(), XmlError> {
    if elem.attr(name).is_none() {
        return Err(missing(elem, name));
    }
    read(elem, name, dst, w).map(|_| ())
}

/// The error for a missing required attribute.
pub fn missing(elem: &Elem, name: &str) -> XmlError {
    elem.error(format!("required attribute missing: '{name}'"))
}

/// The text of attribute `name` (`ReadAttrTxt`).
pub fn text(elem: &Elem, name: &str) -> Option<String> {
    elem.attr(name).map(str::to_string)
}

/// The text of a required attribute.
pub fn text_required(elem: &Elem, name: &str) -> Result<String, XmlError> {
    text(elem, name).ok_or_else(|| missing(elem, name))
}

/// Sets `dst` to the text of attribute `name` when it is present.
pub fn set_text(elem: &Elem, name: &str, dst: &mut String) {
    if let Some(t) = elem.attr(name) {
        *dst = t.to_string();
    }
}

/// The keyword of attribute `name` mapped through `map` (`MapValue`); an unknown keyword is an
/// error.
pub fn keyword(elem: &Elem, name: &str, map: &[(&str, i32)]) -> Result<Option<i32>, XmlError> {
    let Some(t) = elem.attr(name) else {
        return Ok(None);
    };
    map.iter()
        .find(|(k, _)| *k == t)
        .map(|&(_, v)| Some(v))
        .ok_or_else(|| elem.error(format!("invalid keyword: '{t}'")))
}

/// A `true`/`false` attribute.
pub fn boolean(elem: &Elem, name: &str) -> Result<Option<bool>, XmlError> {
    Ok(keyword(elem, name, BOOL)?.map(|v| v == 1))
}

/// Sets `dst` from a `true`/`false` attribute when present.
pub fn set_bool(elem: &Elem, name: &str, dst: &mut bool) -> Result<(), XmlError> {
    if let Some(b) = boolean(elem, name)? {
        *dst = b;
    }
    Ok(())
}

/// Numbers parsed like a loop of C `strtod`/`strtol` calls that stops silently at the first
/// token that is not a number (`String2Vector`, used for skin and flex data).
pub fn string_to_vec<T: Num>(text: &str) -> Vec<T> {
    text.split_ascii_whitespace()
        .map_while(|t| T::parse_token(t))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_parse_like_cpp_streams() {
        assert_eq!(f64::parse_token("1.5e3"), Some(1500.0));
        assert_eq!(f64::parse_token("+2"), Some(2.0));
        assert!(f64::parse_token("-NaN").unwrap().is_nan());
        assert_eq!(f64::parse_token("-inf"), Some(f64::NEG_INFINITY));
        assert_eq!(f64::parse_token("infinity"), None);
        assert_eq!(f64::parse_token("+inf"), None);
        assert_eq!(f64::parse_token("1e400"), None);
        assert_eq!(f64::parse_token("1e-400"), Some(0.0));
        assert_eq!(f64::parse_token("0x10"), None);
        assert_eq!(f64::parse_token("1,5"), None);
        assert_eq!(i32::parse_token("1.0"), None);
        assert_eq!(i32::parse_token("-7"), Some(-7));
        assert_eq!(i32::parse_token("99999999999"), None);
        assert_eq!(f32::parse_token("0.1"), Some(0.1f32));
    }
}
