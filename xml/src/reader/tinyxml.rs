//! The XML grammar MuJoCo 3.1.6 reads, which is TinyXML2's (the version MuJoCo vendors), not
//! the XML specification's: files MuJoCo loads must load here, files it refuses must be refused
//! with its message, and nothing may recurse with the input's nesting.
//!
//! What TinyXML2 allows that strict XML does not: attributes with no whitespace between them,
//! `--` inside comments, any bytes (no encoding check), text and further elements after the
//! root (the first element is the document), a stray end tag at document level (parsing stops
//! there), attributes on end tags. What it refuses or leaves alone: a declaration (`<?...?>`)
//! anywhere but before every other node, element nesting of 500 levels (counting the document),
//! and DTDs, which it keeps as opaque nodes, so internal entities are never expanded. Attribute
//! values get their line ends normalised and the five predefined entities and numeric
//! character references replaced; an unknown `&name;` is kept as written, and a reference to
//! character 0 ends the value there.
//!
//! Bytes are read as they are (a BOM is skipped, an encoding declaration ignored), but the tree
//! holds Rust strings: each byte of a name or value that is not part of valid UTF-8
//! (ISO-8859-1 text, references to surrogates) becomes a private-use character standing for it
//! ([`to_text`]), and the compiler writes model names and text data back as the raw bytes
//! ([`raw_bytes`]), so they read as in MuJoCo. Elsewhere (messages, file names, the model
//! comment) the stand-in characters remain.
//!
//! The parser is a loop over a stack of open elements, so deep input cannot exhaust the call
//! stack; the stack itself is bounded by the nesting limit.

use std::rc::Rc;

use super::elem::Elem;

/// TinyXML2's element nesting limit, counting the document as one level: the 499th nested
/// element may be empty or self-closing, but not open children.
const MAX_ELEMENT_DEPTH: usize = 500;

/// TinyXML2's error codes (`XMLError`) that its parser can raise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorId {
    ParsingElement = 6,
    ParsingAttribute = 7,
    ParsingText = 8,
    ParsingCdata = 9,
    ParsingComment = 10,
    ParsingDeclaration = 11,
    ParsingUnknown = 12,
    EmptyDocument = 13,
    MismatchedElement = 14,
    Parsing = 15,
    ElementDepthExceeded = 18,
}

impl ErrorId {
    fn name(self) -> &'static str {
        match self {
            ErrorId::ParsingElement => "XML_ERROR_PARSING_ELEMENT",
            ErrorId::ParsingAttribute => "XML_ERROR_PARSING_ATTRIBUTE",
            ErrorId::ParsingText => "XML_ERROR_PARSING_TEXT",
            ErrorId::ParsingCdata => "XML_ERROR_PARSING_CDATA",
            ErrorId::ParsingComment => "XML_ERROR_PARSING_COMMENT",
            ErrorId::ParsingDeclaration => "XML_ERROR_PARSING_DECLARATION",
            ErrorId::ParsingUnknown => "XML_ERROR_PARSING_UNKNOWN",
            ErrorId::EmptyDocument => "XML_ERROR_EMPTY_DOCUMENT",
            ErrorId::MismatchedElement => "XML_ERROR_MISMATCHED_ELEMENT",
            ErrorId::Parsing => "XML_ERROR_PARSING",
            ErrorId::ElementDepthExceeded => "XML_ELEMENT_DEPTH_EXCEEDED",
        }
    }
}

/// A refused document: the code, the line and the detail TinyXML2 reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// The code.
    pub id: ErrorId,
    /// The line (0 for an empty document).
    pub line: u32,
    /// What follows the line number, if anything.
    pub detail: Option<String>,
}

impl SyntaxError {
    fn new(id: ErrorId, line: u32) -> Self {
        Self {
            id,
            line,
            detail: None,
        }
    }

    fn about(id: ErrorId, line: u32, what: &str, name: &[u8]) -> Self {
        Self {
            id,
            line,
            detail: Some(format!("{what}={}", String::from_utf8_lossy(name))),
        }
    }

    /// MuJoCo's text for it: `XML parse error <id>:` and TinyXML2's `ErrorStr()`.
    pub fn message(&self) -> String {
        let id = self.id as u32;
        let mut s = format!(
            "Error={} ErrorID={id} (0x{id:x}) Line number={}",
            self.id.name(),
            self.line
        );
        if let Some(d) = &self.detail {
            s.push_str(": ");
            s.push_str(d);
        }
        // TinyXML2 formats into a buffer of 1000 bytes
        truncate_bytes(&mut s, 999);
        format!("XML parse error {id}:\n{s}\n")
    }
}

