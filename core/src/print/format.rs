//! printf-style formatting of one floating-point number, exactly as C's `printf` does it.
//!
//! MuJoCo prints models and datas with a `printf` format for a single float (`"% -9.2g"` by
//! default). [`FloatFormat`] accepts the same strings that MuJoCo accepts
//! (`validateFloatFormat` in `engine_print.c`: `%`, flags `-+ #0`, width, `.precision`,
//! optional `L`, one of `f g G e E`) and writes the characters C would write. The decimal
//! digits come from Rust's own float formatting (`{:.*}` and `{:.*e}`), which rounds the exact
//! binary value correctly with ties to even, as glibc does; %g, the exponent form, signs and
//! padding are assembled from them here.

use core::fmt::{self, Write};

/// Largest precision accepted; longer digit strings would need a bigger buffer than the
/// fixed one used here (C has no such limit, MuJoCo's printouts never come near it).
pub const MAX_PRECISION: usize = 40;
/// Largest field width accepted.
pub const MAX_WIDTH: usize = 999;
/// Longest format string MuJoCo accepts (`FLOAT_FORMAT_MAX_LEN`).
pub const MAX_FORMAT_LEN: usize = 20;

/// The conversion letter of a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversion {
    /// `%f`: fixed point.
    Fixed,
    /// `%e` / `%E`: exponent form; `true` for upper case.
    Exp(bool),
    /// `%g` / `%G`: the shorter of the two, trailing zeros removed; `true` for upper case.
    General(bool),
}

/// Why a format string was refused (the reasons of MuJoCo's `validateFloatFormat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatError {
    /// Longer than [`MAX_FORMAT_LEN`] characters.
    TooLong,
    /// Does not start with `%`.
    NoPercent,
    /// A flag character appears twice.
    RepeatedFlag,
    /// The conversion is not one of `f g G e E`.
    BadConversion,
    /// Characters after the conversion.
    TrailingCharacters,
    /// Width above [`MAX_WIDTH`] or precision above [`MAX_PRECISION`].
    TooLarge,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::TooLong => "format string longer than 20 characters",
            Self::NoPercent => "format string must start with '%'",
            Self::RepeatedFlag => "format string contains a repeated flag",
            Self::BadConversion => "format specifier must be one of \"fgGeE\"",
            Self::TrailingCharacters => "format string is not a single float conversion",
            Self::TooLarge => "format width or precision too large",
        })
    }
}

/// A printf conversion for one float: `%[flags][width][.precision][L]conversion`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatFormat {
    /// `-`: left-justify in the field.
    pub left: bool,
    /// `+`: always print a sign.
    pub plus: bool,
    /// ` `: a space where a plus sign would go.
    pub space: bool,
    /// `#`: always print the decimal point (and keep %g's trailing zeros).
    pub alt: bool,
    /// `0`: pad with zeros after the sign instead of spaces before it.
    pub zero: bool,
    /// Minimum field width.
    pub width: usize,
    /// Digits after the point (%f, %e) or significant digits (%g); `None`: 6.
    pub precision: Option<usize>,
    /// The conversion.
    pub conversion: Conversion,
}

impl Default for FloatFormat {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl FloatFormat {
    /// MuJoCo's default float format, `"% -9.2g"` (`FLOAT_FORMAT` in `engine_print.c`).
    pub const DEFAULT: FloatFormat = FloatFormat {
        left: true,
        plus: false,
        space: true,
        alt: false,
        zero: false,
        width: 9,
        precision: Some(2),
        conversion: Conversion::General(false),
    };

    /// `"%.8f"`, the format of `mju_printMat`.
    pub const MAT: FloatFormat = FloatFormat {
        left: false,
        plus: false,
        space: false,
        alt: false,
        zero: false,
        width: 0,
        precision: Some(8),
        conversion: Conversion::Fixed,
    };

