//! Text editing in edit items: the text of a value and back (`array2text`, `text2array`,
//! `checkedit`), which keys an edit accepts (`validkey`) and the cursor (`setcursor`,
//! `revealcursor`).

use super::hit::mouse_in_rect;
use super::layout::scl;
use super::model::{scan_numbers, truncate, Item, ItemType, Ui, Value, MAXTEXT};
use super::state::State;
use super::{KEY_NUMPAD_0, KEY_NUMPAD_9, MAXUIEDIT, MAXUINAME};
use crate::rect::Rect;
use crate::render::FontMetrics;
use mjrs_core::math::misc::{c_int, round};
use mjrs_core::print::FloatFormat;

/// Why edit text does not become a value (`checkedit`'s codes 1, 2, 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditError {
    /// Not as many numbers as the edit holds.
    Count,
    /// A number outside its range.
    Range,
    /// A fraction in an integer edit.
    NotInteger,
}

/// The numbers of `text` for a numeric edit, checked (`checkedit`).
fn check_numbers(text: &[u8], it: &Item) -> Result<([f64; 15], usize), EditError> {
    let (val, n) = scan_numbers(&String::from_utf8_lossy(text), MAXUIEDIT);
    if n != it.edit.nelem {
        return Err(EditError::Count);
    }
    for (v, r) in val[..n].iter().zip(&it.edit.range) {
        if r[0] < r[1] && (*v < r[0] || *v > r[1]) {
            return Err(EditError::Range);
        }
    }
    if it.kind == ItemType::EditInt && val[..n].iter().any(|&v| v != f64::from(c_int(v))) {
        return Err(EditError::NotInteger);
    }
    Ok((val, n))
}

/// Whether `text` would be accepted by the edit item `it` (`checkedit`); text always is.
pub fn check_edit(text: &[u8], it: &Item) -> Result<(), EditError> {
    if it.kind == ItemType::EditTxt {
        return Ok(());
    }
    check_numbers(text, it).map(|_| ())
}

/// Set the value of edit item `it` from `text` (`text2array`); on an error the value stays.
pub fn text_to_array(text: &[u8], it: &mut Item) -> Result<(), EditError> {
    if it.kind == ItemType::EditTxt {
        let mut t = String::from_utf8_lossy(text).into_owned();
        truncate(&mut t, MAXUINAME - 1);
        it.value = Some(Value::Text(t));
        return Ok(());
    }
    let (val, n) = check_numbers(text, it)?;
    match &mut it.value {
        Some(Value::Ints(p)) => (0..n).for_each(|i| p[i] = c_int(val[i])),
        Some(Value::Nums(p)) => p[..n].copy_from_slice(&val[..n]),
        Some(Value::Floats(p)) => (0..n).for_each(|i| p[i] = val[i] as f32),
        _ => {}
    }
    Ok(())
}

/// The text of edit item `it`'s value (`array2text`): integers with `%d`, numbers with
/// `%.4g`, separated by two spaces.
pub fn array_to_text(it: &Item) -> Vec<u8> {
    let g4 = FloatFormat::parse("%.4g").unwrap_or(FloatFormat::DEFAULT);
    let fmt = |x: f64| {
        let mut s = String::new();
        // writing to a String cannot fail
        let _ = g4.write(&mut s, x);
        s
    };
    let n = it.edit.nelem.min(MAXUIEDIT);
    let parts: Vec<String> = match &it.value {
        Some(Value::Text(t)) => {
            let mut t = t.clone();
            truncate(&mut t, MAXUINAME - 1);
            return t.into_bytes();
        }
        Some(Value::Ints(p)) => p[..n].iter().map(i32::to_string).collect(),
        Some(Value::Nums(p)) => p[..n].iter().map(|&x| fmt(x)).collect(),
        Some(Value::Floats(p)) => p[..n].iter().map(|&x| fmt(f64::from(x))).collect(),
        _ => Vec::new(),
    };
    let mut text = parts.join("  ").into_bytes();
    text.truncate(MAXTEXT);
    text
}

