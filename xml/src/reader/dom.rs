//! The XML document as the reader walks it: an owned element tree built from `roxmltree`, with
//! `include` elements replaced by the content of the files they name.
//!
//! MuJoCo keeps `include` elements in its tree and makes every sibling/child lookup descend into
//! them (`FirstChildElement`/`NextSiblingElement` in `xml_util.cc`); splicing the included
//! elements in place gives the reader the same view. Each element remembers its file and line
//! for messages, and the directory of the include it came from, which MuJoCo consults when an
//! asset path does not resolve against the model's own directory (`ResolveFilePath`).

use std::collections::HashSet;
use std::rc::Rc;

use crate::error::XmlError;
use crate::util::isabspath;

/// One XML element.
#[derive(Clone, Debug)]
pub struct Elem {
    /// Tag name.
    pub name: String,
    /// Attributes in document order.
    pub attrs: Vec<(String, String)>,
    /// Child elements (comments and text are dropped).
    pub children: Vec<Elem>,
    /// Line in its file (1-based).
    pub line: u32,
    /// The file it was read from.
    pub file: Rc<str>,
    /// The directory of the `include` this element came from ("" in the main file).
    pub include_dir: Rc<str>,
}

impl Elem {
    /// The value of attribute `name`, if present.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Child elements named `name`, in order.
    pub fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Elem> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// A parse error about this element (`mjXError`).
    pub fn error(&self, message: impl Into<String>) -> XmlError {
        XmlError::Parse {
            message: message.into(),
            element: self.name.clone(),
            line: self.line,
            file: self.file.to_string(),
        }
    }

    /// A refusal of an MJCF feature mjrs does not support, located at this element.
    pub fn unsupported(&self, what: impl Into<String>) -> XmlError {
        XmlError::Unsupported {
            what: what.into(),
            element: self.name.clone(),
            line: self.line,
            file: self.file.to_string(),
        }
    }
}

/// Where the reader gets file contents from: the VFS first, then the disk (MuJoCo's
/// `mju_openVfsResource` then `mju_openResource`).
pub trait Resources {
    /// The bytes of `path`, or why they cannot be read.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;
    /// Does `path` exist on disk (MuJoCo opens the resource without a VFS to decide where an
    /// asset is)?
    fn exists_on_disk(&self, path: &str) -> bool;
}

/// The main document: its root element (includes spliced in) and the comment that opens it.
pub struct Document {
    /// The root element.
    pub root: Elem,
    /// The text of a comment that is the root's first child, kept by MuJoCo as the model comment.
    pub comment: Option<String>,
}

/// Parses `text` (the file `file`) into a [`Document`], expanding includes relative to
/// `modeldir` (the main file's directory with its trailing separator).
pub fn parse_document(
    text: &str,
    file: &str,
    modeldir: &str,
    res: &dyn Resources,
) -> Result<Document, XmlError> {
    let doc = parse_xml(text, file)?;
    let root_node = doc.root_element();
    // tinyxml2 makes no nodes of whitespace between elements: the first other node counts
    let comment = root_node
        .children()
        .find(|n| !(n.is_text() && n.text().is_some_and(|t| t.trim().is_empty())))
        .filter(|n| n.is_comment())
        .and_then(|n| n.text())
        .map(str::to_string);
    let file: Rc<str> = Rc::from(file);
    let lines = LineIndex::new(text);
    let mut root = convert(&lines, root_node, &file, &Rc::from(""));
    if root.name.eq_ignore_ascii_case("mujoco") {
        let mut included = HashSet::from([file.to_string()]);
        expand_includes(&mut root, modeldir, modeldir, res, &mut included)?;
    }
    Ok(Document { root, comment })
}

fn parse_xml<'a>(text: &'a str, file: &str) -> Result<roxmltree::Document<'a>, XmlError> {
    let opt = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(text, opt).map_err(|e| XmlError::Syntax {
        file: file.to_string(),
        message: e.to_string(),
    })
}

/// The line of each byte offset of a text, by binary search over its newlines:
/// `roxmltree::Document::text_pos_at` counts the newlines from the start of the text on every
/// call, which made reading a file of n elements take time quadratic in n.
struct LineIndex {
    /// Byte offsets of the text's `\n`s, ascending.
    newlines: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let newlines = text.bytes().enumerate().filter(|&(_, b)| b == b'\n');
        LineIndex {
            newlines: newlines.map(|(i, _)| i).collect(),
        }
    }

    /// The 1-based line of byte offset `pos`: one plus the newlines before it.
    fn line(&self, pos: usize) -> u32 {
        let before = self.newlines.partition_point(|&nl| nl < pos);
        u32::try_from(before + 1).unwrap_or(u32::MAX)
    }
}