    /// Parses a printf format for one float, accepting what MuJoCo accepts. A length
    /// modifier `L` is accepted and ignored (the value is always a double).
    pub fn parse(s: &str) -> Result<Self, FormatError> {
        let b = s.as_bytes();
        if b.len() > MAX_FORMAT_LEN {
            return Err(FormatError::TooLong);
        }
        if b.first() != Some(&b'%') {
            return Err(FormatError::NoPercent);
        }
        let mut f = FloatFormat {
            left: false,
            plus: false,
            space: false,
            alt: false,
            zero: false,
            width: 0,
            precision: None,
            conversion: Conversion::Fixed,
        };
        let mut i = 1;
        while let Some(&c) = b.get(i) {
            let flag = match c {
                b'-' => &mut f.left,
                b'+' => &mut f.plus,
                b' ' => &mut f.space,
                b'#' => &mut f.alt,
                b'0' => &mut f.zero,
                _ => break,
            };
            if *flag {
                return Err(FormatError::RepeatedFlag);
            }
            *flag = true;
            i += 1;
        }
        let (width, next) = digits(b, i);
        f.width = width.ok_or(FormatError::TooLarge)?;
        i = next;
        if b.get(i) == Some(&b'.') {
            let (precision, next) = digits(b, i + 1);
            f.precision = Some(precision.ok_or(FormatError::TooLarge)?);
            i = next;
        }
        if b.get(i) == Some(&b'L') {
            i += 1;
        }
        f.conversion = match b.get(i) {
            Some(b'f') => Conversion::Fixed,
            Some(b'e') => Conversion::Exp(false),
            Some(b'E') => Conversion::Exp(true),
            Some(b'g') => Conversion::General(false),
            Some(b'G') => Conversion::General(true),
            _ => return Err(FormatError::BadConversion),
        };
        if i + 1 != b.len() {
            return Err(FormatError::TrailingCharacters);
        }
        if f.width > MAX_WIDTH || f.precision.is_some_and(|p| p > MAX_PRECISION) {
            return Err(FormatError::TooLarge);
        }
        Ok(f)
    }

    /// Writes `x` as C's `printf` writes it with this format.
    pub fn write<W: Write + ?Sized>(&self, w: &mut W, x: f64) -> fmt::Result {
        let mut body = Buf::new();
        let upper = matches!(
            self.conversion,
            Conversion::Exp(true) | Conversion::General(true)
        );
        let finite = x.is_finite();
        if finite {
            self.digits(&mut body, x.abs())?;
        } else {
            let s = match (x.is_nan(), upper) {
                (true, false) => "nan",
                (true, true) => "NAN",
                (false, false) => "inf",
                (false, true) => "INF",
            };
            body.write_str(s)?;
        }
        let sign = if x.is_sign_negative() {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        };
        let pad = self.width.saturating_sub(sign.len() + body.len);
        if self.left {
            w.write_str(sign)?;
            w.write_str(body.as_str())?;
            repeat(w, ' ', pad)
        } else if self.zero && finite {
            w.write_str(sign)?;
            repeat(w, '0', pad)?;
            w.write_str(body.as_str())
        } else {
            repeat(w, ' ', pad)?;
            w.write_str(sign)?;
            w.write_str(body.as_str())
        }
    }

