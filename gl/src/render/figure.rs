//! `mjr_figure`: a line plot in a viewport — background, title (one subplot's), x label, tick
//! labels, grid, lines (or bars), selection line, legend with a highlighted line, and the data
//! coordinates of the selection on that line.

use super::flat::{begin_2d, quad};
use super::matrix;
use super::shapes::{Shape, Vertex};
use super::text::{self, Font};
use super::{Context, Rect};
use crate::sys::Gl;
use crate::vis::{Figure, MAXLINE, MAXLINEPNT};

/// Smallest axis range; narrower data is widened around its middle.
const MINRANGE: f32 = 1e-5;
/// Relative padding of the plot area's projection.
const OFFSET: f32 = 0.001;
/// Most grid lines per axis.
const MAXGRID: i32 = 20;

/// Format `v` with a printf-style format holding one `%f`, `%e` or `%g` conversion (flags,
/// width and precision as in C); text around the conversion is kept.
pub fn format_number(fmt: &str, v: f32) -> String {
    let Some(start) = fmt.find('%') else {
        return fmt.to_string();
    };
    let rest = &fmt[start + 1..];
    let Some(end) = rest.find(|c: char| c.is_ascii_alphabetic()) else {
        return fmt.to_string();
    };
    let spec = &rest[..end];
    let conv = rest.as_bytes()[end];
    let (flags_width, prec) = match spec.split_once('.') {
        Some((a, p)) => (a, p.parse::<usize>().ok()),
        None => (spec, None),
    };
    let digits_at = flags_width
        .find(|c: char| c.is_ascii_digit() && c != '0')
        .unwrap_or(flags_width.len());
    let flags = &flags_width[..digits_at];
    let left = flags.contains('-');
    let plus = flags.contains('+');
    let zero = flags.contains('0') && !left;
    let width: usize = flags_width[digits_at..].parse().unwrap_or(0);
    let x = f64::from(v);
    let mut body = match conv {
        b'f' | b'F' => format!("{:.*}", prec.unwrap_or(6), x),
        b'e' | b'E' => c_exp(x, prec.unwrap_or(6)),
        b'g' | b'G' => c_general(x, prec.unwrap_or(6)),
        b'd' | b'i' => format!("{}", x as i64),
        _ => format!("{x}"),
    };
    if plus && x >= 0.0 {
        body.insert(0, '+');
    }
    let padded = if left {
        format!("{body:<width$}")
    } else if zero {
        match body.strip_prefix('-') {
            Some(digits) => format!("-{digits:0>w$}", w = width.saturating_sub(1)),
            None => format!("{body:0>width$}"),
        }
    } else {
        format!("{body:>width$}")
    };
    format!("{}{}{}", &fmt[..start], padded, &rest[end + 1..])
}

/// C's `%.{p}e`: mantissa with p decimals, exponent with sign and at least two digits.
fn c_exp(x: f64, p: usize) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    let s = format!("{:.*e}", p, x);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    format!("{mant}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

/// C's `%.{p}g`: the shorter of fixed and exponent notation for p significant digits,
/// trailing zeros removed.
fn c_general(x: f64, p: usize) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    let p = p.max(1);
    if x == 0.0 {
        return "0".into();
    }
    // exponent after rounding to p significant digits
    let e = format!("{:.*e}", p - 1, x);
    let exp: i32 = e.split_once('e').map_or(0, |(_, e)| e.parse().unwrap_or(0));
    let strip = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if exp < -4 || exp >= p as i32 {
        let s = c_exp(x, p - 1);
        let (mant, e) = s.split_once('e').unwrap_or((&s, ""));
        format!("{}e{e}", strip(mant.to_string()))
    } else {
        strip(format!("{:.*}", (p as i32 - 1 - exp).max(0) as usize, x))
    }
}

/// Tick text: the number formatted, trailing zeros of its fraction removed.
fn tick_text(fmt: &str, v: f32) -> String {
    let s = format_number(fmt, v);
    let digits = s.trim_end_matches('0');
    if digits.len() <= 1 || digits.len() == s.len() {
        return s;
    }
    if let Some(stripped) = digits.strip_suffix('.') {
        return stripped.to_string();
    }
    // only strip when the zeros end a fraction
    let head = digits.trim_end_matches(|c: char| c.is_ascii_digit());
    if head.ends_with('.') {
        digits.to_string()
    } else {
        s
    }
}