fn convert(lines: &LineIndex, node: roxmltree::Node, file: &Rc<str>, dir: &Rc<str>) -> Elem {
    let line = lines.line(node.range().start);
    Elem {
        name: node.tag_name().name().to_string(),
        attrs: node
            .attributes()
            .map(|a| (a.name().to_string(), a.value().to_string()))
            .collect(),
        children: node
            .children()
            .filter(|c| c.is_element())
            .map(|c| convert(lines, c, file, dir))
            .collect(),
        line,
        file: file.clone(),
        include_dir: dir.clone(),
    }
}

/// Replaces every `include` below `elem` by the elements of the file it names (`mjIncludeXML`).
fn expand_includes(
    elem: &mut Elem,
    modeldir: &str,
    dir: &str,
    res: &dyn Resources,
    included: &mut HashSet<String>,
) -> Result<(), XmlError> {
    let children = std::mem::take(&mut elem.children);
    elem.children = expand_list(children, modeldir, dir, res, included)?;
    Ok(())
}

/// A list of sibling elements with each `include` replaced by the (expanded) elements of its
/// file, and the other elements' descendants expanded.
fn expand_list(
    list: Vec<Elem>,
    modeldir: &str,
    dir: &str,
    res: &dyn Resources,
    included: &mut HashSet<String>,
) -> Result<Vec<Elem>, XmlError> {
    let mut out = Vec::with_capacity(list.len());
    for mut e in list {
        if e.name.eq_ignore_ascii_case("include") {
            let (elems, next_dir) = read_include(&e, modeldir, dir, res, included)?;
            out.extend(expand_list(elems, modeldir, &next_dir, res, included)?);
        } else {
            expand_includes(&mut e, modeldir, dir, res, included)?;
            out.push(e);
        }
    }
    Ok(out)
}

/// Reads the file an `include` element names and returns the children of its root element.
fn read_include(
    inc: &Elem,
    modeldir: &str,
    dir: &str,
    res: &dyn Resources,
    included: &mut HashSet<String>,
) -> Result<(Vec<Elem>, String), XmlError> {
    if !inc.children.is_empty() {
        return Err(inc.error("Include element cannot have children"));
    }
    let Some(filename) = inc.attr("file") else {
        return Err(inc.error("required attribute missing: 'file'"));
    };
    if included.contains(filename) {
        return Err(inc.error(format!("File '{filename}' already included")));
    }
    // the model's directory first, then the including file's
    let first = if isabspath(filename) {
        filename.to_string()
    } else {
        format!("{modeldir}{filename}")
    };
    let (bytes, fullname) = match res.read(&first) {
        Ok(b) => (b, first),
        Err(_) => {
            let second = if isabspath(filename) {
                filename.to_string()
            } else {
                format!("{dir}{filename}")
            };
            match res.read(&second) {
                Ok(b) => (b, second),
                Err(msg) => return Err(inc.error(msg)),
            }
        }
    };
    let filename = if isabspath(filename) {
        filename.to_string()
    } else {
        format!("{dir}{filename}")
    };
    // MuJoCo prefixes the including directory once more when the name is relative
    let mut next_dir = resource_dir(&fullname).to_string();
    if !isabspath(&filename) {
        next_dir = format!("{dir}{next_dir}");
    }
    if bytes.is_empty() {
        return Err(inc.error(format!("Empty file '{filename}'")));
    }
    let text = String::from_utf8_lossy(&bytes);
    let doc =
        parse_xml(&text, &fullname).map_err(|e| inc.error(format!("Include error: '{e}'")))?;
    included.insert(filename.clone());
    let file: Rc<str> = Rc::from(fullname.as_str());
    let incdir: Rc<str> = Rc::from(next_dir.as_str());
    let root = convert(&LineIndex::new(&text), doc.root_element(), &file, &incdir);
    if root.children.is_empty() {
        return Err(inc.error(format!("Empty include file '{filename}'")));
    }
    Ok((root.children, next_dir))
}

/// The directory part of a resource name, with its trailing separator (`mju_getResourceDir`).
pub fn resource_dir(name: &str) -> &str {
    match name.rfind(['/', '\\']) {
        Some(i) => &name[..=i],
        None => "",
    }
}
