//! Drawing a UI (`mjui_update`, `mjui_render`) with the renderer: `update` draws sections and
//! items into the UI's auxiliary buffer of the render context, `render` copies the visible
//! part into the current buffer and adds the scrollbar's thumb. Shapes as MuJoCo draws them:
//! gradient titles, ovals for buttons, outlined or filled boxes, triangles for the open and
//! closed symbols, text clipped to its room.

use super::edit::{array_to_text, check_edit};
use super::hit::{find_mouse, find_select, select_box, tracked, Spot};
use super::layout::{radio_element, radio_line, scl, scroll_rect, textwidth, Sizes};
use super::model::{Item, ItemType, Section, Ui, Value};
use super::state::State;
use super::{KEY_ESCAPE, KEY_F1, MAXUIMULTI, SEPCLOSED};
use crate::rect::Rect;
use crate::render::flat::{begin_2d, triangles};
use crate::render::{overlay, text, Context, Font, FontMetrics, RenderError};
use crate::sys::Gl;
use mjrs_core::math::misc::round;
use mjrs_core::print::FloatFormat;

type Rgb = [f32; 3];

/// Collects triangles and draws them in order with text.
struct Painter<'a> {
    gl: &'a Gl,
    con: &'a Context,
    m: FontMetrics,
    tris: Vec<([f32; 2], Rgb)>,
}

impl Painter<'_> {
    fn flush(&mut self) {
        triangles(self.gl, self.con, &self.tris);
        self.tris.clear();
    }

    fn quad(&mut self, r: Rect, bottom: Rgb, top: Rgb) {
        let (x0, y0) = (r.left as f32, r.bottom as f32);
        let (x1, y1) = ((r.left + r.width) as f32, (r.bottom + r.height) as f32);
        let c = [
            ([x0, y0], bottom),
            ([x1, y0], bottom),
            ([x1, y1], top),
            ([x0, y1], top),
        ];
        self.tris.extend([c[0], c[1], c[2], c[0], c[2], c[3]]);
    }

    /// A convex polygon as a fan.
    fn polygon(&mut self, pts: &[[f32; 2]], rgb: Rgb) {
        for k in 1..pts.len().saturating_sub(1) {
            self.tris
                .extend([(pts[0], rgb), (pts[k], rgb), (pts[k + 1], rgb)]);
        }
    }

    /// A filled rectangle, hollowed by `back` inside a margin (`drawrectangle`).
    fn rectangle(&mut self, r: Rect, rgb: Rgb, back: Option<Rgb>) {
        self.quad(r, rgb, rgb);
        if let Some(back) = back {
            let m = scl(2, &self.m);
            let inner = Rect {
                left: r.left + m,
                bottom: r.bottom + m,
                width: r.width - 2 * m,
                height: r.height - 2 * m,
            };
            self.quad(inner, back, back);
        }
    }

    /// A rounded button shape, hollowed by `back` (`drawoval`).
    fn oval(&mut self, r: Rect, rgb: Rgb, back: Option<Rgb>) {
        if r.height > r.width {
            return;
        }
        let radius = 0.5 * f64::from(r.height);
        self.polygon(&oval_points(r, radius), rgb);
        if let Some(back) = back {
            let inner = radius - f64::from(scl(2, &self.m));
            self.polygon(&oval_points(r, inner), back);
        }
    }

    /// Text from (x, y), cut before the character that reaches `maxwidth` (`drawtext`).
    fn text(&mut self, txt: &[u8], x: i32, y: i32, maxwidth: i32, rgb: Rgb) {
        let mut width = 0;
        let len = txt
            .iter()
            .take_while(|&&c| {
                width += self.m.char_width[usize::from(c)];
                width < maxwidth
            })
            .count();
        if len == 0 {
            return;
        }
        self.flush();
        let s = String::from_utf8_lossy(&txt[..len]);
        text::draw(self.gl, self.con, Font::Normal, &s, x as f32, y as f32, rgb);
    }

    /// Text centred in `r` (`drawtextrect`).
    fn text_rect(&mut self, r: Rect, txt: &[u8], rgb: Rgb) {
        let dy = (r.height - self.m.char_height) / 2;
        let dx = ((r.width - textwidth(txt, &self.m, -1)) / 2).max(0);
        self.text(txt, r.left + dx, r.bottom + dy, r.width - dx, rgb);
    }
}

