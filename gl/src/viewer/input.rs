//! The window's input as the UI framework sees it (simulate's platform adapter): mouse and
//! keys become events of a [`ui::State`](crate::ui::State), with GLFW's key codes, the
//! origin at the bottom left, double clicks within 250 ms and alt swapping the buttons.

use crate::render::find_rect;
use crate::ui::{self, Button, EventType, State};
use std::time::Instant;
use winit::keyboard::KeyCode;

/// One input, from the window or from a script (window pixels, origin at the top left).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input {
    /// The mouse moved to (x, y).
    Move(f64, f64),
    /// A mouse button went down.
    Press(Button),
    /// A mouse button went up.
    Release(Button),
    /// The wheel turned (lines; up is positive).
    Scroll(f64),
    /// A key went down: GLFW key code (`ui::KEY_*`, upper-case ASCII for letters).
    Key(i32),
    /// The modifier keys held from now on.
    Modifiers {
        /// Control.
        control: bool,
        /// Shift.
        shift: bool,
        /// Alt.
        alt: bool,
    },
}

/// The mouse and modifiers as they are, before the UI's state sees them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Raw {
    x: f64,
    y: f64,
    left: bool,
    right: bool,
    middle: bool,
    control: bool,
    shift: bool,
    alt: bool,
}

/// Seconds since the first call, for button and key times.
fn now(epoch: Instant) -> f64 {
    epoch.elapsed().as_secs_f64()
}

impl Raw {
    /// Update the UI's state from the raw one (`UpdateMjuiState`): buttons (alt swaps left
    /// and right), modifiers, position with y up and its change, the rectangle under it.
    fn update(&self, st: &mut State) {
        st.left = if self.alt { self.right } else { self.left };
        st.right = if self.alt { self.left } else { self.right };
        st.middle = self.middle;
        st.control = self.control;
        st.shift = self.shift;
        st.alt = self.alt;
        let y = f64::from(st.rect[0].height) - self.y;
        st.dx = self.x - st.x;
        st.dy = y - st.y;
        st.x = self.x;
        st.y = y;
        let n = st.nrect.clamp(1, ui::MAXUIRECT);
        let (xi, yi) = (
            mjrs_core::math::misc::round(st.x),
            mjrs_core::math::misc::round(st.y),
        );
        st.mouserect = find_rect(xi, yi, &st.rect[1..n]).map_or(0, |k| k as i32 + 1);
    }
}

/// Turn `input` into the UI state's event; `None` when there is nothing to handle (a move
/// without a button down, a modifier change).
pub fn translate(input: Input, raw: &mut Raw, st: &mut State, epoch: Instant) -> Option<()> {
    match input {
        Input::Move(x, y) => {
            (raw.x, raw.y) = (x, y);
            // without a button down only the position is kept, for the next press
            if !(raw.left || raw.right || raw.middle) {
                return None;
            }
            raw.update(st);
            st.kind = EventType::Move;
        }
        Input::Press(b) | Input::Release(b) => {
            let down = matches!(input, Input::Press(_));
            match b {
                Button::Left => raw.left = down,
                Button::Right => raw.right = down,
                Button::Middle => raw.middle = down,
                Button::None => return None,
            }
            raw.update(st);
            let b = swap(b, raw.alt);
            if down {
                let t = now(epoch);
                st.doubleclick = b == st.button && t - st.buttontime < 0.25;
                st.kind = EventType::Press;
                st.button = b;
                st.buttontime = t;
                if st.mouserect != 0 {
                    st.dragbutton = b;
                    st.dragrect = st.mouserect;
                }
            } else {
                st.kind = EventType::Release;
            }
        }
        Input::Scroll(sy) => {
            raw.update(st);
            st.kind = EventType::Scroll;
            st.sx = 0.0;
            st.sy = sy;
        }
        Input::Key(key) => {
            raw.update(st);
            st.kind = EventType::Key;
            st.key = key;
            st.keytime = now(epoch);
        }
        Input::Modifiers {
            control,
            shift,
            alt,
        } => {
            (raw.control, raw.shift, raw.alt) = (control, shift, alt);
            return None;
        }
    }
    Some(())
}

/// After the application handled a release, the drag ends.
pub fn end_drag(st: &mut State) {
    if st.kind == EventType::Release {
        st.dragrect = 0;
        st.dragbutton = Button::None;
    }
}

fn swap(b: Button, alt: bool) -> Button {
    match (b, alt) {
        (Button::Left, true) => Button::Right,
        (Button::Right, true) => Button::Left,
        _ => b,
    }
}