fn truncate_bytes(s: &mut String, max: usize) {
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
    }
}

/// A parsed document: its first element and the comment that is that element's first node.
#[derive(Debug)]
pub struct Parsed {
    /// The first element at document level, if any.
    pub root: Option<Elem>,
    /// The root's first child node when it is a comment.
    pub comment: Option<String>,
}

/// An element whose content is being read.
struct Open {
    elem: Elem,
    /// The tag name as written (end tags must match it byte for byte).
    raw: Vec<u8>,
    /// Has a node been read inside it yet?
    has_node: bool,
}

/// How a start tag ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Closing {
    /// `<a ...>`: content follows.
    Open,
    /// `<a .../>`.
    Closed,
    /// `</a>`.
    End,
}

/// A tag read by [`Parser::tag`].
struct Tag {
    raw: Vec<u8>,
    attrs: Vec<(String, String)>,
    closing: Closing,
    line: u32,
}

/// The kinds of nodes other than elements (the reader only keeps comments).
enum Other {
    Comment(String),
    Declaration(Vec<u8>),
    Skipped,
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    line: u32,
}

/// The tree being built: the finished document part and the elements still open.
struct Tree {
    doc: Parsed,
    stack: Vec<Open>,
    /// Only declarations so far (they must precede every other node of the document).
    only_declarations: bool,
    file: Rc<str>,
    dir: Rc<str>,
}

/// Parses `bytes` (from `file`; elements remember the include directory `dir`).
pub fn parse(bytes: &[u8], file: &Rc<str>, dir: &Rc<str>) -> Result<Parsed, SyntaxError> {
    // the text is a C string to TinyXML2: a zero byte ends it
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let mut p = Parser {
        s: &bytes[..end],
        pos: 0,
        line: 1,
    };
    p.skip_ws();
    if p.s[p.pos..].starts_with(b"\xEF\xBB\xBF") {
        p.pos += 3;
    }
    if p.pos >= p.s.len() {
        return Err(SyntaxError::new(ErrorId::EmptyDocument, 0));
    }
    let tree = Tree {
        doc: Parsed {
            root: None,
            comment: None,
        },
        stack: Vec::new(),
        only_declarations: true,
        file: file.clone(),
        dir: dir.clone(),
    };
    p.document(tree)
}

fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// TinyXML2 takes every byte above ASCII as a letter rather than decode UTF-8.
fn is_name_start(c: u8) -> bool {
    c >= 128 || c.is_ascii_alphabetic() || c == b':' || c == b'_'
}

fn is_name_char(c: u8) -> bool {
    is_name_start(c) || c.is_ascii_digit() || c == b'.' || c == b'-'
}

