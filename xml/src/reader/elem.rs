//! One element of the XML tree: its name, attributes, children and where it was read (file,
//! line, the include it came from), shared by the XML reader that builds the tree and the MJCF
//! reader that walks it.

use std::rc::Rc;

use crate::error::XmlError;

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
