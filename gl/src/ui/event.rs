//! Mouse, scroll and key events on a UI (`mjui_event`): section titles open and close,
//! items change their values, edits take keys, shortcuts act, the scrollbar scrolls.
//!
//! MuJoCo redraws the parts that changed into the UI's buffer while it handles an event; here
//! those redraws are queued on the UI ([`Ui::pending`]) and
//! [`update_pending`](super::update_pending) performs them, so that handling events needs no
//! OpenGL.

use super::edit::{array_to_text, reveal_cursor, set_cursor, text_to_array, valid_key};
use super::hit::{find_mouse, find_radio, find_radioline, find_select, mouse_in_rect, Spot};
use super::layout::{resize, scl};
use super::model::{Item, ItemType, Ui, Value};
use super::state::{Button, EventType, State};
use super::{KEY_BACKSPACE, KEY_DELETE, KEY_END, KEY_ENTER, KEY_ESCAPE, KEY_HOME, KEY_LEFT};
use super::{KEY_RIGHT, SEPCLOSED};
use crate::render::FontMetrics;
use mjrs_core::math::misc::round;

/// (section, item) of an item.
pub type ItemId = (usize, usize);

impl Ui {
    /// Whether an item of this state is active (`evalpredicate`).
    pub fn is_active(&self, state: i32) -> bool {
        match state {
            s if s <= 0 => false,
            1 => true,
            s => self.predicate.as_ref().is_none_or(|p| p(s)),
        }
    }

    /// Queue a redraw of (section, item) as `mjui_update` takes them (-1: all).
    fn redraw(&mut self, section: i32, item: i32) {
        if self.pending.len() >= 8 {
            self.pending.clear();
            self.pending.push((-1, -1));
        } else if !self.pending.contains(&(section, item)) {
            self.pending.push((section, item));
        }
    }

    fn item_mut(&mut self, (s, i): ItemId) -> &mut Item {
        &mut self.sect[s].item[i]
    }
}

/// The item of MuJoCo's (1 + section, item) codes, if it exists.
fn id_of(ui: &Ui, sect: i32, item: i32) -> Option<ItemId> {
    let s = usize::try_from(sect - 1).ok()?;
    let i = usize::try_from(item).ok()?;
    (ui.sect.get(s)?.item.len() > i).then_some((s, i))
}

/// Handle the event in `state` (`mjui_event`); returns the item whose value changed or that
/// was pressed (buttons), or the edit committed on the way. May clear `state.key` when a
/// key was used.
pub fn event(ui: &mut Ui, state: &mut State, con: &FontMetrics) -> Option<ItemId> {
    ui.editchanged = None;
    let mouse = matches!(
        state.kind,
        EventType::Press | EventType::Move | EventType::Release
    );
    if mouse && state.button != Button::Left {
        shortcut_help(ui, state);
        return None;
    }
    let spot = find_mouse(ui, state, con);
    match state.kind {
        EventType::Move => on_move(ui, state, con),
        EventType::Press => on_press(ui, state, con, spot),
        EventType::Release => on_release(ui, state, con),
        EventType::Scroll => {
            let step = round(state.sy * f64::from(scl(ui.spacing.linescroll, con)));
            ui.scroll = ui.scroll.saturating_sub(step);
            clamp_scroll(ui, state);
            None
        }
        EventType::Key => on_key(ui, state, con),
        EventType::Resize => {
            clamp_scroll(ui, state);
            None
        }
        _ => None,
    }
}

/// Keep the scroll within the part of the UI that does not fit its rectangle.
fn clamp_scroll(ui: &mut Ui, state: &State) {
    let room = ui.height - state.rect_of(ui.rectid).height;
    ui.scroll = ui.scroll.min(room).max(0);
}

/// The right button shows the shortcuts while down.
fn shortcut_help(ui: &mut Ui, state: &State) {
    if state.button != Button::Right {
        return;
    }
    match state.kind {
        EventType::Press => ui.mousehelp = true,
        EventType::Release => ui.mousehelp = false,
        _ => return,
    }
    ui.redraw(-1, -1);
}

/// Mouse move: drag the scrollbar, a slider or the edit cursor.
fn on_move(ui: &mut Ui, state: &State, con: &FontMetrics) -> Option<ItemId> {
    if ui.mousesect == -1 {
        let h = f64::from(state.rect_of(ui.rectid).height);
        ui.scroll = ui
            .scroll
            .saturating_sub(round(state.dy * f64::from(ui.height) / h));
        clamp_scroll(ui, state);
        return None;
    }
    let id = id_of(ui, ui.mousesect, ui.mouseitem)?;
    let kind = ui.sect[id.0].item[id.1].kind;
    let (sect, item) = (id.0 as i32, id.1 as i32);
    if kind.is_slider() {
        set_slider(ui, id, state);
        ui.redraw(sect, item);
        return Some(id);
    }
    if kind.is_edit() {
        let r = ui.sect[id.0].item[id.1].rect;
        set_cursor(r, ui, state, con);
    }
    ui.redraw(sect, item);
    None
}