impl Parser<'_> {
    fn peek(&self, k: usize) -> u8 {
        self.s.get(self.pos + k).copied().unwrap_or(0)
    }

    fn at(&self, pat: &[u8]) -> bool {
        self.s[self.pos..].starts_with(pat)
    }

    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && is_ws(self.s[self.pos]) {
            if self.s[self.pos] == b'\n' {
                self.line = self.line.saturating_add(1);
            }
            self.pos += 1;
        }
    }

    /// The bytes up to `end`, leaving the cursor after it; `None` when `end` never comes.
    fn until(&mut self, end: &[u8]) -> Option<Vec<u8>> {
        let rest = &self.s[self.pos..];
        let n = rest.windows(end.len()).position(|w| w == end);
        let upto = n.unwrap_or(rest.len());
        self.line = self.line.saturating_add(count_lines(&rest[..upto]));
        let n = n?;
        let text = rest[..n].to_vec();
        self.pos += n + end.len();
        Some(text)
    }

    fn name(&mut self) -> Option<Vec<u8>> {
        if !is_name_start(self.peek(0)) {
            return None;
        }
        let start = self.pos;
        while self.pos < self.s.len() && is_name_char(self.s[self.pos]) {
            self.pos += 1;
        }
        Some(self.s[start..self.pos].to_vec())
    }

    /// The document's nodes, in one loop (the open elements are on [`Tree`]'s stack).
    fn document(&mut self, mut tree: Tree) -> Result<Parsed, SyntaxError> {
        loop {
            self.skip_ws();
            let line = self.line;
            if self.pos >= self.s.len() {
                return tree.finish();
            }
            if !self.at(b"<") || self.at(b"<!") || self.at(b"<?") {
                let other = self.other(line)?;
                tree.other(other, line)?;
            } else {
                let tag = self.tag(line)?;
                if tree.tag(tag, self.line)? {
                    return Ok(tree.doc);
                }
            }
        }
    }

    /// A node that is not an element: declaration, comment, CDATA, DTD or text.
    fn other(&mut self, line: u32) -> Result<Other, SyntaxError> {
        let (open, close, error) = if self.at(b"<?") {
            (2, &b"?>"[..], ErrorId::ParsingDeclaration)
        } else if self.at(b"<!--") {
            (4, &b"-->"[..], ErrorId::ParsingComment)
        } else if self.at(b"<![CDATA[") {
            (9, &b"]]>"[..], ErrorId::ParsingCdata)
        } else if self.at(b"<!") {
            (2, &b">"[..], ErrorId::ParsingUnknown)
        } else {
            return self.text(line);
        };
        self.pos += open;
        let value = self.until(close).ok_or(SyntaxError::new(error, line))?;
        Ok(match open {
            2 if close == b"?>" => Other::Declaration(value),
            4 => Other::Comment(to_text(&normalize(&value, false))),
            _ => Other::Skipped,
        })
    }

    /// Character data, which must be followed by more markup.
    fn text(&mut self, line: u32) -> Result<Other, SyntaxError> {
        self.until(b"<")
            .ok_or(SyntaxError::new(ErrorId::ParsingText, line))?;
        if self.pos >= self.s.len() {
            return Err(SyntaxError::new(ErrorId::Parsing, line));
        }
        self.pos -= 1;
        Ok(Other::Skipped)
    }

    /// A start, empty-element or end tag, from its `<`.
    fn tag(&mut self, line: u32) -> Result<Tag, SyntaxError> {
        self.pos += 1;
        self.skip_ws();
        let mut closing = Closing::Open;
        if self.peek(0) == b'/' {
            closing = Closing::End;
            self.pos += 1;
        }
        let raw = self
            .name()
            .ok_or(SyntaxError::new(ErrorId::Parsing, line))?;
        let mut attrs: Vec<(String, String)> = Vec::new();
        loop {
            self.skip_ws();
            let c = self.peek(0);
            if self.pos >= self.s.len() {
                let e = ErrorId::ParsingElement;
                return Err(SyntaxError::about(e, line, "XMLElement name", &raw));
            }
            if is_name_start(c) {
                let attr_line = self.line;
                let bad = || {
                    let e = ErrorId::ParsingAttribute;
                    SyntaxError::about(e, attr_line, "XMLElement name", &raw)
                };
                let (name, value) = self.attribute().ok_or_else(bad)?;
                if attrs.iter().any(|(n, _)| *n == name) {
                    return Err(bad());
                }
                attrs.push((name, value));
            } else if c == b'>' {
                self.pos += 1;
                break;
            } else if c == b'/' && self.peek(1) == b'>' {
                // `</a/>` is read as an empty element, as TinyXML2 does
                closing = Closing::Closed;
                self.pos += 2;
                break;
            } else {
                return Err(SyntaxError::new(ErrorId::ParsingElement, line));
            }
        }
        Ok(Tag {
            raw,
            attrs,
            closing,
            line,
        })
    }

    /// `name = "value"` (or single quotes), the value with entities replaced.
    fn attribute(&mut self) -> Option<(String, String)> {
        let name = self.name()?;
        if self.pos >= self.s.len() {
            return None;
        }
        self.skip_ws();
        if self.peek(0) != b'=' {
            return None;
        }
        self.pos += 1;
        self.skip_ws();
        let quote = self.peek(0);
        if quote != b'"' && quote != b'\'' {
            return None;
        }
        self.pos += 1;
        let value = self.until(&[quote])?;
        let value = normalize(&value, true);
        Some((to_text(&name), to_text(&value)))
    }
}

impl Tree {
    /// The end of the text: an element left open fails where it started.
    fn finish(self) -> Result<Parsed, SyntaxError> {
        match self.stack.last() {
            Some(o) => Err(SyntaxError::new(ErrorId::Parsing, o.elem.line)),
            None => Ok(self.doc),
        }
    }

