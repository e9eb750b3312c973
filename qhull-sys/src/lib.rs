//! qhull (reentrant `libqhull_r`, 2020.2) for mjrs's mesh compiler.
//!
//! The C sources are vendored in `qhull/` and compiled with the `cc` crate, so building needs a
//! C compiler and nothing else. Instead of bindings to qhull's structs (which would need
//! bindgen, hence libclang, or a committed layout for every target), a small C shim
//! (`src/hull.c`) runs qhull as MuJoCo 3.1.6's `mjCMesh::MakeGraph` does (`qhull Qt`,
//! `qh_triangulate`, `qh_vertexneighbors`) and returns the hull's topology as a flat list of
//! ints, which [`convex_hull`] reads into plain vectors. The only types crossing the boundary
//! are `double`, `int` and pointers to them.
#![deny(missing_docs)]

use core::ffi::c_int;

mod ffi {
    use core::ffi::c_int;

    /// `MJRS_QHULL_NOMEM` of `src/hull.h`: an allocation failed.
    pub const NOMEM: c_int = 100;

    extern "C" {
        /// See `src/hull.h`.
        pub fn mjrs_qhull_hull(
            points: *mut f64,
            npoints: c_int,
            out: *mut *mut c_int,
            len: *mut usize,
        ) -> c_int;
        /// Frees a list returned by `mjrs_qhull_hull`.
        pub fn mjrs_qhull_free(list: *mut c_int);
    }
}

/// A hull vertex: its point id and, for each neighboring facet, that facet's point ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HullVertex {
    /// Index of the input point.
    pub point: i32,
    /// The vertices (point ids) of each facet around this vertex, in qhull's order.
    pub neighbors: Vec<Vec<i32>>,
}

/// A hull facet: its orientation flag and its vertices' point ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HullFacet {
    /// qhull's `toporient`: whether the vertex order is the facet's outward orientation.
    pub toporient: bool,
    /// Point ids of the facet's vertices.
    pub vertices: Vec<i32>,
}

/// The triangulated hull as qhull lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hull {
    /// `qh->num_vertices`.
    pub num_vertices: i32,
    /// `qh->num_facets`.
    pub num_facets: i32,
    /// `FORALLvertices`, in qhull's order.
    pub vertices: Vec<HullVertex>,
    /// `FORALLfacets`, in qhull's order.
    pub facets: Vec<HullFacet>,
}

/// Why qhull gave no hull.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HullError {
    /// qhull stopped with this exit code (flat or degenerate input, too few points: MuJoCo's
    /// "qhull error").
    Qhull(i32),
    /// More points than a C `int` counts, or a point list whose length is not a multiple of 3.
    BadInput,
    /// An allocation failed.
    OutOfMemory,
}

/// The convex hull of `points` (x, y, z per point). qhull prints its own diagnostics on
/// stderr, as it does in MuJoCo.
pub fn convex_hull(points: &mut [f64]) -> Result<Hull, HullError> {
    if !points.len().is_multiple_of(3) {
        return Err(HullError::BadInput);
    }
    let npoints = c_int::try_from(points.len() / 3).map_err(|_| HullError::BadInput)?;
    let list = run(points, npoints)?;
    read_hull(&mut list.as_slice().iter().copied()).ok_or(HullError::BadInput)
}

/// Runs the shim and copies its list into Rust memory.
#[allow(unsafe_code)]
fn run(points: &mut [f64], npoints: c_int) -> Result<Vec<i32>, HullError> {
    let mut out: *mut c_int = core::ptr::null_mut();
    let mut len = 0usize;
    // SAFETY: `points` holds `3 * npoints` doubles and outlives the call (qhull keeps a pointer
    // to it only until the shim frees qhull); `out` and `len` are valid places to write.
    let status = unsafe { ffi::mjrs_qhull_hull(points.as_mut_ptr(), npoints, &mut out, &mut len) };
    if status != 0 {
        return Err(if status == ffi::NOMEM {
            HullError::OutOfMemory
        } else {
            HullError::Qhull(status)
        });
    }
    if out.is_null() {
        return Err(HullError::OutOfMemory);
    }
    // SAFETY: on success the shim returns `len` initialized ints at `out`, which stay valid until
    // `mjrs_qhull_free`; they are copied before that.
    let list = unsafe { core::slice::from_raw_parts(out, len) }.to_vec();
    // SAFETY: `out` came from `mjrs_qhull_hull` and is freed once.
    unsafe { ffi::mjrs_qhull_free(out) };
    Ok(list)
}

