//! The XML document as the reader walks it: an owned element tree read by [`tinyxml`], with
//! `include` elements replaced by the content of the files they name.
//!
//! MuJoCo keeps `include` elements in its tree and makes every sibling/child lookup descend into
//! them (`FirstChildElement`/`NextSiblingElement` in `xml_util.cc`); splicing the included
//! elements in place gives the reader the same view. Each element remembers its file and line
//! for messages, and the directory of the include it came from, which MuJoCo consults when an
//! asset path does not resolve against the model's own directory (`ResolveFilePath`).

use std::collections::HashSet;
use std::rc::Rc;

pub use super::elem::Elem;
use super::tinyxml;
use crate::error::XmlError;
use crate::util::isabspath;
use mjrs_std::ResourceError;

/// Where the reader and the compiler get file contents from: the VFS first, then the resource
/// provider matching the name, then the disk (MuJoCo's `mju_openVfsResource` then
/// `mju_openResource`).
pub trait Resources {
    /// The bytes of `path` and its directory, or why they cannot be read.
    fn read(&self, path: &str) -> Result<ResourceFile, ResourceError>;
    /// Can `path` be opened without the VFS, from a provider or the disk (MuJoCo opens the
    /// resource with `mju_openResource` to decide where an asset is)?
    fn exists(&self, path: &str) -> bool;
}

/// A resource read whole: its bytes and the directory the names in it are relative to
/// (`mju_getResourceDir`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceFile {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The directory, with its trailing separator (or "").
    pub dir: String,
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
    text: &[u8],
    file: &str,
    modeldir: &str,
    res: &dyn Resources,
) -> Result<Document, XmlError> {
    let file: Rc<str> = Rc::from(file);
    let parsed = parse_xml(text, &file, &Rc::from(""))?;
    let Some(mut root) = parsed.root else {
        return Err(XmlError::Syntax {
            file: file.to_string(),
            message: "XML root element not found".into(),
        });
    };
    if root.name.eq_ignore_ascii_case("mujoco") {
        let mut included = HashSet::from([file.to_string()]);
        expand_includes(&mut root, 1, modeldir, modeldir, res, &mut included)?;
    }
    Ok(Document {
        root,
        comment: parsed.comment,
    })
}

/// The elements of one file (MuJoCo reads each file, the main one and every include, as its
/// own TinyXML2 document).
fn parse_xml(text: &[u8], file: &Rc<str>, dir: &Rc<str>) -> Result<tinyxml::Parsed, XmlError> {
    tinyxml::parse(text, file, dir).map_err(|e| XmlError::Syntax {
        file: file.to_string(),
        message: e.message(),
    })
}

/// How deep includes may nest elements in mjrs. Each file is held to TinyXML2's limit of 499
/// levels, but MuJoCo checks no limit on the tree that includes build; the reader and the
/// compiler recurse with the nesting, so mjrs refuses deeper trees rather than exhaust its stack
/// (1000 levels stay within a 2 MB thread stack).
const MAX_INCLUDED_DEPTH: usize = 1000;

/// Replaces every `include` below `elem`, which is `level` elements deep (the root is 1), by
/// the elements of the file it names (`mjIncludeXML`).
fn expand_includes(
    elem: &mut Elem,
    level: usize,
    modeldir: &str,
    dir: &str,
    res: &dyn Resources,
    included: &mut HashSet<String>,
) -> Result<(), XmlError> {
    if level >= MAX_INCLUDED_DEPTH {
        let what = format!("elements nested {MAX_INCLUDED_DEPTH} levels deep through includes");
        return Err(elem.unsupported(what));
    }
    let children = std::mem::take(&mut elem.children);
    elem.children = expand_list(children, level + 1, modeldir, dir, res, included)?;
    Ok(())
}

/// A list of sibling elements with each `include` replaced by the (expanded) elements of its
/// file, and the other elements' descendants expanded; the list is `level` elements deep.
fn expand_list(
    list: Vec<Elem>,
    level: usize,
    modeldir: &str,
    dir: &str,
    res: &dyn Resources,
    included: &mut HashSet<String>,
) -> Result<Vec<Elem>, XmlError> {
    let mut out = Vec::with_capacity(list.len());
    for mut e in list {
        if e.name.eq_ignore_ascii_case("include") {
            let (elems, next_dir) = read_include(&e, modeldir, dir, res, included)?;
            out.extend(expand_list(
                elems, level, modeldir, &next_dir, res, included,
            )?);
        } else {
            expand_includes(&mut e, level, modeldir, dir, res, included)?;
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
    let second = if isabspath(filename) {
        filename.to_string()
    } else {
        format!("{dir}{filename}")
    };
    // a file that opens but cannot be read is not looked for elsewhere
    let read = match res.read(&first) {
        Err(e) if !matches!(e, ResourceError::Read(_)) => res.read(&second).map(|f| (f, second)),
        r => r.map(|f| (f, first)),
    };
    let filename = if isabspath(filename) {
        filename.to_string()
    } else {
        format!("{dir}{filename}")
    };
    let (file, fullname) = match read {
        Ok(r) => r,
        Err(ResourceError::Read(_)) => {
            return Err(inc.error(format!("Error reading file '{filename}'")))
        }
        Err(e) => return Err(inc.error(e.to_string())),
    };
    // MuJoCo prefixes the including directory once more when the name is relative
    let mut next_dir = file.dir;
    if !isabspath(&filename) {
        next_dir = format!("{dir}{next_dir}");
    }
    let bytes = file.bytes;
    if bytes.is_empty() {
        return Err(inc.error(format!("Empty file '{filename}'")));
    }
    let file: Rc<str> = Rc::from(fullname.as_str());
    let incdir: Rc<str> = Rc::from(next_dir.as_str());
    let parsed = tinyxml::parse(&bytes, &file, &incdir)
        .map_err(|e| inc.error(format!("Include error: '{}'", e.message())))?;
    included.insert(filename.clone());
    let Some(root) = parsed.root else {
        return Err(inc.error(format!("Root element missing in file '{filename}'")));
    };
    if root.children.is_empty() {
        return Err(inc.error(format!("Empty include file '{filename}'")));
    }
    Ok((root.children, next_dir))
}

/// The directory part of a file name, with its trailing separator (`mju_getResourceDir` of a
/// disk or VFS file; a provider's resources have the provider's `getdir`).
pub fn resource_dir(name: &str) -> &str {
    mjrs_std::resource::dir_of(name)
}
