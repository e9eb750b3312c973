//! Where the mouse is in a UI: in which section, item or scrollbar part (`findmouse`), and
//! on which element of a radio group, radio line or open selection box.

use super::layout::{inside, inside_oval, radio_columns, radio_line, scl, scroll_rect};
use super::model::{Item, ItemType, Ui};
use super::state::State;
use super::MAXUIMULTI;
use crate::rect::Rect;
use crate::render::FontMetrics;
use mjrs_core::math::misc::{c_int, round};

/// What is under the mouse (`findmouse`'s sect and item).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spot {
    /// Nothing.
    None,
    /// The scrollbar's thumb.
    Thumb,
    /// The scrollbar below the thumb.
    BarBelow,
    /// The scrollbar above the thumb.
    BarAbove,
    /// The title of a section.
    Title(usize),
    /// An item: section, item.
    Item(usize, usize),
}

impl Spot {
    /// MuJoCo's (sect, item) pair: sect -1/-2/-3 for the scrollbar, 1 + section otherwise.
    pub fn codes(self) -> (i32, i32) {
        match self {
            Spot::None => (0, 0),
            Spot::Thumb => (-1, -1),
            Spot::BarBelow => (-2, -1),
            Spot::BarAbove => (-3, -1),
            Spot::Title(n) => (n as i32 + 1, -1),
            Spot::Item(n, i) => (n as i32 + 1, i as i32),
        }
    }
}

/// The mouse in UI coordinates (`mouseinui`).
pub(crate) fn mouse_in_ui(ui: &Ui, ins: &State) -> (i32, i32) {
    let (mut x, mut y) = (c_int(ins.x), c_int(ins.y));
    let rect = ins.rect_of(ui.rectid);
    if ui.height > rect.height {
        y = y.wrapping_sub(ui.scroll);
    }
    x = x.wrapping_sub(rect.left);
    y = y.wrapping_sub(rect.height - ui.height + rect.bottom);
    (x, y)
}

/// The mouse relative to `rect`: 0 at its left/bottom edge, 1 at its right/top edge
/// (`mouseinrect`).
pub(crate) fn mouse_in_rect(rect: Rect, ui: &Ui, ins: &State) -> (f64, f64) {
    let (x, y) = mouse_in_ui(ui, ins);
    (
        f64::from(x - rect.left) / f64::from(rect.width),
        f64::from(y - rect.bottom) / f64::from(rect.height),
    )
}

/// Element of a radio group under the mouse (`findradio`).
pub(crate) fn find_radio(it: &Item, ui: &Ui, ins: &State) -> Option<usize> {
    let ncol = radio_columns(ui);
    let nelem = it.multi.len() as i32;
    let nrow = (nelem - 1) / ncol + 1;
    let (rx, ry) = mouse_in_rect(it.rect, ui, ins);
    let row = c_int(((1.0 - ry) * f64::from(nrow)).floor())
        .min(nrow - 1)
        .max(0);
    let col = c_int((rx * f64::from(ncol)).floor()).min(ncol - 1).max(0);
    let ind = row * ncol + col;
    (ind < nelem).then_some(ind as usize)
}

/// Element of a radio line under the mouse (`findradioline`).
pub(crate) fn find_radioline(it: &Item, ui: &Ui, ins: &State, con: &FontMetrics) -> Option<usize> {
    let sep = radio_line(&it.multi, it.rect.width, con);
    let (rx, _) = mouse_in_rect(it.rect, ui, ins);
    let x = round(rx * f64::from(it.rect.width));
    // at most MAXUIMULTI elements, as `add` makes them (the field is public)
    (0..it.multi.len().min(MAXUIMULTI)).find(|&i| x >= sep[i] && x < sep[i + 1])
}

/// The open box of a selection item: its elements stacked below the item.
pub(crate) fn select_box(it: &Item, ui: &Ui, con: &FontMetrics) -> Rect {
    let cellheight = con.char_height + 2 * scl(ui.spacing.textver, con);
    let height = it.multi.len() as i32 * cellheight;
    Rect {
        bottom: it.rect.bottom - height,
        height,
        ..it.rect
    }
}

/// Element of the open selection box under the mouse (`findselect`); only while the mouse
/// tracks a selection item.
pub(crate) fn find_select(ui: &Ui, ins: &State, con: &FontMetrics) -> Option<usize> {
    let it = tracked(ui)?;
    if it.kind != ItemType::Select {
        return None;
    }
    let nelem = it.multi.len() as i32;
    let (rx, ry) = mouse_in_rect(select_box(it, ui, con), ui, ins);
    if !(ry > 0.0 && ry < 1.0 && rx > 0.0 && rx < 1.0) {
        return None;
    }
    let k = c_int((ry * f64::from(nelem)).floor()).min(nelem - 1).max(0);
    Some((nelem - 1 - k) as usize)
}

/// The item the mouse tracks (`mousesect`, `mouseitem`), if any.
pub(crate) fn tracked(ui: &Ui) -> Option<&Item> {
    item_at(ui, ui.mousesect, ui.mouseitem)
}

/// Item `item` of section `sect - 1` (MuJoCo's 1-based section codes).
pub(crate) fn item_at(ui: &Ui, sect: i32, item: i32) -> Option<&Item> {
    let s = ui.sect.get(usize::try_from(sect - 1).ok()?)?;
    s.item.get(usize::try_from(item).ok()?)
}

/// What is under the mouse (`findmouse`).
pub(crate) fn find_mouse(ui: &Ui, ins: &State, con: &FontMetrics) -> Spot {
    let rect = ins.rect_of(ui.rectid);
    if ui.height > rect.height {
        let (x, y) = (c_int(ins.x), c_int(ins.y));
        let (bar, thumb) = scroll_rect(rect, ui, con);
        if inside(x, y, bar) {
            return if inside(x, y, thumb) {
                Spot::Thumb
            } else if y < thumb.bottom {
                Spot::BarBelow
            } else {
                Spot::BarAbove
            };
        }
    }
    let (x, y) = mouse_in_ui(ui, ins);
    for (n, s) in ui.sect.iter().enumerate() {
        if s.state < 2 && inside(x, y, s.rtitle) {
            return Spot::Title(n);
        }
        if s.state != 0 && inside(x, y, s.rcontent) {
            let hit = s.item.iter().position(|it| {
                if it.kind == ItemType::Button {
                    inside_oval(x, y, it.rect)
                } else {
                    inside(x, y, it.rect)
                }
            });
            if let Some(i) = hit {
                return Spot::Item(n, i);
            }
        }
    }
    Spot::None
}
