//! The mouse and keyboard state the application keeps for the UIs (`mjuiState`), the event
//! types and buttons (`mjtEvent`, `mjtButton`).

use super::MAXUIRECT;
use crate::rect::Rect;

/// Event types (`mjtEvent`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EventType {
    /// No event.
    #[default]
    None,
    /// The mouse moved.
    Move,
    /// A mouse button went down.
    Press,
    /// A mouse button went up.
    Release,
    /// The wheel turned.
    Scroll,
    /// A key went down.
    Key,
    /// The window changed size.
    Resize,
    /// The window needs drawing.
    Redraw,
    /// Files were dropped on the window.
    FilesDrop,
}

/// Mouse buttons (`mjtButton`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Button {
    /// None.
    #[default]
    None,
    /// Left.
    Left,
    /// Right.
    Right,
    /// Middle.
    Middle,
}

/// Mouse and keyboard state (`mjuiState`): the application fills it from its window's
/// events, in framebuffer pixels with the origin at the bottom left.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    /// Number of rectangles in use.
    pub nrect: usize,
    /// Rectangles: 0 the whole window, then one per UI (`Ui::rectid`) and others.
    pub rect: [Rect; MAXUIRECT],
    /// Event type.
    pub kind: EventType,
    /// Left button down.
    pub left: bool,
    /// Right button down.
    pub right: bool,
    /// Middle button down.
    pub middle: bool,
    /// The last press was a double click.
    pub doubleclick: bool,
    /// The button pressed or released.
    pub button: Button,
    /// Time of the last press, in seconds.
    pub buttontime: f64,
    /// Mouse x.
    pub x: f64,
    /// Mouse y.
    pub y: f64,
    /// Mouse x displacement.
    pub dx: f64,
    /// Mouse y displacement.
    pub dy: f64,
    /// Horizontal scroll.
    pub sx: f64,
    /// Vertical scroll.
    pub sy: f64,
    /// Control down.
    pub control: bool,
    /// Shift down.
    pub shift: bool,
    /// Alt down.
    pub alt: bool,
    /// Key pressed (GLFW codes: ASCII, `KEY_*` constants).
    pub key: i32,
    /// Time of the last key press, in seconds.
    pub keytime: f64,
    /// Rectangle under the mouse.
    pub mouserect: i32,
    /// Rectangle being dragged.
    pub dragrect: i32,
    /// Button that started the drag.
    pub dragbutton: Button,
    /// Paths of dropped files (with `FilesDrop`).
    pub droppaths: Vec<String>,
}

impl State {
    /// Rectangle `k`, empty when there is none.
    pub fn rect_of(&self, k: usize) -> Rect {
        self.rect.get(k).copied().unwrap_or_default()
    }
}
