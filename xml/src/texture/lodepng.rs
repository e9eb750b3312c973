//! What lodepng (the decoder of MuJoCo 3.1.6) refuses in a PNG after its header, with its
//! messages (`decodeGeneric`): the walk over the chunks, then the size of the inflated image
//! data. The `png` crate decodes the pixels once these checks pass, so mjrs refuses the files
//! MuJoCo refuses, in MuJoCo's words, and decodes nothing the input cannot back.

use miniz_oxide::inflate::stream::{inflate, InflateState};
use miniz_oxide::{DataFormat, MZError, MZFlush, MZStatus};

use crate::limits;

/// The chunk types lodepng reads (with the ancillary chunks compiled in, as MuJoCo builds it):
/// their CRC is checked; other chunks are skipped, or refused when critical.
const KNOWN: [&[u8; 4]; 15] = [
    b"IDAT", b"IEND", b"PLTE", b"tRNS", b"bKGD", b"tEXt", b"zTXt", b"iTXt", b"tIME", b"pHYs",
    b"gAMA", b"cHRM", b"sRGB", b"iCCP", b"sBIT",
];

/// The header fields the image data size depends on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Header {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Bits per pixel: samples per pixel times bit depth.
    pub bpp: u32,
    /// Adam7 interlacing.
    pub interlaced: bool,
    /// Palette color type (a PLTE chunk is required).
    pub palette: bool,
}

/// The chunks after the header, walked as lodepng walks them to the IEND chunk: the IDAT
/// data, concatenated (no more than the file holds).
pub(super) fn chunks(bytes: &[u8], header: &Header) -> Result<Vec<u8>, &'static str> {
    let (mut idat, mut has_plte, mut pos) = (Vec::new(), false, 33);
    loop {
        let (ty, data, next) = chunk_at(bytes, pos)?;
        let known = KNOWN.contains(&ty);
        if ty == b"IDAT" {
            idat.extend_from_slice(data);
        } else if !known && ty[0] & 32 == 0 {
            return Err("unknown chunk type with 'critical' flag encountered by the decoder");
        }
        has_plte |= ty == b"PLTE";
        if known && crc32(&bytes[pos + 4..next - 4]) != be32(bytes, next - 4) {
            return Err("invalid CRC encountered (checking CRC can be disabled)");
        }
        if ty == b"IEND" {
            break;
        }
        pos = next;
    }
    if header.palette && !has_plte {
        return Err("PNG file must have PLTE chunk if color type is palette");
    }
    Ok(idat)
}

/// The chunk starting at `pos`: its type, its data and where the next one starts.
fn chunk_at(bytes: &[u8], pos: usize) -> Result<(&[u8; 4], &[u8], usize), &'static str> {
    if pos + 12 > bytes.len() {
        return Err("chunk length too large, chunk broken off at end of file");
    }
    let len = be32(bytes, pos);
    if len > 2_147_483_647 {
        return Err(
            "length of a chunk too long, max allowed for PNG is 2147483647 bytes per chunk",
        );
    }
    let next = pos + len as usize + 12;
    if next > bytes.len() {
        // lodepng's code 64 here, whose text is about Huffman trees
        return Err("the length of the END symbol 256 in the Huffman tree is 0");
    }
    let ty = bytes[pos + 4..pos + 8]
        .try_into()
        .map_err(|_| "corrupt chunk")?;
    Ok((ty, &bytes[pos + 8..next - 4], next))
}

