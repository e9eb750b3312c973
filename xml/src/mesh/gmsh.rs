//! gmsh's `.msh` files for `flexcomp type="gmsh"` (`mjCFlexcomp::LoadGMSH`): format 4.1 and
//! 2.2, ASCII and binary, one block of nodes and one of elements (lines, triangles or
//! tetrahedra). Counts in the file are checked against the bytes there before anything is read
//! or reserved; MuJoCo's messages.

/// The points (3 per node) and elements (node ids from 0) of a gmsh file, with the element
/// dimension.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gmsh {
    pub dim: i32,
    pub point: Vec<f64>,
    pub element: Vec<i32>,
}

type Result<T> = core::result::Result<T, String>;

fn err<T>(msg: &str) -> Result<T> {
    Err(msg.to_string())
}

/// `INT_MAX`.
const INT_MAX: u64 = i32::MAX as u64;

/// Header of a binary 4.1 section: block count, item count, tags, entity and block count.
const HEADER41: usize = 52;

/// `findstring`: the first position of `s` that leaves at least one byte after it.
fn find(buf: &[u8], s: &str) -> i64 {
    let s = s.as_bytes();
    if buf.len() <= s.len() {
        return -1;
    }
    (0..buf.len() - s.len())
        .find(|&i| &buf[i..i + s.len()] == s)
        .map_or(-1, |i| i as i64)
}

/// A C++ `istringstream` over a section, for `>>` of unsigned and signed integers and doubles.
struct Stream<'a> {
    b: &'a [u8],
    at: usize,
    fail: bool,
    eof: bool,
}

impl<'a> Stream<'a> {
    fn new(b: &'a [u8]) -> Self {
        Self {
            b,
            at: 0,
            fail: false,
            eof: false,
        }
    }

    /// `good()`.
    fn good(&self) -> bool {
        !self.fail && !self.eof
    }

    /// The characters of the next number: after white space, the longest run of `accept`.
    fn token(&mut self, accept: impl Fn(&[u8], u8) -> bool) -> Option<&'a [u8]> {
        if self.fail {
            return None;
        }
        while self.at < self.b.len() && self.b[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
        let start = self.at;
        while self.at < self.b.len() && accept(&self.b[start..self.at], self.b[self.at]) {
            self.at += 1;
        }
        if self.at == self.b.len() {
            self.eof = true;
        }
        let t = &self.b[start..self.at];
        if t.is_empty() {
            self.fail = true;
            return None;
        }
        Some(t)
    }

    fn integer(&mut self) -> Option<(bool, u64)> {
        let t = self
            .token(|seen, c| c.is_ascii_digit() || (seen.is_empty() && (c == b'-' || c == b'+')))?;
        let (neg, digits) = match t[0] {
            b'-' => (true, &t[1..]),
            b'+' => (false, &t[1..]),
            _ => (false, t),
        };
        let v = std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse::<u64>().ok());
        match v {
            Some(v) => Some((neg, v)),
            None => {
                self.fail = true;
                None
            }
        }
    }

    /// `>> size_t` (a minus sign wraps, as the C library's `strtoull`).
    fn size(&mut self) -> u64 {
        match self.integer() {
            Some((neg, v)) => {
                if neg {
                    v.wrapping_neg()
                } else {
                    v
                }
            }
            None => 0,
        }
    }

    /// `>> int`.
    fn int(&mut self) -> i32 {
        match self.integer() {
            Some((neg, v)) => {
                let v = if neg { -i128::from(v) } else { i128::from(v) };
                match i32::try_from(v) {
                    Ok(v) => v,
                    Err(_) => {
                        self.fail = true;
                        0
                    }
                }
            }
            None => 0,
        }
    }

    /// `>> double`.
    fn double(&mut self) -> f64 {
        let t = self.token(|seen, c| {
            let last = seen.last().copied();
            c.is_ascii_digit()
                || c == b'.'
                || ((c == b'-' || c == b'+')
                    && (seen.is_empty() || matches!(last, Some(b'e' | b'E'))))
                || ((c == b'e' || c == b'E') && !seen.iter().any(|&x| x == b'e' || x == b'E'))
        });
        let v = t
            .and_then(|t| std::str::from_utf8(t).ok())
            .and_then(|s| s.parse::<f64>().ok());
        match v {
            Some(v) => v,
            None => {
                self.fail = true;
                0.0
            }
        }
    }

    /// `getline` then `seekg` back over it: the first line, left unread. `None` when the
    /// seek fails (no line end: the stream then reads nothing).
    fn first_line(&mut self) -> Option<&'a [u8]> {
        let end = self.b.iter().position(|&c| c == b'\n')?;
        Some(&self.b[..end])
    }
}

