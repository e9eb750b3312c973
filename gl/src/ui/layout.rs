//! Layout: the rectangles of sections and items (`mjui_resize`) and the geometry derived from
//! them that drawing and events share (scrollbar, radio cells, radio-line separators, text
//! widths, scaling by the font scale).

use super::model::{ItemType, Section, Ui};
use super::{MAXUIMULTI, SEPCLOSED};
use crate::rect::Rect;
use crate::render::FontMetrics;
use mjrs_core::math::misc::round;

/// A theme size in framebuffer pixels at the context's font scale (`SCL`).
pub fn scl(sz: i32, con: &FontMetrics) -> i32 {
    round(f64::from(sz) * 0.01 * f64::from(con.font_scale)).max(0)
}

/// Width of the first `limit` bytes of `text` (all with a negative limit) (`textwidth`).
pub fn textwidth(text: &[u8], con: &FontMetrics, limit: i32) -> i32 {
    let n = if limit < 0 {
        text.len()
    } else {
        text.len().min(limit as usize)
    };
    text[..n]
        .iter()
        .map(|&c| con.char_width[usize::from(c)])
        .sum()
}

/// The theme's sizes in pixels, as `mjui_resize` and `mjui_update` scale them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sizes {
    pub master: i32,
    pub scroll: i32,
    pub section: i32,
    pub itemside: i32,
    pub itemmid: i32,
    pub itemver: i32,
    pub texthor: i32,
    pub textver: i32,
    pub label: i32,
    /// Height of a line of text with its gaps.
    pub textheight: i32,
}

impl Sizes {
    pub fn of(ui: &Ui, con: &FontMetrics) -> Sizes {
        let s = &ui.spacing;
        let textver = scl(s.textver, con);
        Sizes {
            master: scl(s.total, con),
            scroll: scl(s.scroll, con),
            section: scl(s.section, con),
            itemside: scl(s.itemside, con),
            itemmid: scl(s.itemmid, con),
            itemver: scl(s.itemver, con),
            texthor: scl(s.texthor, con),
            textver,
            label: scl(s.label, con),
            textheight: con.char_height + 2 * textver,
        }
    }

    /// Width of each item of a pair.
    fn colwidth(&self) -> i32 {
        (self.master - self.scroll - 2 * self.section - 2 * self.itemside - self.itemmid) / 2
    }
}

/// Columns of radio groups (at least one: MuJoCo divides by a negative count).
pub(crate) fn radio_columns(ui: &Ui) -> i32 {
    if ui.radiocol != 0 {
        ui.radiocol.max(1)
    } else {
        2
    }
}

/// Compute the rectangles of all sections and items and the UI's sizes (`mjui_resize`).
/// Rectangles are in UI coordinates: origin at the bottom left of the UI's full height.
pub fn resize(ui: &mut Ui, con: &FontMetrics) {
    let z = Sizes::of(ui, con);
    let ncol = radio_columns(ui);
    let (mut height, mut maxheight) = (0, 0);
    for s in &mut ui.sect {
        height += z.section;
        maxheight += z.section;
        title_rect(s, &z, height);
        height += s.rtitle.height;
        maxheight += s.rtitle.height;
        s.rcontent = Rect {
            left: s.rtitle.left,
            width: s.rtitle.width,
            ..Rect::default()
        };
        maxheight += items_rects(s, &z, ncol, height, con);
        s.rcontent.height += z.itemver;
        s.rcontent.bottom = height + s.rcontent.height;
        if s.state != 0 {
            height += s.rcontent.height;
        }
        maxheight += s.rcontent.height;
    }
    height += z.section;
    maxheight += z.section;
    flip(ui, height);
    ui.width = z.master;
    ui.height = height;
    ui.maxheight = maxheight;
}

/// The title rectangle of a section whose top is `height` below the UI's top.
fn title_rect(s: &mut Section, z: &Sizes, height: i32) {
    s.rtitle.left = z.section;
    s.rtitle.width = z.master - z.scroll - 2 * z.section;
    if s.state < 2 {
        s.rtitle.bottom = height + z.textheight;
        s.rtitle.height = z.textheight;
    } else {
        s.rtitle.bottom = height;
        s.rtitle.height = 0;
    }
}

/// Whether item `i` follows a closed separator (items under it are hidden).
fn collapsed(s: &Section, i: usize) -> bool {
    if i == 0 || s.item[i].kind == ItemType::Separator {
        return false;
    }
    s.item[..i]
        .iter()
        .rev()
        .find(|it| it.kind == ItemType::Separator)
        .is_some_and(|it| it.state == SEPCLOSED)
}

/// Lay out the items of a section (bottoms measured down from the UI's top); returns the
/// height of the hidden items, which counts for `maxheight` only.
fn items_rects(s: &mut Section, z: &Sizes, ncol: i32, height: i32, con: &FontMetrics) -> i32 {
    let mut hidden = 0;
    let mut i = 0;
    while i < s.item.len() {
        let old = s.rcontent;
        let skip = collapsed(s, i);
        let kind = s.item[i].kind;
        s.rcontent.height += if kind == ItemType::Separator {
            z.section
        } else {
            z.itemver
        };
        let paired = kind.is_single() && s.item.get(i + 1).is_some_and(|n| n.kind == kind);
        if paired {
            pair_rects(s, i, z, height, skip);
        } else {
            single_rect(s, i, z, ncol, con);
        }
        let it = &mut s.item[i];
        it.rect.bottom = height + s.rcontent.height + it.rect.height;
        s.rcontent.height += it.rect.height;
        if skip {
            hidden += s.rcontent.height - old.height;
            s.rcontent = old;
            it.rect.width = 0;
            it.rect.height = 0;
        }
        i += if paired { 2 } else { 1 };
    }
    hidden
}

