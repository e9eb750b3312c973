//! Procedural textures: gradient, checker and flat, with edge, cross or random-dot marks
//! (`mjCTexture::Builtin2D` and `BuiltinCube`).

use super::crand::CRand;
use crate::spec::{builtin, mark, Texture};

/// A color channel in `[0, 1]` as a byte the way MuJoCo's C++ converts it, `(mjtByte)(x)` with
/// `x = 255 * channel`: truncated to a 32-bit integer whose low byte is kept (so 1.5 gives 126
/// and -0.5 gives 129); NaN and values outside the 32-bit range give 0.
pub(crate) fn c_byte(x: f64) -> u8 {
    if x > -2_147_483_649.0 && x < 2_147_483_648.0 {
        x as i32 as u8
    } else {
        0
    }
}

/// The three bytes of a color (`(mjtByte)(255*rgb[j])`).
pub(crate) fn color_bytes(rgb: &[f64; 3]) -> [u8; 3] {
    rgb.map(|c| c_byte(255.0 * c))
}

/// The color between `rgb2` (at -1) and `rgb1` (at +1) through a sigmoid of `pos` (`interp`).
fn interp(rgb1: &[f64; 3], rgb2: &[f64; 3], pos: f64) -> [u8; 3] {
    let correction = 1.0 / 2f64.sqrt();
    // NaN (a one-pixel gradient divides 0 by 0) stays NaN, as in MuJoCo's comparisons.
    let alpha = (0.5 * (1.0 + pos / (1.0 + pos * pos).sqrt() / correction)).clamp(0.0, 1.0);
    [0, 1, 2].map(|j| c_byte(255.0 * (alpha * rgb1[j] + (1.0 - alpha) * rgb2[j])))
}

/// Writes pixel `i` of an RGB image.
fn put(rgb: &mut [u8], i: usize, color: [u8; 3]) {
    rgb[3 * i..3 * i + 3].copy_from_slice(&color);
}

/// A checker of four squares on a `width` x `height` face: `c1` top left and bottom right, `c2`
/// elsewhere (`checker`).
fn checker(rgb: &mut [u8], c1: [u8; 3], c2: [u8; 3], width: usize, height: usize) {
    for r in 0..height {
        for c in 0..width {
            let first = (r < height / 2) == (c < width / 2);
            put(rgb, r * width + c, if first { c1 } else { c2 });
        }
    }
}

/// Random dots of `markrgb` over `width` x `height` pixels, each with the given probability,
/// drawn from the C library's `rand()` (`randomdot`).
fn randomdot(
    rgb: &mut [u8],
    markrgb: &[f64; 3],
    width: usize,
    height: usize,
    probability: f64,
    rng: &mut CRand,
) {
    let color = color_bytes(markrgb);
    let threshold = probability * f64::from(CRand::RAND_MAX);
    for i in 0..width * height {
        if f64::from(rng.next()) < threshold {
            put(rgb, i, color);
        }
    }
}

/// Edge or cross marks on one `width` x `height` face (random dots are drawn separately).
fn lines(rgb: &mut [u8], tex: &Texture, width: usize, height: usize) {
    let m = color_bytes(&tex.markrgb);
    if tex.mark == mark::EDGE {
        for r in 0..height {
            put(rgb, r * width, m);
            put(rgb, r * width + width - 1, m);
        }
        for c in 0..width {
            put(rgb, c, m);
            put(rgb, (height - 1) * width + c, m);
        }
    } else if tex.mark == mark::CROSS {
        for r in 0..height {
            put(rgb, r * width + width / 2, m);
        }
        for c in 0..width {
            put(rgb, height / 2 * width + c, m);
        }
    }
}

