//! The document the writer builds: elements with attributes in insertion order, printed as
//! MuJoCo prints its tinyxml2 tree (two spaces per level, `<empty/>` elements, a comment as the
//! root's first child).
//!
//! The attribute helpers follow `mjXUtil::WriteAttr*`: an attribute is written only when its
//! value differs from the default it is compared with, so that reading the text back from that
//! default gives the value again.

use super::number::{join, same_slice, Number};
use crate::error::XmlError;
use crate::keywords::Keywords;
use crate::spec::{Limited, Orientation, OrientationType};

/// One element.
#[derive(Clone, Debug, Default)]
pub struct Node {
    /// Tag name.
    pub name: String,
    /// Attributes, in the order they were set.
    pub attrs: Vec<(String, String)>,
    /// Child elements.
    pub children: Vec<Node>,
}

impl Node {
    /// An element without attributes or children.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.into(),
            ..Self::default()
        }
    }

    /// Does the element carry anything (an attribute or a child)?
    pub fn is_empty(&self) -> bool {
        self.attrs.is_empty() && self.children.is_empty()
    }

    /// Sets an attribute unconditionally.
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        self.attrs.push((name.into(), value.into()));
    }

    /// Sets the `class` attribute, right after the name as MuJoCo orders them.
    pub fn set_class(&mut self, class: &str) {
        let at = usize::from(self.attrs.first().is_some_and(|(k, _)| k == "name"));
        self.attrs.insert(at, ("class".into(), class.into()));
    }

    /// A text attribute, written when it differs from `def` (even when empty: an empty value
    /// read back replaces a non-empty default).
    pub fn text(&mut self, name: &str, value: &str, def: &str) {
        if value != def {
            self.set(name, value);
        }
    }

    /// A text attribute, written when not empty (`WriteAttrTxt`).
    pub fn text_some(&mut self, name: &str, value: &str) {
        if !value.is_empty() {
            self.set(name, value);
        }
    }

    /// One number, written when it differs from `def`.
    pub fn num<T: Number>(&mut self, name: &str, value: T, def: T) {
        self.nums(name, &[value], &[def]);
    }

    /// A fixed-length vector, written whole when any element differs from `def`.
    pub fn nums<T: Number>(&mut self, name: &str, value: &[T], def: &[T]) {
        if !same_slice(value, def) {
            self.set(name, join(value));
        }
    }

    /// A vector the reader accepts shorter (`ReadAttr` without `exact`): written when it differs
    /// from `def`, without the trailing values equal to `def` (`WriteAttr` with `trim`), but at
    /// least `min` values.
    pub fn trim<T: Number>(&mut self, name: &str, value: &[T], def: &[T], min: usize) {
        let Some(last) = value.iter().zip(def).rposition(|(a, b)| !a.same(*b)) else {
            return;
        };
        let n = (last + 1).max(min).min(value.len());
        self.set(name, join(&value[..n]));
    }

    /// A variable-length vector (user data, mesh data...), written whole when it differs.
    pub fn vec<T: Number>(&mut self, name: &str, value: &[T], def: &[T]) {
        if !same_slice(value, def) && !value.is_empty() {
            self.set(name, join(value));
        }
    }

    /// A vector written whenever it is not empty.
    pub fn vec_some<T: Number>(&mut self, name: &str, value: &[T]) {
        if !value.is_empty() {
            self.set(name, join(value));
        }
    }

    /// An integer, written when it differs from `def` (`WriteAttrInt`).
    pub fn int(&mut self, name: &str, value: i32, def: i32) {
        if value != def {
            self.set(name, value.to_string());
        }
    }

    /// A keyword, written when it differs from `def` (`WriteAttrKey`); a value without a keyword
    /// is an error.
    pub fn key(&mut self, name: &str, map: Keywords, value: i32, def: i32) -> Result<(), XmlError> {
        if value != def {
            self.set(name, keyword(map, name, value)?);
        }
        Ok(())
    }

    /// A `true`/`false` attribute, written when it differs from `def`.
    pub fn flag(&mut self, name: &str, value: bool, def: bool) {
        if value != def {
            self.set(name, if value { "true" } else { "false" });
        }
    }

    /// A `false`/`true`/`auto` limit flag, written when it differs from `def`.
    pub fn limited(&mut self, name: &str, value: Limited, def: Limited) {
        if value != def {
            let text = match value {
                Limited::False => "false",
                Limited::True => "true",
                Limited::Auto => "auto",
            };
            self.set(name, text);
        }
    }

    /// The alternative orientation, written when it differs from `def`'s: the active specifier
    /// only (the reader allows one). An element cannot return to `quat` from a class's
    /// alternative, so that case never arises.
    pub fn orientation(&mut self, alt: &Orientation, def: &Orientation) {
        let (name, value, base): (&str, &[f64], &[f64]) = match alt.kind {
            OrientationType::Quat => return,
            OrientationType::AxisAngle => ("axisangle", &alt.axisangle, &def.axisangle),
            OrientationType::XYAxes => ("xyaxes", &alt.xyaxes, &def.xyaxes),
            OrientationType::ZAxis => ("zaxis", &alt.zaxis, &def.zaxis),
            OrientationType::Euler => ("euler", &alt.euler, &def.euler),
        };
        if alt.kind != def.kind || !same_slice(value, base) {
            self.set(name, join(value));
        }
    }

    /// Prints the element and its children at `depth` (two spaces per level).
    pub fn print(&self, depth: usize, out: &mut String) {
        indent(depth, out);
        out.push('<');
        out.push_str(&self.name);
        for (k, v) in &self.attrs {
            out.push(' ');
            out.push_str(k);
            out.push_str("=\"");
            escape(v, out);
            out.push('"');
        }
        if self.children.is_empty() {
            out.push_str("/>\n");
            return;
        }
        out.push_str(">\n");
        for c in &self.children {
            c.print(depth + 1, out);
        }
        indent(depth, out);
        out.push_str("</");
        out.push_str(&self.name);
        out.push_str(">\n");
    }
}

