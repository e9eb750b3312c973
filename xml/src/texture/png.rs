//! PNG decoding as MuJoCo does it (`LoadPNG` in `user_objects.cc`): lodepng asked for 8-bit RGB
//! (textures) or 8-bit grey (height fields).
//!
//! The `png` crate decodes the samples as they are stored; the conversion to the requested
//! format is lodepng's (`lodepng_convert` at the version MuJoCo 3.1.6 pins), which is simple and
//! lossy in specific ways that must be reproduced:
//! * 16-bit samples keep their most significant byte (no rounding);
//! * grey samples of 1, 2 or 4 bits become `value * 255 / max` (integer division);
//! * palette indices past the end of the palette are black;
//! * alpha (an alpha channel or `tRNS`) is dropped, colors are not premultiplied;
//! * grey output takes the *red* channel, not a luminance.
//!
//! The header is checked as `lodepng_inspect` does, the chunks and the size of the inflated
//! image data as `decodeGeneric` does ([`lodepng`](super::lodepng)), with lodepng's error texts;
//! later decoding errors carry the `png` crate's text, never its types.

use std::io::Cursor;

use super::lodepng::{self, crc32, Header};
use crate::asset::AssetFile;
use crate::cache::{self, Kind};
use crate::limits;

/// The 8-bit format MuJoCo asks lodepng for (`LodePNGColorType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// `LCT_GREY`: one byte per pixel.
    Grey,
    /// `LCT_RGB`: three bytes per pixel.
    Rgb,
}

impl Want {
    fn channels(self) -> usize {
        match self {
            Want::Grey => 1,
            Want::Rgb => 3,
        }
    }
}

/// A decoded image, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Image {
    /// Width in pixels (at least 1).
    pub width: u32,
    /// Height in pixels (at least 1).
    pub height: u32,
    /// `channels * width * height` bytes.
    pub data: Vec<u8>,
}

/// Largest ratio of decompressed to compressed size deflate can reach (258-byte matches coded
/// in one bit each, plus block overhead); a header promising more image data than the file can
/// hold is rejected before allocating (lodepng would fail with "invalid decompressed idat size").
const MAX_INFLATE_RATIO: u64 = 1032;

/// `::LoadPNG`: the bytes of `name` decoded into `want`, or MuJoCo's message.
pub(crate) fn load_png(bytes: &[u8], name: &str, want: Want) -> Result<Image, String> {
    if bytes.is_empty() {
        return Err(format!("empty PNG file '{name}'"));
    }
    decode(bytes, want).map_err(|e| format!("error decoding PNG file '{name}': {e}"))
}

/// [`load_png`] through the asset cache (MuJoCo's `LoadPNG` caches too).
pub(crate) fn load_png_cached(file: &AssetFile, want: Want) -> Result<Image, String> {
    let kind = match want {
        Want::Grey => Kind::PngGrey,
        Want::Rgb => Kind::PngRgb,
    };
    file.readable("PNG")?;
    let decode = || load_png(&file.bytes, &file.path, want);
    cache::decoded(kind, &file.path, &file.bytes, decode, |i| i.data.len())
}