/// The axis ranges: given, or from the data (finite points) when automatic or extended,
/// at least [`MINRANGE`] wide, y symmetric when asked.
fn ranges(fig: &Figure) -> [[f32; 2]; 2] {
    let mut range = fig.range;
    for axis in 0..2 {
        let mut set = fig.range[axis][0] < fig.range[axis][1];
        if !set || fig.flg_extend {
            for line in fig.linedata.iter().take(MAXLINE) {
                for p in line.iter().take(MAXLINEPNT) {
                    let v = p[axis];
                    if !v.is_finite() {
                        continue;
                    }
                    if !set {
                        range[axis] = [v, v];
                        set = true;
                    } else {
                        range[axis][0] = range[axis][0].min(v);
                        range[axis][1] = range[axis][1].max(v);
                    }
                }
            }
        }
        let width = range[axis][1] - range[axis][0];
        if width < MINRANGE {
            let needed = MINRANGE - width;
            range[axis][0] -= 0.5 * needed;
            range[axis][1] += 0.5 * needed;
        }
    }
    if fig.flg_symmetric {
        let ymax = range[1][0].abs().max(range[1][1].abs());
        range[1] = [-ymax, ymax];
    }
    range
}

/// The subplot title: the `subplot`-th part of the title separated by two or more spaces.
fn subplot_title(title: &str, subplot: usize) -> &str {
    let mut parts = Vec::new();
    let mut rest = title.trim_start_matches(' ');
    while !rest.is_empty() {
        let end = rest.find("  ").unwrap_or(rest.len());
        parts.push(rest[..end].trim_end());
        rest = rest[end..].trim_start_matches(' ');
    }
    parts.get(subplot).copied().unwrap_or("")
}

fn line_shape(points: &[[f32; 2]]) -> Shape {
    Shape {
        verts: points
            .iter()
            .map(|p| Vertex {
                pos: [p[0], p[1], 0.0],
                normal: [0.0, 0.0, 1.0],
                tex: [0.0; 2],
                color: [1.0; 4],
                edge: 1.0,
            })
            .collect(),
    }
}

fn draw_lines(gl: &Gl, con: &Context, points: &[[f32; 2]], mode: u32, rgb: [f32; 3], width: f32) {
    if points.is_empty() {
        return;
    }
    gl.uniform_vec(con.program.color, 4, &[rgb[0], rgb[1], rgb[2], 1.0]);
    gl.line_width(width.max(f32::MIN_POSITIVE));
    let b = con.stream(gl, &line_shape(points));
    gl.draw_arrays(b.vao, mode, 0, b.count);
}

fn set_proj(gl: &Gl, con: &Context, x: [f32; 2], y: [f32; 2]) {
    let f = f64::from;
    let m = matrix::ortho(f(x[0]), f(x[1]), f(y[0]), f(y[1]), -1.0, 1.0);
    gl.uniform_mat4(con.program.proj, &m);
}

