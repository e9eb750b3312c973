//! C's `strtod(value, NULL)`, as MuJoCo's plugins read numeric configuration values: the
//! longest prefix that is a number counts, the rest is ignored, and no number at all reads as 0.
//!
//! Accepted, as glibc does: leading white space, a sign, decimal numbers with an optional
//! exponent, hexadecimal numbers (`0x1.8p3`), `inf`/`infinity` and `nan`/`nan(chars)` in any
//! case. Out-of-range values overflow to infinity and underflow to zero or a subnormal, as
//! `strtod` returns them (its `ERANGE` is not seen by a caller passing `NULL`).

/// The number at the start of `s`, as `strtod(s, NULL)` reads it (0 when there is none).
pub fn strtod(s: &str) -> f64 {
    strtod_end(s).0
}

/// `strtod(s, &end)`: the number at the start of `s` and the number of bytes it took (`end - s`),
/// 0 when `s` does not start with a number (leading white space then counts as not read).
pub fn strtod_end(s: &str) -> (f64, usize) {
    let b = s.as_bytes();
    let mut i = b.iter().take_while(|&&c| is_c_space(c)).count();
    let negative = b.get(i) == Some(&b'-');
    if matches!(b.get(i), Some(b'-' | b'+')) {
        i += 1;
    }
    let rest = &b[i..];
    let (magnitude, len) = special(rest)
        .or_else(|| hexadecimal(rest))
        .unwrap_or_else(|| decimal(rest));
    if len == 0 {
        return (0.0, 0);
    }
    let value = if negative { -magnitude } else { magnitude };
    (value, i + len)
}

/// Whether all of `s` is one number once its white space is removed: the check MuJoCo's
/// elasticity plugins make of a numeric attribute (`CheckAttr`: `strtod` must read to the end).
/// Empty text passes, as `strtod` then ends where the text does.
pub fn is_number_without_spaces(s: &str) -> bool {
    let mut t = s.bytes().filter(|&c| !is_c_space(c)).peekable();
    if t.peek().is_none() {
        return true;
    }
    if matches!(t.peek(), Some(b'+' | b'-')) {
        t.next();
    }
    let mut rest = [0u8; 9];
    let mut k = 0;
    let lower = |c: u8| c.to_ascii_lowercase();
    // keywords and the hexadecimal prefix need a look at the first characters
    for c in t.clone().take(rest.len()) {
        rest[k] = lower(c);
        k += 1;
    }
    let head = &rest[..k];
    if head.starts_with(b"inf") {
        return head == b"inf" || head == b"infinity";
    }
    if head.starts_with(b"nan") {
        return nan_tail_is_whole(t.skip(3));
    }
    if head.starts_with(b"0x") {
        return mantissa_is_whole(t.skip(2), 16, b'p');
    }
    mantissa_is_whole(t, 10, b'e')
}

/// `()` or `(chars)` after `nan`, or nothing: what `strtod` reads whole.
fn nan_tail_is_whole(mut t: impl Iterator<Item = u8>) -> bool {
    match t.next() {
        None => true,
        Some(b'(') => {
            let mut closed = false;
            for c in t {
                if closed || !(c.is_ascii_alphanumeric() || c == b'_' || c == b')') {
                    return false;
                }
                closed = c == b')';
            }
            closed
        }
        Some(_) => false,
    }
}

/// `digits[.digits][marker[sign]digits]` in base `radix` (exponent digits decimal), with at
/// least one mantissa digit, and nothing after it.
fn mantissa_is_whole(t: impl Iterator<Item = u8>, radix: u32, marker: u8) -> bool {
    let mut digits = 0usize;
    let mut point = false;
    let mut exponent: Option<usize> = None; // digits of the exponent, once its marker is seen
    let mut signed = false;
    for c in t {
        match exponent {
            None if char::from(c).is_digit(radix) => digits += 1,
            None if c == b'.' && !point => point = true,
            None if c.eq_ignore_ascii_case(&marker) && digits > 0 => exponent = Some(0),
            Some(0) if matches!(c, b'+' | b'-') && !signed => signed = true,
            Some(n) if c.is_ascii_digit() => exponent = Some(n + 1),
            _ => return false,
        }
    }
    digits > 0 && exponent != Some(0)
}

