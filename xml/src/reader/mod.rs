//! The MJCF reader: XML text to [`Spec`] (MuJoCo's `mjXReader`, `xml_native_reader.cc`).
//!
//! The document is checked against the MJCF schema first, then read section by section in
//! MuJoCo's order (compiler, option, size, visual, statistic, default, extension, custom, asset,
//! contact, deformable, equality, tendon, actuator, sensor, keyframe, worldbody), each element
//! starting from its default class and overriding what its attributes say.

mod actuator;
pub mod attr;
mod body;
mod composite;
pub mod dom;
pub mod elem;
mod flex;
pub(crate) use flex::FLEXSELF;
mod flexcomp;
mod flexfile;
mod namespace;
mod plugin;
mod replicate;
mod schema;
pub use schema::print_schema;
mod sections;
mod sensor;
pub mod tinyxml;
pub mod urdf;

use dom::{Document, Elem, Resources};
use std::collections::HashMap;

use crate::error::XmlError;
use crate::spec::{Info, Spec};

pub use attr::Warnings;

/// The reader's state while it walks one document.
pub(crate) struct Reader<'a> {
    /// The spec being filled.
    pub spec: Spec,
    /// Warnings raised while reading.
    pub w: Warnings,
    /// Files (for `ResolveFilePath`'s existence checks).
    pub res: &'a dyn Resources,
    /// Directories captured from `compiler` elements before reading (with trailing `/`).
    pub assetdir: String,
    /// See `assetdir`.
    pub meshdir: String,
    /// See `assetdir`.
    pub texturedir: String,
    /// Reading the `default` section (pairs and equalities then skip their names).
    pub readingdefaults: bool,
    /// A `replicate` left temporary bodies to prune.
    pub replicated: bool,
    /// Objects copied by replicates so far.
    pub copies: usize,
    /// The first default class of each name, kept with `spec.defaults`: looking names up by a
    /// scan made reading n classes, or n elements naming one of n classes, quadratic.
    pub default_index: HashMap<String, usize>,
    /// An element named a plugin instance (`hasImplicitPluginElem`, set as MuJoCo 3.1.6 sets
    /// it): instances declared after that are refused.
    pub named_instance_used: bool,
}

/// Reads an MJCF document into a spec. `file` names it in messages; `modeldir` is its
/// directory with a trailing separator ("" for the working directory).
pub fn read_mjcf(
    text: &[u8],
    file: &str,
    modeldir: &str,
    res: &dyn Resources,
) -> Result<(Spec, Vec<String>), XmlError> {
    let doc = dom::parse_document(text, file, modeldir, res)?;
    read_document(&doc, modeldir, res)
}

/// Reads a parsed document whose root is `mujoco` (MJCF) or `robot` (URDF, see [`urdf`]).
pub fn read_document(
    doc: &Document,
    modeldir: &str,
    res: &dyn Resources,
) -> Result<(Spec, Vec<String>), XmlError> {
    let root = &doc.root;
    if root.name.eq_ignore_ascii_case("robot") {
        return urdf::read_urdf(doc, modeldir, res);
    }
    if !root.name.eq_ignore_ascii_case("mujoco") {
        return Err(root.error(format!("Unrecognized XML model type: '{}'", root.name)));
    }
    // the plugins a model names must be registered before its `extension` section is read
    mjrs_alloc::register_first_party();
    let mut r = Reader::new(Spec::default(), res);
    r.spec.modelfiledir = modeldir.to_string();
    r.capture_dirs(root);
    schema::validate(root)?;
    r.parse(root, doc.comment.as_deref())?;
    Ok((r.spec, r.w.list))
}

/// MuJoCo's `info` for an element.
pub(crate) fn info(elem: &Elem) -> Info {
    Info {
        line: elem.line,
        file: Some(elem.file.to_string()),
    }
}

fn with_slash(mut s: String) -> String {
    if !s.is_empty() && !s.ends_with(['/', '\\']) {
        s.push('/');
    }
    s
}

impl<'a> Reader<'a> {
    /// The asset directories as MuJoCo captures them while it expands includes: every
    /// `compiler` element in document order overrides the previous ones.
    fn capture_dirs(&mut self, elem: &Elem) {
        if elem.name.eq_ignore_ascii_case("compiler") {
            if let Some(d) = elem.attr("assetdir") {
                self.assetdir = with_slash(d.to_string());
            }
            if let Some(d) = elem.attr("texturedir") {
                self.texturedir = with_slash(d.to_string());
            }
            if let Some(d) = elem.attr("meshdir") {
                self.meshdir = with_slash(d.to_string());
            }
        }
        for c in &elem.children {
            self.capture_dirs(c);
        }
    }

