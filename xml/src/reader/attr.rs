//! Reading attribute values the way MuJoCo's reader does (`mjXUtil::ReadAttr` and friends).
//!
//! Numbers are whitespace-separated tokens parsed like a C++ `istringstream`: a token must be a
//! whole number of the requested type (`1.5` is not an int, `1,5` is nothing), a leading `.`
//! is allowed, `inf`/`nan` (any case, optionally signed) and hexadecimal floats are accepted,
//! and a value out of range (overflow, or inexact underflow to a subnormal) is an error. Fixed-length attributes must have exactly their length unless MuJoCo allows fewer.

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

/// A floating-point type as MuJoCo's stream extraction reads it.
trait Real: std::str::FromStr + Copy {
    /// Significand bits, the exponent of the smallest normal value and the largest finite value.
    const DIGITS: u32;
    const MIN_EXP: i32;
    const MAX: f64;
    const INFINITY: Self;
    const NAN: Self;
    fn from_f64(x: f64) -> Self;
    fn to_f64(self) -> f64;
}

impl Real for f64 {
    const DIGITS: u32 = 53;
    const MIN_EXP: i32 = -1022;
    const MAX: f64 = f64::MAX;
    const INFINITY: Self = f64::INFINITY;
    const NAN: Self = f64::NAN;
    fn from_f64(x: f64) -> Self {
        x
    }
    fn to_f64(self) -> f64 {
        self
    }
}