/// The outline of an oval of `radius` with the centres of its ends inside `r`.
fn oval_points(r: Rect, radius: f64) -> Vec<[f32; 2]> {
    const NDIVIDE: usize = 20;
    let h = 0.5 * f64::from(r.height);
    let left = [f64::from(r.left) + h, f64::from(r.bottom) + h];
    let right = [f64::from(r.left + r.width) - h, left[1]];
    let mut pts = Vec::with_capacity(2 * NDIVIDE + 2);
    for (c, start) in [(left, 0.5), (right, 1.5)] {
        for i in 0..=NDIVIDE {
            let a = core::f64::consts::PI * (start + i as f64 / NDIVIDE as f64);
            pts.push([
                (c[0] + radius * a.cos()) as f32,
                (c[1] + radius * a.sin()) as f32,
            ]);
        }
    }
    pts
}

fn mix(a: Rgb, b: Rgb) -> Rgb {
    [
        0.5 * (a[0] + b[0]),
        0.5 * (a[1] + b[1]),
        0.5 * (a[2] + b[2]),
    ]
}

/// The open (down) or closed (left) triangle at the right end of a title or separator
/// (`drawsymbol`).
fn symbol(p: &mut Painter, r: Rect, open: bool, separator: bool, ui: &Ui) {
    let m = p.m.clone();
    let m = &m;
    let cx = r.left + r.width - scl(ui.spacing.texthor, m);
    let cy = r.bottom + r.height / 2;
    let d = round(f64::from(m.char_height) * if separator { 0.28 } else { 0.33 });
    let c = ui.color.sectsymbol;
    let f = |x: i32, y: i32| [x as f32, y as f32];
    if open {
        p.polygon(
            &[f(cx, cy + d), f(cx - 2 * d, cy + d), f(cx - d, cy - d)],
            c,
        );
        return;
    }
    p.polygon(&[f(cx, cy - d), f(cx, cy + d), f(cx - 2 * d, cy)], c);
    let margin = f64::from(m.font_scale) * 0.015;
    let u = 0.5 * 5f64.sqrt() * margin;
    let y = f64::from(d) - u - 0.5 * margin;
    let hollow = if separator {
        mix(ui.color.master, ui.color.sectpane)
    } else {
        mix(ui.color.secttitle, ui.color.sectpane)
    };
    let (cx, cy, d) = (f64::from(cx), f64::from(cy), f64::from(d));
    let g = |x: f64, y: f64| [x as f32, y as f32];
    p.polygon(
        &[
            g(cx - margin, cy - y),
            g(cx - margin, cy + y),
            g(cx - 2.0 * d + 2.0 * u, cy),
        ],
        hollow,
    );
}

/// Names of the keys MuJoCo spells out in shortcut help.
const KEYNAMES: [(i32, &str); 15] = [
    (32, "Space"),
    (KEY_ESCAPE, "Esc"),
    (KEY_ESCAPE + 1, "Enter"),
    (KEY_ESCAPE + 2, "Tab"),
    (KEY_ESCAPE + 3, "BackSpace"),
    (KEY_ESCAPE + 4, "Ins"),
    (KEY_ESCAPE + 5, "Del"),
    (KEY_ESCAPE + 6, "Right"),
    (KEY_ESCAPE + 7, "Left"),
    (KEY_ESCAPE + 8, "Down"),
    (KEY_ESCAPE + 9, "Up"),
    (KEY_ESCAPE + 10, "PgUp"),
    (KEY_ESCAPE + 11, "PgDn"),
    (KEY_ESCAPE + 12, "Home"),
    (KEY_ESCAPE + 13, "End"),
];

/// The text of a shortcut: "Ctrl ", "Shift " or "Alt " and the key.
pub fn shortcut_text(modifier: i32, shortcut: i32) -> String {
    let key = if (33..=126).contains(&shortcut) {
        char::from(shortcut as u8).to_string()
    } else if (KEY_F1..KEY_F1 + 12).contains(&shortcut) {
        format!("F{}", shortcut - KEY_F1 + 1)
    } else {
        KEYNAMES
            .iter()
            .find(|(k, _)| *k == shortcut)
            .map_or(String::new(), |(_, n)| (*n).to_string())
    };
    let m = match modifier {
        1 => "Ctrl ",
        2 => "Shift ",
        4 => "Alt ",
        _ => "",
    };
    format!("{m}{key}")
}

