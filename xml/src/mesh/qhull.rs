//! The binding to qhull (through the `qhull-sys` crate, which builds qhull's reentrant C
//! library, version 2020.2 8.1-alpha3: the same algorithms as the commit MuJoCo 3.1.6 pins).
//!
//! This is the only `unsafe` code of the mesh compiler. It runs qhull exactly as
//! `mjCMesh::MakeGraph` does (`qhull Qt`, then `qh_triangulate` and `qh_vertexneighbors`) and
//! copies the hull's topology out into plain vectors before freeing qhull's memory; the graph
//! itself is built from them in safe code, by the caller.
//!
//! Safety notes:
//! * qhull reports errors with `longjmp` to a `setjmp` point. `qhull_sys__try_on_qh` (C, in
//!   `qhull-sys`) sets that point and calls [`run`], so a jump crosses only `run`'s frame, which
//!   owns nothing that needs dropping (plain pointers and integers).
//! * The points buffer outlives qhull's use of it (`qh_init_B` with `ismalloc` false keeps a
//!   pointer to it until `qh_freeqhull`).
//! * Sets are NULL-terminated arrays of pointers (`FOREACHsetelement_`); lists end at the
//!   sentinel whose `next` is NULL (`FORALLvertices`, `FORALLfacets`).
#![allow(unsafe_code)]

use core::ffi::{c_char, c_int, c_void};
use core::mem::MaybeUninit;
use core::ptr;

use qhull_sys as sys;

extern "C" {
    /// `qh_vertexneighbors` (`poly2_r.c`, declared in `poly_r.h`, which `qhull-sys` does not
    /// bind): fills every vertex's set of neighboring facets.
    fn qh_vertexneighbors(qh: *mut sys::qhT);
}

/// A hull vertex: its point id and, for each neighboring facet, that facet's point ids.
pub(super) struct HullVertex {
    pub point: i32,
    pub neighbors: Vec<Vec<i32>>,
}

/// A hull facet: its orientation flag and its vertices' point ids.
pub(super) struct HullFacet {
    pub toporient: bool,
    pub vertices: Vec<i32>,
}

/// The triangulated hull as qhull lists it.
pub(super) struct Hull {
    /// `qh->num_vertices`.
    pub num_vertices: i32,
    /// `qh->num_facets`.
    pub num_facets: i32,
    /// `FORALLvertices`, in qhull's order.
    pub vertices: Vec<HullVertex>,
    /// `FORALLfacets`, in qhull's order.
    pub facets: Vec<HullFacet>,
}

/// What [`run`] needs, passed through qhull-sys's `void*`.
struct Job {
    qh: *mut sys::qhT,
    points: *mut f64,
    npoints: c_int,
    command: [c_char; 10],
}

/// The body of MuJoCo's `setjmp` block: options, input, hull, triangulation, neighbors.
unsafe extern "C" fn run(data: *mut c_void) {
    let job = data.cast::<Job>();
    let qh = (*job).qh;
    sys::qh_initflags(qh, (*job).command.as_mut_ptr());
    sys::qh_init_B(qh, (*job).points, (*job).npoints, 3, 0);
    sys::qh_qhull(qh);
    sys::qh_triangulate(qh);
    qh_vertexneighbors(qh);
}

/// The elements of a qhull set.
unsafe fn set_elements(set: *mut sys::setT) -> Vec<*mut c_void> {
    let mut out = Vec::new();
    if set.is_null() {
        return out;
    }
    let first = ptr::addr_of!((*set).e).cast::<sys::setelemT>();
    let mut i = 0;
    loop {
        let p = (*first.add(i)).p;
        if p.is_null() {
            return out;
        }
        out.push(p);
        i += 1;
    }
}

/// The point ids of a set of vertices.
unsafe fn vertex_ids(qh: *mut sys::qhT, set: *mut sys::setT) -> Vec<i32> {
    set_elements(set)
        .into_iter()
        .map(|v| sys::qh_pointid(qh, (*v.cast::<sys::vertexT>()).point))
        .collect()
}

/// Copies the hull's topology out of qhull.
unsafe fn read_hull(qh: *mut sys::qhT) -> Hull {
    let mut vertices = Vec::new();
    let mut vertex = (*qh).vertex_list;
    while !vertex.is_null() && !(*vertex).next.is_null() {
        let neighbors = set_elements((*vertex).neighbors)
            .into_iter()
            .map(|f| vertex_ids(qh, (*f.cast::<sys::facetT>()).vertices))
            .collect();
        vertices.push(HullVertex {
            point: sys::qh_pointid(qh, (*vertex).point),
            neighbors,
        });
        vertex = (*vertex).next;
    }
    let mut facets = Vec::new();
    let mut facet = (*qh).facet_list;
    while !facet.is_null() && !(*facet).next.is_null() {
        facets.push(HullFacet {
            toporient: (*facet).toporient() != 0,
            vertices: vertex_ids(qh, (*facet).vertices),
        });
        facet = (*facet).next;
    }
    Hull {
        num_vertices: (*qh).num_vertices,
        num_facets: (*qh).num_facets,
        vertices,
        facets,
    }
}

/// The convex hull of `points` (x, y, z per point), or `None` when qhull fails (flat or
/// degenerate input: MuJoCo's "qhull error"). qhull prints its own diagnostics on stderr, as
/// in MuJoCo.
pub(super) fn convex_hull(points: &mut [f64]) -> Option<Hull> {
    let npoints = c_int::try_from(points.len() / 3).ok()?;
    let mut state = Box::new(MaybeUninit::<sys::qhT>::zeroed());
    let qh = state.as_mut_ptr();
    let mut command = [0 as c_char; 10];
    for (c, b) in command.iter_mut().zip(b"qhull Qt") {
        *c = *b as c_char;
    }
    let mut job = Job {
        qh,
        points: points.as_mut_ptr(),
        npoints,
        command,
    };
    // SAFETY: `qh` points to zeroed memory the size of a qhT, initialized by `qh_zero` and
    // `qh_init_A` before any other use; `job` and `points` outlive every qhull call below;
    // qhull is freed on every path before `state` is dropped.
    unsafe {
        let stderr = sys::qhull_sys__stderr();
        sys::qh_zero(qh, stderr);
        sys::qh_init_A(
            qh,
            sys::qhull_sys__stdin(),
            sys::qhull_sys__stdout(),
            stderr,
            0,
            ptr::null_mut(),
        );
        let status = sys::qhull_sys__try_on_qh(qh, Some(run), ptr::addr_of_mut!(job).cast());
        let hull = (status == 0).then(|| read_hull(qh));
        // `!qh_ALL`: keep the short memory for qh_memfreeshort
        sys::qh_freeqhull(qh, 0);
        let (mut curlong, mut totlong) = (0, 0);
        sys::qh_memfreeshort(qh, &mut curlong, &mut totlong);
        hull
    }
}
