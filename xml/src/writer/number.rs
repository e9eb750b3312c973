//! Numbers as MuJoCo's XML writer prints them (`mjXUtil::WriteAttr`): through a C++
//! `std::stringstream` with the precision MuJoCo sets for XML (`_mjPRIVATE__get_xml_precision`),
//! which formats a `double` like printf's `%.{p}g` (a `float` is widened to `double` first) and
//! an `int` in decimal.
//!
//! MuJoCo's default XML precision is 6 significant digits, which loses information; its tests
//! raise it to 17 (`FullFloatPrecision`), enough for every `double` to read back to the same
//! bits. mjrs always writes with 17 digits, so a written model compiles back bit for bit.

use std::fmt::Write;

/// The precision mjrs writes with: MuJoCo's `FullFloatPrecision` (17 significant digits).
pub const XML_PRECISION: usize = 17;

/// `std::ostream << x` after `precision(p)` with the default float field: printf's `%.{p}g`
/// (`p` 0 counts as 1), with glibc's spelling of infinities and NaNs (`inf`, `-inf`, `nan`,
/// `-nan`). Digits are correctly rounded, ties to even, as glibc does.
pub fn stream_double(x: f64, precision: usize) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.into();
    }
    let p = precision.max(1);
    // scientific notation with p significant digits gives the rounded digits and the
    // exponent %g decides with
    let sci = format!("{:.*e}", p - 1, x);
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let exp: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let mut out = String::with_capacity(p + 8);
    if mantissa.starts_with('-') {
        out.push('-');
    }
    let p_exp = i32::try_from(p).unwrap_or(i32::MAX);
    if exp < -4 || exp >= p_exp {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        let rest = rest.trim_end_matches('0');
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let sign = if exp < 0 { '-' } else { '+' };
        let _ = write!(out, "e{sign}{:02}", exp.unsigned_abs());
    } else if exp >= 0 {
        let (int, frac) = digits.split_at(exp as usize + 1);
        out.push_str(int);
        let frac = frac.trim_end_matches('0');
        if !frac.is_empty() {
            out.push('.');
            out.push_str(frac);
        }
    } else {
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(digits.trim_end_matches('0'));
    }
    out
}

/// One number of an attribute as MuJoCo's `WriteAttr` writes it, at precision `p`: values within
/// 1e-12 of an integer (and inside the `int` range) are printed as that integer, the others
/// through the stream. This is MuJoCo's exact behaviour; the writer itself uses
/// [`Number::write`], which keeps the integer shortcut only for exact integers so that nothing
/// is lost.
pub fn mujoco_number(x: f64, precision: usize) -> String {
    let isint = (x - x.floor()).abs() < 1e-12 || (x - x.ceil()).abs() < 1e-12;
    if x < f64::from(i32::MAX) && x > -f64::from(i32::MAX) && isint {
        let r = if (x - x.floor()).abs() < (x - x.ceil()).abs() {
            x.floor()
        } else {
            x.ceil()
        };
        format!("{}", r as i32)
    } else {
        stream_double(x, precision)
    }
}

/// A number type of a spec field, as the writer compares and prints it.
pub trait Number: Copy {
    /// Are the two values the same (bit for bit for reals, so that `-0` and NaN payloads count)?
    fn same(self, other: Self) -> bool;
    /// Appends the value as MuJoCo's stream at [`XML_PRECISION`] prints it.
    fn write(self, out: &mut String);
}

impl Number for f64 {
    fn same(self, other: Self) -> bool {
        self.to_bits() == other.to_bits()
    }
    fn write(self, out: &mut String) {
        out.push_str(&stream_double(self, XML_PRECISION));
    }
}

impl Number for f32 {
    fn same(self, other: Self) -> bool {
        self.to_bits() == other.to_bits()
    }
    fn write(self, out: &mut String) {
        out.push_str(&stream_double(f64::from(self), XML_PRECISION));
    }
}