/// C's `isspace` in the "C" locale.
pub(crate) fn is_c_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn starts_with_ignore_case(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// `inf`, `infinity`, `nan` (with or without a parenthesised tail, which only sets payload bits).
fn special(s: &[u8]) -> Option<(f64, usize)> {
    if starts_with_ignore_case(s, b"infinity") {
        Some((f64::INFINITY, 8))
    } else if starts_with_ignore_case(s, b"inf") {
        Some((f64::INFINITY, 3))
    } else if starts_with_ignore_case(s, b"nan") {
        Some((f64::NAN, 3 + nan_tail_len(&s[3..])))
    } else {
        None
    }
}

/// Length of `(chars)` after `nan` (letters, digits and `_`), 0 when it is not closed.
fn nan_tail_len(s: &[u8]) -> usize {
    if s.first() != Some(&b'(') {
        return 0;
    }
    let chars = span(&s[1..], |c| c.is_ascii_alphanumeric() || c == b'_');
    if s.get(1 + chars) == Some(&b')') {
        chars + 2
    } else {
        0
    }
}

/// Number of leading bytes of `s` that satisfy `f`.
fn span(s: &[u8], f: impl Fn(u8) -> bool) -> usize {
    s.iter().take_while(|&&c| f(c)).count()
}

/// A decimal number `digits[.digits][e[sign]digits]` (at least one mantissa digit) and its
/// length; 0 and length 0 if none.
fn decimal(s: &[u8]) -> (f64, usize) {
    let int = span(s, |c| c.is_ascii_digit());
    let mut end = int;
    if s.get(end) == Some(&b'.') {
        let frac = span(&s[end + 1..], |c| c.is_ascii_digit());
        if int + frac > 0 {
            end += 1 + frac;
        }
    }
    if end == 0 {
        return (0.0, 0);
    }
    end += exponent_len(&s[end..], b'e');
    // the prefix is a well-formed Rust float literal, which core rounds correctly as glibc does
    let value = core::str::from_utf8(&s[..end])
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0.0);
    (value, end)
}

/// Length of an exponent `e[sign]digits` (marker `e` or `p`) at the start of `s`; 0 when
/// incomplete, as `strtod` then stops before the marker.
fn exponent_len(s: &[u8], marker: u8) -> usize {
    if !s.first().is_some_and(|c| c.eq_ignore_ascii_case(&marker)) {
        return 0;
    }
    let sign = usize::from(matches!(s.get(1), Some(b'+' | b'-')));
    let digits = span(&s[1 + sign..], |c| c.is_ascii_digit());
    if digits == 0 {
        0
    } else {
        1 + sign + digits
    }
}

/// A hexadecimal number `0x hexdigits[.hexdigits][p[sign]digits]`; `None` when `s` does not
/// start with `0x` and a hex digit (then `strtod` reads the `0` alone, as [`decimal`] does);
/// with its length.
fn hexadecimal(s: &[u8]) -> Option<(f64, usize)> {
    if !starts_with_ignore_case(s, b"0x") {
        return None;
    }
    let body = &s[2..];
    let int = span(body, |c| c.is_ascii_hexdigit());
    let frac = if body.get(int) == Some(&b'.') {
        span(&body[int + 1..], |c| c.is_ascii_hexdigit())
    } else {
        0
    };
    if int + frac == 0 {
        return None;
    }
    let mantissa_end = if frac > 0 || body.get(int) == Some(&b'.') {
        int + 1 + frac
    } else {
        int
    };
    let exp_len = exponent_len(&body[mantissa_end..], b'p');
    let exp_digits = &body[mantissa_end..mantissa_end + exp_len];
    let value = hex_value(&body[..int], &body[int..mantissa_end], exp_digits);
    Some((value, 2 + mantissa_end + exp_len))
}

/// The value of hex digits `int`, `.frac` (with its point) and exponent `p...`, rounded to
/// nearest-even (exact for results in the normal range).
fn hex_value(int: &[u8], frac: &[u8], exp: &[u8]) -> f64 {
    // 60 significant bits and a sticky bit are enough for one correct rounding to 53 bits
    let mut bits: u64 = 0;
    let mut sticky = false;
    let mut scale: i64 = 0;
    let frac_digits = frac.get(1..).unwrap_or_default();
    for (k, &c) in int.iter().chain(frac_digits).enumerate() {
        let v = u64::from(hex_digit(c));
        if bits >> 56 == 0 {
            bits = bits << 4 | v;
            if k >= int.len() {
                scale -= 4;
            }
        } else {
            sticky |= v != 0;
            if k < int.len() {
                scale += 4;
            }
        }
    }
    let mut e: i64 = 0;
    if let Some((&sign, digits)) = exp.get(1..).and_then(|t| t.split_first()) {
        let (neg, digits) = match sign {
            b'-' => (true, digits),
            b'+' => (false, digits),
            _ => (false, &exp[1..]),
        };
        for &c in digits {
            e = (e * 10 + i64::from(c - b'0')).min(1 << 20);
        }
        if neg {
            e = -e;
        }
    }
    let mantissa = (bits | u64::from(sticky)) as f64;
    ldexp(mantissa, scale + e)
}

fn hex_digit(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}

/// `x * 2^e` by powers of two that are exact (rounds once only when the result is subnormal).
fn ldexp(mut x: f64, e: i64) -> f64 {
    let mut e = e.clamp(-4000, 4000) as i32;
    while e != 0 && x != 0.0 && x.is_finite() {
        let step = e.clamp(-1000, 1000);
        x *= f64::from_bits(((step + 1023) as u64) << 52);
        e -= step;
    }
    x
}

#[cfg(test)]
mod tests {
    use super::{is_number_without_spaces, strtod, strtod_end};