/// The shortcut in a box at the right end of `r` (`shortcuthelp`).
fn shortcut_help(p: &mut Painter, r: Rect, modifier: i32, shortcut: i32, ui: &Ui) {
    let txt = shortcut_text(modifier, shortcut);
    let textver = scl(ui.spacing.textver, &p.m);
    let width = textwidth(txt.as_bytes(), &p.m, -1) + 2 * textver;
    let r = Rect {
        left: r.left + r.width - width,
        bottom: r.bottom + textver,
        width,
        height: r.height - 2 * textver,
    };
    p.rectangle(r, ui.color.shortcut, None);
    p.text(
        txt.as_bytes(),
        r.left + textver,
        r.bottom,
        r.width,
        ui.color.fontactive,
    );
}

/// Draw section `section` item `item` into the UI's buffer (`mjui_update`); -1: all
/// sections, or the whole section. The context must hold auxiliary buffer `ui.auxid` of at
/// least `ui.width x ui.maxheight` (`Context::add_aux`).
pub fn update(
    section: i32,
    item: i32,
    ui: &Ui,
    state: &State,
    gl: &Gl,
    con: &Context,
) -> Result<(), RenderError> {
    con.set_aux(gl, ui.auxid)?;
    if ui.width > 0 && ui.height > 0 {
        draw_ui(section, item, ui, state, gl, con);
    }
    con.restore_buffer(gl);
    Ok(())
}

/// Perform the redraws that [`event`](super::event) queued, in order.
pub fn update_pending(
    ui: &mut Ui,
    state: &State,
    gl: &Gl,
    con: &Context,
) -> Result<(), RenderError> {
    let pending = core::mem::take(&mut ui.pending);
    for (s, i) in pending {
        update(s, i, ui, state, gl, con)?;
    }
    Ok(())
}

fn draw_ui(section: i32, item: i32, ui: &Ui, state: &State, gl: &Gl, con: &Context) {
    let m = con.font_metrics();
    let vp = Rect::sized(ui.width, ui.height);
    begin_2d(gl, con, vp, ui.width as f32, ui.height as f32);
    if section < 0 {
        let c = ui.color.master;
        gl.clear_color([c[0], c[1], c[2], 1.0]);
        gl.clear(gl::COLOR_BUFFER_BIT);
    }
    let spot = find_mouse(ui, state, &m);
    let mut p = Painter {
        gl,
        con,
        m,
        tris: Vec::new(),
    };
    let sections = match usize::try_from(section) {
        Ok(s) if s < ui.sect.len() => s..s + 1,
        Ok(_) => 0..0,
        Err(_) => 0..ui.sect.len(),
    };
    for n in sections {
        draw_section(&mut p, ui, n, section, item, spot);
    }
    draw_select_box(&mut p, ui, state);
    p.flush();
}

fn draw_section(p: &mut Painter, ui: &Ui, n: usize, section: i32, item: i32, spot: Spot) {
    let s = &ui.sect[n];
    let z = Sizes::of(ui, &p.m);
    if section < 0 || item < 0 {
        draw_title(p, ui, s, &z);
    }
    if s.state == 0 {
        return;
    }
    let items = match usize::try_from(item) {
        Ok(i) if section >= 0 && i < s.item.len() => i..i + 1,
        Ok(_) if section >= 0 => 0..0,
        _ => 0..s.item.len(),
    };
    for i in items {
        if s.item[i].rect.height != 0 {
            draw_item(p, ui, s, n, i, spot, &z);
        }
    }
}