impl Number for i32 {
    fn same(self, other: Self) -> bool {
        self == other
    }
    fn write(self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

/// Numbers separated by single spaces.
pub fn join<T: Number>(values: &[T]) -> String {
    let mut out = String::new();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        v.write(&mut out);
    }
    out
}

/// Are two slices the same number by number (and of the same length)?
pub fn same_slice<T: Number>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same(*y))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What g++ 12 / glibc print for `std::stringstream s; s.precision(p); s << x;` with p = 1,
    /// 2, 6, 9, 17: the bits of x, then the five strings.
    const DOUBLES: &[(u64, [&str; 5])] = &[
        (0x0, ["0", "0", "0", "0", "0"]),
        (0x8000000000000000, ["-0", "-0", "-0", "-0", "-0"]),
        (0x3ff0000000000000, ["1", "1", "1", "1", "1"]),
        (0xbff0000000000000, ["-1", "-1", "-1", "-1", "-1"]),
        (
            0x3fb999999999999a,
            ["0.1", "0.1", "0.1", "0.1", "0.10000000000000001"],
        ),
        (
            0x3fc999999999999a,
            ["0.2", "0.2", "0.2", "0.2", "0.20000000000000001"],
        ),
        (
            0x3fd5555555555555,
            [
                "0.3",
                "0.33",
                "0.333333",
                "0.333333333",
                "0.33333333333333331",
            ],
        ),
        (
            0x3fe5555555555555,
            [
                "0.7",
                "0.67",
                "0.666667",
                "0.666666667",
                "0.66666666666666663",
            ],
        ),
        (
            0x3ee4f8b588e368f1,
            ["1e-05", "1e-05", "1e-05", "1e-05", "1.0000000000000001e-05"],
        ),
        (
            0x3eef75104d551d69,
            ["2e-05", "1.5e-05", "1.5e-05", "1.5e-05", "1.5e-05"],
        ),
        (
            0x3f1a36e2eb1c432d,
            ["0.0001", "0.0001", "0.0001", "0.0001", "0.0001"],
        ),
        (
            0x3f202e85aa468b90,
            [
                "0.0001",
                "0.00012",
                "0.000123457",
                "0.00012345678",
                "0.00012345678000000001",
            ],
        ),
        (
            0x40fe240000000000,
            ["1e+05", "1.2e+05", "123456", "123456", "123456"],
        ),
        (
            0x4132d68700000000,
            ["1e+06", "1.2e+06", "1.23457e+06", "1234567", "1234567"],
        ),
        (
            0x430c6bf526340000,
            ["1e+15", "1e+15", "1e+15", "1e+15", "1000000000000000"],
        ),
        (
            0x4341c37937e08000,
            ["1e+16", "1e+16", "1e+16", "1e+16", "10000000000000000"],
        ),
        (
            0x4376345785d8a000,
            ["1e+17", "1e+17", "1e+17", "1e+17", "1e+17"],
        ),
        (
            0x437b69b4ba630f34,
            [
                "1e+17",
                "1.2e+17",
                "1.23457e+17",
                "1.23456789e+17",
                "1.2345678901234566e+17",
            ],
        ),
        (
            0x4415af1d78b58c40,
            ["1e+20", "1e+20", "1e+20", "1e+20", "1e+20"],
        ),
        (
            0x54b249ad2594c37d,
            ["1e+100", "1e+100", "1e+100", "1e+100", "1e+100"],
        ),
        (
            0x2b2bff2ee48e0530,
            ["1e-100", "1e-100", "1e-100", "1e-100", "1e-100"],
        ),
        (
            0x1,
            [
                "5e-324",
                "4.9e-324",
                "4.94066e-324",
                "4.94065646e-324",
                "4.9406564584124654e-324",
            ],
        ),
        (
            0x7fefffffffffffff,
            [
                "2e+308",
                "1.8e+308",
                "1.79769e+308",
                "1.79769313e+308",
                "1.7976931348623157e+308",
            ],
        ),
        (
            0x400921fb54442d18,
            ["3", "3.1", "3.14159", "3.14159265", "3.1415926535897931"],
        ),
        (
            0xc005bf0a8b145769,
            [
                "-3",
                "-2.7",
                "-2.71828",
                "-2.71828183",
                "-2.7182818284590451",
            ],
        ),
        (0x3fd0000000000000, ["0.2", "0.25", "0.25", "0.25", "0.25"]),
        (
            0x3fc0000000000000,
            ["0.1", "0.12", "0.125", "0.125", "0.125"],
        ),
        (0x3ff4000000000000, ["1", "1.2", "1.25", "1.25", "1.25"]),
        (0x4004000000000000, ["2", "2.5", "2.5", "2.5", "2.5"]),
        (
            0x3f90000000000000,
            ["0.02", "0.016", "0.015625", "0.015625", "0.015625"],
        ),
        (
            0x40239eb851eb851f,
            ["1e+01", "9.8", "9.81", "9.81", "9.8100000000000005"],
        ),
        (
            0xc0239eb851eb851f,
            ["-1e+01", "-9.8", "-9.81", "-9.81", "-9.8100000000000005"],
        ),
        (
            0x3f60624dd2f1a9fc,
            ["0.002", "0.002", "0.002", "0.002", "0.002"],
        ),
        (
            0x3e45798ee2308c3a,
            ["1e-08", "1e-08", "1e-08", "1e-08", "1e-08"],
        ),
        (0x4059000000000000, ["1e+02", "1e+02", "100", "100", "100"]),
        (0x4046800000000000, ["4e+01", "45", "45", "45", "45"]),
        (
            0x3fb16872b020c49c,
            ["0.07", "0.068", "0.068", "0.068", "0.068000000000000005"],
        ),
        (
            0x412e848000000000,
            ["1e+06", "1e+06", "1e+06", "1000000", "1000000"],
        ),
        (
            0x412e847f00000000,
            ["1e+06", "1e+06", "1e+06", "999999.5", "999999.5"],
        ),
        (
            0x416312cf60000000,
            ["1e+07", "1e+07", "1e+07", "9999995", "9999995"],
        ),
        (
            0x3feffffef39085f5,
            ["1", "1", "1", "0.9999995", "0.99999950000000004"],
        ),
        (
            0x405edd2f1a9fbe77,
            ["1e+02", "1.2e+02", "123.456", "123.456", "123.456"],
        ),
        (
            0x41dfffffffc00000,
            [
                "2e+09",
                "2.1e+09",
                "2.14748e+09",
                "2.14748365e+09",
                "2147483647",
            ],
        ),
        (
            0xc1e0000000000000,
            [
                "-2e+09",
                "-2.1e+09",
                "-2.14748e+09",
                "-2.14748365e+09",
                "-2147483648",
            ],
        ),
        (
            0x41f0000000000000,
            [
                "4e+09",
                "4.3e+09",
                "4.29497e+09",
                "4.2949673e+09",
                "4294967296",
            ],
        ),
        (0x7ff0000000000000, ["inf", "inf", "inf", "inf", "inf"]),
        (0xfff0000000000000, ["-inf", "-inf", "-inf", "-inf", "-inf"]),
        (0x7ff8000000000000, ["nan", "nan", "nan", "nan", "nan"]),
        (0xfff8000000000000, ["-nan", "-nan", "-nan", "-nan", "-nan"]),
        (
            0x3fd3333333333334,
            ["0.3", "0.3", "0.3", "0.3", "0.30000000000000004"],
        ),
        (
            0x3f1a36e2eb1c432c,
            [
                "0.0001",
                "0.0001",
                "0.0001",
                "0.0001",
                "9.9999999999999991e-05",
            ],
        ),
    ];

    /// The same for `float` values (widened to `double` by the stream).
    const FLOATS: &[(u32, [&str; 5])] = &[
        (
            0x3dcccccd,
            ["0.1", "0.1", "0.1", "0.100000001", "0.10000000149011612"],
        ),
        (0x3f000000, ["0.5", "0.5", "0.5", "0.5", "0.5"]),
        (
            0x3f333333,
            ["0.7", "0.7", "0.7", "0.699999988", "0.69999998807907104"],
        ),
        (
            0x3e99999a,
            ["0.3", "0.3", "0.3", "0.300000012", "0.30000001192092896"],
        ),
        (
            0x3a83126f,
            [
                "0.001",
                "0.001",
                "0.001",
                "0.00100000005",
                "0.0010000000474974513",
            ],
        ),
        (
            0x7f7fffff,
            [
                "3e+38",
                "3.4e+38",
                "3.40282e+38",
                "3.40282347e+38",
                "3.4028234663852886e+38",
            ],
        ),
        (
            0x00800000,
            [
                "1e-38",
                "1.2e-38",
                "1.17549e-38",
                "1.17549435e-38",
                "1.1754943508222875e-38",
            ],
        ),
        (
            0x3d8b4396,
            [
                "0.07",
                "0.068",
                "0.068",
                "0.0680000037",
                "0.068000003695487976",
            ],
        ),
        (
            0x3f666666,
            ["0.9", "0.9", "0.9", "0.899999976", "0.89999997615814209"],
        ),
        (
            0x3eaaaaab,
            [
                "0.3",
                "0.33",
                "0.333333",
                "0.333333343",
                "0.3333333432674408",
            ],
        ),
    ];

    const PRECISIONS: [usize; 5] = [1, 2, 6, 9, 17];

    #[test]
    fn doubles_print_as_cpp_streams() {
        for (bits, expected) in DOUBLES {
            let x = f64::from_bits(*bits);
            for (p, e) in PRECISIONS.iter().zip(expected) {
                assert_eq!(stream_double(x, *p), *e, "{x:e} at precision {p}");
            }
        }
    }

    #[test]
    fn floats_print_as_cpp_streams() {
        for (bits, expected) in FLOATS {
            let x = f32::from_bits(*bits);
            for (p, e) in PRECISIONS.iter().zip(expected) {
                assert_eq!(
                    stream_double(f64::from(x), *p),
                    *e,
                    "{x:e} at precision {p}"
                );
            }
        }
    }

    #[test]
    fn precision_zero_counts_as_one() {
        assert_eq!(stream_double(0.25, 0), "0.2");
        assert_eq!(stream_double(123.0, 0), "1e+02");
    }

    #[test]
    fn mujoco_rounds_near_integers() {
        assert_eq!(mujoco_number(1.0 + 1e-13, 17), "1");
        assert_eq!(mujoco_number(-0.0, 17), "0");
        assert_eq!(mujoco_number(2.5, 6), "2.5");
        assert_eq!(mujoco_number(3e9, 6), "3e+09");
        assert_eq!(mujoco_number(0.1, 6), "0.1");
    }

    #[test]
    fn written_values_read_back_exactly() {
        for (bits, _) in DOUBLES {
            let x = f64::from_bits(*bits);
            let mut s = String::new();
            x.write(&mut s);
            let y: f64 = match s.as_str() {
                "inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                "nan" | "-nan" => f64::NAN,
                t => t.parse().unwrap(),
            };
            assert!(
                y.to_bits() == x.to_bits() || (x.is_nan() && y.is_nan()),
                "{s}"
            );
        }
        for (bits, _) in FLOATS {
            let x = f32::from_bits(*bits);
            let mut s = String::new();
            x.write(&mut s);
            assert_eq!(s.parse::<f32>().unwrap().to_bits(), x.to_bits(), "{s}");
        }
        assert_eq!(join(&[1, -2, 30]), "1 -2 30");
    }
}
