//! Numbers of OBJ files as MuJoCo 3.1.6's release library reads them: glibc's `strtold`
//! (decimal, hexadecimal, `inf`, `nan`; correctly rounded to the x87 80-bit format), clamped
//! to `±FLT_MAX`, then rounded to `float` (`fstps`, round to nearest even).
//!
//! The upstream tinyobjloader MuJoCo's build files name parses numbers with its own
//! `tryParseDouble`; the tinyobjloader compiled into MuJoCo's release binaries does not (it
//! calls `strtold` and clamps, which shows in "inf" reading as `FLT_MAX` and "0x10" as 16).
//! The two roundings (decimal to 64-bit significand, then to 24 bits) are reproduced exactly
//! with integer arithmetic.

/// A little big unsigned integer (32-bit limbs, least significant first).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(x: u64) -> Self {
        let mut b = Big(vec![x as u32, (x >> 32) as u32]);
        b.trim();
        b
    }

    fn from_u128(x: u128) -> Self {
        let mut b = Big((0..4).map(|k| (x >> (32 * k)) as u32).collect());
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn mul_add_small(&mut self, mul: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in self.0.iter_mut() {
            let x = u64::from(*limb) * u64::from(mul) + carry;
            *limb = x as u32;
            carry = x >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn pow10(n: usize) -> Self {
        let mut b = Big::from_u64(1);
        for _ in 0..n / 9 {
            b.mul_add_small(1_000_000_000, 0);
        }
        b.mul_add_small(10u32.pow((n % 9) as u32), 0);
        b
    }

    fn mul(&self, other: &Big) -> Big {
        let mut out = vec![0u32; self.0.len() + other.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in other.0.iter().enumerate() {
                let x = u64::from(out[i + j]) + u64::from(a) * u64::from(b) + carry;
                out[i + j] = x as u32;
                carry = x >> 32;
            }
            out[i + other.0.len()] = carry as u32;
        }
        let mut b = Big(out);
        b.trim();
        b
    }

    fn bits(&self) -> usize {
        match self.0.last() {
            None => 0,
            Some(&top) => 32 * (self.0.len() - 1) + (32 - top.leading_zeros() as usize),
        }
    }

    fn bit(&self, i: usize) -> bool {
        self.0.get(i / 32).is_some_and(|&l| l >> (i % 32) & 1 == 1)
    }

    /// Are any of the bits below `i` set?
    fn any_below(&self, i: usize) -> bool {
        let full = i / 32;
        if self.0.iter().take(full).any(|&l| l != 0) {
            return true;
        }
        let rem = i % 32;
        rem > 0 && self.0.get(full).is_some_and(|&l| l & ((1 << rem) - 1) != 0)
    }

    /// The bits `[lo, lo + 64)` as an integer.
    fn window(&self, lo: usize) -> u64 {
        (0..64).fold(0u64, |acc, k| acc | (u64::from(self.bit(lo + k)) << k))
    }

    fn shl(&self, n: usize) -> Big {
        let (limbs, bits) = (n / 32, n % 32);
        let mut out = vec![0u32; limbs];
        let mut carry = 0u32;
        for &l in &self.0 {
            if bits == 0 {
                out.push(l);
            } else {
                out.push((l << bits) | carry);
                carry = l >> (32 - bits);
            }
        }
        if carry > 0 {
            out.push(carry);
        }
        let mut b = Big(out);
        b.trim();
        b
    }

    fn cmp(&self, other: &Big) -> std::cmp::Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    fn sub_assign(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let x = i64::from(self.0[i]) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            self.0[i] = x as u32;
            borrow = i64::from(x < 0);
        }
        self.trim();
    }
}

/// A positive value `m * 2^e` with `m` a 64-bit significand (top bit set), as `strtold`
/// rounds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Extended {
    m: u64,
    e: i64,
}

