//! Text: the bundled fonts (MuJoCo's own bitmap fonts at its six font scales, in three styles:
//! normal, shadow and big; see `gl/assets/fonts/make-fonts.py`), their metrics
//! ([`FontMetrics`], the font fields of `mjrContext`) and drawing strings in pixel coordinates
//! of the current viewport (`mjr_text`'s machinery).

use super::shader::{TexMode, UNIT_2D};
use super::shapes::{Shape, Vertex};
use super::{Context, RenderError};
use crate::sys::Gl;
use gl::types::GLuint;

/// Font styles (`mjtFont`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Font {
    /// Regular text.
    Normal = 0,
    /// Regular text over a translucent black outline (readable on any background).
    Shadow = 1,
    /// Large text.
    Big = 2,
}

/// Font scales MuJoCo offers (`mjtFontScale`), in percent.
pub const FONT_SCALES: [i32; 6] = [50, 100, 150, 200, 250, 300];

const ATLAS: [&[u8]; 6] = [
    include_bytes!("../../assets/fonts/font-50.png"),
    include_bytes!("../../assets/fonts/font-100.png"),
    include_bytes!("../../assets/fonts/font-150.png"),
    include_bytes!("../../assets/fonts/font-200.png"),
    include_bytes!("../../assets/fonts/font-250.png"),
    include_bytes!("../../assets/fonts/font-300.png"),
];
const METRICS: &str = include_str!("../../assets/fonts/fonts.txt");

/// Printable characters: 32 (space) to 126 (`~`); others draw as `?`.
const FIRST: u8 = 32;
const NCHAR: usize = 95;

/// One style of one scale: cell height, advance widths and where the cells are in the atlas.
#[derive(Clone, Debug)]
struct Style {
    height: i32,
    width: [i32; NCHAR],
    x: [i32; NCHAR],
    y: i32,
}

/// The font metrics of a context (`mjrContext`'s `fontScale`, `charWidth`, `charWidthBig`,
/// `charHeight`, `charHeightBig`): advance widths by character code (0 outside 32..126, as
/// MuJoCo has them) and line heights, in pixels. The UI framework lays out with these alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FontMetrics {
    /// Font scale in percent.
    pub font_scale: i32,
    /// Advance width of each byte in the normal (and shadow) font.
    pub char_width: [i32; 256],
    /// Advance width of each byte in the big font.
    pub char_width_big: [i32; 256],
    /// Line height of the normal font.
    pub char_height: i32,
    /// Line height of the big font.
    pub char_height_big: i32,
}

impl FontMetrics {
    /// The metrics of the bundled fonts at `scale` percent (one of [`FONT_SCALES`]), without
    /// any OpenGL context.
    pub fn of_scale(scale: i32) -> Result<FontMetrics, RenderError> {
        if !FONT_SCALES.contains(&scale) {
            return Err(RenderError::Size(format!(
                "invalid font scale {scale} (50 to 300 in steps of 50)"
            )));
        }
        let [normal, _, big] = parse_styles(scale).map_err(RenderError::Gl)?;
        Ok(FontMetrics::from_styles(scale, &normal, &big))
    }

    fn from_styles(scale: i32, normal: &Style, big: &Style) -> FontMetrics {
        let table = |s: &Style| {
            let mut w = [0; 256];
            w[usize::from(FIRST)..usize::from(FIRST) + NCHAR].copy_from_slice(&s.width);
            w
        };
        FontMetrics {
            font_scale: scale,
            char_width: table(normal),
            char_width_big: table(big),
            char_height: normal.height,
            char_height_big: big.height,
        }
    }
}

/// A font scale on the GPU: one atlas texture holding the three styles.
#[derive(Clone, Debug)]
pub struct FontSet {
    pub(crate) scale: i32,
    tex: GLuint,
    size: (i32, i32),
    styles: [Style; 3],
}