/// `lodepng::decode(image, w, h, buffer, size, want, 8)`.
pub(crate) fn decode(bytes: &[u8], want: Want) -> Result<Image, String> {
    let header = inspect(bytes)?;
    let (width, height) = (header.width, header.height);
    let idat = lodepng::chunks(bytes, &header)?;
    let expected = lodepng::expected_size(&header);
    // Deflate cannot expand the file by more than MAX_INFLATE_RATIO: a larger promise is a
    // broken file, known without inflating anything.
    if expected > u128::from(bytes.len() as u64) * u128::from(MAX_INFLATE_RATIO) {
        return Err("invalid decompressed idat size".to_string());
    }
    lodepng::check_inflated_size(&idat, expected)?;

    let mut options = png::DecodeOptions::default();
    options.set_ignore_adler32(false);
    options.set_ignore_crc(false);
    // lodepng skips unknown ancillary chunks without their CRC; the known ones were checked
    options.set_skip_ancillary_crc_failures(true);
    options.set_ignore_text_chunk(true);
    let mut decoder = png::Decoder::new_with_options(Cursor::new(bytes), options);
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().map_err(error_text)?;

    let info = reader.info();
    let (color, depth) = (info.color_type, info.bit_depth);
    let bits = color.samples() * depth as usize;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| "integer overflow due to too many pixels".to_string())?;
    let out_size = u64::from(width) * u64::from(height) * want.channels() as u64;
    let out_size = usize::try_from(out_size)
        .map_err(|_| "integer overflow due to too many pixels".to_string())?;
    let stride = reader
        .output_line_size(width)
        .ok_or_else(|| "integer overflow due to too many pixels".to_string())?;
    let palette: Vec<u8> = info
        .palette
        .as_deref()
        .map(<[u8]>::to_vec)
        .unwrap_or_default();

    let mut raw = limits::filled(size, 0u8, "the PNG image data")?;
    reader.next_frame(&mut raw).map_err(error_text)?;
    reader.finish().map_err(error_text)?;

    let mut data = limits::filled(out_size, 0u8, "the decoded PNG image")?;
    let out_stride = width as usize * want.channels();
    let rows = raw.chunks_exact(stride).take(height as usize);
    for (row, out) in rows.zip(data.chunks_exact_mut(out_stride)) {
        if !convert_8bit_row(row, out, color, depth, want) {
            for (x, px) in out.chunks_exact_mut(want.channels()).enumerate() {
                let rgb = pixel_rgb(row, x, color, depth, bits, &palette);
                px.copy_from_slice(&rgb[..px.len()]);
            }
        }
    }
    Ok(Image {
        width,
        height,
        data,
    })
}

/// A decoding error of the `png` crate for a file lodepng's checks passed, as text a user may
/// read: some of the crate's messages print its types with Rust's debug formatting, and those
/// are replaced by what they mean.
fn error_text(e: png::DecodingError) -> String {
    match e {
        png::DecodingError::LimitsExceeded => "memory allocation failed".into(),
        e => {
            let text = e.to_string();
            if text.contains('{') {
                "corrupt PNG data".into()
            } else {
                text
            }
        }
    }
}

/// The header checks of `lodepng_inspect`, with its messages; the header.
fn inspect(bytes: &[u8]) -> Result<Header, String> {
    if bytes.len() < 33 {
        return Err("PNG file is smaller than a PNG header".into());
    }
    if bytes[..8] != [137, 80, 78, 71, 13, 10, 26, 10] {
        return Err("incorrect PNG signature, it's no PNG or corrupted".into());
    }
    let be32 =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    if be32(8) != 13 {
        return Err("header chunk must have a size of 13 bytes".into());
    }
    if &bytes[12..16] != b"IHDR" {
        return Err("first chunk is not the header chunk".into());
    }
    let (width, height) = (be32(16), be32(20));
    let (depth, color) = (bytes[24], bytes[25]);
    if width == 0 || height == 0 {
        return Err("zero width or height is invalid".into());
    }
    let depth_ok = match color {
        0 => matches!(depth, 1 | 2 | 4 | 8 | 16),
        3 => matches!(depth, 1 | 2 | 4 | 8),
        2 | 4 | 6 => matches!(depth, 8 | 16),
        _ => return Err("illegal PNG color type or bpp".into()),
    };
    if !depth_ok {
        return Err("illegal bit depth for this color type given".into());
    }
    if bytes[26] != 0 {
        return Err("illegal PNG compression method".into());
    }
    if bytes[27] != 0 {
        return Err("illegal PNG filter method".into());
    }
    if bytes[28] > 1 {
        return Err("illegal PNG interlace method".into());
    }
    if be32(29) != crc32(&bytes[12..29]) {
        return Err("invalid CRC encountered (checking CRC can be disabled)".into());
    }
    let samples = match color {
        0 | 3 => 1,
        4 => 2,
        2 => 3,
        _ => 4,
    };
    Ok(Header {
        width,
        height,
        bpp: samples * u32::from(depth),
        interlaced: bytes[28] == 1,
        palette: color == 3,
    })
}