/// Rounds `n * 2^e` (n > 0) to a 64-bit significand, to nearest even; `sticky` says the exact
/// value is a little above `n * 2^e`.
fn round64(n: &Big, e: i64, sticky: bool) -> Extended {
    let len = n.bits();
    if len <= 64 && !sticky {
        let m = n.window(0) << (64 - len);
        return Extended {
            m,
            e: e - (64 - len as i64),
        };
    }
    // more than 64 bits, or a sticky tail (then `n` carries enough guard bits)
    let drop = len.saturating_sub(64);
    let mut m = n.window(drop);
    let mut e = e + drop as i64;
    if drop == 0 {
        // exact head with an inexact tail below the last bit: never a tie, never up
        let shift = 64 - len;
        return Extended {
            m: m << shift,
            e: e - shift as i64,
        };
    }
    let half = n.bit(drop - 1);
    let rest = n.any_below(drop - 1) || sticky;
    if half && (rest || m & 1 == 1) {
        m = m.wrapping_add(1);
        if m == 0 {
            m = 1 << 63;
            e += 1;
        }
    }
    Extended { m, e }
}

/// `FLT_MAX` as (significand, exponent) with a 64-bit significand.
const FLT_MAX: Extended = Extended {
    m: 0xffff_ff00_0000_0000,
    e: 104 - 40,
};