fn parse_styles(scale: i32) -> Result<[Style; 3], String> {
    let mut found = Vec::new();
    for line in METRICS.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 3 + NCHAR || f[0].parse::<i32>() != Ok(scale) {
            continue;
        }
        let num = |s: &str| s.parse::<i32>().map_err(|e| format!("fonts.txt: {e}"));
        let height = num(f[2])?;
        let mut width = [0; NCHAR];
        let mut x = [0; NCHAR];
        let mut pen = 0;
        for k in 0..NCHAR {
            width[k] = num(f[3 + k])?;
            x[k] = pen;
            pen += width[k];
        }
        found.push(Style {
            height,
            width,
            x,
            y: 0,
        });
    }
    let [normal, mut shadow, mut big]: [Style; 3] = found
        .try_into()
        .map_err(|_| format!("fonts.txt has no complete scale {scale}"))?;
    // bands from the bottom of the atlas: normal, shadow, big
    shadow.y = normal.height;
    big.y = normal.height + shadow.height;
    Ok([normal, shadow, big])
}

/// Decode an 8-bit grayscale PNG; rows bottom first (OpenGL's order).
fn decode(png_bytes: &[u8]) -> Result<(usize, usize, Vec<u8>), String> {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png_bytes))
        .read_info()
        .map_err(|e| e.to_string())?;
    let mut buf = vec![0; reader.output_buffer_size().ok_or("font atlas too large")?];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    if info.color_type != png::ColorType::Grayscale || info.bit_depth != png::BitDepth::Eight {
        return Err("font atlas is not 8-bit grayscale".into());
    }
    let (w, h) = (info.width as usize, info.height as usize);
    let flipped = buf[..w * h].chunks(w).rev().flatten().copied().collect();
    Ok((w, h, flipped))
}

impl FontSet {
    /// Upload the fonts of `scale` percent (one of [`FONT_SCALES`]).
    pub(crate) fn new(gl: &Gl, scale: i32) -> Result<FontSet, RenderError> {
        let k = FONT_SCALES
            .iter()
            .position(|&s| s == scale)
            .ok_or_else(|| {
                RenderError::Size(format!(
                    "invalid font scale {scale} (50 to 300 in steps of 50)"
                ))
            })?;
        let styles = parse_styles(scale).map_err(RenderError::Gl)?;
        let (w, h, pixels) = decode(ATLAS[k]).map_err(RenderError::Gl)?;
        let tex = gl.new_texture(gl::TEXTURE_2D, UNIT_2D);
        gl.tex_image_u8(gl::TEXTURE_2D, w, h, 1, &pixels)
            .map_err(RenderError::Gl)?;
        let t = gl::TEXTURE_2D;
        gl.tex_parameter(t, gl::TEXTURE_MIN_FILTER, gl::NEAREST);
        gl.tex_parameter(t, gl::TEXTURE_MAG_FILTER, gl::NEAREST);
        gl.tex_parameter(t, gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE);
        gl.tex_parameter(t, gl::TEXTURE_WRAP_T, gl::CLAMP_TO_EDGE);
        // coverage in red: sample as white with that alpha
        gl.tex_parameter(t, gl::TEXTURE_SWIZZLE_R, gl::ONE);
        gl.tex_parameter(t, gl::TEXTURE_SWIZZLE_G, gl::ONE);
        gl.tex_parameter(t, gl::TEXTURE_SWIZZLE_B, gl::ONE);
        gl.tex_parameter(t, gl::TEXTURE_SWIZZLE_A, gl::RED);
        Ok(FontSet {
            scale,
            tex,
            size: (w as i32, h as i32),
            styles,
        })
    }

    pub(crate) fn free(&self, gl: &Gl) {
        gl.delete_textures(&[self.tex]);
    }

    /// The metrics of this scale.
    pub(crate) fn metrics(&self) -> FontMetrics {
        FontMetrics::from_styles(self.scale, &self.styles[0], &self.styles[2])
    }

    fn style(&self, font: Font) -> &Style {
        &self.styles[if font == Font::Big { 2 } else { 0 }]
    }

    fn index(c: u8) -> usize {
        usize::from(
            if (FIRST..FIRST + NCHAR as u8).contains(&c) {
                c
            } else {
                b'?'
            } - FIRST,
        )
    }

    /// Width of `text` in pixels.
    pub fn width(&self, font: Font, text: &str) -> i32 {
        let s = self.style(font);
        text.bytes().map(|c| s.width[Self::index(c)]).sum()
    }

    /// Height of a line in pixels.
    pub fn height(&self, font: Font) -> i32 {
        self.style(font).height
    }

