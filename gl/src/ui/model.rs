//! The UI's data model (`mjUI`, `mjuiSection`, `mjuiItem`) and how definitions become
//! sections and items (`mjui_add`, `mjui_addToSection`).
//!
//! MuJoCo's items point at the application's data (`pdata`); here each item owns its
//! [`Value`] instead: the application sets it before drawing and reads it back when
//! `ui::event` reports the item as changed.

use super::theme::{ThemeColor, ThemeSpacing};
use super::{MAXUIEDIT, MAXUIITEM, MAXUIMULTI, MAXUINAME, MAXUISECT, MAXUITEXT};
use crate::rect::Rect;
use mjrs_core::plugin::strtod_end;

/// Item types (`mjtItem`, from `mjITEM_SEPARATOR` = 0 on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ItemType {
    /// A heading inside a section, collapsible when its state is `SEPCLOSED` or one more.
    Separator = 0,
    /// Lines of text.
    Static,
    /// A push button.
    Button,
    /// A check box over an `i32`.
    CheckInt,
    /// A check box over a byte.
    CheckByte,
    /// A group of choices in a grid.
    Radio,
    /// A group of choices on one line.
    RadioLine,
    /// A drop-down list of choices.
    Select,
    /// A slider over an `i32`.
    SliderInt,
    /// A slider over an `f64`.
    SliderNum,
    /// Editable `i32`s.
    EditInt,
    /// Editable `f64`s.
    EditNum,
    /// Editable `f32`s.
    EditFloat,
    /// Editable text.
    EditTxt,
}

impl ItemType {
    /// The type of MuJoCo's code `t` (0..14), if any.
    pub fn from_code(t: i32) -> Option<ItemType> {
        use ItemType::*;
        const ALL: [ItemType; 14] = [
            Separator, Static, Button, CheckInt, CheckByte, Radio, RadioLine, Select, SliderInt,
            SliderNum, EditInt, EditNum, EditFloat, EditTxt,
        ];
        usize::try_from(t).ok().and_then(|k| ALL.get(k).copied())
    }

    /// Whether items of this type hold data (MuJoCo: the types after `mjITEM_BUTTON`).
    pub fn has_data(self) -> bool {
        self > ItemType::Button
    }

    /// Check boxes and buttons: items with a shortcut, laid out in pairs.
    pub fn is_single(self) -> bool {
        matches!(
            self,
            ItemType::Button | ItemType::CheckInt | ItemType::CheckByte
        )
    }

    /// The edit types.
    pub fn is_edit(self) -> bool {
        self >= ItemType::EditInt
    }

    /// The numeric edit types.
    pub fn is_edit_numeric(self) -> bool {
        matches!(
            self,
            ItemType::EditInt | ItemType::EditNum | ItemType::EditFloat
        )
    }

    /// The slider types.
    pub fn is_slider(self) -> bool {
        matches!(self, ItemType::SliderInt | ItemType::SliderNum)
    }
}

/// The data of an item (what MuJoCo's `pdata` points at).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `CheckInt`, `Radio`, `RadioLine`, `Select`, `SliderInt`.
    Int(i32),
    /// `CheckByte`.
    Byte(u8),
    /// `SliderNum`.
    Num(f64),
    /// `EditInt` (the first `nelem` are used).
    Ints([i32; MAXUIEDIT]),
    /// `EditNum`.
    Nums([f64; MAXUIEDIT]),
    /// `EditFloat`.
    Floats([f32; MAXUIEDIT]),
    /// `EditTxt`: at most `MAXUINAME - 1` bytes are kept.
    Text(String),
}

impl Value {
    /// Whether this value fits items of `kind`.
    pub fn fits(&self, kind: ItemType) -> bool {
        use ItemType::*;
        matches!(
            (self, kind),
            (
                Value::Int(_),
                CheckInt | Radio | RadioLine | Select | SliderInt
            ) | (Value::Byte(_), CheckByte)
                | (Value::Num(_), SliderNum)
                | (Value::Ints(_), EditInt)
                | (Value::Nums(_), EditNum)
                | (Value::Floats(_), EditFloat)
                | (Value::Text(_), EditTxt)
        )
    }