    /// A node other than an element: declarations are checked, a comment that opens the root
    /// is kept, the rest only counts as a node.
    fn other(&mut self, other: Other, line: u32) -> Result<(), SyntaxError> {
        if let Other::Declaration(value) = &other {
            if !self.stack.is_empty() || !self.only_declarations {
                let value = normalize(value, false);
                let e = ErrorId::ParsingDeclaration;
                return Err(SyntaxError::about(e, line, "XMLDeclaration value", &value));
            }
            return Ok(());
        }
        self.only_declarations = false;
        let at_root = self.stack.len() == 1;
        if let Some(o) = self.stack.last_mut() {
            if let (false, true, Other::Comment(c)) = (o.has_node, at_root, other) {
                self.doc.comment = Some(c);
            }
            o.has_node = true;
        }
        Ok(())
    }

    /// A tag; `line` is where it ends. True when a stray end tag at document level ends the
    /// document (TinyXML2 reads nothing after it).
    fn tag(&mut self, tag: Tag, line: u32) -> Result<bool, SyntaxError> {
        self.only_declarations = false;
        if let Some(o) = self.stack.last_mut() {
            o.has_node |= tag.closing != Closing::End;
        }
        match tag.closing {
            Closing::End => {
                let Some(open) = self.stack.pop() else {
                    return Ok(true);
                };
                if open.raw != tag.raw {
                    let e = ErrorId::MismatchedElement;
                    let name = "XMLElement name";
                    return Err(SyntaxError::about(e, open.elem.line, name, &open.raw));
                }
                self.attach(open.elem);
            }
            Closing::Closed => {
                let e = self.elem(tag);
                self.attach(e);
            }
            Closing::Open => {
                // the document counts as one level and this element's content as another
                if self.stack.len() + 2 >= MAX_ELEMENT_DEPTH {
                    return Err(SyntaxError {
                        id: ErrorId::ElementDepthExceeded,
                        line,
                        detail: Some("Element nesting is too deep.".into()),
                    });
                }
                let raw = tag.raw.clone();
                let elem = self.elem(tag);
                self.stack.push(Open {
                    elem,
                    raw,
                    has_node: false,
                });
            }
        }
        Ok(false)
    }

    fn elem(&self, tag: Tag) -> Elem {
        Elem {
            name: to_text(&tag.raw),
            attrs: tag.attrs,
            children: Vec::new(),
            line: tag.line,
            file: self.file.clone(),
            include_dir: self.dir.clone(),
        }
    }

    /// Puts a finished element under the innermost open one, or makes it the document's root
    /// (elements after the first at document level are read and dropped).
    fn attach(&mut self, elem: Elem) {
        match self.stack.last_mut() {
            Some(o) => o.elem.children.push(elem),
            None if self.doc.root.is_none() => self.doc.root = Some(elem),
            None => {}
        }
    }
}

/// The first of the private-use characters (plane 16) that stand for bytes 0x80..=0xFF that
/// are not valid UTF-8.
const RAW_BYTE_BASE: u32 = 0x10FF00;

/// `bytes` as text, valid UTF-8 as it is and every other byte as its stand-in character.
pub fn to_text(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        s.push_str(chunk.valid());
        for &b in chunk.invalid() {
            s.extend(char::from_u32(RAW_BYTE_BASE + u32::from(b)));
        }
    }
    s
}

/// The bytes a text read by [`to_text`] came from.
pub fn raw_bytes(s: &str) -> std::borrow::Cow<'_, [u8]> {
    let stand_in = |c: char| (RAW_BYTE_BASE + 0x80..=RAW_BYTE_BASE + 0xFF).contains(&u32::from(c));
    if !s.chars().any(stand_in) {
        return std::borrow::Cow::Borrowed(s.as_bytes());
    }
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        if stand_in(c) {
            out.push((u32::from(c) - RAW_BYTE_BASE) as u8);
        } else {
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        }
    }
    std::borrow::Cow::Owned(out)
}