    fn asset_dir(&self) -> String {
        format!("{}{}", self.spec.modelfiledir, self.assetdir)
    }

    fn mesh_dir(&self) -> String {
        if self.meshdir.is_empty() {
            self.asset_dir()
        } else {
            format!("{}{}", self.spec.modelfiledir, self.meshdir)
        }
    }

    fn texture_dir(&self) -> String {
        if self.texturedir.is_empty() {
            self.asset_dir()
        } else {
            format!("{}{}", self.spec.modelfiledir, self.texturedir)
        }
    }

    /// A file attribute resolved as MuJoCo does (`ReadAttrFile`/`ResolveFilePath`): kept as
    /// written when it exists relative to `dir`, else prefixed with the directory of the
    /// include the element came from.
    fn file_attr(&self, elem: &Elem, name: &str, dir: &str) -> Option<String> {
        let f = elem.attr(name)?;
        if crate::util::isabspath(f) || self.res.exists(&format!("{dir}{f}")) {
            return Some(f.to_string());
        }
        Some(format!("{}{f}", elem.include_dir))
    }

    /// The default class named by the element's `class` attribute (`GetClass`).
    fn class(&self, elem: &Elem) -> Result<Option<usize>, XmlError> {
        let Some(name) = elem.attr("class") else {
            return Ok(None);
        };
        self.find_default(name)
            .map(Some)
            .ok_or_else(|| elem.error(format!("unknown default class name '{name}'")))
    }

    /// A reader that fills `spec`.
    fn new(spec: Spec, res: &'a dyn Resources) -> Self {
        let mut r = Reader {
            spec,
            w: Warnings::default(),
            res,
            assetdir: String::new(),
            meshdir: String::new(),
            texturedir: String::new(),
            readingdefaults: false,
            replicated: false,
            copies: 0,
            default_index: HashMap::new(),
            named_instance_used: false,
        };
        r.index_defaults();
        r
    }

    fn find_default(&self, name: &str) -> Option<usize> {
        self.default_index.get(name).copied()
    }

    /// Indexes the spec's classes (the `main` class it starts with) for [`Self::find_default`].
    fn index_defaults(&mut self) {
        for (i, d) in self.spec.defaults.iter().enumerate() {
            self.default_index.entry(d.name.clone()).or_insert(i);
        }
    }

    /// `mjXReader::Parse`: the sections in MuJoCo's order.
    fn parse(&mut self, root: &Elem, comment: Option<&str>) -> Result<(), XmlError> {
        if let Some(m) = root.attr("model") {
            self.spec.modelname = m.to_string();
        }
        self.spec.comment = comment.unwrap_or_default().to_string();
        for s in root.children_named("compiler") {
            self.compiler(s)?;
        }
        for s in root.children_named("option") {
            self.option(s)?;
        }
        for s in root.children_named("size") {
            self.size(s)?;
        }
        for s in root.children_named("visual") {
            self.visual(s)?;
        }
        for s in root.children_named("statistic") {
            self.statistic(s)?;
        }
        self.readingdefaults = true;
        for s in root.children_named("default") {
            self.default(s, None)?;
        }
        self.readingdefaults = false;
        for s in root.children_named("extension") {
            self.extension(s)?;
        }
        for s in root.children_named("custom") {
            self.custom(s)?;
        }
        for s in root.children_named("asset") {
            self.asset(s)?;
        }
        for s in root.children_named("contact") {
            self.contact(s)?;
        }
        for s in root.children_named("deformable") {
            self.deformable(s)?;
        }
        for s in root.children_named("equality") {
            self.equality(s)?;
        }
        for s in root.children_named("tendon") {
            self.tendon(s)?;
        }
        for s in root.children_named("actuator") {
            self.actuator(s)?;
        }
        for s in root.children_named("sensor") {
            self.sensor(s)?;
        }
        for s in root.children_named("keyframe") {
            self.keyframe(s)?;
        }
        for s in root.children_named("worldbody") {
            self.body(s, 0, None)?;
        }
        if self.replicated {
            self.spec.prune_detached();
        }
        Ok(())
    }
}