/// The 8-bit red, green and blue of pixel `x` of a raw row (`getPixelColorRGBA8` without alpha).
fn pixel_rgb(
    row: &[u8],
    x: usize,
    color: png::ColorType,
    depth: png::BitDepth,
    bits: usize,
    palette: &[u8],
) -> [u8; 3] {
    use png::ColorType as C;
    // Start of the pixel's first sample (8- and 16-bit samples) or its bits (packed samples).
    let at = x * bits / 8;
    let wide = depth == png::BitDepth::Sixteen;
    match color {
        C::Grayscale => {
            let v = match depth as u8 {
                8 | 16 => row[at],
                n => {
                    let value = packed(row, x, n);
                    let highest = (1u32 << n) - 1;
                    (u32::from(value) * 255 / highest) as u8
                }
            };
            [v, v, v]
        }
        C::Indexed => {
            let index = if depth as u8 == 8 {
                row[at]
            } else {
                packed(row, x, depth as u8)
            };
            let i = 3 * usize::from(index);
            match palette.get(i..i + 3) {
                Some(p) => [p[0], p[1], p[2]],
                None => [0, 0, 0],
            }
        }
        C::GrayscaleAlpha => [row[at]; 3],
        C::Rgb | C::Rgba => {
            let step = if wide { 2 } else { 1 };
            [row[at], row[at + step], row[at + 2 * step]]
        }
    }
}

/// The common 8-bit direct-color rows converted a whole row at a time (a large texture is
/// millions of pixels); false for the formats left to the per-pixel `pixel_rgb`.
fn convert_8bit_row(
    row: &[u8],
    out: &mut [u8],
    color: png::ColorType,
    depth: png::BitDepth,
    want: Want,
) -> bool {
    use png::ColorType as C;
    if depth != png::BitDepth::Eight {
        return false;
    }
    let samples = color.samples();
    match (color, want) {
        (C::Rgb, Want::Rgb) => out.copy_from_slice(&row[..out.len()]),
        (C::Rgba | C::Rgb | C::Grayscale | C::GrayscaleAlpha, Want::Grey) => {
            for (o, px) in out.iter_mut().zip(row.chunks_exact(samples)) {
                *o = px[0];
            }
        }
        (C::Rgba, Want::Rgb) => {
            for (o, px) in out.chunks_exact_mut(3).zip(row.chunks_exact(4)) {
                o.copy_from_slice(&px[..3]);
            }
        }
        (C::Grayscale | C::GrayscaleAlpha, Want::Rgb) => {
            for (o, px) in out.chunks_exact_mut(3).zip(row.chunks_exact(samples)) {
                o.fill(px[0]);
            }
        }
        (C::Indexed, _) => return false,
    }
    true
}

/// Sample `x` of a row of `n`-bit samples, most significant bits first.
fn packed(row: &[u8], x: usize, n: u8) -> u8 {
    let n = usize::from(n);
    let bit = x * n;
    let shift = 8 - n - bit % 8;
    (row[bit / 8] >> shift) & ((1u8 << n) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_iend() {
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
    }

    #[test]
    fn header_errors() {
        assert_eq!(
            decode(&[0; 10], Want::Rgb).unwrap_err(),
            "PNG file is smaller than a PNG header"
        );
        assert_eq!(
            decode(&[0; 40], Want::Rgb).unwrap_err(),
            "incorrect PNG signature, it's no PNG or corrupted"
        );
    }
}