    /// Quads of `text` in `style` with the bottom-left corner of its first cell at (x, y).
    fn quads(&self, style: usize, text: &str, x: f32, y: f32) -> Shape {
        let s = &self.styles[style];
        let (aw, ah) = (self.size.0 as f32, self.size.1 as f32);
        let mut shape = Shape::default();
        let mut pen = x;
        for c in text.bytes() {
            let k = Self::index(c);
            let w = s.width[k] as f32;
            let (u0, u1) = (s.x[k] as f32 / aw, (s.x[k] + s.width[k]) as f32 / aw);
            let (v0, v1) = (s.y as f32 / ah, (s.y + s.height) as f32 / ah);
            let h = s.height as f32;
            let v = |px: f32, py: f32, u: f32, t: f32| Vertex {
                pos: [px, py, 0.0],
                normal: [0.0, 0.0, 1.0],
                tex: [u, t],
                color: [1.0; 4],
                edge: 1.0,
            };
            let (a, b) = (v(pen, y, u0, v0), v(pen + w, y, u1, v0));
            let (c2, d) = (v(pen + w, y + h, u1, v1), v(pen, y + h, u0, v1));
            shape.verts.extend([a, b, c2, a, c2, d]);
            pen += w;
        }
        shape
    }
}

/// Draw `text` with its first cell's bottom-left corner at pixel (x, y) of the current
/// viewport, whose 2D pixel projection must be set (see [`begin_2d`](super::flat::begin_2d)).
pub(crate) fn draw(gl: &Gl, con: &Context, font: Font, text: &str, x: f32, y: f32, rgb: [f32; 3]) {
    let p = &con.program;
    let fonts = &con.font;
    let (x, y) = (x.round(), y.round());
    gl.bind_texture(UNIT_2D, gl::TEXTURE_2D, fonts.tex);
    gl.uniform_i(p.texmode, TexMode::Coord as i32);
    gl.set(gl::BLEND, true);
    gl.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
    let draw_style = |style: usize, color: [f32; 4]| {
        gl.uniform_vec(p.color, 4, &color);
        let b = con.stream(gl, &fonts.quads(style, text, x, y));
        gl.uniform_mat4(p.model, &super::matrix::IDENTITY);
        gl.draw_arrays(b.vao, gl::TRIANGLES, 0, b.count);
    };
    match font {
        Font::Shadow => {
            draw_style(1, [0.0, 0.0, 0.0, 0.5]);
            draw_style(0, [rgb[0], rgb[1], rgb[2], 1.0]);
        }
        Font::Normal => draw_style(0, [rgb[0], rgb[1], rgb[2], 1.0]),
        Font::Big => draw_style(2, [rgb[0], rgb[1], rgb[2], 1.0]),
    }
    gl.uniform_i(p.texmode, TexMode::None as i32);
    gl.set(gl::BLEND, false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scale_has_three_styles_and_an_atlas_that_fits_them() {
        for (k, &scale) in FONT_SCALES.iter().enumerate() {
            let styles = parse_styles(scale).unwrap();
            let (w, h, px) = decode(ATLAS[k]).unwrap();
            assert_eq!(px.len(), w * h);
            assert_eq!(styles[0].height, styles[1].height);
            assert!(styles[2].height > styles[0].height);
            assert_eq!(h as i32, styles[2].y + styles[2].height);
            for s in &styles {
                assert!(s.x[NCHAR - 1] + s.width[NCHAR - 1] <= w as i32);
                assert!(s.width.iter().all(|&w| w > 0));
            }
        }
        assert!(parse_styles(75).is_err());
    }

    #[test]
    fn glyphs_have_ink_and_space_has_none() {
        let styles = parse_styles(100).unwrap();
        let (w, _, px) = decode(ATLAS[1]).unwrap();
        let ink = |k: usize| {
            let s = &styles[0];
            (0..s.height as usize)
                .flat_map(|r| (0..s.width[k] as usize).map(move |c| (r, c)))
                .map(|(r, c)| u32::from(px[r * w + s.x[k] as usize + c]))
                .sum::<u32>()
        };
        assert_eq!(ink(0), 0);
        assert!(ink(usize::from(b'A' - FIRST)) > 0);
    }
}