/// Rounds a positive extended value (at most `FLT_MAX`) to `float`, to nearest even.
fn to_f32(x: Extended) -> f32 {
    // float quantum: 2^-149 below the normal range, else 2^(exponent - 23)
    let top = x.e + 63; // the value is in [2^top, 2^(top+1))
    let quantum = if top < -126 { -149 } else { top - 23 };
    let drop = quantum - x.e; // bits of m below the quantum
    let m = if drop <= 0 {
        x.m
    } else if drop > 64 {
        0
    } else {
        let drop = drop as u32;
        let kept = if drop == 64 { 0 } else { x.m >> drop };
        let half = (x.m >> (drop - 1)) & 1 == 1;
        let rest = drop > 1 && x.m & ((1u64 << (drop - 1)) - 1) != 0;
        kept + u64::from(half && (rest || kept & 1 == 1))
    };
    let scale = quantum.max(x.e);
    // m has at most 25 bits here: exact in f64, and the product is a float
    (m as f64 * 2f64.powi(scale as i32)) as f32
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Significant digits kept exactly; beyond them only whether any is nonzero matters (values
/// in the range that can round to a nonzero float have halfway points of far fewer digits).
const MAX_DIGITS: usize = 800;

/// The decimal or hexadecimal digits of a number: its integer significand (digits), the
/// power of the base to scale it by, and whether digits beyond those kept were nonzero.
struct Digits {
    value: Big,
    count: usize,
    exponent: i64,
    sticky: bool,
}

/// Reads `digits [. digits]` in `radix` from `s[*i..]`; `None` without any digit.
fn read_digits(s: &[u8], i: &mut usize, radix: u32) -> Option<Digits> {
    let mut d = Digits {
        value: Big(Vec::new()),
        count: 0,
        exponent: 0,
        sticky: false,
    };
    let mut any = false;
    let push = |d: &mut Digits, v: u32, fraction: bool| {
        if d.count == 0 && v == 0 {
            if fraction {
                d.exponent -= 1;
            }
            return;
        }
        if d.count < MAX_DIGITS {
            d.value.mul_add_small(radix, v);
            d.count += 1;
            if fraction {
                d.exponent -= 1;
            }
        } else {
            d.sticky |= v != 0;
            if !fraction {
                d.exponent += 1;
            }
        }
    };
    while let Some(v) = s.get(*i).and_then(|&c| (c as char).to_digit(radix)) {
        push(&mut d, v, false);
        any = true;
        *i += 1;
    }
    if s.get(*i) == Some(&b'.') {
        let mut j = *i + 1;
        let mut frac = false;
        while let Some(v) = s.get(j).and_then(|&c| (c as char).to_digit(radix)) {
            push(&mut d, v, true);
            frac = true;
            j += 1;
        }
        if any || frac {
            *i = j;
            any = true;
        }
    }
    any.then_some(d)
}

/// Reads `[sign] digits` after an exponent mark at `s[*i]`; leaves `*i` alone without digits.
fn read_exponent(s: &[u8], i: &mut usize) -> i64 {
    let mut j = *i + 1;
    let negative = s.get(j) == Some(&b'-');
    if matches!(s.get(j), Some(b'+' | b'-')) {
        j += 1;
    }
    if !s.get(j).is_some_and(u8::is_ascii_digit) {
        return 0;
    }
    let mut e: i64 = 0;
    while let Some(&c) = s.get(j).filter(|c| c.is_ascii_digit()) {
        e = e.saturating_mul(10).saturating_add(i64::from(c - b'0'));
        j += 1;
    }
    *i = j;
    if negative {
        -e
    } else {
        e
    }
}

/// The magnitude of a parsed number: zero (or too small to matter), as `strtold` rounds it,
/// or certainly above `FLT_MAX`.
enum Magnitude {
    Zero,
    Finite(Extended),
    Huge,
}

fn decimal(d: &Digits, exp10: i64) -> Magnitude {
    if d.value.is_zero() {
        return Magnitude::Zero;
    }
    let e = d.exponent.saturating_add(exp10);
    // the value is in [10^(p-1), 10^p)
    let p = (d.count as i64).saturating_add(e);
    if p > 40 {
        return Magnitude::Huge;
    }
    if p < -60 {
        return Magnitude::Zero;
    }
    // fast path, exact in 128 bits: up to 19 digits scaled by up to 10^19 or 10^-27
    if d.count <= 19 && !d.sticky && (-27..=19).contains(&e) {
        let m = u128::from(d.value.window(0));
        if e >= 0 {
            let n = m * 10u128.pow(e as u32);
            return Magnitude::Finite(round64(&Big::from_u128(n), 0, false));
        }
        // m / 10^f = (m * 2^s / 5^f) * 2^(-s-f), the quotient of at least 65 bits
        let f = (-e) as u32;
        let shift = m.leading_zeros();
        let num = m << shift;
        let den = 5u128.pow(f);
        let (q, r) = (num / den, num % den);
        let exp = -i64::from(shift) - i64::from(f);
        return Magnitude::Finite(round64(&Big::from_u128(q), exp, r != 0));
    }
    if e >= 0 {
        let n = d.value.mul(&Big::pow10(e as usize));
        return Magnitude::Finite(round64(&n, 0, d.sticky));
    }
    // value / 10^-e: a quotient of at least 66 bits, with the remainder as sticky bit
    let den = Big::pow10((-e) as usize);
    let k = (66 + den.bits()).saturating_sub(d.value.bits()) + 1;
    let mut num = d.value.shl(k);
    let top = num.bits().saturating_sub(den.bits()) + 1;
    let mut q = Big(vec![0; top / 32 + 1]);
    for bit in (0..top).rev() {
        let shifted = den.shl(bit);
        if num.cmp(&shifted) != std::cmp::Ordering::Less {
            num.sub_assign(&shifted);
            q.0[bit / 32] |= 1 << (bit % 32);
        }
    }
    q.trim();
    Magnitude::Finite(round64(&q, -(k as i64), d.sticky || !num.is_zero()))
}

fn hexadecimal(d: &Digits, exp2: i64) -> Magnitude {
    if d.value.is_zero() {
        return Magnitude::Zero;
    }
    let e = d.exponent.saturating_mul(4).saturating_add(exp2);
    let top = (d.value.bits() as i64).saturating_add(e);
    if top > 130 {
        return Magnitude::Huge;
    }
    if top < -200 {
        return Magnitude::Zero;
    }
    Magnitude::Finite(round64(&d.value, e, d.sticky))
}

/// The end of the decimal number starting at `i`: digits, a point, digits, and an exponent
/// when digits follow its `e`.
fn decimal_end(s: &[u8], mut i: usize) -> usize {
    let digits = |s: &[u8], mut i: usize| {
        while s.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    i = digits(s, i);
    if s.get(i) == Some(&b'.') {
        i = digits(s, i + 1);
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        let mut k = i + 1;
        if matches!(s.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if s.get(k).is_some_and(u8::is_ascii_digit) {
            i = digits(s, k);
        }
    }
    i
}

/// The float of a decimal token when both roundings (to 64 bits, then to 24) must give what one
/// rounding of the double nearest the token gives: the double is correctly rounded, so when it
/// is more than two of its ulps away from every midpoint between floats, the exact value, its
/// 64-bit rounding and the double all round to the same float. `None` otherwise (and for
/// values outside the comfortable float range), for the exact path.
fn fast_decimal(token: &[u8]) -> Option<f32> {
    let x: f64 = std::str::from_utf8(token).ok()?.parse().ok()?;
    if x == 0.0 {
        return Some(0.0);
    }
    let a = x.abs();
    if !(1e-30..=1e38).contains(&a) {
        return None;
    }
    let r = x as f32;
    let rd = f64::from(r);
    if rd == x {
        return Some(r);
    }
    // the float on the other side of x, and the midpoint between the two
    let n = if rd < x { r.next_up() } else { r.next_down() };
    let mid = (rd + f64::from(n)) / 2.0;
    let ulp = f64::from_bits(a.to_bits() + 1) - a;
    ((x - mid).abs() > 2.0 * ulp).then_some(r)
}

/// `(float) clamp(strtold(s, NULL), -FLT_MAX, FLT_MAX)`.
pub(super) fn parse_f32(s: &[u8]) -> f32 {
    parse(s, true)
}

/// [`parse_f32`], with or without the shortcut through `f64`.
fn parse(s: &[u8], shortcut: bool) -> f32 {
    let mut i = 0;
    while s.get(i).copied().is_some_and(is_space) {
        i += 1;
    }
    let negative = s.get(i) == Some(&b'-');
    if matches!(s.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let sign = |x: f32| if negative { -x } else { x };
    let rest = &s[i.min(s.len())..];
    let starts =
        |word: &[u8]| rest.len() >= word.len() && rest[..word.len()].eq_ignore_ascii_case(word);
    if starts(b"inf") {
        return sign(f32::MAX);
    }
    if starts(b"nan") {
        return sign(f32::NAN);
    }

    let magnitude = if (starts(b"0x") || starts(b"0X"))
        && (rest.get(2).is_some_and(u8::is_ascii_hexdigit)
            || (rest.get(2) == Some(&b'.') && rest.get(3).is_some_and(u8::is_ascii_hexdigit)))
    {
        let mut j = i + 2;
        let Some(d) = read_digits(s, &mut j, 16) else {
            return 0.0;
        };
        let exp2 = if matches!(s.get(j), Some(b'p' | b'P')) {
            read_exponent(s, &mut j)
        } else {
            0
        };
        hexadecimal(&d, exp2)
    } else {
        if let Some(x) = fast_decimal(&s[i..decimal_end(s, i)]).filter(|_| shortcut) {
            return sign(x);
        }
        let mut j = i;
        let Some(d) = read_digits(s, &mut j, 10) else {
            // no conversion: strtold returns +0
            return 0.0;
        };
        let exp10 = if matches!(s.get(j), Some(b'e' | b'E')) {
            read_exponent(s, &mut j)
        } else {
            0
        };
        decimal(&d, exp10)
    };
    match magnitude {
        Magnitude::Zero => sign(0.0),
        Magnitude::Huge => sign(f32::MAX),
        Magnitude::Finite(x) => {
            let over = x.e > FLT_MAX.e || (x.e == FLT_MAX.e && x.m > FLT_MAX.m);
            sign(if over { f32::MAX } else { to_f32(x) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 20000, ..ProptestConfig::default() })]

        /// The shortcut through f64 never changes a result.
        #[test]
        fn shortcut_agrees_with_exact_rounding(
            int in 0u64..10_000_000_000,
            frac in "[0-9]{0,24}",
            exp in -45i32..40,
            form in 0u8..3,
        ) {
            let text = match form {
                0 => format!("{int}.{frac}"),
                1 => format!("{int}.{frac}e{exp}"),
                _ => format!("0.{frac}e{exp}"),
            };
            prop_assert_eq!(parse(text.as_bytes(), true).to_bits(), parse(text.as_bytes(), false).to_bits(), "{}", text);
        }

        /// Near midpoints between floats, too.
        #[test]
        fn shortcut_agrees_near_midpoints(bits in 0x0080_0000u32..0x7f00_0000, digits in 9usize..22) {
            let (a, b) = (f32::from_bits(bits), f32::from_bits(bits + 1));
            let mid = (f64::from(a) + f64::from(b)) / 2.0;
            let text = format!("{mid:.digits$e}");
            prop_assert_eq!(parse(text.as_bytes(), true).to_bits(), parse(text.as_bytes(), false).to_bits(), "{}", text);
        }
    }

    #[test]
    fn plain_numbers() {
        assert_eq!(parse_f32(b"1.5"), 1.5);
        assert_eq!(parse_f32(b"  -0.25e1x"), -2.5);
        assert_eq!(parse_f32(b"0.1"), 0.1f32);
        assert_eq!(parse_f32(b"1e38"), 1e38f32);
        assert_eq!(parse_f32(b"-0").to_bits(), (-0.0f32).to_bits());
        assert_eq!(parse_f32(b"abc").to_bits(), 0);
        assert_eq!(parse_f32(b"-x").to_bits(), 0);
        assert_eq!(parse_f32(b"1e"), 1.0);
        assert_eq!(parse_f32(b".5"), 0.5);
        assert_eq!(parse_f32(b"5."), 5.0);
    }

    #[test]
    fn special_values_and_hex() {
        assert_eq!(parse_f32(b"inf"), f32::MAX);
        assert_eq!(parse_f32(b"-Infinity"), -f32::MAX);
        assert_eq!(parse_f32(b"1e39"), f32::MAX);
        assert_eq!(parse_f32(b"3.4028236e38"), f32::MAX);
        assert!(parse_f32(b"nan").is_nan());
        assert_eq!(parse_f32(b"0x10"), 16.0);
        assert_eq!(parse_f32(b"0x1.8p1"), 3.0);
        assert_eq!(parse_f32(b"0x"), 0.0);
        assert_eq!(parse_f32(b"1e-50").to_bits(), 0);
        assert_eq!(parse_f32(b"-1e-50").to_bits(), (-0.0f32).to_bits());
        assert_eq!(parse_f32(b"1.5e-45"), f32::from_bits(1));
        assert_eq!(parse_f32(b"7e-46"), 0.0);
        assert_eq!(parse_f32(b"7.1e-46"), f32::from_bits(1));
    }

    #[test]
    fn agrees_with_rust_away_from_double_rounding() {
        // Rust rounds once, correctly; the two roundings differ only on rare near-ties
        for s in [
            "0.333333333333333",
            "123456.789",
            "9.999999e-39",
            "1.17549435e-38",
            "2.5e-40",
        ] {
            assert_eq!(parse_f32(s.as_bytes()), s.parse::<f32>().unwrap(), "{s}");
        }
    }

    #[test]
    fn double_rounding_is_kept() {
        // 1 + 2^-24 + 2^-65 rounds up to 1 + 2^-23 in one step, but strtold rounds it to
        // 1 + 2^-24, a float tie then broken to even: 1
        let s = "1.00000005960464477541773005431213761085018632002174854278564453125";
        assert_eq!(s.parse::<f32>().unwrap(), 1.0000001);
        assert_eq!(parse_f32(s.as_bytes()), 1.0);
    }
}