/// The keyword of `value` in `map`.
pub fn keyword(map: Keywords, attr: &str, value: i32) -> Result<&'static str, XmlError> {
    map.iter()
        .find(|(_, v)| *v == value)
        .map(|(k, _)| *k)
        .ok_or_else(|| {
            XmlError::model(format!(
                "XML Write error: invalid value {value} of attribute '{attr}'"
            ))
        })
}

fn indent(depth: usize, out: &mut String) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// Escapes an attribute value: the five XML entities as tinyxml2 does, and the whitespace
/// characters an XML parser would otherwise normalize to spaces.
fn escape(v: &str, out: &mut String) {
    for c in v.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_differ_from_defaults() {
        let mut n = Node::new("geom");
        n.num("mass", 1.0, 1.0);
        n.nums("pos", &[0.0, 0.0, 1.5], &[0.0; 3]);
        n.trim(
            "solimp",
            &[0.8, 0.95, 0.001, 0.5, 2.0],
            &[0.9, 0.95, 0.001, 0.5, 2.0],
            0,
        );
        n.trim("size", &[0.1, 0.0, 0.0], &[0.0; 3], 2);
        n.num("gap", -0.0, 0.0);
        n.text("material", "", "red");
        n.set("name", "a<\"b\"&'c'>\n");
        let mut s = String::new();
        n.print(1, &mut s);
        assert_eq!(
            s,
            "  <geom pos=\"0 0 1.5\" solimp=\"0.80000000000000004\" size=\"0.10000000000000001 0\" \
             gap=\"-0\" material=\"\" name=\"a&lt;&quot;b&quot;&amp;&apos;c&apos;&gt;&#10;\"/>\n"
        );
    }
}
