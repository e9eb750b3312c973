//! Errors of the MJCF reader and the model compiler, worded as MuJoCo words them.
//!
//! MuJoCo reports a parse error as `XML Error: <what>` followed by `Element '<name>', line <n>`,
//! and a compile error as `Error: <what>` followed by `Element name '<name>', id <i>, line <n>`.
//! mjrs keeps those texts (so messages can be compared with the reference) and adds the file
//! the element came from.

use std::fmt;

use crate::spec::Info;

/// Everything that can go wrong turning MJCF into a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XmlError {
    /// The text is not well-formed XML.
    Syntax {
        /// The file.
        file: String,
        /// MuJoCo's message: `XML parse error <id>:` and TinyXML2's description with its line.
        message: String,
    },
    /// A file could not be read (the model, an include, an asset).
    File {
        /// The path as MuJoCo would have resolved it.
        path: String,
        /// Why.
        message: String,
    },
    /// The document violates the MJCF schema or an attribute is malformed (`mjXError`).
    Parse {
        /// What is wrong.
        message: String,
        /// The element's name.
        element: String,
        /// The line in its file.
        line: u32,
        /// The file the element is in.
        file: String,
    },
    /// The compiler rejected the model (`mjCError`).
    Compile {
        /// What is wrong.
        message: String,
        /// The offending object's name, when there is one.
        object: Option<CompileObject>,
    },
    /// A feature of MJCF that mjrs does not support (plugins, flex, composites...).
    Unsupported {
        /// What is not supported.
        what: String,
        /// Where it is.
        element: String,
        /// The line in its file.
        line: u32,
        /// The file.
        file: String,
    },
}

/// The object a compile error is about (MuJoCo's `Element name '...', id N, line N`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileObject {
    /// Its name ("" when unnamed).
    pub name: String,
    /// Its id in its list.
    pub id: i32,
    /// Where it was declared.
    pub info: Info,
}

impl XmlError {
    /// A compile error about an object.
    pub fn compile(message: impl Into<String>, name: &str, id: usize, info: &Info) -> Self {
        XmlError::Compile {
            message: message.into(),
            object: Some(CompileObject {
                name: name.to_string(),
                id: i32::try_from(id).unwrap_or(i32::MAX),
                info: info.clone(),
            }),
        }
    }

    /// A compile error about the model as a whole.
    pub fn model(message: impl Into<String>) -> Self {
        XmlError::Compile {
            message: message.into(),
            object: None,
        }
    }
}

impl fmt::Display for XmlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // MuJoCo's text (which ends in a newline), then the file
            XmlError::Syntax { file, message } => {
                write!(f, "{}\nFile '{file}'", message.trim_end_matches('\n'))
            }
            XmlError::File { path, message } => write!(f, "{message} (file '{path}')"),
            XmlError::Parse {
                message,
                element,
                line,
                file,
            } => write!(
                f,
                "XML Error: {message}\nElement '{element}', line {line}, file '{file}'"
            ),
            XmlError::Compile { message, object } => {
                write!(f, "Error: {message}")?;
                if let Some(o) = object {
                    write!(f, "\nElement name '{}', id {}", o.name, o.id)?;
                    if o.info.line > 0 {
                        write!(f, ", line {}", o.info.line)?;
                    }
                    if let Some(file) = &o.info.file {
                        write!(f, ", file '{file}'")?;
                    }
                }
                Ok(())
            }
            XmlError::Unsupported {
                what,
                element,
                line,
                file,
            } => write!(
                f,
                "not supported by mjrs: {what}\nElement '{element}', line {line}, file '{file}'"
            ),
        }
    }
}

impl std::error::Error for XmlError {}