    /// The digits of a finite, non-negative `a`, without sign or padding.
    fn digits(&self, out: &mut Buf, a: f64) -> fmt::Result {
        let precision = self.precision.unwrap_or(6);
        match self.conversion {
            Conversion::Fixed => fixed(out, a, precision, self.alt),
            Conversion::Exp(upper) => exp(out, a, precision, self.alt, upper),
            Conversion::General(upper) => {
                let p = precision.max(1);
                let mut probe = Buf::new();
                write!(probe, "{:.*e}", p - 1, a)?;
                let x = exponent_of(probe.as_str());
                if x < p as i32 && x >= -4 {
                    fixed(out, a, (p as i32 - 1 - x) as usize, self.alt)?;
                } else if self.alt && x == p as i32 && exponent_unrounded(a) == x - 1 {
                    // glibc: rounding carried into a new digit after fixed notation was chosen
                    // with no fraction digits (`%#g` of 999999.5 is "1.e+06")
                    exp(out, a, 0, true, upper)?;
                } else {
                    exp(out, a, p - 1, self.alt, upper)?;
                }
                if !self.alt {
                    out.strip_trailing_zeros();
                }
                Ok(())
            }
        }
    }
}

/// `%f` digits.
fn fixed(out: &mut Buf, a: f64, precision: usize, alt: bool) -> fmt::Result {
    write!(out, "{a:.precision$}")?;
    if alt && precision == 0 {
        out.write_char('.')?;
    }
    Ok(())
}

/// `%e` digits: Rust's `d.ddde-5` rewritten as C's `d.ddde-05`.
fn exp(out: &mut Buf, a: f64, precision: usize, alt: bool, upper: bool) -> fmt::Result {
    let mut rust = Buf::new();
    write!(rust, "{a:.precision$e}")?;
    let s = rust.as_str();
    let e = s.find('e').unwrap_or(s.len());
    out.write_str(&s[..e])?;
    if alt && precision == 0 {
        out.write_char('.')?;
    }
    let x = exponent_of(s);
    out.write_char(if upper { 'E' } else { 'e' })?;
    out.write_char(if x < 0 { '-' } else { '+' })?;
    write!(out, "{:02}", x.unsigned_abs())
}

/// The exponent of Rust's exponent form (`1.5e-7` -> -7).
fn exponent_of(s: &str) -> i32 {
    s.find('e')
        .and_then(|e| s[e + 1..].parse().ok())
        .unwrap_or(0)
}

/// The decimal exponent of `a` itself, before any rounding (that of its shortest
/// representation, which never rounds up to the next power of ten).
fn exponent_unrounded(a: f64) -> i32 {
    let mut b = Buf::new();
    match write!(b, "{a:e}") {
        Ok(()) => exponent_of(b.as_str()),
        Err(_) => 0,
    }
}

/// A decimal number at `b[i..]`: (value, or `None` above [`MAX_WIDTH`]; index after it).
fn digits(b: &[u8], mut i: usize) -> (Option<usize>, usize) {
    let mut v = Some(0usize);
    while let Some(&c) = b.get(i).filter(|c| c.is_ascii_digit()) {
        v = v
            .and_then(|v| v.checked_mul(10)?.checked_add(usize::from(c - b'0')))
            .filter(|&v| v <= MAX_WIDTH);
        i += 1;
    }
    (v, i)
}

fn repeat<W: Write + ?Sized>(w: &mut W, c: char, n: usize) -> fmt::Result {
    for _ in 0..n {
        w.write_char(c)?;
    }
    Ok(())
}

/// A fixed-size text buffer that `write!` fills; writing past its end is an `fmt::Error`.
pub(super) struct TextBuf<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

/// Room for one formatted number: the longest is `%.40f` of `f64::MAX`, 350 bytes.
type Buf = TextBuf<384>;

impl<const N: usize> TextBuf<N> {
    pub(super) fn new() -> Self {
        TextBuf {
            bytes: [0; N],
            len: 0,
        }
    }

    pub(super) fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }

    /// %g without `#`: drops the zeros that end the fraction, and the point if nothing is
    /// left after it (in the mantissa of an exponent form too).
    fn strip_trailing_zeros(&mut self) {
        let s = &self.bytes[..self.len];
        let Some(point) = s.iter().position(|&c| c == b'.') else {
            return;
        };
        let end = s
            .iter()
            .position(|&c| c == b'e' || c == b'E')
            .unwrap_or(s.len());
        let mut keep = end;
        while keep > point + 1 && s[keep - 1] == b'0' {
            keep -= 1;
        }
        if keep == point + 1 {
            keep = point;
        }
        self.bytes.copy_within(end..self.len, keep);
        self.len -= end - keep;
    }
}