fn draw_title(p: &mut Painter, ui: &Ui, s: &Section, z: &Sizes) {
    let maxwidth = (s.rtitle.width - 2 * z.itemside - z.itemmid) / 2 - 2 * z.texthor;
    if s.state < 2 {
        p.quad(s.rtitle, ui.color.sectpane, ui.color.secttitle);
        symbol(p, s.rtitle, s.state != 0, false, ui);
        let (x, y) = (s.rtitle.left + z.texthor, s.rtitle.bottom + z.textver);
        p.text(s.name.as_bytes(), x, y, 2 * maxwidth, ui.color.sectfont);
        if ui.mousehelp && s.shortcut != 0 {
            shortcut_help(p, s.rtitle, s.modifier, s.shortcut, ui);
        }
    }
    if s.state != 0 {
        p.rectangle(s.rcontent, ui.color.sectpane, None);
    }
}

/// Colours of an item: font, decoration and second decoration, by activity.
fn colors(ui: &Ui, it: &Item, active: bool) -> (Rgb, Rgb, Rgb) {
    let c = &ui.color;
    if !active {
        return (c.fontinactive, c.decorinactive, c.decorinactive2);
    }
    let decor = match it.kind {
        ItemType::Button => c.button,
        ItemType::CheckInt | ItemType::CheckByte => c.check,
        ItemType::Radio | ItemType::RadioLine => c.radio,
        ItemType::Select => c.select,
        ItemType::SliderInt | ItemType::SliderNum => c.slider,
        k if k.is_edit() => c.edit,
        _ => c.decorinactive,
    };
    let decor2 = if it.kind.is_slider() {
        c.slider2
    } else {
        c.decorinactive2
    };
    (c.fontactive, decor, decor2)
}

fn draw_item(p: &mut Painter, ui: &Ui, s: &Section, n: usize, i: usize, spot: Spot, z: &Sizes) {
    let it = &s.item[i];
    let active = ui.is_active(it.state);
    let (font, decor, decor2) = colors(ui, it, active);
    let pane = ui.color.sectpane;
    let r = it.rect;
    let maxwidth = (s.rtitle.width - 2 * z.itemside - z.itemmid) / 2 - 2 * z.texthor;
    let label_x = s.rcontent.left + z.itemside + z.texthor;
    let label_w = z.label - 2 * z.texthor;
    let (tx, ty, tw) = (
        r.left + z.texthor,
        r.bottom + z.textver,
        r.width - 2 * z.texthor,
    );
    let name = it.name.as_bytes();
    match it.kind {
        ItemType::Separator => {
            p.quad(r, pane, ui.color.master);
            p.text(name, tx, ty, tw, ui.color.sectfont);
            if it.state == SEPCLOSED + 1 || it.state == SEPCLOSED {
                symbol(p, r, it.state == SEPCLOSED + 1, true, ui);
            }
        }
        ItemType::Static => {
            let nelem = it.multi.len() as i32;
            let line = p.m.char_height + z.textver;
            p.text(name, label_x, ty + (nelem - 1) * line, label_w, font);
            p.rectangle(r, pane, Some(pane));
            for (k, t) in it.multi.iter().enumerate() {
                p.text(
                    t.as_bytes(),
                    tx,
                    ty + (nelem - k as i32 - 1) * line,
                    tw,
                    font,
                );
            }
        }
        ItemType::Button => {
            let pressed = (ui.mousesect, ui.mouseitem) == (n as i32 + 1, i as i32)
                && spot == Spot::Item(n, i);
            p.oval(r, decor, (!pressed).then_some(pane));
            p.text(name, tx, ty, maxwidth, font);
            single_help(p, ui, it);
        }
        ItemType::CheckInt | ItemType::CheckByte => {
            let on = it.value.as_ref().is_some_and(|v| v.int() != 0);
            p.rectangle(r, decor, (!on).then_some(pane));
            p.text(name, tx, ty, maxwidth, font);
            single_help(p, ui, it);
        }
        ItemType::Radio => draw_radio(p, ui, it, (label_x, label_w), (font, decor), z),
        ItemType::RadioLine => {
            p.text(name, label_x, ty, label_w, font);
            p.rectangle(r, decor, Some(pane));
            let sep = radio_line(&it.multi, r.width, &p.m);
            let cell = |k: usize| Rect {
                left: r.left + sep[k],
                width: sep[k + 1] - sep[k],
                ..r
            };
            if let Some(k) = selected(it).filter(|&k| k < MAXUIMULTI) {
                p.rectangle(cell(k), decor, None);
            }
            for (k, t) in it.multi.iter().take(MAXUIMULTI).enumerate() {
                p.text_rect(cell(k), t.as_bytes(), font);
            }
        }
        ItemType::Select => {
            p.text(name, label_x, ty, label_w, font);
            p.rectangle(r, decor, None);
            if let Some(t) = selected(it).and_then(|k| it.multi.get(k)) {
                p.text(t.as_bytes(), tx, ty, tw, font);
            }
        }
        ItemType::SliderInt | ItemType::SliderNum => {
            draw_slider(p, ui, it, (label_x, label_w), (font, decor, decor2), z)
        }
        _ => draw_edit(p, ui, it, (n, i), (label_x, label_w), (font, decor), z),
    }
}