/// The character a key types into an edit of `kind` holding `sz` bytes, if any (`validkey`):
/// text takes printable keys (letters lower case unless shift, shifted punctuation of a US
/// keyboard), numbers take digits, signs, spaces and for floating point `e` and `.`.
pub fn valid_key(key: i32, sz: usize, kind: ItemType, state: &State) -> Option<u8> {
    if kind == ItemType::EditTxt {
        if sz >= MAXUINAME - 1 || !(32..=127).contains(&key) {
            return None;
        }
        let k = key as u8;
        if k.is_ascii_uppercase() && !state.shift {
            return Some(k.to_ascii_lowercase());
        }
        if state.shift {
            return Some(shifted(k));
        }
        return Some(k);
    }
    if !kind.is_edit_numeric() || sz >= MAXTEXT {
        return None;
    }
    let float = kind != ItemType::EditInt;
    let numpad = (KEY_NUMPAD_0..=KEY_NUMPAD_9).contains(&key);
    let ok = matches!(
        u8::try_from(key),
        Ok(b' ' | b'+' | b'=' | b'-' | b'0'..=b'9')
    ) || numpad
        || (float && matches!(u8::try_from(key), Ok(b'e' | b'E' | b'.')));
    if !ok {
        return None;
    }
    Some(match key {
        k if numpad => b'0' + (k - KEY_NUMPAD_0) as u8,
        k => match k as u8 {
            b'=' => b'+',
            b'E' => b'e',
            c => c,
        },
    })
}

/// A key with shift on a US keyboard, for the keys MuJoCo remaps.
fn shifted(k: u8) -> u8 {
    match k {
        b'`' => b'~',
        b'-' => b'_',
        b'=' => b'+',
        b'[' => b'{',
        b']' => b'}',
        b'\\' => b'|',
        b';' => b':',
        b'\'' => b'"',
        b',' => b'<',
        b'.' => b'>',
        b'/' => b'?',
        c => c,
    }
}

/// Width of byte `k` of the edit text, 0 outside it.
fn char_width_at(ui: &Ui, k: i32, con: &FontMetrics) -> i32 {
    usize::try_from(k)
        .ok()
        .and_then(|k| ui.edittext.get(k))
        .map_or(0, |&c| con.char_width[usize::from(c)])
}

/// Scroll the edit text so that the cursor shows in `r` (`revealcursor`).
pub(crate) fn reveal_cursor(r: Rect, ui: &mut Ui, con: &FontMetrics) {
    if ui.editcursor <= ui.editscroll {
        ui.editscroll = ui.editcursor;
        return;
    }
    let mut width = r.width - 2 * scl(ui.spacing.texthor, con);
    let mut i = ui.editcursor;
    while width >= 0 && i >= ui.editscroll {
        i -= 1;
        width -= char_width_at(ui, i, con);
    }
    if width < 0 {
        ui.editscroll = i + 1;
    }
}

/// Put the edit cursor where the mouse is in `r` (`setcursor`).
pub(crate) fn set_cursor(r: Rect, ui: &mut Ui, ins: &State, con: &FontMetrics) {
    let texthor = scl(ui.spacing.texthor, con);
    let r1 = Rect {
        left: r.left + texthor,
        width: r.width - 2 * texthor,
        ..r
    };
    let (rx, _) = mouse_in_rect(r1, ui, ins);
    let len = ui.edittext.len() as i32;
    if rx < 0.0 {
        ui.editcursor = 0;
        ui.editscroll = 0;
    } else if rx > 1.0 {
        ui.editcursor = len;
        reveal_cursor(r, ui, con);
    } else {
        let target = round(f64::from(r1.width) * rx);
        let (mut best, mut bestdif, mut cumsum) = (ui.editscroll, target, 0);
        for i in ui.editscroll.max(0)..len {
            cumsum += char_width_at(ui, i, con);
            if bestdif > (cumsum - target).abs() {
                bestdif = (cumsum - target).abs();
                best = i + 1;
            }
        }
        ui.editcursor = best;
    }
}