impl<const N: usize> Write for TextBuf<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.bytes
            .get_mut(self.len..end)
            .ok_or(fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(f: &str, x: f64) -> String {
        let mut s = String::new();
        FloatFormat::parse(f).unwrap().write(&mut s, x).unwrap();
        s
    }

    // expected strings from glibc's snprintf
    #[test]
    fn default_format_matches_printf() {
        let cases = [
            (0.0, " 0       "),
            (-0.0, "-0       "),
            (1.0, " 1       "),
            (-1.5, "-1.5     "),
            (0.002, " 0.002   "),
            (9.81, " 9.8     "),
            (-9.81, "-9.8     "),
            (99.5, " 1e+02   "),
            (100.0, " 1e+02   "),
            (0.0001, " 0.0001  "),
            (0.00001, " 1e-05   "),
            (1e-8, " 1e-08   "),
            (0.125, " 0.12    "),
            (12345.0, " 1.2e+04 "),
            (1e300, " 1e+300  "),
            (f64::INFINITY, " inf     "),
            (f64::NEG_INFINITY, "-inf     "),
            (f64::NAN, " nan     "),
            (-f64::NAN, "-nan     "),
        ];
        for (x, want) in cases {
            assert_eq!(fmt("% -9.2g", x), want, "{x}");
        }
    }

    #[test]
    fn other_conversions_match_printf() {
        assert_eq!(fmt("%.8f", 1.0 / 3.0), "0.33333333");
        assert_eq!(fmt("%9.6f", -2.5), "-2.500000");
        assert_eq!(fmt("%.4f", 0.0), "0.0000");
        assert_eq!(fmt("%e", 12345.678), "1.234568e+04");
        assert_eq!(fmt("%E", 1e-123), "1.000000E-123");
        assert_eq!(fmt("%+.3e", 0.0), "+0.000e+00");
        assert_eq!(fmt("%g", 100000.0), "100000");
        assert_eq!(fmt("%g", 1000000.0), "1e+06");
        assert_eq!(fmt("%G", 1e-10), "1E-10");
        assert_eq!(fmt("%#g", 1.0), "1.00000");
        assert_eq!(fmt("%#.0f", 3.0), "3.");
        assert_eq!(fmt("%#.0e", 3.0), "3.e+00");
        assert_eq!(fmt("%#g", 999999.5), "1.e+06");
        assert_eq!(fmt("%#.3g", 99.99), "100.");
        assert_eq!(fmt("%#.2g", 995.0), "1.0e+03");
        assert_eq!(fmt("%010.3f", -3.25159), "-00003.252");
        assert_eq!(fmt("%-+8.1f", 2.25), "+2.2    ");
        assert_eq!(fmt("%08g", f64::INFINITY), "     inf");
        assert_eq!(fmt("%.0g", 0.5), "0.5");
        assert_eq!(fmt("%.17g", 0.1), "0.10000000000000001");
    }

    #[test]
    fn bad_formats_are_refused() {
        assert_eq!(FloatFormat::parse("g"), Err(FormatError::NoPercent));
        assert_eq!(FloatFormat::parse("%--g"), Err(FormatError::RepeatedFlag));
        assert_eq!(FloatFormat::parse("%d"), Err(FormatError::BadConversion));
        assert_eq!(FloatFormat::parse("%*g"), Err(FormatError::BadConversion));
        assert_eq!(
            FloatFormat::parse("%g "),
            Err(FormatError::TrailingCharacters)
        );
        assert_eq!(
            FloatFormat::parse("%12345678901234567890g"),
            Err(FormatError::TooLong)
        );
        assert_eq!(FloatFormat::parse("%.99g"), Err(FormatError::TooLarge));
        assert_eq!(FloatFormat::parse("%99999g"), Err(FormatError::TooLarge));
        assert_eq!(FloatFormat::parse("% -9.2g"), Ok(FloatFormat::DEFAULT));
        assert_eq!(FloatFormat::parse("%.8f"), Ok(FloatFormat::MAT));
        // C would read a long double here; MuJoCo passes a double, so the value is the double
        assert!(FloatFormat::parse("%Lg").is_ok());
    }
}