/// `IsValidElementOrNodeHeader22`: digits only (an empty line passes).
fn header22(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_digit)
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

fn i32_at(b: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn f64_at(b: &[u8], at: usize) -> Option<f64> {
    Some(f64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The count that opens a binary 2.2 section (`strncpy` of up to 10 bytes, `std::stoi`) and the
/// length of its text less one (`strnlen - 1`), where MuJoCo starts reading the data.
fn count22(section: &[u8]) -> Result<(i32, usize)> {
    let head = &section[..section.len().min(10)];
    let len = head.iter().position(|&c| c == 0).unwrap_or(head.len());
    let text = &head[..len];
    let exception = "exception while reading GMSH file";
    let mut at = 0;
    while at < text.len() && (text[at] == b' ' || (9..=13).contains(&text[at])) {
        at += 1;
    }
    let start = at;
    if at < text.len() && (text[at] == b'-' || text[at] == b'+') {
        at += 1;
    }
    let digits = at;
    while at < text.len() && text[at].is_ascii_digit() {
        at += 1;
    }
    if at == digits {
        return err(exception);
    }
    let v: i64 = std::str::from_utf8(&text[start..at])
        .ok()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| exception.to_string())?;
    let v = i32::try_from(v).map_err(|_| exception.to_string())?;
    // strnlen - 1 of an empty string wraps: the data would start before the buffer
    let measured = len.checked_sub(1).ok_or_else(|| exception.to_string())?;
    Ok((v, measured))
}

/// Reads a gmsh file (`LoadGMSH`).
pub fn load(buf: &[u8]) -> Result<Gmsh> {
    if buf.is_empty() {
        return err("Empty GMSH file");
    }
    if buf.len() < 11 || &buf[..11] != b"$MeshFormat" {
        return err("GMSH file must begin with $MeshFormat");
    }
    let mut header = Stream::new(&buf[11..buf.len().min(200)]);
    let version = header.double();
    let binary = header.int();
    if header.fail {
        return err("Could not read GMSH file header");
    }
    let v = (100.0 * version).round();
    if v != 220.0 && v != 410.0 {
        return err("Only GMSH file format versions 4.1 and 2.2 are supported");
    }
    let nodebegin = find(buf, "$Nodes") + 7;
    let nodeend = find(buf, "$EndNodes");
    let elembegin = find(buf, "$Elements") + 10;
    let elemend = find(buf, "$EndElements");
    if nodeend < nodebegin {
        return err("GMSH file missing $EndNodes after $Nodes");
    }
    if elemend < elembegin {
        return err("GMSH file missing $EndElements after $Elements");
    }
    let nodes = &buf[nodebegin as usize..nodeend as usize];
    let elems = &buf[elembegin as usize..elemend as usize];
    let mut g = Gmsh::default();
    if v == 410.0 {
        if binary == 0 {
            let mintag = nodes41_ascii(&mut g, nodes)?;
            elems41_ascii(&mut g, elems, mintag)?;
        } else {
            let mintag = nodes41_binary(&mut g, nodes)?;
            elems41_binary(&mut g, elems, mintag)?;
        }
    } else {
        let nnodes = if binary == 0 {
            nodes22_ascii(&mut g, nodes)?
        } else {
            nodes22_binary(&mut g, nodes)?
        };
        if binary == 0 {
            elems22_ascii(&mut g, elems, nnodes)?;
        } else {
            elems22_binary(&mut g, buf, elembegin as usize, elems.len(), nnodes)?;
        }
    }
    Ok(g)
}

/// The element type of each dimension in format 4.1 (lines, triangles, tetrahedra).
fn type41_matches(dim: i32, etype: i32) -> bool {
    matches!((dim, etype), (1, 1) | (2, 2) | (3, 4))
}

/// Reads the nodes; returns the smallest node tag (elements name nodes by tag).
fn nodes41_ascii(g: &mut Gmsh, nodes: &[u8]) -> Result<u64> {
    let mut ss = Stream::new(nodes);
    let nblocks = ss.size();
    let nnodes = ss.size();
    let mintag = ss.size();
    let _maxtag = ss.size();
    let dim = ss.int();
    let _entity = ss.int();
    let _parametric = ss.int();
    let inblock = ss.size();
    if !ss.good() {
        return err("Error reading Nodes header");
    }
    if nblocks != 1 || nnodes != inblock {
        return err("All nodes must be in single block");
    }
    if !(1..=3).contains(&dim) {
        return err("Entity must be 1D, 2D or 3D");
    }
    g.dim = dim;
    for i in 0..nnodes {
        let tag = ss.size();
        if !ss.good() {
            return err("Error reading node tags");
        }
        if tag != i.wrapping_add(mintag) {
            return err("Node tags must be sequential");
        }
    }
    if nnodes >= INT_MAX / 3 {
        return err("Invalid number of nodes.");
    }
    for _ in 0..3 * nnodes {
        let x = ss.double();
        if !ss.good() {
            return err("Error reading node coordinates");
        }
        g.point.push(x);
    }
    Ok(mintag)
}

/// Reads the nodes; returns the smallest node tag.
fn nodes41_binary(g: &mut Gmsh, nodes: &[u8]) -> Result<u64> {
    if nodes.len() < HEADER41 {
        return err("Invalid nodes header");
    }
    let u = |at| u64_at(nodes, at).unwrap_or(0);
    let (nblocks, nnodes, mintag) = (u(0), u(8), u(16));
    let dim = i32_at(nodes, 32).unwrap_or(0);
    let inblock = u(44);
    if nblocks != 1 || nnodes != inblock {
        return err("All nodes must be in single block");
    }
    if !(1..=3).contains(&dim) {
        return err("Entity must be 1D, 2D or 3D");
    }
    g.dim = dim;
    let need = nnodes
        .checked_mul(32)
        .and_then(|n| n.checked_add(HEADER41 as u64));
    if need.is_none_or(|n| (nodes.len() as u64) < n) {
        return err("Insufficient byte size of Nodes");
    }
    let n = nnodes as usize;
    for i in 0..n {
        if u(HEADER41 + 8 * i) != (i as u64).wrapping_add(mintag) {
            return err("Node tags must be sequential");
        }
    }
    if nnodes >= INT_MAX / 3 {
        return err("Invalid number of nodes.");
    }
    let coords = HEADER41 + 8 * n;
    g.point = (0..3 * n)
        .map(|i| f64_at(nodes, coords + 8 * i).unwrap_or(0.0))
        .collect();
    Ok(mintag)
}

fn elems41_ascii(g: &mut Gmsh, elems: &[u8], mintag: u64) -> Result<()> {
    let mut ss = Stream::new(elems);
    let nblocks = ss.size();
    let nelems = ss.size();
    let _mintag = ss.size();
    let _maxtag = ss.size();
    let dim = ss.int();
    let _entity = ss.int();
    let etype = ss.int();
    let inblock = ss.size();
    if !ss.good() {
        return err("Error reading Elements header");
    }
    if nblocks != 1 || nelems != inblock {
        return err("All elements must be in single block");
    }
    if dim != g.dim {
        return err("Inconsistent dimensionality in Elements");
    }
    if nelems >= INT_MAX / 4 {
        return err("Invalid numElements.");
    }
    if !type41_matches(dim, etype) {
        return err("Element type inconsistent with dimensionality");
    }
    for _ in 0..nelems {
        let _tag = ss.size();
        for _ in 0..=dim {
            let node = ss.size();
            if !ss.good() {
                return err("Error reading Elements");
            }
            g.element.push(node.wrapping_sub(mintag) as i32);
        }
    }
    Ok(())
}

fn elems41_binary(g: &mut Gmsh, elems: &[u8], mintag: u64) -> Result<()> {
    if elems.len() < HEADER41 {
        return err("Invalid elements header");
    }
    let u = |at| u64_at(elems, at).unwrap_or(0);
    let (nblocks, nelems) = (u(0), u(8));
    let dim = i32_at(elems, 32).unwrap_or(0);
    let etype = i32_at(elems, 40).unwrap_or(0);
    let inblock = u(44);
    if nblocks != 1 || nelems != inblock {
        return err("All elements must be in single block");
    }
    if dim != g.dim {
        return err("Inconsistent dimensionality in Elements");
    }
    if !type41_matches(dim, etype) {
        return err("Element type inconsistent with dimensionality");
    }
    if nelems >= INT_MAX / 4 {
        return err("Invalid numElements.");
    }
    let size = 8 * (dim as u64 + 2);
    if (elems.len() as u64) < HEADER41 as u64 + nelems * size {
        return err("Insufficient byte size of Elements");
    }
    let mut at = HEADER41;
    for _ in 0..nelems {
        at += 8;
        for _ in 0..=dim {
            g.element.push(u(at).wrapping_sub(mintag) as i32);
            at += 8;
        }
    }
    Ok(())
}

fn nodes22_ascii(g: &mut Gmsh, nodes: &[u8]) -> Result<u64> {
    let mut ss = Stream::new(nodes);
    let line = ss.first_line();
    if !header22(line.unwrap_or(nodes)) {
        return err("Invalid node header");
    }
    if line.is_none() {
        return err("Error reading Nodes header");
    }
    let nnodes = ss.size();
    if !ss.good() {
        return err("Error reading Nodes header");
    }
    if nnodes >= INT_MAX / 3 {
        return err("Invalid number of nodes.");
    }
    for _ in 0..nnodes {
        let _tag = ss.size();
        if !ss.good() {
            return err("Error reading node tags");
        }
        for _ in 0..3 {
            let x = ss.double();
            if !ss.good() {
                return err("Error reading node coordinates");
            }
            g.point.push(x);
        }
    }
    Ok(nnodes)
}

fn nodes22_binary(g: &mut Gmsh, nodes: &[u8]) -> Result<u64> {
    if nodes.len() < 4 {
        return err("Invalid nodes header");
    }
    let (count, measured) = count22(nodes)?;
    let nnodes = i64::from(count) as u64;
    let need = nnodes.checked_mul(28).and_then(|n| n.checked_add(4));
    if need.is_none_or(|n| (nodes.len() as u64) < n) {
        return err("Insufficient byte size of Nodes");
    }
    if nnodes >= INT_MAX / 3 {
        return err("Invalid number of nodes.");
    }
    for i in 0..nnodes as usize {
        for k in 0..3 {
            let x = f64_at(nodes, measured + 28 * i + 4 + 8 * k)
                .ok_or_else(|| "Insufficient byte size of Nodes".to_string())?;
            g.point.push(x);
        }
    }
    Ok(nnodes)
}

/// The dimension and node count of a format 2.2 element type (triangles or tetrahedra).
fn type22(etype: i32) -> Result<(i32, usize)> {
    match etype {
        2 => Ok((2, 3)),
        4 => Ok((3, 4)),
        _ => err("Invalid number of node tags"),
    }
}

fn elems22_ascii(g: &mut Gmsh, elems: &[u8], nnodes: u64) -> Result<()> {
    let mut ss = Stream::new(elems);
    let line = ss.first_line();
    if !header22(line.unwrap_or(elems)) {
        return err("Invalid elements header");
    }
    if line.is_none() {
        return err("Error reading Elements header");
    }
    let nelems = ss.size();
    if !ss.good() {
        return err("Error reading Elements header");
    }
    if nelems >= INT_MAX / 4 {
        return err("Invalid number of elements.");
    }
    let _tag = ss.int();
    let etype = ss.int();
    let mut ntags = ss.int();
    if !ss.good() {
        return err("Error reading Elements");
    }
    let (dim, nnode) = type22(etype)?;
    g.dim = dim;
    for i in 0..nelems {
        if i != 0 {
            let _tag = ss.int();
            let _etype = ss.int();
            ntags = ss.int();
            if !ss.good() {
                return err("Error reading Elements");
            }
        }
        if ntags > 0 {
            let _physical = ss.int();
            let _elementary = ss.int();
            if !ss.good() {
                return err("Error reading Elements");
            }
        }
        for _ in 0..nnode {
            let node = ss.int();
            if !ss.good() {
                return err("Error reading Elements");
            }
            if i64::from(node) as u64 > nnodes || node < 1 {
                return err("Invalid node tag");
            }
            g.element.push(node - 1);
        }
    }
    Ok(())
}

/// Binary 2.2 elements, as gmsh writes them (with tags) or as fTetWild does (without); read
/// from `buf` where the section starts at `begin` and has `len` bytes.
fn elems22_binary(g: &mut Gmsh, buf: &[u8], begin: usize, len: usize, nnodes: u64) -> Result<()> {
    if len < 4 {
        return err("Invalid elements header");
    }
    let (nelems, measured) = count22(&buf[begin..begin + len])?;
    if nelems < 0 {
        return err("Invalid number of elements");
    }
    let data = begin + measured;
    let short = || "Insufficient byte size of Elements".to_string();
    let int = |at: usize| i32_at(buf, data + at).ok_or_else(short);
    let (dim, nnode) = type22(int(0)?)?;
    let ntags = int(8)?;
    g.dim = dim;
    let n = i64::from(nelems);
    if (len as i64) < 17 + n * 20 {
        return err("Insufficient byte size of Elements");
    }
    let badtag = |t: i32, most: u64| i64::from(t) as u64 > most || t < 1;
    if ntags > 0 {
        let size = 4 * (6 + nnode);
        if (len as i64) < 4 + n * size as i64 {
            return err("Insufficient byte size of Elements");
        }
        for i in 0..nelems as usize {
            // MuJoCo checks the first element's nodes against the node count, the others
            // against the element count
            let most = if i == 0 { nnodes } else { nelems as u64 };
            for k in 0..nnode {
                let t = int(i * size + 4 * (6 + k))?;
                if badtag(t, most) {
                    return err("Invalid node tag");
                }
                g.element.push(t - 1);
            }
        }
    } else {
        for k in 0..nnode {
            let t = int(4 * (4 + k))?;
            if badtag(t, nnodes) {
                return err("Invalid node tag");
            }
            g.element.push(t - 1);
        }
        for i in 0..(nelems as usize).saturating_sub(1) {
            let offset = 24 + 20 * i;
            for k in 0..nnode {
                let t = int(offset + 4 * (3 + k))?;
                if badtag(t, nelems as u64) {
                    return err("Invalid node tag");
                }
                g.element.push(t - 1);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(version: &str, nodes: &[u8], elems: &[u8]) -> Vec<u8> {
        let mut b = format!("$MeshFormat\n{version}\n$EndMeshFormat\n$Nodes\n").into_bytes();
        b.extend_from_slice(nodes);
        b.extend_from_slice(b"$EndNodes\n$Elements\n");
        b.extend_from_slice(elems);
        b.extend_from_slice(b"$EndElements\n");
        b
    }

    fn binary41(nnodes: u64, nodes: usize, nelems: u64, elems: usize) -> Vec<u8> {
        let header = |n: u64, dim: i32, ty: i32| {
            let mut h = Vec::new();
            for v in [1u64, n, 1, n] {
                h.extend_from_slice(&v.to_le_bytes());
            }
            for v in [dim, 0, ty] {
                h.extend_from_slice(&v.to_le_bytes());
            }
            h.extend_from_slice(&n.to_le_bytes());
            h
        };
        let mut n = header(nnodes, 2, 0);
        let start = n.len();
        for tag in 1..=nnodes.min(nodes as u64 / 32) {
            n.extend_from_slice(&tag.to_le_bytes());
        }
        n.resize(start + nodes, 0);
        n.push(b'\n');
        let mut e = header(nelems, 2, 2);
        e.resize(e.len() + elems, 0);
        e.push(b'\n');
        file("4.1 1 8", &n, &e)
    }

    #[test]
    fn ascii_41_triangle() {
        let g = load(&file(
            "4.1 0 8",
            b"1 3 1 3\n2 1 0 3\n1\n2\n3\n0 0 0\n1 0 0\n0 1 0\n",
            b"1 1 1 1\n2 1 2 1\n1 1 2 3\n",
        ))
        .unwrap();
        assert_eq!(g.dim, 2);
        assert_eq!(g.point, [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        assert_eq!(g.element, [0, 1, 2]);
    }

    #[test]
    fn ascii_22_tetrahedron() {
        let g = load(&file(
            "2.2 0 8",
            b"4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n",
            b"1\n1 4 2 0 1 1 2 3 4\n",
        ))
        .unwrap();
        assert_eq!(g.dim, 3);
        assert_eq!(g.element, [0, 1, 2, 3]);
    }

    #[test]
    fn headers_and_versions() {
        assert_eq!(load(b"").unwrap_err(), "Empty GMSH file");
        assert_eq!(
            load(b"$Mesh").unwrap_err(),
            "GMSH file must begin with $MeshFormat"
        );
        assert_eq!(
            load(b"$MeshFormat\nx\n").unwrap_err(),
            "Could not read GMSH file header"
        );
        assert_eq!(
            load(&file("3.0 0 8", b"", b"")).unwrap_err(),
            "Only GMSH file format versions 4.1 and 2.2 are supported"
        );
        assert_eq!(
            load(b"$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 1 1 1\n").unwrap_err(),
            "GMSH file missing $EndNodes after $Nodes"
        );
    }

    /// Counts far beyond the bytes present are refused before anything is read or reserved.
    #[test]
    fn huge_counts_are_refused() {
        let huge = 1u64 << 61;
        assert_eq!(
            load(&binary41(huge, 64, 1, 32)).unwrap_err(),
            "Insufficient byte size of Nodes"
        );
        assert_eq!(
            load(&binary41(1, 32, huge, 32)).unwrap_err(),
            "Invalid numElements."
        );
        assert_eq!(
            load(&binary41(1, 32, 1000, 32)).unwrap_err(),
            "Insufficient byte size of Elements"
        );
        // ASCII: claimed counts stop at the first missing number
        assert_eq!(
            load(&file("2.2 0 8", b"2000000000\n1 0 0 0\n", b"1\n")).unwrap_err(),
            "Invalid number of nodes."
        );
        assert_eq!(
            load(&file("2.2 0 8", b"700000000\n1 0 0 0\n", b"1\n")).unwrap_err(),
            "Error reading node tags"
        );
        assert_eq!(
            load(&file(
                "4.1 0 8",
                b"1 99999999999 1 1 2 1 0 99999999999\n1\n",
                b""
            ))
            .unwrap_err(),
            "Error reading node tags"
        );
        // binary 2.2: a count of nodes that the section cannot hold
        let mut nodes = b"9999999\n".to_vec();
        nodes.extend_from_slice(&[1, 0, 0, 0]);
        nodes.resize(64, 0);
        assert_eq!(
            load(&file("2.2 1 8", &nodes, b"1\n")).unwrap_err(),
            "Insufficient byte size of Nodes"
        );
        assert_eq!(
            load(&file("2.2 1 8", b"x\n\x01\0\0\0", b"1\n")).unwrap_err(),
            "exception while reading GMSH file"
        );
    }

    /// Every prefix of a valid file fails cleanly (no panic, no out-of-bounds read).
    #[test]
    fn truncated_files_fail_cleanly() {
        let whole = binary41(3, 3 * 32, 1, 32);
        for n in 0..whole.len() {
            let _ = load(&whole[..n]);
        }
        let ascii = file(
            "2.2 0 8",
            b"4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n",
            b"1\n1 4 2 0 1 1 2 3 4\n",
        );
        for n in 0..ascii.len() {
            let _ = load(&ascii[..n]);
        }
    }
}
