//! The viewer's panels: lists of sections, check boxes, buttons, choices and sliders, drawn
//! with the renderer's labels and hit-tested against where they were last drawn (an
//! immediate-mode UI: the items are rebuilt from the viewer's state every frame).

use crate::render::{self, Context, Font, Rect};
use crate::sys::Gl;

/// What a panel row does.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A collapsible heading.
    Section(bool),
    /// An on/off setting.
    Check(bool),
    /// An action.
    Button,
    /// One of several values (click: next, right click: previous).
    Choice(String),
    /// A number in a range, set by dragging.
    Slider { value: f64, min: f64, max: f64 },
}

/// Which setting a row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Id {
    Section(u8),
    Help,
    Info,
    Profiler,
    Sensor,
    Font,
    Run,
    Reset,
    Step,
    Speed,
    Key,
    Integrator,
    Cone,
    Solver,
    Iterations,
    Disable(u8),
    Enable(u8),
    Camera,
    Label,
    Frame,
    Vis(u8),
    Rnd(u8),
    GeomGroup(u8),
    SiteGroup(u8),
    FlexGroup(u8),
    FlexLayer,
    Joint(usize),
    Ctrl(usize),
    ClearCtrl,
}

/// One row.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    pub id: Id,
    pub label: String,
    pub kind: Kind,
}

impl Item {
    pub fn new(id: Id, label: impl Into<String>, kind: Kind) -> Item {
        Item {
            id,
            label: label.into(),
            kind,
        }
    }
}

/// A panel: where it is, how far it is scrolled, and where its rows were drawn.
#[derive(Clone, Debug, Default)]
pub struct Panel {
    pub rect: Rect,
    pub scroll: i32,
    pub rows: Vec<(Rect, Item)>,
}

const BG: [f32; 4] = [0.15, 0.15, 0.17, 1.0];
const SECTION: [f32; 4] = [0.3, 0.3, 0.36, 1.0];
const OFF: [f32; 4] = [0.22, 0.22, 0.25, 1.0];
const ON: [f32; 4] = [0.45, 0.45, 0.25, 1.0];
const BUTTON: [f32; 4] = [0.25, 0.3, 0.4, 1.0];
const FILL: [f32; 4] = [0.35, 0.45, 0.6, 1.0];
const TEXT: [f32; 3] = [0.95; 3];

impl Panel {
    /// Row height in pixels for the context's font.
    pub fn row_height(con: &Context) -> i32 {
        con.text_height(Font::Normal) + 6
    }

    /// Draw `items` top down from the panel's top, skipping `scroll` pixels; remember where.
    pub fn draw(&mut self, gl: &Gl, con: &Context, items: Vec<Item>) {
        let r = self.rect;
        if r.width <= 0 || r.height <= 0 {
            self.rows.clear();
            return;
        }
        render::rectangle(gl, con, r, BG);
        let h = Self::row_height(con);
        let total = h * items.len() as i32;
        self.scroll = self.scroll.clamp(0, (total - r.height).max(0));
        self.rows.clear();
        let mut top = r.bottom + r.height + self.scroll;
        for item in items {
            let row = Rect {
                left: r.left + 2,
                bottom: top - h + 1,
                width: r.width - 4,
                height: h - 2,
            };
            top -= h;
            if row.bottom + row.height <= r.bottom || row.bottom >= r.bottom + r.height {
                continue;
            }
            draw_row(gl, con, row, &item);
            self.rows.push((row, item));
        }
    }

    /// The row under pixel (x, y), with the relative x position in it.
    pub fn hit(&self, x: i32, y: i32) -> Option<(&Item, f64)> {
        let rects: Vec<Rect> = self.rows.iter().map(|r| r.0).collect();
        let k = render::find_rect(x, y, &rects)?;
        let (rect, item) = &self.rows[k];
        Some((
            item,
            f64::from(x - rect.left) / f64::from(rect.width.max(1)),
        ))
    }

    /// Whether pixel (x, y) is on the panel.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        render::find_rect(x, y, &[self.rect]).is_some()
    }
}

/// Value shown for a slider: integers without decimals, others with three significant ones.
pub fn format_value(v: f64, integer: bool) -> String {
    if integer {
        format!("{}", v.round() as i64)
    } else if v != 0.0 && (v.abs() < 0.01 || v.abs() >= 1e4) {
        format!("{v:.2e}")
    } else {
        format!("{v:.3}")
    }
}

fn draw_row(gl: &Gl, con: &Context, row: Rect, item: &Item) {
    let left = |txt: &str, color: [f32; 4]| {
        render::rectangle(gl, con, row, color);
        render::overlay::text_at(gl, con, row, Font::Normal, txt, 6, TEXT);
    };
    match &item.kind {
        Kind::Section(open) => left(
            &format!("{} {}", if *open { "-" } else { "+" }, item.label),
            SECTION,
        ),
        Kind::Check(on) => left(&item.label, if *on { ON } else { OFF }),
        Kind::Button => render::label(gl, con, row, Font::Normal, &item.label, BUTTON, TEXT),
        Kind::Choice(value) => {
            left(&item.label, OFF);
            let w = con.text_width(Font::Normal, value);
            render::overlay::text_at(
                gl,
                con,
                row,
                Font::Normal,
                value,
                row.width - w - 6,
                [1.0, 0.9, 0.5],
            );
        }
        Kind::Slider { value, min, max } => {
            render::rectangle(gl, con, row, OFF);
            let t = if max > min {
                ((value - min) / (max - min)).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let fill = Rect {
                width: (f64::from(row.width) * t).round() as i32,
                ..row
            };
            render::rectangle(gl, con, fill, FILL);
            render::overlay::text_at(gl, con, row, Font::Normal, &item.label, 6, TEXT);
            let integer =
                min.fract() == 0.0 && max.fract() == 0.0 && value.fract() == 0.0 && max - min > 2.0;
            let v = format_value(*value, integer);
            let w = con.text_width(Font::Normal, &v);
            render::overlay::text_at(gl, con, row, Font::Normal, &v, row.width - w - 6, TEXT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slider_values_read_well() {
        assert_eq!(format_value(3.0, true), "3");
        assert_eq!(format_value(0.25, false), "0.250");
        assert_eq!(format_value(0.001, false), "1.00e-3");
        assert_eq!(format_value(0.0, false), "0.000");
    }
}