    /// The integer of an `Int` value (0 otherwise).
    pub fn int(&self) -> i32 {
        match self {
            Value::Int(k) => *k,
            Value::Byte(b) => i32::from(*b),
            _ => 0,
        }
    }
}

/// What a definition adds (`mjuiDef.type`: `mjITEM_SECTION` or an item type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefType {
    /// A new section.
    Section,
    /// An item of the last section.
    Item(ItemType),
}

/// One entry of a UI definition table (`mjuiDef`); a slice replaces `mjITEM_END`.
#[derive(Clone, Debug, PartialEq)]
pub struct Def {
    /// Section or item type.
    pub kind: DefType,
    /// Name.
    pub name: String,
    /// Sections: 0 closed, 1 open, 2 always open without title. Items: 0 inactive, 1 active,
    /// 2 and more: ask the predicate; separators: `SEPCLOSED` (closed) or one more (open).
    pub state: i32,
    /// Initial value of items with data (`pdata`); none for the others.
    pub value: Option<Value>,
    /// Type-specific text: shortcut (`" #290"`, `"CQ"`), element names separated by `\n`,
    /// slider `"min max [divisions]"`, edit `"n [min max]..."`.
    pub other: String,
}

impl Def {
    /// A section definition.
    pub fn section(name: &str, state: i32, other: &str) -> Def {
        Def {
            kind: DefType::Section,
            name: name.into(),
            state,
            value: None,
            other: other.into(),
        }
    }

    /// An item definition.
    pub fn item(kind: ItemType, name: &str, state: i32, value: Option<Value>, other: &str) -> Def {
        Def {
            kind: DefType::Item(kind),
            name: name.into(),
            state,
            value,
            other: other.into(),
        }
    }
}

/// Shortcut of a check box or button (`mjuiItemSingle`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Single {
    /// 0 none, 1 control, 2 shift, 4 alt.
    pub modifier: i32,
    /// Key code; 0 none.
    pub shortcut: i32,
}

/// Range of a slider (`mjuiItemSlider`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Slider {
    /// Minimum and maximum.
    pub range: [f64; 2],
    /// Number of steps across the range.
    pub divisions: f64,
}

/// Size and ranges of an edit (`mjuiItemEdit`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Edit {
    /// Number of values (0 for text).
    pub nelem: usize,
    /// Allowed range of each value; ignored where min >= max.
    pub range: [[f64; 2]; MAXUIEDIT],
}

/// One item (`mjuiItem`).
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Type (`type`).
    pub kind: ItemType,
    /// Name.
    pub name: String,
    /// 0 inactive, 1 active, 2+ ask the predicate; separators: open/closed.
    pub state: i32,
    /// The data (`pdata`).
    pub value: Option<Value>,
    /// Index of the section holding the item.
    pub sectionid: usize,
    /// Index of the item in its section.
    pub itemid: usize,
    /// Check boxes and buttons.
    pub single: Single,
    /// Static, radio and select: element names (`multi.name`, `multi.nelem` is its length).
    pub multi: Vec<String>,
    /// Sliders.
    pub slider: Slider,
    /// Edits.
    pub edit: Edit,
    /// Rectangle in UI coordinates (origin at the bottom left of the UI), set by `resize`.
    pub rect: Rect,
}

/// One section (`mjuiSection`).
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// Name.
    pub name: String,
    /// 0 closed, 1 open, 2 open without title.
    pub state: i32,
    /// Shortcut modifier: 0 none, 1 control, 2 shift, 4 alt.
    pub modifier: i32,
    /// Shortcut key; 0 none.
    pub shortcut: i32,
    /// The items (`item`, `nitem` is its length).
    pub item: Vec<Item>,
    /// Rectangle of the title, set by `resize`.
    pub rtitle: Rect,
    /// Rectangle of the content, set by `resize`.
    pub rcontent: Rect,
}

