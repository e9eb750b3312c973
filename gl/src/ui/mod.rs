//! MuJoCo's UI framework (`mjui_*`): the panels of `simulate`, with MuJoCo's geometry and
//! behaviour.
//!
//! A [`Ui`] holds sections of items (buttons, check boxes, radio groups, selection boxes,
//! sliders, edits of numbers or text, static text, separators), made from definition tables
//! ([`Def`], [`Ui::add`]). [`resize`] computes MuJoCo's rectangles for them from the
//! theme ([`theme_spacing`], [`theme_color`]) and the context's font metrics
//! ([`FontMetrics`]); [`event`] handles the application's mouse and keyboard [`State`] and
//! reports the item that changed; [`update`] draws the UI into an auxiliary buffer of the
//! render context and [`render`] shows it in a rectangle of the window, scrolled.
//!
//! Layout and events need no OpenGL. Items own their values ([`Value`]) instead of pointing
//! into the application's data.
//!
//! ```
//! use mjrs_gl::render::FontMetrics;
//! use mjrs_gl::ui::{self, Def, ItemType, Value};
//!
//! let mut u = ui::Ui::new(ui::theme_spacing(0), ui::theme_color(0));
//! u.add(&[
//!     Def::section("Option", 1, "AO"),
//!     Def::item(ItemType::CheckInt, "Help", 2, Some(Value::Int(0)), " #290"),
//!     Def::item(ItemType::SliderNum, "Speed", 2, Some(Value::Num(1.0)), "0 2"),
//! ])
//! .unwrap();
//! ui::resize(&mut u, &FontMetrics::of_scale(100).unwrap());
//! assert_eq!(u.width, 270);
//! ```

// Floors, bottom up: `theme`, `state`; `model`; `layout`; `hit`; `edit`; `event`; `draw`;
// `simulate` (definitions of simulate's panels).
mod draw;
mod edit;
mod event;
mod hit;
mod layout;
mod model;
pub mod simulate;
mod state;
mod theme;

pub use crate::render::FontMetrics;
pub use draw::{render, shortcut_text, update, update_pending};
pub use edit::{array_to_text, check_edit, text_to_array, valid_key, EditError};
pub use event::{event, ItemId};
pub use layout::{resize, scl, textwidth};
pub use model::{Def, DefType, Edit, Item, ItemType, Predicate, Section, Single, Slider, Ui};
pub use model::{UiError, Value};
pub use state::{Button, EventType, State};
pub use theme::{theme_color, theme_spacing, ThemeColor, ThemeSpacing};

/// Most sections in a UI (`mjMAXUISECT`).
pub const MAXUISECT: usize = 10;
/// Most items in a section (`mjMAXUIITEM`).
pub const MAXUIITEM: usize = 200;
/// Longest edit text and definition text, with the terminator (`mjMAXUITEXT`).
pub const MAXUITEXT: usize = 300;
/// Longest name, with the terminator (`mjMAXUINAME`).
pub const MAXUINAME: usize = 40;
/// Most elements of a radio group, selection or static item (`mjMAXUIMULTI`).
pub const MAXUIMULTI: usize = 35;
/// Most values of an edit item (`mjMAXUIEDIT`).
pub const MAXUIEDIT: usize = 7;
/// Most rectangles in a [`State`] (`mjMAXUIRECT`).
pub const MAXUIRECT: usize = 25;
/// State of a closed separator; one more is open (`mjSEPCLOSED`).
pub const SEPCLOSED: i32 = 1000;

/// Escape (GLFW key codes, as MuJoCo uses them).
pub const KEY_ESCAPE: i32 = 256;
/// Enter.
pub const KEY_ENTER: i32 = 257;
/// Tab.
pub const KEY_TAB: i32 = 258;
/// Backspace.
pub const KEY_BACKSPACE: i32 = 259;
/// Insert.
pub const KEY_INSERT: i32 = 260;
/// Delete.
pub const KEY_DELETE: i32 = 261;
/// Right arrow.
pub const KEY_RIGHT: i32 = 262;
/// Left arrow.
pub const KEY_LEFT: i32 = 263;
/// Down arrow.
pub const KEY_DOWN: i32 = 264;
/// Up arrow.
pub const KEY_UP: i32 = 265;
/// Page up.
pub const KEY_PAGE_UP: i32 = 266;
/// Page down.
pub const KEY_PAGE_DOWN: i32 = 267;
/// Home.
pub const KEY_HOME: i32 = 268;
/// End.
pub const KEY_END: i32 = 269;
/// F1; F2..F12 follow.
pub const KEY_F1: i32 = 290;
/// Number pad 0; 1..9 follow.
pub const KEY_NUMPAD_0: i32 = 320;
/// Number pad 9.
pub const KEY_NUMPAD_9: i32 = 329;