/// Draw `fig` in `viewport` (`mjr_figure`); the axis pixel and data ranges are written back
/// to `fig`.
pub fn figure(gl: &Gl, con: &Context, viewport: Rect, fig: &mut Figure) {
    let mut vp = viewport;
    if vp.width <= 0 || vp.height <= 0 {
        return;
    }
    let ch = con.font.height(Font::Normal);
    let pad = ch / 2;
    begin_2d(gl, con, vp, 1.0, 1.0);
    quad(gl, con, 0.0, 0.0, 1.0, 1.0, fig.figurergba);
    let range = ranges(fig);
    fig.xaxisdata = range[0];
    fig.yaxisdata = range[1];
    if vp.width <= 1 || vp.height <= 1 {
        return;
    }
    let pixels =
        |gl: &Gl, vp: &Rect| begin_2d(gl, con, *vp, (vp.width - 1) as f32, (vp.height - 1) as f32);
    pixels(gl, &vp);
    let text = |s: &str, x: i32, y: i32, rgb: [f32; 3], font: Font| {
        text::draw(gl, con, font, s, x as f32, y as f32, rgb);
    };
    let trgb = fig.textrgb;
    // title: the selected subplot's, centred; the neighbouring titles dimmed around it
    let title = subplot_title(&fig.title, fig.subplot);
    let sy_title = if title.is_empty() { 0 } else { ch };
    if !title.is_empty() {
        let w = con.font.width(Font::Normal, title);
        let left = (vp.width / 2 - w / 2).max(0);
        let dim = core::array::from_fn(|k| 0.4 * trgb[k] + 0.6 * fig.figurergba[k]);
        let before = &fig.title[..fig.title.find(title).unwrap_or(0)];
        let before_w = con.font.width(Font::Normal, before);
        if before_w <= left {
            text(
                &fig.title,
                left - before_w,
                vp.height - pad - ch,
                dim,
                Font::Normal,
            );
        }
        text(title, left, vp.height - pad - ch, trgb, Font::Normal);
    }
    let sy_label = if fig.xlabel.is_empty() { 0 } else { ch };
    if !fig.xlabel.is_empty() {
        let w = con.font.width(Font::Normal, &fig.xlabel);
        text(
            &fig.xlabel,
            (vp.width / 2 - w / 2).max(0),
            pad,
            trgb,
            Font::Normal,
        );
    }
    if sy_title > 0 || sy_label > 0 {
        let below = if sy_label > 0 { sy_label + pad / 2 } else { 0 };
        vp.bottom += below;
        vp.height -= below + if sy_title > 0 { sy_title + pad } else { 0 };
        if vp.width <= 0 || vp.height <= 0 {
            return;
        }
        pixels(gl, &vp);
    }
    let grid = fig.gridsize[0] > 1 && fig.gridsize[1] > 1;
    if grid {
        let tick = |axis: usize, i: i32, n: i32| {
            let v = range[axis][0] + (range[axis][1] - range[axis][0]) * i as f32 / (n - 1) as f32;
            tick_text(
                if axis == 0 {
                    &fig.xformat
                } else {
                    &fig.yformat
                },
                v,
            )
        };
        let xtick_h = if fig.flg_ticklabel[0] { ch + pad } else { 0 };
        let ny = fig.gridsize[1].min(MAXGRID);
        let ytick_w = if fig.flg_ticklabel[1] {
            let least = con.font.width(Font::Normal, &fig.minwidth);
            let widest = (0..ny)
                .map(|i| con.font.width(Font::Normal, &tick(1, i, ny)))
                .max()
                .unwrap_or(0);
            least.max(widest) + pad
        } else {
            0
        };
        // MuJoCo draws tick labels in the red channel of the text colour
        let tick_rgb = [trgb[0]; 3];
        if fig.flg_ticklabel[0] {
            let n = fig.gridsize[0].min(MAXGRID);
            for i in 0..n {
                let s = tick(0, i, n);
                let w = con.font.width(Font::Normal, &s);
                let shift = if i == 0 {
                    0
                } else if i == n - 1 {
                    -w
                } else {
                    -w / 2
                };
                let x = pad as f32
                    + ytick_w as f32
                    + shift as f32
                    + (vp.width - 2 * pad - ytick_w) as f32 * i as f32 / (n - 1) as f32;
                text(&s, x as i32, pad, tick_rgb, Font::Normal);
            }
        }
        if fig.flg_ticklabel[1] {
            for i in 0..ny {
                let s = tick(1, i, ny);
                let w = con.font.width(Font::Normal, &s);
                let y = (pad + xtick_h - ch / 2) as f32
                    + (vp.height - 2 * pad - xtick_h) as f32 * i as f32 / (ny - 1) as f32;
                text(&s, ytick_w - w, y as i32, tick_rgb, Font::Normal);
            }
        }
        vp.left += ytick_w;
        vp.width -= ytick_w;
        vp.bottom += xtick_h;
        vp.height -= xtick_h;
    }
    vp.left += pad;
    vp.width -= 2 * pad;
    vp.bottom += pad;
    vp.height -= 2 * pad;
    if vp.width <= 0 || vp.height <= 0 {
        return;
    }
    fig.xaxispixel = [vp.left, vp.left + vp.width - 1];
    fig.yaxispixel = [vp.bottom, vp.bottom + vp.height - 1];
    begin_2d(gl, con, vp, 1.0, 1.0);
    set_proj(gl, con, [-OFFSET, 1.0 + OFFSET], [-OFFSET, 1.0 + OFFSET]);
    quad(gl, con, 0.0, 0.0, 1.0, 1.0, fig.panergba);
    if grid {
        let n = fig.gridsize[0].min(MAXGRID);
        let v: Vec<[f32; 2]> = (0..n)
            .flat_map(|i| {
                let x = i as f32 / (n - 1) as f32;
                [[x, 0.0], [x, 1.0]]
            })
            .collect();
        draw_lines(gl, con, &v, gl::LINES, fig.gridrgb, fig.gridwidth);
        let n = fig.gridsize[1].min(MAXGRID);
        let h: Vec<[f32; 2]> = (0..n)
            .flat_map(|i| {
                let y = i as f32 / (n - 1) as f32;
                [[0.0, y], [1.0, y]]
            })
            .collect();
        draw_lines(gl, con, &h, gl::LINES, fig.gridrgb, fig.gridwidth);
    }
    let dx = range[0][1] - range[0][0];
    let dy = range[1][1] - range[1][0];
    let data_proj = |gl: &Gl| {
        set_proj(
            gl,
            con,
            [range[0][0] - dx * OFFSET, range[0][1] + dx * OFFSET],
            [range[1][0] - dy * OFFSET, range[1][1] + dy * OFFSET],
        )
    };
    data_proj(gl);
    let mode = if fig.flg_barplot {
        gl::LINES
    } else {
        gl::LINE_STRIP
    };
    let line = |n: usize| &fig.linedata[n][..fig.linedata[n].len().min(MAXLINEPNT)];
    for n in (0..MAXLINE.min(fig.linedata.len())).rev() {
        draw_lines(gl, con, line(n), mode, fig.linergb[n], fig.linewidth);
    }
    if fig.flg_selection {
        let sel = [[fig.selection, range[1][0]], [fig.selection, range[1][1]]];
        draw_lines(gl, con, &sel, gl::LINES, [1.0; 3], 3.0);
    }
    let mut hlight = fig.highlightid;
    if fig.flg_legend {
        hlight = legend(gl, con, fig, &vp, ch, pad).unwrap_or(hlight);
    }
    if let Some(n) = usize::try_from(hlight)
        .ok()
        .filter(|&n| n < MAXLINE.min(fig.linedata.len()))
    {
        begin_2d(gl, con, vp, 1.0, 1.0);
        data_proj(gl);
        draw_lines(gl, con, line(n), mode, fig.linergb[n], 5.0 * fig.linewidth);
        let nearest = line(n).iter().min_by(|a, b| {
            (fig.selection - a[0])
                .abs()
                .total_cmp(&(fig.selection - b[0]).abs())
        });
        if let (true, Some(p)) = (fig.flg_selection, nearest) {
            let s = format!(
                "( {} : {} )",
                c_general(f64::from(p[0]), 4),
                c_general(f64::from(p[1]), 4)
            );
            let x = 0.1 * (vp.width - 1) as f32;
            let y = 0.1 * (vp.height - 1) as f32;
            begin_2d(gl, con, vp, (vp.width - 1) as f32, (vp.height - 1) as f32);
            text::draw(gl, con, Font::Shadow, &s, x, y, trgb);
        }
    }
    gl.line_width(con.line_width);
}