/// Decides whether items of a category (their state, 2 and more) are active
/// (`mjfItemEnable`).
pub type Predicate = Box<dyn Fn(i32) -> bool + Send>;

/// A whole UI (`mjUI`).
pub struct Ui {
    /// Sizes.
    pub spacing: ThemeSpacing,
    /// Colours.
    pub color: ThemeColor,
    /// Activity of items with state 2 and more; without one they are active.
    pub predicate: Option<Predicate>,
    /// Index of this UI's rectangle in the [`State`](super::State).
    pub rectid: usize,
    /// Auxiliary buffer of the render context this UI draws into.
    pub auxid: usize,
    /// Columns of radio groups (0: 2).
    pub radiocol: i32,
    /// Width in pixels, set by `resize`.
    pub width: i32,
    /// Height with the current sections open, set by `resize`.
    pub height: i32,
    /// Height with all sections open, set by `resize`.
    pub maxheight: i32,
    /// Scroll from the top in pixels.
    pub scroll: i32,
    /// Mouse focus: 0 none, -1 scrollbar, otherwise 1 + section.
    pub mousesect: i32,
    /// Item of the mouse focus.
    pub mouseitem: i32,
    /// Shortcut help shown (right button down).
    pub mousehelp: bool,
    /// Keyboard focus: 0 none, otherwise 1 + section.
    pub editsect: i32,
    /// Item being edited.
    pub edititem: i32,
    /// Cursor position in `edittext`.
    pub editcursor: i32,
    /// First character of `edittext` shown.
    pub editscroll: i32,
    /// Text being edited (bytes 32..127).
    pub edittext: Vec<u8>,
    /// The edit committed by the last `event` (section, item), if any.
    pub editchanged: Option<(usize, usize)>,
    /// The sections (`sect`, `nsect` is its length).
    pub sect: Vec<Section>,
    /// Redraws (section, item; -1 all) that `event` queued, as MuJoCo's `mjui_event` calls
    /// `mjui_update`; see `ui::update_pending`.
    pub pending: Vec<(i32, i32)>,
}

impl core::fmt::Debug for Ui {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Ui")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("scroll", &self.scroll)
            .field("sect", &self.sect)
            .finish_non_exhaustive()
    }
}

/// Why a definition was refused (MuJoCo stops with `mju_error` in these cases).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UiError {
    /// A definition breaks a rule of `mjui_add` (message says which, and the entry).
    Def(String),
}

impl core::fmt::Display for UiError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            UiError::Def(m) => write!(f, "UI definition: {m}"),
        }
    }
}

impl std::error::Error for UiError {}

fn bad(n: usize, what: &str) -> UiError {
    UiError::Def(format!("entry {n}: {what}"))
}

