//! MuJoCo's built-in UI themes (`mjui_themeSpacing`, `mjui_themeColor`): sizes in abstract
//! pixels (scaled by the font scale when laid out) and colours, MuJoCo's tables exactly.

/// Sizes of a UI theme in pixels at 100 % fonts (`mjuiThemeSpacing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThemeSpacing {
    /// Width of the whole UI.
    pub total: i32,
    /// Width of the scrollbar.
    pub scroll: i32,
    /// Width of item labels.
    pub label: i32,
    /// Gap between sections.
    pub section: i32,
    /// Gap at the sides of items.
    pub itemside: i32,
    /// Gap between the two items of a pair.
    pub itemmid: i32,
    /// Gap above items.
    pub itemver: i32,
    /// Gap left and right of text.
    pub texthor: i32,
    /// Gap above and below text.
    pub textver: i32,
    /// Pixels scrolled per scroll-wheel line.
    pub linescroll: i32,
    /// Multisamples of the UI's buffer.
    pub samples: i32,
}

/// Colours of a UI theme, RGB in [0, 1] (`mjuiThemeColor`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThemeColor {
    /// Background of the whole UI.
    pub master: [f32; 3],
    /// Scrollbar thumb.
    pub thumb: [f32; 3],
    /// Section title.
    pub secttitle: [f32; 3],
    /// Section title text.
    pub sectfont: [f32; 3],
    /// Section open/closed symbol.
    pub sectsymbol: [f32; 3],
    /// Section pane.
    pub sectpane: [f32; 3],
    /// Background of shortcut help.
    pub shortcut: [f32; 3],
    /// Text of active items.
    pub fontactive: [f32; 3],
    /// Text of inactive items.
    pub fontinactive: [f32; 3],
    /// Decoration of inactive items.
    pub decorinactive: [f32; 3],
    /// Second decoration colour of inactive items (slider fill).
    pub decorinactive2: [f32; 3],
    /// Button.
    pub button: [f32; 3],
    /// Check box.
    pub check: [f32; 3],
    /// Radio group.
    pub radio: [f32; 3],
    /// Selection box.
    pub select: [f32; 3],
    /// Pane of an open selection box.
    pub select2: [f32; 3],
    /// Slider.
    pub slider: [f32; 3],
    /// Slider fill.
    pub slider2: [f32; 3],
    /// Edit box.
    pub edit: [f32; 3],
    /// Edit box with text that does not parse.
    pub edit2: [f32; 3],
    /// Edit cursor.
    pub cursor: [f32; 3],
}

/// Tight spacing (theme 0) and wide spacing (theme 1), in `ThemeSpacing`'s field order.
const SPACING: [[i32; 11]; 2] = [
    [270, 15, 120, 8, 4, 4, 4, 8, 4, 30, 4],
    [310, 15, 120, 10, 7, 7, 7, 10, 5, 30, 4],
];

/// Built-in spacing theme `ind`: 0 tight, anything else wide (`mjui_themeSpacing`).
pub fn theme_spacing(ind: i32) -> ThemeSpacing {
    let [total, scroll, label, section, itemside, itemmid, itemver, texthor, textver, linescroll, samples] =
        SPACING[usize::from(ind != 0)];
    ThemeSpacing {
        total,
        scroll,
        label,
        section,
        itemside,
        itemmid,
        itemver,
        texthor,
        textver,
        linescroll,
        samples,
    }
}