/// Two check boxes or buttons side by side; the second's bottom is set here.
fn pair_rects(s: &mut Section, i: usize, z: &Sizes, height: i32, skip: bool) {
    let (left, top) = (s.rcontent.left, height + s.rcontent.height);
    let colwidth = z.colwidth();
    s.item[i].rect = Rect {
        left: left + z.itemside,
        width: colwidth,
        height: z.textheight,
        ..s.item[i].rect
    };
    let next = &mut s.item[i + 1].rect;
    *next = Rect {
        left: left + z.itemside + colwidth + z.itemmid,
        bottom: top + z.textheight,
        width: colwidth,
        height: z.textheight,
    };
    if skip {
        next.width = 0;
        next.height = 0;
    }
}

/// An item on a line of its own, with room for its label when it has a name.
fn single_rect(s: &mut Section, i: usize, z: &Sizes, ncol: i32, con: &FontMetrics) {
    let content = s.rcontent;
    let it = &mut s.item[i];
    let full = content.width - 2 * z.itemside;
    it.rect.left = content.left + z.itemside;
    (it.rect.width, it.rect.height) = match it.kind {
        ItemType::Static => (full, (con.char_height + z.textver) * it.multi.len() as i32),
        k if k.is_single() => (z.colwidth(), z.textheight),
        ItemType::Radio => {
            let nrow = (it.multi.len() as i32 - 1) / ncol + 1;
            (full, z.textheight * nrow)
        }
        _ => (full, z.textheight),
    };
    if !it.name.is_empty() && (it.kind >= ItemType::Radio || it.kind == ItemType::Static) {
        it.rect.left = content.left + z.itemside + z.label;
        it.rect.width = content.width - (2 * z.itemside + z.label);
    }
}

/// Turn bottoms measured down from the top into bottoms measured up from the bottom.
fn flip(ui: &mut Ui, height: i32) {
    for s in &mut ui.sect {
        s.rtitle.bottom = height - s.rtitle.bottom;
        s.rcontent.bottom = height - s.rcontent.bottom;
        for it in &mut s.item {
            it.rect.bottom = height - it.rect.bottom;
        }
    }
}

/// Rectangle of element `n` of a radio group (`radioelement`).
pub(crate) fn radio_element(it_rect: Rect, nelem: i32, n: i32, ui: &Ui, con: &FontMetrics) -> Rect {
    let itemmid = scl(ui.spacing.itemmid, con);
    let textver = scl(ui.spacing.textver, con);
    let ncol = radio_columns(ui);
    let nrow = (nelem - 1) / ncol + 1;
    let cellwidth = (it_rect.width - (ncol - 1) * itemmid) / ncol;
    let cellheight = con.char_height + 2 * textver;
    let (row, col) = (n / ncol, n % ncol);
    let mut r = Rect {
        left: it_rect.left + col * (cellwidth + itemmid),
        bottom: it_rect.bottom + (nrow - 1 - row) * cellheight,
        width: cellwidth,
        height: cellheight,
    };
    if col == ncol - 1 {
        r.width = it_rect.width - r.left + it_rect.left;
    }
    r
}

/// Separators between the elements of a radio line, relative to its left edge
/// (`makeradioline`): element k spans `sep[k]..sep[k+1]`.
pub(crate) fn radio_line(names: &[String], width: i32, con: &FontMetrics) -> [i32; MAXUIMULTI + 1] {
    let mut sep = [0; MAXUIMULTI + 1];
    let nelem = names.len().min(MAXUIMULTI);
    if nelem == 0 {
        return sep;
    }
    let elwid: Vec<i32> = names[..nelem]
        .iter()
        .map(|n| textwidth(n.as_bytes(), con, -1))
        .collect();
    let extra = f64::from(width - elwid.iter().sum::<i32>()) / nelem as f64;
    for i in 0..nelem {
        sep[i + 1] = sep[i] + elwid[i] + round((i + 1) as f64 * extra) - round(i as f64 * extra);
    }
    sep[nelem] = width;
    sep
}

/// The scrollbar and its thumb for the UI drawn in `rect` (`scrollrect`).
pub(crate) fn scroll_rect(rect: Rect, ui: &Ui, con: &FontMetrics) -> (Rect, Rect) {
    let w_scroll = scl(ui.spacing.scroll, con);
    let bar = Rect {
        left: rect.left + rect.width - w_scroll,
        width: w_scroll,
        ..rect
    };
    let h = f64::from(ui.height.max(1));
    let tstart = f64::from(ui.scroll) / h;
    let tend = f64::from(ui.scroll + rect.height) / h;
    let thumb = Rect {
        bottom: rect.bottom + round(f64::from(rect.height) * (1.0 - tend)),
        height: round(f64::from(rect.height) * (tend - tstart)),
        ..bar
    };
    (bar, thumb)
}

/// Whether (x, y) is in `r`, edges included (`inside`).
pub(crate) fn inside(x: i32, y: i32, r: Rect) -> bool {
    x >= r.left && x <= r.left + r.width && y >= r.bottom && y <= r.bottom + r.height
}

/// Whether (x, y) is in the oval (rounded ends) filling `r` (`insideoval`).
pub(crate) fn inside_oval(x: i32, y: i32, r: Rect) -> bool {
    if !inside(x, y, r) {
        return false;
    }
    let radius = r.height / 2;
    if x >= r.left + radius && x <= r.left + r.width - radius {
        return true;
    }
    let dy = y - (r.bottom + radius);
    let dx = x - (r.left + radius);
    if dx < 0 && dx * dx + dy * dy < radius * radius {
        return true;
    }
    let dx = x - (r.left + r.width - radius);
    dx > 0 && dx * dx + dy * dy < radius * radius
}