impl Ui {
    /// An empty UI with the given themes.
    pub fn new(spacing: ThemeSpacing, color: ThemeColor) -> Ui {
        Ui {
            spacing,
            color,
            predicate: None,
            rectid: 0,
            auxid: 0,
            radiocol: 0,
            width: 0,
            height: 0,
            maxheight: 0,
            scroll: 0,
            mousesect: 0,
            mouseitem: 0,
            mousehelp: false,
            editsect: 0,
            edititem: 0,
            editcursor: 0,
            editscroll: 0,
            edittext: Vec::new(),
            editchanged: None,
            sect: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// Add sections and items (`mjui_add`); items go to the last section. On an error the
    /// entries before the bad one stay added, as in MuJoCo before it stops.
    pub fn add(&mut self, defs: &[Def]) -> Result<(), UiError> {
        for (n, def) in defs.iter().enumerate() {
            match def.kind {
                DefType::Section => self.add_section(n, def)?,
                DefType::Item(kind) => self.add_item(n, kind, def)?,
            }
        }
        Ok(())
    }

    /// Add items to section `sect` (`mjui_addToSection`): sections in `defs` are added after
    /// `sect`, replacing what follows it there.
    pub fn add_to_section(&mut self, sect: usize, defs: &[Def]) -> Result<(), UiError> {
        if sect >= self.sect.len() {
            return Err(UiError::Def(format!(
                "section {sect} does not exist ({} sections)",
                self.sect.len()
            )));
        }
        // MuJoCo pretends `sect` is the last section while adding, then restores the count:
        // sections added on the way replace the ones after `sect`, and none is appended
        let nsect = self.sect.len();
        let tail = self.sect.split_off(sect + 1);
        let result = self.add(defs);
        let added = self.sect.len() - (sect + 1);
        self.sect.extend(tail.into_iter().skip(added));
        self.sect.truncate(nsect);
        result
    }

    fn add_section(&mut self, n: usize, def: &Def) -> Result<(), UiError> {
        if self.sect.len() >= MAXUISECT {
            return Err(bad(n, "too many sections"));
        }
        if def.name.len() >= MAXUINAME - 1 {
            return Err(bad(n, "section name too long"));
        }
        if !(0..=2).contains(&def.state) {
            return Err(bad(n, "invalid section state"));
        }
        let (modifier, shortcut) = parse_shortcut(&def.other).map_err(|e| bad(n, &e))?;
        self.sect.push(Section {
            name: def.name.clone(),
            state: def.state,
            modifier,
            shortcut,
            item: Vec::new(),
            rtitle: Rect::default(),
            rcontent: Rect::default(),
        });
        Ok(())
    }

    fn add_item(&mut self, n: usize, kind: ItemType, def: &Def) -> Result<(), UiError> {
        let sectionid = self
            .sect
            .len()
            .checked_sub(1)
            .ok_or_else(|| bad(n, "item defined outside section"))?;
        let se = &mut self.sect[sectionid];
        if se.item.len() >= MAXUIITEM {
            return Err(bad(n, "too many items in section"));
        }
        let it = make_item(n, kind, def, sectionid, se.item.len())?;
        se.item.push(it);
        Ok(())
    }
}

/// An item from its definition, checked and parsed.
fn make_item(
    n: usize,
    kind: ItemType,
    def: &Def,
    sectionid: usize,
    itemid: usize,
) -> Result<Item, UiError> {
    if def.name.len() >= MAXUINAME {
        return Err(bad(n, "item name too long"));
    }
    if def.state < 0 {
        return Err(bad(n, "invalid item state"));
    }
    match (&def.value, kind.has_data()) {
        (None, true) => return Err(bad(n, "no data for item with data")),
        (Some(_), false) => return Err(bad(n, "data for item without data")),
        (Some(v), true) if !v.fits(kind) => return Err(bad(n, "data of the wrong type")),
        _ => {}
    }
    let mut it = Item {
        kind,
        name: def.name.clone(),
        state: def.state,
        value: def.value.clone(),
        sectionid,
        itemid,
        single: Single::default(),
        multi: Vec::new(),
        slider: Slider::default(),
        edit: Edit::default(),
        rect: Rect::default(),
    };
    let e = |m: String| bad(n, &m);
    match kind {
        _ if kind.is_single() => {
            let (modifier, shortcut) = parse_shortcut(&def.other).map_err(e)?;
            it.single = Single { modifier, shortcut };
        }
        ItemType::Static | ItemType::Radio | ItemType::RadioLine | ItemType::Select => {
            it.multi = parse_multi(&def.other).map_err(e)?;
        }
        ItemType::SliderInt | ItemType::SliderNum => {
            it.slider = parse_slider(kind, &def.other).map_err(e)?;
        }
        ItemType::EditInt | ItemType::EditNum | ItemType::EditFloat => {
            it.edit = parse_edit(&def.other).map_err(e)?;
        }
        _ => {}
    }
    if let Some(Value::Text(t)) = &mut it.value {
        truncate(t, MAXUINAME - 1);
    }
    Ok(it)
}

/// Cut `s` to at most `max` bytes on a character boundary.
pub(crate) fn truncate(s: &mut String, max: usize) {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
}

/// The numbers `sscanf(text, "%lf %lf ...")` reads: up to `max`, stopping at the first
/// text that is not a number.
pub(crate) fn scan_numbers(text: &str, max: usize) -> ([f64; 15], usize) {
    let mut x = [0.0; 15];
    let mut n = 0;
    let mut rest = text;
    while n < max.min(15) {
        let (v, len) = strtod_end(rest);
        if len == 0 {
            break;
        }
        x[n] = v;
        n += 1;
        rest = &rest[len..];
    }
    (x, n)
}

/// Shortcut text: empty, or a modifier (' ', 'C', 'S', 'A') and a key (a character, or '#'
/// and a key code) (`parseshortcut`).
fn parse_shortcut(text: &str) -> Result<(i32, i32), String> {
    let b = text.as_bytes();
    if b.is_empty() {
        return Ok((0, 0));
    }
    if !(2..=5).contains(&b.len()) {
        return Err("invalid shortcut specification".into());
    }
    let modifier = match b[0] {
        b' ' => 0,
        b'C' => 1,
        b'S' => 2,
        b'A' => 4,
        _ => return Err("invalid shortcut modifier".into()),
    };
    let key = if b[1] == b'#' {
        scan_int(&text[2..]).ok_or("invalid shortcut numeric code")?
    } else if b.len() != 2 {
        return Err("invalid shortcut".into());
    } else {
        // C's char is signed
        i32::from(b[1] as i8)
    };
    Ok((modifier, key))
}

/// `sscanf(s, "%d")`: white space, an optional sign, at least one digit (saturating).
fn scan_int(s: &str) -> Option<i32> {
    let t = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (sign, digits) = match t.as_bytes().first() {
        Some(b'-') => (-1, &t[1..]),
        Some(b'+') => (1, &t[1..]),
        _ => (1, t),
    };
    let end = digits.bytes().take_while(u8::is_ascii_digit).count();
    if end == 0 {
        return None;
    }
    let v = digits[..end]
        .bytes()
        .fold(0i64, |v, c| (v * 10 + i64::from(c - b'0')).min(1 << 40));
    Some((sign * v).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
}

/// Element names separated by `\n` (`mjui_add` for static, radio, radioline, select).
fn parse_multi(text: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if names.len() >= MAXUIMULTI {
            return Err("too many multi elements".into());
        }
        let start = i;
        while i < b.len() && b[i] != b'\n' {
            i += 1;
        }
        if i == start || i - start >= MAXUINAME - 1 {
            return Err("invalid multi element name".into());
        }
        names.push(String::from_utf8_lossy(&b[start..i]).into_owned());
        i += 1;
    }
    Ok(names)
}

/// Slider text: "min max [divisions]"; default divisions: the integers of the range, or
/// 200 steps.
fn parse_slider(kind: ItemType, text: &str) -> Result<Slider, String> {
    let (x, num) = scan_numbers(text, 3);
    if num != 2 && num != 3 {
        return Err("slider expects 'min max [div]'".into());
    }
    let divisions = if num == 3 {
        x[2].max(1.0)
    } else if kind == ItemType::SliderInt {
        (x[1] - x[0]).max(1.0)
    } else {
        200.0
    };
    Ok(Slider {
        range: [x[0], x[1]],
        divisions,
    })
}

/// Edit text: "n" or "n min1 max1 ... minn maxn".
fn parse_edit(text: &str) -> Result<Edit, String> {
    let (x, num) = scan_numbers(text, 15);
    if num < 1 {
        return Err("edit length missing".into());
    }
    let nelem = mjrs_core::math::misc::round(x[0]);
    if !(1..=MAXUIEDIT as i32).contains(&nelem) {
        return Err("invalid edit length".into());
    }
    let nelem = nelem as usize;
    if num > 1 && nelem * 2 != num - 1 {
        return Err("incorrect number of edit ranges".into());
    }
    let mut edit = Edit {
        nelem,
        ..Edit::default()
    };
    if num > 1 {
        for i in 0..nelem {
            edit.range[i] = [x[1 + 2 * i], x[2 + 2 * i]];
        }
    }
    Ok(edit)
}

/// Longest edit text (`mjMAXUITEXT - 1`).
pub(crate) const MAXTEXT: usize = MAXUITEXT - 1;