impl Real for f32 {
    const DIGITS: u32 = 24;
    const MIN_EXP: i32 = -126;
    const MAX: f64 = f32::MAX as f64;
    const INFINITY: Self = f32::INFINITY;
    const NAN: Self = f32::NAN;
    fn from_f64(x: f64) -> Self {
        // exact: the value was rounded to f32's precision and range already
        x as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

/// C++'s `>> double`/`>> float` in MuJoCo 3.1.6's build (libc++ over C `strtod`): the token may
/// hold only the characters the stream collects (digits, hex digits, `x`, `p`, `i`, `n`, signs,
/// point), `strtod` must read all of it (decimal or hexadecimal, `inf`, `nan`), and a result
/// out of range fails: overflow, or underflow to a subnormal or zero that is not exact (ERANGE).
fn parse_real<T: Real>(token: &str) -> Option<T> {
    let collected = |c: u8| c.is_ascii_hexdigit() || b"xXpPiInN+-.".contains(&c);
    if !token.bytes().all(collected) {
        return None;
    }
    let (neg, body) = match token.as_bytes().first() {
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    let sign = |x: f64| if neg { -x } else { x };
    let lower = body.to_ascii_lowercase();
    if lower == "inf" || lower == "nan" {
        let v = if lower == "inf" { T::INFINITY } else { T::NAN };
        return Some(T::from_f64(sign(v.to_f64())));
    }
    if let Some(hex) = lower.strip_prefix("0x") {
        let (v, exact) = parse_hex(hex, T::DIGITS, T::MIN_EXP)?;
        return in_range::<T>(v, exact).then(|| T::from_f64(sign(v)));
    }
    if !body
        .bytes()
        .all(|c| c.is_ascii_digit() || b"eE+-.".contains(&c))
    {
        return None;
    }
    let v: T = token.parse().ok()?;
    // a decimal subnormal is never exact; zero is exact when every digit is zero
    let mantissa = body.split(['e', 'E']).next().unwrap_or_default();
    let zero = mantissa.bytes().all(|c| c == b'0' || c == b'.');
    in_range::<T>(v.to_f64(), zero).then_some(v)
}

fn min_normal<T: Real>() -> f64 {
    pow2(T::MIN_EXP)
}

/// `strtod`'s ERANGE: overflow, or a tiny (subnormal or zero) result that is not exact.
fn in_range<T: Real>(v: f64, exact: bool) -> bool {
    let a = v.abs();
    a <= T::MAX && (exact || a >= min_normal::<T>())
}

/// 2^e for the exponents of normal doubles.
fn pow2(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// `x * 2^e`, exact whenever the result is representable.
fn ldexp(mut x: f64, mut e: i32) -> f64 {
    while e != 0 {
        let step = e.clamp(-1000, 1000);
        x *= pow2(step);
        e -= step;
    }
    x
}

/// The magnitude of a hexadecimal float (after `0x`), rounded to nearest-even at `digits`
/// significant bits with gradual underflow below 2^`min_exp`; `None` when it is malformed.
/// Returns whether the rounding was exact.
fn parse_hex(s: &str, digits: u32, min_exp: i32) -> Option<(f64, bool)> {
    let (mant, exp) = match s.split_once('p') {
        Some((m, e)) => (m, Some(e)),
        None => (s, None),
    };
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut e: i64 = match exp {
        Some(x) => parse_exponent(x)?,
        None => 0,
    };
    let (mut m, mut sticky) = (0u64, false);
    for (i, c) in int.chars().chain(frac.chars()).enumerate() {
        let d = u64::from(c.to_digit(16)?);
        let after_point = i >= int.len();
        if m >> 56 == 0 {
            m = m * 16 + d;
            e -= if after_point { 4 } else { 0 };
        } else {
            // digits past 60 significant bits only decide the rounding
            sticky |= d != 0;
            e += if after_point { 0 } else { 4 };
        }
    }
    if m == 0 {
        return Some((0.0, !sticky));
    }
    let bits = i64::from(64 - m.leading_zeros());
    let top = e + bits - 1;
    if top > 2000 {
        return Some((f64::INFINITY, false));
    }
    let prec = if top >= i64::from(min_exp) {
        i64::from(digits)
    } else {
        i64::from(digits) - (i64::from(min_exp) - top)
    };
    let shift = (bits - prec).max(0);
    let (kept, exact) = round_shift(m, shift, sticky);
    let e = i32::try_from(e + shift).unwrap_or(i32::MIN);
    Some((ldexp(kept as f64, e.max(-3000)), exact))
}

/// `m >> shift` rounded to nearest, ties to even, with `sticky` bits below `m`.
fn round_shift(m: u64, shift: i64, sticky: bool) -> (u64, bool) {
    if shift == 0 {
        return (m, !sticky);
    }
    if shift > 64 {
        return (0, false);
    }
    let m = u128::from(m);
    let kept = (m >> shift) as u64;
    let rem = m & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    let up = rem > half || (rem == half && (sticky || kept & 1 == 1));
    (kept + u64::from(up), rem == 0 && !sticky)
}

/// A binary exponent: an optional sign and decimal digits (saturating far out of range).
fn parse_exponent(s: &str) -> Option<i64> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let v = digits
        .bytes()
        .fold(0i64, |a, c| (a * 10 + i64::from(c - b'0')).min(100_000));
    Some(if neg { -v } else { v })
}

impl Num for f64 {
    fn parse_token(token: &str) -> Option<Self> {
        parse_real(token)
    }
    fn is_nan(self) -> bool {
        self.is_nan()
    }
}

impl Num for f32 {
    fn parse_token(token: &str) -> Option<Self> {
        parse_real(token)
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
        assert_eq!(f64::parse_token("+inf"), Some(f64::INFINITY));
        assert_eq!(f64::parse_token("1e400"), None);
        assert_eq!(f64::parse_token("nan(1)"), None);
        assert_eq!(f64::parse_token("1e5."), None);
        assert_eq!(f64::parse_token("0x10"), Some(16.0));
        assert_eq!(f64::parse_token("1,5"), None);
    }

    proptest::proptest! {
        /// Any token of the characters the stream collects reads or is refused, never a panic.
        #[test]
        fn number_soup_never_panics(t in "[-+.0-9a-fA-FxXpPiInN]{0,40}") {
            let _ = f64::parse_token(&t);
            let _ = f32::parse_token(&t);
        }
    }

    /// The answers MuJoCo 3.1.6 gives (checked with the reference).
    #[test]
    fn range_and_hex_as_strtod() {
        let f = f64::parse_token;
        assert_eq!(f("0x1p-2"), Some(0.25));
        assert_eq!(f("-0x1.8"), Some(-1.5));
        assert_eq!(f("0X.8P0"), Some(0.5));
        assert_eq!(f("0x1p-1074"), Some(f64::from_bits(1)));
        for refused in [
            "0x1p",
            "0x",
            "1e",
            "1e+",
            "0x1p-1075",
            "0x3p-1076",
            "0x1p1024",
        ] {
            assert_eq!(f(refused), None, "{refused}");
        }
        for refused in [
            "1e-310",
            "-1e-310",
            "1e-320",
            "1e-400",
            "2.2250738585072011e-308",
        ] {
            assert_eq!(f(refused), None, "{refused}");
        }
        assert_eq!(f("2.2250738585072014e-308"), Some(f64::MIN_POSITIVE));
        assert_eq!(f("0e-400"), Some(0.0));
        assert_eq!(f("0x1.fffffffffffff8p1023"), None);
        assert_eq!(f32::parse_token("0x1p-149"), Some(f32::from_bits(1)));
        for refused in [
            "1e-40",
            "0x1p-150",
            "1e-38",
            "3.5e38",
            "1e-45",
            "0x1.ffffffp127",
        ] {
            assert_eq!(f32::parse_token(refused), None, "{refused}");
        }
        assert_eq!(f32::parse_token("3.4e38"), Some(3.4e38));
        assert_eq!(i32::parse_token("1.0"), None);
        assert_eq!(i32::parse_token("-7"), Some(-7));
        assert_eq!(i32::parse_token("99999999999"), None);
        assert_eq!(f32::parse_token("0.1"), Some(0.1f32));
    }
}