/// Set a slider from the mouse (`setslider`): the nearest division of the range.
fn set_slider(ui: &mut Ui, id: ItemId, state: &State) {
    let (rx, _) = mouse_in_rect(ui.sect[id.0].item[id.1].rect, ui, state);
    let it = ui.item_mut(id);
    let div = it.slider.divisions;
    // clamp keeps NaN (a zero-width slider), as MuJoCo's mjMIN/mjMAX do
    let rx = rx.clamp(0.0, 1.0);
    let rx = (f64::from(round(rx * div)) / div.max(1.0)).clamp(0.0, 1.0);
    let val = it.slider.range[0] * (1.0 - rx) + it.slider.range[1] * rx;
    it.value = Some(match it.kind {
        ItemType::SliderInt => Value::Int(round(val)),
        _ => Value::Num(val),
    });
}

/// Mouse press: commit an edit elsewhere, then act on what is under the mouse.
fn on_press(ui: &mut Ui, state: &State, con: &FontMetrics, spot: Spot) -> Option<ItemId> {
    let (sect_cur, item_cur) = spot.codes();
    if let Some(edit) = id_of(ui, ui.editsect, ui.edititem) {
        if (ui.editsect, ui.edititem) == (sect_cur, item_cur) {
            ui.mousesect = sect_cur;
            ui.mouseitem = item_cur;
            let r = ui.sect[edit.0].item[edit.1].rect;
            set_cursor(r, ui, state, con);
            ui.redraw(edit.0 as i32, edit.1 as i32);
            return None;
        }
        let text = ui.edittext.clone();
        if text_to_array(&text, ui.item_mut(edit)).is_ok() {
            ui.editchanged = Some(edit);
        }
        ui.editsect = 0;
        ui.redraw(edit.0 as i32, edit.1 as i32);
    }
    ui.mousesect = 0;
    match spot {
        Spot::Thumb => {
            ui.mousesect = -1;
            ui.mouseitem = 0;
        }
        Spot::BarBelow => ui.scroll = ui.height - state.rect_of(ui.rectid).height,
        Spot::BarAbove => ui.scroll = 0,
        Spot::Title(n) => press_title(ui, state, con, n),
        Spot::Item(n, i) => return press_item(ui, state, con, (n, i)),
        Spot::None => {}
    }
    ui.editchanged
}

/// Click on a section title: toggle it; double click: all sections like it.
fn press_title(ui: &mut Ui, state: &State, con: &FontMetrics, n: usize) {
    let this = ui.sect[n].state;
    if state.doubleclick {
        for s in &mut ui.sect {
            if s.state < 2 && this < 2 {
                s.state = this;
            }
        }
    } else if this < 2 {
        ui.sect[n].state = 1 - this;
    }
    resize(ui, con);
    ui.redraw(-1, -1);
}

/// Press on an active item: act by type.
fn press_item(ui: &mut Ui, state: &State, con: &FontMetrics, id: ItemId) -> Option<ItemId> {
    let (sect, item) = (id.0 as i32 + 1, id.1 as i32);
    if !ui.is_active(ui.sect[id.0].item[id.1].state) {
        return ui.editchanged;
    }
    let mut change = false;
    let mut track = false;
    let it = &ui.sect[id.0].item[id.1];
    match it.kind {
        ItemType::Separator => {
            let st = &mut ui.item_mut(id).state;
            if *st == SEPCLOSED + 1 || *st == SEPCLOSED {
                *st = if *st == SEPCLOSED {
                    SEPCLOSED + 1
                } else {
                    SEPCLOSED
                };
                resize(ui, con);
                ui.redraw(-1, -1);
            }
            return ui.editchanged;
        }
        ItemType::Button => (track, change) = (true, true),
        ItemType::CheckInt | ItemType::CheckByte => {
            toggle(ui.item_mut(id));
            change = true;
        }
        ItemType::Radio | ItemType::RadioLine => {
            let k = if it.kind == ItemType::Radio {
                find_radio(it, ui, state)
            } else {
                find_radioline(it, ui, state, con)
            };
            if let Some(k) = k {
                ui.item_mut(id).value = Some(Value::Int(k as i32));
                change = true;
            }
        }
        ItemType::Select => track = true,
        ItemType::SliderInt | ItemType::SliderNum => {
            set_slider(ui, id, state);
            (track, change) = (true, true);
        }
        _ => {
            start_edit(ui, state, con, id);
            track = true;
        }
    }
    if track {
        ui.mousesect = sect;
        ui.mouseitem = item;
    }
    ui.redraw(id.0 as i32, item);
    if change {
        Some(id)
    } else {
        ui.editchanged
    }
}

/// Flip a check box.
fn toggle(it: &mut Item) {
    it.value = match it.value {
        Some(Value::Int(k)) => Some(Value::Int(1i32.wrapping_sub(k))),
        Some(Value::Byte(b)) => Some(Value::Byte(1u8.wrapping_sub(b))),
        ref v => v.clone(),
    };
}