/// The selected element of a radio or select item, when it is one of them.
fn selected(it: &Item) -> Option<usize> {
    let k = usize::try_from(it.value.as_ref()?.int()).ok()?;
    (k < it.multi.len()).then_some(k)
}

fn single_help(p: &mut Painter, ui: &Ui, it: &Item) {
    if ui.mousehelp && it.single.shortcut != 0 {
        shortcut_help(p, it.rect, it.single.modifier, it.single.shortcut, ui);
    }
}

fn draw_radio(p: &mut Painter, ui: &Ui, it: &Item, label: (i32, i32), c: (Rgb, Rgb), z: &Sizes) {
    let (font, decor) = c;
    let r = it.rect;
    let cellheight = p.m.char_height + 2 * z.textver;
    let nelem = it.multi.len() as i32;
    p.text(
        it.name.as_bytes(),
        label.0,
        r.bottom + r.height - cellheight + z.textver,
        label.1,
        font,
    );
    p.rectangle(r, decor, Some(ui.color.sectpane));
    if let Some(k) = it.value.as_ref().map(Value::int) {
        p.rectangle(radio_element(r, nelem, k, ui, &p.m), decor, None);
    }
    for (k, t) in it.multi.iter().enumerate() {
        let e = radio_element(r, nelem, k as i32, ui, &p.m);
        p.text(
            t.as_bytes(),
            e.left + z.texthor,
            e.bottom + z.textver,
            e.width - 2 * z.texthor,
            font,
        );
    }
}

fn draw_slider(
    p: &mut Painter,
    ui: &Ui,
    it: &Item,
    label: (i32, i32),
    c: (Rgb, Rgb, Rgb),
    z: &Sizes,
) {
    let (font, decor, decor2) = c;
    let r = it.rect;
    let value = match it.value {
        Some(Value::Int(k)) => f64::from(k),
        Some(Value::Num(x)) => x,
        _ => 0.0,
    };
    let [lo, hi] = it.slider.range;
    // clamp keeps NaN, as MuJoCo's mjMIN/mjMAX do
    let sel = ((value - lo) / (hi - lo).max(1e-10)).clamp(0.0, 1.0);
    p.rectangle(r, decor, None);
    let fill = Rect {
        width: round(f64::from(r.width) * sel),
        ..r
    };
    p.rectangle(fill, decor2, None);
    if it.slider.divisions <= 20.0 {
        let w = scl(2, &p.m);
        for k in 1..(it.slider.divisions as i32) {
            let left = r.left - w / 2 + (f64::from(r.width * k) / it.slider.divisions) as i32;
            let tick = Rect {
                left,
                bottom: r.bottom,
                width: w,
                height: z.textver,
            };
            p.rectangle(tick, ui.color.sectpane, None);
        }
    }
    p.text(
        it.name.as_bytes(),
        label.0,
        r.bottom + z.textver,
        label.1,
        font,
    );
    let txt = match it.value {
        Some(Value::Int(k)) => k.to_string(),
        _ => {
            let mut s = String::new();
            // writing to a String cannot fail
            let _ = FloatFormat::parse("%.3g")
                .unwrap_or(FloatFormat::DEFAULT)
                .write(&mut s, value);
            s
        }
    };
    let (tx, ty) = (r.left + z.texthor, r.bottom + z.textver);
    p.text(txt.as_bytes(), tx, ty, r.width - 2 * z.texthor, font);
}