/// GLFW's code of a physical key (GLFW's codes follow the US layout), if the UI uses it.
pub fn key_code(key: KeyCode) -> Option<i32> {
    use KeyCode::*;
    let letters = [
        KeyA, KeyB, KeyC, KeyD, KeyE, KeyF, KeyG, KeyH, KeyI, KeyJ, KeyK, KeyL, KeyM, KeyN, KeyO,
        KeyP, KeyQ, KeyR, KeyS, KeyT, KeyU, KeyV, KeyW, KeyX, KeyY, KeyZ,
    ];
    let digits = [
        Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
    ];
    let numpad = [
        Numpad0, Numpad1, Numpad2, Numpad3, Numpad4, Numpad5, Numpad6, Numpad7, Numpad8, Numpad9,
    ];
    let functions = [F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12];
    let at =
        |list: &[KeyCode], base: i32| list.iter().position(|&k| k == key).map(|i| base + i as i32);
    let named = match key {
        Space => Some(32),
        Quote => Some(39),
        Comma => Some(44),
        Minus => Some(45),
        Period => Some(46),
        Slash => Some(47),
        Semicolon => Some(59),
        Equal => Some(61),
        BracketLeft => Some(91),
        Backslash => Some(92),
        BracketRight => Some(93),
        Backquote => Some(96),
        Escape => Some(ui::KEY_ESCAPE),
        Enter | NumpadEnter => Some(ui::KEY_ENTER),
        Tab => Some(ui::KEY_TAB),
        Backspace => Some(ui::KEY_BACKSPACE),
        Insert => Some(ui::KEY_INSERT),
        Delete => Some(ui::KEY_DELETE),
        ArrowRight => Some(ui::KEY_RIGHT),
        ArrowLeft => Some(ui::KEY_LEFT),
        ArrowDown => Some(ui::KEY_DOWN),
        ArrowUp => Some(ui::KEY_UP),
        PageUp => Some(ui::KEY_PAGE_UP),
        PageDown => Some(ui::KEY_PAGE_DOWN),
        Home => Some(ui::KEY_HOME),
        End => Some(ui::KEY_END),
        // GLFW's keypad decimal, minus and plus
        NumpadDecimal => Some(330),
        NumpadSubtract => Some(333),
        NumpadAdd => Some(334),
        _ => None,
    };
    named
        .or_else(|| at(&letters, i32::from(b'A')))
        .or_else(|| at(&digits, i32::from(b'0')))
        .or_else(|| at(&numpad, ui::KEY_NUMPAD_0))
        .or_else(|| at(&functions, ui::KEY_F1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rect::Rect;

    #[test]
    fn keys_have_glfws_codes() {
        assert_eq!(key_code(KeyCode::KeyP), Some(80));
        assert_eq!(key_code(KeyCode::Digit3), Some(51));
        assert_eq!(key_code(KeyCode::F4), Some(293));
        assert_eq!(key_code(KeyCode::Numpad7), Some(327));
        assert_eq!(key_code(KeyCode::Space), Some(32));
        assert_eq!(key_code(KeyCode::ArrowLeft), Some(263));
        assert_eq!(key_code(KeyCode::CapsLock), None);
    }

    #[test]
    fn presses_find_their_rectangle_and_double_clicks() {
        let mut st = State {
            nrect: 3,
            ..State::default()
        };
        st.rect[0] = Rect::sized(100, 50);
        st.rect[1] = Rect::sized(20, 50);
        st.rect[2] = Rect {
            left: 20,
            bottom: 0,
            width: 80,
            height: 50,
        };
        let mut raw = Raw::default();
        let epoch = Instant::now();
        assert_eq!(
            translate(Input::Move(30.0, 10.0), &mut raw, &mut st, epoch),
            None
        );
        translate(Input::Press(Button::Left), &mut raw, &mut st, epoch).unwrap();
        assert_eq!(
            (st.kind, st.mouserect, st.dragrect),
            (EventType::Press, 2, 2)
        );
        assert_eq!(st.y, 40.0);
        assert!(!st.doubleclick);
        translate(Input::Release(Button::Left), &mut raw, &mut st, epoch).unwrap();
        end_drag(&mut st);
        assert_eq!(st.dragrect, 0);
        translate(Input::Press(Button::Left), &mut raw, &mut st, epoch).unwrap();
        assert!(st.doubleclick);
        // alt: the left button acts as the right one
        let alt = Input::Modifiers {
            control: false,
            shift: false,
            alt: true,
        };
        translate(alt, &mut raw, &mut st, epoch);
        translate(Input::Release(Button::Left), &mut raw, &mut st, epoch).unwrap();
        translate(Input::Press(Button::Left), &mut raw, &mut st, epoch).unwrap();
        assert_eq!(st.button, Button::Right);
        assert!(st.right && !st.left);
    }
}