/// Start editing an edit item: its text, the cursor where the mouse is.
fn start_edit(ui: &mut Ui, state: &State, con: &FontMetrics, id: ItemId) {
    let it = &ui.sect[id.0].item[id.1];
    ui.edittext = array_to_text(it);
    let r = it.rect;
    ui.editscroll = 0;
    set_cursor(r, ui, state, con);
    ui.editsect = id.0 as i32 + 1;
    ui.edititem = id.1 as i32;
}

/// Mouse release: choose in an open selection box, let go of a button.
fn on_release(ui: &mut Ui, state: &State, con: &FontMetrics) -> Option<ItemId> {
    let tracked = id_of(ui, ui.mousesect, ui.mouseitem);
    let mut changed = None;
    if let Some(id) = tracked {
        match ui.sect[id.0].item[id.1].kind {
            ItemType::Select => {
                let k = find_select(ui, state, con);
                if let Some(k) = k {
                    ui.item_mut(id).value = Some(Value::Int(k as i32));
                    changed = Some(id);
                }
                ui.mousesect = 0;
                ui.redraw(-1, -1);
            }
            ItemType::Button => {
                ui.mousesect = 0;
                ui.redraw(id.0 as i32, id.1 as i32);
            }
            _ => {}
        }
    }
    ui.mousesect = 0;
    changed
}

/// Key: edit the text being edited, or look for a shortcut.
fn on_key(ui: &mut Ui, state: &mut State, con: &FontMetrics) -> Option<ItemId> {
    match id_of(ui, ui.editsect, ui.edititem) {
        Some(edit) => edit_key(ui, state, con, edit),
        None if ui.editsect > 0 => None,
        None => shortcut(ui, state, con),
    }
}

/// A key while editing.
fn edit_key(ui: &mut Ui, state: &mut State, con: &FontMetrics, edit: ItemId) -> Option<ItemId> {
    let key = state.key;
    state.key = 0;
    let len = ui.edittext.len() as i32;
    match key {
        KEY_ESCAPE => ui.editsect = 0,
        KEY_ENTER => {
            let text = ui.edittext.clone();
            if text_to_array(&text, ui.item_mut(edit)).is_ok() {
                ui.editsect = 0;
                ui.redraw(edit.0 as i32, edit.1 as i32);
                ui.editchanged = Some(edit);
                return Some(edit);
            }
        }
        KEY_LEFT if state.control => ui.editcursor = 0,
        KEY_LEFT => ui.editcursor = (ui.editcursor - 1).max(0),
        KEY_RIGHT if state.control => ui.editcursor = len,
        KEY_RIGHT => ui.editcursor = (ui.editcursor + 1).min(len),
        KEY_HOME => ui.editcursor = 0,
        KEY_END => ui.editcursor = len,
        KEY_BACKSPACE => {
            if ui.editcursor > 0 && ui.editcursor <= len {
                ui.edittext.remove(ui.editcursor as usize - 1);
                ui.editcursor -= 1;
            }
        }
        KEY_DELETE => {
            if ui.editcursor >= 0 && ui.editcursor < len {
                ui.edittext.remove(ui.editcursor as usize);
            }
        }
        _ => {
            let kind = ui.sect[edit.0].item[edit.1].kind;
            if let Some(c) = valid_key(key, ui.edittext.len(), kind, state) {
                let at = (ui.editcursor.max(0) as usize).min(ui.edittext.len());
                ui.edittext.insert(at, c);
                ui.editcursor = at as i32 + 1;
            }
        }
    }
    if ui.editsect > 0 {
        let r = ui.sect[edit.0].item[edit.1].rect;
        reveal_cursor(r, ui, con);
    }
    ui.redraw(edit.0 as i32, edit.1 as i32);
    None
}

/// Whether the key and modifiers of `state` are shortcut (`modifier`, `key`)
/// (`matchshortcut`).
fn matches_shortcut(state: &State, modifier: i32, key: i32) -> bool {
    let held = i32::from(state.control) + 2 * i32::from(state.shift) + 4 * i32::from(state.alt);
    key != 0 && state.key == key && held == modifier
}

/// A key outside editing: a section's shortcut opens it alone, an item's acts like a click.
fn shortcut(ui: &mut Ui, state: &mut State, con: &FontMetrics) -> Option<ItemId> {
    let hit = ui
        .sect
        .iter()
        .position(|s| matches_shortcut(state, s.modifier, s.shortcut));
    if let Some(n) = hit {
        for s in &mut ui.sect {
            if s.state < 2 {
                s.state = 0;
            }
        }
        if ui.sect[n].state < 2 {
            ui.sect[n].state = 1;
        }
        resize(ui, con);
        ui.redraw(-1, -1);
        state.key = 0;
        return None;
    }
    let id = ui.sect.iter().enumerate().find_map(|(n, s)| {
        s.item
            .iter()
            .position(|it| {
                it.kind.is_single()
                    && matches_shortcut(state, it.single.modifier, it.single.shortcut)
            })
            .map(|i| (n, i))
    })?;
    state.key = 0;
    if !ui.is_active(ui.sect[id.0].item[id.1].state) {
        return None;
    }
    if ui.sect[id.0].item[id.1].kind != ItemType::Button {
        toggle(ui.item_mut(id));
        ui.redraw(id.0 as i32, id.1 as i32);
    }
    Some(id)
}