/// A big-endian `u32` at `at`.
fn be32(bytes: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The bytes the image data must inflate to: the rows of every pass with their filter bytes
/// (`expected_size` of `decodeGeneric`).
pub(super) fn expected_size(h: &Header) -> u128 {
    let (w, ht, bpp) = (u128::from(h.width), u128::from(h.height), u128::from(h.bpp));
    if !h.interlaced {
        return raw_size_idat(w, ht, bpp);
    }
    // Adam7: seven sub-images, the ones of zero width absent
    let passes = [
        (w.div_ceil(8), ht.div_ceil(8)),
        ((w + 3) / 8, ht.div_ceil(8)),
        (w.div_ceil(4), (ht + 3) / 8),
        ((w + 1) / 4, ht.div_ceil(4)),
        (w.div_ceil(2), (ht + 1) / 4),
        (w / 2, ht.div_ceil(2)),
        (w, ht / 2),
    ];
    passes
        .iter()
        .filter(|(pw, _)| *pw > 0)
        .map(|&(pw, ph)| raw_size_idat(pw, ph, bpp))
        .sum()
}

/// Bytes of `h` rows of `w` pixels of `bpp` bits, each row with its filter byte.
fn raw_size_idat(w: u128, h: u128, bpp: u128) -> u128 {
    h * ((w * bpp).div_ceil(8) + 1)
}

/// The image data must inflate to exactly `expected` bytes (lodepng: "invalid decompressed
/// idat size"). It is inflated in pieces and counted, never held, and stops being read once it
/// passes `expected`; an image larger than one buffer may take is refused first.
pub(super) fn check_inflated_size(idat: &[u8], expected: u128) -> Result<(), String> {
    let what = "the PNG image data";
    let bytes = usize::try_from(expected).unwrap_or(usize::MAX);
    limits::check(bytes, 1, what)?;
    let inflated = inflated_size(idat, expected)?;
    if inflated != expected {
        return Err("invalid decompressed idat size".into());
    }
    Ok(())
}

/// The number of bytes `zlib` inflates to, counted up to the first past `limit`.
fn inflated_size(zlib: &[u8], limit: u128) -> Result<u128, String> {
    zlib_header(zlib)?;
    let mut state = InflateState::new_boxed(DataFormat::Zlib);
    let mut out = vec![0u8; 1 << 16];
    let (mut input, mut total) = (zlib, 0u128);
    loop {
        let r = inflate(&mut state, input, &mut out, MZFlush::None);
        input = &input[r.bytes_consumed..];
        total += r.bytes_written as u128;
        match r.status {
            Ok(MZStatus::StreamEnd) => return Ok(total),
            _ if total > limit => return Ok(total),
            Ok(_) if r.bytes_consumed > 0 || r.bytes_written > 0 => {}
            // no progress: the data ends before the stream does
            Ok(_) | Err(MZError::Buf) if input.is_empty() => {
                return Err("end of in buffer memory reached while inflating".into())
            }
            _ => return Err("corrupt zlib data in the image (IDAT) chunks".into()),
        }
    }
}

/// lodepng's checks of the two zlib header bytes, with its messages.
fn zlib_header(zlib: &[u8]) -> Result<(), String> {
    let [cmf, flg, ..] = *zlib else {
        return Err("size of zlib data too small".into());
    };
    if (u32::from(cmf) * 256 + u32::from(flg)) % 31 != 0 {
        return Err("invalid FCHECK in zlib header".into());
    }
    if cmf & 15 != 8 || cmf >> 4 > 7 {
        return Err("invalid compression method in zlib header".into());
    }
    if flg & 32 != 0 {
        return Err("FDICT encountered in zlib header while it's not used for PNG".into());
    }
    Ok(())
}

/// CRC-32 of PNG chunks (ISO 3309, reflected, polynomial 0xEDB88320).
pub(super) fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    const RGB: Header = Header {
        width: 3,
        height: 2,
        bpp: 24,
        interlaced: false,
        palette: false,
    };

    #[test]
    fn expected_sizes_count_filter_bytes_and_passes() {
        assert_eq!(expected_size(&RGB), 2 * (9 + 1));
        let one = Header {
            width: 1,
            height: 1,
            bpp: 1,
            interlaced: true,
            ..RGB
        };
        // only the first pass holds a pixel
        assert_eq!(expected_size(&one), 2);
    }

    #[test]
    fn zlib_streams_are_counted_up_to_past_the_limit() {
        // a stored block of 5 bytes: 78 01, then BFINAL|stored, LEN, NLEN, data, adler32
        let z = [
            0x78, 0x01, 0x01, 5, 0, 0xfa, 0xff, 1, 2, 3, 4, 5, 0x00, 0x28, 0x00, 0x10,
        ];
        assert_eq!(inflated_size(&z, 100), Ok(5));
        assert_eq!(check_inflated_size(&z, 5), Ok(()));
        assert_eq!(
            check_inflated_size(&z, 4),
            Err("invalid decompressed idat size".into())
        );
        assert_eq!(
            zlib_header(&[0x78]),
            Err("size of zlib data too small".into())
        );
        assert_eq!(
            zlib_header(&[0x78, 0x02]),
            Err("invalid FCHECK in zlib header".into())
        );
    }

    #[test]
    fn images_larger_than_a_buffer_are_refused_before_inflating() {
        let e = check_inflated_size(&[], 1 << 40).unwrap_err();
        assert!(
            e.starts_with("Could not allocate memory for the PNG image data"),
            "{e}"
        );
    }
}