/// The legend: named lines right-aligned at the top right over a translucent box; returns the
/// line under the `highlight` pixel, if any.
fn legend(gl: &Gl, con: &Context, fig: &Figure, vp: &Rect, ch: i32, pad: i32) -> Option<i32> {
    let named: Vec<usize> = (fig.legendoffset..MAXLINE.min(fig.linename.len()))
        .filter(|&n| !fig.linename[n].is_empty())
        .collect();
    let (mut lw, mut lh, mut cnt) = (0, 0, 0);
    for &n in &named {
        if lh + ch + 2 * pad >= vp.height {
            break;
        }
        lw = lw.max(con.font.width(Font::Normal, &fig.linename[n]));
        lh += ch;
        cnt += 1;
    }
    let hx = fig.highlight[0] - vp.left;
    let hy = fig.highlight[1] - vp.bottom;
    let inside = hx >= vp.width - pad - lw
        && hx <= vp.width - pad
        && hy >= vp.height - pad - lh
        && hy <= vp.height - pad;
    let hcnt = if inside && ch > 0 {
        (vp.height - pad - hy) / ch
    } else {
        -1
    };
    begin_2d(gl, con, *vp, (vp.width - 1) as f32, (vp.height - 1) as f32);
    if cnt > 0 {
        let (w, h) = (vp.width as f32, vp.height as f32);
        let x0 = (vp.width - 2 * pad - lw) as f32;
        let y0 = (vp.height - 2 * pad - lh) as f32;
        quad(gl, con, x0, y0, w, h, fig.legendrgba);
    }
    let mut found = None;
    for (k, &n) in named.iter().take(cnt).enumerate() {
        let name = &fig.linename[n];
        let w = con.font.width(Font::Normal, name);
        let y = vp.height - pad - (k as i32 + 1) * ch;
        text::draw(
            gl,
            con,
            Font::Shadow,
            name,
            (vp.width - pad - w) as f32,
            y as f32,
            fig.linergb[n],
        );
        if hcnt == k as i32 {
            found = Some(n as i32);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_format_like_printf() {
        assert_eq!(format_number("%.0f", 2.6), "3");
        assert_eq!(format_number("%.2g", 0.000123), "0.00012");
        assert_eq!(format_number("%.2g", 12345.0), "1.2e+04");
        assert_eq!(format_number("%.2g", 0.5), "0.5");
        assert_eq!(format_number("%.3e", 1234.5), "1.234e+03");
        assert_eq!(format_number("t=%5.1f s", 2.25), "t=  2.2 s");
        assert_eq!(format_number("%g", 100000.0), "100000");
        assert_eq!(format_number("%g", 1e6), "1e+06");
        assert_eq!(format_number("%.4g", -0.0001), "-0.0001");
        assert_eq!(format_number("%06.2f", -1.5), "-01.50");
        assert_eq!(format_number("%-6.1f|", 1.5), "1.5   |");
        assert_eq!(format_number("no conversion", 1.0), "no conversion");
    }

    #[test]
    fn tick_texts_drop_trailing_zeros() {
        assert_eq!(tick_text("%.3f", 1.5), "1.5");
        assert_eq!(tick_text("%.2f", 2.0), "2");
        assert_eq!(tick_text("%.0f", 20.0), "20");
        assert_eq!(tick_text("%.1e", 100.0), "1.0e+02");
    }

    #[test]
    fn ranges_fit_data_and_stay_open() {
        let mut fig = Figure::default();
        fig.linedata[0] = vec![[0.0, -2.0], [10.0, 3.0], [f32::NAN, f32::INFINITY]];
        let r = ranges(&fig);
        assert_eq!(r, [[0.0, 10.0], [-2.0, 3.0]]);
        fig.flg_symmetric = true;
        assert_eq!(ranges(&fig)[1], [-3.0, 3.0]);
        let flat = Figure {
            range: [[1.0, 1.0], [0.0, 0.0]],
            flg_extend: false,
            ..Figure::default()
        };
        let r = ranges(&flat);
        assert!((r[0][1] - r[0][0] - MINRANGE).abs() < 1e-6);
    }

    #[test]
    fn subplot_titles_split_at_double_spaces() {
        assert_eq!(
            subplot_title("Physics  Constraints  Time step", 1),
            "Constraints"
        );
        assert_eq!(
            subplot_title("Physics  Constraints  Time step", 2),
            "Time step"
        );
        assert_eq!(subplot_title("Solo", 3), "");
    }
}
