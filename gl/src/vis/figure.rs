//! The abstract 2D figure (`mjvFigure`, `mjv_defaultFigure`): line plots such as the viewer's
//! profiler and sensor plots, drawn by [`crate::render::figure`].

use super::MAXLINE;
use mjrs_core::math::misc::halton;

/// Most points per line (`mjMAXLINEPNT`).
pub const MAXLINEPNT: usize = 1000;

/// A line plot (`mjvFigure`). Lines are `linedata[n]` (x, y) points; an empty line is not
/// drawn. Text fields are plain strings; the title may hold several subplot titles separated
/// by two or more spaces, of which `subplot` is shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Show the legend (named lines, top right).
    pub flg_legend: bool,
    /// Show tick labels on x and y.
    pub flg_ticklabel: [bool; 2],
    /// Extend the given ranges to fit the data.
    pub flg_extend: bool,
    /// Draw point pairs as separate segments (bars) instead of a polyline.
    pub flg_barplot: bool,
    /// Draw a vertical selection line at `selection`.
    pub flg_selection: bool,
    /// Make the y range symmetric about 0.
    pub flg_symmetric: bool,
    /// Line width in pixels.
    pub linewidth: f32,
    /// Grid line width.
    pub gridwidth: f32,
    /// Grid lines along x and y (at most 20 each are drawn).
    pub gridsize: [i32; 2],
    /// Grid colour.
    pub gridrgb: [f32; 3],
    /// Figure background.
    pub figurergba: [f32; 4],
    /// Plot area background.
    pub panergba: [f32; 4],
    /// Legend background.
    pub legendrgba: [f32; 4],
    /// Text colour.
    pub textrgb: [f32; 3],
    /// Line colours.
    pub linergb: [[f32; 3]; MAXLINE],
    /// Axis ranges [[xmin, xmax], [ymin, ymax]]; min >= max means automatic.
    pub range: [[f32; 2]; 2],
    /// printf-style format of x tick labels (one `%f`, `%e` or `%g` conversion).
    pub xformat: String,
    /// Format of y tick labels.
    pub yformat: String,
    /// Text whose width is the least width of the y tick labels.
    pub minwidth: String,
    /// Title (subplot titles separated by two or more spaces).
    pub title: String,
    /// x axis label.
    pub xlabel: String,
    /// Line names for the legend.
    pub linename: Vec<String>,
    /// Lines skipped at the start of the legend.
    pub legendoffset: usize,
    /// Subplot whose title is shown.
    pub subplot: usize,
    /// A pixel; the legend entry under it is highlighted.
    pub highlight: [i32; 2],
    /// Line highlighted when no legend entry is (-1: none).
    pub highlightid: i32,
    /// x of the selection line.
    pub selection: f32,
    /// Line points (x, y), at most [`MAXLINEPNT`] per line are drawn.
    pub linedata: Vec<Vec<[f32; 2]>>,
    /// Output: plot area x range in pixels.
    pub xaxispixel: [i32; 2],
    /// Output: plot area y range in pixels.
    pub yaxispixel: [i32; 2],
    /// Output: x range in data units.
    pub xaxisdata: [f32; 2],
    /// Output: y range in data units.
    pub yaxisdata: [f32; 2],
}

const LINERGB: [[f32; 3]; 8] = [
    [1.0, 0.3, 0.3],
    [0.1, 1.0, 0.1],
    [0.3, 0.3, 1.0],
    [0.1, 1.0, 1.0],
    [1.0, 0.2, 1.0],
    [1.0, 1.0, 0.1],
    [1.0, 0.6, 0.2],
    [0.6, 0.7, 0.4],
];

impl Default for Figure {
    /// MuJoCo's defaults (`mjv_defaultFigure`): legend and tick labels on, ranges extended,
    /// 2x2 grid, eight predefined line colours then Halton-sequence colours.
    fn default() -> Self {
        let linergb = core::array::from_fn(|n| {
            LINERGB.get(n).copied().unwrap_or_else(|| {
                let h = |b: usize| 0.1 + 0.8 * halton(n, b) as f32;
                [h(2), h(3), h(5)]
            })
        });
        Figure {
            flg_legend: true,
            flg_ticklabel: [true, true],
            flg_extend: true,
            flg_barplot: false,
            flg_selection: false,
            flg_symmetric: false,
            linewidth: 3.0,
            gridwidth: 1.0,
            gridsize: [2, 2],
            gridrgb: [0.4; 3],
            figurergba: [0.0, 0.0, 0.0, 1.0],
            panergba: [0.0, 0.0, 0.0, 1.0],
            legendrgba: [0.0, 0.0, 0.0, 0.3],
            textrgb: [1.0; 3],
            linergb,
            range: [[0.0, 1.0], [0.0, 1.0]],
            xformat: "%.0f".into(),
            yformat: "%.2g".into(),
            minwidth: "XXX".into(),
            title: String::new(),
            xlabel: String::new(),
            linename: vec![String::new(); MAXLINE],
            legendoffset: 0,
            subplot: 0,
            highlight: [0, 0],
            highlightid: -1,
            selection: 0.0,
            linedata: vec![Vec::new(); MAXLINE],
            xaxispixel: [0; 2],
            yaxispixel: [0; 2],
            xaxisdata: [0.0; 2],
            yaxisdata: [0.0; 2],
        }
    }
}