/// The four colour themes (default, orange, white, black), in `ThemeColor`'s field order.
const COLOR: [[[f32; 3]; 21]; 4] = [
    [
        [0.25, 0.25, 0.25],
        [0.12, 0.12, 0.12],
        [0.6, 0.2, 0.2],
        [1.0, 1.0, 1.0],
        [0.7, 0.7, 0.7],
        [0.1, 0.1, 0.1],
        [0.0, 0.0, 1.0],
        [1.0, 1.0, 1.0],
        [0.5, 0.5, 0.5],
        [0.3, 0.3, 0.3],
        [0.4, 0.4, 0.4],
        [0.6, 0.4, 0.4],
        [0.4, 0.4, 0.7],
        [0.4, 0.6, 0.4],
        [0.4, 0.6, 0.6],
        [0.2, 0.3, 0.3],
        [0.3, 0.2, 0.3],
        [0.6, 0.4, 0.6],
        [0.6, 0.6, 0.4],
        [0.7, 0.0, 0.0],
        [0.9, 0.9, 0.9],
    ],
    [
        [0.2, 0.2, 0.2],
        [0.12, 0.12, 0.12],
        [0.3, 0.3, 0.3],
        [0.8, 0.8, 0.8],
        [0.7, 0.7, 0.7],
        [0.15, 0.15, 0.15],
        [0.0, 0.0, 1.0],
        [0.9, 0.9, 0.9],
        [0.5, 0.5, 0.5],
        [0.2, 0.2, 0.2],
        [0.25, 0.25, 0.25],
        [0.6, 0.4, 0.2],
        [0.6, 0.4, 0.2],
        [0.6, 0.4, 0.2],
        [0.6, 0.4, 0.2],
        [0.3, 0.2, 0.1],
        [0.2, 0.2, 0.2],
        [0.6, 0.4, 0.2],
        [0.6, 0.4, 0.2],
        [0.7, 0.0, 0.0],
        [0.9, 0.9, 0.9],
    ],
    [
        [0.9, 0.9, 0.9],
        [0.7, 0.7, 0.7],
        [0.8, 0.8, 0.8],
        [0.0, 0.0, 0.8],
        [0.0, 0.0, 0.8],
        [1.0, 1.0, 1.0],
        [0.0, 1.0, 1.0],
        [0.0, 0.0, 0.0],
        [0.7, 0.7, 0.7],
        [0.95, 0.95, 0.95],
        [0.9, 0.9, 0.9],
        [0.8, 0.8, 0.8],
        [0.8, 0.8, 0.8],
        [0.8, 0.8, 0.8],
        [0.8, 0.8, 0.8],
        [0.9, 0.9, 0.9],
        [0.95, 0.95, 0.95],
        [0.8, 0.8, 0.8],
        [0.8, 0.8, 0.8],
        [1.0, 0.3, 0.3],
        [0.2, 0.2, 0.2],
    ],
    [
        [0.15, 0.15, 0.15],
        [0.3, 0.3, 0.3],
        [0.25, 0.25, 0.25],
        [1.0, 0.3, 0.3],
        [1.0, 0.3, 0.3],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 1.0, 1.0],
        [0.4, 0.4, 0.4],
        [0.1, 0.1, 0.1],
        [0.15, 0.15, 0.15],
        [0.3, 0.3, 0.3],
        [0.3, 0.3, 0.3],
        [0.3, 0.3, 0.3],
        [0.3, 0.3, 0.3],
        [0.15, 0.15, 0.15],
        [0.15, 0.15, 0.15],
        [0.3, 0.3, 0.3],
        [0.3, 0.3, 0.3],
        [0.8, 0.2, 0.2],
        [0.8, 0.8, 0.8],
    ],
];

/// Built-in colour theme `ind`: 0 default, 1 orange, 2 white, anything else black
/// (`mjui_themeColor`).
pub fn theme_color(ind: i32) -> ThemeColor {
    let c = &COLOR[match ind {
        0 => 0,
        1 => 1,
        2 => 2,
        _ => 3,
    }];
    ThemeColor {
        master: c[0],
        thumb: c[1],
        secttitle: c[2],
        sectfont: c[3],
        sectsymbol: c[4],
        sectpane: c[5],
        shortcut: c[6],
        fontactive: c[7],
        fontinactive: c[8],
        decorinactive: c[9],
        decorinactive2: c[10],
        button: c[11],
        check: c[12],
        radio: c[13],
        select: c[14],
        select2: c[15],
        slider: c[16],
        slider2: c[17],
        edit: c[18],
        edit2: c[19],
        cursor: c[20],
    }
}

impl ThemeColor {
    /// The colours in `mjuiThemeColor`'s memory order (21 RGB triples).
    pub fn as_array(&self) -> [[f32; 3]; 21] {
        [
            self.master,
            self.thumb,
            self.secttitle,
            self.sectfont,
            self.sectsymbol,
            self.sectpane,
            self.shortcut,
            self.fontactive,
            self.fontinactive,
            self.decorinactive,
            self.decorinactive2,
            self.button,
            self.check,
            self.radio,
            self.select,
            self.select2,
            self.slider,
            self.slider2,
            self.edit,
            self.edit2,
            self.cursor,
        ]
    }
}