/// `mjCTexture::Builtin2D`: a `width` x `height` image (both at least 1) drawn into `rgb`,
/// `3 * width * height` zeroed bytes.
pub(super) fn builtin_2d(
    tex: &Texture,
    mut rgb: Vec<u8>,
    width: usize,
    height: usize,
    rng: &mut CRand,
) -> Vec<u8> {
    let (c1, c2) = (color_bytes(&tex.rgb1), color_bytes(&tex.rgb2));

    if tex.builtin == builtin::GRADIENT {
        // Integer pixel coordinates as C computes them: `2*c` in int, then divided in double.
        let (wm1, hm1) = ((width - 1) as f64, (height - 1) as f64);
        for r in 0..height {
            for c in 0..width {
                let x = (2 * c) as f64 / wm1 - 1.0;
                let y = 1.0 - (2 * r) as f64 / hm1;
                let pos = 2.0 * (x * x + y * y).sqrt() - 1.0;
                put(&mut rgb, r * width + c, interp(&tex.rgb2, &tex.rgb1, pos));
            }
        }
    } else if tex.builtin == builtin::CHECKER {
        checker(&mut rgb, c1, c2, width, height);
    } else if tex.builtin == builtin::FLAT {
        for i in 0..width * height {
            put(&mut rgb, i, c1);
        }
    }

    lines(&mut rgb, tex, width, height);
    if tex.mark == mark::RANDOM && tex.random > 0.0 {
        randomdot(&mut rgb, &tex.markrgb, width, height, tex.random, rng);
    }
    rgb
}

/// `mjCTexture::BuiltinCube`: six `width` x `width` faces, right, left, up, down, front, back,
/// drawn into `rgb`, `18 * width * width` zeroed bytes.
pub(super) fn builtin_cube(
    tex: &Texture,
    mut rgb: Vec<u8>,
    width: usize,
    rng: &mut CRand,
) -> Vec<u8> {
    let w = width;
    let face = 3 * w * w;
    let (c1, c2) = (color_bytes(&tex.rgb1), color_bytes(&tex.rgb2));

    if tex.builtin == builtin::GRADIENT {
        let wm1 = (w - 1) as f64;
        for r in 0..w {
            for c in 0..w {
                let x = (2 * c) as f64 / wm1 - 1.0;
                let y = 1.0 - (2 * r) as f64 / wm1;

                // Elevation of the pixel's direction, seen from the sides and from up/down.
                let norm = (1.0 + x * x + y * y).sqrt();
                let elside = (y / norm).asin() / (0.5 * crate::util::PI);
                let elup = 1.0 - (1.0 / norm).acos() / (0.5 * crate::util::PI);

                let side = interp(&tex.rgb1, &tex.rgb2, elside);
                let i = r * w + c;
                for f in [0, 1, 4, 5] {
                    put(&mut rgb[f * face..], i, side);
                }
                put(&mut rgb[2 * face..], i, interp(&tex.rgb1, &tex.rgb2, elup));
                put(&mut rgb[3 * face..], i, interp(&tex.rgb1, &tex.rgb2, -elup));
            }
        }
    } else if tex.builtin == builtin::CHECKER {
        for (f, side) in rgb.chunks_exact_mut(face).enumerate() {
            let (a, b) = if f < 4 { (c1, c2) } else { (c2, c1) };
            checker(side, a, b, w, w);
        }
    } else if tex.builtin == builtin::FLAT {
        for (f, side) in rgb.chunks_exact_mut(face).enumerate() {
            let color = if f == 3 { c2 } else { c1 };
            for i in 0..w * w {
                put(side, i, color);
            }
        }
    }

    for side in rgb.chunks_exact_mut(face) {
        lines(side, tex, w, w);
    }
    if tex.mark == mark::RANDOM && tex.random > 0.0 {
        randomdot(&mut rgb, &tex.markrgb, w, 6 * w, tex.random, rng);
    }
    rgb
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_conversion() {
        assert_eq!(c_byte(255.0 * 1.5), 126);
        assert_eq!(c_byte(255.0 * -0.5), 129);
        assert_eq!(c_byte(f64::NAN), 0);
        assert_eq!(c_byte(3e9 * 255.0), 0);
        assert_eq!(c_byte(-3e9 * 255.0), 0);
        assert_eq!(c_byte(254.9), 254);
    }
}