fn count_lines(s: &[u8]) -> u32 {
    let n = s.iter().filter(|&&c| c == b'\n').count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A value as TinyXML2 hands it out: line ends (CR LF, LF CR, lone CR) made LF, and with
/// `entities` the predefined entities and character references replaced. The rewrite happens in
/// place as TinyXML2's does, so an unknown entity after a shortened one shows the stale bytes it
/// leaves; the value ends at the first zero byte.
fn normalize(raw: &[u8], entities: bool) -> Vec<u8> {
    let mut buf = raw.to_vec();
    let at = |buf: &[u8], i: usize| buf.get(i).copied().unwrap_or(0);
    let (mut p, mut q) = (0, 0);
    while p < buf.len() {
        let c = buf[p];
        if c == b'\r' || c == b'\n' {
            let other = if c == b'\r' { b'\n' } else { b'\r' };
            p += if at(&buf, p + 1) == other { 2 } else { 1 };
            buf[q] = b'\n';
            q += 1;
        } else if entities && c == b'&' {
            (p, q) = entity(&mut buf, p, q);
        } else {
            buf[q] = c;
            p += 1;
            q += 1;
        }
    }
    buf.truncate(q);
    if let Some(z) = buf.iter().position(|&b| b == 0) {
        buf.truncate(z);
    }
    buf
}

const ENTITIES: [(&[u8], u8); 5] = [
    (b"quot", b'"'),
    (b"amp", b'&'),
    (b"apos", b'\''),
    (b"lt", b'<'),
    (b"gt", b'>'),
];

/// Replaces the entity at `buf[p]` (an `&`), writing at `q`; the next read and write positions.
fn entity(buf: &mut [u8], p: usize, q: usize) -> (usize, usize) {
    if buf.get(p + 1) == Some(&b'#') {
        return match char_ref(buf, p) {
            CharRef::Invalid => {
                buf[q] = b'&';
                (p + 1, q + 1)
            }
            // `&#` ends the value: TinyXML2 drops the `&`
            CharRef::Truncated => (p + 1, q),
            CharRef::Char(bytes, next) => {
                buf[q..q + bytes.len()].copy_from_slice(&bytes);
                (next, q + bytes.len())
            }
        };
    }
    for (pattern, value) in ENTITIES {
        let after = p + 1 + pattern.len();
        if buf[p + 1..].starts_with(pattern) && buf.get(after) == Some(&b';') {
            buf[q] = value;
            return (after + 1, q + 1);
        }
    }
    // unknown: both positions move on and the byte at `q` stays what it was
    (p + 1, q + 1)
}

enum CharRef {
    /// Not a reference: the `&` is kept.
    Invalid,
    /// `&#` at the very end of the value.
    Truncated,
    /// The character's UTF-8 bytes and where reading resumes.
    Char(Vec<u8>, usize),
}

/// A numeric character reference `&#...;` or `&#x...;` at `buf[p]`. Digits are read backwards
/// from the first `;` to the `#` or `x`, as TinyXML2 does.
fn char_ref(buf: &[u8], p: usize) -> CharRef {
    if p + 2 >= buf.len() {
        return CharRef::Truncated;
    }
    let hex = buf[p + 2] == b'x';
    let (radix, first, term) = if hex {
        (16, p + 3, b'x')
    } else {
        (10, p + 2, b'#')
    };
    if first >= buf.len() {
        return CharRef::Invalid;
    }
    let Some(semi) = buf[first..].iter().position(|&c| c == b';') else {
        return CharRef::Invalid;
    };
    let semi = first + semi;
    let (mut ucs, mut mult) = (0u32, 1u32);
    // the `#` (or `x`) before the digits always stops the walk
    for &c in buf[..semi].iter().rev().take_while(|&&c| c != term) {
        let Some(d) = char::from(c).to_digit(radix) else {
            return CharRef::Invalid;
        };
        ucs = ucs.wrapping_add(mult * d);
        mult = (mult * radix).min(0x10FFFF);
    }
    if ucs > 0x10FFFF {
        return CharRef::Invalid;
    }
    CharRef::Char(utf8(ucs), semi + 1)
}

/// A code point as UTF-8 bytes, surrogates included (TinyXML2 does not refuse them).
fn utf8(c: u32) -> Vec<u8> {
    let cont = |shift: u32| 0x80 | ((c >> shift) & 0x3F) as u8;
    match c {
        0..=0x7F => vec![c as u8],
        0x80..=0x7FF => vec![0xC0 | (c >> 6) as u8, cont(0)],
        0x800..=0xFFFF => vec![0xE0 | (c >> 12) as u8, cont(6), cont(0)],
        _ => vec![0xF0 | (c >> 18) as u8, cont(12), cont(6), cont(0)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any mix of markup pieces parses or fails with a message, never a panic.
        #[test]
        fn markup_soup_never_panics(pieces in proptest::collection::vec(prop::sample::select(vec![
            "<", ">", "/", "a", "b", "=", "\"", "'", "&", "#", "x", ";", "!", "--", "?", "[", "]",
            "CDATA", "\n", "\r", " ", "1", "F", "lt", "\u{e9}", "\0", "\u{ffff}",
        ]), 0..80)) {
            let text = pieces.concat();
            if let Err(e) = doc(&text) {
                prop_assert!(e.message().starts_with("XML parse error"));
            }
            let _ = normalize(text.as_bytes(), true);
        }
    }

    fn doc(text: &str) -> Result<Parsed, SyntaxError> {
        parse(text.as_bytes(), &Rc::from("t.xml"), &Rc::from(""))
    }

    fn value(raw: &str) -> String {
        to_text(&normalize(raw.as_bytes(), true))
    }

    #[test]
    fn entities_as_tinyxml2_replaces_them() {
        assert_eq!(value("&lt;&gt;&amp;&quot;&apos;"), "<>&\"'");
        assert_eq!(value("&#65;&#x42;&#X43;"), "AB&#X43;");
        assert_eq!(value("a&foo;b"), "a&foo;b");
        // the stale byte at the write position shows through after a shortened entity
        assert_eq!(value("&lt;&foo;"), "<lfoo;");
        assert_eq!(value("ab&#0;cd"), "ab");
        assert_eq!(value("a&#;b"), "a");
        assert_eq!(value("a&#"), "a#");
        assert_eq!(value("&#12&#68;"), "D");
        assert_eq!(value("&#1114112;"), "&#1114112;");
        assert_eq!(value("a\r\nb\rc\n\rd"), "a\nb\nc\nd");
    }

    #[test]
    fn bytes_that_are_not_utf8_survive_the_round_trip() {
        let raw = b"caf\xe9 \xc3\xa9 \xed\xa0\x80";
        let text = to_text(raw);
        assert!(text.starts_with("caf") && text.contains(" \u{e9} "));
        assert_eq!(&*raw_bytes(&text), raw);
        assert_eq!(&*raw_bytes("plain é"), "plain é".as_bytes());
        assert_eq!(value("&#xD800;").len(), 3 * 4);
    }

    #[test]
    fn lenient_where_tinyxml2_is() {
        let d = doc("<a x=\"1\"y='2'><!-- -- --><b/></a>junk<c/>< /d>").unwrap();
        let root = d.root.unwrap();
        assert_eq!(root.attrs.len(), 2);
        assert_eq!(root.children.len(), 1);
        assert_eq!(d.comment.as_deref(), Some(" -- "));
        assert!(doc("<a/></b>< <").is_ok());
        assert!(doc("<!DOCTYPE a [<!ENTITY e \"x\">]><a n=\"&e;\"/>").is_ok());
    }

    #[test]
    fn refusals_carry_tinyxml2_codes_and_lines() {
        let e = |t: &str| doc(t).err().map(|e| (e.id, e.line));
        assert_eq!(e("  "), Some((ErrorId::EmptyDocument, 0)));
        assert_eq!(e("<a/>x"), Some((ErrorId::ParsingText, 1)));
        assert_eq!(e("<a/>x<"), Some((ErrorId::Parsing, 1)));
        assert_eq!(e("<a>\n<b></c></a>"), Some((ErrorId::MismatchedElement, 2)));
        assert_eq!(e("<a>\n<b>"), Some((ErrorId::Parsing, 2)));
        assert_eq!(
            e("<!-- a --><?xml?><a/>"),
            Some((ErrorId::ParsingDeclaration, 1))
        );
        assert_eq!(e("<a x='1' x='2'/>"), Some((ErrorId::ParsingAttribute, 1)));
        assert_eq!(e("<a></>"), Some((ErrorId::Parsing, 1)));
        let msg = doc("<a\n/").unwrap_err().message();
        assert_eq!(
            msg,
            "XML parse error 6:\nError=XML_ERROR_PARSING_ELEMENT ErrorID=6 (0x6) Line number=1\n"
        );
    }

    #[test]
    fn nesting_stops_at_tinyxml2_depth() {
        let deep = |n: usize| format!("{}<x/>{}", "<a>".repeat(n), "</a>".repeat(n));
        assert!(doc(&deep(498)).is_ok());
        let e = doc(&deep(499)).unwrap_err();
        assert_eq!(e.id, ErrorId::ElementDepthExceeded);
        // far deeper input is refused the same way without exhausting the stack
        assert_eq!(doc(&"<a>".repeat(1_000_000)).unwrap_err().id, e.id);
    }
}