/// A count from the list: a non-negative int.
fn count(list: &mut impl Iterator<Item = i32>) -> Option<usize> {
    usize::try_from(list.next()?).ok()
}

/// `n` then `n` point ids.
fn point_ids(list: &mut impl Iterator<Item = i32>) -> Option<Vec<i32>> {
    let n = count(list)?;
    (0..n).map(|_| list.next()).collect()
}

fn read_vertex(list: &mut impl Iterator<Item = i32>) -> Option<HullVertex> {
    let point = list.next()?;
    let n = count(list)?;
    let neighbors = (0..n).map(|_| point_ids(list)).collect::<Option<_>>()?;
    Some(HullVertex { point, neighbors })
}

fn read_facet(list: &mut impl Iterator<Item = i32>) -> Option<HullFacet> {
    let toporient = list.next()? != 0;
    let vertices = point_ids(list)?;
    Some(HullFacet {
        toporient,
        vertices,
    })
}

/// Reads the shim's list (layout in `src/hull.c`); `None` if it is malformed.
fn read_hull(list: &mut impl Iterator<Item = i32>) -> Option<Hull> {
    let num_vertices = list.next()?;
    let num_facets = list.next()?;
    let nvertex = count(list)?;
    let vertices = (0..nvertex)
        .map(|_| read_vertex(list))
        .collect::<Option<_>>()?;
    let nfacet = count(list)?;
    let facets = (0..nfacet)
        .map(|_| read_facet(list))
        .collect::<Option<_>>()?;
    list.next().is_none().then_some(Hull {
        num_vertices,
        num_facets,
        vertices,
        facets,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube() -> Vec<f64> {
        let mut p = Vec::new();
        for i in 0..8 {
            p.extend([i & 1, (i >> 1) & 1, (i >> 2) & 1].map(f64::from));
        }
        // an interior point that must not be a hull vertex
        p.extend([0.5, 0.5, 0.5]);
        p
    }

    #[test]
    fn a_cube_has_eight_vertices_and_twelve_triangles() {
        let hull = convex_hull(&mut cube()).unwrap();
        assert_eq!((hull.num_vertices, hull.num_facets), (8, 12));
        assert_eq!(hull.vertices.len(), 8);
        assert!(hull.vertices.iter().all(|v| v.point != 8));
        assert!(hull.facets.iter().all(|f| f.vertices.len() == 3));
        // every neighbor facet of a vertex contains that vertex
        for v in &hull.vertices {
            assert!(!v.neighbors.is_empty());
            assert!(v.neighbors.iter().all(|f| f.contains(&v.point)));
        }
    }

    #[test]
    fn flat_and_tiny_inputs_are_qhull_errors() {
        let mut flat: Vec<f64> = (0..5)
            .flat_map(|i: i32| [f64::from(i), f64::from(i * i), 0.0])
            .collect();
        assert!(matches!(convex_hull(&mut flat), Err(HullError::Qhull(_))));
        assert!(matches!(
            convex_hull(&mut [0.0; 6]),
            Err(HullError::Qhull(_))
        ));
    }

    #[test]
    fn ragged_input_is_refused_before_qhull() {
        assert_eq!(convex_hull(&mut [0.0; 7]), Err(HullError::BadInput));
    }

    #[test]
    fn a_malformed_list_is_refused() {
        // counts that run past the end, and trailing ints
        assert!(read_hull(&mut [4, 4, 1, 0, 2].into_iter()).is_none());
        assert!(read_hull(&mut [0, 0, 0, 0, 7].into_iter()).is_none());
        assert!(read_hull(&mut [0, 0, 0, -1].into_iter()).is_none());
    }
}