fn draw_edit(
    p: &mut Painter,
    ui: &Ui,
    it: &Item,
    (n, i): (usize, usize),
    label: (i32, i32),
    c: (Rgb, Rgb),
    z: &Sizes,
) {
    let (font, decor) = c;
    let r = it.rect;
    let (tx, ty, tw) = (
        r.left + z.texthor,
        r.bottom + z.textver,
        r.width - 2 * z.texthor,
    );
    p.text(it.name.as_bytes(), label.0, ty, label.1, font);
    if (ui.editsect, ui.edititem) != (n as i32 + 1, i as i32) {
        p.rectangle(r, decor, Some(ui.color.sectpane));
        p.text(&array_to_text(it), tx, ty, tw, font);
        return;
    }
    let fill = if check_edit(&ui.edittext, it).is_ok() {
        decor
    } else {
        ui.color.edit2
    };
    p.rectangle(r, fill, None);
    let scroll = (ui.editscroll.max(0) as usize).min(ui.edittext.len());
    let shown = &ui.edittext[scroll..];
    let k = textwidth(shown, &p.m, ui.editcursor - ui.editscroll);
    let one = scl(1, &p.m);
    let cursor = Rect {
        left: r.left + z.texthor + k - one,
        bottom: r.bottom + z.textver / 2,
        width: 2 * one,
        height: r.height - 2 * (z.textver / 2),
    };
    p.rectangle(cursor, ui.color.cursor, None);
    p.text(shown, tx, ty, tw, font);
}

/// The open box of the selection item the mouse holds, over everything below it.
fn draw_select_box(p: &mut Painter, ui: &Ui, state: &State) {
    let Some(it) = tracked(ui).filter(|it| it.kind == ItemType::Select) else {
        return;
    };
    let z = Sizes::of(ui, &p.m);
    let nelem = it.multi.len() as i32;
    let margin = Rect {
        left: it.rect.left - z.itemside,
        width: it.rect.width + 2 * z.itemside,
        height: nelem * z.textheight + z.itemside,
        bottom: it.rect.bottom - (nelem * z.textheight + z.itemside),
    };
    p.rectangle(margin, ui.color.sectpane, None);
    let r = select_box(it, ui, &p.m);
    p.rectangle(r, ui.color.select2, None);
    if let Some(k) = find_select(ui, state, &p.m) {
        let row = Rect {
            bottom: r.bottom + (nelem - 1 - k as i32) * z.textheight,
            height: z.textheight,
            ..r
        };
        p.rectangle(row, ui.color.select, None);
    }
    for (k, t) in it.multi.iter().enumerate() {
        let y = r.bottom + z.textver + (nelem - 1 - k as i32) * z.textheight;
        p.text(
            t.as_bytes(),
            r.left + z.texthor,
            y,
            r.width - 2 * z.texthor,
            ui.color.fontactive,
        );
    }
}

/// Copy the visible part of the UI's buffer into `state.rect[ui.rectid]` of the current
/// buffer and draw the scrollbar's thumb when the UI is taller (`mjui_render`).
pub fn render(ui: &mut Ui, state: &State, gl: &Gl, con: &Context) -> Result<(), RenderError> {
    let rect = state.rect_of(ui.rectid);
    let c = ui.color.master;
    overlay::rectangle(gl, con, rect, [c[0], c[1], c[2], 1.0]);
    if ui.scroll > 0 && ui.height - ui.scroll < rect.height {
        ui.scroll = (ui.height - rect.height).max(0);
    }
    let raux = Rect {
        left: 0,
        bottom: (ui.height - ui.scroll - rect.height).max(0),
        width: ui.width,
        height: rect.height.min(ui.height - ui.scroll),
    };
    if raux.width > 0 && raux.height > 0 {
        let bottom = rect.bottom + (rect.height - ui.height + ui.scroll).max(0);
        con.blit_aux(gl, ui.auxid, raux, rect.left, bottom)?;
    }
    if ui.height > rect.height {
        let (_, thumb) = scroll_rect(rect, ui, &con.font_metrics());
        let t = ui.color.thumb;
        overlay::rectangle(gl, con, thumb, [t[0], t[1], t[2], 1.0]);
    }
    Ok(())
}