    /// Answers of glibc's `strtod(s, NULL)`.
    #[test]
    fn reads_the_longest_number_prefix_as_glibc() {
        assert_eq!(strtod(""), 0.0);
        assert_eq!(strtod("abc"), 0.0);
        assert_eq!(strtod("4.0"), 4.0);
        assert_eq!(strtod("  .5"), 0.5);
        assert_eq!(strtod("\t-2e1xyz"), -20.0);
        assert_eq!(strtod("1.5e"), 1.5);
        assert_eq!(strtod("1e+"), 1.0);
        assert_eq!(strtod("5."), 5.0);
        assert_eq!(strtod("."), 0.0);
        assert_eq!(strtod("-"), 0.0);
        assert_eq!(strtod("1,5"), 1.0);
        assert_eq!(strtod("1e400"), f64::INFINITY);
        assert_eq!(strtod("-1e-400"), -0.0);
        assert!(strtod("-1e-400").is_sign_negative());
        assert_eq!(strtod("4.9e-324"), 5e-324);
        assert_eq!(strtod("Infinity"), f64::INFINITY);
        assert_eq!(strtod("-inFx"), f64::NEG_INFINITY);
        assert!(strtod("nan(123)").is_nan());
        assert!(strtod("NAN").is_nan());
        assert_eq!(strtod("0x10"), 16.0);
        assert_eq!(strtod("0x1.8p1"), 3.0);
        assert_eq!(strtod("0X.8"), 0.5);
        assert_eq!(strtod("0x1p-1074"), 5e-324);
        assert_eq!(strtod("0x1p"), 1.0);
        assert_eq!(strtod("0xg"), 0.0);
        assert_eq!(strtod("0x"), 0.0);
        assert_eq!(strtod("0x1p99999"), f64::INFINITY);
        assert_eq!(strtod("0x123456789abcdef123"), 3.358_127_276_707_303e20);
        assert_eq!(strtod("0.1"), 0.1);
        assert_eq!(strtod("+7"), 7.0);
        assert_eq!(strtod("infinit"), f64::INFINITY);
        // ties and sticky bits beyond the 53rd
        assert_eq!(strtod("0x1.fffffffffffff8p0"), 2.0);
        assert_eq!(strtod("0x1.00000000000008p0"), 1.0);
        assert_eq!(strtod("0x1.000000000000081p0"), 1.000_000_000_000_000_2);
    }

    /// Where glibc's `strtod(s, &end)` stops.
    #[test]
    fn reads_as_far_as_glibc() {
        assert_eq!(strtod_end(""), (0.0, 0));
        assert_eq!(strtod_end("  x"), (0.0, 0));
        assert_eq!(strtod_end(" -"), (0.0, 0));
        assert_eq!(strtod_end(" 12 "), (12.0, 3));
        assert_eq!(strtod_end("5."), (5.0, 2));
        assert_eq!(strtod_end("1e+"), (1.0, 1));
        assert_eq!(strtod_end("1e+2x"), (100.0, 4));
        assert_eq!(strtod_end("-infinity!"), (f64::NEG_INFINITY, 9));
        assert_eq!(strtod_end("infinit"), (f64::INFINITY, 3));
        assert_eq!(strtod_end("nan(a_1)x").1, 8);
        assert_eq!(strtod_end("nan(a").1, 3);
        assert_eq!(strtod_end("0x1.8p1z"), (3.0, 7));
        assert_eq!(strtod_end("0x1p"), (1.0, 3));
        assert_eq!(strtod_end("0xg"), (0.0, 1));
        assert_eq!(strtod_end("0x1."), (1.0, 4));
    }

    /// MuJoCo's `CheckAttr`: white space anywhere is dropped, then `strtod` must read it all.
    #[test]
    fn whole_numbers_once_spaces_are_removed() {
        for ok in [
            "",
            "  ",
            "1",
            " 1 e 5 ",
            "-2.5",
            "+.5",
            "5.",
            "1e-3",
            "0x1p3",
            "0X.8",
            "inf",
            "-Infinity",
            "nan",
            "NaN()",
            "nan(x_9)",
            "1\t0",
        ] {
            assert!(is_number_without_spaces(ok), "{ok:?}");
        }
        for bad in [
            "a",
            "1a",
            "1e",
            "1e+",
            ".",
            "-",
            "1..2",
            "1e5.0",
            "0x",
            "0xg",
            "0x1p",
            "infin",
            "infinityy",
            "nan(",
            "nan(a)b",
            "1,5",
            "1 2x",
        ] {
            assert!(!is_number_without_spaces(bad), "{bad:?}");
        }
    }

    proptest::proptest! {
        /// The check agrees with where `strtod` stops, for text without white space.
        #[test]
        fn check_agrees_with_strtod(t in "[-+.0-9a-fA-FxXpPiInNtTyY()_]{0,24}") {
            proptest::prop_assert_eq!(is_number_without_spaces(&t), strtod_end(&t).1 == t.len());
        }

        /// Any text reads as some number, never a panic.
        #[test]
        fn any_text_reads(t in "[ -+.0-9a-fA-FxXpPiInN()]{0,40}") {
            let _ = strtod(&t);
        }
    }
}
